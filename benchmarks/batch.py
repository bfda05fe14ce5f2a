"""Benchmark: the data room — a sequential `review` loop against `batch` on 1 and 2 Dask workers, same run.

    python benchmarks/batch.py [--texts 1000] [--pdfs] [--db sqlite|postgresql] [--passes loop,1,2]
                               [--portfolio 10000] [--lsh-sample 1500] [--json OUT]

Corpora (from ../shared/data; never copied into the repo):
- `--texts N` CUAD texts: the shared texts repeated until there are N, each copy made distinct by a line
  appended at the end (`[copy k]`), so content hashing does not fold the repeats into one review.
- `--pdfs`: the 40 shared CUAD PDFs.

For each corpus, each pass on a fresh database (SQLite, or with `--db postgresql` a schema of a private
PostgreSQL server started for the run, as the test suite does): the baseline is what `citationgate review
FILE --db URL` does for each file, run in one warm process (`api.review_run`, the command's own code: hash,
look up, read, review, store in one transaction; see `sequential`) — then `batch` with a local cluster of 1
and of 2 worker processes (cluster start-up reported separately; the batch figure includes it, and the
workers' first imports, playbook compilation and store opening, which the warm loop does not pay).
Each file's CPU is recorded in both paths (the loop's thread; the worker's task thread, reading +
reviewing + writing) and paired by name, so the overhead at one worker is split into the documents
themselves (per-document ratio, the first half of the run against the second), each process's first
document (its warm-up), the worker's CPU outside its documents, and the driver's.
Reported: contracts/s, the overhead of batch at one worker against the loop (goal ≤ 10 %), the scaling
from 1 to 2 workers (goal ≥ 1.7× on 2 cores), each worker's peak resident memory, and the database size
per 1,000 contracts. Then the portfolio of a run of `--portfolio` stored reviews (the text run's reviews,
findings and records copied until there are that many) is timed (goal < 1 s), and MinHash LSH is
measured against exact pairwise Jaccard on a sample of CUAD's annotated clause texts (recall, time).

The machine may be shared: the load average at the start and end is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from citationgate.api import review_run  # noqa: E402
from citationgate.batch import run_batch  # noqa: E402
from citationgate.batch.engine import LEAN_DASK, local_cluster  # noqa: E402
from citationgate.batch.families import compare_with_exact  # noqa: E402
from citationgate.batch.portfolio import portfolio  # noqa: E402
from citationgate.store import Store  # noqa: E402
from citationgate.store_runs import RunStore  # noqa: E402
from ingest.errors import CitationGateError  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "cuad"
PASSES = ("loop", "1", "2")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def make_texts(n: int, out: Path) -> Path:
    src = sorted((DATA / "texts").glob("*.txt"))
    out.mkdir(parents=True)
    for i in range(n):
        f = src[i % len(src)]
        text = f.read_text(encoding="utf-8")
        if i >= len(src):
            text += f"\n\n[copy {i // len(src)}]\n"
        (out / f"{i:05d}_{f.name}").write_text(text, encoding="utf-8")
    return out


def sequential(folder: Path, url: str) -> dict[str, Any]:
    """The baseline: what `citationgate review FILE --db URL` does, once per file, in one warm process —
    `api.review_run` (the command's own code: read the bytes, hash them, look for a stored version of
    them, read the document, review it, store version + review + findings + audit entries in one
    transaction) into one store. Not counted, in the loop's favour: starting `citationgate` once per file
    (the interpreter, imports, compiling the playbook, loading the locator: about 3 CPU-s a file on this
    machine, several times a text's review) and printing the findings."""
    store = Store(url)
    files = sorted(p for p in folder.iterdir() if p.is_file())
    t0, c0 = time.perf_counter(), time.process_time()
    done = failed = 0
    per_document: dict[str, float] = {}  # this thread's CPU seconds for each file, what the worker reports
    for p in files:
        d0 = time.thread_time()
        try:
            review_run(p, store=store)
            done += 1
        except CitationGateError:
            failed += 1
        per_document[p.name] = time.thread_time() - d0
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {
        "files": len(files),
        "done": done,
        "not_reviewed": failed,
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu, 2),
        "per_second": round(len(files) / seconds, 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "per_document_cpu": per_document,
    }


def _worker_usage() -> tuple[float, float]:
    """A worker's peak resident memory (MB) and the CPU seconds it has used."""
    import resource as r

    u = r.getrusage(r.RUSAGE_SELF)
    return u.ru_maxrss / 1024, u.ru_utime + u.ru_stime


def batched(folder: Path, url: str, workers: int) -> dict[str, Any]:
    from distributed import Client

    t0 = time.perf_counter()
    cluster = local_cluster(workers)  # the cluster `citationgate batch` starts
    client = Client(cluster)
    startup = time.perf_counter() - t0
    per_document: dict[str, float] = {}  # task-thread CPU seconds per file: reading, reviewing, writing
    first: list[str] = []  # each worker's first document (it pays the worker's warm-up)

    def seen(o: Any) -> None:
        secs = o.get("seconds")
        if secs:
            per_document[o["name"]] = secs["review_cpu"] + secs["write_cpu"]
            if o.get("first_in_process"):
                first.append(o["name"])

    try:
        before = client.run(_worker_usage)
        t1, c1 = time.perf_counter(), time.process_time()
        summary = run_batch([folder], db=url, client=client, on_outcome=seen)
        seconds, driver_cpu = time.perf_counter() - t1, time.process_time() - c1
        after = client.run(_worker_usage)
    finally:
        client.close()
        cluster.close()
    n = summary["documents"]
    return {
        "workers": workers,
        "files": summary["entries"],
        "done": summary["done"],
        "not_reviewed": summary["failed"] + summary["withheld"],
        "cluster_start_seconds": round(startup, 2),
        "seconds": round(seconds + startup, 2),
        "seconds_without_start": round(seconds, 2),
        "per_second": round(n / (seconds + startup), 3),
        "worker_peak_rss_mb": sorted(round(v[0], 1) for v in after.values()),
        # CPU the workers spent on this run (their start-up excluded), and the driver's
        "worker_cpu_seconds": round(sum(after[w][1] - before[w][1] for w in after), 2),
        "driver_cpu_seconds": round(driver_cpu, 2),
        # summed over documents: reading + reviewing, and writing (waiting for the store's lock included)
        "worker_seconds": summary["worker_seconds"],
        "per_document_cpu": per_document,
        "first": first,
    }


def _spin(seconds: float) -> None:
    """Work this thread's CPU for `seconds` (the task whose worker's background work is measured)."""
    t0 = time.thread_time()
    while time.thread_time() - t0 < seconds:
        pass


def dask_background(seconds: float) -> dict[str, Any]:
    """Dask's own CPU while a one-worker cluster runs a task of `seconds` CPU: default settings against
    `LEAN_DASK` (what `citationgate batch` uses), same run. Worker: its process CPU beyond the task's;
    driver: the scheduler's and nanny's (this process)."""
    import dask
    from distributed import Client

    out: dict[str, Any] = {"task_cpu_seconds": seconds}
    for label, cfg in (("default", {}), ("lean", LEAN_DASK)):
        with dask.config.set(cfg):
            cluster = local_cluster(1) if label == "lean" else _default_cluster()
        with cluster, Client(cluster) as client:
            before = client.run(_worker_usage)
            c0 = time.process_time()
            client.submit(_spin, seconds, pure=False).result()
            after = client.run(_worker_usage)
            driver = time.process_time() - c0
        extra = sum(after[w][1] - before[w][1] for w in after) - seconds
        out[label] = {"worker_extra_cpu_seconds": round(extra, 3), "driver_cpu_seconds": round(driver, 3)}
    out["worker_extra_ratio"] = round(out["default"]["worker_extra_cpu_seconds"] / seconds, 4)
    out["worker_extra_ratio_lean"] = round(out["lean"]["worker_extra_cpu_seconds"] / seconds, 4)
    return out


def _default_cluster() -> Any:
    import logging

    from distributed import LocalCluster

    return LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": ":0"},
        silence_logs=logging.ERROR,
    )


