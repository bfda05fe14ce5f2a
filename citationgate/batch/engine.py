"""The data room on Dask: list the room, skip what is done, review the rest in chunks, record everything.

`run_batch` is the whole engine behind `citationgate batch`. The driver lists the PATHs (keyed by content
hash), records the run and its listing in one transaction, and submits the documents not yet done in
chunks to a Dask cluster — a `LocalCluster` of worker processes by default, or any scheduler address.
Workers write straight into the store, one transaction per document (`worker.review_chunk`), so the driver
holds nothing that is not already durable: if it dies, `resume` lists the run's entries again from the
store and submits what is not done. A worker that dies mid-chunk has its task re-run by Dask on another
worker (the nanny restarts it); what it had committed is skipped. A chunk that kills its worker every time
is recorded as failed with that reason, and the run goes on.
"""

from __future__ import annotations

import logging
import math
import os
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citationgate.batch.sources import list_entries
from citationgate.batch.worker import review_chunk
from citationgate.errors import BatchError
from citationgate.store import Store, resolve_url
from citationgate.store_runs import DONE, FAILED, FINAL, WITHHELD, RunStore, document_key
from playbooks import load_playbook
from playbooks.schema import Playbook

__all__ = ["LEAN_DASK", "MAX_CHUNK", "Progress", "chunk_size", "clause_titles", "local_cluster", "run_batch"]

#: Documents per Dask task: enough to spread its few milliseconds of overhead, few enough to balance.
MAX_CHUNK = 50

#: Dask's own background work, turned down for a local cluster: the worker's statistical profiler (a stack
#: sample every 10 ms), the GIL and disk monitors and the 20 ms event-loop tick cost a worker ~7 % of a
#: core and the driver (scheduler and nannies) ~5 % while reviewing; with these, under 1 % each
#: (measured idle-vs-busy on this machine; see docs/batch_scale.md). For `dask worker` processes started
#: by hand, the same settings as environment variables are in the README's batch section.
LEAN_DASK: dict[str, Any] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.admin.system-monitor.disk": False,
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Progress:
    """Where a run stands, in documents (unique contents): sent to the caller's progress callback."""

    total: int
    done: int = 0
    failed: int = 0
    withheld: int = 0
    skipped: int = 0  # done or withheld before this run started

    @property
    def finished(self) -> int:
        return self.done + self.failed + self.withheld


def clause_titles(pb: Playbook) -> dict[str, str]:
    """The playbook's clause types and cross-clause checks, id → title (kept with the run)."""
    titles = {c.id: c.title for c in pb.clauses}
    titles.update({c.id: c.title for c in pb.checks})
    return titles


def chunk_size(documents: int, workers: int) -> int:
    """About four tasks per worker, at most MAX_CHUNK documents each (at least one)."""
    return max(1, min(MAX_CHUNK, math.ceil(documents / max(1, workers * 4))))


