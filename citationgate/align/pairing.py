"""Building the alignment: identical units anchored first, the units between them paired by their
words, then the words inside the changed ones."""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence

from citationgate.align.alignment import Alignment, _Block, _edits, _unit_at
from citationgate.align.tokens import Tokens, _merge_ops, _opcodes, _tokens
from citationgate.align.units import (
    MAX_BLOCK_TOKENS,
    ChangeKind,
    Unit,
    UnitChange,
    WordEdit,
    segment,
)
from ingest.document import Document, Section, Span


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
