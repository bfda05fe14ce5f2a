"""Finding the clauses of a contract in its canonical text.

A section starts at the beginning of a line with a label a contract uses for its own structure —
"ARTICLE V", "Section 5", "11.", "11.2", "(a)", "(iv)", "1)", "A.", "Schedule 1", "Exhibit A" — and ends
where the next section at the same or a higher level starts. Three passes:

1. **Candidates.** Each line start (and, in text flattened by a PDF-to-text conversion, a label that
   follows a sentence end and a run of three or more spaces) is tried against the label patterns. Lines
   that only *look* numbered are rejected here: table-of-contents lines (dot leaders, a page number at
   the end of a short line), cross-references a line wrap put at the start of a line ("Section 11.2
   above", "11.2 of this Agreement": a heading label is followed by a capital, a quote or a bracket, not
   a lower-case word), wrapped numbers ("30\\ndays", "(30) days", "12\\nmonths": a bare number needs its
   full stop and a numbered item is never followed by a unit word), and anything inside a `skip` range
   (table cells, page furniture).
2. **Tables of contents.** A run of three or more top-level labels with no text between them, whose
   labels occur again later, is the contents list: dropped, so the real headings can follow.
3. **Sequences.** A stack of open list styles (article → 1. → 1.1 → (a) → (i)) decides the level: a label
   continues the style it belongs to (popping deeper ones) if its number goes forward, or opens a deeper
   style if it is that style's first item ("1", "a", "i", "x.1" under "x"). A number that goes
   backwards or repeats is not a new clause; a jump forward is accepted and reported as a gap
   ("numbering jumps from 4 to 6"). "(i)" after "(h)" is a letter, otherwise a roman numeral.

Schedules, exhibits, annexes and appendices are top-level (level 1) and restart the numbering inside
them. A section whose body starts by defining a term ('"Fees" means …', "LINK shall mean …") is kind
"definition".

The package, by pass: `labels` (passes 1 and 2: the label patterns, candidates, tables of contents) and
`nesting` (pass 3: the stack of list styles, headings, kinds); this module puts them together.
"""

from __future__ import annotations

from collections.abc import Sequence

from ingest.document import Section
from ingest.sections.labels import SectionScan, _candidates, _drop_contents, roman_to_int
from ingest.sections.nesting import _body_after_heading, _fmt, _heading, _kind, _sequence

__all__ = ["SectionScan", "detect_sections", "roman_to_int"]


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
