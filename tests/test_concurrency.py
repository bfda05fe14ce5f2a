"""Concurrent writers, on SQLite and PostgreSQL: N real processes at once against one empty database.

Each process imports the CLI, then waits at a barrier (a file) so that all of them start their work in
the same instant: the schema is created by whichever comes first, the document is stored once, every
run's review lands, and the audit chain neither forks nor breaks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from citationgate.store import Store, connection
from tests.databases import run_sql

N = 4
ROOT = Path(__file__).resolve().parent.parent

CONTRACT = "".join(
    f"{i}. Clause {i}\nThe Supplier shall perform obligation number {i} within {i + 10} days of notice.\n"
    for i in range(1, 41)
)

_WORKER = """
import sys, time, pathlib
from citationgate.cli import main
go = pathlib.Path(sys.argv[1])
deadline = time.monotonic() + 60
while not go.exists() and time.monotonic() < deadline:
    time.sleep(0.005)
sys.argv = ["citationgate", *sys.argv[2:]]
main()
"""


def _run_at_once(
    tmp_path: Path, db_url: str, argvs: list[list[str]]
) -> list[subprocess.CompletedProcess[str]]:
    go = tmp_path / "go"
    env = {**os.environ, "CITATIONGATE_DB": db_url, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(go), *argv],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for argv in argvs
    ]
    time.sleep(0.5)  # let every process import; the barrier below releases them together
    go.touch()
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=300)
        out.append(subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr))
    return out


def test_concurrent_verifies_on_an_empty_database(tmp_path: Path, db_url: str) -> None:
    """N verifies of one new file at once: all exit 0, one stored version, N reviews, an intact chain."""
    doc = tmp_path / "msa.txt"
    doc.write_text(CONTRACT, encoding="utf-8")
    props = tmp_path / "p.json"
    quotes = [f"perform obligation number {i} within {i + 10} days" for i in range(1, 11)]
    props.write_text(
        json.dumps(
            {
                "proposals": [
                    {"id": f"p{i}", "claim": "c", "citations": [{"quote": q}]} for i, q in enumerate(quotes)
                ]
            }
        )
    )
    runs = _run_at_once(tmp_path, db_url, [["verify", str(props), "--doc", str(doc), "--format", "json"]] * N)
    lost = [r.stderr for r in runs if r.returncode != 0]
    assert lost == []  # lost runs = 0
    store = Store.open(db_url)
    n, broken = store.check_audit()
    assert broken is None
    assert len(store.list_versions()) == 1  # stored once
    reviews = store.list_reviews()
    assert len(reviews) == N
    per_run = 2 * len(quotes)  # a citation entry and a finding entry per proposal
    assert n == N * per_run
    forks = run_sql(db_url, "SELECT count(*) - count(DISTINCT prev_hash) FROM audit")[0][0]
    assert forks == 0
    heads = [json.loads(r.stdout)["review"]["audit_head"]["entries"] for r in runs]
    assert sorted(heads) == [per_run * k for k in range(1, N + 1)]  # each review saw its own head


def _doc(tmp_path: Path):  # type: ignore[no-untyped-def]
    from ingest import load_document

    p = tmp_path / "c.txt"
    p.write_text("1. Term\nThis Agreement runs for twelve (12) months.\n")
    return load_document(p)


def test_a_writer_that_waits_past_the_timeout_retries(
    tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holds the write lock for longer than the busy timeout: the review is not lost."""
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_S", 0.2)
    store = Store.open(db_url)
    doc = _doc(tmp_path)
    held, release = threading.Event(), threading.Event()

    def hold_the_lock() -> None:
        if db_url.startswith("sqlite"):
            import sqlite3

            con = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
            con.execute("BEGIN IMMEDIATE")
            held.set()
            release.wait(10)
            con.execute("COMMIT")
            con.close()
        else:
            import sqlalchemy

            engine = sqlalchemy.create_engine(db_url)
            with engine.begin() as conn:
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({connection._LOCK_KEY})")
                held.set()
                release.wait(10)
            engine.dispose()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    held.wait(10)
    threading.Timer(1.0, release.set).start()  # longer than five busy timeouts
    record = store.write_review(kind="verify", document=doc, findings=[{"id": "F1", "status": "verified"}])
    holder.join()
    assert store.get_review(record.id).findings == [{"id": "F1", "status": "verified"}]
    assert store.check_audit() == (1, None)


def test_reads_never_take_the_write_lock(
    tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While another process holds the write lock, reading the store (coverage, findings) goes on."""
    if not db_url.startswith("sqlite"):
        pytest.skip("PostgreSQL readers never wait for writers (MVCC); the lock is an advisory one")
    import sqlite3

    import citationgate.store_runs  # noqa: F401  (the batch tables in SQLModel's metadata, as after a batch)

    monkeypatch.setattr(connection, "BUSY_TIMEOUT_S", 0.1)
    store = Store.open(db_url)
    record = store.write_review(kind="verify", document=_doc(tmp_path), findings=[{"id": "F1"}])
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
    con.execute("BEGIN IMMEDIATE")
    try:
        again = Store.open(db_url)
        assert [v["id"] for v in again.list_versions()] == [record.version.id]
        assert again.get_review(record.id).findings == [{"id": "F1"}]
        assert again.check_audit() == (1, None)
    finally:
        con.execute("COMMIT")
        con.close()
