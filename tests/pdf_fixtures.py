"""Helpers shared by the PDF tests: the fidelity check run on two lists of page texts."""

from __future__ import annotations

from collections.abc import Sequence

from ingest.fidelity import PdfCheck, pdf_check


def check_texts(
    pages: list[str], second: list[str], furniture: Sequence[Sequence[tuple[int, int]]] | None = None
) -> PdfCheck:
    """`pdf_check` of two readings with the reader's own thresholds and no near-empty pages."""
    return pdf_check(
        pages,
        furniture if furniture is not None else [[] for _ in pages],
        second,
        shapes=[(0.0, 0)] * len(second),
        min_page_chars=30,
        min_image_cover=0.3,
        min_paths=200,
    )


def check(pages: list[str], second: list[str]) -> tuple[float, tuple[str, ...], str]:
    """(fidelity, reasons, detail) of `check_texts`."""
    result = check_texts(pages, second)
    return result.fidelity.value, result.reasons, result.fidelity.detail
