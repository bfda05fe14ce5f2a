"""A second reader of the Word files we write: LibreOffice (Debian's libreoffice-writer, where installed)
converts the commented copy, the redline and the issues list to PDF without error. Skipped with the
reason where `soffice` is absent (it is optional and not installed by .ci/run: a large package)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest
from typer.testing import CliRunner

from citationgate.cli import app

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_contracts"


def test_libreoffice_converts_every_word_deliverable(tmp_path: Path) -> None:
    soffice = shutil.which("soffice")
    if soffice is None:
        pytest.skip("LibreOffice is not installed (apt-get install libreoffice-writer-nogui)")
    sample = str(SAMPLES / "northwind_msa.docx")
    files = {
        "reviewed": ["--out", str(tmp_path / "reviewed.docx")],
        "proposed": ["--redline", str(tmp_path / "proposed.docx"), "--format", "json"],
        "issues": ["--format", "issues-docx", "--out", str(tmp_path / "issues.docx")],
    }
    for args in files.values():
        assert runner.invoke(app, ["review", sample, *args]).exit_code == 0
    out = tmp_path / "pdf"
    subprocess.run(
        [
            soffice,
            f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(out),
            *(str(tmp_path / f"{name}.docx") for name in files),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    for name in files:
        reader = pypdf.PdfReader(out / f"{name}.pdf")
        first = reader.pages[0].extract_text()
        assert len(reader.pages) >= 1
        assert ("MASTER SERVICES AGREEMENT" if name != "issues" else "Issues list") in first
