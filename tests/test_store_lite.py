"""The store's standard-library path for SQLite files (`citationgate.store.lite`).

`verify` and `review` on a SQLite file find and write through `sqlite3` without importing SQLAlchemy;
everything else reads what they wrote through SQLAlchemy. These tests hold the two to one record: the
schema `lite` creates is the one SQLModel creates, a review written either way is the same rows, the
chain checks after either, and a PostgreSQL database keeps going through SQLAlchemy.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.dialects import sqlite
from sqlalchemy.schema import CreateIndex, CreateTable
from typer.testing import CliRunner

from citationgate.audit import AuditEvent
from citationgate.cli import app
from citationgate.store import Store
from citationgate.store.database import OrmStore
from citationgate.store.ddl import SQLITE_SCHEMA, STORE_TABLES
from citationgate.store.tables import AuditRow, DocumentVersionRow, FindingRow, ReviewRow
from ingest.load import load_document

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent

CONTRACT = (
    "1. Term\nThis Agreement runs for twelve (12) months from the Effective Date.\n\n"
    "2. Governing Law\nThis Agreement is governed by the laws of England and Wales.\n"
)


def _proposals(tmp_path: Path) -> Path:
    props = tmp_path / "p.json"
    props.write_text(
        json.dumps(
            {
                "proposals": [
                    {"id": "p1", "claim": "term", "citations": [{"quote": "twelve (12) months from"}]},
                    {"id": "p2", "claim": "law", "citations": [{"quote": "the laws of Scotland only"}]},
                ]
            }
        ),
        encoding="utf-8",
    )
    return props


def _contract(tmp_path: Path, text: str = CONTRACT, name: str = "c.txt") -> Path:
    doc = tmp_path / name
    doc.write_text(text, encoding="utf-8")
    return doc


def _norm(sql: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"\(\s+", "( ", sql)).strip()


def test_the_written_out_schema_is_what_sqlmodel_creates_on_sqlite() -> None:
    compiled: list[str] = []
    for table in (DocumentVersionRow, AuditRow, ReviewRow, FindingRow):
        t = table.__table__  # type: ignore[attr-defined]
        compiled.append(_norm(str(CreateTable(t).compile(dialect=sqlite.dialect()))))
        compiled += [_norm(str(CreateIndex(ix).compile(dialect=sqlite.dialect()))) for ix in t.indexes]
    assert sorted(compiled) == sorted(_norm(s) for s in SQLITE_SCHEMA)
    assert {t.__tablename__ for t in (DocumentVersionRow, AuditRow, ReviewRow, FindingRow)} == set(
        STORE_TABLES
    )


def test_verify_on_a_sqlite_file_never_imports_sqlalchemy(tmp_path: Path) -> None:
    """A fresh process: the database created, the review written, and neither SQLAlchemy nor SQLModel
    loaded; the CLI's own exit path is the normal one."""
    db = tmp_path / "fresh.db"
    script = (
        "import sys\n"
        "from citationgate.cli import main\n"
        "try:\n    main()\n"
        "except SystemExit as e:\n    code = e.code\n"
        "loaded = sorted(m for m in ('sqlalchemy', 'sqlmodel') if m in sys.modules)\n"
        "sys.stderr.write('LOADED ' + ' '.join(loaded))\n"
        "sys.exit(code)\n"
    )
    args = ["verify", str(_proposals(tmp_path)), "--doc", str(_contract(tmp_path)), "--format", "json"]
    done = subprocess.run(
        [sys.executable, "-c", script, *args, "--db", str(db)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().endswith("LOADED"), done.stderr
    out = json.loads(done.stdout)
    assert [f["status"] for f in out["findings"]] == ["verified", "rejected"]
    check = runner.invoke(app, ["audit", "--check", "--db", str(db)])
    entries = out["review"]["audit_head"]["entries"]
    assert check.exit_code == 0 and check.stdout == f"audit chain intact: {entries} entries\n", check.output


def _rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the store's tables, the clock's columns left out."""
    with sqlite3.connect(db) as conn:
        out: dict[str, list[tuple[Any, ...]]] = {}
        for table in STORE_TABLES:
            cols = [
                r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[1] not in ("created_at", "at")
            ]
            names = ", ".join(f'"{c}"' for c in cols)
            out[table] = list(conn.execute(f"SELECT {names} FROM {table} ORDER BY id"))
        return out


def test_a_review_written_either_way_is_the_same_rows(tmp_path: Path) -> None:
    """The same reviews (a new version, then one reusing it, then a redline's next version) through the
    standard library and through SQLAlchemy: the same rows, byte for byte, but for the clock — and the
    audit hashes cover the clock, so those are compared by recomputing nothing: the chain checks."""
    first = load_document(_contract(tmp_path))
    second = load_document(_contract(tmp_path, CONTRACT.replace("twelve (12)", "six (6)"), "c2.txt"))
    findings = [{"id": "p1", "status": "verified", "rule": "term", "severity": "low", "start": 3}]

    def fill(store: Store | OrmStore) -> None:
        a = store.write_review(kind="verify", document=first, findings=findings, summary={"n": 1})
        event = AuditEvent(
            action="citation", result="verified", actor="outside-agent", document_sha256="x", at="2026-01-01"
        )
        store.write_review(
            kind="review",
            document=first,
            version_id=a.version.id,
            findings=findings * 2,
            audit=[event],
            playbook={"id": "pb", "version": "1", "sha256": "abc"},
        )
        store.write_review(
            kind="reverify",
            document=second,
            previous_version_id=a.version.id,
            parent_review_id=a.id,
            findings=[],
        )

    lite_db, orm_db = tmp_path / "lite.db", tmp_path / "orm.db"
    lite = Store(f"sqlite:///{lite_db}")
    assert lite._lite is not None and lite._orm_store is None  # the standard-library path
    fill(lite)
    fill(OrmStore(f"sqlite:///{orm_db}"))
    a, b = _rows(lite_db), _rows(orm_db)
    for table in ("document_versions", "findings"):
        assert a[table] == b[table]
    strip_hashes = (
        [r[:7] for r in a["reviews"]],
        [r[:7] for r in b["reviews"]],
    )  # content hash covers no clock
    assert strip_hashes[0] == strip_hashes[1]
    assert [r[7] for r in a["reviews"]] == [r[7] for r in b["reviews"]]  # content_sha256
    assert [r[1:6] for r in a["audit"]] == [r[1:6] for r in b["audit"]]  # all but the links and hashes
    for store in (lite, OrmStore(f"sqlite:///{orm_db}")):
        assert store.check_audit() == (3, None)
    back = lite.get_review(3)  # read through SQLAlchemy, checked against its hashes
    assert back.kind == "reverify" and back.version.version_no == 2 and back.version.lineage == 1
    assert back.version.document.text == second.text


@pytest.mark.parametrize("command", ["verify", "review"])
def test_audit_check_passes_after_a_fast_path_run_on_both_databases(
    tmp_path: Path, db_url: str, command: str
) -> None:
    """The run as a user makes it, twice (the second reuses the stored version), beside an `ingest` that
    goes through SQLAlchemy: the chain checks, and the findings read back, on SQLite and PostgreSQL."""
    doc = _contract(tmp_path)
    args = (
        ["verify", str(_proposals(tmp_path)), "--doc", str(doc), "--format", "json"]
        if command == "verify"
        else ["review", str(doc), "--format", "json"]
    )
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    other = runner.invoke(
        app, ["ingest", str(_contract(tmp_path, CONTRACT + "\n3. Notices\nIn writing.\n", "n.txt"))]
    )
    assert other.exit_code == 0, other.output
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    ids = [json.loads(r.stdout)["review"]["id"] for r in (first, again)]
    assert ids[0] != ids[1] or command == "review"  # a review with identical inputs is reused
    check = runner.invoke(app, ["audit", "--check"])
    assert check.exit_code == 0 and check.stdout.startswith("audit chain intact: "), check.output
    shown = runner.invoke(app, ["findings", str(ids[1]), "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["findings"] == json.loads(again.stdout)["findings"]
    cov = runner.invoke(app, ["coverage", "--format", "json"])
    assert cov.exit_code == 0 and len(json.loads(cov.stdout)["versions"]) == 2, cov.output


def test_a_file_of_an_older_release_is_migrated_through_sqlalchemy_then_written_fast(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    OrmStore(f"sqlite:///{db}")  # today's schema, then taken back to the first release's reviews table
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE findings")
        conn.execute("DROP TABLE reviews")
        conn.execute(
            "CREATE TABLE reviews (id INTEGER NOT NULL, kind VARCHAR NOT NULL, version_id INTEGER NOT "
            "NULL, parent_review_id INTEGER, playbook_id VARCHAR, playbook_version VARCHAR, playbook_sha256 "
            "VARCHAR, summary VARCHAR NOT NULL, created_at DATETIME NOT NULL, PRIMARY KEY (id))"
        )
    old = Store(f"sqlite:///{db}")
    assert old._lite is None and old._orm_store is not None  # migrated by SQLAlchemy
    assert Store(f"sqlite:///{db}")._lite is not None  # and the next open takes the fast path


def test_a_version_changed_after_it_was_found_is_checked_again_when_the_review_is_written(
    tmp_path: Path,
) -> None:
    """`verify` finds the stored version, gates, then writes: a text edited in between is re-hashed under
    the write lock and refused, nothing written."""
    from citationgate.store import RecordAlteredError

    store = Store(f"sqlite:///{tmp_path / 'edit.db'}")
    document = load_document(_contract(tmp_path))
    first = store.write_review(kind="verify", document=document, findings=[])
    found = store.find_version(source_sha256=document.source_sha256, view="accepted")
    assert found is not None and found.id == first.version.id
    again = store.write_review(kind="verify", document=found.document, version_id=found.id, findings=[])
    assert again.version.document == found.document  # the row unchanged: the record just read is used
    with sqlite3.connect(tmp_path / "edit.db") as conn:
        conn.execute("UPDATE document_versions SET payload = replace(payload, 'twelve', 'twenty')")
    with pytest.raises(RecordAlteredError):
        store.write_review(kind="verify", document=found.document, version_id=found.id, findings=[])
    with sqlite3.connect(tmp_path / "edit.db") as conn:
        assert conn.execute("SELECT count(*) FROM reviews").fetchone() == (2,)


def test_the_fast_path_seals_the_chain_under_the_audit_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With `CITATIONGATE_AUDIT_KEY` set, the entries `lite` writes are HMACs under it: the chain checks
    with that key and breaks under another."""
    monkeypatch.setenv("CITATIONGATE_AUDIT_KEY", "the right key")
    args = ["verify", str(_proposals(tmp_path)), "--doc", str(_contract(tmp_path)), "--format", "json"]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert Store.open()._lite is not None  # a SQLite file of this release: verify wrote through `lite`
    assert runner.invoke(app, ["audit", "--check"]).exit_code == 0
    monkeypatch.setenv("CITATIONGATE_AUDIT_KEY", "another key")
    assert runner.invoke(app, ["audit", "--check"]).exit_code == 7
