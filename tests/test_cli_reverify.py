"""`citationgate reverify` and `citationgate diff`: the report, the JSON, the store, errors and exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.store import Store
from tests.docx_fixtures import build_docx, dele, ins, p

pytestmark = pytest.mark.usefixtures("db_url")  # each test runs on SQLite and on PostgreSQL

runner = CliRunner()
NO_FINDINGS = (
    "Error: nofindings.json: findings: field required (expected the JSON that `verify` or `review` emit)\n"
)

V1 = """MASTER SERVICES AGREEMENT
1. Definitions
1.1 "Services" means the services described in Schedule 1.
8. Liability
8.1 Neither party excludes liability for fraud.
8.2 The Supplier's total liability is capped at ₦50,000,000 in aggregate.
8.3 The Customer shall pay all invoices within 30 days of receipt.
9. Term
9.1 This Agreement continues for 24 months.
"""
V2 = V1.replace("₦50,000,000", "₦500,000,000").replace("shall pay", "shall not pay")

PROPOSALS = {
    "proposals": [
        {"id": "cap", "claim": "Liability is capped", "citations": [{"quote": "capped at ₦50,000,000"}]},
        {"id": "pay", "claim": "30-day payment", "citations": [{"quote": "pay all invoices within 30 days"}]},
        {"id": "term", "claim": "Two-year term", "citations": [{"quote": "continues for 24 months"}]},
    ]
}


def _verify(tmp_path: Path) -> tuple[Path, Path, dict[str, Any]]:
    v1 = tmp_path / "v1.txt"
    v1.write_text(V1, encoding="utf-8")
    v2 = tmp_path / "v2.txt"
    v2.write_text(V2, encoding="utf-8")
    props = tmp_path / "proposals.json"
    props.write_text(json.dumps(PROPOSALS), encoding="utf-8")
    out = runner.invoke(app, ["verify", str(props), "--doc", str(v1), "--format", "json"])
    assert out.exit_code == 0, out.output
    return v1, v2, json.loads(out.stdout)


def test_reverify_from_the_store(tmp_path: Path, db_url: str) -> None:
    """REVIEW_ID NEW_FILE: a new version, a new linked review with lineage, audit chain intact."""
    _, v2, verified = _verify(tmp_path)
    old_id = verified["review"]["id"]
    out = runner.invoke(app, ["reverify", str(old_id), str(v2), "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["previous_review"] == old_id
    assert data["summary"] == {"stale": 1, "context_changed": 1, "verified": 1}
    assert [f["status"] for f in data["findings"]] == ["stale", "context_changed", "verified"]
    cap = data["findings"][0]
    assert cap["previous_id"] == "F1"
    (c,) = cap["citations"]
    assert c["previous"]["text"] == "capped at ₦50,000,000"
    assert (c["start"], c["end"], c["text"], c["shift"]) == (None, None, None, None)
    assert cap["proposal_id"] == verified["findings"][0]["proposal_id"]
    assert c["became"] == "capped at ₦500,000,000"
    store = Store.open(db_url)
    new_review = store.get_review(data["review"]["id"])
    assert new_review.kind == "reverify" and new_review.parent_review_id == old_id
    assert new_review.version.version_no == 2
    assert new_review.version.lineage == store.get_review(old_id).version.lineage
    assert [f["previous"]["id"] for f in new_review.findings] == ["F1", "F2", "F3"]
    assert [f["status"] for f in new_review.findings] == ["stale", "context_changed", "verified"]
    _, broken = store.check_audit()
    assert broken is None
    results = [e["result"] for e in store.audit_entries() if e["action"] == "reverify"]
    assert results == ["stale", "context_changed", "verified"]


def test_reverify_chains_across_versions(tmp_path: Path) -> None:
    """A reverify review can itself be re-verified: v1 → v2 → v3."""
    _, v2, verified = _verify(tmp_path)
    first = json.loads(
        runner.invoke(app, ["reverify", str(verified["review"]["id"]), str(v2), "--format", "json"]).stdout
    )
    v3 = tmp_path / "v3.txt"
    v3.write_text("PREAMBLE\n\n" + V2, encoding="utf-8")
    out = runner.invoke(app, ["reverify", str(first["review"]["id"]), str(v3), "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    # the stale finding stays stale (nothing left to re-verify); the others are unchanged in v3 but for a
    # paragraph inserted above them: verified at their new offsets, the shift recorded
    assert [f["status"] for f in data["findings"]] == ["stale", "verified", "verified"]
    shifts = [c["shift"] for f in data["findings"][1:] for c in f["citations"]]
    assert shifts == [len("PREAMBLE\n\n")] * 2
    assert "not re-verified" in data["findings"][0]["reason"]


def test_reverify_table_report(tmp_path: Path) -> None:
    """The table: one block per finding, status and reason; for stale ones, what the passage became."""
    _, v2, verified = _verify(tmp_path)
    out = runner.invoke(app, ["reverify", str(verified["review"]["id"]), str(v2)])
    assert out.exit_code == 0, out.output
    text = out.stdout
    assert "F1  STALE" in text
    assert 'became: "capped at ₦500,000,000"' in text
    assert "F2  CONTEXT_CHANGED" in text and "inserted 'not' just before the quote" in text
    assert "summary: context_changed 1 · stale 1 · verified 1" in text


def test_reverify_findings_json_stores_nothing(tmp_path: Path, db_url: str) -> None:
    """--findings FINDINGS.json NEW_FILE: the report from the JSON alone; nothing is stored."""
    _, v2, verified = _verify(tmp_path)
    findings = tmp_path / "findings.json"
    findings.write_text(json.dumps(verified), encoding="utf-8")
    store = Store.open(db_url)
    before = (len(store.list_reviews()), len(store.list_versions()), len(store.audit_entries()))
    out = runner.invoke(app, ["reverify", "--findings", str(findings), str(v2), "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["review"] is None and data["previous_review"] == verified["review"]["id"]
    # the third's words, clause label and context are unchanged; only its offsets shifted
    assert [f["status"] for f in data["findings"]] == ["stale", "context_changed", "verified"]
    assert "offsets shifted by" in data["findings"][2]["reason"]
    after = (len(store.list_reviews()), len(store.list_versions()), len(store.audit_entries()))
    assert after == before


def test_reverify_strict_exit_code(tmp_path: Path) -> None:
    """--strict exits 1 when anything went stale or its context changed."""
    v1, _, verified = _verify(tmp_path)
    out = runner.invoke(app, ["reverify", str(verified["review"]["id"]), str(v1), "--strict"])
    assert out.exit_code == 0, out.output
    _, v2, verified = _verify(tmp_path)
    out = runner.invoke(app, ["reverify", str(verified["review"]["id"]), str(v2), "--strict"])
    assert out.exit_code == 1


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        # an unknown review id: a store error
        (
            ["reverify", "99", "{v2}"],
            6,
            "Error: review 99 is not in the store (see `citationgate findings --list`)\n",
        ),
        # a review id that is not a number
        (["reverify", "abc", "{v2}"], 2, "Error: REVIEW_ID must be a number, got 'abc'\n"),
        # one argument without --findings
        (
            ["reverify", "{v2}"],
            2,
            "Error: give REVIEW_ID and NEW_FILE, or --findings FINDINGS.json NEW_FILE (got 1 argument)\n",
        ),
        # findings JSON that is not JSON
        (
            ["reverify", "--findings", "{notjson}", "{v2}"],
            4,
            "Error: notjson.json: not valid JSON: Expecting value (line 1, column 1)\n",
        ),
        # findings JSON of the wrong shape
        (
            ["reverify", "--findings", "{badshape}", "{v2}"],
            4,
            "Error: badshape.json: findings[0].citations[0].start: "
            "input should be a valid integer, got a string\n",
        ),
        # a missing findings key
        (
            ["reverify", "--findings", "{nofindings}", "{v2}"],
            4,
            NO_FINDINGS,
        ),
        # with --findings, two positional arguments is a usage error
        (
            ["reverify", "--findings", "{nofindings}", "1", "{v2}"],
            2,
            "Error: with --findings give only NEW_FILE (got 2 arguments)\n",
        ),
        # the new file does not exist
        (
            ["reverify", "--findings", "{nofindings}", "{missing}"],
            4,
            NO_FINDINGS,
        ),
        # diff of one file that is not a redlined DOCX
        (["diff", "{v2}"], 2, "Error: v2.txt: give two files, or one redlined .docx (got a single .txt)\n"),
    ],
    ids=[
        "unknown-review",
        "non-numeric-id",
        "one-argument",
        "not-json",
        "bad-shape",
        "no-findings-key",
        "findings-two-args",
        "findings-checked-first",
        "diff-one-txt",
    ],
)
def test_errors(tmp_path: Path, args: list[str], code: int, message: str) -> None:
    """Errors are one line naming what and where, with the documented exit code."""
    v2 = tmp_path / "v2.txt"
    v2.write_text(V2, encoding="utf-8")
    (tmp_path / "notjson.json").write_text("nope", encoding="utf-8")
    (tmp_path / "badshape.json").write_text(
        json.dumps(
            {
                "findings": [
                    {
                        "id": "F1",
                        "status": "verified",
                        "citations": [{"status": "verified", "text": "x" * 12, "start": "0", "end": 12}],
                    }
                ]
            }
        ),
        encoding="utf-8",
    )
    (tmp_path / "nofindings.json").write_text(json.dumps({"proposals": []}), encoding="utf-8")
    paths = {
        "v2": str(v2),
        "notjson": str(tmp_path / "notjson.json"),
        "badshape": str(tmp_path / "badshape.json"),
        "nofindings": str(tmp_path / "nofindings.json"),
        "missing": str(tmp_path / "missing.txt"),
    }
    out = runner.invoke(app, [a.format(**paths) for a in args])
    assert out.exit_code == code, out.output
    assert out.stderr == message
    assert out.stdout == ""


def test_missing_new_file(tmp_path: Path) -> None:
    """A NEW_FILE that does not exist: exit 3, naming it."""
    _, _, verified = _verify(tmp_path)
    out = runner.invoke(app, ["reverify", str(verified["review"]["id"]), str(tmp_path / "nope.txt")])
    assert out.exit_code == 3
    assert out.stderr == f"Error: {tmp_path / 'nope.txt'}: no such file\n"


def test_diff_two_files(tmp_path: Path) -> None:
    """diff OLD NEW: clause by clause, with word-level edits, as a table and as JSON."""
    v1, v2, _ = _verify(tmp_path)
    out = runner.invoke(app, ["diff", str(v1), str(v2), "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["summary"]["changed"] == 2
    edits = [(e["op"], e["old"]["text"], e["new"]["text"]) for c in data["changes"] for e in c["edits"]]
    assert edits == [("replace", "₦50,000,000", "₦500,000,000"), ("insert", "", "not")]
    table = runner.invoke(app, ["diff", str(v1), str(v2)]).stdout
    assert "- '₦50,000,000'  + '₦500,000,000'" in table and "+ 'not'" in table


def test_diff_stored_versions(tmp_path: Path) -> None:
    """diff OLD NEW with stored version ids: the two versions a reverify compared, from --db."""
    _, v2, verified = _verify(tmp_path)
    data = json.loads(
        runner.invoke(app, ["reverify", str(verified["review"]["id"]), str(v2), "--format", "json"]).stdout
    )
    old_id = Store.open(None).get_review(verified["review"]["id"]).version.id
    out = runner.invoke(app, ["diff", str(old_id), str(data["review"]["version_id"]), "--format", "json"])
    assert out.exit_code == 0, out.output
    diff = json.loads(out.stdout)
    assert (diff["old"]["name"], diff["new"]["name"], diff["summary"]["changed"]) == ("v1.txt", "v2.txt", 2)
    missing = runner.invoke(app, ["diff", str(old_id), "999"])
    assert (missing.exit_code, missing.stderr) == (6, "Error: document version 999 is not in the store\n")


def test_diff_renumbered(tmp_path: Path) -> None:
    """A renumbering is a renumbering, not a text change."""
    v1 = tmp_path / "a.txt"
    v1.write_text(V1, encoding="utf-8")
    v2 = tmp_path / "b.txt"
    v2.write_text(
        V1.replace("8.1 Neither", "8.1 Each party shall mitigate its losses.\n8.2 Neither")
        .replace("8.2 The Supplier", "8.3 The Supplier")
        .replace("8.3 The Customer", "8.4 The Customer"),
        encoding="utf-8",
    )
    data = json.loads(runner.invoke(app, ["diff", str(v1), str(v2), "--format", "json"]).stdout)
    assert [(c["kind"], c["old"] and c["old"]["label"], c["new"]["label"]) for c in data["changes"]] == [
        ("added", None, "8.1"),
        ("renumbered", "8.1", "8.2"),
        ("renumbered", "8.2", "8.3"),
        ("renumbered", "8.3", "8.4"),
    ]


def _redline(tmp_path: Path) -> Path:
    lines = V1.strip().split("\n")
    body = ""
    for ln in lines:
        if "₦50,000,000" in ln:
            a, b = ln.split("₦50,000,000")
            body += p(a, dele("₦50,000,000"), ins("₦500,000,000"), b)
        elif "shall pay" in ln:
            a, b = ln.split("shall pay")
            body += p(a + "shall ", ins("not "), "pay" + b)
        else:
            body += p(ln)
    return build_docx(tmp_path / "redline.docx", body)


def test_diff_one_redlined_docx(tmp_path: Path) -> None:
    """diff REDLINE.docx: the original view against the accepted view."""
    out = runner.invoke(app, ["diff", str(_redline(tmp_path)), "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert (data["old"]["view"], data["new"]["view"]) == ("original", "accepted")
    edits = [(e["old"]["text"], e["new"]["text"]) for c in data["changes"] for e in c["edits"]]
    assert edits == [("₦50,000,000", "₦500,000,000"), ("", "not")]


def test_reverify_a_stored_docx_review_against_its_redline(tmp_path: Path) -> None:
    """verify v1.docx, then reverify REVIEW_ID REDLINE.docx: the accepted view is the new version."""
    v1 = build_docx(tmp_path / "v1.docx", "".join(p(ln) for ln in V1.strip().split("\n")))
    props = tmp_path / "proposals.json"
    props.write_text(json.dumps(PROPOSALS), encoding="utf-8")
    verified = json.loads(
        runner.invoke(app, ["verify", str(props), "--doc", str(v1), "--format", "json"]).stdout
    )
    out = runner.invoke(
        app, ["reverify", str(verified["review"]["id"]), str(_redline(tmp_path)), "--format", "json"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["document"]["view"] == "accepted"
    assert [f["status"] for f in data["findings"]] == ["stale", "context_changed", "verified"]


def test_reverify_findings_against_a_redline_uses_its_original_view(tmp_path: Path) -> None:
    """--findings with a redlined DOCX whose original view is the verified text: aligned verdicts."""
    from ingest import load_document

    redline = _redline(tmp_path)
    props = tmp_path / "proposals.json"
    props.write_text(json.dumps(PROPOSALS), encoding="utf-8")
    # the findings were verified against the text before the changes (here a TXT of the original view)
    original = tmp_path / "original.txt"
    original.write_text(load_document(redline, view="original").text, encoding="utf-8")
    v = json.loads(
        runner.invoke(app, ["verify", str(props), "--doc", str(original), "--format", "json"]).stdout
    )
    findings = tmp_path / "findings.json"
    findings.write_text(json.dumps(v), encoding="utf-8")
    out = runner.invoke(app, ["reverify", "--findings", str(findings), str(redline), "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["document"]["previous_text_sha256"] == v["document"]["text_sha256"]
    assert [f["status"] for f in data["findings"]] == ["stale", "context_changed", "verified"]
    assert "original view" in out.stderr


def test_help_and_readme() -> None:
    """Both commands have help and are documented in the README."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for cmd in ("reverify", "diff"):
        out = runner.invoke(app, [cmd, "--help"])
        assert out.exit_code == 0
        assert f"citationgate {cmd}" in readme
