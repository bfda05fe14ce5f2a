"""PDF: pypdf's plain text, page by page, checked against an independent pypdfium2 reading.

Choices (documented in the README):
- The canonical text is pypdf's default ("plain") `extract_text()` of every page, in page order, joined
  with a single "\\n". A line break rather than a form feed: every whitespace-flexible matcher and every
  line-based detector treats "\\n" as the break it is, and a quote that runs across a page boundary still
  matches. `Document.pages` holds each page's `[start, end)` (the separator belongs to no page), so
  `Document.page_of(offset)` finds a page by bisection. pypdf's layout mode is not used: it interleaves
  the lines of two columns.
- No repair of pypdf's words. Measured on the 40 CUAD PDFs (pypdf 7.1): of 367,244 word tokens only 6 are
  absent from the vocabulary of CUAD's own text of the same contract (all real words or call signs, none a
  run-together pair); of 26,390 non-blank lines 1,479 hold one word, and those are numbers and labels
  (658), headings and names (649) and the last word of a paragraph (172, e.g. "amended."), not a
  word-per-line break-up. A fix that inserts spaces or joins lines would invent characters for no
  measured gain, so none is applied.
- Running headers, footers and page numbers are marked as `furniture` spans (see ingest/furniture.py),
  never deleted.
- A page with no text layer (an image-only scan, or text drawn as shapes) withholds the document:
  "page 3 has no text layer; OCR it first". A blank page is only noted.
- Encrypted files are opened with the empty password (permissions-only encryption is common); any other
  password is an `EncryptedFileError`. Damaged or truncated files are one `CorruptFileError`; pypdf's own
  log warnings are silenced while we read, so nothing but that one line reaches the user.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import re
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
from pypdf.errors import DependencyError, FileNotDecryptedError, PyPdfError

from ingest.document import Document, Page, Span
from ingest.errors import CorruptFileError, EncryptedFileError
from ingest.fidelity import PdfCheck, pdf_check
from ingest.furniture import find_furniture
from ingest.sections import detect_sections

PAGE_SEPARATOR = "\n"

#: A page with fewer printable characters than this (furniture left out) counts as having no text.
MIN_PAGE_CHARS = 30
#: ... and it is an image-only scan when images cover at least this share of it.
MIN_IMAGE_COVER = 0.3
#: ... or text drawn as outlines when it carries at least this many vector path objects.
MIN_PATHS_FOR_DRAWN_TEXT = 200


@dataclass(frozen=True, slots=True, kw_only=True)
class SecondReading:
    """pypdfium2's reading of the same file: text per page, and what an empty page is made of."""

    pages: tuple[str, ...]
    version: str


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence pypdf's logger and warnings while it reads (damaged files make it chatty)."""
    logger = logging.getLogger("pypdf")
    before = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logger.setLevel(before)


def _short(exc: BaseException) -> str:
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return msg[:120]


def _damaged(name: str, exc: BaseException | str) -> CorruptFileError:
    why = exc if isinstance(exc, str) else _short(exc)
    return CorruptFileError(f"{name}: the PDF is damaged or truncated and cannot be read ({why})")


def _open_reader(name: str, data: bytes) -> pypdf.PdfReader:
    if b"%PDF-" not in data[:1024]:
        raise CorruptFileError(f"{name}: not a PDF file (no '%PDF-' header; expected a PDF document)")
    if b"%%EOF" not in data:
        raise CorruptFileError(
            f"{name}: the PDF is truncated (no end-of-file marker; expected a complete PDF)"
        )
    try:
        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            try:
                result = reader.decrypt("")
            except DependencyError:
                raise EncryptedFileError(
                    f"{name}: the PDF is encrypted with AES and reading it needs the 'cryptography' "
                    "package (pip install cryptography)"
                ) from None
            if result == pypdf.PasswordType.NOT_DECRYPTED:
                raise EncryptedFileError(
                    f"{name}: the PDF is password-protected; remove the password and try again"
                )
        _ = len(reader.pages)
    except (EncryptedFileError, CorruptFileError):
        raise
    except FileNotDecryptedError:
        raise EncryptedFileError(
            f"{name}: the PDF is password-protected; remove the password and try again"
        ) from None
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, OSError) as exc:
        raise _damaged(name, exc) from None
    except RecursionError:
        raise _damaged(name, "its object structure loops") from None
    return reader


def _extract_pages(name: str, reader: pypdf.PdfReader) -> list[str]:
    pages: list[str] = []
    for i, page in enumerate(reader.pages):
        try:
            pages.append(page.extract_text())
        except FileNotDecryptedError:
            raise EncryptedFileError(
                f"{name}: the PDF is password-protected; remove the password and try again"
            ) from None
        except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, OSError) as exc:
            raise _damaged(name, f"page {i + 1}: {_short(exc)}") from None
        except RecursionError:
            raise _damaged(name, f"page {i + 1}: its content loops") from None
    return pages


def _outline_count(reader: pypdf.PdfReader) -> int | None:
    """How many entries the PDF's outline (bookmarks) has, or None where it has none."""
    try:
        outline = reader.outline
    except Exception:  # an unreadable outline is no outline; the text is what matters
        return None

    def count(items: Any) -> int:
        return sum(count(x) if isinstance(x, list) else 1 for x in items)

    n = count(outline)
    return n or None


