"""The store on SQLite and PostgreSQL alike: one transaction per review, a tamper-evident audit chain."""

from __future__ import annotations

import itertools
from pathlib import Path

from citationgate.audit import AuditEvent
from citationgate.store import Store, resolve_url
from ingest import load_document
from tests.databases import run_sql


def _doc(tmp_path: Path, body: str = "1. Term\nThis Agreement runs for twelve (12) months.\n"):
    p = tmp_path / "c.txt"
    p.write_text(body)
    return load_document(p)


def test_default_db_comes_from_env(db_path: Path) -> None:
    assert resolve_url(None) == f"sqlite:///{db_path}"
    assert resolve_url("postgresql://u:p@h/db") == "postgresql://u:p@h/db"


def test_review_round_trip_and_reuse(tmp_path: Path, db_url: str) -> None:
    store = Store.open()
    doc = _doc(tmp_path)
    ev = AuditEvent(action="citation", result="verified", actor="test", document_sha256=doc.text_sha256)
    r = store.write_review(
        kind="verify", document=doc, findings=[{"id": "F1", "status": "verified"}], audit=[ev]
    )
    again = store.get_review(r.id)
    assert again.findings == [{"id": "F1", "status": "verified"}]
    assert again.version.document == doc
    # the same bytes are stored once
    assert store.save_version(doc).id == r.version.id


def test_audit_chain_detects_tampering(tmp_path: Path, db_url: str) -> None:
    store = Store.open()
    doc = _doc(tmp_path)
    events = [
        AuditEvent(action="citation", result=r, actor="test", document_sha256=doc.text_sha256)
        for r in ("verified", "failed", "rejected")
    ]
    store.append_audit(events)
    assert store.check_audit() == (3, None)
    run_sql(db_url, "UPDATE audit SET result='verified' WHERE id=2")
    n, broken = store.check_audit()
    assert n == 3 and broken is not None and broken.entry_id == 2


def test_versions_form_a_lineage(tmp_path: Path, db_url: str) -> None:
    store = Store.open()
    v1 = store.save_version(_doc(tmp_path))
    v2 = store.save_version(
        _doc(tmp_path, "1. Term\nThis Agreement runs for six (6) months.\n"), previous_version_id=v1.id
    )
    assert v2.lineage == v1.id and v2.version_no == 2


def test_a_version_read_by_an_older_reader_is_not_reused(tmp_path: Path, db_url: str) -> None:
    """Reuse by hash is keyed on the bytes, the view and the readers' version: a reader fix takes effect."""
    from dataclasses import replace

    from citationgate.versions import ingest_file

    store = Store.open()
    p = tmp_path / "c.txt"
    p.write_text("1. Term\nThis Agreement runs for twelve (12) months.\n")
    current = load_document(p)
    older = replace(current, text=current.text.upper(), metadata={**current.metadata, "reader": "0"})
    stale = store.save_version(older)  # what an older reader stored from the same bytes
    fresh, reused = ingest_file(store, p)
    assert not reused and fresh.id != stale.id
    assert fresh.document.text == current.text
    assert ingest_file(store, p) == (fresh, True)


def test_a_server_url_that_cannot_be_opened_is_one_clear_error() -> None:
    """No traceback and no internal error; the password is not echoed; a missing driver is named."""
    import importlib.util

    import pytest

    from citationgate.errors import StoreError

    with pytest.raises(StoreError, match=r"cannot open the database postgresql\+psycopg://\*\*\*@") as info:
        Store("postgresql+psycopg://user:secret@127.0.0.1:1/db")
    assert "secret" not in str(info.value)
    if importlib.util.find_spec("psycopg") is None:
        assert "driver is not installed (psycopg)" in str(info.value)


def test_a_large_review_is_written_in_bulk_in_order_and_its_chain_checks(tmp_path: Path, db_url: str) -> None:
    """Findings and audit entries go in as one statement each (not one ORM object per row): every row is
    there in order, the chain links across two reviews, and an edited finding still breaks the check."""
    store = Store.open()
    doc = _doc(tmp_path)
    for run in range(2):
        findings = [{"id": f"p{i}", "status": "verified", "rule": None, "n": i} for i in range(300)]
        events = [
            AuditEvent(
                action="citation",
                result="verified",
                actor="test",
                document_sha256=doc.text_sha256,
                payload={"proposal_id": f"p{i}", "run": run},
            )
            for i in range(300)
        ]
        r = store.write_review(kind="verify", document=doc, findings=findings, audit=events)
        assert r.audit_head is not None and r.audit_head.entries == 300 * (run + 1)
        assert store.get_review(r.id).findings == findings
    assert store.check_audit() == (600, None)
    entries = store.audit_entries()
    assert [e["id"] for e in entries] == list(range(1, 601))
    assert [e["payload"]["proposal_id"] for e in entries[:3]] == ["p0", "p1", "p2"]
    assert all(b["prev_hash"] == a["hash"] for a, b in itertools.pairwise(entries))
    run_sql(db_url, "UPDATE findings SET status='rejected' WHERE key='p7'")
    n, broken = store.check_audit()
    assert n == 600 and broken is not None
