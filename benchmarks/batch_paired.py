"""Benchmark: where a document costs more inside a batch worker than in the review loop, paired per document.

    python benchmarks/batch_paired.py [--pdfs | --texts N] [--limit N]
                                      [--arms loop,main,thread,frozen,worker_a,worker_b,worker_loop,
                                              worker_default,worker_notrim,worker_nofreeze]
                                      [--json OUT]

Every document goes once through every *arm*, the arms in a rotated order from one document to the next,
so a swing in the machine's load falls on all of them alike; each arm writes to its own SQLite store.
The arms separate what differs between `benchmarks/batch.py`'s loop and its one-worker batch:

- `loop`: the review command's code (`api.review_run`: read, hash, look up, review, store) in this
  process's main thread — the loop baseline of `benchmarks/batch.py`.
- `main`: the batch worker's code (`worker.review_chunk` on one document: read and hash the bytes,
  `load_bytes`, review, `write_outcome`) in this process's main thread: the code against the loop's.
- `thread`: the same in a plain `threading.Thread` of this process: a non-main thread, no event loop.
- `frozen`: the same as `main` with every object alive before the document moved out of the garbage
  collector's reach (`gc.collect(); gc.freeze()` before it, `gc.unfreeze()` after; the collection is not
  counted): what the collector's full passes over the process's long-lived heap (modules, the compiled
  playbook, the locator) cost a document.
- `worker_a`, `worker_b`: the same as a Dask task on each of the two workers of a `LEAN_DASK` local
  cluster (the cluster `citationgate batch` starts): Dask's task thread beside its event loop, in a
  process of its own; two workers, so that two fresh processes doing the same work can be compared.
- `worker_loop`: the review command's code as a task on `worker_a`: the process, not the code.
- `worker_default`: the batch code on a one-worker cluster with Dask's default settings (profiler every
  10 ms, GIL and system monitors, 20 ms tick): what `LEAN_DASK` changes.
- `worker_notrim`: the batch code on a one-worker `LEAN_DASK` cluster whose worker is started without
  the `MALLOC_TRIM_THRESHOLD_=65536` Dask's nanny sets (glibc's adaptive thresholds, as in a shell).
- `worker_nofreeze`: the batch code on a one-worker `LEAN_DASK` cluster whose worker gave its frozen warm
  heap back to the collector (`gc.unfreeze()`): a worker as it was before it froze its heap after its
  first document (`worker._freeze_warm_heap`); `worker_a` against it is what the freeze saves.

Each measurement is taken where the arm runs, around the document only: wall, the running thread's CPU,
the whole process's CPU (the difference is the process's other threads: the worker's event loop), minor
page faults and the garbage collector's time. The first document goes through every arm first and is
reported apart as the warm-up (the first arm in each process pays that process's imports, playbook
compilation, locator weights and the PDF readers' first use; every arm's first call opens its store).
Reported per arm over the other documents: mean CPU per document, the paired difference against `loop`
(mean ± standard error) and the median per-document ratio. `uptime`'s load average is printed at the
start and end: the paired figures survive a shared machine, the wall times do not.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "cuad"
ARMS = (
    "loop",
    "main",
    "thread",
    "frozen",
    "worker_a",
    "worker_b",
    "worker_loop",
    "worker_default",
    "worker_notrim",
    "worker_nofreeze",
)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ── what runs where the arm runs (this module is imported by name on the workers) ───────────────────
class _GcClock:
    """CPU seconds (of the thread that collects) and count of this process's garbage collections (a
    `gc.callbacks` entry; a collection runs in the thread whose allocation triggered it)."""

    def __init__(self) -> None:
        self.seconds, self.collections, self._t0 = 0.0, 0, 0.0
        self.full_seconds, self.full = 0.0, 0  # the oldest generation's (the whole heap's) part

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t0 = time.thread_time()
        else:
            took = time.thread_time() - self._t0
            self.seconds += took
            self.collections += 1
            if info.get("generation") == 2:
                self.full_seconds += took
                self.full += 1


_CLOCK: list[_GcClock] = []
_STORES: dict[str, Any] = {}


def _gc_clock() -> _GcClock:
    if not _CLOCK:
        _CLOCK.append(_GcClock())
        gc.callbacks.append(_CLOCK[0])
    return _CLOCK[0]


def _usage() -> tuple[float, int]:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime, u.ru_minflt


def process_cpu() -> float:
    """This process's CPU seconds so far (sent to a worker with `client.run`)."""
    return _usage()[0]