def _second_reading(name: str, data: bytes) -> tuple[SecondReading, list[tuple[float, int]]]:
    """pypdfium2's text of every page, and for each page (image cover share, path objects) when it is
    nearly empty (computed only there: counting objects costs more than reading text)."""
    try:
        pdf = pdfium.PdfDocument(data, password="")
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise EncryptedFileError(
                f"{name}: the PDF is password-protected; remove the password and try again"
            ) from None
        raise _damaged(name, f"the second reader could not open it: {_short(exc)}") from None
    texts: list[str] = []
    shapes: list[tuple[float, int]] = []
    try:
        for i in range(len(pdf)):
            page = pdf[i]
            try:
                tp = page.get_textpage()
                try:
                    text = tp.get_text_range()
                finally:
                    tp.close()
                texts.append(text.replace("\r\n", "\n"))
                if len(re.sub(r"\s+", "", text)) < MIN_PAGE_CHARS:
                    shapes.append(_page_shapes(page))
                else:
                    shapes.append((0.0, 0))
            finally:
                page.close()
    except pdfium.PdfiumError as exc:
        raise _damaged(name, f"the second reader failed: {_short(exc)}") from None
    finally:
        pdf.close()
    return SecondReading(
        pages=tuple(texts), version=f"pypdfium2 {getattr(pdfium, 'PYPDFIUM_INFO', '')}"
    ), shapes


def _page_shapes(page: Any) -> tuple[float, int]:
    """Share of the page covered by images, and how many vector paths it draws."""
    width, height = page.get_size()
    area = max(width * height, 1.0)
    covered = 0.0
    paths = 0
    for obj in page.get_objects(max_depth=2):
        kind = obj.type
        if kind == pdfium_raw.FPDF_PAGEOBJ_IMAGE:
            left, bottom, right, top = obj.get_bounds()
            w = max(0.0, min(right, width) - max(left, 0.0))
            h = max(0.0, min(top, height) - max(bottom, 0.0))
            covered += w * h
        elif kind == pdfium_raw.FPDF_PAGEOBJ_PATH:
            paths += 1
    return min(covered / area, 1.0), paths


@dataclass(frozen=True, slots=True, kw_only=True)
class PdfReadings:
    """Both readers' page texts of one file, before any check (what `check_pdf_readings` compares)."""

    pages: tuple[str, ...]  # pypdf, the canonical reading
    second: SecondReading  # pypdfium2
    shapes: tuple[tuple[float, int], ...]  # per page, (image cover, vector paths) where near-empty
    outline: int | None
    producer: str


def read_pdf(name: str, data: bytes) -> PdfReadings:
    """Both readings of a PDF's bytes; raises the file's one clear error when it cannot be read."""
    with _quiet():
        reader = _open_reader(name, data)
        raw_pages = _extract_pages(name, reader)
        outline = _outline_count(reader)
        producer = _producer(reader)
    second, shapes = _second_reading(name, data)
    return PdfReadings(
        pages=tuple(raw_pages), second=second, shapes=tuple(shapes), outline=outline, producer=producer
    )


def check_pdf_readings(
    pages: Sequence[str], second: Sequence[str], shapes: Sequence[tuple[float, int]]
) -> tuple[PdfCheck, list[list[tuple[int, int]]]]:
    """The fidelity check of two readings, and the page-relative furniture ranges of `pages`."""
    page_furniture = find_furniture(pages)
    check = pdf_check(
        pages,
        page_furniture,
        second,
        shapes=shapes,
        min_page_chars=MIN_PAGE_CHARS,
        min_image_cover=MIN_IMAGE_COVER,
        min_paths=MIN_PATHS_FOR_DRAWN_TEXT,
    )
    return check, page_furniture


def load_pdf(path: Path, data: bytes) -> Document:
    """Read a PDF's bytes into a Document (see the module docstring for the choices made)."""
    name = path.name
    readings = read_pdf(name, data)
    raw_pages, second, outline = list(readings.pages), readings.second, readings.outline

    pages: list[Page] = []
    pos = 0
    for i, t in enumerate(raw_pages):
        if i:
            pos += len(PAGE_SEPARATOR)
        pages.append(Page(number=i + 1, start=pos, end=pos + len(t)))
        pos += len(t)
    text = PAGE_SEPARATOR.join(raw_pages)

    check, page_furniture = check_pdf_readings(raw_pages, second.pages, readings.shapes)
    furniture = tuple(
        Span(start=p.start + a, end=p.start + b, kind="furniture")
        for p, ranges in zip(pages, page_furniture, strict=True)
        for a, b in ranges
    )
    reasons = list(check.reasons)
    notes = list(check.notes)

    scan = detect_sections(text, skip=[(f.start, f.end) for f in furniture])
    notes.extend(scan.gaps)
    if outline is None:
        notes.append("sections expected: unknown (the PDF has no outline to count them from)")
    elif len(scan.sections) < outline:
        reasons.append(
            f"found {len(scan.sections)} sections but the PDF's outline lists {outline}; "
            "part of its structure was not read"
        )
    if furniture:
        notes.append(f"{len(furniture)} running header, footer and page-number lines marked as furniture")

    return Document(
        name=name,
        file_type="pdf",
        text=text,
        source_sha256=hashlib.sha256(data).hexdigest(),
        sections=tuple(scan.sections),
        pages=tuple(pages),
        fidelity=check.fidelity,
        status="withheld" if reasons else "ready",
        reasons=tuple(reasons),
        notes=tuple(notes),
        furniture=furniture,
        sections_expected=outline,
        metadata={
            "pages": len(pages),
            "producer": readings.producer,
            "reader": f"pypdf {pypdf.__version__}",
            "second_reader": second.version,
        },
    )


def _producer(reader: pypdf.PdfReader) -> str:
    try:
        meta = reader.metadata
        value = meta.get("/Producer") if meta else None
    except Exception:  # metadata is decoration; a broken info dictionary must not fail the read
        return ""
    return str(value)[:200] if value else ""
