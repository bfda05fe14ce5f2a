"""Retrieval units: the ranges of a document that a question is answered with.

Units are the document's own sections (label, offsets, page), cut at the next section of any level so
units never overlap; a heading-only parent is not a unit of its own (its heading reaches its children
as context). A unit longer than `MAX_UNIT_CHARS` is split at paragraph, line or sentence breaks, and a
document with fewer than `MIN_SECTIONS` sections is read as paragraphs. Each unit carries the headings
of the sections that contain it, for the index only: its text is always the document's own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ingest.document import Document, Section

#: A unit longer than this is split at paragraph breaks.
MAX_UNIT_CHARS = 2000
#: Target size of the pieces a long unit or a paragraph-read document is cut into.
TARGET_UNIT_CHARS = 1200
#: Below this many sections, a document is read as paragraphs.
MIN_SECTIONS = 4

_DEFINES = re.compile(
    r"^\s*(?:\(?[0-9A-Za-z]{1,4}[.)]\s*)*[\"“”'‘’]{1,2}[A-Z][^\"“”\n]{0,80}[\"“”'‘’]{1,2}\s*"
    r"(?:\([^)]*\)\s*)?(?:means|shall mean|has the meaning|have the meaning|refers to|shall refer to|"
    r"shall have the meaning|is defined)\b"
)
_PARA_BREAK = re.compile(r"\n[ \t\u00a0]*\n\s*")
_LINE_BREAK = re.compile(r"\n\s*")
_SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[A-Z(\"“])")


@dataclass(frozen=True, slots=True, kw_only=True)
class Unit:
    """A retrieval unit: a range of the canonical text, its label and the headings above it."""

    id: str
    label: str
    start: int
    end: int
    page: int | None
    kind: str  # "section" | "paragraph"
    definition: bool
    context: str  # headings of the sections that contain it, for the index only


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _split(text: str, start: int, end: int, *, target: int = TARGET_UNIT_CHARS) -> list[tuple[int, int]]:
    """Cut `[start, end)` into pieces of about `target` characters at paragraph, line or sentence breaks.

    Short pieces (a heading line) are joined to the piece that follows them.
    """
    pieces: list[tuple[int, int]] = []
    for pattern in (_PARA_BREAK, _LINE_BREAK, _SENTENCE_END):
        if end - start <= target * 1.5 and pattern is not _PARA_BREAK:
            break
        pieces = []
        pos = start
        for m in pattern.finditer(text, start, end):
            pieces.append((pos, m.start()))
            pos = m.end()
        pieces.append((pos, end))
        pieces = [p for p in (_trim(text, a, b) for a, b in pieces) if p[1] > p[0]]
        if len(pieces) > 1:
            break
    if not pieces:
        a, b = _trim(text, start, end)
        pieces = [(a, b)] if b > a else []
    merged: list[tuple[int, int]] = []
    for a, b in pieces:
        if merged and (merged[-1][1] - merged[-1][0] < 150 or b - merged[-1][0] <= target):
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    out: list[tuple[int, int]] = []
    for a, b in merged:
        if b - a > MAX_UNIT_CHARS:
            inner = _split_hard(text, a, b, target=target)
            out.extend(inner)
        else:
            out.append((a, b))
    return out


def _split_hard(text: str, start: int, end: int, *, target: int) -> list[tuple[int, int]]:
    """A long run with no paragraph breaks: cut at sentence ends, else at whitespace near `target`."""
    out: list[tuple[int, int]] = []
    pos = start
    while end - pos > MAX_UNIT_CHARS:
        window_end = pos + target
        cut = None
        for m in _SENTENCE_END.finditer(text, pos + target // 2, min(end, pos + MAX_UNIT_CHARS)):
            cut = m
            if m.start() >= window_end:
                break
        if cut is None:
            ws = text.rfind(" ", pos + target // 2, pos + MAX_UNIT_CHARS)
            if ws <= pos:
                ws = pos + target
            a, b = _trim(text, pos, ws)
            out.append((a, b))
            pos = ws
        else:
            a, b = _trim(text, pos, cut.start())
            out.append((a, b))
            pos = cut.end()
    a, b = _trim(text, pos, end)
    if b > a:
        out.append((a, b))
    return [p for p in out if p[1] > p[0]]


def _is_definition(text: str, start: int, end: int, section: Section | None) -> bool:
    if section is not None and section.kind == "definition" and section.start >= start:
        return True
    return bool(_DEFINES.match(text, start, min(end, start + 300)))


def build_units(document: Document, *, prefix: str = "") -> list[Unit]:
    """Cut a document into non-overlapping retrieval units (sections, else paragraphs)."""
    text = document.text
    sections = sorted(document.sections, key=lambda s: (s.start, s.level))
    use_sections = len(sections) >= MIN_SECTIONS
    raw: list[tuple[int, int, Section | None]] = []
    if use_sections:
        first = sections[0].start
        if text[:first].strip():
            raw.extend((a, b, None) for a, b in _split(text, 0, first))
        for i, s in enumerate(sections):
            nxt = sections[i + 1] if i + 1 < len(sections) else None
            seg_end = nxt.start if nxt is not None else len(text)
            seg_end = max(min(seg_end, len(text)), s.start)
            a, b = _trim(text, s.start, seg_end)
            if b <= a:
                continue
            is_parent_heading = nxt is not None and nxt.level > s.level and b - a < 80
            if is_parent_heading:
                continue  # a heading line only: its words reach its children through their context
            if b - a > MAX_UNIT_CHARS:
                raw.extend((x, y, s) for x, y in _split(text, a, b))
            else:
                raw.append((a, b, s))
    else:
        raw.extend((a, b, None) for a, b in _split(text, 0, len(text)))

    units: list[Unit] = []
    seen: dict[str, int] = {}
    para_no = 0
    for a, b, own in raw:
        containing = (
            [c for c in document.sections if c.start <= a and b <= c.end] if document.sections else []
        )
        containing.sort(key=lambda c: (c.level, -c.start))
        inner = containing[-1] if containing else own
        context = " ".join(h for h in (c.heading for c in containing) if h)
        if inner is not None:
            label = inner.label
            base = _section_path(containing) or label
        else:
            para_no += 1
            label = f"¶{para_no}"
            base = f"p{para_no}"
        n = seen.get(base, 0) + 1
        seen[base] = n
        uid = base if n == 1 else f"{base}~{n}"
        units.append(
            Unit(
                id=f"{prefix}{uid}",
                label=label,
                start=a,
                end=b,
                page=document.page_of(a),
                kind="section" if inner is not None else "paragraph",
                definition=_is_definition(text, a, b, inner),
                context=context,
            )
        )
    return units


def _section_path(containing: Sequence[Section]) -> str:
    """A readable identifier: the innermost decimal/article label plus the lettered labels under it."""
    parts: list[str] = []
    for c in containing:
        label = c.label.replace(" ", "")
        if label.startswith("("):
            parts.append(label)
        else:
            parts = [label]
    return "".join(parts)
