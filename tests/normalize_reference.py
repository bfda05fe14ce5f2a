"""The normalized views and the fuzzy search's shingle index as they were computed with numpy:
`citationgate/normalize.py` (`normalize_text`, `NormalizedView`) and `citationgate/locate.py` (`_WordIndex`'s
words, offsets and diagonal votes) of main at 4a07b08, their code kept verbatim below as the oracle
`tests/test_normalize_oracle.py` holds the current code to (the same views, offset maps, words and candidate
diagonals on every input). Change it only with a deliberate change of what they compute.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ingest.typography import FOLDS

SHINGLE_WORDS = 3
MAX_POSTINGS = 64
MAX_CANDIDATES = 3
EDGE_SLACK = 2

# Vectorized form of the same table for long texts: code point → folded code point, and how many
# normalized characters each code point becomes (0 dropped, 1, or 2–3 for a ligature).
_LUT = np.arange(0x10000, dtype=np.uint32)
_COUNT = np.ones(0x10000, dtype=np.int64)
#: Marks, in the fold lookup, a character whose normalized form is not one character. It never
#: survives: dropped characters are removed and ligature letters written over it.
_RESIZE_MARK = 0xFFFFFFFF
for _ch, _rep in FOLDS.items():
    _COUNT[ord(_ch)] = len(_rep)
    _LUT[ord(_ch)] = ord(_rep[0]) if len(_rep) == 1 else _RESIZE_MARK

_SPACE, _NL, _HYPHEN = ord(" "), ord("\n"), ord("-")
#: A hyphen followed by a whitespace run (greedy, so the run is maximal). Checked further in Python.
_HYPHEN_RUN = re.compile(r"-([ \n]+)")
_WS_RUN = re.compile(r"[ \n]+")


def _linebreak_hyphens(folded: str) -> list[tuple[int, int, int]]:
    """`(hyphen, run_start, run_end)` for each hyphen at a line break inside a word.

    `folded` has already been through the fold table (all whitespace is " " or "\\n"). A hyphen
    qualifies when a letter precedes it, a letter follows the whitespace run, and the run contains
    a line break. The same function serves the text and the quote, so both sides agree.
    """
    out = []
    n = len(folded)
    for m in _HYPHEN_RUN.finditer(folded):
        h = m.start()
        a, b = m.span(1)
        if h == 0 or b >= n or "\n" not in m.group(1):
            continue
        if folded[h - 1].isalpha() and folded[b].isalpha():
            out.append((h, a, b))
    return out


@dataclass(frozen=True, slots=True)
class NormalizedView:
    """A normalized string and, for each of its positions, the canonical position it came from."""

    text: str
    pos: npt.NDArray[np.int64]  # len(text) + 1 entries; pos[len] = len(canonical)

    def to_canonical(self, start: int, end: int) -> tuple[int, int] | None:
        """Canonical `[start, end)` for normalized `[start, end)`, or None if an edge splits a ligature."""
        pos = self.pos
        if start > 0 and pos[start - 1] == pos[start]:
            return None  # starts inside an expanded ligature
        if end < len(self.text) and pos[end] == pos[end - 1]:
            return None  # ends inside an expanded ligature
        return int(pos[start]), int(pos[end - 1]) + 1


@dataclass(frozen=True, slots=True)
class Normalized:
    """The views of one canonical text: `a` always; `b` only when line-break hyphens exist."""

    a: NormalizedView
    b: NormalizedView | None

    @property
    def views(self) -> tuple[NormalizedView, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)


def normalize_text(text: str) -> Normalized:
    """Build the normalized views of a canonical text with their offset maps (vectorized; ~ms per MB)."""
    n = len(text)
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    astral = bool(codes.size) and int(codes.max()) > 0xFFFF
    if astral:  # characters beyond the BMP (emoji…) pass through unchanged
        low = np.minimum(codes, 0xFFFF)
        folded = np.where(codes > 0xFFFF, codes, _LUT[low])
    else:
        folded = _LUT[codes]
    if bool((folded == _RESIZE_MARK).any()):  # dropped characters or ligatures: lengths change
        counts = _COUNT[np.minimum(codes, 0xFFFF)]
        if astral:
            counts = np.where(codes > 0xFFFF, 1, counts)
        src = np.repeat(np.arange(n, dtype=np.int64), counts)
        t1 = folded[src]
        # Fill in the letters of expanded ligatures (rare: a Python loop over them is fine).
        lig = np.flatnonzero(counts > 1)
        if lig.size:
            first = np.searchsorted(src, lig)
            for i, j in zip(lig.tolist(), first.tolist(), strict=True):
                for k, letter in enumerate(FOLDS[text[i]]):
                    t1[j + k] = ord(letter)
    else:
        src = None
        t1 = folded

    is_ws = (t1 == _SPACE) | (t1 == _NL)
    keep = np.ones(t1.shape, dtype=np.bool_)
    if is_ws.size > 1:
        keep[1:] = ~(is_ws[1:] & is_ws[:-1])  # keep the first character of every whitespace run
    joins: list[tuple[int, int, int]] = []
    hyphen_then_ws = np.flatnonzero((t1[:-1] == _HYPHEN) & is_ws[1:]) if t1.size > 1 else np.array([])
    if hyphen_then_ws.size:
        joins = _linebreak_hyphens(t1.tobytes().decode("utf-32-le", "surrogatepass"))
        for _h, a, b in joins:
            keep[a:b] = False
    out = t1  # a fresh array (the fold lookup copied it): safe to edit in place
    out[t1 == _NL] = _SPACE

    def view(mask: npt.NDArray[np.bool_]) -> NormalizedView:
        s = out[mask].tobytes().decode("utf-32-le", "surrogatepass")
        idx = np.flatnonzero(mask)
        pos = np.empty(idx.size + 1, dtype=np.int64)
        pos[:-1] = idx if src is None else src[idx]
        pos[-1] = n
        return NormalizedView(text=s, pos=pos)

    view_a = view(keep)
    view_b = None
    if joins:
        keep_b = keep.copy()
        for h, _a, _b in joins:
            keep_b[h] = False
        view_b = view(keep_b)
    return Normalized(a=view_a, b=view_b)


class _WordIndex:
    """Words of a normalized view with their offsets, and a sorted 3-word-shingle → position index."""

    def __init__(self, view: NormalizedView) -> None:
        self.view = view
        hay = view.text
        raw = hay.split(" ")
        lengths = np.fromiter(map(len, raw), dtype=np.int64, count=len(raw))
        starts = np.zeros(len(raw), dtype=np.int64)
        if len(raw) > 1:
            starts[1:] = np.cumsum(lengths[:-1] + 1)
        nonempty = lengths > 0
        self.tokens: list[str] = [t for t in raw if t]
        self.starts = starts[nonempty]
        self.ends = self.starts + lengths[nonempty]
        hashes = _token_hashes(self.tokens)
        shingles = _shingle_hashes(hashes)
        self.order = np.argsort(shingles, kind="stable")
        self.sorted = shingles[self.order]

    def diagonals(self, qwords: list[str]) -> list[int]:
        """The best few diagonals (document word index where quote word 0 would sit), by votes."""
        qsh = _shingle_hashes(_token_hashes(qwords))
        if not qsh.size or not self.sorted.size:
            return []
        lo = np.searchsorted(self.sorted, qsh, side="left")
        hi = np.searchsorted(self.sorted, qsh, side="right")
        parts = [
            self.order[a:b] - j
            for j, (a, b) in enumerate(zip(lo.tolist(), hi.tolist(), strict=True))
            if 0 < b - a <= MAX_POSTINGS
        ]
        if not parts:
            return []
        diags, votes = np.unique(np.concatenate(parts), return_counts=True)
        # Neighbouring diagonals belong to one candidate (an inserted or dropped word shifts it).
        ranked = np.argsort(-votes, kind="stable")
        chosen: list[int] = []
        for i in ranked.tolist():
            d = int(diags[i])
            if all(abs(d - c) > EDGE_SLACK for c in chosen):
                chosen.append(d)
                if len(chosen) == MAX_CANDIDATES:
                    break
        return chosen


_P1 = np.uint64(0x9E3779B97F4A7C15)
_P2 = np.uint64(0xC2B2AE3D27D4EB4F)


def _token_hashes(tokens: Sequence[str]) -> npt.NDArray[np.uint64]:
    arr = np.fromiter(map(hash, tokens), dtype=np.int64, count=len(tokens))
    return arr.view(np.uint64)


def _shingle_hashes(h: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    k = SHINGLE_WORDS
    if h.size < k:
        return np.empty(0, dtype=np.uint64)
    m = h.size - k + 1
    with np.errstate(over="ignore"):
        out = h[:m].copy()
        for i in range(1, k):
            out = out * _P1 + (h[i : i + m] ^ _P2)
    return out
