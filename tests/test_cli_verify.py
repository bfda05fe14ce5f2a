"""`citationgate verify`, `findings` and `audit`: output, JSON shape, errors and exit codes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.store import Store
from ingest.document import Document
from ingest.load import READER_VERSION
from tests.databases import run_sql

pytestmark = pytest.mark.usefixtures("db_url")  # each test runs on SQLite and on PostgreSQL

runner = CliRunner()

CONTRACT = (
    "1. Limitation of Liability\n"
    "The Supplier shall not be liable for any indirect or consequential damages arising out of this\n"
    "Agreement, except for damages caused by gross negligence.\n"
    "2. Payment\n"
    "The Customer must pay each undisputed invoice within thirty (30) days of receipt.\n"
)

PROPOSALS: dict[str, Any] = {
    "proposals": [
        {
            "id": "p1",
            "claim": "Indirect damages are excluded.",
            "rule": "liability",
            "citations": [
                {"quote": "The Supplier shall not be liable for any indirect or consequential damages"}
            ],
        },
        {
            "id": "p2",
            "claim": "Invoices are due in 30 days.",
            "citations": [
                {"quote": "The Customer should pay each undisputed invoice within thirty (30) days"}
            ],
        },
        {
            "id": "p3",
            "claim": "No governing law.",
            "absence": {"requirement": "governing law", "searched": ["law"]},
        },
    ]
}


def _files(tmp_path: Path, proposals: object = PROPOSALS) -> tuple[Path, Path]:
    doc = tmp_path / "msa.txt"
    doc.write_text(CONTRACT, encoding="utf-8")
    props = tmp_path / "proposals.json"
    props.write_text(json.dumps(proposals), encoding="utf-8")
    return props, doc


def test_verify_json_shape(tmp_path: Path) -> None:
    """The JSON has review, document and findings, each finding with its citations' fields."""
    props, doc = _files(tmp_path)
    result = runner.invoke(app, ["verify", str(props), "--doc", str(doc), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"review", "document", "findings"}
    assert set(data["review"]) == {"id", "kind", "created_at", "audit_head"}
    assert data["review"]["kind"] == "verify"
    assert data["document"]["name"] == "msa.txt" and data["document"]["status"] == "ready"
    f1, f2, f3 = data["findings"]
    for f in (f1, f2, f3):
        assert {"id", "status", "evidence", "supervision", "claim", "citations"} <= set(f)
    assert (f1["status"], f1["evidence"], f1["supervision"]) == ("verified", "quote", "standard")
    c = f1["citations"][0]
    keys = {"quote", "status", "match", "start", "end", "text", "occurrences", "section", "page", "reason"}
    assert keys <= set(c)
    assert CONTRACT[c["start"] : c["end"]] == c["text"]
    assert (c["status"], c["match"], c["section"], c["page"]) == ("verified", "exact", "1", None)
    assert f2["status"] == "rejected" and f2["citations"][0]["status"] == "failed"
    assert f2["citations"][0]["text"] is None
    assert (f3["status"], f3["evidence"], f3["supervision"]) == ("needs_review", "absence", "high")
    assert f3["quote_verified"] is False


def test_verify_table_quotes_only_the_documents_words(tmp_path: Path) -> None:
    """The table shows each status and the document's text in quotation marks, never the proposal's."""
    props, doc = _files(tmp_path)
    result = runner.invoke(app, ["verify", str(props), "--doc", str(doc)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert '"The Supplier shall not be liable for any indirect or consequential damages"' in out
    assert "§ 1  p. n/a  [" in out
    assert '"The Customer should pay' not in out  # the proposer's wording is never in quotation marks
    assert "REJECTED" in out and "ABSENCE — not quote-verified" in out


def test_verify_stores_a_review_that_findings_prints(tmp_path: Path) -> None:
    """The review id from verify is what `findings` takes; the stored findings round-trip."""
    props, doc = _files(tmp_path)
    data = json.loads(
        runner.invoke(app, ["verify", str(props), "--doc", str(doc), "--format", "json"]).stdout
    )
    review_id = data["review"]["id"]
    shown = runner.invoke(app, ["findings", str(review_id), "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["findings"] == data["findings"]
    listed = json.loads(runner.invoke(app, ["findings", "--list", "--format", "json"]).stdout)
    assert [r["id"] for r in listed["reviews"]] == [review_id]
    table = runner.invoke(app, ["findings", str(review_id)])
    assert '"The Supplier shall not be liable' in table.stdout
    md = runner.invoke(app, ["findings", str(review_id), "--format", "md"])
    assert md.stdout.startswith(f"# Review {review_id} (verify): msa.txt")


def test_verify_reuses_the_stored_version(tmp_path: Path) -> None:
    """Verifying twice against the same bytes reuses the document version."""
    props, doc = _files(tmp_path)
    runner.invoke(app, ["verify", str(props), "--doc", str(doc)])
    second = runner.invoke(app, ["verify", str(props), "--doc", str(doc)])
    assert "reusing stored version 1" in second.stderr
    assert len(Store.open().list_versions()) == 1


def test_strict_exits_1_when_anything_was_rejected(tmp_path: Path) -> None:
    """--strict lets a pipeline gate on rejections."""
    props, doc = _files(tmp_path)
    assert runner.invoke(app, ["verify", str(props), "--doc", str(doc), "--strict"]).exit_code == 1
    clean = {"proposals": [PROPOSALS["proposals"][0]]}
    props2, _ = _files(tmp_path, clean)
    assert runner.invoke(app, ["verify", str(props2), "--doc", str(doc), "--strict"]).exit_code == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"proposals": [', "Error: proposals.json: not valid JSON: Expecting value (line 1, column 16)\n"),
        ("[1, 2]", 'Error: proposals.json: expected a JSON object {"proposals": [...]}, got a list\n'),
        (
            '{"proposals": [{"id": "p1", "claim": "c", "citations": [{"quote": "x", "why": 1}]}]}',
            "Error: proposals.json: proposals[0].citations[0].why: "
            "unknown field (not part of the proposals shape)\n",
        ),
        (
            '{"proposals": [{"id": "p1", "claim": "c", "citations": [{}]}]}',
            "Error: proposals.json: proposals[0].citations[0].quote: field required\n",
        ),
    ],
    ids=["malformed-json", "wrong-shape", "unknown-field", "missing-quote"],
)
def test_bad_proposals_exit_4_with_the_json_path(tmp_path: Path, content: str, message: str) -> None:
    """Malformed or mis-shaped proposals: one error line naming the file and path, exit 4."""
    _, doc = _files(tmp_path)
    props = tmp_path / "proposals.json"
    props.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["verify", str(props), "--doc", str(doc)])
    assert result.exit_code == 4
    assert result.stderr == message
    assert result.stdout == ""


def test_missing_proposals_file_exits_3(tmp_path: Path) -> None:
    """A proposals file that does not exist is an input file that could not be read."""
    _, doc = _files(tmp_path)
    missing = tmp_path / "nope.json"
    result = runner.invoke(app, ["verify", str(missing), "--doc", str(doc)])
    assert result.exit_code == 3
    assert result.stderr == f"Error: {missing}: no such file\n"


def test_withheld_document_exits_5(tmp_path: Path) -> None:
    """A document stored as withheld is refused: exit 5, nothing verified against it."""
    props, doc = _files(tmp_path)
    Store.open().save_version(
        Document(
            name="msa.txt",
            file_type="txt",
            text=CONTRACT,
            source_sha256=hashlib.sha256(doc.read_bytes()).hexdigest(),
            status="withheld",
            reasons=("fidelity 90.00 % is below 99.5 %",),
            metadata={"reader": READER_VERSION},  # read by today's readers, so reused by its bytes
        )
    )
    result = runner.invoke(app, ["verify", str(props), "--doc", str(doc)])
    assert result.exit_code == 5
    assert result.stderr.splitlines(keepends=True)[-1] == (
        "Error: msa.txt: the document is withheld (fidelity 90.00 % is below 99.5 %); nothing is "
        "verified against it (an absence finding against it would report the parser's silence)\n"
    )
    assert Store.open().list_reviews() == []


def test_audit_lists_entries_and_checks_the_chain(tmp_path: Path, db_url: str) -> None:
    """`audit` lists decisions; `audit --check` says the chain is intact, or where it broke (exit 7)."""
    props, doc = _files(tmp_path)
    runner.invoke(app, ["verify", str(props), "--doc", str(doc)])
    entries = json.loads(runner.invoke(app, ["audit", "--format", "json"]).stdout)["entries"]
    assert [(e["action"], e["result"]) for e in entries] == [
        ("citation", "verified"),
        ("finding", "verified"),
        ("citation", "failed"),
        ("finding", "rejected"),
        ("absence", "passed"),
    ]
    assert entries[0]["payload"]["proposal_id"] == "p1" and entries[0]["rule"] == "liability"
    assert (
        len(json.loads(runner.invoke(app, ["audit", "--limit", "2", "--format", "json"]).stdout)["entries"])
        == 2
    )
    ok = runner.invoke(app, ["audit", "--check"])
    assert (ok.exit_code, ok.stdout) == (0, "audit chain intact: 5 entries\n")
    run_sql(db_url, "UPDATE audit SET result = 'verified' WHERE id = 3")
    broken = runner.invoke(app, ["audit", "--check"])
    assert broken.exit_code == 7
    assert broken.stderr == "Error: audit chain broken at entry 3: its contents do not match its hash\n"


def test_findings_errors(tmp_path: Path) -> None:
    """An unknown review id exits 6; no id and no --list is a usage error."""
    missing = runner.invoke(app, ["findings", "42"])
    assert missing.exit_code == 6
    assert missing.stderr == "Error: review 42 is not in the store (see `citationgate findings --list`)\n"
    assert runner.invoke(app, ["findings"]).exit_code == 2


@pytest.mark.parametrize("command", ["verify", "findings", "audit"])
def test_every_command_has_help_and_is_in_the_readme(command: str) -> None:
    """Each command has help text and a mention in the README."""
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0 and "Usage" in result.stdout
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert f"citationgate {command}" in readme