def db_bytes(db: Path) -> int:
    """The database's size on disk once its write-ahead log is folded in."""
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


class Databases:
    """Where each pass writes: a fresh SQLite file, or a fresh schema of a private PostgreSQL server started
    for the run (the test suite's, `tests/databases.py`), and what each holds on disk afterwards."""

    def __init__(self, kind: str, tmp: Path, stack: ExitStack) -> None:
        self.kind, self.tmp, self.stack = kind, tmp, stack
        self.cluster: Any = None
        if kind == "postgresql":
            from tests.databases import find_bin_dir, running_cluster

            bin_dir = find_bin_dir()
            if bin_dir is None:
                sys.exit("Error: --db postgresql needs a PostgreSQL server (initdb) installed")
            self.cluster = stack.enter_context(running_cluster(bin_dir))

    def new(self, name: str) -> str:
        if self.cluster is None:
            return f"sqlite:///{self.tmp / name}.db"
        from tests.databases import fresh_database

        return str(self.stack.enter_context(fresh_database(self.cluster)))

    def size(self, url: str) -> int:
        if self.cluster is None:
            return db_bytes(Path(url.removeprefix("sqlite:///")))
        import sqlalchemy

        engine = sqlalchemy.create_engine(url)
        with engine.connect() as c:
            n = c.exec_driver_sql(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace s ON s.oid = c.relnamespace "
                "WHERE s.nspname = current_schema() AND c.relkind = 'r'"
            ).scalar()
        engine.dispose()
        return int(n or 0)


