"""`load_document`: any supported file into a Document, chosen by file type."""

from __future__ import annotations

from pathlib import Path

from ingest.document import Document
from ingest.errors import CorruptFileError, MissingFileError, UnsupportedFileError

SUPPORTED = (".pdf", ".docx", ".txt", ".md")

#: The readers' own version: bump it whenever any reader's output for the same bytes changes, so a
#: store never reuses a version read by an older reader (it is kept in `Document.metadata["reader"]`).
READER_VERSION = "1"
VIEWS = ("accepted", "original")

#: Files larger than this are refused before they are read (a contract is rarely over 50 MB).
MAX_FILE_BYTES = 200 * 1024 * 1024


def load_document(path: str | Path, *, view: str = "accepted") -> Document:
    """Read `path` into a Document.

    `view` chooses how tracked changes in a DOCX are read: "accepted" (insertions kept, deletions
    dropped — the default) or "original" (the text before the changes). Never a mixture.
    """
    path = Path(path)
    if view not in VIEWS:
        raise UnsupportedFileError(f"{path.name}: unknown view '{view}' (expected accepted or original)")
    if not path.exists():
        raise MissingFileError(f"{path}: no such file")
    if not path.is_file():
        raise MissingFileError(f"{path}: not a file")
    _check_type(path.name)
    size = path.stat().st_size  # before reading: a file past the limit is never read into memory
    check_size(path.name, size)
    return load_bytes(path.name, path.read_bytes(), view=view)


def load_bytes(name: str, data: bytes, *, view: str = "accepted") -> Document:
    """Read the bytes of a file called `name` into a Document, as `load_document` reads the file (the
    readers see only the name and the bytes): for bytes already in memory — a zip member, a file a
    batch worker has just read and hashed — with no copy on disk."""
    if view not in VIEWS:
        raise UnsupportedFileError(f"{name}: unknown view '{view}' (expected accepted or original)")
    suffix = _check_type(name)
    check_size(name, len(data))
    path = Path(name)
    if suffix == ".docx":
        from ingest.word import load_docx

        document = load_docx(path, data, view=view)
    elif suffix == ".pdf":
        from ingest.pdf import load_pdf

        document = load_pdf(path, data)
    else:
        from ingest.plain import load_text

        document = load_text(path, data)
    return document.with_metadata({**document.metadata, "reader": READER_VERSION})


def _check_type(name: str) -> str:
    suffix = Path(name).suffix.lower()
    if suffix not in SUPPORTED:
        shown = f"'{suffix}'" if suffix else "no extension"
        raise UnsupportedFileError(
            f"{name}: unsupported file type {shown} (expected .pdf, .docx, .txt or .md)"
        )
    return suffix


def check_size(name: str, size: int) -> None:
    """Refuse an empty file, or one past `MAX_FILE_BYTES`, before it is read."""
    suffix = Path(name).suffix.lower()
    if size == 0:
        raise CorruptFileError(f"{name}: the file is empty (expected a {suffix[1:].upper()} contract)")
    if size > MAX_FILE_BYTES:
        raise CorruptFileError(f"{name}: {size} bytes is larger than the {MAX_FILE_BYTES} byte limit")