def run_batch(
    paths: Sequence[str | Path] = (),
    *,
    playbook: str = "msa-customer",
    db: str | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    resume: int | None = None,
    we: str | None = None,
    view: str = "accepted",
    chunk: int | None = None,
    client: Any = None,
    progress: Callable[[Progress], None] | None = None,
    on_outcome: Callable[[Mapping[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Review every document under `paths` (or continue run `resume`) and return the run summary.

    `client` is an existing `dask.distributed.Client` (tests and notebooks); otherwise one is made for
    `scheduler`, or a local cluster of `workers` processes (default: one per core). `on_outcome` is
    called with each document's outcome as it arrives (`key`, `status`, `name`, and for a document
    reviewed now its worker's `seconds`: wall and task-thread CPU reading + reviewing, and writing).
    """
    started = time.perf_counter()
    url = _absolute(resolve_url(db))
    runs = RunStore(Store(url))
    if resume is not None:
        run = runs.get_run(resume)
        run_id, options = resume, dict(run["options"])
        ref = run["playbook"]
    else:
        if not paths:
            raise BatchError("nothing to review: give at least one PATH (a folder, file, zip or manifest)")
        pb = load_playbook(playbook)
        ref = {"id": pb.id, "version": pb.version, "sha256": pb.sha256}
        titles = clause_titles(pb)
        options = {
            "playbook": playbook,
            "view": view,
            "we": we,
            "paths": [str(p) for p in paths],
            "titles": titles,
        }
        entries = list_entries(paths)
        for e in entries:
            if e.get("source_sha256"):
                e["key"] = document_key(e["source_sha256"], playbook_sha256=pb.sha256, view=view, we=we)
        run_id = runs.create_run(playbook=ref, options=options, entries=entries)

    listed = runs.entries(run_id)
    items: dict[str, dict[str, Any]] = {}
    for e in listed:
        if e["key"] and e["key"] not in items:
            items[e["key"]] = {"key": e["key"], "source_sha256": e["source_sha256"], "locator": e["locator"]}
    settled = runs.settled(list(items))
    todo = [item for k, item in items.items() if k not in settled]
    state = Counter(dict.fromkeys((DONE, FAILED, WITHHELD), 0))
    for st in settled.values():
        state[st] += 1
    skipped = len(settled)

    def report() -> None:
        if progress is not None:
            progress(
                Progress(
                    total=len(items),
                    done=state[DONE],
                    failed=state[FAILED],
                    withheld=state[WITHHELD],
                    skipped=skipped,
                )
            )

    report()
    task_options = {**options, "db": url, "playbook_ref": ref}
    reviewed = 0
    spent: Counter[str] = Counter({"review": 0.0, "write": 0.0})  # worker seconds, summed over documents
    if todo:
        own, dask_client = _client(client, scheduler, workers)
        try:
            n_workers = max(1, len(dask_client.scheduler_info().get("workers", {})) or (workers or 1))
            size = chunk or chunk_size(len(todo), n_workers)
            chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
            futures = {
                dask_client.submit(
                    review_chunk, c, task_options, pure=False, key=f"review-{run_id}-{i}-{time.time_ns()}"
                ): c
                for i, c in enumerate(chunks)
            }
            from distributed import as_completed

            for future in as_completed(list(futures)):  # type: ignore[no-untyped-call]
                try:
                    outcomes = future.result()
                except Exception as exc:  # the chunk killed its worker every time, or could not run
                    outcomes = _record_lost(runs, futures[future], task_options, exc)
                for o in outcomes:
                    if on_outcome is not None:
                        on_outcome(o)
                    state[o["status"]] += 1
                    reviewed += int(o["status"] == DONE and not o["already"])
                    for part, secs in (o.get("seconds") or {}).items():
                        spent[part] += secs
                report()
        finally:
            if own:
                _close(dask_client)
    runs.finish_run(run_id)
    seconds = time.perf_counter() - started
    return _summary(runs, run_id, reviewed=reviewed, skipped=skipped, seconds=seconds, spent=spent)


def _record_lost(
    runs: RunStore, chunk: Sequence[Mapping[str, Any]], options: Mapping[str, Any], exc: BaseException
) -> list[dict[str, Any]]:
    """Record every document of a chunk that did not finish as failed, saying why."""
    why = f"{type(exc).__name__}: {exc}".strip()
    if type(exc).__name__ == "KilledWorker":
        why = "the worker reviewing it died every time it was tried (crash or out of memory)"
    done = runs.settled([str(c["key"]) for c in chunk])
    out = []
    for item in chunk:
        key = str(item["key"])
        if key in done:
            out.append({"key": key, "status": done[key], "already": True})
            continue
        outcome = runs.write_outcome(
            key=key,
            source_sha256=str(item["source_sha256"]),
            playbook=options["playbook_ref"],
            view=str(options.get("view") or "accepted"),
            we=options.get("we"),
            name=Path(str(item["locator"].get("member") or item["locator"].get("file") or "")).name,
            status=FAILED,
            reason=why,
            transient=True,
        )
        out.append(outcome.to_dict())
    return out


def _summary(
    runs: RunStore,
    run_id: int,
    *,
    reviewed: int,
    skipped: int,
    seconds: float,
    spent: Mapping[str, float],
) -> dict[str, Any]:
    entries = runs.entries(run_id)
    by_entry = Counter(e["status"] for e in entries)
    docs: dict[str, str] = {}
    for e in entries:
        if e["key"]:
            docs[e["key"]] = e["status"]
    by_doc = Counter(docs.values())
    problems = [
        {"path": e["path"], "status": e["status"], "reason": e["reason"]}
        for e in entries
        if e["status"] not in (DONE,)
    ]
    return {
        "run": run_id,
        "entries": len(entries),
        "documents": len(docs),
        "done": by_doc[DONE],
        "failed": by_doc[FAILED] + sum(1 for e in entries if not e["key"]),
        "withheld": by_doc[WITHHELD],
        "pending": by_doc["pending"],
        "reviewed_now": reviewed,
        "skipped_already_done": skipped,
        "entries_by_status": dict(sorted(by_entry.items())),
        "seconds": round(seconds, 3),
        "documents_per_second": round(reviewed / seconds, 3) if seconds > 0 else None,
        # the workers' time, summed: reading and reviewing, then writing (waiting for the store's lock
        # included) — when "write" nears "review" / workers, the store is what limits the run
        "worker_seconds": {part: round(v, 3) for part, v in spent.items()},
        "not_done": problems,
        "complete": all(e["status"] in (*FINAL, FAILED) for e in entries),
    }


def _absolute(url: str) -> str:
    """Workers may run elsewhere (or in another folder): a SQLite path must not be relative."""
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
        return "sqlite:///" + str(Path(url.removeprefix("sqlite:///")).resolve())
    return url


def _client(client: Any, scheduler: str | None, workers: int | None) -> tuple[bool, Any]:
    if client is not None:
        return False, client
    try:
        from distributed import Client
    except ImportError:
        raise BatchError(
            "the batch engine needs Dask: pip install 'citationgate[batch]' (dask and distributed)"
        ) from None
    try:
        if scheduler:
            return True, Client(scheduler, timeout="15s")  # type: ignore[no-untyped-call]
        return True, Client(local_cluster(workers or os.cpu_count() or 1))  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        where = scheduler or "a local cluster"
        raise BatchError(f"cannot start or reach the Dask scheduler ({where}): {exc}") from None


def local_cluster(workers: int) -> Any:
    """A `LocalCluster` of `workers` single-threaded worker processes, with Dask's background work turned
    down (`LEAN_DASK`: the nannies hand the settings to the worker processes they start)."""
    import dask
    from distributed import LocalCluster

    with dask.config.set(LEAN_DASK):
        return LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": ":0"},  # its HTTP server on a free port, not 8787
            silence_logs=logging.ERROR,
        )


def _close(client: Any) -> None:
    cluster = getattr(client, "cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()