def corpus(name: str, folder: Path, dbs: Databases, passes: tuple[str, ...] = PASSES) -> dict[str, Any]:
    out: dict[str, Any] = {"database": dbs.kind}
    for i, p in enumerate(passes):  # in the order given; `loop` a second time is the loop again
        if p == "loop":
            label = "sequential" if "sequential" not in out else "sequential_again"
            log(f"[{name}] sequential review loop …")
            out[label] = seq = sequential(folder, dbs.new(f"{name}-seq{i}"))
            log(f"[{name}]   {seq}")
        elif p in ("1", "2"):
            w = int(p)
            log(f"[{name}] batch, {w} worker(s) …")
            url = dbs.new(f"{name}-batch{w}")
            out[f"batch_{w}"] = b = batched(folder, url, w)
            b["db_bytes"] = dbs.size(url)
            b["db_mb_per_1000"] = round(b["db_bytes"] / b["files"] * 1000 / 2**20, 1)
            log(f"[{name}]   {b}")
    again = out.get("sequential_again")
    if again and "sequential" in out:
        # the same loop later in the run: how far the machine itself drifted between passes
        first = out["sequential"]
        out["loop_again_cpu_ratio"] = round(again["cpu_seconds"] / first["cpu_seconds"], 4)
        both = [n for n in first["per_document_cpu"] if n in again["per_document_cpu"]][1:]
        out["loop_again_median_ratio"] = round(
            _quantile([again["per_document_cpu"][n] / first["per_document_cpu"][n] for n in both], 0.5), 4
        )
    seq, b1, b2 = out.get("sequential"), out.get("batch_1"), out.get("batch_2")
    if seq and b1:
        out["overhead_at_1_worker"] = round(b1["seconds"] / seq["seconds"] - 1, 4)
        out["overhead_at_1_worker_without_start"] = round(b1["seconds_without_start"] / seq["seconds"] - 1, 4)
        # on a shared machine wall time measures the neighbours too; CPU seconds per contract less so
        out["cpu_overhead_at_1_worker"] = round(
            (b1["worker_cpu_seconds"] + b1["driver_cpu_seconds"]) / seq["cpu_seconds"] - 1, 4
        )
    if seq and b1:
        out["attribution_at_1_worker"] = attribute(seq, b1)
    if b1 and b2:
        out["scaling_1_to_2"] = round(b1["seconds"] / b2["seconds"], 3)
        out["scaling_1_to_2_without_start"] = round(
            b1["seconds_without_start"] / b2["seconds_without_start"], 3
        )
        # CPU seconds per contract at 2 workers against 1: near 1.0, two workers did no extra work for each
        # other; the wall-clock scaling then depends on getting two free cores (and on the store's lock:
        # see the write seconds, the part of each document done holding it)
        out["cpu_per_contract_1_vs_2"] = round(
            (b2["worker_cpu_seconds"] / b2["done"]) / (b1["worker_cpu_seconds"] / b1["done"]), 3
        )
    if seq and b2:
        out["speedup_2_workers_vs_loop"] = round(seq["seconds"] / b2["seconds"], 3)
    return out


