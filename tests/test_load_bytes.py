"""`load_bytes`: a file's bytes in memory read into the same Document `load_document` reads from the file.

The batch worker reads each document from the bytes it has just hashed (so what it reviews is what it
checked, and no copy of the document is written to disk); this holds it to the file reader's result and
refusals, on the shipped sample contracts (PDF, DOCX with tracked changes, text).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citationgate.batch.sources import read_bytes
from ingest import load_document
from ingest.errors import CorruptFileError, UnsupportedFileError
from ingest.load import load_bytes

SAMPLES = Path(__file__).resolve().parents[1] / "sample_contracts"


@pytest.mark.parametrize(
    ("name", "view"),
    [
        ("harbor_msa.pdf", "accepted"),
        ("northwind_msa_redline.docx", "accepted"),
        ("northwind_msa_redline.docx", "original"),
        ("meridian_msa.txt", "accepted"),
    ],
)
def test_bytes_read_as_the_file_is(name: str, view: str) -> None:
    path = SAMPLES / name
    assert load_bytes(name, path.read_bytes(), view=view) == load_document(path, view=view)


def test_bytes_are_refused_as_the_file_is(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(CorruptFileError, match=r"^empty\.txt: the file is empty"):
        load_bytes("empty.txt", b"")
    with pytest.raises(UnsupportedFileError, match=r"^contract\.rtf: unsupported file type '\.rtf'"):
        load_bytes("contract.rtf", b"{\\rtf1 x}")
    with pytest.raises(UnsupportedFileError, match="unknown view 'both'"):
        load_bytes("contract.txt", b"text", view="both")
    monkeypatch.setattr("ingest.load.MAX_FILE_BYTES", 32)
    with pytest.raises(CorruptFileError, match=r"^big\.txt: 64 bytes is larger than the 32 byte limit"):
        load_bytes("big.txt", b"x" * 64)


def test_the_batch_worker_refuses_an_oversized_file_before_reading_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 64)
    monkeypatch.setattr("ingest.load.MAX_FILE_BYTES", 32)
    monkeypatch.setattr("citationgate.batch.sources.MAX_FILE_BYTES", 32)
    with pytest.raises(CorruptFileError, match=r"^big\.txt: 64 bytes is larger than the 32 byte limit"):
        read_bytes({"file": str(big)})
