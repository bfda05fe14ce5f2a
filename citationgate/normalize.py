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
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from operator import add

from ingest.typography import DASHES as _DASHES
from ingest.typography import FOLDS

# ── the fold table: ingest.typography (shared with the PDF fidelity check) ──────────────────
_TRANSLATE = str.maketrans(dict(FOLDS))

# The same table for long texts, without a pass per character: the characters it changes are found with
# one pattern, and each one found is replaced throughout with `str.replace` when it stays one character
# (quotes, dashes, spaces: offsets unchanged); those dropped or expanded (soft hyphens, zero-width
# characters, ligatures) change offsets and are walked one by one (they are rare). `str.translate` with
# the table costs ~80 ms per MB; this a few.
_CHANGED_CHAR = re.compile("[" + "".join(re.escape(ch) for ch, rep in FOLDS.items() if rep != ch) + "]")
_RESIZED = {ch: rep for ch, rep in FOLDS.items() if len(rep) != 1}
_RESIZED_CHAR = re.compile("[" + "".join(map(re.escape, _RESIZED)) + "]")
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


class OffsetMap(Sequence[int]):
    """For each position of a normalized view (and one past its end), the canonical position it came from.

    Stored as runs: run `k` starts at view position `starts[k]` and canonical position `origins[k]`, and
    goes on one to one (`steps[k]` 1) — or, for the letters of an expanded ligature, stays on the ligature
    (`steps[k]` 0). Position `len(view)` maps to the canonical text's length. A view of a 1 MB contract has
    some ten thousand runs (one per collapsed whitespace run), where a position array has a million
    entries."""

    __slots__ = ("_end", "_length", "_origins", "_starts", "_steps")

    def __init__(
        self, starts: list[int], origins: list[int], steps: list[int] | None, *, length: int, end: int
    ) -> None:
        self._starts, self._origins, self._steps = starts, origins, steps
        self._length, self._end = length, end  # the view's length; the canonical text's

    def __len__(self) -> int:
        return self._length + 1

    def at(self, i: int) -> int:
        """The canonical position of view position `i` (0 ≤ i ≤ len(view))."""
        if i >= self._length:
            return self._end
        k = bisect_right(self._starts, i) - 1
        if self._steps is not None and not self._steps[k]:
            return self._origins[k]
        return self._origins[k] + i - self._starts[k]

    def tolist(self) -> list[int]:
        """Every position's canonical position, as a list (as numpy's `tolist` of a position array)."""
        out: list[int] = []
        bounds = [*self._starts[1:], self._length]  # one more than runs when there are none (an empty view)
        for k, (start, stop) in enumerate(zip(self._starts, bounds, strict=False)):
            origin = self._origins[k]
            if self._steps is not None and not self._steps[k]:
                out.extend([origin] * (stop - start))
            else:
                out.extend(range(origin, origin + stop - start))
        out.append(self._end)
        return out

    def __getitem__(self, i: int) -> int:  # type: ignore[override]
        if not isinstance(i, int):
            raise TypeError("an offset map is indexed by one position")
        if i < 0:
            i += self._length + 1
        if not 0 <= i <= self._length:
            raise IndexError(i)
        return self.at(i)


@dataclass(frozen=True, slots=True)
class NormalizedView:
    """A normalized string and, for each of its positions, the canonical position it came from."""

    text: str
    pos: OffsetMap  # len(text) + 1 entries; pos[len] = len(canonical)

    def to_canonical(self, start: int, end: int) -> tuple[int, int] | None:
        """Canonical `[start, end)` for normalized `[start, end)`, or None if an edge splits a ligature."""
        at = self.pos.at
        first = at(start)
        if start > 0 and at(start - 1) == first:
            return None  # starts inside an expanded ligature
        last = at(end - 1)
        if end < len(self.text) and at(end) == last:
            return None  # ends inside an expanded ligature
        return first, last + 1


@dataclass(frozen=True, slots=True)
class Normalized:
    """The views of one canonical text: `a` always; `b` only when line-break hyphens exist."""

    a: NormalizedView
    b: NormalizedView | None

    @property
    def views(self) -> tuple[NormalizedView, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)


