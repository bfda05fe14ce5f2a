"""Word tokens of a span of text, and the word-level opcodes between two token sequences."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Indel

from citationgate.align.units import (
    _WORD,
)
from citationgate.normalize import normalize_quote


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
