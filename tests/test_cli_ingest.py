"""`citationgate ingest` and `coverage`: output, JSON shape, errors and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citationgate.cli import app

pytestmark = pytest.mark.usefixtures("db_url")  # each test runs on SQLite and on PostgreSQL

runner = CliRunner()


def test_ingest_json_shape(tmp_path: Path) -> None:
    p = tmp_path / "msa.txt"
    p.write_text("1. Scope\nThe Supplier shall provide the Services.\n2. Fees\nFees are due in 30 days.\n")
    result = runner.invoke(app, ["ingest", str(p), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in ("name", "text_sha256", "status", "reasons", "fidelity", "sections", "pages", "text"):
        assert key in data
    assert data["status"] == "ready"
    assert [s["label"] for s in data["sections"]] == ["1", "2"]
    for s in data["sections"]:
        assert set(s) >= {"label", "heading", "level", "kind", "start", "end"}


def test_ingest_twice_reuses_the_version(tmp_path: Path) -> None:
    p = tmp_path / "msa.txt"
    p.write_text("1. Scope\nThe Supplier shall provide the Services.\n")
    first = json.loads(runner.invoke(app, ["ingest", str(p), "--format", "json"]).stdout)
    second = json.loads(runner.invoke(app, ["ingest", str(p), "--format", "json"]).stdout)
    assert first["version_id"] == second["version_id"] and second["reused"] is True
    cov = runner.invoke(app, ["coverage", "--format", "json"])
    assert len(json.loads(cov.stdout)["versions"]) == 1


@pytest.mark.parametrize(
    ("name", "content", "message", "code"),
    [
        ("missing.pdf", None, "Error: {p}: no such file\n", 3),
        (
            "contract.pages",
            b"x",
            "Error: contract.pages: unsupported file type '.pages' (expected .pdf, .docx, .txt or .md)\n",
            3,
        ),
        (
            "contract.doc",
            b"x",
            "Error: contract.doc: unsupported file type '.doc' (expected .pdf, .docx, .txt or .md)\n",
            3,
        ),
        (
            "scan.png",
            b"\x89PNG",
            "Error: scan.png: unsupported file type '.png' (expected .pdf, .docx, .txt or .md)\n",
            3,
        ),
        ("empty.txt", b"", "Error: empty.txt: the file is empty (expected a TXT contract)\n", 3),
    ],
    ids=["missing", "pages", "doc", "image", "empty"],
)
def test_bad_input_is_one_error_line(
    tmp_path: Path, name: str, content: bytes | None, message: str, code: int
) -> None:
    p = tmp_path / name
    if content is not None:
        p.write_bytes(content)
    result = runner.invoke(app, ["ingest", str(p)])
    assert result.exit_code == code
    assert result.stderr == message.format(p=p)
    assert result.stdout == ""