def normalize_text(text: str) -> Normalized:
    """Build the normalized views of a canonical text with their offset maps (a few ms per MB)."""
    folded, source = _fold(text)
    joins = _linebreak_hyphens(folded) if "-" in folded else []
    if source is None and not joins:  # the usual case: only whitespace runs change the offsets
        return Normalized(a=_collapsed(folded, end=len(text)), b=None)
    # whitespace runs: each keeps its first character; a run after a line-break hyphen is dropped whole
    dropped = {m.start() + 1: m.end() for m in _WS_TWO_OR_MORE.finditer(folded)}
    for _h, a, b in joins:
        dropped.pop(a + 1, None)
        dropped[a] = b
    view_a = _view(text, folded, source, dropped)
    view_b = None
    if joins:
        for h, a, _b in joins:  # the hyphen goes with the break
            dropped[h] = dropped.pop(a)
        view_b = _view(text, folded, source, dropped)
    return Normalized(a=view_a, b=view_b)


_WS_TWO_OR_MORE = re.compile(r"[ \n]{2,}")
_SPACE_RUN = re.compile(r"(  +)")


def _fold(text: str) -> tuple[str, list[tuple[int, int, int]] | None]:
    """The text through the fold table, and — when characters were dropped or expanded — where each run of
    it came from: `(folded start, canonical start, step)`, step 0 for the letters of a ligature. None: the
    folded text has the canonical text's offsets."""
    resized = False
    found = _CHANGED_CHAR.search(text)
    while found is not None:
        ch = found.group()
        if ch in _RESIZED:
            resized = True
        else:
            text = text.replace(ch, FOLDS[ch])  # every occurrence: the next one found is another character
        found = _CHANGED_CHAR.search(text, found.start() + 1)
    if not resized:
        return text, None
    parts: list[str] = []
    runs: list[tuple[int, int, int]] = []
    at, out = 0, 0  # canonical position, folded position
    for i in (m.start() for m in _RESIZED_CHAR.finditer(text)):
        if i > at:
            parts.append(text[at:i])
            runs.append((out, at, 1))
            out += i - at
        rep = _RESIZED[text[i]]
        if rep:
            parts.append(rep)
            runs.append((out, i, 0))
            out += len(rep)
        at = i + 1
    if at < len(text):
        parts.append(text[at:])
        runs.append((out, at, 1))
    return "".join(parts), runs


def _collapsed(folded: str, *, end: int) -> NormalizedView:
    """The view of a folded text with the canonical text's offsets and no line-break hyphen: line breaks
    as spaces, each whitespace run as its first character."""
    parts = _SPACE_RUN.split(folded.replace("\n", " "))  # words, run, words, run, …, words
    words = parts[0::2]
    origins = list(accumulate(map(len, parts), initial=0))[0::2]  # where each piece starts
    starts = list(accumulate(map(len, words), initial=0))  # …in the view, before counting the spaces
    starts = list(map(add, starts, range(len(words))))[
        : len(words)
    ]  # one space after each piece but the last
    view = " ".join(words)
    return NormalizedView(
        text=view, pos=OffsetMap(starts, origins[: len(words)], None, length=len(view), end=end)
    )


def _view(
    text: str, folded: str, source: list[tuple[int, int, int]] | None, dropped: dict[int, int]
) -> NormalizedView:
    """`folded` without the `dropped` ranges (start → end), line breaks as spaces, with its offset map."""
    pieces: list[str] = []
    kept: list[tuple[int, int]] = []  # (folded start, view start) of each kept piece
    at = out = 0
    for start in sorted(dropped):
        if start > at:
            pieces.append(folded[at:start])
            kept.append((at, out))
            out += start - at
        at = max(at, dropped[start])
    if at < len(folded):
        pieces.append(folded[at:])
        kept.append((at, out))
        out += len(folded) - at
    view = "".join(pieces).replace("\n", " ")
    if source is None:
        starts = [v for _f, v in kept]
        origins = [f for f, _v in kept]
        return NormalizedView(
            text=view, pos=OffsetMap(starts, origins, None, length=len(view), end=len(text))
        )
    # through the fold's own runs: a kept piece may cross several of them
    starts, origins, steps = [], [], []
    run_starts = [r[0] for r in source]
    for (f, v), piece in zip(kept, pieces, strict=True):
        f_end = f + len(piece)
        k = bisect_right(run_starts, f) - 1
        while f < f_end:
            run_start, origin, step = source[k]
            run_end = source[k + 1][0] if k + 1 < len(source) else len(folded)
            starts.append(v)
            origins.append(origin + (f - run_start) * step)
            steps.append(step)
            take = min(run_end, f_end) - f
            f, v, k = f + take, v + take, k + 1
    return NormalizedView(text=view, pos=OffsetMap(starts, origins, steps, length=len(view), end=len(text)))


__all__ = [
    "FOLDS",
    "Normalized",
    "NormalizedView",
    "OffsetMap",
    "normalize_quote",
    "normalize_quotes",
    "normalize_text",
]
