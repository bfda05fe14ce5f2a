"""Pass 3, sequences: a stack of open list styles decides each label's level, its heading and its kind."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from ingest.sections.labels import (
    _BLANKS,
    _DEFINES,
    _HEADING_END,
    _NEXT_WORD,
    _Cand,
    _titleish,
    roman_to_int,
)


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


#: a heading run on into its section's first subsection: "Payment 5.1 FEES", "Indemnification 10 1 CLIENT"
_RUN_ON_SUBSECTION = re.compile(
    r"([A-Z][A-Za-z,&'’/\- ]{1,60}?)[^\S\n]+(?P<num>\d{1,3})(?:\.|[^\S\n])1[^\S\n]+(?=[A-Z(])"
)
#: words a heading does not end with: the sentence goes on ("Sections 11.1 …", "AMENDMENT OF SECTIONS 3.1")
_OPEN_ENDED = re.compile(r"\b(?:sections?|clauses?|articles?|of|to|in|and|or|the|under|per)$", re.IGNORECASE)


def _number_of(label: str) -> str:
    """The number a section label stands for, as digits: "5." → "5", "ARTICLE IV" → "4"; "" for none."""
    word = label.split()[-1].rstrip(".") if label.split() else ""
    if word.isdigit():
        return str(int(word))
    n = roman_to_int(word) if word.isupper() else None
    return str(n) if n else ""


def _heading(text: str, start: int, limit: int, label: str = "") -> str:
    p = _NEXT_WORD.match(text, start).start("word")  # type: ignore[union-attr]
    limit = min(limit, len(text))
    if p >= limit:
        return ""
    if text[p] == "\n":
        # the heading may stand on the next line: "ARTICLE V\nINDEMNIFICATION"
        q = _BLANKS.match(text, p + 1).end()  # type: ignore[union-attr]
        eol = text.find("\n", q, limit)
        line = text[q : eol if eol != -1 else limit].strip()
        if line and len(line) <= 80 and len(line.split()) <= 10 and (line.isupper() or line.istitle()):
            return line.rstrip(".:")
        return ""
    run_on = _RUN_ON_SUBSECTION.match(text, p, min(limit, p + 120))
    if run_on and _titleish(run_on.group(1)) and _number_of(label) == run_on.group("num"):
        # a flattened filing: "5. Payment 5.1 FEES AND EXPENSES Client will pay …" — the words before the
        # section's own first subsection ("5.1", not "15.1" cited in a sentence) are its heading
        head = run_on.group(1).strip()
        if not _OPEN_ENDED.search(head):
            return head
    end_m = _HEADING_END.search(text, p, min(limit, p + 200))
    end = end_m.start() if end_m else min(limit, p + 200)
    head = text[p:end].strip()
    if not head or len(head) > 100 or not _titleish(head):
        return ""  # a clause that starts with a sentence has no heading
    return head


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
