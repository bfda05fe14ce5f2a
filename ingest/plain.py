"""Plain text and Markdown: the canonical text is the decoded file, character for character.

Choices, documented in the README:
- UTF-8 is expected. A UTF-8 byte-order mark is not part of the text: it is dropped, so offset 0 is the
  first real character. A file that is not UTF-8 is read as Windows-1252 and says so in its notes.
- Line endings are kept exactly as they are ("\\r\\n" stays two characters): the canonical text is the
  file, and the gate's whitespace-flexible matching makes line endings irrelevant to quotes.
- A text file is complete by construction (fidelity 1.0): it is never withheld for its section count,
  but a numbering gap is reported in its notes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ingest.document import Document, Fidelity
from ingest.errors import CorruptFileError
from ingest.sections import detect_sections

_BOM = "\ufeff"
MAX_TEXT_BYTES = 20 * 1024 * 1024  # a text contract; the longest real ones are a few hundred KB


def _utf16(data: bytes) -> tuple[str, str] | None:
    """UTF-16 text, by its byte-order mark or, without one, by the NUL bytes every other byte of mostly
    ASCII text has: (text, how it was read), or None when the bytes are not UTF-16."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        codec, how = "utf-16", "UTF-16 (byte-order mark dropped; offsets count from the first character)"
    else:
        head = data[:4096]
        half = len(head) // 2
        if half < 2 or len(data) % 2:
            return None
        odd, even = head[1::2].count(0), head[0::2].count(0)
        if odd >= 0.4 * half and even == 0:
            codec, how = "utf-16-le", "UTF-16 little-endian (no byte-order mark)"
        elif even >= 0.4 * half and odd == 0:
            codec, how = "utf-16-be", "UTF-16 big-endian (no byte-order mark)"
        else:
            return None
    try:
        return data.decode(codec), how
    except UnicodeDecodeError:
        return None


def _refuse_nul(name: str, text: str) -> str:
    at = text.find("\x00")
    if at >= 0:
        raise CorruptFileError(
            f"{name}: a NUL character at offset {at}: not a text file (a contract's text has none)"
        )
    return text


def decode_text(name: str, data: bytes) -> tuple[str, list[str]]:
    """Decode a text file's bytes; returns the text and any notes about the decoding."""
    if not data.strip():
        raise CorruptFileError(f"{name}: the file is empty (expected the text of a contract)")
    if len(data) > MAX_TEXT_BYTES:
        raise CorruptFileError(
            f"{name}: {len(data):,} bytes is over the limit of {MAX_TEXT_BYTES:,} bytes for a text contract"
        )
    utf16 = _utf16(data)
    if utf16 is not None:
        text, how = utf16
        return _refuse_nul(name, text), [f"read as {how}"]
    if b"\x00" in data[:4096]:
        raise CorruptFileError(f"{name}: this is a binary file, not text (expected UTF-8 text)")
    try:
        text = _refuse_nul(name, data.decode("utf-8"))
    except UnicodeDecodeError:
        try:
            return _refuse_nul(name, data.decode("cp1252")), ["not UTF-8: read as Windows-1252"]
        except UnicodeDecodeError as exc:
            raise CorruptFileError(
                f"{name}: not valid UTF-8 or Windows-1252 text (byte {exc.start}); save it as UTF-8"
            ) from None
    notes = []
    if text.startswith(_BOM):
        text = text[1:]
        notes.append("UTF-8 byte-order mark dropped; offsets count from the first character after it")
    return text, notes


def load_text(path: Path, data: bytes) -> Document:
    text, notes = decode_text(path.name, data)
    scan = detect_sections(text)
    notes.extend(scan.gaps)
    return Document(
        name=path.name,
        file_type="md" if path.suffix.lower() in (".md", ".markdown") else "txt",
        text=text,
        source_sha256=hashlib.sha256(data).hexdigest(),
        sections=tuple(scan.sections),
        fidelity=Fidelity(value=1.0, method="identity", detail="the canonical text is the decoded file"),
        status="ready",
        notes=tuple(notes),
        sections_expected=None,
    )
