"""A new file and the result about it commit together: `review` and `verify` store the document version in
the same transaction as the review, its findings and its audit entries.

Each test stores a first review, then makes the second run fail for real after its file was read — the
database refuses the audit insert as a full disk would (a trigger), or the process is killed while its
transaction waits inside the database — and then shows that the database holds neither the second
version nor its review, that the first review is intact, and that `audit --check` still passes.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from tests.databases import run_sql

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent

FIRST = "1. Term\nThis Agreement runs for twelve (12) months from the Effective Date.\n"
SECOND = (
    "1. Services\nThe Supplier shall provide the Services described in Schedule 1.\n\n"
    "2. Governing Law\nThis Agreement is governed by the laws of England and Wales.\n"
)

_DISK_FULL = {
    # what SQLite says when the disk fills, raised by the database itself on the audit insert
    "sqlite": [
        "CREATE TRIGGER disk_full BEFORE INSERT ON audit "
        "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
    ],
    # PostgreSQL's own error for it (SQLSTATE 53100 disk_full)
    "postgresql": [
        "CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; "
        "END $$",
        "CREATE TRIGGER disk_full BEFORE INSERT ON audit FOR EACH ROW EXECUTE FUNCTION disk_full()",
    ],
}


def _counts(url: str) -> dict[str, int]:
    return {
        t: int(str(run_sql(url, f"SELECT count(*) FROM {t}")[0][0]))
        for t in ("document_versions", "reviews", "findings", "audit")
    }


def _first_review(tmp_path: Path) -> dict[str, int]:
    """One stored verify of a first file: what must survive whatever happens to the next run."""
    doc = tmp_path / "first.txt"
    doc.write_text(FIRST, encoding="utf-8")
    props = tmp_path / "p.json"
    props.write_text(
        json.dumps(
            {"proposals": [{"id": "p1", "claim": "term", "citations": [{"quote": "twelve (12) months"}]}]}
        )
    )
    done = runner.invoke(app, ["verify", str(props), "--doc", str(doc), "--format", "json"])
    assert done.exit_code == 0, done.output
    return {"review": json.loads(done.stdout)["review"]["id"]}


def _proposals_for_second(tmp_path: Path) -> Path:
    props = tmp_path / "p2.json"
    props.write_text(
        json.dumps(
            {
                "proposals": [
                    {"id": "p1", "claim": "law", "citations": [{"quote": "the laws of England and Wales"}]}
                ]
            }
        )
    )
    return props


def _chain_intact() -> str:
    check = runner.invoke(app, ["audit", "--check"])
    assert check.exit_code == 0, check.output
    return check.stdout


@pytest.mark.parametrize("command", ["review", "verify"])
def test_a_database_that_refuses_the_write_stores_neither_version_nor_review(
    tmp_path: Path, db_url: str, command: str
) -> None:
    """The audit insert fails as a full disk would: exit 6, one Error line, and nothing of the run is kept."""
    first = _first_review(tmp_path)
    before = _counts(db_url)
    for statement in _DISK_FULL["sqlite" if db_url.startswith("sqlite") else "postgresql"]:
        run_sql(db_url, statement)
    second = tmp_path / "second.txt"
    second.write_text(SECOND, encoding="utf-8")
    args = (
        ["review", str(second)]
        if command == "review"
        else ["verify", str(_proposals_for_second(tmp_path)), "--doc", str(second)]
    )
    result = runner.invoke(app, args)
    assert result.exit_code == 6, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: database error on ") and "nothing was written" in line
    assert re.search("disk|no space", line, re.IGNORECASE)
    assert _counts(db_url) == before  # neither the second version, nor its review, findings or entries
    run_sql(db_url, "DROP TRIGGER disk_full" + ("" if db_url.startswith("sqlite") else " ON audit"))
    assert _chain_intact() == f"audit chain intact: {before['audit']} entries\n"
    shown = runner.invoke(app, ["findings", str(first["review"]), "--format", "json"])
    assert shown.exit_code == 0 and json.loads(shown.stdout)["findings"][0]["status"] == "verified"
    again = runner.invoke(app, args)  # the same run, the disk "freed": stored whole, version and review
    assert again.exit_code == 0, again.output
    after = _counts(db_url)
    assert (after["document_versions"], after["reviews"]) == (
        before["document_versions"] + 1,
        before["reviews"] + 1,
    )
    _chain_intact()


_KILL_WORKER = (
    "from citationgate.cli import main; import sys; sys.argv = ['citationgate', *sys.argv[1:]]; main()"
)


def test_a_review_killed_inside_its_transaction_stores_nothing(
    tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real `citationgate review` process is SIGKILLed while its one transaction waits inside PostgreSQL
    (a trigger on the review insert waits for a lock this test holds, after the version row is in): the
    server rolls the transaction back, so neither the version nor the review is stored."""
    import psycopg

    monkeypatch.setenv("CITATIONGATE_DB", pg_url)
    first = _first_review(tmp_path)
    before = _counts(pg_url)
    key = 0x54520000 + os.getpid() % 0xFFFF  # this test's own lock (the store's writers use another)
    run_sql(
        pg_url,
        "CREATE FUNCTION hold() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"PERFORM pg_advisory_xact_lock({key}); RETURN NEW; END $$",
    )
    run_sql(pg_url, "CREATE TRIGGER hold BEFORE INSERT ON reviews FOR EACH ROW EXECUTE FUNCTION hold()")
    match = re.search(r"host=([^&]+)&port=(\d+)", pg_url)
    assert match is not None
    second = tmp_path / "second.txt"
    second.write_text(SECOND, encoding="utf-8")
    with psycopg.connect(
        host=match[1], port=match[2], user="postgres", dbname="citationgate", autocommit=True
    ) as held:
        held.execute("SELECT pg_advisory_lock(%s)", [key])
        proc = subprocess.Popen(
            [sys.executable, "-c", _KILL_WORKER, "review", str(second), "--db", pg_url],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        waiting = None
        deadline = time.monotonic() + 120  # a wait, not a timed assertion: the process is slow to import
        while waiting is None and time.monotonic() < deadline and proc.poll() is None:
            rows = held.execute(
                "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory' "
                "AND query ILIKE 'INSERT INTO reviews%%'"
            ).fetchall()
            waiting = rows[0][0] if rows else None
            time.sleep(0.05)
        assert waiting is not None, proc.communicate()
        # inside the transaction: its version row is already written, uncommitted
        proc.kill()
        proc.wait()
        held.execute("SELECT pg_advisory_unlock(%s)", [key])
        deadline = time.monotonic() + 60
        while (
            time.monotonic() < deadline
            and held.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [waiting]).fetchall()
        ):
            time.sleep(0.05)  # the server notices the dead client and rolls back
    assert _counts(pg_url) == before
    run_sql(pg_url, "DROP TRIGGER hold ON reviews")
    assert _chain_intact() == f"audit chain intact: {before['audit']} entries\n"
    assert runner.invoke(app, ["findings", str(first["review"])]).exit_code == 0
