"""Pass 1, candidates: the labels a line can start with, and the lines that only look numbered (tables of
contents, wrapped cross-references and numbers); pass 2, dropping a table of contents."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ingest.document import Section

_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_ROMAN_VALID = re.compile(r"(?i)^(?=[mdclxvi])m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")


def roman_to_int(s: str) -> int | None:
    """The value of a roman numeral ("iv" → 4, "XII" → 12), or None if `s` is not one."""
    if not s or not _ROMAN_VALID.match(s):
        return None
    s = s.lower()
    total = 0
    for i, c in enumerate(s):
        v = _ROMAN[c]
        total += -v if i + 1 < len(s) and _ROMAN[s[i + 1]] > v else v
    return total


# --- label patterns, tried at a line start -------------------------------------------------------------
_ARTICLE = re.compile(
    r"(?P<label>(?:ARTICLE|Article)[^\S\n]+(?P<num>[IVXLC]{1,7}|\d{1,3}))(?P<dot>[.:])?(?=\s|$|(?<=[.:])[A-Z])"
)
_SECTION = re.compile(
    r"(?P<label>(?:SECTION|Section|§)[^\S\n]*(?P<num>\d{1,3}(?:\.\d{1,3}){0,3}))(?P<dot>[.:])?(?=\s|$|(?<=[.:])[A-Z])"
)
_ANNEX = re.compile(
    r"(?P<label>(?P<word>SCHEDULE|Schedule|EXHIBIT|Exhibit|ANNEX|Annex|APPENDIX|Appendix|ATTACHMENT|Attachment)"
    r"[^\S\n]+(?P<num>[A-Z]{1,2}|\d{1,3}|[IVX]{1,5})(?:[-.]\d{1,2})?)(?P<dot>[.:])?(?=\s|$)"
)
# "1." "1.1" "1.1." "1.PROMOTION" (no space, a capital follows): the full stop of a lone number is required.
_DECIMAL = re.compile(r"(?P<label>(?P<num>\d{1,3}(?:\.\d{1,3}){0,4}))(?P<dot>\.)?(?=\s|(?<=\.)[A-Z]|$)")
_PAREN = re.compile(
    r"(?P<label>\((?P<num>[a-z]{1,2}|[ivxlc]{1,6}|[A-Z]{1,2}|[IVXLC]{1,6}|\d{1,2})\))(?=\s|$)"
)
_CLOSE = re.compile(r"(?P<label>(?P<num>\d{1,2}|[a-z])\))(?=[^\S\n])")  # "1)" "a)"
_LETTER_DOT = re.compile(r"(?P<label>(?P<num>[A-Z]|[a-z]|[IVX]{1,5})\.)(?=[^\S\n])")  # "A." "a." "IV."

_TOC_LEADER = re.compile(r"(?:\.[^\S\n]?){4,}|…{2,}|_{4,}")
_TOC_TAIL = re.compile(r"(?:[^\S\n]{2,}|\t)(?:\d{1,4}|[ivxlc]{1,6})[^\S\n]*$")
_NEXT_WORD = re.compile(r"(?:[^\S\n]|[:.\-–—])*(?P<word>[^\s]*)")
# a sentence end, then 3+ spaces, then a label (the end is where the label starts)
_SOFT_START = re.compile(r"[.;:)\]\"”’0-9][^\S\n]{3,}(?=[(\dA-Z§])")
_BLANKS = re.compile(r"[^\S\n]*")
_SENTENCE_BREAK = re.compile(r"[.;:]\s+\S")

#: Words that follow a number that was wrapped onto a line of its own ("30\ndays"), not a clause label.
_UNIT_WORDS = frozenset(
    re.findall(
        r"\S+",
        "day days month months year years week weeks hour hours minute minutes business calendar working "
        "percent per times copies units shares dollars cents %",
    )
)
#: Words that follow a cross-reference a line wrap put at a line start ("(a) above", "(c) hereof").
_XREF_WORDS = frozenset(
    re.findall(
        r"\S+",
        "above below hereof hereto herein hereunder thereof thereto therein of and or is are was were "
        "has have "
        "shall will may must applies apply",
    )
)
#: A line ending in one of these runs on into the next: a label at the start of that line is a
#: cross-reference ("… described in the attached\nEXHIBIT D.", "… arbitration under\nSection 12.2").
_RUN_ON_WORDS = frozenset(
    re.findall(
        r"\S+",
        "in of to under see the attached with by pursuant from at on per into within between "
        "accordance set forth described defined provided section sections article articles clause clauses "
        "paragraph paragraphs schedule exhibit annex appendix no",
    )
)
_LAST_WORD = re.compile(r"([A-Za-z]+)[^\S\n]*\n[^\S\n]*$")
_SP = r"[^\S\n]+"  # a run of spaces on one line: PDF text often has U+00A0 between words
_DEFINING_VERBS = (
    "means|shall mean|mean|has the meaning|have the meaning|shall have the meaning|refers to|"
    "shall refer to|is defined|includes|shall include"
).replace(" ", _SP)
_DEFINES = re.compile(
    r"[^\S\n]*(?:[\"“”'‘’]{1,2}[A-Z][^\"“”\n]{0,80}?[\"“”'‘’]{1,2}|[A-Z](?:[A-Z0-9&/\-]|[^\S\n]){1,60}[A-Z0-9]"
    # or a Title Case term: "Affiliate means", "Competitor Change of Control means"
    r"|[A-Z][\w’'&/\-]*(?:[^\S\n]+(?:[A-Z][\w’'&/\-]*|of|and|or|the|for|to|in|on|a|an)){0,7})"
    r"(?:[^\S\n]|,)*(?:\([^)\n]{0,80}\)(?:[^\S\n]|,)*)?"
    rf"(?:{_DEFINING_VERBS})\b"
)
_HEADING_END = re.compile(r"\.(?=\s|$)|[:;]|\n|[^\S\n]{3,}")

_TOP = ("article", "annex")


@dataclass(slots=True)
class _Cand:
    start: int
    label: str
    # "article", "annex:<word>", "decimal<k>", "(a)", "(A)", "(i)", "(I)", "(1)", "1)", "a)", "a.", "A.", "I."
    family: str
    parts: tuple[int, ...]
    rest: int  # where the text after the label starts
    alt: tuple[str, tuple[int, ...]] | None = None  # another reading: "(i)" as a letter
    titled: bool = False  # the label's line is a short title ("A. AUTHORITY OF AGENCY"), not a sentence


@dataclass
class SectionScan:
    """The sections found, in text order, and the numbering gaps seen (for notes)."""

    sections: list[Section]
    gaps: list[str]


def _next_word(text: str, pos: int) -> str:
    m = _NEXT_WORD.match(text, pos)
    return m["word"] if m else ""


def _heading_like(text: str, pos: int) -> bool:
    """After a heading label: end of line, a capital, a digit, a quote or a bracket, not a lower-case word."""
    p = _BLANKS.match(text, pos).end()  # type: ignore[union-attr]
    if p < len(text) and text[p] in "-–—" and p + 1 < len(text) and text[p + 1] in " \t\u00a0":
        p = _BLANKS.match(text, p + 1).end()  # type: ignore[union-attr]  # "SCHEDULE 2 - DATA PROCESSING"
    if p >= len(text) or text[p] == "\n":
        return True
    c = text[p]
    return c.isupper() or c.isdigit() or c in "\"“‘'([§"


def _letter_value(s: str) -> int | None:
    """'a' → 1 … 'z' → 26, 'aa' → 27 … 'zz' → 52 (either case)."""
    s = s.lower()
    if len(s) == 1 and s.isalpha():
        return ord(s) - 96
    if len(s) == 2 and s[0] == s[1] and s.isalpha():
        return 26 + ord(s[0]) - 96
    return None


def _match_label(text: str, p: int, line: str) -> _Cand | None:
    c = text[p]
    if c in "ASE§":
        if m := _ARTICLE.match(text, p):
            num = m["num"]
            art = int(num) if num.isdigit() else roman_to_int(num)
            if art and _heading_like(text, m.end()):
                return _Cand(p, m["label"], "article", (art,), m.end())
        if (m := _SECTION.match(text, p)) and _heading_like(text, m.end()):
            parts = tuple(int(x) for x in m["num"].split("."))
            return _Cand(p, m["label"], f"decimal{len(parts)}", parts, m.end())
        if m := _ANNEX.match(text, p):
            num = m["num"]
            if num.isdigit():
                n: int | None = int(num)
            elif len(num) == 1:
                n = ord(num) - 64
            else:
                n = roman_to_int(num) or _letter_value(num)
            if n and _heading_like(text, m.end()):
                return _Cand(p, m["label"], f"annex:{m['word'].lower()}", (n,), m.end())
    if c.isdigit():
        if m := _DECIMAL.match(text, p):
            parts = tuple(int(x) for x in m["num"].split("."))
            if len(parts) == 1 and not m["dot"]:
                if m2 := _CLOSE.match(text, p):  # "1) Duties"
                    return _num_item(text, p, m2, "1)")
                eol = text.find("\n", m.end(), m.end() + 100)
                head = text[m.end() : eol if eol != -1 else m.end() + 100].strip()
                if head and head.upper() == head and re.search(r"[A-Z]{3}", head) and len(head) <= 80:
                    return _Cand(p, m["label"], "decimal1", parts, m.end())  # "7 HOURS OF WORK"
                return None  # "30 days" wrapped onto a line: a lone number needs its full stop
            if parts[0] == 0 or not _heading_like(text, m.end()):
                return None
            if _next_word(text, m.end()).lower().rstrip(".,;") in _UNIT_WORDS:
                return None
            return _Cand(p, m["label"], f"decimal{len(parts)}", parts, m.end())
        if m := _CLOSE.match(text, p):
            return _num_item(text, p, m, "1)")
        return None
    if c == "(":
        m = _PAREN.match(text, p)
        if m is None:
            return None
        word = _next_word(text, m.end()).lower().rstrip(".,;")
        if word in _XREF_WORDS:
            return None
        num = m["num"]
        if num.isdigit():
            if word in _UNIT_WORDS:
                return None  # "thirty\n(30) days"
            return _Cand(p, m["label"], "(1)", (int(num),), m.end())
        return _letters(p, m["label"], num, m.end(), "(a)", "(A)", "(i)", "(I)")
    if c.isalpha():
        if (m := _CLOSE.match(text, p)) and c.islower():
            word = _next_word(text, m.end()).lower()
            if word not in _XREF_WORDS:
                return _Cand(p, m["label"], "a)", (ord(c) - 96,), m.end())
            return None
        if (m := _LETTER_DOT.match(text, p)) and _heading_like(text, m.end()):
            num = m["num"]
            if num.islower():
                return _Cand(p, m["label"], "a.", (ord(num) - 96,), m.end())
            return _letters(p, m["label"], num, m.end(), "", "A.", "", "I.")
    return None


def _num_item(text: str, p: int, m: re.Match[str], family: str) -> _Cand | None:
    if _next_word(text, m.end()).lower().rstrip(".,;") in _UNIT_WORDS | _XREF_WORDS:
        return None
    return _Cand(p, m["label"], family, (int(m["num"]),), m.end())


def _letters(p: int, label: str, num: str, rest: int, lo: str, up: str, rlo: str, rup: str) -> _Cand | None:
    """A letter or roman label; "(i)", "(v)", "(x)" … are both, decided later by what came before."""
    upper = num.isupper()
    letter = _letter_value(num)
    roman = roman_to_int(num)
    fam_letter = up if upper else lo
    fam_roman = rup if upper else rlo
    if roman is not None and fam_roman and (letter is None or len(num) > 1 or num.lower() in "ivx"):
        alt = (fam_letter, (letter,)) if letter is not None and fam_letter else None
        return _Cand(p, label, fam_roman, (roman,), rest, alt)
    if letter is not None and fam_letter:
        return _Cand(p, label, fam_letter, (letter,), rest)
    return None


#: What a label can start with: every character `_match_label` can accept at a line start. A line that
#: begins any other way ("the Supplier shall …", "$1,000", "“Fees” means") is no candidate, so the scan
#: never visits it — most lines of a contract are wrapped prose.
_LABEL_HEAD = (
    r"[\d(§]|(?:ARTICLE|Article|SECTION|Section|SCHEDULE|Schedule|EXHIBIT|Exhibit|ANNEX|Annex"
    r"|APPENDIX|Appendix|ATTACHMENT|Attachment)|[a-z]\)|[A-Za-z]\.|[IVX]{1,5}\."
)
# After a newline (a literal first character, which the regex engine scans for quickly), or at offset 0.
_LABEL_LINE = re.compile(rf"\n[^\S\n]*(?={_LABEL_HEAD})")
_LABEL_FIRST = re.compile(rf"[^\S\n]*(?={_LABEL_HEAD})")
_LABEL_AT = re.compile(_LABEL_HEAD)


def _line_starts(text: str) -> list[int]:
    """Where a label may stand: the first non-blank character of every line, and the soft starts of text
    flattened by a PDF conversion, at which a label can begin (`_LABEL_HEAD`). One pass of each regex;
    `tests/test_sections_scan.py` holds the result to the scan of every line it replaced."""
    first = _LABEL_FIRST.match(text)
    starts = [first.end()] if first else []
    starts.extend(m.end() for m in _LABEL_LINE.finditer(text))
    soft = [m.end() for m in _SOFT_START.finditer(text) if _LABEL_AT.match(text, m.end())]
    if soft:
        starts = sorted(set(starts).union(soft))
    return starts


def _toc_leader(line: str) -> bool:
    """`_TOC_LEADER` in `line`; its regex runs only where the characters it needs are there."""
    return (line.count(".") >= 4 or "……" in line or "____" in line) and bool(_TOC_LEADER.search(line))


def _toc_tail(line: str) -> bool:
    """`_TOC_TAIL` in `line` (one line, no newline): only a line ending in a digit or a roman letter."""
    tail = line.rstrip()  # the same whitespace as the regex's \s
    return bool(tail) and (tail[-1].isdecimal() or tail[-1] in "ivxlc") and bool(_TOC_TAIL.search(line))


def _candidates(text: str, skip: Sequence[tuple[int, int]]) -> list[_Cand]:
    skip_sorted = sorted(skip)
    skip_starts = [a for a, _ in skip_sorted]
    out: list[_Cand] = []
    for p in _line_starts(text):
        if skip_sorted:
            i = bisect.bisect_right(skip_starts, p) - 1
            if i >= 0 and skip_sorted[i][0] <= p < skip_sorted[i][1]:
                continue
            # skip ranges may overlap; check the few before as well
            if any(a <= p < b for a, b in skip_sorted[max(0, i - 3) : i]):
                continue
        c = text[p]
        if not (c.isalnum() or c in "(§"):
            continue
        line_end = text.find("\n", p, p + 200)
        line = text[p : line_end if line_end != -1 else min(len(text), p + 200)]
        if _toc_leader(line):
            continue  # dot leaders: a contents line (only the first 200 characters of a line are read)
        if (
            (line_end != -1 or p + 200 >= len(text))
            and len(line) < 120
            and _toc_tail(line)
            and not _SENTENCE_BREAK.search(line[:-6])
        ):
            continue  # "5. Term        7": a short line ending in a page number
        cand = _match_label(text, p, line)
        if cand is not None and p > 0:
            lw = _LAST_WORD.search(text, max(0, p - 40), p)
            if lw and lw.group(1).lower() in _RUN_ON_WORDS:
                continue  # "… under\nSection 12.2 …": the sentence runs on; a cross-reference
        if cand is not None:
            q = _NEXT_WORD.match(text, cand.rest).start("word")  # type: ignore[union-attr]
            stop = _HEADING_END.search(text, q, q + 120)
            rest = text[q : stop.start() if stop else q + 120].strip()
            cand.titled = bool(rest) and len(rest) <= 80 and _titleish(rest)
            out.append(cand)
    return out


def _drop_contents(text: str, cands: list[_Cand]) -> list[_Cand]:
    """Remove a table of contents: 3+ top-level labels in a row with no text between them whose
    labels appear again later in the document; and lists of schedules (annex labels a line each)."""
    top = [
        i
        for i, c in enumerate(cands)
        if c.family in ("article", "decimal1", "decimal2") or c.family.startswith("annex")
    ]
    drop: set[int] = set()
    run: list[int] = []
    last = {(c.family, c.parts): i for i, c in enumerate(cands)}  # where each label occurs last

    def short(i: int) -> bool:
        nxt = cands[i + 1].start if i + 1 < len(cands) else len(text)
        return len(text[cands[i].rest : nxt].strip()) <= 160

    def flush() -> None:
        # a list of schedules ("Annex 1: …\nAnnex 2: …\nSchedule 3.2: …"): two or more annex labels in a
        # row with a line each are a list of what is attached, not the attachments themselves
        annex = [i for i in run if cands[i].family.startswith("annex")]
        if (
            len(annex) >= 2
            and all(b == a + 1 for a, b in itertools.pairwise(annex))
            and any(c.family in ("article", "decimal1") and c.parts == (1,) for c in cands[annex[-1] + 1 :])
        ):
            drop.update(annex)  # ... when the body's own "1." or "ARTICLE I" comes after the list
        if len(run) >= 3:
            again = [i for i in run if last[(cands[i].family, cands[i].parts)] > run[-1]]
            if len(again) >= 0.6 * len(run):
                drop.update(again)  # the contents lines; a real heading caught in the run stays
        run.clear()

    prev = -2
    for i in top:
        if short(i) and (not run or i == prev + 1):
            run.append(i)
        else:
            flush()
            if short(i):
                run.append(i)
        prev = i
    flush()
    return [c for i, c in enumerate(cands) if i not in drop]


_WORDS = re.compile(r"[A-Za-z][A-Za-z'’\-]*")


def _titleish(s: str) -> bool:
    """'LIMITATION OF LIABILITY', 'Limitation of Liability', 'Term' — not 'The Supplier shall pay'."""
    if _SENTENCE_BREAK.search(s):
        return False
    words = _WORDS.findall(s)
    if not words or len(words) > 12:
        return False
    if s.upper() == s:
        return True
    return all(w[0].isupper() for w in words if len(w) > 3)
