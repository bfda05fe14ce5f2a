"""TF-IDF features of text, computed exactly as scikit-learn's `TfidfVectorizer` computes them at training.

Two blocks, each l2-normalised on its own and then placed side by side (as `scipy.sparse.hstack` of two
fitted vectorizers): word 1–3-grams (`token_pattern=r"(?u)\\b\\w\\w+\\b"`, lower-cased) and character
3–5-grams inside word boundaries (`analyzer="char_wb"`), both with sublinear tf and smoothed idf over a
fixed vocabulary. Plain Python and numpy: no scikit-learn at run time. `tests/test_locator.py` checks the
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
