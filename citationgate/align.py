"""Aligning two versions of a contract: paragraphs and clauses first, then words inside what changed.

Why this shape (and not a character diff): a character-level `difflib` over 50,000 characters took about
70 s here, and character diffs alias — "₦50,000,000" → "₦500,000,000" becomes "insert '0'", which says
nothing a lawyer can read. So:

1. **Units.** Each text is cut into units: a unit starts at every clause label the section detector found
   (list items such as "(a)" stay inside their clause) and at every paragraph break (a blank line; or a
   line break in text that puts one paragraph on each line, as DOCX text does). A unit's *key* is its
   text without its numbering label, typographic folds and whitespace runs normalized exactly as the
   gate's exact mode does (`citationgate.normalize.normalize_quote`). So "8.2 The Supplier…" and
   "8.3 The Supplier…" have the same key: a renumbering is reported as a renumbering, not a text change.
2. **Unit alignment.** The two key sequences are aligned with `rapidfuzz.distance.Indel.opcodes` (a
   longest-common-subsequence diff in C++, bit-parallel; a few thousand units align in milliseconds).
   Units left over on both sides with identical keys are paired as *moved*.
3. **Words.** Inside each run of units that did not align, the words of both sides are aligned with the
   same LCS diff on token lists (each token compared in its normalized form), so a re-flowed PDF
   paragraph or a clause split in two still maps word for word. Runs are small; a pathological run
   over `MAX_BLOCK_TOKENS` words a side is not word-aligned (its units are reported deleted and added).

Short page furniture the reader marked (running headers, "Page 2 of 3") is left out of the units: a
redline that adds a page moves every page break, and that is not a change to any clause.

The result maps any old span to the new text (`Alignment.map_span`) — used by re-verification to find
where a cited passage went and, when it no longer matches, what it became — and lists the changes
clause by clause (`Alignment.changes`) for `citationgate diff`.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rapidfuzz.distance import Indel

from citationgate.normalize import normalize_quote
from ingest.document import Document, Section, Span

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


# ── tokens ──────────────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True, slots=True)
class Tokens:
    starts: list[int]
    ends: list[int]
    keys: list[str]


def tokens(text: str, a: int, b: int) -> Tokens:
    """The words of `text[a:b]`: their offsets, and each in the gate's normalized form for comparing."""
    return _tokens(text, a, b)


def word_opcodes(a: Sequence[str], b: Sequence[str]) -> list[tuple[str, int, int, int, int]]:
    """LCS opcodes between two word lists (equal | insert | delete | replace), as (tag, i1, i2, j1, j2)."""
    return _merge_ops(_opcodes(a, b))


def _tokens(text: str, a: int, b: int) -> Tokens:
    starts: list[int] = []
    ends: list[int] = []
    keys: list[str] = []
    for m in _WORD.finditer(text, a, b):
        starts.append(m.start())
        ends.append(m.end())
        keys.append(m.group())
    # compare words as the gate's exact mode does: typographic folds, hyphen/ligature forms
    return Tokens(starts, ends, [k if k.isascii() else normalize_quote(k) for k in keys])


