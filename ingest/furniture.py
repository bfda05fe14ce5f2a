"""Page furniture: running headers, running footers and page numbers in a paged text.

A line is furniture when it sits near the top or bottom of a page (the first or last `ZONE` non-blank
lines) and either

- is a bare page number: "3", "- 3 -", "-3-", "Page 3", "Page 3 of 12", "3 of 12", "3/12", "iv"; or
- repeats, once its digits are masked ("Source: ACME INC, 10-K, 3/15/2010" → "Source: ACME INC, #-K, #/#/#"),
  in the top/bottom zone of at least `max(2, 30 %)` of the pages, and has letters in it.

A line of digits and punctuation that is not page-number shaped ("1.", "2.1") is never furniture, even
when it repeats: those are clause numbers a PDF printed on a line of their own. Measured on the 40 CUAD
PDFs: with ZONE = 4 this finds EDGAR "Source: …" footers, "Page # of #", "-#-", bare numbers, repeated
confidentiality legends and "Table of Contents" back-links, and no clause numbers.

Furniture is *marked*, never deleted: the canonical text keeps every character the page printed, and
callers get page-relative `[start, end)` line ranges to record as `Span(kind="furniture")`, to keep out of
section detection and to leave out of a fidelity comparison.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

ZONE = 4  # non-blank lines at the top and at the bottom of a page that may hold furniture
MIN_SHARE = 0.3  # a running line repeats on at least this share of the pages (and on at least 2)

_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")
_LETTER = re.compile(r"[^\W\d_]")
_PAGE_NUMBER = re.compile(
    r"""^(?:
        [-–—‒]?\s*\d{1,4}\s*[-–—‒]?                                  # 3   - 3 -   -3-
      | (?:page|pg\.?|p\.)\s*\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?      # Page 3, Page 3 of 12, p. 3
      | \d{1,4}\s*(?:of|/)\s*\d{1,4}                                 # 3 of 12, 3/12
      | [-–—‒]?\s*(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})\s*[-–—‒]?          # iv, - iv - (up to xxxix)
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
_ROMAN_LOWER = re.compile(r"^[-–—‒]?\s*[ivx]+\s*[-–—‒]?$")


def line_key(line: str) -> str:
    """A line with whitespace collapsed and every digit run masked as '#'."""
    return _DIGITS.sub("#", _SPACES.sub(" ", line.strip()))


def is_page_number(line: str) -> bool:
    """Page-number shaped: '3', '- 3 -', 'Page 3 of 12', '3/12', 'iv' (lower-case roman only)."""
    s = line.strip()
    if not s or not _PAGE_NUMBER.match(s):
        return False
    # Upper-case roman numerals alone ("I", "V", "X") are more often an article label than a page number.
    return not (s.isalpha() and not _ROMAN_LOWER.match(s))


def _line_spans(page: str) -> list[tuple[int, int]]:
    """Non-blank lines of a page as `[start, end)` ranges of the stripped line (no line break)."""
    spans: list[tuple[int, int]] = []
    pos = 0
    n = len(page)
    while pos <= n:
        nl = page.find("\n", pos)
        end = n if nl == -1 else nl
        line = page[pos:end]
        stripped = line.strip()
        if stripped:
            lead = len(line) - len(line.lstrip())
            spans.append((pos + lead, pos + lead + len(stripped)))
        if nl == -1:
            break
        pos = nl + 1
    return spans


def _zone(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    if len(spans) <= 2 * ZONE:
        return spans
    return spans[:ZONE] + spans[-ZONE:]


def running_keys(pages: Sequence[str]) -> frozenset[str]:
    """Masked lines (with letters) that repeat in the top/bottom zone of many pages."""
    counts: Counter[str] = Counter()
    for page in pages:
        keys = {line_key(page[a:b]) for a, b in _zone(_line_spans(page))}
        counts.update(k for k in keys if _LETTER.search(k))
    threshold = max(2, math.ceil(MIN_SHARE * len(pages)))
    return frozenset(k for k, c in counts.items() if c >= threshold)


def page_furniture(page: str, keys: frozenset[str]) -> list[tuple[int, int]]:
    """Page-relative ranges of the furniture lines of one page, given the document's running `keys`."""
    found: list[tuple[int, int]] = []
    for a, b in _zone(_line_spans(page)):
        line = page[a:b]
        if is_page_number(line) or line_key(line) in keys:
            found.append((a, b))
    return found


def find_furniture(pages: Sequence[str]) -> list[list[tuple[int, int]]]:
    """For each page, the page-relative `[start, end)` ranges of its header, footer and page-number lines."""
    keys = running_keys(pages)
    return [page_furniture(p, keys) for p in pages]


def without_ranges(page: str, ranges: Sequence[tuple[int, int]]) -> str:
    """The page text with the given ranges cut out (for comparisons only; the canonical text keeps them)."""
    if not ranges:
        return page
    parts: list[str] = []
    pos = 0
    for a, b in sorted(ranges):
        parts.append(page[pos:a])
        pos = max(pos, b)
    parts.append(page[pos:])
    return "\n".join(parts)
