"""The fold table and the offset map: one tolerant view of a document version's canonical text.

The canonical text is never changed. Matching happens on a *normalized view* of it, built once per
document version, together with a map from every normalized position back to the canonical text:

- **typographic folds, one character to one**: every family of quote marks and apostrophes
  („ « » ‹ › ‚ ‛ ′ ″ “ ” ‘ ’ …) to ``"`` or ``'``; hyphens, dashes and minus signs to ``-``; the Greek
  question mark (U+037E) to ``;``; non-breaking, narrow and other Unicode spaces to a space;
- **dropped**: soft hyphens and zero-width characters (they print as nothing);
- **expanded, with the map**: the ligatures ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ (each expanded letter maps back to the
  ligature; a match may not start or end inside one);
- **whitespace runs** collapse to one space (any run matches any run);
- **a hyphen at a line break inside a word** ("Agree-⏎ment"): view A keeps the hyphen and drops the
  break ("Agree-ment", so "non-⏎compete" matches "non-compete"); view B, built only when such a break
  exists, drops both ("Agreement"). A quote is searched in both views.

Capitalisation is **not** folded (a capital letter marks a defined term), and there is no global NFKC
(it changes lengths and turns "m²" into "m2"). Quotes are normalized with the same table
(`normalize_quote`), so the two sides always agree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ingest.typography import DASHES as _DASHES
from ingest.typography import FOLDS

# ── the fold table: ingest.typography (shared with the PDF fidelity check) ──────────────────
_TRANSLATE = str.maketrans(dict(FOLDS))

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


def normalize_quote(quote: str) -> str:
    """A quote in the index's form (view A): folded, line-break hyphens joined, whitespace collapsed."""
    folded = quote.translate(_TRANSLATE)
    joins = _linebreak_hyphens(folded)
    if joins:
        parts, last = [], 0
        for _h, a, b in joins:
            parts.append(folded[last:a])
            last = b
        parts.append(folded[last:])
        folded = "".join(parts)
    return _WS_RUN.sub(" ", folded).strip(" ")


def quote_variants(quote: str) -> list[str]:
    """Every index form a quote may take: `normalize_quote`, and — when the quote itself has a hyphen
    at a line break ("non-⏎exclusive", as re-flowed text often does) — the same quote with that
    break read as plain whitespace ("non- exclusive"), since the document may print it that way…"""
    joined = normalize_quote(quote)
    plain = _WS_RUN.sub(" ", quote.translate(_TRANSLATE)).strip(" ")
    # …and a hyphen followed by a space in the quote, where the document breaks the line after it.
    closed = _HYPHEN_SPACE.sub("-", plain)
    return list(dict.fromkeys((joined, plain, closed)))


_HYPHEN_SPACE = re.compile(r"(?<=[^\W\d_])- (?=[^\W\d_])")
#: A dash of any width right after a letter and followed by whitespace ("non-⏎", "non- "): only such
#: a quote can have more than one form ("word — word", with spaces on both sides, has one).
_DASH_THEN_SPACE = re.compile(r"(?<=[^\W\d_])[" + re.escape(_DASHES) + r"]\s")


def has_variants(quote: str) -> bool:
    """Cheap test, before `quote_variants`: could the quote have a second index form?"""
    return _DASH_THEN_SPACE.search(quote) is not None


_BATCH_SEPARATOR = "\x00"


def normalize_quotes(quotes: Sequence[str]) -> list[str]:
    """`normalize_quote` for many quotes in one vectorized pass (same result, quote by quote).

    The quotes are joined by NUL — not whitespace and not a letter, so no whitespace run and no
    line-break hyphen spans two quotes — normalized as one text, and split again.
    """
    if len(quotes) < 8 or any(_BATCH_SEPARATOR in q for q in quotes):
        return [normalize_quote(q) for q in quotes]
    joined = normalize_text(_BATCH_SEPARATOR.join(quotes)).a.text
    return [part.strip(" ") for part in joined.split(_BATCH_SEPARATOR)]


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


__all__ = ["FOLDS", "Normalized", "NormalizedView", "normalize_quote", "normalize_quotes", "normalize_text"]
