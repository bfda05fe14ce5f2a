"""What runs on a Dask worker: a chunk of documents, each read, reviewed and written in its own transaction.

A chunk is 10–50 documents (one Dask task), so the ~4 ms a task costs is spread over them. Every document
is independent: one that cannot be read, is withheld, or raises is recorded with its reason and the chunk
goes on. A document already recorded done (a chunk re-run after its worker died) is skipped without
reading it again; the unique key in the store makes a double write impossible even if two workers race.
"""

from __future__ import annotations

import gc
import hashlib
import multiprocessing
import time
from collections.abc import Mapping, Sequence
from typing import Any

from citationgate.batch.cells import portfolio_cells
from citationgate.batch.sources import read_bytes
from citationgate.errors import StoreError, WithheldDocumentError
from citationgate.review import finding_dict, review
from citationgate.store import Store
from citationgate.store_runs import DONE, FAILED, WITHHELD, RunStore
from ingest.errors import CitationGateError
from ingest.load import load_bytes
from playbooks import load_playbook
from playbooks.schema import Playbook

__all__ = ["review_chunk"]

# One store and one playbook per worker process, opened by the first chunk that needs them.
_STORES: dict[str, RunStore] = {}
_PLAYBOOKS: dict[str, Playbook] = {}
# Documents this process has read and reviewed: the first pays the worker's warm-up (the readers' and the
# engine's first imports, the playbook's compilation, the locator's weights), which its outcome says.
_REVIEWED = [0]


def _runs(db_url: str) -> RunStore:
    if db_url not in _STORES:
        try:
            _STORES[db_url] = RunStore(Store(db_url))
        except StoreError:  # another process was creating the same tables at that moment: once more
            time.sleep(0.5)
            _STORES[db_url] = RunStore(Store(db_url))
    return _STORES[db_url]


def _playbook(spec: str, sha256: str) -> Playbook:
    if spec not in _PLAYBOOKS:
        _PLAYBOOKS[spec] = load_playbook(spec)
    pb = _PLAYBOOKS[spec]
    if pb.sha256 != sha256:
        raise CitationGateError(
            f"playbook {spec!r} changed since the run started (hash {pb.sha256[:12]}, run has {sha256[:12]})"
        )
    return pb


def review_chunk(chunk: Sequence[Mapping[str, Any]], options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Review every document of `chunk` into the store at `options["db"]`; one outcome dict per document.

    Each item: `key`, `source_sha256`, `locator` (see `sources.read_bytes`). Options: `db` (a SQLAlchemy
    URL), `playbook` (the spec given to `load_playbook`), `playbook_ref` (id, version, sha256), `view`, `we`.
    """
    runs = _runs(str(options["db"]))
    ref = dict(options["playbook_ref"])
    settled = runs.settled([str(item["key"]) for item in chunk])
    out: list[dict[str, Any]] = []
    for item in chunk:
        key = str(item["key"])
        if key in settled:
            out.append({"key": key, "status": settled[key], "reason": "", "review_id": None, "already": True})
            continue
        t0, c0 = time.perf_counter(), time.thread_time()
        record = _one(item, options, ref)
        t1, c1 = time.perf_counter(), time.thread_time()
        outcome = runs.write_outcome(**record).to_dict()
        t2, c2 = time.perf_counter(), time.thread_time()
        # where a worker's time goes: reading and reviewing, then writing (waiting for the lock included),
        # in seconds of wall time and of this thread's CPU (what the task did, not the worker's event loop)
        outcome["name"] = record["name"]
        outcome["first_in_process"] = _REVIEWED[0] == 0
        _REVIEWED[0] += 1
        if _REVIEWED[0] == 1:
            _freeze_warm_heap()
        outcome["seconds"] = {
            "review": round(t1 - t0, 4),
            "write": round(t2 - t1, 4),
            "review_cpu": round(c1 - c0, 4),
            "write_cpu": round(c2 - c1, 4),
        }
        out.append(outcome)
    return out


def _freeze_warm_heap() -> None:
    """Once a worker process has reviewed its first document, move everything then alive (the modules,
    the compiled playbook, the locator's weights, the store's engine) out of the cyclic garbage
    collector's reach: they live as long as the process, and every full collection would walk them again.
    Measured on 24 CUAD PDFs (`benchmarks/batch_paired.py --arms loop,worker_a,worker_nofreeze`, paired,
    load 8–12): the full collections' time per PDF 123 → 13 ms, the task's CPU −38 ± 35 ms of ~1,340
    (≈ −3 %). Only in a worker process of its own (a nanny's child): a caller running the engine in its
    own process (a threads cluster, a test) keeps its collector as it was."""
    if multiprocessing.parent_process() is None:
        return
    gc.collect()
    gc.freeze()


def _one(item: Mapping[str, Any], options: Mapping[str, Any], ref: Mapping[str, str]) -> dict[str, Any]:
    """Read and review one document: what `RunStore.write_outcome` is to record (its keyword arguments)."""
    key, sha = str(item["key"]), str(item["source_sha256"])
    view = str(options.get("view") or "accepted")
    we = str(options["we"]) if options.get("we") else None
    common: dict[str, Any] = {
        "key": key,
        "source_sha256": sha,
        "playbook": ref,
        "view": view,
        "we": we,
        "name": str(item.get("name") or ""),
    }
    document = None
    try:
        pb = _playbook(str(options["playbook"]), ref["sha256"])
        name, data = read_bytes(item["locator"])
        common["name"] = name
        if hashlib.sha256(data).hexdigest() != sha:
            return {
                **common,
                "status": FAILED,
                "reason": f"{name}: the file changed since it was listed; list it again",
            }
        # read from the bytes just hashed: what is reviewed is what was checked, and no copy is left on
        # disk if the worker dies here
        document = load_bytes(name, data, view=view)
        result = review(document, pb, we=we)
    except WithheldDocumentError:
        assert document is not None
        reasons = "; ".join(document.reasons) or "no reason recorded"
        return {**common, "status": WITHHELD, "reason": reasons, "document": document}
    except CitationGateError as exc:
        return {**common, "status": FAILED, "reason": str(exc)}
    except Exception as exc:  # a bug in one document's review must not stop the room
        return {
            **common,
            "status": FAILED,
            "reason": f"internal error ({type(exc).__name__}): {exc}",
            "transient": True,
        }
    findings = [finding_dict(f) for f in result.findings]
    return {
        **common,
        "status": DONE,
        "document": document,
        "findings": findings,
        "audit": result.audit,
        "summary": result.summary,
        "cells": portfolio_cells(findings, result.summary),
    }
