"""Locating quotes in one document version: the exact index (and, below, the fuzzy fallback).

`QuoteIndex(text)` normalizes the canonical text once (`citationgate.normalize`) and answers
`find_exact(quote)` with every occurrence as canonical `[start, end)` offsets. No regex is ever built
from a quote: the quote is normalized with the same fold table and searched as a plain string.
"""

from __future__ import annotations

from collections.abc import Sequence

from citationgate.normalize import Normalized, normalize_quote, normalize_text

Span = tuple[int, int]


class QuoteIndex:
    """One normalized index per document version text. Build once, reuse for every quote."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.normalized: Normalized = normalize_text(text)

    def find_exact(self, quote: str) -> list[Span]:
        """Every occurrence of `quote`, whitespace-flexible and typographic-tolerant, case-sensitive.

        Offsets are canonical `[start, end)`; `text[start]` and `text[end - 1]` are never whitespace.
        Occurrences are reported in order, overlapping ones included.
        """
        needle = normalize_quote(quote)
        if not needle:
            return []
        found: set[Span] = set()
        for view in self.normalized.views:
            hay = view.text
            i = hay.find(needle)
            while i != -1:
                span = view.to_canonical(i, i + len(needle))
                if span is not None:
                    found.add(span)
                i = hay.find(needle, i + 1)
        return sorted(found)

    def find_exact_many(self, quotes: Sequence[str]) -> list[list[Span]]:
        """`find_exact` for many quotes at once (the batched fast path)."""
        return [self.find_exact(q) for q in quotes]


__all__ = ["QuoteIndex", "Span"]
