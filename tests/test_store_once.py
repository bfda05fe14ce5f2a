"""Nothing stored twice: the same version and the same review are reused; `--no-store` writes nothing;
every run still leaves its audit entry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.store import Store

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_contracts"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TXT = SAMPLES / "meridian_msa.txt"


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def counts(db: Path) -> tuple[int, int, int]:
    store = Store.open(str(db))
    return len(store.list_versions()), len(store.list_reviews()), len(store.audit_entries())


def test_the_same_review_three_times_in_three_formats_is_stored_once(db_path: Path) -> None:
    first: dict[str, Any] = json.loads(run("review", str(TXT), "--format", "json"))
    after_first = counts(db_path)
    run("review", str(TXT))  # table
    run("review", str(TXT), "--format", "md")
    again: dict[str, Any] = json.loads(run("review", str(TXT), "--format", "json"))
    assert again["review"]["id"] == first["review"]["id"]
    assert again == first
    versions, reviews, audit = counts(db_path)
    assert (versions, reviews) == after_first[:2] == (1, 1)
    entries = Store.open(str(db_path)).audit_entries()
    reused = [e for e in entries if e["action"] == "review" and e["result"] == "reused"]
    assert len(reused) == 3 and all(e["payload"]["review_id"] == first["review"]["id"] for e in reused)
    assert audit == after_first[2] + 3  # each run keeps its audit entry


def test_another_playbook_is_another_review(db_path: Path) -> None:
    run("review", str(TXT), "--format", "json")
    run("review", str(TXT), "--playbook", "nda-recipient", "--format", "json")
    assert counts(db_path)[:2] == (1, 2)


def test_reverify_reuses_a_version_stored_before(db_path: Path) -> None:
    """`coverage` listed one redline four times with one hash: ingest, then three reverifies."""
    first = json.loads(run("review", str(SAMPLES / "northwind_msa.docx"), "--format", "json"))
    redline = SAMPLES / "northwind_msa_redline.docx"
    run("ingest", str(redline))
    for _ in range(3):
        run("reverify", str(first["review"]["id"]), str(redline), "--format", "json")
    rows = json.loads(run("coverage", "--format", "json"))["versions"]
    assert sorted(r["name"] for r in rows) == ["northwind_msa.docx", "northwind_msa_redline.docx"]


def test_no_store_writes_nothing(db_path: Path) -> None:
    looked = json.loads(run("review", str(TXT), "--no-store", "--format", "json"))
    assert looked["review"]["id"] is None and looked["findings"]
    gated = json.loads(
        run(
            "verify",
            str(EXAMPLES / "llm_proposals.json"),
            "--doc",
            str(SAMPLES / "northwind_msa.docx"),
            "--no-store",
            "--format",
            "json",
        )
    )
    assert gated["review"]["id"] is None
    assert [f["status"] for f in gated["findings"]] == ["verified", "verified", "rejected"]
    assert counts(db_path) == (0, 0, 0)
    stored = json.loads(run("review", str(TXT), "--format", "json"))
    assert {k: v for k, v in stored.items() if k not in ("review", "document")} == {
        k: v for k, v in looked.items() if k not in ("review", "document")
    }
