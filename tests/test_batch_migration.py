"""A database made by the first batch code (commit 99e4573) opens with today's code, is migrated, and resumes.

That code had three batch tables (runs, entries, documents with their portfolio cells); since then each
document's outcome per clause type has its own table (`batch_outcomes`, what the portfolio counts and
filters on), each run keeps its clause titles, and the tables carry their version (`batch_schema`). The
old database is built here as that code left it: its DDL verbatim, a run listed in full and half reviewed
(the driver died), rows written as its worker wrote them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy
from distributed import Client, LocalCluster

from citationgate.batch import run_batch
from citationgate.batch.cells import portfolio_cells
from citationgate.batch.portfolio import Where, portfolio
from citationgate.review import finding_dict, review
from citationgate.store import Store
from citationgate.store_runs import SCHEMA_VERSION, RunStore, document_key
from ingest.load import load_document
from playbooks import load_playbook
from tests.batch_fixtures import plain_room, run_in_process, snapshot

# The batch tables exactly as commit 99e4573 created them in SQLite (SQLAlchemy's DDL for its models).
FIRST_BATCH_DDL = (
    """CREATE TABLE batch_runs (
        id INTEGER NOT NULL, status VARCHAR NOT NULL, playbook_id VARCHAR NOT NULL,
        playbook_version VARCHAR NOT NULL, playbook_sha256 VARCHAR NOT NULL, options TEXT,
        created_at DATETIME NOT NULL, finished_at DATETIME, PRIMARY KEY (id))""",
    """CREATE TABLE batch_entries (
        id INTEGER NOT NULL, run_id INTEGER NOT NULL, path VARCHAR NOT NULL, source_sha256 VARCHAR,
        "key" VARCHAR, locator TEXT, meta TEXT, listing_error VARCHAR, PRIMARY KEY (id),
        UNIQUE (run_id, path), FOREIGN KEY(run_id) REFERENCES batch_runs (id))""",
    'CREATE INDEX ix_batch_entries_key ON batch_entries ("key")',
    "CREATE INDEX ix_batch_entries_run_id ON batch_entries (run_id)",
    """CREATE TABLE batch_documents (
        id INTEGER NOT NULL, "key" VARCHAR NOT NULL, source_sha256 VARCHAR NOT NULL,
        playbook_sha256 VARCHAR NOT NULL, "view" VARCHAR NOT NULL, we VARCHAR, name VARCHAR NOT NULL,
        status VARCHAR NOT NULL, reason VARCHAR NOT NULL, review_id INTEGER, version_id INTEGER, cells TEXT,
        transient BOOLEAN NOT NULL, attempts INTEGER NOT NULL, updated_at DATETIME NOT NULL,
        PRIMARY KEY (id), UNIQUE ("key"), FOREIGN KEY(review_id) REFERENCES reviews (id),
        FOREIGN KEY(version_id) REFERENCES document_versions (id))""",
    "CREATE INDEX ix_batch_documents_source_sha256 ON batch_documents (source_sha256)",
)


def _first_batch_database(url: str, room: Path, *, reviewed: int) -> int:
    """What the first batch code left after listing `room` and reviewing `reviewed` documents: run id."""
    store = Store(url)  # the store's own tables as they are today (the store migrates those itself)
    pb = load_playbook("msa-customer")
    files = sorted(room.iterdir())
    now = datetime.now(UTC).isoformat(sep=" ")
    options = {"playbook": "msa-customer", "view": "accepted", "we": None, "paths": [str(room)]}
    with store.engine.begin() as c:
        # today's batch tables, where an earlier open made them, go; the first batch code's come
        for table in ("batch_schema", "batch_outcomes", "batch_documents", "batch_entries", "batch_runs"):
            c.exec_driver_sql(f"DROP TABLE IF EXISTS {table}")
        for ddl in FIRST_BATCH_DDL:
            c.exec_driver_sql(ddl)
        c.exec_driver_sql(
            "INSERT INTO batch_runs (id, status, playbook_id, playbook_version, playbook_sha256, options, "
            "created_at) VALUES (1, 'running', ?, ?, ?, ?, ?)",
            (pb.id, pb.version, pb.sha256, json.dumps(options), now),
        )
        for p in files:
            sha = hashlib.sha256(p.read_bytes()).hexdigest()
            key = document_key(sha, playbook_sha256=pb.sha256, view="accepted", we=None)
            c.exec_driver_sql(
                "INSERT INTO batch_entries (run_id, path, source_sha256, key, locator, meta) "
                "VALUES (1, ?, ?, ?, ?, '{}')",
                (str(p), sha, key, json.dumps({"file": str(p)})),
            )
    for p in files[:reviewed]:  # the old worker: a review, then its record with the cells
        result = review(load_document(p), pb, store=store)
        cells = portfolio_cells([finding_dict(f) for f in result.findings], result.summary)
        sha = result.document.source_sha256
        with store.engine.begin() as c:
            c.exec_driver_sql(
                "INSERT INTO batch_documents (key, source_sha256, playbook_sha256, view, we, name, status, "
                "reason, review_id, version_id, cells, transient, attempts, updated_at) "
                "VALUES (?, ?, ?, 'accepted', NULL, ?, 'done', '', ?, ?, ?, 0, 1, ?)",
                (
                    document_key(sha, playbook_sha256=pb.sha256, view="accepted", we=None),
                    sha,
                    pb.sha256,
                    p.name,
                    result.review_id,
                    result.version_id,
                    json.dumps(cells),
                    now,
                ),
            )
    return 1


@pytest.fixture(scope="module")
def threads() -> Iterator[Client]:
    """A Dask cluster of one worker thread in this process: the migration is the subject, not Dask."""
    with (
        LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster,
        Client(cluster) as c,
    ):
        yield c


def test_a_first_batch_database_is_migrated_then_its_portfolio_reads_and_its_run_resumes(
    tmp_path: Path, threads: Client
) -> None:
    room = plain_room(tmp_path / "room", 4)
    clean_url = f"sqlite:///{tmp_path / 'clean.db'}"
    clean_run = run_in_process(room, clean_url)
    url = f"sqlite:///{tmp_path / 'old.db'}"
    run_id = _first_batch_database(url, room, reviewed=2)
    engine = sqlalchemy.create_engine(url)
    assert "batch_outcomes" not in sqlalchemy.inspect(engine).get_table_names()

    runs = RunStore(Store(url))  # opening it migrates it
    assert runs.schema_version() == SCHEMA_VERSION
    tables = sqlalchemy.inspect(engine).get_table_names()
    assert {"batch_outcomes", "batch_schema"} <= set(tables)
    half = portfolio(runs, run_id, quotes=False)  # counts, filters and titles: no cells read
    assert half["contracts"] == 2 and [r["status"] for r in half["not_reviewed"]] == ["pending"] * 2
    clean = portfolio(RunStore(Store(clean_url)), clean_run, quotes=False)
    # the reviewed half counts and filters as a run made today would: outcomes back-filled from the cells,
    # the clause titles kept with the run (in the order the cells name them, not the playbook's)
    titles = {c["rule"]: c["title"] for c in half["clause_types"]}
    assert titles == {c["rule"]: c["title"] for c in clean["clause_types"]}
    for rule, counts in half["counts"].items():
        assert sum(counts.values()) == 2, rule
        assert set(counts) <= set(clean["counts"][rule]), rule
    first = half["clause_types"][0]
    outcome, n = next(iter(half["counts"][first["rule"]].items()))
    kept = portfolio(runs, run_id, where=[Where(rule=first["title"], outcome=outcome)], quotes=False)
    assert kept["contracts"] == n

    summary = run_batch(db=url, resume=run_id, client=threads)
    assert (summary["done"], summary["pending"], summary["reviewed_now"]) == (4, 0, 2)
    assert snapshot(url) == snapshot(clean_url)
    RunStore(Store(url))  # opening it again changes nothing
    assert snapshot(url) == snapshot(clean_url)
    again = portfolio(RunStore(Store(url)), run_id, quotes=False)
    assert again["counts"] == clean["counts"] and again["contracts"] == 4
