"""Placeholder until the word reader lands."""

from __future__ import annotations

from pathlib import Path

from ingest.document import Document
from ingest.errors import UnsupportedFileError


def load_docx(path: Path, data: bytes, **_: object) -> Document:
    raise UnsupportedFileError(f"{path.name}: reading .docx files is not available yet")
