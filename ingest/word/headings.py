"""Sections of a DOCX body: heading styles, outline levels and numbered paragraphs made into clauses."""

from __future__ import annotations

import re

from ingest.document import Section
from ingest.sections import detect_sections
from ingest.word.package import (
    _DEFINES,
    _TITLE_LEAD,
)
from ingest.word.walker import _Para


def _heading_for(text: str, p: _Para) -> str:
    body = text[p.text_start : p.end].strip()
    if not body:
        return ""
    first_line = body.split("\n", 1)[0].strip()
    words = first_line.split()
    if p.heading_level is not None:
        return first_line[:200].rstrip(" .:")
    if p.bold_prefix and len(p.bold_prefix.split()) <= 12:
        return p.bold_prefix.split("\n", 1)[0].strip().rstrip(" .:;—–-")
    if (
        len(words) <= 12
        and not re.search(r"[.;:,]\s", first_line)
        and not first_line.endswith((";", ",", ".", ":"))
    ):
        return first_line
    m = _TITLE_LEAD.match(first_line + " ")
    if m and len(m.group(1)) >= len(first_line) - 1:
        return m.group(1)  # "Confidentiality." alone on its line
    m = _TITLE_LEAD.match(first_line)
    if m:
        return m.group(1)
    return ""


def _kind_for(label: str, text: str) -> str:
    low = label.lower()
    if low.startswith("article"):
        return "article"
    if low.startswith(("schedule", "annex", "appendix")):
        return "schedule"
    if low.startswith(("exhibit", "attachment")):
        return "exhibit"
    if _DEFINES.match(text):
        return "definition"
    return "clause"


def _build_sections(
    text: str, body_end: int, paras: list[_Para], tables: list[tuple[int, int]], toc: list[tuple[int, int]]
) -> tuple[list[Section], list[str]]:
    found: list[tuple[Section, int]] = []  # section, order key
    hidden: list[tuple[int, int]] = []  # ranges the detector must not see: numbered paragraphs, tables
    for p in paras:
        if p.label is None and p.heading_level is None:
            continue
        body = text[p.text_start : min(p.end, p.text_start + 400)]
        if p.label is not None:
            label = p.label.strip().rstrip(".").strip()
            sec = Section(
                label=label,
                heading=_heading_for(text, p),
                level=p.ilvl + 1,
                kind=_kind_for(label, body),
                start=p.start,
                end=p.end,
                generated=True,
            )
        else:
            if not text[p.text_start : p.end].strip():
                continue
            sec = Section(
                label="",
                heading=_heading_for(text, p),
                level=p.heading_level or 1,
                kind="heading",
                start=p.start,
                end=p.end,
            )
        found.append((sec, p.start))
        hidden.append((p.start, p.end))
    skip = sorted(tables + toc)
    hidden.extend((a, min(b, body_end)) for a, b in skip)
    # Blank out what is already a section (or a table) with spaces, keeping line breaks and offsets.
    pieces: list[str] = []
    pos = 0
    for a, b in sorted(hidden):
        if a < pos:
            a = pos
        if b <= a:
            continue
        pieces.append(text[pos:a])
        pieces.append("\n".join(" " * len(line) for line in text[a:b].split("\n")))
        pos = b
    pieces.append(text[pos:body_end])
    scan = detect_sections("".join(pieces), skip=skip)
    for s in scan.sections:
        heading = s.heading
        found.append(
            (
                Section(label=s.label, heading=heading, level=s.level, kind=s.kind, start=s.start, end=s.end),
                s.start,
            )
        )
    found.sort(key=lambda t: t[1])
    sections: list[Section] = []
    for i, (s, _) in enumerate(found):
        end = body_end
        for s2, _ in found[i + 1 :]:
            if s2.level <= s.level:
                end = s2.start
                break
        while end > s.start and text[end - 1].isspace():
            end -= 1
        sections.append(
            Section(
                label=s.label,
                heading=s.heading,
                level=s.level,
                kind=s.kind,
                start=s.start,
                end=end,
                generated=s.generated,
            )
        )
    return sections, scan.gaps


# --------------------------------------------------------------------------------------------------------
# load_docx
# --------------------------------------------------------------------------------------------------------
