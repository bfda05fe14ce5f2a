"""TF-IDF features of text, computed exactly as scikit-learn's `TfidfVectorizer` computes them at training.

Two blocks, each l2-normalised on its own and then placed side by side (as `scipy.sparse.hstack` of two
fitted vectorizers): word 1–3-grams (`token_pattern=r"(?u)\\b\\w\\w+\\b"`, lower-cased) and character
3–5-grams inside word boundaries (`analyzer="char_wb"`), both with sublinear tf and smoothed idf over a
fixed vocabulary. Plain Python and numpy: no scikit-learn at run time. `Block.matrix` scores a whole
document's units at once (word n-grams as integer keys looked up in sorted arrays); `Block.row` is the
text-by-text reference it is tested against. `tests/test_locator.py` checks the
scores against the ones scikit-learn produced when the weights were trained.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["Block", "char_wb_ngrams", "word_ngrams"]

_TOKEN = re.compile(r"(?u)\b\w\w+\b")
_WHITE = re.compile(r"\s\s+")


def word_ngrams(text: str, lo: int, hi: int) -> list[str]:
    """scikit-learn's word analyzer: lower-case, tokens of two or more word characters, lo..hi-grams."""
    tokens = _TOKEN.findall(text.lower())
    out = list(tokens) if lo == 1 else []
    n_tok = len(tokens)
    for n in range(max(lo, 2), min(hi, n_tok) + 1):
        out.extend(" ".join(tokens[i : i + n]) for i in range(n_tok - n + 1))
    return out


def _word_char_ngrams(word: str, lo: int, hi: int) -> list[str]:
    w = f" {word} "
    length = len(w)
    out: list[str] = []
    for n in range(lo, hi + 1):
        offset = 0
        out.append(w[offset : offset + n])
        while offset + n < length:
            offset += 1
            out.append(w[offset : offset + n])
        if offset == 0:  # the padded word is shorter than n: counted once
            break
    return out


def char_wb_ngrams(text: str, lo: int, hi: int) -> list[str]:
    """scikit-learn's `char_wb` analyzer: lower-case, whitespace collapsed, n-grams of each padded word."""
    out: list[str] = []
    for word in _WHITE.sub(" ", text.lower()).split():
        out.extend(_word_char_ngrams(word, lo, hi))
    return out


IntArray = npt.NDArray[np.int64]
FloatArray64 = npt.NDArray[np.float64]


class _NgramTable:
    """The word vocabulary as integer keys: each token of the vocabulary gets an id, an n-gram is the
    number `((id1 · T) + id2) · T + id3 …`, and each n keeps its sorted keys beside their columns. An n-gram
    with a token outside every vocabulary term cannot be a term, so it needs no key."""

    def __init__(self, vocab: Sequence[str], lo: int, hi: int) -> None:
        self.tokens: dict[str, int] = {}
        for term in vocab:
            for tok in term.split(" "):
                self.tokens.setdefault(tok, len(self.tokens))
        self.base = len(self.tokens) + 1
        if self.base**hi >= 2**62:
            raise ValueError(f"a vocabulary of {self.base - 1} tokens is too large for {hi}-gram keys")
        self.lo, self.hi = lo, hi
        self.keys: dict[int, tuple[IntArray, IntArray]] = {}
        by_n: dict[int, tuple[list[int], list[int]]] = {n: ([], []) for n in range(lo, hi + 1)}
        for col, term in enumerate(vocab):
            toks = term.split(" ")
            key = 0
            for tok in toks:
                key = key * self.base + self.tokens[tok]
            keys, cols = by_n[len(toks)]
            keys.append(key)
            cols.append(col)
        for n, (keys, cols) in by_n.items():
            k = np.asarray(keys, dtype=np.int64)
            order = np.argsort(k, kind="stable")
            self.keys[n] = (k[order], np.asarray(cols, dtype=np.int64)[order])

    def columns(self, texts: Sequence[str]) -> tuple[IntArray, IntArray]:
        """(text index, column) of each vocabulary n-gram occurring in `texts` (never across two texts)."""
        get = self.tokens.get
        ids_list: list[int] = []
        owner_list: list[int] = []
        for r, text in enumerate(texts):
            toks = _TOKEN.findall(text.lower())
            ids_list.extend(get(t, -1) for t in toks)
            owner_list.extend([r] * len(toks))
        ids = np.asarray(ids_list, dtype=np.int64)
        owner = np.asarray(owner_list, dtype=np.int64)
        rows: list[IntArray] = []
        cols: list[IntArray] = []
        m = len(ids)
        for n in range(self.lo, self.hi + 1):
            if m < n:
                break
            span = m - n + 1
            ok = owner[:span] == owner[n - 1 :]
            key = np.zeros(span, dtype=np.int64)
            for j in range(n):
                part = ids[j : j + span]
                ok &= part >= 0
                key = key * self.base + part
            at = np.flatnonzero(ok)
            keys, kcols = self.keys[n]
            if not len(at) or not len(keys):
                continue
            pos = np.searchsorted(keys, key[at])
            pos[pos == len(keys)] = 0
            hit = keys[pos] == key[at]
            rows.append(owner[at[hit]])
            cols.append(kcols[pos[hit]])
        if not rows:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return np.concatenate(rows), np.concatenate(cols)


