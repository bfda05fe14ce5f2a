"""The section scan as it was before the fast scan: `ingest/sections.py` of main at a4dbc3a, its code kept
verbatim below as the oracle `tests/test_sections_scan.py` holds the fast scan to (the same sections and
gaps on every input). Change it only with a deliberate change of what the scan finds, said in the commit.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ingest.document import Section
from ingest.sections import nesting

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
_SOFT_START = re.compile(r"(?<=[.;:)\]\"”’0-9])[^\S\n]{3,}(?=[(\dA-Z§])")
_BLANKS = re.compile(r"[^\S\n]*")

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


def _line_starts(text: str) -> list[int]:
    """Offsets of the first non-blank character of every line, plus soft starts in flattened text."""
    starts = []
    for m in re.finditer(r"(?m)^[^\S\n]*(?=\S)", text):
        starts.append(m.end())
    soft = [m.end() for m in _SOFT_START.finditer(text)]
    if soft:
        starts = sorted(set(starts).union(soft))
    return starts


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
        if _TOC_LEADER.search(line):
            continue  # dot leaders: a contents line (only the first 200 characters of a line are read)
        if (
            (line_end != -1 or p + 200 >= len(text))
            and len(line) < 120
            and _TOC_TAIL.search(line)
            and not re.search(r"[.;:]\s+\S", line[:-6])
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
            later = {(cands[j].family, cands[j].parts) for j in range(run[-1] + 1, len(cands))}
            again = [i for i in run if (cands[i].family, cands[i].parts) in later]
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


@dataclass(slots=True)
class _Open:
    family: str
    parts: tuple[int, ...]
    label: str
    titled: bool = False


def _fmt(label: str) -> str:
    return label.rstrip(".:")


_RESTARTS = ("article", "decimal1", "decimal2")  # top-level lists a table of contents may have run through


_CAPS_LINE = re.compile(r"(?m)^[^\S\n]*[A-Z][A-Z0-9 &,'’\-]{2,60}:?[^\S\n]*$")


def _structural(family: str) -> bool:
    return family == "article" or family.startswith(("decimal", "annex"))


def _sequence(text: str, cands: list[_Cand]) -> tuple[list[tuple[_Cand, int]], list[str]]:
    """Accept candidates that continue or open a numbered sequence; give each its level."""
    stack: list[_Open] = []
    accepted: list[tuple[_Cand, int]] = []
    gaps: list[str] = []

    first: dict[
        str, tuple[int, int]
    ] = {}  # top-level family -> (its first index in accepted, len(gaps) then)
    for c in cands:
        if not accepted and c.family.startswith("annex") and re.search(r"\d[.\-]\d", c.label):
            continue  # "Exhibit 10.1" above the title: the filing's exhibit number, not a schedule
        readings = [(c.family, c.parts)]
        if c.alt is not None:
            # "(i)" right after "(h)" is a letter; otherwise a roman numeral (never a letter that jumps)
            j = _find(stack, c.alt[0])
            if j >= 0 and stack[j].parts[0] == c.alt[1][0] - 1:
                readings = [c.alt]
        if accepted and not _structural(c.family) and stack and not _structural(stack[-1].family):
            # an unlabelled capitals line ("RECITALS") between two lists closes the first one
            prev = accepted[-1][0]
            eol = text.find("\n", prev.rest, c.start)
            if eol != -1 and _CAPS_LINE.search(text, eol + 1, c.start):
                while stack and not _structural(stack[-1].family):
                    stack.pop()
        placed = False
        for family, parts in readings:
            level = _place(stack, family, parts, c, gaps)
            if level:
                c.family, c.parts = family, parts
                accepted.append((c, level))
                placed = True
                break
        if not placed and c.family in _RESTARTS and set(c.parts) == {1} and c.family in first:
            # The top-level list starts again at 1. If what was accepted since its first start is
            # dense (entries a line or two apart), that was a table of contents: drop it and restart.
            i0, g0 = first[c.family]
            starts = [a.start for a, _ in accepted[i0:]] + [c.start]
            steps = sorted(b - a for a, b in itertools.pairwise(starts))
            headings_only = all(
                a.family in _RESTARTS or a.family.startswith("annex") for a, _ in accepted[i0:]
            )
            contents = headings_only and len(steps) >= 3 and steps[len(steps) // 2] < 200
            if contents or c.titled:
                # a contents list is dropped; a titled "1. DEFINITIONS" after numbered recitals starts
                # the body's own list (the recitals stay)
                if contents:
                    del accepted[i0:]
                    del gaps[g0:]
                stack.clear()
                level = _place(stack, c.family, c.parts, c, gaps)
                if level:
                    accepted.append((c, level))
                    placed = True
                    first[c.family] = (len(accepted) - 1, len(gaps))
        if placed and c.family in _RESTARTS and c.family not in first:
            first[c.family] = (len(accepted) - 1, len(gaps))
    return accepted, gaps


_WORDS = re.compile(r"[A-Za-z][A-Za-z'’\-]*")


def _titleish(s: str) -> bool:
    """'LIMITATION OF LIABILITY', 'Limitation of Liability', 'Term' — not 'The Supplier shall pay'."""
    if re.search(r"[.;:]\s+\S", s):
        return False
    words = _WORDS.findall(s)
    if not words or len(words) > 12:
        return False
    if s.upper() == s:
        return True
    return all(w[0].isupper() for w in words if len(w) > 3)


def _find(stack: list[_Open], family: str) -> int:
    for j in range(len(stack) - 1, -1, -1):
        if stack[j].family == family:
            return j
    return -1


def _place(stack: list[_Open], family: str, parts: tuple[int, ...], c: _Cand, gaps: list[str]) -> int:
    """Place one reading on the stack; the level (1-based) or 0 when it is not a clause."""
    n = parts[-1]

    def find(fam: str) -> int:
        return _find(stack, fam)

    if family.startswith("annex"):
        j = find(family)
        if j >= 0 and n < stack[j].parts[0]:
            return 0
        if j >= 0 and n > stack[j].parts[0] + 1:
            gaps.append(f"numbering jumps from {_fmt(stack[j].label)} to {_fmt(c.label)}")
        stack[:] = [_Open(family, parts, c.label, c.titled)]
        return 1
    if family == "article":
        j = find("article")
        if j >= 0:
            if n <= stack[j].parts[0]:
                return 0
            if n > stack[j].parts[0] + 1:
                gaps.append(f"numbering jumps from {_fmt(stack[j].label)} to {_fmt(c.label)}")
            del stack[j:]
        elif n > 2 and stack:
            return 0  # inside a clause list, "Article 7 …" at a line start is a cross-reference
        elif stack and stack[0].family.startswith("annex"):
            del stack[1:]  # articles of a schedule (a form of agreement annexed)
        else:
            stack.clear()
        stack.append(_Open(family, parts, c.label, c.titled))
        return len(stack)

    j = find(family)
    if j >= 0:
        prev = stack[j].parts
        if family.startswith("decimal") and parts[:-1] != prev[:-1]:
            if parts[:-1] < prev[:-1] or n > 1:
                return 0  # "3.4" after "4.1", or "4.5" after "1.20": a cross-reference, not a clause
            if parts[:-2] != prev[:-2] or parts[-2] != prev[-2] + 1:
                gaps.append(f"numbering jumps from {_fmt(stack[j].label)} to {_fmt(c.label)}")
            # "2.1" after "1.20" with no "2." line: the parent advanced unseen; keep it in step
            if j > 0 and stack[j - 1].family == f"decimal{len(parts) - 1}":
                stack[j - 1].parts = parts[:-1]
        else:
            if n <= prev[-1]:
                return 0  # backwards or repeated: a contents list, a cell, or a cross-reference
            if n > prev[-1] + 1:
                gaps.append(f"numbering jumps from {_fmt(stack[j].label)} to {_fmt(c.label)}")
        del stack[j:]
        stack.append(_Open(family, parts, c.label, c.titled))
        return len(stack)

    # A style not open yet: it must start a list, nested under what is open.
    if family.startswith("decimal") and len(parts) > 1:
        k = len(parts)
        parent = find(f"decimal{k - 1}")
        if parent >= 0:
            if parts[:-1] != stack[parent].parts or n > 1:
                if parts[:-1] < stack[parent].parts:
                    return 0
                # "4.1" while "3" is open: clause 4 had no heading line of its own; accept and note it
                if parts[:-1] > stack[parent].parts and n <= 1:
                    del stack[parent + 1 :]
                    stack.append(_Open(family, parts, c.label, c.titled))
                    return len(stack)
                return 0
            del stack[parent + 1 :]
        else:
            art = find("article")
            if art >= 0 and len(parts) == 2 and parts[0] != stack[art].parts[0]:
                return 0  # "3.1" under ARTICLE 5 is a cross-reference or a contents line
            if n > 1 and not (art < 0 and not stack and n <= 2):
                return 0
            if art >= 0:
                del stack[art + 1 :]
        stack.append(_Open(family, parts, c.label, c.titled))
        return len(stack)
    if family == "decimal1":
        # Under an article or a schedule, and under a titled letter heading ("A. AUTHORITY OF AGENCY");
        # recitals ("A. TouchStar produces …") and other lists are closed first.
        frame = max(
            find("article"), max((j for j, o in enumerate(stack) if o.family.startswith("annex")), default=-1)
        )
        if not all(o.titled for o in stack[frame + 1 :]):
            del stack[frame + 1 :]
        if n > (1 if stack else 3):
            return 0  # a list cannot start at "7." out of nowhere
        stack.append(_Open(family, parts, c.label, c.titled))
        return len(stack)
    if n != 1:
        return 0
    stack.append(_Open(family, parts, c.label, c.titled))
    return len(stack)


def _heading(text: str, start: int, limit: int, label: str) -> str:
    # the oracle is for where the scan finds labels; a section's heading is read by the product's own reader
    return nesting._heading(text, start, limit, label)


def _kind(family: str, body: str) -> str:
    if family == "article":
        return "article"
    if family.startswith("annex"):
        return "exhibit" if family.endswith(("exhibit", "attachment")) else "schedule"
    if _DEFINES.match(body):
        return "definition"
    return "clause"


def _body_after_heading(text: str, rest: int, heading: str, end: int) -> str:
    """The first few hundred characters of a section's body, after its label and any heading."""
    p = rest
    if heading:
        i = text.find(heading, rest, min(end, rest + 300))
        if i != -1:
            p = i + len(heading)
            while p < end and text[p] in ".:;-–— \t\n":
                p += 1
    body = text[p : min(end, p + 300)]
    # "1.15 LINK shall mean": the heading *is* the defined term; read from the label instead
    return (
        body if not _DEFINES.match(text[rest : min(end, rest + 300)]) else text[rest : min(end, rest + 300)]
    )


