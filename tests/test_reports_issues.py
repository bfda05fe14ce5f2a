"""The issues list: the same rows as a Word table and as CSV, severity first then document order, absence
flagged, quotes with pinpoints, and CSV cells that a spreadsheet never runs as a formula."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import docx
from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.reports.issues import COLUMNS, issue_rows, render_csv, render_issues_docx

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_contracts"


def _data() -> dict[str, Any]:
    def quote(fid: str, severity: str, start: int, text: str, **extra: Any) -> dict[str, Any]:
        f = {
            "id": fid,
            "title": "Limitation of liability",
            "severity": severity,
            "outcome": "unacceptable",
            "status": "verified",
            "evidence": "quote",
            "claim": "The cap is low.",
            "guidance": "Ask for twelve months.",
            "model_language": "twelve (12)\n months",
            "citations": [
                {
                    "status": "verified",
                    "start": start,
                    "end": start + len(text),
                    "text": text,
                    "section": "7.3",
                }
            ],
        }
        f.update(extra)
        return f

    return {
        "review": {"id": 3, "playbook": {"id": "pb", "version": "1"}},
        "document": {"name": "c.docx", "text_sha256": "ab" * 32},
        "findings": [
            quote("F1", "high", 900, '=HYPERLINK("http://x")', claim='=HYPERLINK("http://x","cap")'),
            quote("F2", "critical", 500, "three (3) months"),
            quote("F3", "high", 100, "-1 + 2", outcome="standard"),
            {
                "id": "F4",
                "title": "Governing law",
                "severity": "high",
                "outcome": "missing",
                "status": "needs_review",
                "evidence": "absence",
                "claim": "No governing law.",
                "citations": [],
                "searched": {"requirement": "a governing law clause", "searched": ["governed by"]},
            },
        ],
    }


def test_rows_sorted_and_flagged() -> None:
    rows = issue_rows(_data())
    assert [r.finding for r in rows] == ["F2", "F3", "F1", "F4"]
    assert rows[0].quote == "“three (3) months” — clause 7.3, page n/a, characters 500–516"
    assert rows[0].model_language == "twelve (12) months"
    assert rows[1].action == "None: meets the playbook's standard." and rows[1].model_language == ""
    assert rows[3].position == "missing (absence)" and "ABSENCE — not quote-verified" in rows[3].quote
    assert "a governing law clause" in rows[3].quote


def test_csv_is_the_same_rows_and_never_a_formula() -> None:
    parsed = list(csv.reader(io.StringIO(render_csv(_data()))))
    assert tuple(parsed[0]) == COLUMNS
    assert [r[0] for r in parsed[1:]] == ["F2", "F3", "F1", "F4"]
    assert parsed[3][2].startswith("'=HYPERLINK")  # F1's issue, neutralised
    assert parsed[3][5].startswith("“=HYPERLINK")  # a quote starts with its quotation mark: safe as it is


def test_issues_docx_holds_the_table() -> None:
    word = docx.Document(io.BytesIO(render_issues_docx(_data())))
    (table,) = word.tables
    assert [c.text for c in table.rows[0].cells] == list(COLUMNS)
    assert [r.cells[0].text for r in table.rows[1:]] == ["F2", "F3", "F1", "F4"]


def test_docx_of_a_pdf_writes_the_issues_list_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "issues.docx"
    result = runner.invoke(
        app, ["review", str(SAMPLES / "harbor_msa.pdf"), "--format", "docx", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert (
        "harbor_msa.pdf is not a DOCX, so there is no Word file to comment: wrote the issues list only"
        in (result.stderr)
    )
    word = docx.Document(str(out))
    assert word.tables and "not a DOCX" in "\n".join(p.text for p in word.paragraphs)
    csv_out = tmp_path / "issues.csv"
    assert (
        runner.invoke(app, ["review", str(SAMPLES / "harbor_msa.pdf"), "--out", str(csv_out)]).exit_code == 0
    )
    rows = list(csv.reader(csv_out.open(encoding="utf-8")))
    assert len(rows) - 1 == len(word.tables[0].rows) - 1
