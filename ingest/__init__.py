"""Reading contract files (PDF, DOCX, text) into one canonical text with stable offsets."""

from ingest.document import Document, Fidelity, Page, Section, Span, sha256_text
from ingest.errors import (
    CitationGateError,
    CorruptFileError,
    EncryptedFileError,
    IngestError,
    MissingFileError,
    UnsupportedFileError,
)
from ingest.load import SUPPORTED, load_document

__all__ = [
    "SUPPORTED",
    "CitationGateError",
    "CorruptFileError",
    "Document",
    "EncryptedFileError",
    "Fidelity",
    "IngestError",
    "MissingFileError",
    "Page",
    "Section",
    "Span",
    "UnsupportedFileError",
    "load_document",
    "sha256_text",
]