def _quantile(values: list[float], q: float) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))] if v else float("nan")


def attribute(seq: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Where batch's extra CPU at one worker goes, document by document against the loop.

    Each file's CPU in the loop (the loop's thread) and on the worker (the task's thread, reading +
    reviewing + writing) are paired by name. The first document of the loop and of each worker pay the
    process's warm-up and are set apart; the rest give the per-document ratio. What the worker process
    spent outside its documents (its event loop, the task's deserialisation and first imports, the
    `settled` query) and the driver's CPU are the remainder."""
    loop, work = seq["per_document_cpu"], b["per_document_cpu"]
    order = [n for n in loop if n in work]  # the loop's order, which is the listing's
    warm = [n for n in order if n == order[0] or n in b["first"]]
    rest = [n for n in order if n not in warm]
    ratios = [work[n] / loop[n] for n in rest if loop[n] > 0]
    half = len(ratios) // 2
    loop_rest, work_rest = sum(loop[n] for n in rest), sum(work[n] for n in rest)
    return {
        "documents_paired": len(rest),
        "loop_cpu_seconds_per_document": round(loop_rest / max(1, len(rest)), 4),
        "worker_cpu_seconds_per_document": round(work_rest / max(1, len(rest)), 4),
        "per_document_ratio": {
            "median": round(_quantile(ratios, 0.5), 4),
            "q1": round(_quantile(ratios, 0.25), 4),
            "q3": round(_quantile(ratios, 0.75), 4),
            "median_first_half": round(_quantile(ratios[:half], 0.5), 4),
            "median_second_half": round(_quantile(ratios[half:], 0.5), 4),
        },
        "documents_overhead_cpu_seconds": round(work_rest - loop_rest, 3),
        "documents_overhead_ratio": round(work_rest / loop_rest - 1, 4) if loop_rest else None,
        "first_documents": {n: {"loop": round(loop[n], 3), "worker": round(work[n], 3)} for n in warm},
        "warm_up_cpu_seconds": round(sum(work[n] - loop[n] for n in warm), 3),
        "worker_outside_documents_cpu_seconds": round(b["worker_cpu_seconds"] - sum(work.values()), 3),
        "loop_outside_documents_cpu_seconds": round(seq["cpu_seconds"] - sum(loop.values()), 3),
        "driver_cpu_seconds": b["driver_cpu_seconds"],
    }


