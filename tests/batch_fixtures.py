"""A small data room for the batch tests: a handful of short contracts, duplicates, and the files that fail.

Also `snapshot(url)`: what a store holds, without ids and timestamps, so two runs can be compared.
"""

from __future__ import annotations

import io
import json
import os
import signal
import struct
import zipfile
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin
from fpdf import FPDF

from citationgate.batch.engine import clause_titles
from citationgate.batch.sources import list_entries
from citationgate.batch.worker import review_chunk
from citationgate.store import Store
from citationgate.store_runs import RunStore, document_key
from playbooks import load_playbook

_PARAGRAPHS = (
    "MASTER SERVICES AGREEMENT {n}",
    'This Agreement is made between Acme Supplies Limited (the "Supplier") and Beta Holdings {n} plc '
    '(the "Customer").',
    "1. Services. The Supplier shall provide the Services described in Schedule 1 with reasonable skill "
    "and care.",
    "2. Fees. The Customer shall pay each undisputed invoice within thirty (30) days of receipt.",
    "3. Limitation of Liability. The Supplier's total liability under this Agreement shall not exceed the "
    "Charges paid in the twelve (12) months before the claim.",
    "4. Assignment. Neither party shall assign this Agreement without the prior written consent of the "
    "other party.",
    "5. Governing Law. This Agreement is governed by the laws of England and Wales.",
)
_CONTRACT = "\n\n".join(_PARAGRAPHS) + "\n"


def contract_text(n: int) -> str:
    return _CONTRACT.format(n=n)


def _png(width: int, height: int) -> bytes:
    def chunk(tag: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        )

    rows = b"".join(b"\x00" + bytes((x * 7 + y * 3) % 256 for x in range(width)) for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def scanned_pdf() -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.multi_cell(0, 6, "1. Services. The Supplier shall provide the Services described in Schedule 1. " * 4)
    pdf.add_page()
    pdf.image(io.BytesIO(_png(120, 160)), x=10, y=10, w=190, h=270)
    return bytes(pdf.output())


def encrypted_pdf() -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.multi_cell(0, 6, "1. Confidentiality. Each party shall keep the other's information confidential.")
    pdf.set_encryption(owner_password="owner-secret", user_password="s3cret")
    return bytes(pdf.output())


def plain_room(root: Path, n: int) -> Path:
    """`n` distinct short contracts in a folder."""
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (root / f"msa_{i:02d}.txt").write_text(contract_text(i), encoding="utf-8")
    return root


def messy_room(root: Path) -> Path:
    """Three contracts (one in three folders, one only in a zip), and one of each kind of failure."""
    (root / "a").mkdir(parents=True)
    (root / "b" / "deep").mkdir(parents=True)
    for where in ("a/msa_0.txt", "b/copy_of_msa_0.txt", "b/deep/msa_0 again.txt"):
        (root / where).write_text(contract_text(0), encoding="utf-8")
    (root / "a" / "msa_1.txt").write_text(contract_text(1), encoding="utf-8")
    (root / "a" / "empty.txt").write_bytes(b"")
    (root / "a" / "locked.pdf").write_bytes(encrypted_pdf())
    (root / "b" / "scan.pdf").write_bytes(scanned_pdf())
    (root / ".hidden.txt").write_text("not listed", encoding="utf-8")
    with zipfile.ZipFile(root / "b" / "room.zip", "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("inner/msa_2.txt", contract_text(2))
        zf.writestr("bomb.txt", b"\0" * (8 << 20))  # inflates >200× its compressed size
    return root


def snapshot(url: str) -> dict[str, Any]:
    """A store's reviews, findings, audit entries and batch records, without ids, times or order."""
    store = Store(url)
    runs = RunStore(store)
    reviews = []
    per_version: Counter[str] = Counter()
    for r in store.list_reviews():
        rec = store.get_review(r["id"])
        per_version[rec.version.document.source_sha256] += 1
        reviews.append(
            json.dumps(
                {"doc": rec.version.document.text_sha256, "summary": rec.summary, "findings": rec.findings},
                sort_keys=True,
            )
        )
    audit = []
    for e in store.audit_entries():
        payload = dict(e["payload"]) if isinstance(e["payload"], dict) else e["payload"]
        if isinstance(payload, dict):
            payload.pop("review_id", None)
            payload.pop("review_sha256", None)  # covers the review id: names the run too
        fields = {k: e[k] for k in ("action", "result", "actor", "document_sha256", "rule", "reason")}
        audit.append(json.dumps({**fields, "payload": payload}, sort_keys=True))
    docs = sorted((d["key"], d["status"], d["reason"]) for d in runs.documents())
    count, broken = store.check_audit()
    return {
        "reviews": sorted(reviews),
        "audit": sorted(audit),
        "documents": docs,
        "reviews_per_document": sorted(per_version.values()),
        "audit_intact": broken is None and count == len(audit),
    }


class KillOnce(WorkerPlugin):
    """In the worker, SIGKILL the process in the middle of `victim` — once (a marker file): after its review
    and before its write (`during="review"`), or while the reader is reading its bytes (`during="read"`)."""

    def __init__(self, victim: str, marker: str, *, during: str = "review") -> None:
        self.victim, self.marker, self.during = victim, marker, during

    def setup(self, worker: Any) -> None:
        victim, marker = self.victim, self.marker

        def kill() -> None:
            Path(marker).write_text("killed", encoding="utf-8")
            os.kill(os.getpid(), signal.SIGKILL)

        if self.during == "read":
            import ingest.plain

            real_read = ingest.plain.load_text

            def load_text(path: Path, data: bytes) -> Any:
                if path.name == victim and not Path(marker).exists():
                    kill()  # the bytes read, the document not yet made of them
                return real_read(path, data)

            ingest.plain.load_text = load_text
            return
        from citationgate.batch import worker as batch_worker

        real = batch_worker.review

        def review(document: Any, playbook: Any, **kw: Any) -> Any:
            result = real(document, playbook, **kw)
            if document.name == victim and not Path(marker).exists():
                kill()  # reviewed, not yet written: mid-document
            return result

        batch_worker.review = review


def run_in_process(room: Path, url: str) -> int:
    """What `run_batch` does, minus Dask: list, record the run, review every chunk here."""
    pb = load_playbook("msa-customer")
    ref = {"id": pb.id, "version": pb.version, "sha256": pb.sha256}
    runs = RunStore(Store(url))
    entries = list_entries([room])
    for e in entries:
        if e.get("source_sha256"):
            e["key"] = document_key(e["source_sha256"], playbook_sha256=pb.sha256, view="accepted", we=None)
    run_options = {"playbook": "msa-customer", "titles": clause_titles(pb)}
    run_id = runs.create_run(playbook=ref, options=run_options, entries=entries)
    items = {e["key"]: e for e in entries if e.get("key")}
    options = {"db": url, "playbook": "msa-customer", "playbook_ref": ref, "view": "accepted", "we": None}
    review_chunk(list(items.values()), options)
    runs.finish_run(run_id)
    return run_id
