"""`citationgate portfolio`: a run read back as one row per contract, every stated value with its quote.

The store is filled by the batch worker's own function, called in-process (no cluster needed here).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from citationgate.batch.cells import portfolio_cells
from citationgate.batch.render import render_csv, render_html, safe_cell
from citationgate.cli import app
from citationgate.store import Store
from tests.batch_fixtures import contract_text, messy_room, run_in_process

runner = CliRunner()


@pytest.fixture(scope="module")
def room_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int]:
    tmp_path = tmp_path_factory.mktemp("portfolio")
    room = messy_room(tmp_path / "room")
    (room / "a" / "free_assignment.txt").write_text(
        contract_text(7).replace(
            "4. Assignment. Neither party shall assign this Agreement without the prior written consent of "
            "the other party.",
            "4. Assignment. The Supplier may assign or transfer this Agreement to any person at any time "
            "without the consent of the Customer.",
        ),
        encoding="utf-8",
    )
    url = f"sqlite:///{tmp_path / 'p.db'}"
    return url, run_in_process(room, url)


def test_every_cell_that_states_a_value_carries_its_verified_quote(room_run: tuple[str, int]) -> None:
    url, run_id = room_run
    result = runner.invoke(app, ["portfolio", str(run_id), "--db", url, "--format", "json"])
    assert result.exit_code == 0, result.output
    p = json.loads(result.stdout)
    assert (
        p["contracts"] == 6
    )  # a row per listing: msa_0 three times, msa_1, msa_2 in the zip, free_assignment
    assert len({r["review_id"] for r in p["rows"]}) == 4  # four distinct documents, four reviews
    store = Store(url)
    stated = 0
    for row in p["rows"]:
        text = store.get_review(row["review_id"]).version.document.text
        for cell in row["cells"].values():
            if "value" in cell:
                stated += 1
                q = cell["quote"]
                assert text[q["start"] : q["end"]] == q["text"]  # the quote is the document's own text
                assert cell["value"]["text"] in q["text"]
    assert stated > 10
    why = {Path(m["path"]).name: m for m in p["not_reviewed"]}
    assert why["scan.pdf"]["status"] == "withheld" and "no text layer" in why["scan.pdf"]["reason"]
    assert "password" in why["locked.pdf"]["reason"] and "zip bomb" in why["room.zip!bomb.txt"]["reason"]
    assert sum(p["counts"]["governing_law"].values()) == 6


def test_where_keeps_the_contracts_whose_clause_has_that_outcome(room_run: tuple[str, int]) -> None:
    url, run_id = room_run
    result = runner.invoke(
        app,
        [
            "portfolio",
            str(run_id),
            "--db",
            url,
            "--format",
            "json",
            "--where",
            "assignment=unacceptable",
        ],
    )
    assert result.exit_code == 0, result.output
    p = json.loads(result.stdout)
    assert [Path(r["path"]).name for r in p["rows"]] == ["free_assignment.txt"]
    assert p["where"] == ["assignment=unacceptable"]
    by_title = runner.invoke(
        app,
        [
            "portfolio",
            str(run_id),
            "--db",
            url,
            "--format",
            "json",
            "--where",
            "Assignment and change of control!=unacceptable",
        ],
    )
    assert json.loads(by_title.stdout)["contracts"] == 5
    bad = runner.invoke(app, ["portfolio", str(run_id), "--db", url, "--where", "nonsense"])
    assert bad.exit_code == 8
    assert bad.stderr.startswith("Error: --where 'nonsense': expected CLAUSE=OUTCOME")
    unknown = runner.invoke(app, ["portfolio", str(run_id), "--db", url, "--where", "warp_drive=standard"])
    assert unknown.exit_code == 8 and "no clause type 'warp_drive'" in unknown.stderr


def test_csv_xlsx_html_and_table_render_the_same_rows(room_run: tuple[str, int], tmp_path: Path) -> None:
    url, run_id = room_run
    rows = list(
        csv.reader(
            io.StringIO(runner.invoke(app, ["portfolio", str(run_id), "--db", url, "--format", "csv"]).stdout)
        )
    )
    assert len(rows) == 7 and rows[0][:3] == ["path", "document", "review"]
    header = rows[0]
    law = header.index("Governing law: quote")
    assert all("England and Wales" in r[law] for r in rows[1:])
    out = tmp_path / "p.xlsx"
    result = runner.invoke(
        app, ["portfolio", str(run_id), "--db", url, "--format", "xlsx", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    wb = load_workbook(out)
    assert [c.value for c in wb["portfolio"][1]][:3] == ["path", "document", "review"]
    assert wb["portfolio"].max_row == 7 and wb["not reviewed"].max_row == 5
    no_out = runner.invoke(app, ["portfolio", str(run_id), "--db", url, "--format", "xlsx"])
    assert no_out.exit_code == 2
    page = runner.invoke(app, ["portfolio", str(run_id), "--db", url, "--format", "html"]).stdout
    assert "Content-Security-Policy" in page and "<script" not in page and page.count("<tr><td>/") == 6 + 4
    table = runner.invoke(app, ["portfolio", str(run_id), "--db", url]).stdout
    assert "free_assignment.txt" in table and "not reviewed:" in table


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),  # a formula
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("Plain words", "Plain words"),
        (12, 12),  # numbers stay numbers
    ],
    ids=["equals", "plus", "minus", "at", "tab", "text", "number"],
)
def test_a_spreadsheet_cell_never_starts_like_a_formula(value: Any, shown: Any) -> None:
    assert safe_cell(value) == shown


def test_csv_and_html_escape_what_the_contract_says() -> None:
    """Text from a contract that looks like a formula or markup is shown as text, never run."""
    cell = {
        "title": "Parties",
        "outcome": "standard",
        "value": {"name": "first_party", "value": "=cmd|' /C calc'!A0", "text": "=cmd"},
        "quote": {
            "text": "<script>alert(1)</script> =cmd",
            "start": 0,
            "end": 30,
            "section": None,
            "page": None,
        },
    }
    p = {
        "run": 1,
        "playbook": {"id": "x", "version": "1"},
        "where": [],
        "clause_types": [{"rule": "parties", "title": "Parties"}],
        "contracts": 1,
        "rows": [{"path": "-evil.txt", "name": "-evil.txt", "review_id": 1, "cells": {"parties": cell}}],
        "counts": {"parties": {"standard": 1}},
        "not_reviewed": [],
    }
    row = next(iter(list(csv.reader(io.StringIO(render_csv(p))))[1:]))
    assert row[0] == "'-evil.txt"  # a path that starts like a formula
    assert row[4] == "first_party: =cmd|' /C calc'!A0"  # starts with a letter: a spreadsheet shows it as text
    page = render_html(p)
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_cells_state_no_value_outside_a_verified_quote() -> None:
    finding = {
        "rule": "limitation_of_liability",
        "outcome": "standard",
        "status": "verified",
        "evidence": "quote",
        "citations": [{"status": "verified", "text": "capped at 12 months", "start": 100, "end": 119}],
        "extracted": {"cap_months": {"value": 12, "text": "12 months", "start": 500, "end": 509}},
    }
    cell = portfolio_cells([finding], {})["limitation_of_liability"]
    assert "value" not in cell and cell["quote"]["text"] == "capped at 12 months"


def test_an_unknown_run_is_one_error_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["portfolio", "3", "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 6
    assert result.stderr == "Error: batch run 3 is not in the store (see `citationgate batch --help`)\n"
