"""Plain text and Markdown ingest: the canonical text is the decoded file, character for character."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest import CorruptFileError, load_document


def test_text_is_the_file(tmp_path: Path) -> None:
    p = tmp_path / "c.txt"
    content = "1. Definitions\r\n“Fees” means the ﬁxed fees — m² of ½.\n2. Term\nThis runs 12 months.\n"
    p.write_bytes(content.encode("utf-8"))
    doc = load_document(p)
    assert doc.text == content  # no normalization, CRLF kept
    assert doc.status == "ready"
    assert doc.fidelity.value == 1.0


def test_bom_is_dropped_and_noted(tmp_path: Path) -> None:
    p = tmp_path / "c.txt"
    p.write_bytes("\ufeff1. Term\nSome text here.\n".encode())
    doc = load_document(p)
    assert doc.text.startswith("1. Term")
    assert any("byte-order mark" in n for n in doc.notes)


def test_same_bytes_same_text_and_offsets(tmp_path: Path) -> None:
    p = tmp_path / "c.md"
    p.write_text(
        "# Agreement\n\n1. Scope\nThe Supplier shall provide the Services.\n\n2. Fees\nPayable in 30 days.\n"
    )
    a, b = load_document(p), load_document(p)
    assert a.text == b.text and a.text_sha256 == b.text_sha256
    assert a.sections == b.sections
    assert a.file_type == "md"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty"),
        (b"   \n\n", "is empty"),
        (b"\x00\x01binary", "binary file"),
    ],
    ids=["empty", "whitespace-only", "binary"],
)
def test_bad_text_files(tmp_path: Path, content: bytes, message: str) -> None:
    p = tmp_path / "bad.txt"
    p.write_bytes(content)
    with pytest.raises(CorruptFileError, match=message):
        load_document(p)


def test_windows_1252_is_read_and_noted(tmp_path: Path) -> None:
    p = tmp_path / "c.txt"
    p.write_bytes("The Supplier\x92s fees \x96 net 30.".encode("latin-1"))
    doc = load_document(p)
    assert "Supplier’s fees – net 30." in doc.text
    assert any("Windows-1252" in n for n in doc.notes)


@pytest.mark.data
def test_every_cuad_text_ingests_to_its_file_and_offsets_slice_back(shared_data: Path) -> None:
    """All 408 CUAD contracts: canonical text == file content, every expert span slices back, all ready."""
    cuad = shared_data / "cuad"
    checked = 0
    for line in (cuad / "annotations.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        path = cuad / rec["text_file"]
        doc = load_document(path)
        raw = path.read_bytes().decode("utf-8")
        assert doc.text == raw, rec["id"]
        assert doc.text_sha256 == rec["sha256_utf8"], rec["id"]
        assert doc.status == "ready", (rec["id"], doc.reasons)
        for cat in rec["categories"].values():
            for span in cat["spans"]:
                assert doc.text[span["start"] : span["end"]] == span["text"]
                checked += 1
    assert checked > 10_000
