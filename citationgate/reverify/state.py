"""One re-verification run's state: the two versions, the alignment, the indexes and the clause
around a span, computed once and shared by the finding and citation passes."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from citationgate.align import Alignment, MappedSpan, Unit, WordEdit, segment
from citationgate.audit import AuditEvent
from citationgate.locate import QuoteIndex
from citationgate.reverify.records import (
    MAX_CONTEXT_CHARS,
    PlaybookRef,
)
from ingest.document import Document, Section
from playbooks import ClauseOutcome


# ── context: the clause around a span ───────────────────────────────────────────────────────────
class _Clauses:
    """The innermost numbered clause (not a list item) holding a span, found by bisection."""

    def __init__(self, sections: Sequence[Section]) -> None:
        self.sections = sorted((s for s in sections if not s.label.startswith("(")), key=lambda s: s.start)
        self.starts = [s.start for s in self.sections]

    def around(self, start: int, end: int) -> Section | None:
        i = bisect.bisect_right(self.starts, start) - 1
        steps = 0
        while i >= 0 and steps < 256:
            s = self.sections[i]
            if s.start <= start and end <= s.end:
                return s
            i -= 1
            steps += 1
        return None


def _context_region(
    clauses: _Clauses, unit: Unit | None, start: int, end: int
) -> tuple[int, int, str | None]:
    s = clauses.around(start, end)
    if s is not None and s.end - s.start <= MAX_CONTEXT_CHARS:
        return s.start, s.end, s.label
    if unit is not None:
        return min(unit.start, start), max(unit.end, end), (s.label if s else unit.section)
    return start, end, s.label if s else None


def _label_at(document: Document, offset: int) -> str | None:
    section = document.section_at(offset)
    return section.label if section is not None else None


# ── the engine ──────────────────────────────────────────────────────────────────────────────────
@dataclass
class _Run:
    new: Document
    old: Document | None
    alignment: Alignment | None
    index: QuoteIndex
    found: dict[str, list[tuple[int, int]]]
    mapped: dict[tuple[int, int], MappedSpan | None]
    new_clauses: _Clauses
    old_clauses: _Clauses | None
    playbook: PlaybookRef | None
    actor: str
    previous_review_id: int | None
    _old_index: QuoteIndex | None = None
    _new_units: tuple[Unit, ...] | None = None
    _outcomes: list[ClauseOutcome] | None = None
    _playbook_error: str | None = None
    events: list[AuditEvent] = field(default_factory=list)
    _words: dict[str, set[int]] | None = None
    _by_section: dict[str | None, list[int]] | None = None
    at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="microseconds"))
    _edits: dict[tuple[str, int, int], list[WordEdit]] = field(default_factory=dict)

    def edits(self, al: Alignment, text: Literal["old", "new"], start: int, end: int) -> list[WordEdit]:
        """The alignment's word edits touching `[start, end)` of the `text` side, strict at the edges
        (cached: a review's findings share their context regions)."""
        key = (text, start, end)
        if key not in self._edits:
            self._edits[key] = al.edits_between(text, start, end, strict=True)
        return self._edits[key]

    def old_index(self) -> QuoteIndex | None:
        if self._old_index is None and self.old is not None:
            self._old_index = QuoteIndex(self.old.text)
        return self._old_index

    def word_index(self) -> dict[str, set[int]]:
        """Normalized word → the new version's units that contain it."""
        if self._words is None:
            self._words = {}
            for u in self.new_units():
                for k in set(u.key.split(" ")):  # the key is the unit's normalized words
                    self._words.setdefault(k, set()).add(u.index)
        return self._words

    def units_of_section(self) -> dict[str | None, list[int]]:
        if self._by_section is None:
            self._by_section = {}
            for u in self.new_units():
                self._by_section.setdefault(u.section, []).append(u.index)
        return self._by_section

    def new_units(self) -> tuple[Unit, ...]:
        if self._new_units is None:
            self._new_units = (
                self.alignment.new_units
                if self.alignment
                else segment(self.new.text, self.new.sections, self.new.furniture)
            )
        return self._new_units


def _clip(s: str, n: int = 120) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"
