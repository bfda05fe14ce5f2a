"""The Document value: one canonical text per document version, and what we know about it.

Offsets everywhere are code-point indices into `Document.text`, half-open `[start, end)`.
The canonical text keeps the document's own characters: no Unicode normalization happens here.
"""

from __future__ import annotations

import bisect
import copy
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["ready", "withheld"]
View = Literal["accepted", "original"]

#: Kinds of section the detectors emit.
SECTION_KINDS = ("article", "clause", "definition", "schedule", "exhibit", "table", "heading")


def sha256_text(text: str) -> str:
    """SHA-256 of the UTF-8 encoding of `text`, hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")  # one code point, two UTF-16 units


def _section_sweep(sections: tuple[Section, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For each stretch between section boundaries, the index of its innermost section (-1: none)."""
    events: dict[int, list[tuple[int, int]]] = {}
    for i, s in enumerate(sections):
        if s.end > s.start:
            events.setdefault(s.start, []).append((1, i))
            events.setdefault(s.end, []).append((-1, i))
    starts: list[int] = []
    innermost: list[int] = []
    active: set[int] = set()
    rank = [(s.level, i) for i, s in enumerate(sections)]  # the deepest, and among equals the later
    for pos in sorted(events):
        for kind, i in events[pos]:
            if kind == 1:
                active.add(i)
            else:
                active.discard(i)
        starts.append(pos)
        innermost.append(max(active, key=rank.__getitem__) if active else -1)
    return tuple(starts), tuple(innermost)


@dataclass(frozen=True, slots=True, kw_only=True)
class Span:
    """A marked range of the canonical text: generated numbering, page furniture, a footnote…"""

    start: int
    end: int
    kind: str

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "kind": self.kind}


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    """A clause, article, schedule or definition found in the text.

    `start` is where its label begins; `end` is where the next section at the same or a higher
    level begins (or the end of the text). `label` is the number as printed ("11.2", "(a)",
    "ARTICLE V", "Schedule 1"); `heading` is the short title that follows it, if any.
    """

    label: str
    heading: str
    level: int
    kind: str
    start: int
    end: int
    generated: bool = False  # the label was rendered from DOCX numbering, not read from a text run

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "heading": self.heading,
            "level": self.level,
            "kind": self.kind,
            "start": self.start,
            "end": self.end,
            "generated": self.generated,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Page:
    """A PDF page: its 1-based number and the range of the canonical text it produced."""

    number: int
    start: int
    end: int

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "start": self.start, "end": self.end}


@dataclass(frozen=True, slots=True, kw_only=True)
class Fidelity:
    """How closely the canonical text agrees with an independent reading of the same file (0..1)."""

    value: float
    method: str
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"value": round(self.value, 6), "method": self.method, "detail": self.detail}


@dataclass(frozen=True, slots=True, kw_only=True)
class Document:
    """One version of a contract, read whole (status `ready`) or withheld with reasons."""

    name: str
    file_type: str  # "txt" | "md" | "docx" | "pdf"
    text: str
    source_sha256: str  # of the file's bytes
    view: str = "accepted"  # DOCX tracked-change view; "accepted" for files without revisions
    sections: tuple[Section, ...] = ()
    pages: tuple[Page, ...] = ()
    fidelity: Fidelity = field(default_factory=lambda: Fidelity(value=1.0, method="identity"))
    status: Status = "ready"
    reasons: tuple[str, ...] = ()  # why the document is withheld
    notes: tuple[str, ...] = ()  # things worth knowing that do not withhold it (a numbering gap)
    generated: tuple[Span, ...] = ()  # text we generated rather than read (numbering labels)
    furniture: tuple[Span, ...] = ()  # page headers, footers, page numbers; headers/footers of a DOCX
    sections_expected: int | None = None  # counted without the detector, where that is possible
    metadata: Mapping[str, Any] = field(default_factory=dict)
    text_sha256: str = field(init=False)
    _page_starts: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _astral: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _sweep_starts: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _sweep_sections: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text_sha256", sha256_text(self.text))
        object.__setattr__(self, "_page_starts", tuple(p.start for p in self.pages))
        object.__setattr__(self, "_astral", tuple(m.start() for m in _ASTRAL.finditer(self.text)))
        starts, innermost = _section_sweep(self.sections)
        object.__setattr__(self, "_sweep_starts", starts)
        object.__setattr__(self, "_sweep_sections", innermost)

    def with_metadata(self, metadata: Mapping[str, Any]) -> Document:
        """This document with `metadata` instead of its own: `dataclasses.replace` without computing again
        what depends only on the text, pages and sections (the text's hash, the section sweep)."""
        other = copy.copy(self)
        object.__setattr__(other, "metadata", metadata)
        return other

    @property
    def ready(self) -> bool:
        return self.status == "ready"

    def page_of(self, offset: int) -> int | None:
        """The 1-based page an offset falls on, or None where the format has no pages (DOCX, text)."""
        if not self.pages:
            return None
        i = bisect.bisect_right(self._page_starts, offset) - 1
        return self.pages[max(i, 0)].number

    def section_at(self, offset: int) -> Section | None:
        """The innermost section containing `offset` (the deepest level; among equals the later one), or None.

        Answered by bisection over a sweep of the section boundaries made once per document, so
        locating thousands of quotes does not scan every section for each.
        """
        i = bisect.bisect_right(self._sweep_starts, offset) - 1
        if i < 0 or self._sweep_sections[i] < 0:
            return None
        return self.sections[self._sweep_sections[i]]

    def utf16_offset(self, offset: int) -> int:
        """The UTF-16 code-unit offset of a code-point offset (for JavaScript and other web consumers)."""
        return offset + bisect.bisect_left(self._astral, offset)

    def sections_containing(self, start: int, end: int) -> list[Section]:
        """Every section whose range covers `[start, end)`, outermost first."""
        return sorted(
            (s for s in self.sections if s.start <= start and end <= s.end),
            key=lambda s: (s.level, -s.start),
        )

    def to_dict(self, *, include_text: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "file_type": self.file_type,
            "view": self.view,
            "text_sha256": self.text_sha256,
            "source_sha256": self.source_sha256,
            "status": self.status,
            "reasons": list(self.reasons),
            "notes": list(self.notes),
            "fidelity": self.fidelity.to_dict(),
            "sections_found": len(self.sections),
            "sections_expected": self.sections_expected,
            "sections": [s.to_dict() for s in self.sections],
            "pages": [p.to_dict() for p in self.pages],
            "generated": [g.to_dict() for g in self.generated],
            "furniture": [f.to_dict() for f in self.furniture],
            "metadata": dict(self.metadata),
        }
        if include_text:
            data["text"] = self.text
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Document:
        """Rebuild a Document stored with `to_dict()` (the store keeps versions this way)."""
        return cls(
            name=data["name"],
            file_type=data["file_type"],
            view=data.get("view", "accepted"),
            text=data["text"],
            source_sha256=data["source_sha256"],
            status=data["status"],
            reasons=tuple(data.get("reasons", ())),
            notes=tuple(data.get("notes", ())),
            fidelity=Fidelity(**data["fidelity"]),
            sections=tuple(Section(**s) for s in data.get("sections", ())),
            pages=tuple(Page(**p) for p in data.get("pages", ())),
            generated=tuple(Span(**g) for g in data.get("generated", ())),
            furniture=tuple(Span(**f) for f in data.get("furniture", ())),
            sections_expected=data.get("sections_expected"),
            metadata=dict(data.get("metadata", {})),
        )
