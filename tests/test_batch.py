"""`citationgate batch`: a small data room on a real Dask cluster (two worker processes) into a real store.

Duplicates reviewed once and listed every time; failures recorded with reasons; a rerun skips what is
done; a worker killed mid-document and a driver SIGKILLed mid-run both end in the same database as a clean
run (same reviews, findings, audit entries; no duplicates; audit chain intact).
"""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import cloudpickle
import pytest
from distributed import Client, LocalCluster
from typer.testing import CliRunner

from citationgate.batch import run_batch
from citationgate.cli import app
from citationgate.store import Store
from citationgate.store_runs import RunStore
from tests import batch_fixtures
from tests.batch_fixtures import KillOnce, messy_room, plain_room, snapshot
from tests.databases import fresh_database

cloudpickle.register_pickle_by_value(batch_fixtures)
runner = CliRunner()


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": ":0"},
            silence_logs=40,
        ) as cluster,
        Client(cluster) as c,
    ):
        yield c


@pytest.fixture(params=["sqlite", "postgresql"])
def new_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[str], str]]:
    """A factory of empty databases: SQLite files, then schemas of the suite's private PostgreSQL."""
    with ExitStack() as stack:

        def make(name: str) -> str:
            if request.param == "sqlite":
                return f"sqlite:///{tmp_path / name}.db"
            return stack.enter_context(fresh_database(request.getfixturevalue("pg_cluster")))

        yield make


def _url(tmp_path: Path, name: str = "room.db") -> str:
    return f"sqlite:///{tmp_path / name}"


def test_a_messy_room_reviews_each_document_once_and_records_every_failure(
    tmp_path: Path, client: Client, new_db: Callable[[str], str]
) -> None:
    room = messy_room(tmp_path / "room")
    url = new_db("room")
    summary = run_batch([room], db=url, client=client)
    by_path = {Path(p["path"]).name: p for p in summary["not_done"]}
    assert summary["entries"] == 9  # hidden files are not listed; the zip's two members are
    assert summary["documents"] == 6  # msa_0 (three times), msa_1, msa_2 (zip), empty, locked, scan
    assert (summary["done"], summary["withheld"], summary["failed"]) == (3, 1, 3)
    assert summary["complete"] and summary["pending"] == 0
    assert "the file is empty" in by_path["empty.txt"]["reason"]
    assert by_path["locked.pdf"]["status"] == "failed" and "password" in by_path["locked.pdf"]["reason"]
    assert by_path["scan.pdf"]["status"] == "withheld" and "no text layer" in by_path["scan.pdf"]["reason"]
    assert "zip bomb" in by_path["room.zip!bomb.txt"]["reason"]
    store = Store(url)
    assert len(store.list_reviews()) == 3  # the same bytes in three folders: one review
    entries = RunStore(store).entries(summary["run"])
    first = next(e for e in entries if e["path"].endswith("msa_0.txt"))
    msa0 = [e for e in entries if e["source_sha256"] == first["source_sha256"]]
    assert len(msa0) == 3 and len({e["review_id"] for e in msa0}) == 1 and msa0[0]["status"] == "done"
    assert any(e["path"].endswith("room.zip!inner/msa_2.txt") and e["status"] == "done" for e in entries)
    assert store.check_audit()[1] is None


def test_a_rerun_skips_what_is_done_and_a_manifest_carries_metadata(tmp_path: Path, client: Client) -> None:
    room = plain_room(tmp_path / "room", 3)
    manifest = tmp_path / "manifest.csv"
    manifest.write_text(
        "path,counterparty\nroom/msa_00.txt,Beta 0\nroom/msa_01.txt,Beta 1\n", encoding="utf-8"
    )
    url = _url(tmp_path)
    first = run_batch([manifest], db=url, client=client)
    assert (first["documents"], first["done"], first["reviewed_now"]) == (2, 2, 2)
    entries = RunStore(Store(url)).entries(first["run"])
    assert [e["meta"] for e in entries] == [{"counterparty": "Beta 0"}, {"counterparty": "Beta 1"}]
    seen: list[Mapping[str, Any]] = []
    second = run_batch([room], db=url, client=client, on_outcome=seen.append)
    assert (second["documents"], second["reviewed_now"], second["skipped_already_done"]) == (3, 1, 2)
    assert len(Store(url).list_reviews()) == 3
    # the caller sees each document's outcome: the one reviewed now with its name and where its time went
    # (wall and the task thread's CPU, reading + reviewing and writing); the two done before are not sent
    (now,) = seen
    assert now["name"] == "msa_02.txt"
    assert set(now["seconds"]) == {"review", "write", "review_cpu", "write_cpu"}
    assert now["status"] == "done" and not now["already"] and now["seconds"]["review_cpu"] > 0
    assert isinstance(now["first_in_process"], bool)
    # a worker process that has reviewed a document has its warm heap out of the collector's full passes
    assert any(n > 0 for n in client.run(gc.get_freeze_count).values())


@contextmanager
def _one_worker() -> Iterator[Client]:
    """A client of a fresh local cluster of one worker process (killed and restarted by the tests)."""
    with (
        LocalCluster(
            n_workers=1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": ":0"},
            silence_logs=50,
        ) as cluster,
        Client(cluster) as c,
    ):
        yield c


