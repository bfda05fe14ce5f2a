"""`citationgate check-answer` and `citationgate ledger`: outputs, JSON shapes, errors and exit codes.

The record is made by running `citationgate verify` on a text file written to tmp_path.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.store import Store

pytestmark = pytest.mark.usefixtures("db_url")  # each test runs on SQLite and on PostgreSQL

runner = CliRunner()

ACT = """LOCAL AUTHORITIES ACT

105H. Museums
(1) The Authority may establish and maintain museums.
(3) The Authority may charge for admission to any museum it maintains.

105N. Civic centres
(1) The Authority may specify the purposes for which any civic centre, or any part thereof, may be used.
(2) The Authority may fix fees for the use of any facility.
(3) This policy covers all employees of the Authority.
"""

PROPOSALS = {
    "proposals": [
        {
            "id": "p1",
            "claim": "The Authority may specify the purposes of civic centres.",
            "citations": [
                {
                    "quote": "The Authority may specify the purposes for which any civic centre, or any "
                    "part thereof, may be used."
                }
            ],
        },
        {
            "id": "p2",
            "claim": "The Authority must fix fees for the use of any facility, "
            "and may do so retrospectively.",
            "citations": [{"quote": "The Authority may fix fees for the use of any facility"}],
        },
        {
            "id": "p3",
            "claim": "The policy covers employees and contractors.",
            "citations": [{"quote": "This policy covers all employees of the Authority."}],
        },
    ]
}


@pytest.fixture
def verified(tmp_path: Path) -> dict[str, Any]:
    """Run `verify` for real; return its JSON (review id, document, findings) and the file paths."""
    doc = tmp_path / "act.txt"
    doc.write_text(ACT, encoding="utf-8")
    props = tmp_path / "proposals.json"
    props.write_text(json.dumps(PROPOSALS), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(props), "--doc", str(doc), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    findings = tmp_path / "findings.json"
    findings.write_text(result.stdout, encoding="utf-8")
    ids = {f["proposal_id"]: f["id"] for f in data["findings"]}
    return {"review": data["review"]["id"], "doc": doc, "findings": findings, "ids": ids, "tmp": tmp_path}


def answer_file(tmp: Path, text: str, name: str = "answer.md") -> Path:
    p = tmp / name
    p.write_text(text, encoding="utf-8")
    return p


def good_answer(v: dict[str, Any]) -> str:
    return f'The Authority "may fix fees for the use of any facility" [{v["ids"]["p2"]}].\n'


def bad_answer(v: dict[str, Any]) -> str:
    return (
        good_answer(v)
        + f'It "may fix fees for the use of any facility, and may do so retrospectively" [{v["ids"]["p2"]}].'
        + "\n"
        + 'It may decide "any museum, or any part thereof" (s. 105H(3)).\n'
    )


# ── check-answer ─────────────────────────────────────────────────────────────────────────────────
def test_passing_answer_exits_0(verified: dict[str, Any]) -> None:
    ans = answer_file(verified["tmp"], good_answer(verified))
    result = runner.invoke(app, ["check-answer", str(ans), "--review", str(verified["review"])])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("answer.md: PASS")


def test_withheld_answer_exits_1_listing_every_failure(verified: dict[str, Any]) -> None:
    """Each failure with its reason and the verified text it should have used."""
    ans = answer_file(verified["tmp"], bad_answer(verified))
    result = runner.invoke(app, ["check-answer", str(ans), "--review", str(verified["review"])])
    assert result.exit_code == 1
    out = result.stdout
    assert out.startswith("answer.md: WITHHELD — 2 of 3 quoted passage(s) fail")
    assert "longer_than_verified" in out and "nowhere" in out
    assert out.count("why: ") == 2
    assert "use: “may fix fees for the use of any facility”" in out
    assert "use: “The Authority may specify the purposes for which any civic centre" in out


def test_json_shape(verified: dict[str, Any]) -> None:
    ans = answer_file(verified["tmp"], bad_answer(verified))
    result = runner.invoke(
        app, ["check-answer", str(ans), "--review", str(verified["review"]), "--format", "json"]
    )
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert set(data) >= {
        "answer",
        "review",
        "document",
        "verdict",
        "passages",
        "failures",
        "summary",
        "claims",
    }
    assert data["verdict"] == "withheld" and data["failures"] == 2
    assert data["review"] == {"id": verified["review"]}
    assert data["document"]["name"] == "act.txt"
    assert data["summary"]["verified"] == 1 and data["summary"]["longer_than_verified"] == 1
    p = data["passages"][1]
    assert set(p) >= {
        "index", "text", "kind", "line", "start", "end", "citation", "status", "passed", "reason",
        "flags", "matched", "should_use", "document_spans",
    }  # fmt: skip
    assert p["status"] == "longer_than_verified" and p["passed"] is False
    assert p["citation"]["kind"] == "finding" and p["citation"]["source"] == "same sentence"
    assert set(p["should_use"][0]) == {"finding", "section", "start", "end", "text"}
    assert {"id", "claim", "support", "explanation", "action", "authority", "passages"} <= set(
        data["claims"][0]
    )


def test_findings_file_with_doc(verified: dict[str, Any]) -> None:
    """--findings (verify's own JSON) with --doc resolves clause references and unread words."""
    ans = answer_file(verified["tmp"], 'It "may establish and maintain museums" (s. 105H).\n')
    result = runner.invoke(
        app,
        ["check-answer", str(ans), "--findings", str(verified["findings"]), "--doc", str(verified["doc"]),
         "--format", "json"],
    )  # fmt: skip
    assert result.exit_code == 1
    assert json.loads(result.stdout)["passages"][0]["status"] == "read_not_verified"


def test_findings_file_finds_its_document_in_the_store(verified: dict[str, Any]) -> None:
    """Without --doc, the findings file's document.text_sha256 names the stored version."""
    ans = answer_file(
        verified["tmp"],
        'It "may specify the purposes for which any civic centre, or any part thereof, '
        'may be used" (s. 105N).\n',
    )
    result = runner.invoke(app, ["check-answer", str(ans), "--findings", str(verified["findings"])])
    assert result.exit_code == 0, result.output


def test_bare_findings_list_without_a_document(verified: dict[str, Any]) -> None:
    """A bare list of findings, no document anywhere: finding ids still resolve; a note says what is lost."""
    data = json.loads(verified["findings"].read_text())
    bare = verified["tmp"] / "bare.json"
    bare.write_text(json.dumps(data["findings"]))
    ans = answer_file(verified["tmp"], good_answer(verified))
    result = runner.invoke(app, ["check-answer", str(ans), "--findings", str(bare)])
    assert result.exit_code == 0, result.output
    assert "no document" in result.stderr


def test_every_run_writes_an_audit_entry(verified: dict[str, Any]) -> None:
    ans = answer_file(verified["tmp"], bad_answer(verified))
    runner.invoke(app, ["check-answer", str(ans), "--review", str(verified["review"])])
    ok = answer_file(verified["tmp"], good_answer(verified), name="ok.md")
    runner.invoke(app, ["check-answer", str(ok), "--review", str(verified["review"])])
    entries = [e for e in Store.open().audit_entries() if e["action"] == "check-answer"]
    assert [e["result"] for e in entries] == ["withheld", "passed"]
    assert entries[0]["payload"]["answer"] == "answer.md"
    assert [f["status"] for f in entries[0]["payload"]["failures"]] == ["longer_than_verified", "nowhere"]
    assert runner.invoke(app, ["audit", "--check"]).exit_code == 0


@pytest.mark.parametrize(
    ("setup", "args", "code", "message"),
    [
        # the answer file is missing
        (None, ["check-answer", "{tmp}/nope.md", "--review", "1"], 3, "Error: nope.md: no such file\n"),
        # the answer file is empty
        ("empty", ["check-answer", "{tmp}/answer.md", "--review", "1"], 3,
         "Error: answer.md: the answer is empty\n"),
        # the answer is not UTF-8
        ("latin1", ["check-answer", "{tmp}/answer.md", "--review", "1"], 3,
         "Error: answer.md: not UTF-8 text (byte 3)\n"),
        # the findings file is not JSON
        ("badjson", ["check-answer", "{tmp}/answer.md", "--findings", "{tmp}/f.json"], 4,
         "Error: f.json: not valid JSON: Expecting value (line 1, column 14)\n"),
        # the findings do not have the shape verify prints
        ("badshape", ["check-answer", "{tmp}/answer.md", "--findings", "{tmp}/f.json"], 4,
         "Error: f.json: findings[0].id: Field required\n"),
        # an unknown review
        ("answer", ["check-answer", "{tmp}/answer.md", "--review", "99"], 6,
         "Error: review 99 is not in the store (see `citationgate findings --list`)\n"),
        # neither --review nor --findings
        ("answer", ["check-answer", "{tmp}/answer.md"], 2,
         "Error: give exactly one of --review REVIEW_ID or --findings FINDINGS.json\n"),
    ],
    ids=["missing", "empty", "not-utf8", "bad-json", "bad-shape", "unknown-review", "no-record"],
)  # fmt: skip
def test_errors_and_exit_codes(
    tmp_path: Path, setup: str | None, args: list[str], code: int, message: str
) -> None:
    if setup == "empty":
        (tmp_path / "answer.md").write_text("  \n")
    elif setup == "latin1":
        (tmp_path / "answer.md").write_bytes("It “is\u00e9".encode("cp1252", errors="replace"))
    elif setup in ("badjson", "badshape", "answer"):
        (tmp_path / "answer.md").write_text('"x y z"\n')
        (tmp_path / "f.json").write_text(
            '{"findings": ' if setup == "badjson" else '[{"status": "verified"}]'
        )
    result = runner.invoke(app, [a.format(tmp=tmp_path) for a in args])
    assert result.exit_code == code
    assert result.stderr == message
    assert result.stdout == ""


# ── ledger ───────────────────────────────────────────────────────────────────────────────────────
def test_ledger_table(verified: dict[str, Any]) -> None:
    result = runner.invoke(app, ["ledger", str(verified["review"])])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "partial" in out and "proposed: “The policy covers employees”" in out
    assert "'must' (obligation) but the passage says 'may' (permission)" in out


def test_ledger_json_rows(verified: dict[str, Any]) -> None:
    """One row per atomic claim: p2's claim splits in two, and both halves fail for their own reason."""
    result = runner.invoke(app, ["ledger", str(verified["review"]), "--format", "json"])
    data = json.loads(result.stdout)
    assert set(data) == {"review", "document", "rows", "summary", "rejected_findings"}
    assert data["rejected_findings"] == 0
    ids = verified["ids"]
    rows = {r["id"]: r for r in data["rows"]}
    assert rows[f"{ids['p1']}.1"]["support"] == "supported"
    assert rows[f"{ids['p2']}.1"]["support"] == "unsupported"  # must ≠ may
    assert rows[f"{ids['p2']}.2"]["support"] == "unsupported"  # retrospectively: never said
    p3 = rows[f"{ids['p3']}.1"]
    assert p3["support"] == "partial" and p3["action"] == "narrow"
    assert p3["proposed"] == "The policy covers employees"
    assert p3["rejected"] == "The policy covers employees and contractors"
    assert p3["authority"] == "contract"
    assert set(p3["passages"][0]) == {"finding", "start", "end", "section", "text"}
    assert data["summary"] == {"supported": 1, "partial": 1, "unsupported": 2, "unverifiable": 0}


def test_ledger_csv_and_md(verified: dict[str, Any]) -> None:
    csv_out = runner.invoke(app, ["ledger", str(verified["review"]), "--format", "csv"]).stdout
    rows = list(csv.DictReader(io.StringIO(csv_out)))
    assert len(rows) == 4 and rows[0]["support"] == "supported"
    assert list(rows[0]) == [
        "id", "source", "claim", "support", "action", "authority", "explanation", "proposed", "rejected",
        "passages",
    ]  # fmt: skip
    md = runner.invoke(app, ["ledger", str(verified["review"]), "--format", "md"]).stdout
    assert md.startswith("# Claim-support ledger — review")
    assert "| id | claim | support | action | authority | explanation | passages |" in md


def test_ledger_unknown_review_exits_6() -> None:
    result = runner.invoke(app, ["ledger", "42"])
    assert result.exit_code == 6
    assert result.stderr == "Error: review 42 is not in the store (see `citationgate findings --list`)\n"


def test_commands_have_help_and_are_documented() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for cmd in ("check-answer", "ledger"):
        result = runner.invoke(app, [cmd, "--help"])
        assert result.exit_code == 0 and "Usage" in result.stdout
        assert f"citationgate {cmd}" in readme


def test_quote_whose_clause_changed_in_a_redline_is_flagged(verified: dict[str, Any]) -> None:
    """After `reverify`, a passage matched against a context_changed quote passes with a flag."""
    new = verified["tmp"] / "act_v2.txt"
    new.write_text(
        ACT.replace(
            "(2) The Authority may fix fees for the use of any facility.",
            "(2) The Authority may fix fees for the use of any facility. Fees may not exceed costs.",
        ),
        encoding="utf-8",
    )
    rev = runner.invoke(app, ["reverify", str(verified["review"]), str(new), "--format", "json"])
    assert rev.exit_code == 0, rev.output
    new_review = json.loads(rev.stdout)["review"]["id"]
    stored = Store.open().get_review(new_review).findings
    p2 = next(f for f in stored if f["claim"].startswith("The Authority must fix fees"))
    assert p2["citations"][0].get("reverify_status") == "context_changed"
    ans = answer_file(
        verified["tmp"], f'The Authority "may fix fees for the use of any facility" [{p2["id"]}].\n'
    )
    result = runner.invoke(app, ["check-answer", str(ans), "--review", str(new_review), "--format", "json"])
    assert result.exit_code == 0, result.output
    [p] = json.loads(result.stdout)["passages"]
    assert p["status"] == "verified"
    assert any("context_changed" in f for f in p["flags"])