def detect_sections(
    text: str,
    *,
    skip: Sequence[tuple[int, int]] = (),
) -> SectionScan:
    """Detect the sections of `text`. `skip` holds ranges where no section may start (table cells,
    page furniture). Never raises on odd text; every Section has `0 <= start < end <= len(text)`."""
    cands = _drop_contents(text, _candidates(text, skip))
    accepted, gaps = _sequence(text, cands)

    # Ends: a section runs until the next one at the same or a higher level (a linear stack pass).
    ends = [len(text)] * len(accepted)
    open_: list[int] = []
    for i, (c, level) in enumerate(accepted):
        while open_ and accepted[open_[-1]][1] >= level:
            ends[open_.pop()] = c.start
        open_.append(i)

    sections: list[Section] = []
    for i, (c, level) in enumerate(accepted):
        end = ends[i]
        while end > c.start and text[end - 1].isspace():
            end -= 1
        if end <= c.start:
            continue
        next_start = accepted[i + 1][0].start if i + 1 < len(accepted) else len(text)
        heading = _heading(text, c.rest, next_start, c.label)
        kind = _kind(c.family, _body_after_heading(text, c.rest, heading, end))
        sections.append(
            Section(label=_fmt(c.label), heading=heading, level=level, kind=kind, start=c.start, end=end)
        )
    return SectionScan(sections=sections, gaps=gaps)
