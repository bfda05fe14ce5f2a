"""Reading a DOCX: the body, then its notes, headers and footers, into one Document; the body map the
reports use to anchor comments."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ingest.document import Document, Span
from ingest.errors import CorruptFileError, UnsupportedFileError
from ingest.fidelity import (
    docx_count_numbered,
    docx_coverage_reason,
    docx_fidelity_reason,
    docx_reference_text,
    docx_referenced_notes,
    docx_text_fidelity,
)
from ingest.numbering import Numbering, StyleInfo, W, parse_styles
from ingest.word.headings import _build_sections
from ingest.word.package import (
    _main_part,
    _Package,
)
from ingest.word.walker import _Walker


def _count_revisions(root: Any) -> int:
    tags = {W + "ins", W + "del", W + "moveFrom", W + "moveTo"}
    return sum(1 for el in root.iter() if el.tag in tags)


def _first_part(pkg: _Package, rels: dict[str, tuple[str, str]], rtype: str) -> Any | None:
    """The parsed first part of relationship type `rtype` that the package holds, or None."""
    for kind, target in rels.values():
        if kind == rtype and pkg.has(target):
            return pkg.xml(target)
    return None


def _numbering(pkg: _Package, rels: dict[str, tuple[str, str]]) -> Numbering:
    styles: dict[str, StyleInfo] = parse_styles(_first_part(pkg, rels, "styles"))
    return Numbering.parse(_first_part(pkg, rels, "numbering"), styles)


@dataclass(frozen=True, slots=True, kw_only=True)
class BodyMap:
    """Where each character of a DOCX body's canonical text came from, for writing into the same tree.

    `text` is the body's canonical text (`load_docx(...).text[:metadata["body_end"]]`); `pieces` are
    `(start, end, element)` for every run child (`w:t`, `w:tab`, `w:br`…) that produced text, in text
    order; what lies between pieces (paragraph and cell separators, numbering labels) was generated.
    `marks` are `(offset, element)` for each `w:commentRangeStart`/`w:commentRangeEnd` met.
    """

    text: str
    pieces: tuple[tuple[int, int, Any], ...]
    marks: tuple[tuple[int, Any], ...]
    generated: tuple[Span, ...]


def map_docx_body(name: str, data: bytes, body: Any, *, view: str = "accepted") -> BodyMap:
    """Walk `body`, a `w:body` element of a tree the caller holds, exactly as `load_docx` walks its own.

    `data` is the package the tree was read from (its styles and numbering render the labels). The
    caller may then split runs or add marks in its tree at the offsets it knows from the Document.
    """
    if view not in ("accepted", "original"):
        raise UnsupportedFileError(f"{name}: unknown view '{view}' (expected accepted or original)")
    pkg = _Package(name, data)
    walker = _Walker(view=view, numbering=_numbering(pkg, pkg.rels(_main_part(pkg))))
    walker.pieces, walker.marks = [], []
    walker.blocks(body, flow=True)
    return BodyMap(
        text=walker.text(),
        pieces=tuple(walker.pieces),
        marks=tuple(walker.marks),
        generated=tuple(walker.generated),
    )


def load_docx(path: Path, data: bytes, *, view: str = "accepted") -> Document:
    """Read a DOCX file's bytes into a Document in the chosen tracked-change view."""
    if view not in ("accepted", "original"):
        raise UnsupportedFileError(f"{path.name}: unknown view '{view}' (expected accepted or original)")
    pkg = _Package(path.name, data)
    main = _main_part(pkg)
    doc_root = pkg.xml(main)
    body = doc_root.find(W + "body") if doc_root is not None else None
    if doc_root is None or body is None:
        raise CorruptFileError(f"{path.name}: {main} has no w:body (expected a Word document body)")
    rels = pkg.rels(main)

    def first(rtype: str) -> Any | None:
        return _first_part(pkg, rels, rtype)

    numbering = _numbering(pkg, rels)
    walker = _Walker(view=view, numbering=numbering)
    walker.blocks(body, flow=True)
    body_end = walker.pos
    regions: list[Span] = []  # notes; tables and text boxes (also those inside notes) are added below
    furniture: list[Span] = []
    stories: list[Any] = [body]

    # Footnotes and endnotes the body refers to in this view, in order of first reference.
    for kind in ("footnote", "endnote"):
        root = first(kind + "s")
        if root is None or not walker.notes[kind]:
            continue
        notes = {n.get(W + "id"): n for n in root.iter(W + kind)}
        ref_ids = docx_referenced_notes(doc_root, kind, view=view)
        for nid in walker.notes[kind]:
            note = notes.get(nid)
            if note is None or note.get(W + "type") not in (None, "normal"):
                continue
            if nid in ref_ids:
                stories.append(note)
            span = walker.story(note, kind)
            if span is not None:
                regions.append(span)

    # Headers and footers of every section, each part once: furniture, outside the clause flow.
    seen: set[str] = set()
    for kind in ("header", "footer"):
        for ref_kind, rid in walker.sect_refs:
            if ref_kind != kind or rid not in rels:
                continue
            target = rels[rid][1]
            if target in seen or not pkg.has(target):
                continue
            seen.add(target)
            root = pkg.xml(target)
            if root is None:
                continue
            stories.append(root)
            span = walker.story(root, kind)
            if span is not None:
                furniture.append(span)

    text = walker.text()
    tables = [(s.start, s.end) for s in walker.regions if s.kind == "table" and s.end <= body_end]
    sections, gaps = _build_sections(text, body_end, walker.paras, tables, walker.toc)
    regions.extend(walker.regions)
    regions.extend(Span(start=a, end=b, kind="toc") for a, b in walker.toc)

    reasons: list[str] = []
    notes_out: list[str] = list(gaps)
    reference = docx_reference_text(stories, view=view)
    fidelity = docx_text_fidelity(text, walker.generated, reference)
    if reason := docx_fidelity_reason(fidelity):
        reasons.append(reason)
    expected = docx_count_numbered(doc_root, numbering, view=view)
    if reason := docx_coverage_reason(sections, expected):
        reasons.append(reason)
    if walker.altchunks:
        reasons.append(
            f"the document embeds {walker.altchunks} foreign part(s) (w:altChunk) whose text is not read; "
            "open it in Word and save it again"
        )
    revisions = _count_revisions(doc_root)
    if revisions:
        notes_out.append(f"tracked changes: {revisions} revision marks, read in the {view} view")
    return Document(
        name=path.name,
        file_type="docx",
        text=text,
        source_sha256=hashlib.sha256(data).hexdigest(),
        view=view,
        sections=tuple(sections),
        fidelity=fidelity,
        status="withheld" if reasons else "ready",
        reasons=tuple(reasons),
        notes=tuple(notes_out),
        generated=tuple(walker.generated),
        furniture=tuple(furniture),
        sections_expected=expected,
        metadata={
            "body_end": body_end,
            "regions": [s.to_dict() for s in sorted(regions, key=lambda s: s.start)],
            "tracked_changes": revisions,
        },
    )