def test_a_worker_killed_mid_document_ends_as_a_clean_run(
    tmp_path: Path, client: Client, new_db: Callable[[str], str]
) -> None:
    room = plain_room(tmp_path / "room", 6)
    clean = new_db("clean")
    run_batch([room], db=clean, client=client, chunk=3)
    marker = tmp_path / "killed"
    with _one_worker() as c:
        c.register_plugin(KillOnce("msa_01.txt", str(marker)))
        crashed = new_db("crashed")
        summary = run_batch([room], db=crashed, client=c, chunk=3)
    assert marker.is_file(), "the worker was never killed"
    assert summary["done"] == 6 and summary["failed"] == 0
    assert snapshot(crashed) == snapshot(clean)
    assert snapshot(crashed)["audit_intact"] and set(snapshot(crashed)["reviews_per_document"]) == {1}


def test_a_worker_killed_while_reading_a_document_leaves_no_copy_of_it_on_disk(
    tmp_path: Path, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker reads each document from the bytes it has just hashed, never from a copy of its own: a
    worker SIGKILLed mid-read leaves nothing of the document in its temporary folder (it once left the
    copy it read from there), and the run still ends as a clean one."""
    room = plain_room(tmp_path / "room", 4)
    clean = _url(tmp_path, "clean.db")
    run_batch([room], db=clean, client=client)
    worker_tmp = tmp_path / "worker-tmp"
    worker_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(worker_tmp))  # the worker processes' tempfile.gettempdir()
    marker = tmp_path / "killed"
    with _one_worker() as c:
        assert set(c.run(tempfile.gettempdir).values()) == {str(worker_tmp)}
        c.register_plugin(KillOnce("msa_01.txt", str(marker), during="read"))
        crashed = _url(tmp_path, "crashed.db")
        summary = run_batch([room], db=crashed, client=c, chunk=2)
    assert marker.is_file(), "the worker was never killed"
    assert summary["done"] == 4 and summary["failed"] == 0
    victim = (room / "msa_01.txt").read_bytes()
    left = [
        p
        for p in worker_tmp.rglob("*")
        if p.is_file() and (p.name == "msa_01.txt" or p.read_bytes() == victim)
    ]
    assert left == []
    assert snapshot(crashed) == snapshot(clean)


def test_the_driver_sigkilled_mid_run_then_resumed_ends_as_a_clean_run(
    tmp_path: Path, client: Client, new_db: Callable[[str], str]
) -> None:
    room = plain_room(tmp_path / "room", 8)
    clean = new_db("clean")
    run_batch([room], db=clean, client=client)
    db = new_db("killed")
    driver = subprocess.Popen(
        [str(Path(sys.executable).parent / "citationgate"), "batch", str(room), "--db", db, "--workers", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # the driver and its local cluster: one process group to kill
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and driver.poll() is None and _done(db) < 1:
            time.sleep(0.02)
    finally:
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()
    done_at_kill = _done(db)
    assert done_at_kill >= 1
    result = runner.invoke(app, ["batch", "--resume", "1", "--db", db, "--format", "json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["done"] == 8 and summary["pending"] == 0
    assert summary["reviewed_now"] == 8 - done_at_kill or summary["reviewed_now"] < 8
    assert snapshot(db) == snapshot(clean)
    check = runner.invoke(app, ["audit", "--check", "--db", db])
    assert check.exit_code == 0 and "audit chain intact" in check.stdout


def _done(url: str) -> int:
    try:
        return sum(1 for d in RunStore(Store(url)).documents() if d["status"] == "done")
    except Exception:
        return 0  # the driver has not created the tables yet


def test_two_workers_racing_on_the_same_documents_write_each_once(
    tmp_path: Path, client: Client, new_db: Callable[[str], str]
) -> None:
    """Both workers are handed the same chunk at once: one writes each document, the other finds it done."""
    from citationgate.batch.worker import review_chunk
    from citationgate.store_runs import document_key
    from playbooks import load_playbook

    room = plain_room(tmp_path / "room", 4)
    url = new_db("race")
    RunStore(Store(url))  # the driver creates the tables before any worker starts
    pb = load_playbook("msa-customer")
    ref = {"id": pb.id, "version": pb.version, "sha256": pb.sha256}
    import hashlib

    chunk = []
    for p in sorted(room.iterdir()):
        sha = hashlib.sha256(p.read_bytes()).hexdigest()
        key = document_key(sha, playbook_sha256=pb.sha256, view="accepted", we=None)
        chunk.append({"key": key, "source_sha256": sha, "locator": {"file": str(p)}})
    options = {"db": url, "playbook": "msa-customer", "playbook_ref": ref, "view": "accepted", "we": None}
    workers = list(client.scheduler_info()["workers"])
    futures = [
        client.submit(review_chunk, chunk, options, pure=False, workers=[w], allow_other_workers=False)
        for w in workers
    ]
    results = client.gather(futures)
    written = [o for r in results for o in r if not o["already"]]
    assert sorted(o["key"] for o in written) == sorted(c["key"] for c in chunk)
    snap = snapshot(url)
    assert snap["reviews_per_document"] == [1, 1, 1, 1] and snap["audit_intact"]


def test_cli_json_is_the_summary_only_and_errors_are_one_line(tmp_path: Path) -> None:
    room = plain_room(tmp_path / "room", 2)
    result = runner.invoke(app, ["batch", str(room), "--workers", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["done"] == 2 and summary["run"] == 1
    missing = runner.invoke(app, ["batch", "--resume", "9"])
    assert missing.exit_code == 6
    assert missing.stderr == "Error: batch run 9 is not in the store (see `citationgate batch --help`)\n"
    nothing = runner.invoke(app, ["batch", str(tmp_path / "nowhere")])
    assert nothing.exit_code == 3
    assert nothing.stderr == f"Error: {tmp_path / 'nowhere'}: no such file or folder\n"
