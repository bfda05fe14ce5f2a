"""Finding the clauses of a contract in its canonical text.

A section starts at the beginning of a line with a label a contract uses for its own structure —
"ARTICLE V", "Section 5", "11.", "11.2", "(a)", "(iv)", "Schedule 1", "Exhibit A" — and ends where the
next section at the same or a higher level starts. Lines that only *look* numbered are rejected:
table-of-contents entries (dot leaders, trailing page numbers), cross-references that a line wrap put at
the start of a line ("Section 11.2 above"), and wrapped numbers ("30\\ndays"). Numbered sequences are
tracked per level, so a jump from 4 to 6 is reported as a gap, and a number that goes backwards is
not taken for a new clause.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ingest.document import Section

_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def roman_to_int(s: str) -> int | None:
    s = s.lower()
    if not s or any(c not in _ROMAN for c in s):
        return None
    total = 0
    for i, c in enumerate(s):
        v = _ROMAN[c]
        total += -v if i + 1 < len(s) and _ROMAN[s[i + 1]] > v else v
    return total


_LINE_START = re.compile(r"(?m)^[ \t\u00a0]*")

# Each pattern is tried at the first non-blank character of a line.
_ARTICLE = re.compile(r"(?P<label>(?:ARTICLE|Article)[ \t]+(?P<num>[IVXLC]+|\d{1,3}))\b\.?")
_SECTION = re.compile(
    r"(?P<label>(?:SECTION|Section)[ \t]+(?P<num>\d{1,3}(?:\.\d{1,3})*))\.?(?=[ \t]|$)", re.M
)
_ANNEX = re.compile(
    r"(?P<label>(?P<word>SCHEDULE|Schedule|EXHIBIT|Exhibit|ANNEX|Annex|APPENDIX|Appendix|ATTACHMENT|Attachment)"
    r"[ \t]+(?P<num>[A-Z]{1,2}|\d{1,3}|[IVX]+)(?:-\d+)?)\b\.?"
)
_DECIMAL = re.compile(r"(?P<label>(?P<num>\d{1,3}(?:\.\d{1,3})*)\.?)(?=[ \t])")
_PAREN = re.compile(r"(?P<label>\((?P<num>[a-z]{1,2}|[ivxlc]{1,6}|\d{1,2}|[A-Z])\))(?=[ \t])")

_TOC_TAIL = re.compile(r"(\.{3,}|…{2,}|[ \t]{3,})\s*\d{1,4}\s*$")
_DEFINES = re.compile(
    r"^\s*(?:[\"“”'‘’]{1,2}[A-Z][^\"“”\n]{0,80}[\"“”'‘’]{1,2})\s*(?:\([^)]*\)\s*)?"
    r"(?:means|shall mean|has the meaning|have the meaning|refers to|includes)\b"
)
_HEADING_END = re.compile(r"[.:;]\s|\n|$")


@dataclass
class _Cand:
    start: int
    label: str
    family: str  # "article" | "section" | "decimal" | "annex:<word>" | "alpha" | "roman" | "num" | "ALPHA"
    parts: tuple[int, ...]
    rest_start: int


def _first_word_ok(text: str, pos: int) -> bool:
    """After a label: end of line, a capital, a quote or an opening bracket — not a lower-case word."""
    m = re.compile(r"[ \t]*").match(text, pos)
    p = m.end() if m else pos
    if p >= len(text) or text[p] == "\n":
        return True
    c = text[p]
    return c.isupper() or c in "\"“‘'([" or c.isdigit()


def _candidates(text: str, skip: Sequence[tuple[int, int]]) -> Iterable[_Cand]:
    for m in _LINE_START.finditer(text):
        p = m.end()
        if p >= len(text) or text[p] == "\n":
            continue
        if any(a <= p < b for a, b in skip):
            continue
        line_end = text.find("\n", p)
        line = text[p : line_end if line_end != -1 else len(text)]
        if _TOC_TAIL.search(line) and len(line) < 160:
            continue
        cand = _match_label(text, p)
        if cand is not None:
            yield cand


def _match_label(text: str, p: int) -> _Cand | None:
    if m := _ARTICLE.match(text, p):
        num = m["num"]
        n = int(num) if num.isdigit() else roman_to_int(num)
        if n and _first_word_ok(text, m.end()):
            return _Cand(p, m["label"], "article", (n,), m.end())
    if m := _ANNEX.match(text, p):
        word = m["word"].lower()
        num = m["num"]
        n = int(num) if num.isdigit() else (roman_to_int(num) or (ord(num[0]) - 64))
        if _first_word_ok(text, m.end()):
            return _Cand(p, m["label"], f"annex:{word}", (n,), m.end())
    if m := _SECTION.match(text, p):
        parts = tuple(int(x) for x in m["num"].split("."))
        if _first_word_ok(text, m.end()):
            return _Cand(p, m["label"], "decimal", parts, m.end())
    if m := _DECIMAL.match(text, p):
        parts = tuple(int(x) for x in m["num"].split("."))
        if len(parts) == 1 and not m["label"].endswith("."):
            return None  # "30 days" wrapped onto a line; a bare top-level number needs its full stop
        if parts[0] == 0 or not _first_word_ok(text, m.end()):
            return None
        return _Cand(p, m["label"], "decimal", parts, m.end())
    if m := _PAREN.match(text, p):
        num = m["num"]
        if num.isdigit():
            return _Cand(p, m["label"], "num", (int(num),), m.end())
        if num.isupper():
            return _Cand(p, m["label"], "ALPHA", (ord(num) - 64,), m.end())
        roman = roman_to_int(num)
        alpha = ord(num[0]) - 96 if len(num) == 1 else (26 + ord(num[1]) - 96 if num[0] == num[1] else None)
        fam = "roman" if roman is not None and (len(num) > 1 or num in "ivx") else "alpha"
        if fam == "roman" and roman is not None:
            return _Cand(p, m["label"], "roman", (roman,), m.end())
        if alpha is not None:
            return _Cand(p, m["label"], "alpha", (alpha,), m.end())
    return None


def _heading(text: str, start: int, limit: int) -> str:
    m = re.compile(r"[ \t]*").match(text, start)
    p = m.end() if m else start
    end_m = _HEADING_END.search(text, p, min(limit, p + 200))
    end = end_m.start() if end_m else min(limit, p + 200)
    head = text[p:end].strip()
    if len(head) > 100 or not head:
        return ""
    words = head.split()
    # A heading is short and title-like; a clause that starts with a sentence has none.
    if len(words) > 12:
        return ""
    return head


@dataclass
class SectionScan:
    sections: list[Section]
    gaps: list[str]


def detect_sections(
    text: str,
    *,
    skip: Sequence[tuple[int, int]] = (),
) -> SectionScan:
    """Detect the sections of `text`. `skip` holds ranges where no section may start (table cells)."""
    accepted: list[tuple[_Cand, int]] = []  # candidate and level
    gaps: list[str] = []
    last: dict[tuple[str, int], tuple[int, ...]] = {}
    decimal_depth = 0
    for c in _candidates(text, skip):
        if c.family == "roman" and len(c.label) == 3:
            # "(i)", "(v)", "(x)" continue a letter list when the letter before them came last
            letter = ord(c.label[1]) - 96
            prev_alpha = last.get(("alpha", 1))
            if prev_alpha is not None and prev_alpha[0] == letter - 1:
                c = _Cand(c.start, c.label, "alpha", (letter,), c.rest_start)
        key_level = len(c.parts) if c.family == "decimal" else 1
        key = (c.family, key_level)
        prev = last.get(key)
        if c.family == "decimal":
            prefix = c.parts[:-1]
            if prefix:
                parent = last.get(("decimal", len(prefix)))
                if parent is not None and prefix < parent:
                    continue  # "3.4" after "4.1": a number going backwards is not a new clause
            if prev is not None and prev[:-1] == prefix:
                if c.parts[-1] <= prev[-1]:
                    continue  # backwards or repeated: a table of contents or a list inside a cell
                if c.parts[-1] > prev[-1] + 1:
                    gaps.append(
                        f"numbering jumps from {'.'.join(map(str, prev))} to {'.'.join(map(str, c.parts))}"
                    )
            elif prev is None and c.parts[-1] > 3 and len(c.parts) == 1:
                continue  # a list cannot start at "7." out of nowhere
            level = len(c.parts) + (1 if last.get(("article", 1)) and len(c.parts) > 0 else 0)
            # forget deeper counters when a higher level advances
            for k in [k for k in last if k[0] == "decimal" and k[1] > len(c.parts)]:
                del last[k]
            for k in [k for k in last if k[0] in ("alpha", "roman", "num", "ALPHA")]:
                del last[k]
            decimal_depth = len(c.parts)
        elif c.family in ("alpha", "roman", "num", "ALPHA"):
            n = c.parts[0]
            if c.family == "alpha" and prev is None and n != 1:
                # "(i)" after "(h)" is a letter; a lone "(c)" with no "(a)" is not a clause list
                continue
            if prev is not None and n <= prev[0]:
                if n == 1:
                    pass  # a new list begins
                else:
                    continue
            elif prev is None and n != 1:
                continue
            base = decimal_depth + (1 if last.get(("article", 1)) else 0)
            level = base + {"alpha": 1, "ALPHA": 1, "num": 1, "roman": 2}[c.family]
        elif c.family == "article":
            level = 1
            for k in list(last):
                if k[0] != "article" and not k[0].startswith("annex"):
                    del last[k]
            decimal_depth = 0
            if prev is not None and c.parts[0] <= prev[0]:
                continue
        else:  # schedules and exhibits: top level, sequences of their own
            level = 0
            for k in list(last):
                if not k[0].startswith("annex"):
                    del last[k]
            decimal_depth = 0
            if prev is not None and c.parts[0] < prev[0]:
                continue
        last[key] = c.parts
        accepted.append((c, level))

    sections: list[Section] = []
    for i, (c, level) in enumerate(accepted):
        end = len(text)
        for c2, level2 in accepted[i + 1 :]:
            if level2 <= level:
                end = c2.start
                break
        next_start = accepted[i + 1][0].start if i + 1 < len(accepted) else len(text)
        heading = _heading(text, c.rest_start, next_start)
        body = text[c.rest_start : min(end, c.rest_start + 400)]
        if c.family == "article":
            kind = "article"
        elif c.family.startswith("annex"):
            kind = "exhibit" if c.family.endswith(("exhibit", "attachment")) else "schedule"
        elif _DEFINES.match(body):
            kind = "definition"
        else:
            kind = "clause"
        end = _trim_end(text, c.start, end)
        sections.append(
            Section(
                label=c.label.rstrip("."), heading=heading, level=level, kind=kind, start=c.start, end=end
            )
        )
    return SectionScan(sections=sections, gaps=gaps)


def _trim_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end
