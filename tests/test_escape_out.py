"""Files written with `--out` are escaped as stdout is: a contract's ESC sequences, OSC window titles and bidi
controls reach a file written as table, Markdown, JSON or CSV only as visible `\\uXXXX` escapes (such a
file is read with `cat` and `less` as stdout is). One test per command that writes `--out` text files.

(`ledger`, `diff`, `ask`, `check-answer` and `verify` have no `--out`: their stdout is escaped by the CLI's
stream filter, `tests/test_escape.py`.)
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.escape import terminal
from tests.batch_fixtures import contract_text, run_in_process

runner = CliRunner()

ESC = "\x1b[2J\x1b[31m"  # clear the screen, turn red
OSC = "\x1b]0;owned\x07"  # set the window title
BIDI = "\u202eevil\u2066"  # right-to-left override, isolate
HOSTILE = ESC + OSC + BIDI
RAW = ("\x1b", "\x07", "\u202e", "\u2066")

CONTRACT = f"""MASTER SERVICES AGREEMENT {HOSTILE}

1. Services
The Supplier shall provide the Services {HOSTILE} to the Customer.

2. Limitation of Liability
The Supplier's total liability {HOSTILE} under this Agreement shall not exceed the fees paid in the
twelve (12) months before the claim.

3. Governing Law
This Agreement is governed by the laws of England and Wales {HOSTILE}.
"""


def _assert_escaped(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    assert not [c for c in RAW if c in text], f"{path.name} holds raw control characters"
    assert (
        "u001b" in text and "u202e" in text
    )  # shown as escapes (Markdown escapes their backslash), not dropped
    return text


@pytest.fixture
def contract(tmp_path: Path) -> Path:
    doc = tmp_path / f"msa{ESC}.txt"
    doc.write_text(CONTRACT, encoding="utf-8")
    return doc


@pytest.mark.parametrize("ext", ["txt", "md", "json", "csv"], ids=["table", "md", "json", "csv"])
def test_review_out_files_are_escaped(tmp_path: Path, contract: Path, ext: str) -> None:
    out = tmp_path / f"review.{ext}"
    result = runner.invoke(app, ["review", str(contract), "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = _assert_escaped(out)
    if ext == "json":
        doc = json.loads(text)  # still JSON, and the data is the document's own characters
        assert any(HOSTILE in str(c.get("text")) for f in doc["findings"] for c in f.get("citations") or [])
    if ext == "csv":
        rows = list(csv.reader(io.StringIO(text, newline="")))
        assert len(rows) > 1 and len({len(r) for r in rows}) == 1  # CRLF line ends kept: still one table


@pytest.mark.parametrize("ext", ["txt", "md", "json", "csv"], ids=["table", "md", "json", "csv"])
def test_findings_out_files_are_escaped(tmp_path: Path, contract: Path, ext: str) -> None:
    done = runner.invoke(app, ["review", str(contract), "--format", "json"])
    assert done.exit_code == 0, done.output
    out = tmp_path / f"findings.{ext}"
    result = runner.invoke(app, ["findings", str(json.loads(done.stdout)["review"]["id"]), "--out", str(out)])
    assert result.exit_code == 0, result.output
    _assert_escaped(out)


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_portfolio_out_files_are_escaped(tmp_path: Path, fmt: str) -> None:
    room = tmp_path / "room"
    room.mkdir()
    (room / f"msa{ESC}.txt").write_text(
        contract_text(1).replace("England and Wales", f"England and Wales {HOSTILE}"), encoding="utf-8"
    )
    url = f"sqlite:///{tmp_path / 'p.db'}"
    run_id = run_in_process(room, url)
    out = tmp_path / f"portfolio.{fmt}"
    result = runner.invoke(app, ["portfolio", str(run_id), "--db", url, "--format", fmt, "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert not [c for c in RAW if c in text]
    assert "\\u001b[2J" in text  # the file name (and the quote) shown, not obeyed


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("a,b\r\nc,d\r\n", "a,b\r\nc,d\r\n"),  # a CRLF line end is a line end
        ("paid\rFAKE", "paid\\u000dFAKE"),  # a bare CR would overwrite the line
        ("\x1b]0;t\x07", "\\u001b]0;t\\u0007"),
    ],
    ids=["crlf", "bare-cr", "osc"],
)
def test_terminal_keeps_line_ends_and_is_idempotent(raw: str, shown: str) -> None:
    assert terminal(raw) == shown
    assert terminal(terminal(raw)) == shown


def test_review_csv_on_stdout_keeps_its_line_ends(contract: Path) -> None:
    """The issues list as CSV on stdout parses as CSV (its CRLF line ends are not shown as \\u000d)."""
    result = runner.invoke(app, ["review", str(contract), "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert "\\u000d" not in result.stdout
    rows = list(csv.reader(io.StringIO(result.stdout, newline="")))
    assert len(rows) > 1 and len({len(r) for r in rows}) == 1