def grow_store(db: Path, target: int) -> int:
    """Copy the run's reviews, findings, batch records and entries until `target` reviews; a new run id."""
    con = sqlite3.connect(db)
    cur = con.cursor()
    (have,) = cur.execute("SELECT count(*) FROM batch_documents WHERE status='done'").fetchone()
    cur.execute(
        "INSERT INTO batch_runs (status, playbook_id, playbook_version, playbook_sha256, options, "
        "created_at) "
        "SELECT 'finished', playbook_id, playbook_version, playbook_sha256, options, created_at "
        "FROM batch_runs WHERE id=1"
    )
    run_id = cur.lastrowid
    docs = cur.execute(
        "SELECT key, source_sha256, playbook_sha256, view, name, review_id, version_id, cells "
        "FROM batch_documents WHERE status='done'"
    ).fetchall()
    made = 0
    while made < target:
        copy = made // max(1, have)
        for key, sha, pbsha, view, name, review_id, version_id, cells in docs:
            if made >= target:
                break
            made += 1
            new_key = f"{key}-{copy}"
            cur.execute(
                "INSERT INTO reviews (kind, version_id, parent_review_id, playbook_id, playbook_version, "
                "playbook_sha256, summary, created_at, content_sha256, audit_head, audit_entries) "
                "SELECT kind, version_id, parent_review_id, playbook_id, playbook_version, playbook_sha256, "
                "summary, created_at, content_sha256, audit_head, audit_entries FROM reviews WHERE id=?",
                (review_id,),
            )
            rid = cur.lastrowid
            cur.execute(
                "INSERT INTO findings (review_id, key, status, rule, severity, payload) "
                "SELECT ?, key, status, rule, severity, payload FROM findings WHERE review_id=?",
                (rid, review_id),
            )
            cur.execute(
                "INSERT INTO batch_documents (key, source_sha256, playbook_sha256, view, name, status, "
                "reason, "
                "review_id, version_id, cells, transient, attempts, updated_at) "
                "VALUES (?, ?, ?, ?, ?, 'done', '', ?, ?, ?, 0, 1, datetime('now'))",
                (new_key, sha, pbsha, view, name, rid, version_id, cells),
            )
            cur.execute(
                "INSERT INTO batch_outcomes (key, rule, outcome) SELECT ?, rule, outcome FROM batch_outcomes "
                "WHERE key=?",
                (new_key, key),
            )
            cur.execute(
                "INSERT INTO batch_entries (run_id, path, source_sha256, key, locator, meta) "
                "VALUES (?, ?, ?, ?, '{}', '{}')",
                (run_id, f"copy{copy}/{name}", sha, new_key),
            )
    con.commit()
    (reviews,) = cur.execute("SELECT count(*) FROM reviews").fetchone()
    con.close()
    log(f"[portfolio] store grown to {reviews} reviews")
    return int(run_id or 0)


def time_it(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, float, Any]:
    """Best wall-clock and best CPU time of `repeat` calls (CPU time says more on a shared machine)."""
    best, best_cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return best, best_cpu, result


