"""An alignment of two versions: which unit became which, and how a span of the old version maps
into the new one, with the word edits around it."""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from citationgate.align.tokens import Tokens, _tokens
from citationgate.align.units import (
    ChangeKind,
    EditOp,
    MappedSpan,
    Unit,
    UnitChange,
    WordEdit,
)


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
        inside = self.edits_between("old", start, end, strict=True)
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

    def edits_between(
        self, text: Literal["old", "new"], start: int, end: int, *, strict: bool = False
    ) -> list[WordEdit]:
        """Word edits touching `[start, end)` of the `text` ("old" or "new") side. `strict`: an edit
        that only adds words on the other side (an insertion, read on the old side; a deletion, on the
        new) at either edge is outside."""
        if text == "old":
            starts, edits = self._edit_old_starts, self._edits_by_old
        else:
            starts, edits = self._edit_new_starts, self._edits_by_new
        out = []
        i = max(0, bisect.bisect_left(starts, start - 1) - 1)
        for k in range(i, len(edits)):
            e = edits[k]
            e_start, e_end = (e.old_start, e.old_end) if text == "old" else (e.new_start, e.new_end)
            if e_start > end:
                break
            if _touches(e_start, e_end, start, end, strict=strict):
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
