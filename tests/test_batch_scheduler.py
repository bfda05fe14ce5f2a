"""`citationgate batch --scheduler tcp://…` against a real `dask scheduler` and `dask worker` (subprocesses).

Not a LocalCluster: the scheduler and the worker (under its nanny) are the commands a team starts on its
machines, and the driver is the `citationgate` command in a process of its own. The worker is SIGKILLed
in the middle of a document (a worker plugin, once); its nanny starts a new one, the scheduler re-runs the
task, and the store ends as a clean run's: every document once, the audit chain intact.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import cloudpickle
import pytest
from distributed import Client

from citationgate.batch.engine import LEAN_DASK
from tests import batch_fixtures
from tests.batch_fixtures import KillOnce, plain_room, run_in_process, snapshot

cloudpickle.register_pickle_by_value(batch_fixtures)
BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _dask_env() -> dict[str, str]:
    """The worker's environment: Dask's background work turned down as `LEAN_DASK` says (the README's
    recipe for workers started by hand), and quiet logs."""
    env = dict(os.environ)
    for key, value in LEAN_DASK.items():
        env["DASK_" + key.upper().replace(".", "__").replace("-", "_")] = str(value)
    env["DASK_LOGGING__DISTRIBUTED"] = "error"
    return env


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[str]:
    """A `dask scheduler` and one `dask worker` (one thread, under a nanny) on 127.0.0.1; its address."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = _dask_env()
    logs = [(tmp_path / f"{n}.log").open("wb") for n in ("scheduler", "worker")]
    procs = [
        subprocess.Popen(
            [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=logs[0],
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    ]
    try:
        procs.append(
            subprocess.Popen(
                [
                    str(BIN / "dask"),
                    "worker",
                    address,
                    "--nthreads",
                    "1",
                    "--nworkers",
                    "1",
                    "--no-dashboard",
                ],
                stdout=logs[1],
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
                cwd=tmp_path,
            )
        )
        with Client(address, timeout="60s") as c:
            c.wait_for_workers(1, timeout=120)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, 9)
                p.wait()
        for f in logs:
            f.close()


def test_batch_on_a_standalone_scheduler_survives_a_worker_killed_mid_document(
    tmp_path: Path, scheduler: str
) -> None:
    room = plain_room(tmp_path / "room", 5)
    clean = f"sqlite:///{tmp_path / 'clean.db'}"
    run_in_process(room, clean)
    marker = tmp_path / "killed"
    with Client(scheduler, timeout="60s") as c:
        c.register_plugin(KillOnce("msa_02.txt", str(marker)))  # every worker, the restarted one too
        pid_before = set(c.run(os.getpid).values())
    db = f"sqlite:///{tmp_path / 'room.db'}"
    driver = subprocess.run(
        [
            str(BIN / "citationgate"),
            "batch",
            str(room),
            "--scheduler",
            scheduler,
            "--db",
            db,
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert driver.returncode == 0, driver.stderr
    summary = json.loads(driver.stdout)
    assert marker.is_file(), "the worker was never killed"
    assert (summary["documents"], summary["done"], summary["failed"], summary["pending"]) == (5, 5, 0, 0)
    with Client(scheduler, timeout="60s") as c:
        assert set(c.run(os.getpid).values()).isdisjoint(pid_before)  # the nanny started a new worker
    assert snapshot(db) == snapshot(clean)
    assert snapshot(db)["audit_intact"] and set(snapshot(db)["reviews_per_document"]) == {1}


def test_an_unreachable_scheduler_is_one_error_line_and_exit_8(tmp_path: Path) -> None:
    room = plain_room(tmp_path / "room", 1)
    address = f"tcp://127.0.0.1:{_free_port()}"  # nothing listens there
    driver = subprocess.run(
        [
            str(BIN / "citationgate"),
            "batch",
            str(room),
            "--scheduler",
            address,
            "--db",
            f"sqlite:///{tmp_path}/x.db",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert driver.returncode == 8 and driver.stdout == ""
    errors = [line for line in driver.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "Traceback" not in driver.stderr
    assert errors[0].startswith(f"Error: cannot start or reach the Dask scheduler ({address}): ")
    assert driver.stderr.splitlines()[-1] == errors[0]  # after the progress line, if any
