"""Errors raised while reading a file into a Document.

`CitationGateError` is the root of every error the three packages raise. It lives here, in the lowest
layer, because `ingest` may import nothing of ours; `playbooks` and `citationgate` subclass it and
`citationgate` re-exports it. The CLI turns any of them into one `Error: …` line.
"""

from __future__ import annotations


class CitationGateError(Exception):
    """Root of every CitationGate error; its message is shown to the user as is."""

    exit_code: int = 1


class IngestError(CitationGateError):
    """A file could not be read into a Document."""

    exit_code = 3


class MissingFileError(IngestError):
    """The file does not exist or is not a regular file."""


class UnsupportedFileError(IngestError):
    """The file type is not one we read."""


class CorruptFileError(IngestError):
    """The file is damaged, truncated, empty or unsafe to open (zip bomb, external entities)."""


class EncryptedFileError(IngestError):
    """The file is protected by a password we do not have."""