# ── the alignment ───────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True, slots=True, kw_only=True)
class _Block:
    """A run of old units and new units mapped word by word (an unaligned run, or a moved unit)."""

    old_units: tuple[int, ...]
    new_units: tuple[int, ...]
    old_tokens: Tokens
    new_tokens: Tokens
    # token-level opcodes: (tag, i1, i2, j1, j2)
    ops: tuple[tuple[str, int, int, int, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Alignment:
    """Two versions aligned: units, their pairing, word edits, and a span map from old to new."""

    old_text: str
    new_text: str
    old_units: tuple[Unit, ...]
    new_units: tuple[Unit, ...]
    changes: tuple[UnitChange, ...]  # every unit, in new-document order with deletions in place
    old_pair: dict[int, int]  # old unit index → new unit index (for kept, renumbered, moved, changed)
    old_block: dict[int, int]  # old unit index → index into `_blocks` (word-aligned units)
    old_kind: dict[int, ChangeKind]  # old unit index → same | renumbered | moved | changed
    inserted_units: list[int]  # new-text starts of paragraphs inserted where there was nothing
    deleted_units: list[int]  # old-text starts of paragraphs removed with nothing in their place
    _blocks: tuple[_Block, ...] = field(repr=False)
    _old_starts: list[int] = field(repr=False)
    _new_starts: list[int] = field(repr=False)
    _edits_by_old: list[WordEdit] = field(repr=False)
    _edit_old_starts: list[int] = field(repr=False)
    _edits_by_new: list[WordEdit] = field(repr=False)
    _edit_new_starts: list[int] = field(repr=False)
    _deltas: dict[int, int | None] = field(default_factory=dict, repr=False, compare=False)

    # lookups
    def old_unit_at(self, offset: int) -> Unit | None:
        return _unit_at(self.old_units, self._old_starts, offset)

    def new_unit_at(self, offset: int) -> Unit | None:
        return _unit_at(self.new_units, self._new_starts, offset)

    def map_offset(self, offset: int, *, side: Literal["start", "end"]) -> tuple[int, bool] | None:
        """Where old `offset` lands in the new text, and whether the word there is unchanged.

        `side="start"` maps a span's first character; `side="end"` its end (exclusive). A word that was
        replaced maps to the start (or end) of its replacement; a deleted word to where it was. None
        when the unit holding the offset was deleted.
        """
        unit = self.old_unit_at(offset if side == "start" else max(offset - 1, 0))
        if unit is None:
            return None
        j = self.old_pair.get(unit.index)
        bi = self.old_block.get(unit.index)
        if bi is None:
            if j is None:
                return None
            new = self.new_units[j]
            # identical keys: same words in the same order, possibly re-spaced
            if self.old_text[unit.body_start : unit.end] == self.new_text[new.body_start : new.end]:
                if offset < unit.body_start:
                    return min(new.start + (offset - unit.start), new.body_start), True
                return new.body_start + (offset - unit.body_start), True
            old_t = _tokens(self.old_text, unit.body_start, unit.end)
            new_t = _tokens(self.new_text, new.body_start, new.end)
            ops: tuple[tuple[str, int, int, int, int], ...] = (
                ("equal", 0, len(old_t.starts), 0, len(new_t.starts)),
            )
            return _map_in(offset, side, old_t, new_t, ops, new.body_start, new.end)
        block = self._blocks[bi]
        fallback = self.new_units[j].start if j is not None else None
        return _map_in(offset, side, block.old_tokens, block.new_tokens, block.ops, fallback, fallback)

    def map_span(self, start: int, end: int) -> MappedSpan | None:
        """Map old `[start, end)` to the new text (None when its unit was deleted outright)."""
        unit = self.old_unit_at(start)
        if unit is not None and unit.body_start <= start and end <= unit.end:
            # the common case, a span inside a paragraph whose text did not change: a shift
            delta = self._delta(unit)
            if delta is not None:
                new = self.new_units[self.old_pair[unit.index]]
                return MappedSpan(
                    start=start + delta,
                    end=end + delta,
                    intact=True,
                    edits=(),
                    old_unit=unit,
                    new_unit=new,
                    identical=True,
                )
        a = self.map_offset(start, side="start")
        b = self.map_offset(end, side="end")
        if unit is None or a is None or b is None:
            return None
        inside = self.edits_between_old(start, end, strict=True)
        new_start, new_end = a[0], max(a[0], b[0])
        intact = a[1] and b[1] and not inside
        j = self.old_pair.get(unit.index)
        new_unit = self.new_units[j] if j is not None else self.new_unit_at(new_start)
        if intact:
            # the same words in the same order must slice out of the new text
            old_words = self.old_text[start:end].split()
            intact = old_words == self.new_text[new_start:new_end].split()
        return MappedSpan(
            start=new_start,
            end=new_end,
            intact=intact,
            edits=tuple(inside),
            old_unit=unit,
            new_unit=new_unit,
        )

    def _delta(self, unit: Unit) -> int | None:
        """For a unit paired with an identical one (character for character): the offset shift."""
        cached = self._deltas.get(unit.index, False)
        if cached is not False:
            return cached
        delta: int | None = None
        j = self.old_pair.get(unit.index)
        if j is not None and unit.index not in self.old_block:
            new = self.new_units[j]
            if self.old_text[unit.body_start : unit.end] == self.new_text[new.body_start : new.end]:
                delta = new.body_start - unit.body_start
        self._deltas[unit.index] = delta
        return delta

    def edits_between_old(self, start: int, end: int, *, strict: bool = False) -> list[WordEdit]:
        """Word edits touching old `[start, end)`. `strict`: an insertion at either edge is outside."""
        out = []
        i = bisect.bisect_left(self._edit_old_starts, start - 1)
        i = max(0, i - 1)
        edits = self._edits_by_old
        for k in range(i, len(edits)):
            e = edits[k]
            if e.old_start > end:
                break
            if _touches(e.old_start, e.old_end, start, end, strict=strict):
                out.append(e)
        return out

    def edits_between_new(self, start: int, end: int, *, strict: bool = False) -> list[WordEdit]:
        """Word edits touching new `[start, end)`. `strict`: a deletion at either edge is outside."""
        out = []
        i = bisect.bisect_left(self._edit_new_starts, start - 1)
        i = max(0, i - 1)
        edits = self._edits_by_new
        for k in range(i, len(edits)):
            e = edits[k]
            if e.new_start > end:
                break
            if _touches(e.new_start, e.new_end, start, end, strict=strict):
                out.append(e)
        return out

    def paragraphs_above(self, old_offset: int, new_offset: int) -> tuple[int, int]:
        """Paragraphs inserted above `new_offset` and removed above `old_offset` (whole paragraphs only;
        an edited or re-flowed paragraph is an edit, not an insertion)."""
        return (
            bisect.bisect_left(self.inserted_units, new_offset),
            bisect.bisect_left(self.deleted_units, old_offset),
        )

    def summary(self) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for c in self.changes:
            counts[c.kind] += 1
        return dict(counts)


def _touches(a: int, b: int, start: int, end: int, *, strict: bool) -> bool:
    if a == b:  # a point (an insertion seen from the old side, a deletion from the new)
        return start < a < end if strict else start <= a <= end
    return a < end and b > start


def _unit_at(units: Sequence[Unit], starts: Sequence[int], offset: int) -> Unit | None:
    i = bisect.bisect_right(starts, offset) - 1
    if i < 0:
        return units[0] if units else None
    return units[i]


def _map_in(
    offset: int,
    side: Literal["start", "end"],
    old_t: Tokens,
    new_t: Tokens,
    ops: Sequence[tuple[str, int, int, int, int]],
    default_start: int | None,
    default_end: int | None,
) -> tuple[int, bool] | None:
    """Map an old offset through token opcodes to the new text."""
    if not old_t.starts:
        return (default_start, False) if default_start is not None else None
    if side == "start":
        k = bisect.bisect_right(old_t.ends, offset)  # first token ending after the offset
        k = min(k, len(old_t.starts) - 1)
    else:
        k = bisect.bisect_left(old_t.starts, offset) - 1  # last token starting before the offset
        k = max(k, 0)
    for tag, i1, i2, j1, j2 in ops:
        if tag == "insert":
            continue
        if i1 <= k < i2:
            if tag == "equal":
                kk = j1 + (k - i1)
                if side == "start":
                    delta = max(offset - old_t.starts[k], 0)
                    return new_t.starts[kk] + delta, True
                delta = max(old_t.ends[k] - offset, 0)
                return new_t.ends[kk] - delta, True
            # deleted or replaced: the nearest surviving edge in the new text
            if side == "start":
                if j1 < len(new_t.starts):
                    return new_t.starts[j1], False
                return (new_t.ends[-1] if new_t.ends else (default_end or 0)), False
            if j2 > 0 and j2 - 1 < len(new_t.ends):
                return new_t.ends[j2 - 1], False
            return (new_t.starts[0] if new_t.starts else (default_start or 0)), False
    return None


def _opcodes(a: Sequence[str], b: Sequence[str]) -> list[tuple[str, int, int, int, int]]:
    if not a:
        return [("insert", 0, 0, 0, len(b))] if b else []
    if not b:
        return [("delete", 0, len(a), 0, 0)]
    return [(o.tag, o.src_start, o.src_end, o.dest_start, o.dest_end) for o in Indel.opcodes(a, b)]


def _merge_ops(ops: Sequence[tuple[str, int, int, int, int]]) -> list[tuple[str, int, int, int, int]]:
    """Fold Indel's adjacent delete+insert into one replace, so an edit reads as 'X → Y'."""
    out: list[tuple[str, int, int, int, int]] = []
    for op in ops:
        if out and op[0] != "equal" and out[-1][0] != "equal":
            _, i1, _, j1, _ = out[-1]
            out[-1] = ("replace", i1, op[2], j1, op[4])
        else:
            out.append(op)
    return [
        ("delete" if j1 == j2 else "insert" if i1 == i2 else tag, i1, i2, j1, j2)
        if tag == "replace"
        else (tag, i1, i2, j1, j2)
        for tag, i1, i2, j1, j2 in out
    ]


def _edits(
    old_text: str, new_text: str, old_t: Tokens, new_t: Tokens, ops: Sequence[tuple[str, int, int, int, int]]
) -> list[WordEdit]:
    out = []
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        if i1 < i2:
            os_, oe = old_t.starts[i1], old_t.ends[i2 - 1]
        else:  # insertion point: just before the next old token, or after the previous one
            os_ = oe = old_t.starts[i1] if i1 < len(old_t.starts) else (old_t.ends[-1] if old_t.ends else 0)
        if j1 < j2:
            ns, ne = new_t.starts[j1], new_t.ends[j2 - 1]
        else:
            ns = ne = new_t.starts[j1] if j1 < len(new_t.starts) else (new_t.ends[-1] if new_t.ends else 0)
        op: EditOp = "insert" if i1 == i2 else "delete" if j1 == j2 else "replace"
        out.append(
            WordEdit(
                op=op,
                old_start=os_,
                old_end=oe,
                new_start=ns,
                new_end=ne,
                old_text=old_text[os_:oe],
                new_text=new_text[ns:ne],
            )
        )
    return out


def align(old: Document, new: Document) -> Alignment:
    """Align two versions of a document (see the module docstring for how)."""
    return align_texts(
        old.text,
        old.sections,
        new.text,
        new.sections,
        old_furniture=old.furniture,
        new_furniture=new.furniture,
    )


def align_texts(
    old_text: str,
    old_sections: Sequence[Section],
    new_text: str,
    new_sections: Sequence[Section],
    *,
    old_furniture: Sequence[Span] = (),
    new_furniture: Sequence[Span] = (),
) -> Alignment:
    """`align` for bare texts, their sections and their page furniture."""
    old_units = segment(old_text, old_sections, old_furniture)
    new_units = segment(new_text, new_sections, new_furniture)
    ids: dict[str, int] = {}
    old_ids = [ids.setdefault(u.key, len(ids)) for u in old_units]
    new_ids = [ids.setdefault(u.key, len(ids)) for u in new_units]

    old_pair: dict[int, int] = {}
    kinds: dict[int, ChangeKind] = {}  # by old index, for paired units
    runs: list[tuple[list[int], list[int], int, int]] = []  # old units, new units, where (i1, j1)
    for tag, i1, i2, j1, j2 in _merge_ops(_opcodes(old_ids, new_ids)):  # type: ignore[arg-type]
        if tag == "equal":
            for k in range(i2 - i1):
                old_pair[i1 + k] = j1 + k
        else:
            runs.append((list(range(i1, i2)), list(range(j1, j2)), i1, j1))

    # moved: a unit left over on both sides with the same key, paired in order of appearance
    left_old: dict[str, list[int]] = defaultdict(list)
    left_new: dict[str, list[int]] = defaultdict(list)
    for olds, news, _, _ in runs:
        for i in olds:
            left_old[old_units[i].key].append(i)
        for j in news:
            left_new[new_units[j].key].append(j)
    moved_old: set[int] = set()
    moved_new: set[int] = set()
    for key, olds_for_key in left_old.items():
        news_for_key = left_new.get(key, [])
        if not key:
            continue
        for i, j in zip(olds_for_key, news_for_key, strict=False):
            old_pair[i] = j
            kinds[i] = "moved"
            moved_old.add(i)
            moved_new.add(j)

    # word-align what is left of each run
    blocks: list[_Block] = []
    old_block: dict[int, int] = {}
    all_edits: list[WordEdit] = []
    unit_edits: dict[tuple[str, int], list[WordEdit]] = defaultdict(list)
    inserted: list[int] = []  # new starts of units added where nothing was (a paragraph inserted)
    deleted: list[int] = []  # old starts of units removed with nothing in their place
    for olds, news, i1, j1 in runs:
        olds = [i for i in olds if i not in moved_old]
        news = [j for j in news if j not in moved_new]
        if not olds or not news:
            # a whole-paragraph insertion or deletion: one edit per unit, at the point between units
            old_point = old_units[i1 - 1].end if i1 > 0 else 0
            new_point = new_units[j1 - 1].end if j1 > 0 else 0
            for j in news:
                u = new_units[j]
                inserted.append(u.start)
                e = WordEdit(
                    op="insert",
                    old_start=old_point,
                    old_end=old_point,
                    new_start=u.start,
                    new_end=u.end,
                    old_text="",
                    new_text=new_text[u.start : u.end],
                )
                all_edits.append(e)
                unit_edits[("new", j)].append(e)
            for i in olds:
                u = old_units[i]
                deleted.append(u.start)
                e = WordEdit(
                    op="delete",
                    old_start=u.start,
                    old_end=u.end,
                    new_start=new_point,
                    new_end=new_point,
                    old_text=old_text[u.start : u.end],
                    new_text="",
                )
                all_edits.append(e)
                unit_edits[("old", i)].append(e)
            continue
        old_t = _concat_tokens(old_text, [old_units[i] for i in olds])
        new_t = _concat_tokens(new_text, [new_units[j] for j in news])
        if len(old_t.keys) > MAX_BLOCK_TOKENS or len(new_t.keys) > MAX_BLOCK_TOKENS:
            continue
        ops = _merge_ops(_opcodes(old_t.keys, new_t.keys))
        block = _Block(
            old_units=tuple(olds), new_units=tuple(news), old_tokens=old_t, new_tokens=new_t, ops=tuple(ops)
        )
        for i in olds:
            old_block[i] = len(blocks)
        blocks.append(block)
        pairs = _pair_units(block, old_units, new_units)
        for i, j in pairs.items():
            old_pair[i] = j
            kinds[i] = "changed"
        edits = _edits(old_text, new_text, old_t, new_t, ops)
        all_edits.extend(edits)
        olds_units = [old_units[i] for i in olds]
        news_units = [new_units[j] for j in news]
        olds_starts = [u.start for u in olds_units]
        news_starts = [u.start for u in news_units]
        for e in edits:
            ou = _unit_at(olds_units, olds_starts, e.old_start)
            nu = _unit_at(news_units, news_starts, e.new_start)
            if ou is not None:
                unit_edits[("old", ou.index)].append(e)
            if nu is not None and (ou is None or old_pair.get(ou.index) != nu.index):
                unit_edits[("new", nu.index)].append(e)

    for i, j in old_pair.items():
        if i not in kinds:
            kinds[i] = "same" if old_units[i].label == new_units[j].label else "renumbered"

    changes = _changes(old_units, new_units, old_pair, kinds, unit_edits)
    by_old = sorted(all_edits, key=lambda e: (e.old_start, e.old_end))
    by_new = sorted(all_edits, key=lambda e: (e.new_start, e.new_end))
    return Alignment(
        old_text=old_text,
        new_text=new_text,
        old_units=old_units,
        new_units=new_units,
        changes=tuple(changes),
        old_pair=old_pair,
        old_block=old_block,
        old_kind=kinds,
        inserted_units=sorted(inserted),
        deleted_units=sorted(deleted),
        _blocks=tuple(blocks),
        _old_starts=[u.start for u in old_units],
        _new_starts=[u.start for u in new_units],
        _edits_by_old=by_old,
        _edit_old_starts=[e.old_start for e in by_old],
        _edits_by_new=by_new,
        _edit_new_starts=[e.new_start for e in by_new],
    )


def _concat_tokens(text: str, units: Sequence[Unit]) -> Tokens:
    starts: list[int] = []
    ends: list[int] = []
    keys: list[str] = []
    for u in units:
        t = _tokens(text, u.body_start, u.end)
        starts += t.starts
        ends += t.ends
        keys += t.keys
    return Tokens(starts, ends, keys)


def _pair_units(block: _Block, old_units: Sequence[Unit], new_units: Sequence[Unit]) -> dict[int, int]:
    """Pair old and new units of a word-aligned run: each old unit with the new unit that received
    most of its unchanged words (at least a third of the smaller unit's words), one to one."""
    old_of_token = _owner(block.old_tokens.starts, [old_units[i] for i in block.old_units])
    new_of_token = _owner(block.new_tokens.starts, [new_units[j] for j in block.new_units])
    shared: dict[tuple[int, int], int] = defaultdict(int)
    for tag, i1, i2, j1, _j2 in block.ops:
        if tag != "equal":
            continue
        for k in range(i2 - i1):
            shared[(old_of_token[i1 + k], new_of_token[j1 + k])] += 1
    old_size: dict[int, int] = defaultdict(int)
    new_size: dict[int, int] = defaultdict(int)
    for o in old_of_token:
        old_size[o] += 1
    for n in new_of_token:
        new_size[n] += 1
    pairs: dict[int, int] = {}
    taken: set[int] = set()
    for (i, j), n in sorted(shared.items(), key=lambda kv: (-kv[1], kv[0])):
        if i in pairs or j in taken:
            continue
        if 3 * n >= min(old_size[i], new_size[j]):
            pairs[i] = j
            taken.add(j)
    return pairs


def _owner(token_starts: Sequence[int], units: Sequence[Unit]) -> list[int]:
    starts = [u.start for u in units]
    return [units[max(bisect.bisect_right(starts, s) - 1, 0)].index for s in token_starts]


def _changes(
    old_units: Sequence[Unit],
    new_units: Sequence[Unit],
    old_pair: dict[int, int],
    kinds: dict[int, ChangeKind],
    unit_edits: dict[tuple[str, int], list[WordEdit]],
) -> list[UnitChange]:
    new_to_old = {j: i for i, j in old_pair.items()}
    out: list[UnitChange] = []
    pending_deleted = [i for i in range(len(old_units)) if i not in old_pair]
    di = 0
    for j, nu in enumerate(new_units):
        i = new_to_old.get(j)
        # deletions go where they were: before the first new unit whose old partner comes after them
        if i is not None and kinds[i] != "moved":
            while di < len(pending_deleted) and pending_deleted[di] < i:
                k = pending_deleted[di]
                out.append(
                    UnitChange(
                        kind="deleted", old=old_units[k], new=None, edits=tuple(unit_edits[("old", k)])
                    )
                )
                di += 1
        if i is None:
            out.append(UnitChange(kind="added", old=None, new=nu, edits=tuple(unit_edits[("new", j)])))
            continue
        kind = kinds[i]
        edits = unit_edits[("old", i)] + unit_edits[("new", j)] if kind == "changed" else []
        out.append(UnitChange(kind=kind, old=old_units[i], new=nu, edits=tuple(edits)))
    for k in pending_deleted[di:]:
        out.append(
            UnitChange(kind="deleted", old=old_units[k], new=None, edits=tuple(unit_edits[("old", k)]))
        )
    return out


def _clip(s: str, n: int = 80) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


__all__ = [
    "Alignment",
    "MappedSpan",
    "Unit",
    "UnitChange",
    "WordEdit",
    "align",
    "align_texts",
    "segment",
    "tokens",
    "word_opcodes",
]