class Block:
    """One fitted vectorizer: vocabulary (term → column), idf, n-gram range and analyzer."""

    def __init__(self, *, kind: str, vocab: Sequence[str], idf: npt.NDArray[np.float32], lo: int, hi: int):
        if kind not in ("word", "char_wb"):
            raise ValueError(f"unknown analyzer {kind!r}")
        self.kind = kind
        self.lo, self.hi = lo, hi
        self.index: Mapping[str, int] = {t: i for i, t in enumerate(vocab)}
        self.idf = idf.astype(np.float64)
        self._word_cache: dict[str, list[int]] = {}
        self._table = _NgramTable(vocab, lo, hi) if kind == "word" else None

    def matrix(self, texts: Sequence[str]) -> tuple[IntArray, IntArray, FloatArray64]:
        """The tf-idf rows of all `texts` at once, as (row, column, value) sorted by row then column:
        the same values as `row` gives text by text (l2-normalised per row), computed in numpy."""
        if self._table is not None:
            r, c = self._table.columns(texts)
        else:
            pairs = [(i, j) for i, t in enumerate(texts) for j in self._columns(t)]
            r = np.fromiter((p[0] for p in pairs), dtype=np.int64, count=len(pairs))
            c = np.fromiter((p[1] for p in pairs), dtype=np.int64, count=len(pairs))
        width = max(len(self.index), 1)
        cells, counts = np.unique(r * width + c, return_counts=True)
        rows, cols = cells // width, cells % width
        vals = (1.0 + np.log(counts)) * self.idf[cols]
        norms = np.sqrt(np.bincount(rows, weights=vals * vals, minlength=len(texts)))
        vals = vals / np.where(norms > 0, norms, 1.0)[rows]
        return rows, cols, vals

    def __len__(self) -> int:
        return len(self.index)

    def _columns(self, text: str) -> Iterable[int]:
        index = self.index
        if self.kind == "word":
            return [j for g in word_ngrams(text, self.lo, self.hi) if (j := index.get(g)) is not None]
        cache = self._word_cache
        cols: list[int] = []
        for word in _WHITE.sub(" ", text.lower()).split():
            hit = cache.get(word)
            if hit is None:
                hit = [
                    j for g in _word_char_ngrams(word, self.lo, self.hi) if (j := index.get(g)) is not None
                ]
                if len(cache) < 200_000:  # contract vocabulary repeats; the cache stays bounded
                    cache[word] = hit
            cols.extend(hit)
        return cols

    def row(self, text: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """The non-zero columns of the text's tf-idf row and their values (l2-normalised)."""
        counts: dict[int, int] = {}
        for j in self._columns(text):
            counts[j] = counts.get(j, 0) + 1
        if not counts:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        cols = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
        tf = np.fromiter((1.0 + math.log(c) for c in counts.values()), dtype=np.float64, count=len(counts))
        vals = tf * self.idf[cols]
        norm = float(np.sqrt(np.dot(vals, vals)))
        return cols, (vals / norm if norm > 0 else vals)