def clause_sample(n: int) -> list[str]:
    texts = []
    with (DATA / "annotations.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            for cat in json.loads(line)["categories"].values():
                texts += [s["text"] for s in cat.get("spans", []) if len(s["text"].split()) >= 8]
    random.Random(17).shuffle(texts)
    return texts[:n]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--texts", type=int, default=1000)
    ap.add_argument("--pdfs", action="store_true", help="also the 40 shared PDFs")
    ap.add_argument("--portfolio", type=int, default=10_000)
    ap.add_argument("--lsh-sample", type=int, default=1500)
    ap.add_argument("--json", type=Path, help="write the figures here as JSON")
    ap.add_argument(
        "--background",
        type=float,
        default=3.0,
        help="CPU seconds of the task over which Dask's own background work is measured (0: skip)",
    )
    ap.add_argument(
        "--db",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="the store every pass writes to: SQLite files, or a private PostgreSQL server started here",
    )
    ap.add_argument(
        "--passes",
        default=",".join(PASSES),
        help="which passes over each corpus, in this order: loop (the baseline), 1 and 2 (workers); default "
        "all three; `loop` named twice runs the loop again (loop,1,loop: the machine's drift over the run)",
    )
    args = ap.parse_args()
    if not (DATA / "texts").is_dir():
        sys.exit(f"Error: {DATA} not found (expected ../shared/data beside the checkout)")
    results: dict[str, Any] = {"load_average_start": os.getloadavg(), "cores": os.cpu_count()}
    tmp = Path(tempfile.mkdtemp(prefix="cg-batch-bench-"))
    stack = ExitStack()
    try:
        dbs = Databases(args.db, tmp, stack)
        texts = make_texts(args.texts, tmp / "texts")
        passes = tuple(p.strip() for p in args.passes.split(",") if p.strip())
        results["passes"] = passes
        results["texts"] = corpus("texts", texts, dbs, passes)
        if args.pdfs:
            pdfs = tmp / "pdfs"
            pdfs.mkdir()
            for p in sorted((DATA / "pdf").glob("*.pdf")):
                shutil.copy(p, pdfs / p.name)
            results["pdfs"] = corpus("pdfs", pdfs, dbs, passes)
        if args.portfolio and "2" in passes and args.db == "sqlite":
            db = tmp / "texts-batch2.db"
            run_id = grow_store(db, args.portfolio)
            runs = RunStore(Store(f"sqlite:///{db}"))
            q = {}
            for label, kw in (
                ("outcomes_and_counts", {"quotes": False}),
                ("with_quotes", {"quotes": True}),
                ("where_assignment_unacceptable", {"where": [_where("assignment=unacceptable")]}),
            ):
                wall, cpu, p = time_it(lambda kw=kw: portfolio(runs, run_id, **kw))  # type: ignore[misc]
                q[label] = {"rows": p["contracts"], "seconds": round(wall, 3), "cpu_seconds": round(cpu, 3)}
            results["portfolio"] = {"reviews_stored": args.portfolio, "goal_seconds": 1.0, **q}
            results["portfolio"]["db_mb"] = round(db_bytes(db) / 2**20, 1)
            log(f"[portfolio] {results['portfolio']}")
        if args.background:
            log("[dask] background work, default settings against LEAN_DASK …")
            results["dask_background"] = dask_background(args.background)
            log(f"[dask] {results['dask_background']}")
        if args.lsh_sample:
            sample = clause_sample(args.lsh_sample)
            compare_with_exact(sample[:50])  # warm: imports and first MinHash
            results["lsh"] = {t: compare_with_exact(sample, threshold=t) for t in (0.8, 0.6)}
            log(f"[lsh] {results['lsh']}")
    finally:
        stack.close()
        shutil.rmtree(tmp, ignore_errors=True)
    results["load_average_end"] = os.getloadavg()
    report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


def _where(text: str) -> Any:
    from citationgate.batch.portfolio import parse_where

    return parse_where(text)


def report(r: dict[str, Any]) -> None:
    print(f"cores {r['cores']}; load average at start {r['load_average_start']}, end {r['load_average_end']}")
    for name in ("texts", "pdfs"):
        if name not in r:
            continue
        c = r[name]
        s, b1, b2 = c.get("sequential"), c.get("batch_1"), c.get("batch_2")
        files = (s or b1 or b2 or {}).get("files")
        print(f"\n{name}: {files} files, into {c['database']}")
        if s:
            print(
                f"  sequential review loop   {s['per_second']:8.2f} contracts/s  ({s['seconds']} s, "
                f"{s['cpu_seconds']} CPU-s; {s['done']} reviewed, {s['not_reviewed']} not)"
            )
        for label, b in (("1 worker ", b1), ("2 workers", b2)):
            if b:
                print(
                    f"  batch, {label}        {b['per_second']:8.2f} contracts/s  ({b['seconds']} s, "
                    f"{b['cluster_start_seconds']} s of it starting the cluster; workers "
                    f"{b['worker_cpu_seconds']} + driver {b['driver_cpu_seconds']} CPU-s)"
                )
        if "overhead_at_1_worker" in c:
            print(
                f"  overhead at 1 worker     {c['overhead_at_1_worker']:+.1%} wall "
                f"({c['overhead_at_1_worker_without_start']:+.1%} without start-up), "
                f"{c['cpu_overhead_at_1_worker']:+.1%} CPU-s (goal ≤ +10 %)"
            )
        if "loop_again_cpu_ratio" in c and c["sequential"]["files"] > 1:
            g = c["sequential_again"]
            print(
                f"  the loop again, later    {g['per_second']:8.2f} contracts/s  ({g['seconds']} s, "
                f"{g['cpu_seconds']} CPU-s: {c['loop_again_cpu_ratio']:.3f}× the first loop's CPU, per "
                f"document median {c['loop_again_median_ratio']:.3f}× — the machine's drift between passes)"
            )
        if c.get("attribution_at_1_worker", {}).get("documents_paired"):
            a = c["attribution_at_1_worker"]
            r = a["per_document_ratio"]
            print(
                f"  where it goes (CPU-s)    documents {a['documents_overhead_cpu_seconds']:+.2f} "
                f"({a['documents_overhead_ratio']:+.1%} over {a['documents_paired']} documents paired by "
                f"name: {a['loop_cpu_seconds_per_document'] * 1000:.0f} → "
                f"{a['worker_cpu_seconds_per_document'] * 1000:.0f} ms each; worker/loop per document "
                f"median {r['median']:.3f}, quartiles {r['q1']:.3f}–{r['q3']:.3f}, halves "
                f"{r['median_first_half']:.3f} / {r['median_second_half']:.3f}); first documents (warm-up) "
                f"{a['warm_up_cpu_seconds']:+.2f}; worker outside documents "
                f"{a['worker_outside_documents_cpu_seconds']:.2f} (loop "
                f"{a['loop_outside_documents_cpu_seconds']:.2f}); driver {a['driver_cpu_seconds']:.2f}"
            )
        if "scaling_1_to_2" in c:
            print(
                f"  scaling 1 → 2 workers    {c['scaling_1_to_2']:.2f}× "
                f"({c['scaling_1_to_2_without_start']:.2f}× without start-up; goal ≥ 1.7×); CPU-s per "
                f"contract at 2 workers {c['cpu_per_contract_1_vs_2']:.2f}× that at 1"
            )
        for label, b in (("1", b1), ("2", b2)):
            if b:
                ws = b["worker_seconds"]
                print(
                    f"  {label} worker(s): peak RSS {b['worker_peak_rss_mb']} MB; database "
                    f"{b['db_mb_per_1000']} MB per 1,000; worker seconds reviewing {ws['review']:.1f} "
                    f"({ws.get('review_cpu', 0):.1f} CPU), writing {ws['write']:.1f} (lock waits included; "
                    f"{ws.get('write_cpu', 0):.1f} CPU)"
                )
    if "portfolio" in r:
        p = r["portfolio"]
        print(
            f"\nportfolio of a run of {p['reviews_stored']} stored reviews "
            f"(goal < 1 s; database {p['db_mb']} MB):"
        )
        for label in ("outcomes_and_counts", "with_quotes", "where_assignment_unacceptable"):
            m = p[label]
            print(
                f"  {label:<32} {m['seconds']:7.3f} s wall, {m['cpu_seconds']:7.3f} s CPU ({m['rows']} rows)"
            )
    if "dask_background" in r:
        d = r["dask_background"]
        dd, dl = d["default"], d["lean"]
        print(
            f"\nDask's own CPU over a {d['task_cpu_seconds']} CPU-s task on one worker: worker "
            f"+{dd['worker_extra_cpu_seconds']} CPU-s ({d['worker_extra_ratio']:.1%}) with the default "
            f"settings, +{dl['worker_extra_cpu_seconds']} ({d['worker_extra_ratio_lean']:.1%}) with "
            f"LEAN_DASK; driver {dd['driver_cpu_seconds']} against {dl['driver_cpu_seconds']} CPU-s"
        )
    if "lsh" in r:
        for t, m in r["lsh"].items():
            print(
                f"\nLSH vs exact Jaccard at {t} on {m['texts']} CUAD clause texts "
                f"({m['pairs_compared_exactly']} pairs): "
                f"recall {m['recall']} ({m['lsh_found']}/{m['true_pairs']}), exact {m['exact_seconds']} s, "
                f"LSH {m['lsh_seconds']} s"
            )


if __name__ == "__main__":
    main()
