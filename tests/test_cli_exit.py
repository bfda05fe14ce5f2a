"""The console script's exit (`citationgate.cli.run`): a `verify` ends as soon as its output is flushed
(`os._exit`), with the same stdout, stderr, exit status and stored record as the interpreter's own exit —
and only when nothing needs that exit (an exit handler, another thread, a SQLAlchemy engine)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from citationgate.store import Store

#: A console-script process whose `os._exit` says it was called (and then exits as it would have).
_RUN = """
import os, sys
real_exit = os._exit
def traced(code):
    sys.stderr.write(f"[ended at once: {{code}}]")
    sys.stderr.flush()
    real_exit(code)
os._exit = traced
{before}
sys.argv = ["citationgate", *sys.argv[1:]]
from citationgate.cli import {entry}
{entry}()
"""

CONTRACT = "".join(
    f"{i}. Clause {i}\nThe Supplier shall perform obligation number {i} within {i + 10} days of notice.\n"
    for i in range(1, 31)
)


def _files(tmp_path: Path, *, bad: bool = False) -> tuple[Path, Path]:
    doc = tmp_path / "contract.txt"
    doc.write_text(CONTRACT, encoding="utf-8")
    props = tmp_path / "proposals.json"
    quotes = ["The Supplier shall perform obligation number 7 within 17 days", "a sentence it never says"]
    items = [{"id": f"p{i}", "claim": "c", "citations": [{"quote": q}]} for i, q in enumerate(quotes)]
    props.write_text("{" if bad else json.dumps({"proposals": items}), encoding="utf-8")
    return doc, props


def _cli(args: list[str], *, entry: str = "run", before: str = "") -> subprocess.CompletedProcess[str]:
    code = _RUN.format(entry=entry, before=before)
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=False, timeout=120
    )


def _verify_args(tmp_path: Path, db: Path, *extra: str, bad: bool = False) -> list[str]:
    doc, props = _files(tmp_path, bad=bad)
    return ["verify", str(props), "--doc", str(doc), "--db", str(db), *extra]


@pytest.mark.parametrize(
    ("extra", "bad", "status"),
    [
        (["--format", "json"], False, 0),
        (["--format", "table"], False, 0),
        (["--strict"], False, 1),  # a rejection under --strict
        ([], True, 4),  # malformed proposals
    ],
    ids=["json", "table", "strict", "bad-proposals"],
)
def test_verify_ends_at_once_with_the_same_output(
    tmp_path: Path, extra: list[str], bad: bool, status: int
) -> None:
    quick = _cli(_verify_args(tmp_path, tmp_path / "quick.db", *extra, bad=bad))
    usual = _cli(_verify_args(tmp_path, tmp_path / "usual.db", *extra, bad=bad), entry="main")
    assert quick.returncode == usual.returncode == status
    assert quick.stderr == usual.stderr + f"[ended at once: {status}]"
    if extra == ["--format", "json"]:
        a, b = json.loads(quick.stdout), json.loads(usual.stdout)
        assert a["findings"] == b["findings"]
        assert {f["status"] for f in a["findings"]} == {"verified", "rejected"}
    else:  # the same lines, but the review's time and the chain's head (a different moment)
        assert quick.stdout.splitlines()[1:] == usual.stdout.splitlines()[1:]


def test_what_an_early_exit_stored_is_whole(tmp_path: Path) -> None:
    """The review, its findings and its audit chain are committed and the database closed: no write-ahead
    log left beside it, and the chain checks."""
    db = tmp_path / "r.db"
    done = _cli(_verify_args(tmp_path, db, "--format", "json"))
    assert done.returncode == 0, done.stderr
    assert "[ended at once: 0]" in done.stderr
    assert sorted(p.name for p in tmp_path.glob("r.db*")) == ["r.db"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM findings").fetchone() == (2,)
    count, broken = Store.open(str(db)).check_audit()
    assert broken is None and count == 4  # a citation and a finding entry per proposal


@pytest.mark.parametrize(
    "before",
    [
        "import atexit; atexit.register(lambda: sys.stderr.write('[exit handler ran]'))",
        "import threading, time; threading.Thread(target=time.sleep, args=(60,), daemon=True).start()",
        "import sqlalchemy",
    ],
    ids=["exit-handler", "thread", "sqlalchemy"],
)
def test_the_interpreters_exit_when_something_needs_it(tmp_path: Path, before: str) -> None:
    done = _cli(_verify_args(tmp_path, tmp_path / "r.db", "--format", "json"), before=before)
    assert done.returncode == 0, done.stderr
    assert "[ended at once" not in done.stderr
    if "atexit" in before:
        assert done.stderr.endswith("[exit handler ran]")


def test_a_command_that_did_not_ask_exits_as_usual(tmp_path: Path) -> None:
    done = _cli(["coverage", "--db", str(tmp_path / "r.db")])
    assert done.returncode == 0, done.stderr
    assert "[ended at once" not in done.stderr


def test_a_closed_pipe_still_ends_quietly(tmp_path: Path) -> None:
    """`citationgate verify … | head -1`: the conventional status, no error line."""
    code = _RUN.format(entry="run", before="")
    args = _verify_args(tmp_path, tmp_path / "r.db", "--format", "json")
    with subprocess.Popen(
        [sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader has gone before the first write
        err = proc.stderr.read().decode()
        status = proc.wait(timeout=120)
    assert status == 141
    assert "Error" not in err


def test_the_console_script_is_run() -> None:
    import tomllib

    root = Path(__file__).resolve().parent.parent
    scripts = tomllib.loads((root / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"citationgate": "citationgate.cli:run"}


def test_verify_runs_without_collections_and_resumes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While `verify` works, the cyclic collector is paused (it keeps what it makes); after it, it runs."""
    import gc

    from typer.testing import CliRunner

    import citationgate.api
    from citationgate.cli import app

    seen: list[bool] = []
    real = citationgate.api.verify_run

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("citationgate.cli.gate.verify_run", spy)
    assert gc.isenabled()
    result = CliRunner().invoke(app, _verify_args(tmp_path, tmp_path / "r.db", "--format", "json"))
    assert result.exit_code == 0, result.output
    assert seen == [False]
    assert gc.isenabled()