def measured(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
    """Run `fn` here and say what it cost: wall, this thread's CPU, the process's CPU, page faults, GC."""
    clock = _gc_clock()
    (p0, f0), g0, n0 = _usage(), clock.seconds, clock.collections
    fs0, fn0 = clock.full_seconds, clock.full
    w0, c0 = time.perf_counter(), time.thread_time()
    fn(*args, **kwargs)
    w1, c1 = time.perf_counter(), time.thread_time()
    p1, f1 = _usage()
    return {
        "wall": w1 - w0,
        "thread_cpu": c1 - c0,
        "process_cpu": p1 - p0,
        "minflt": f1 - f0,
        "gc_seconds": clock.seconds - g0,
        "gc_collections": clock.collections - n0,
        "gc_full_seconds": clock.full_seconds - fs0,
        "gc_full_collections": clock.full - fn0,
        "pid": os.getpid(),
        "main_thread": threading.current_thread() is threading.main_thread(),
    }


def loop_one(path: str, url: str) -> None:
    """What `citationgate review FILE --db URL` does, into this process's store for `url`."""
    from citationgate.api import review_run
    from citationgate.store import Store

    if url not in _STORES:
        _STORES[url] = Store(url)
    review_run(Path(path), store=_STORES[url])


def batch_one(item: dict[str, Any], options: dict[str, Any]) -> None:
    """What a batch worker does with one document (a one-document chunk)."""
    from citationgate.batch.worker import review_chunk

    (outcome,) = review_chunk([item], options)
    if outcome["status"] != "done":
        raise RuntimeError(f"{item['locator']}: {outcome['status']}: {outcome['reason']}")


def frozen_one(item: dict[str, Any], options: dict[str, Any]) -> None:
    """`batch_one` with the heap alive before it frozen (see the `frozen` arm)."""
    gc.freeze()
    try:
        batch_one(item, options)
    finally:
        gc.unfreeze()


def unfrozen_one(item: dict[str, Any], options: dict[str, Any]) -> None:
    """`batch_one` in a worker whose frozen heap went back to the collector (see `worker_nofreeze`)."""
    gc.unfreeze()
    batch_one(item, options)


def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """`fn(*args)` in a plain thread of this process (no event loop beside it); its result."""
    box: list[Any] = []
    t = threading.Thread(target=lambda: box.append(fn(*args)))
    t.start()
    t.join()
    return box[0]


# ── the driver ─────────────────────────────────────────────────────────────────────────────────
class Arms:
    """Each arm's way of running one document, its store, and the clusters behind the worker arms."""

    def __init__(self, arms: tuple[str, ...], tmp: Path, playbook_ref: dict[str, str]) -> None:
        from distributed import Client

        from citationgate.batch.engine import local_cluster

        self.arms, self.tmp = arms, tmp
        self.options = {
            arm: {
                "db": f"sqlite:///{tmp / arm}.db",
                "playbook": "msa-customer",
                "playbook_ref": playbook_ref,
                "view": "accepted",
                "we": None,
            }
            for arm in arms
        }
        self.clusters: list[Any] = []
        self.client: Any = None
        self.single: dict[str, Any] = {}  # arm → the client of its own one-worker cluster
        self.workers: dict[str, str] = {}
        if any(a in arms for a in ("worker_a", "worker_b", "worker_loop")):
            cluster = local_cluster(2)
            self.clusters.append(cluster)
            self.client = Client(cluster)
            self.client.wait_for_workers(2)
            a, b = sorted(self.client.scheduler_info()["workers"])
            self.workers = {"worker_a": a, "worker_b": b, "worker_loop": a}
        for arm in ("worker_default", "worker_notrim", "worker_nofreeze"):
            if arm not in arms:
                continue
            if arm == "worker_default":
                from batch import _default_cluster  # benchmarks/batch.py: one worker, Dask's defaults

                cluster = _default_cluster()
            elif arm == "worker_nofreeze":
                cluster = local_cluster(1)
            else:
                import dask

                with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
                    saved = os.environ.pop("MALLOC_TRIM_THRESHOLD_", None)  # the nanny would pass it on
                    try:
                        cluster = local_cluster(1)
                    finally:
                        if saved is not None:
                            os.environ["MALLOC_TRIM_THRESHOLD_"] = saved
            self.clusters.append(cluster)
            self.single[arm] = Client(cluster)
            self.single[arm].wait_for_workers(1)

    def close(self) -> None:
        for c in (self.client, *self.single.values()):
            if c is not None:
                c.close()
        for cluster in self.clusters:
            cluster.close()

    def worker_cpu(self) -> dict[str, float]:
        """Each worker process's CPU seconds so far, by arm (`worker_loop` shares `worker_a`'s)."""
        out: dict[str, float] = {}
        if self.client is not None:
            got = self.client.run(process_cpu)
            out.update({arm: got[addr] for arm, addr in self.workers.items()})
        for arm, client in self.single.items():
            out[arm] = next(iter(client.run(process_cpu).values()))
        return out

    def run(self, arm: str, path: Path, item: dict[str, Any]) -> dict[str, Any]:
        opts = self.options[arm]
        if arm == "loop":
            return measured(loop_one, str(path), opts["db"])
        if arm == "main":
            return measured(batch_one, item, opts)
        if arm == "thread":
            return in_thread(measured, batch_one, item, opts)  # type: ignore[no-any-return]
        if arm == "frozen":
            gc.collect()
            return measured(frozen_one, item, opts)
        if arm == "worker_loop":
            fut = self.client.submit(
                measured, loop_one, str(path), opts["db"], workers=[self.workers[arm]], pure=False
            )
        elif arm == "worker_nofreeze":
            fut = self.single[arm].submit(measured, unfrozen_one, item, opts, pure=False)
        elif arm in self.single:
            fut = self.single[arm].submit(measured, batch_one, item, opts, pure=False)
        else:
            fut = self.client.submit(measured, batch_one, item, opts, workers=[self.workers[arm]], pure=False)
        return fut.result()  # type: ignore[no-any-return]


def uptime() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def files_for(args: argparse.Namespace, tmp: Path) -> list[Path]:
    if args.pdfs:
        files = sorted((DATA / "pdf").glob("*.pdf"))
    else:
        files = sorted((DATA / "texts").glob("*.txt"))[: args.texts]
    return files[: args.limit] if args.limit else files


def summarise(arms: tuple[str, ...], rows: list[dict[str, dict[str, Any]]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    base = [r["loop"]["thread_cpu"] for r in rows] if "loop" in arms else None
    for arm in arms:
        cpu = [r[arm]["thread_cpu"] for r in rows]
        m: dict[str, Any] = {
            "documents": len(cpu),
            "thread_cpu_ms_per_document": round(statistics.fmean(cpu) * 1000, 1),
            "wall_ms_per_document": round(statistics.fmean(r[arm]["wall"] for r in rows) * 1000, 1),
            "other_threads_cpu_ms_per_document": round(
                statistics.fmean(r[arm]["process_cpu"] - r[arm]["thread_cpu"] for r in rows) * 1000, 1
            ),
            "minor_faults_per_document": round(statistics.fmean(r[arm]["minflt"] for r in rows)),
            "gc_ms_per_document": round(statistics.fmean(r[arm]["gc_seconds"] for r in rows) * 1000, 1),
            "gc_collections_per_document": round(statistics.fmean(r[arm]["gc_collections"] for r in rows), 1),
            "gc_full_ms_per_document": round(
                statistics.fmean(r[arm]["gc_full_seconds"] for r in rows) * 1000, 1
            ),
            "gc_full_collections_per_document": round(
                statistics.fmean(r[arm]["gc_full_collections"] for r in rows), 2
            ),
        }
        if base is not None and arm != "loop" and len(cpu) > 1:
            diff = [a - b for a, b in zip(cpu, base, strict=True)]
            m["minus_loop_ms_per_document"] = round(statistics.fmean(diff) * 1000, 1)
            m["minus_loop_standard_error_ms"] = round(statistics.stdev(diff) / len(diff) ** 0.5 * 1000, 1)
            m["ratio_of_sums_to_loop"] = round(sum(cpu) / sum(base), 4)
            ratios = [a / b for a, b in zip(cpu, base, strict=True)]
            m["median_ratio_to_loop"] = round(statistics.median(ratios), 4)
        out[arm] = m
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pdfs", action="store_true", help="the 40 shared CUAD PDFs (default: CUAD texts)")
    ap.add_argument("--texts", type=int, default=60, help="how many CUAD texts (without --pdfs)")
    ap.add_argument("--limit", type=int, default=0, help="at most this many documents (the first is warm-up)")
    ap.add_argument("--arms", default=",".join(ARMS), help=f"comma-separated, of {', '.join(ARMS)}")
    ap.add_argument("--json", type=Path, help="write the figures (and every measurement) here as JSON")
    args = ap.parse_args()
    arms = tuple(a.strip() for a in args.arms.split(",") if a.strip())
    if unknown := set(arms) - set(ARMS):
        sys.exit(f"Error: unknown arm(s) {', '.join(sorted(unknown))} (expected {', '.join(ARMS)})")
    if not DATA.is_dir():
        sys.exit(f"Error: {DATA} not found (expected ../shared/data beside the checkout)")

    from citationgate.store_runs import document_key
    from playbooks import load_playbook

    start = uptime()
    log(f"[paired] start: {start}")
    tmp = Path(tempfile.mkdtemp(prefix="cg-batch-paired-"))
    files = files_for(args, tmp)
    pb = load_playbook("msa-customer")
    ref = {"id": pb.id, "version": pb.version, "sha256": pb.sha256}
    items = []
    for p in files:
        sha = hashlib.sha256(p.read_bytes()).hexdigest()
        key = document_key(sha, playbook_sha256=pb.sha256, view="accepted", we=None)
        items.append({"key": key, "source_sha256": sha, "locator": {"file": str(p)}, "name": p.name})
    runner = Arms(arms, tmp, ref)
    results: dict[str, Any] = {"arms": arms, "documents": [p.name for p in files], "load_start": start}
    try:
        # warm-up: the first document through every arm, in order; a worker's whole process CPU around
        # its first task is reported too (it includes unpickling the task, which imports the worker module)
        warm: dict[str, Any] = {}
        for arm in arms:
            before = runner.worker_cpu()
            r = runner.run(arm, files[0], items[0])
            after = runner.worker_cpu()
            if arm in after:
                r["worker_process_cpu"] = after[arm] - before[arm]
            warm[arm] = r
            log(f"[paired] warm-up {arm}: {r['thread_cpu']:.3f} CPU-s ({r['wall']:.3f} s)")
        results["warm_up"] = warm
        rows: list[dict[str, dict[str, Any]]] = []
        for i, (path, item) in enumerate(zip(files[1:], items[1:], strict=True)):
            k = i % len(arms)
            row = {arm: runner.run(arm, path, item) for arm in arms[k:] + arms[:k]}
            rows.append(row)
            log(
                f"[paired] {i + 1}/{len(files) - 1} {path.name[:40]}: "
                + " ".join(f"{a} {row[a]['thread_cpu']:.3f}" for a in arms)
                + f"  ({uptime()})"
            )
        results["rows"] = [{"name": p.name, **r} for p, r in zip(files[1:], rows, strict=True)]
        results["summary"] = summarise(arms, rows)
        results["load_end"] = uptime()
    finally:
        runner.close()
        shutil.rmtree(tmp, ignore_errors=True)
    report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


def report(r: dict[str, Any]) -> None:
    n = len(r["rows"])
    print(f"{n} documents paired across {len(r['arms'])} arms; {r['load_start']} → {r['load_end']}")
    print("\nwarm-up (the first document, through each arm in this order):")
    for arm, w in r["warm_up"].items():
        extra = f"; the worker process {w['worker_process_cpu']:.3f}" if "worker_process_cpu" in w else ""
        print(f"  {arm:<15} {w['thread_cpu']:7.3f} CPU-s in its thread{extra} ({w['wall']:.3f} s wall)")
    print("\nper document after it (CPU of the thread that ran it; ms):")
    for arm, m in r["summary"].items():
        vs = ""
        if "minus_loop_ms_per_document" in m:
            vs = (
                f"  vs loop {m['minus_loop_ms_per_document']:+7.1f} "
                f"± {m['minus_loop_standard_error_ms']:.1f} "
                f"(sums {m['ratio_of_sums_to_loop']:.3f}×, median {m['median_ratio_to_loop']:.3f}×)"
            )
        print(
            f"  {arm:<15} {m['thread_cpu_ms_per_document']:7.1f}  wall {m['wall_ms_per_document']:7.1f}  "
            f"other threads {m['other_threads_cpu_ms_per_document']:5.1f}  faults "
            f"{m['minor_faults_per_document']:6d}  gc {m['gc_ms_per_document']:5.1f} "
            f"({m['gc_collections_per_document']}; full {m['gc_full_ms_per_document']:.1f} in "
            f"{m['gc_full_collections_per_document']}){vs}"
        )


if __name__ == "__main__":
    # run as this module's own name, so the functions sent to workers are found there by reference
    sys.path[:0] = [str(ROOT), str(Path(__file__).resolve().parent)]
    import batch_paired

    batch_paired.main()
