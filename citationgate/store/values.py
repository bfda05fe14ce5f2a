"""What the store hands out and what it writes, as plain values (no SQLAlchemy): both writers share them.

`database` writes through SQLAlchemy (PostgreSQL, and SQLite for everything else); `lite` writes a review
into a SQLite file with the standard library's `sqlite3`. Both build the rows they write here, so a review
written either way has the same columns, the same content hash and the same audit entries.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from citationgate.audit import AuditEvent, Head, entry_hash, event_fields
from ingest.document import Document


@dataclass(frozen=True, slots=True, kw_only=True)
class VersionRecord:
    id: int
    lineage: int
    version_no: int
    document: Document
    created_at: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewRecord:
    id: int
    kind: str
    version: VersionRecord
    parent_review_id: int | None
    playbook_id: str | None
    playbook_version: str | None
    playbook_sha256: str | None
    summary: dict[str, Any]
    findings: list[dict[str, Any]]
    created_at: datetime
    audit_head: Head | None = None  # the chain's head once this review's entries were in


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


@dataclass(frozen=True, slots=True, kw_only=True)
class FindingValues:
    """A finding's columns as written (what `review_sha256` hashes), before and without a table object."""

    key: str
    status: str
    rule: str | None
    severity: str | None
    payload: str

    def columns(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "status": self.status,
            "rule": self.rule,
            "severity": self.severity,
            "payload": self.payload,
        }


def finding_values(findings: Sequence[Mapping[str, Any]]) -> list[FindingValues]:
    return [
        FindingValues(
            key=str(f.get("id")),
            status=str(f.get("status")),
            rule=f.get("rule"),
            severity=f.get("severity"),
            payload=dumps(dict(f)),
        )
        for f in findings
    ]


def version_columns(document: Document) -> dict[str, Any]:
    """A document version's columns, but for its place in a lineage (`lineage`, `version_no`)."""
    return {
        "name": document.name,
        "file_type": document.file_type,
        "view": document.view,
        "text_sha256": document.text_sha256,
        "source_sha256": document.source_sha256,
        "reader": str(document.metadata.get("reader", "")),
        "status": document.status,
        "fidelity": document.fidelity.value,
        "fidelity_method": document.fidelity.method,
        "sections_found": len(document.sections),
        "sections_expected": document.sections_expected,
        "reasons": dumps(list(document.reasons)),
        "payload": dumps(document.to_dict()),
    }


def chain_rows(
    events: Sequence[AuditEvent],
    *,
    last: tuple[int, str],
    extra: Mapping[str, Any],
    key: bytes | None,
) -> tuple[list[dict[str, Any]], Head]:
    """The audit rows for `events` after the entry `last` (its number and hash): numbered on from it, each
    hashed in order and linked to the one before; and the head they make."""
    seq, prev = last
    rows: list[dict[str, Any]] = []
    for ev in events:
        fields = event_fields(ev)
        fields["payload"] = {**fields["payload"], **extra}
        seq += 1
        h = entry_hash(prev, fields, seq=seq, key=key)
        rows.append({**fields, "id": seq, "payload": dumps(fields["payload"]), "prev_hash": prev, "hash": h})
        prev = h
    return rows, Head(hash=prev, entries=seq)


def record_event(kind: str, document: Document) -> AuditEvent:
    """The entry a review with no decisions of its own writes, so that it too is in the chain."""
    return AuditEvent(
        action="record", result="stored", actor=f"citationgate:{kind}", document_sha256=document.text_sha256
    )
