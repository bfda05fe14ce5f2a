"""Fidelity: how closely the canonical text agrees with an independent reading of the same file.

Each reader has its own section below (PDF: `pdf_*`; DOCX: `docx_*`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Indel

from ingest.document import Fidelity
from ingest.furniture import page_furniture, without_ranges

#: Below this agreement the document is withheld (DESIGN.md §3).
MIN_FIDELITY = 0.995

# ---------------------------------------------------------------------------------------------------------
# PDF
#
# The metric: per page, the Indel similarity (rapidfuzz; 1 - (insertions + deletions) / (len a + len b))
# of the two readers' texts with all whitespace and the page furniture removed; overall, the same
# over the sum of all pages. Why this one:
# - whitespace is where two correct PDF readers legitimately differ (line breaks, column gaps, spaces
#   from glyph positions), and the gate matches whitespace-flexibly anyway, so it is left out;
# - unlike a character multiset it is order-sensitive: two columns read line-interleaved, or a paragraph
#   moved, lower it; it still costs O(n·m/64) per page with RapidFuzz's bit-parallel Indel, about
#   0.25 ms a page here (0.23 s for the 877 pages of the 40 CUAD PDFs), where difflib over whole
#   documents takes seconds to minutes (PITFALLS.md);
# - per page, so a single unread page shows up as that page's minimum instead of drowning in a long
#   document's total (Fidelity.detail names the lowest page).
# Measured on the 40 CUAD PDFs: overall 0.9995 to 1.0000 per document; lowest single page 0.970.
# Pages longer than `PDF_MAX_ALIGN` characters fall back to a character-multiset overlap, to bound time.
# ---------------------------------------------------------------------------------------------------------

PDF_MAX_ALIGN = 200_000
#: More than this share of unreadable characters means the fonts have no usable Unicode map.
PDF_MAX_BAD_SHARE = 0.005

_WS = re.compile(r"\s+")
# U+FFFD, private-use glyphs, control characters (tab, line feed, CR, form feed, vertical tab excepted),
# and pdfminer-style "(cid:12)" for a glyph with no Unicode mapping.
_BAD = re.compile(r"\(cid:\d+\)|[\ufffd\ue000-\uf8ff\x00-\x08\x0e-\x1f\x7f-\x9f]")


@dataclass(frozen=True, slots=True, kw_only=True)
class PdfCheck:
    """The outcome of checking a PDF reading: fidelity, withholding reasons, and notes."""

    fidelity: Fidelity
    reasons: tuple[str, ...]
    notes: tuple[str, ...]
    page_similarity: tuple[float, ...]


def pdf_page_similarity(a: str, b: str) -> tuple[int, int]:
    """(distance, total) for one page's two readings, whitespace removed: similarity = 1 - d/total."""
    a = _WS.sub("", a)
    b = _WS.sub("", b)
    total = len(a) + len(b)
    if total == 0:
        return 0, 0
    if total > PDF_MAX_ALIGN:
        ca, cb = Counter(a), Counter(b)
        common = sum((ca & cb).values())
        return total - 2 * common, total
    return Indel.distance(a, b), total


def pdf_bad_characters(text: str) -> int:
    """How many unreadable glyphs `text` holds (U+FFFD, private use, control characters, '(cid:N)')."""
    return len(_BAD.findall(text))


def _pages_list(numbers: Sequence[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:8])
    return shown + (f" and {len(numbers) - 8} more" if len(numbers) > 8 else "")


def pdf_check(
    pages: Sequence[str],
    furniture: Sequence[Sequence[tuple[int, int]]],
    second: Sequence[str],
    *,
    keys: frozenset[str],
    shapes: Sequence[tuple[float, int]],
    min_page_chars: int,
    min_image_cover: float,
    min_paths: int,
) -> PdfCheck:
    """Compare pypdf's pages with pypdfium2's, and guard against errors both readers would share.

    `pages`/`furniture`: the canonical reading and its page-relative furniture ranges; `second`: the
    independent reading (its furniture is found with the same running-line `keys`); `shapes`: per page,
    (image cover share, vector path count) from the second reader, measured where a page is near-empty.
    """
    reasons: list[str] = []
    notes: list[str] = []
    if len(second) != len(pages):
        reasons.append(
            f"the two PDF readers disagree on the page count (pypdf {len(pages)}, pdfium {len(second)})"
        )

    bodies = [without_ranges(p, f) for p, f in zip(pages, furniture, strict=True)]
    scans: list[int] = []
    drawn: list[int] = []
    blank: list[int] = []
    for i, body in enumerate(bodies):
        if len(_WS.sub("", body)) >= min_page_chars:
            continue
        cover, paths = shapes[i] if i < len(shapes) else (0.0, 0)
        if cover >= min_image_cover:
            scans.append(i + 1)
        elif paths >= min_paths:
            drawn.append(i + 1)
        elif not _WS.sub("", body):
            blank.append(i + 1)
    for n in scans:
        reasons.append(f"page {n} has no text layer (it is an image); OCR it first")
    for n in drawn:
        reasons.append(f"page {n} has no text layer (its text is drawn as shapes); OCR it first")
    if blank:
        notes.append(f"blank page{'s' if len(blank) > 1 else ''}: {_pages_list(blank)}")

    printable = sum(len(_WS.sub("", b)) for b in bodies)
    if printable == 0 and not scans and not drawn:
        reasons.append("the PDF has no text on any page; OCR it first")
    bad = pdf_bad_characters("".join(bodies))
    if printable and bad / printable > PDF_MAX_BAD_SHARE:
        reasons.append(
            f"{bad} of {printable} characters ({bad / printable:.1%}) are unreadable glyphs "
            "(U+FFFD, private-use, control or unmapped '(cid:N)'): the fonts carry no usable text map; "
            "OCR it or export the PDF again"
        )

    dist = total = 0
    sims: list[float] = []
    for a, b_page in zip(bodies, second, strict=False):
        b = without_ranges(b_page, page_furniture(b_page, keys))
        d, t = pdf_page_similarity(a, b)
        dist += d
        total += t
        sims.append(1.0 - d / t if t else 1.0)
    value = 1.0 - dist / total if total else 0.0
    if sims:
        worst = min(range(len(sims)), key=sims.__getitem__)
        detail = (
            f"{len(sims)} pages compared; lowest page {worst + 1}: {sims[worst]:.4f}; "
            "whitespace and page furniture left out"
        )
    else:
        detail = "no pages to compare"
    if total and value < MIN_FIDELITY:
        low = [i + 1 for i, s in enumerate(sims) if s < MIN_FIDELITY]
        reasons.append(
            f"text fidelity {value:.2%} is below {MIN_FIDELITY:.1%} against an independent reading "
            f"(pages that disagree: {_pages_list(low)})"
        )
    return PdfCheck(
        fidelity=Fidelity(value=value, method="pdfium-page-indel", detail=detail),
        reasons=tuple(reasons),
        notes=tuple(notes),
        page_similarity=tuple(sims),
    )
