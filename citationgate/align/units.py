"""The units two versions are aligned by (paragraphs and clauses), and what an alignment reports:
word edits, unit changes, mapped spans."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from citationgate.normalize import normalize_quote
from ingest.document import Section, Span

ChangeKind = Literal["same", "renumbered", "moved", "changed", "added", "deleted"]
EditOp = Literal["insert", "delete", "replace"]

#: A unit longer than this is cut again at its paragraph (then line) breaks, so word diffs stay small.
MAX_UNIT_CHARS = 6000
#: Furniture spans shorter than this are left out of the alignment (see `segment`).
MAX_FURNITURE_CHARS = 80
#: Runs of unaligned units larger than this (words per side) are not word-aligned.
MAX_BLOCK_TOKENS = 40_000

_WORD = re.compile(r"\S+")
_BLANK_LINE = re.compile(r"\n[^\S\n]*(?:\r?\n)\s*")
_LINE_BREAK = re.compile(r"\r?\n\s*")
_LABEL_TAIL = re.compile(r"[.):]?[^\S\n]*")


@dataclass(frozen=True, slots=True, kw_only=True)
class Unit:
    """A paragraph or clause of one version: `[start, end)`, its numbering label, its normalized key."""

    index: int
    start: int
    end: int
    body_start: int  # where the text after the numbering label begins
    label: str | None  # the label the unit starts with ("8.2", "Section 4", "ARTICLE V"), if any
    section: str | None  # label of the innermost clause the unit sits in (its own label if it has one)
    key: str

    def to_dict(self, text: str) -> dict[str, Any]:
        return {
            "label": self.label,
            "section": self.section,
            "start": self.start,
            "end": self.end,
            "text": text[self.start : self.end],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class WordEdit:
    """Words deleted from the old text, inserted into the new, or replaced (both)."""

    op: EditOp
    old_start: int
    old_end: int  # == old_start for an insertion (the point in the old text where it goes)
    new_start: int
    new_end: int  # == new_start for a deletion
    old_text: str
    new_text: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "old": {"start": self.old_start, "end": self.old_end, "text": self.old_text},
            "new": {"start": self.new_start, "end": self.new_end, "text": self.new_text},
        }

    def describe(self) -> str:
        if self.op == "insert":
            return f"inserted {_clip(self.new_text)!r}"
        if self.op == "delete":
            return f"deleted {_clip(self.old_text)!r}"
        return f"{_clip(self.old_text)!r} → {_clip(self.new_text)!r}"


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitChange:
    """What happened to one unit: kept, renumbered, moved, changed (with word edits), added or deleted."""

    kind: ChangeKind
    old: Unit | None
    new: Unit | None
    edits: tuple[WordEdit, ...] = ()

    def to_dict(self, old_text: str, new_text: str) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "old": self.old.to_dict(old_text) if self.old else None,
            "new": self.new.to_dict(new_text) if self.new else None,
            "edits": [e.to_dict() for e in self.edits],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class MappedSpan:
    """Where an old span went: `[start, end)` in the new text, and whether every word in it survived."""

    start: int
    end: int
    intact: bool  # no word inside the span was inserted, deleted or replaced
    edits: tuple[WordEdit, ...]  # the edits inside the span (what changed, when not intact)
    old_unit: Unit
    new_unit: Unit | None
    identical: bool = False  # the new text at [start, end) is the old text character for character


# ── segmentation ────────────────────────────────────────────────────────────────────────────────
def _clause_sections(sections: Sequence[Section]) -> list[Section]:
    """Sections that start a unit: every clause label except list items "(a)", "(iv)", "(2)"."""
    return sorted((s for s in sections if not s.label.startswith("(")), key=lambda s: s.start)


_NEWLINES = re.compile(r"\r?\n(?:[^\S\n]*\r?\n)*[^\S\n]*")
_CLOSERS = "\"'”’)]"
_ENDERS = (".", ";", ":", "!", "?")


def _paragraph_breaks(text: str) -> list[int]:
    """Where paragraphs start: after a blank line, or after a line that ends a sentence or stops short.

    A wrapped line (PDF, hard-wrapped text) runs to about the full width and usually ends mid-sentence,
    so it does not end a paragraph; a line-per-paragraph text (DOCX) breaks at every line that ends with
    punctuation or is shorter than most.
    """
    lengths = sorted(len(ln) for ln in text.split("\n") if ln.strip())
    if not lengths:
        return []
    full = lengths[int(0.9 * (len(lengths) - 1))]
    out = []
    line_start = 0
    for m in _NEWLINES.finditer(text):
        prev = text[line_start : m.start()].rstrip()
        line_start = m.end()
        if len(prev) < 0.6 * full or prev.rstrip(_CLOSERS)[-1:] in _ENDERS or m.group().count("\n") > 1:
            out.append(m.end())
    return out


_LEADING_LABEL = re.compile(
    r"(?:(?:ARTICLE|Article|SECTION|Section|CLAUSE|Clause)[ \t]+[0-9IVXLC]+(?:\.\d+)*\.?"
    r"|\d{1,3}(?:\.\d{1,3})+\.?|\d{1,3}\.|\((?:[a-z]{1,2}|[ivxlc]{1,6}|\d{1,2}|[A-Z])\))(?=[ \t])"
)


def segment(text: str, sections: Sequence[Section], furniture: Sequence[Span] = ()) -> tuple[Unit, ...]:
    """Cut `text` into units at clause labels and paragraph breaks (see the module docstring).

    A unit's label is the section label it starts with or, where the detector took none (it may
    reject "8.2" straight after "8." once 8.1 is deleted), a leading token shaped like one
    ("8.2", "12.", "(b)", "Section 4"): either way it is left out of the key.

    Page furniture the reader marked (a PDF's running header, "Page 2 of 3") is cut out of the
    paragraphs around it and, when short, left out altogether: a redline that adds a page moves
    every page break and renumbers every footer, and that is not a change to any clause. (A long
    "furniture" line is kept: it is more likely body text the reader took for a running header.)
    """
    clauses = _clause_sections(sections)
    labels = {s.start: s.label for s in sections}
    cuts = {0, *labels}
    cuts.update(_paragraph_breaks(text))
    skip = sorted((f.start, f.end) for f in furniture if f.end - f.start < MAX_FURNITURE_CHARS)
    for a, b in skip:
        cuts.update((a, b))
    bounds = sorted(c for c in cuts if 0 <= c < len(text))
    spans: list[tuple[int, int]] = []
    for i, a in enumerate(bounds):
        b = bounds[i + 1] if i + 1 < len(bounds) else len(text)
        spans.extend(_split_long(text, a, b))
    clause_starts = [s.start for s in clauses]
    units: list[Unit] = []
    skip_starts = [a for a, _ in skip]
    for a, b in spans:
        end = b
        while end > a and text[end - 1].isspace():
            end -= 1
        while a < end and text[a].isspace():
            a += 1
        if end <= a:
            continue
        k = bisect.bisect_right(skip_starts, a) - 1
        if k >= 0 and skip[k][0] <= a and end <= skip[k][1]:
            continue  # page furniture
        label = labels.get(a)
        body_start = a
        if label is not None and text.startswith(label, a):
            body_start = a + len(label)
        else:
            m = _LEADING_LABEL.match(text, a, end)
            if m is not None:
                label = m.group().rstrip(".")
                body_start = m.end()
            elif label is not None:  # a generated label not in the text as printed: no label to strip
                label = None
        if body_start > a:
            tail = _LABEL_TAIL.match(text, body_start, end)
            body_start = tail.end() if tail else body_start
        units.append(
            Unit(
                index=len(units),
                start=a,
                end=end,
                body_start=min(body_start, end),
                label=label,
                section=_innermost(clauses, clause_starts, a),
                key=_key(text[body_start:end]),
            )
        )
    return tuple(units)


def _key(body: str) -> str:
    """A unit's text for comparing: the gate's normalized form (plain ASCII needs only its spaces folded)."""
    return " ".join(body.split()) if body.isascii() else normalize_quote(body)


def _innermost(clauses: Sequence[Section], starts: Sequence[int], pos: int) -> str | None:
    """The innermost clause holding `pos`: the latest-starting one that contains it."""
    i = bisect.bisect_right(starts, pos) - 1
    for _ in range(256):
        if i < 0:
            return None
        s = clauses[i]
        if s.start <= pos < max(s.end, s.start + 1):
            return s.label
        i -= 1
    return None


def _split_long(text: str, a: int, b: int) -> list[tuple[int, int]]:
    if b - a <= MAX_UNIT_CHARS:
        return [(a, b)]
    for pattern in (_BLANK_LINE, _LINE_BREAK):
        cuts = [m.end() for m in pattern.finditer(text, a, b) if a < m.end() < b]
        if cuts:
            out, last = [], a
            for c in cuts:
                if c - last >= MAX_UNIT_CHARS // 4:
                    out.append((last, c))
                    last = c
            out.append((last, b))
            if len(out) > 1:
                return out
    return [(a, b)]


def _clip(s: str, n: int = 80) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"
