"""Placeholder until the pdf reader lands."""

from __future__ import annotations

from pathlib import Path

from ingest.document import Document
from ingest.errors import UnsupportedFileError


def load_pdf(path: Path, data: bytes, **_: object) -> Document:
    raise UnsupportedFileError(f"{path.name}: reading .pdf files is not available yet")
