"""The audit log: every gate decision, append-only and tamper-evident.

Each entry carries the SHA-256 of the entry before it; its own hash covers its fields and that link.
Changing, removing or reordering any stored entry breaks the chain at that point, and
`check_chain` names the first entry whose hash no longer follows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

GENESIS = "0" * 64


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditEvent:
    """One decision: who proposed what, against which document version, under which rule, and why."""

    action: str  # "citation" | "finding" | "absence" | "reverify" | "check-answer" | …
    result: str  # verified | failed | rejected | ambiguous | unverifiable | passed | stale | …
    actor: str  # the proposer: "playbook:msa-customer@1.0.0", "outside-agent", …
    document_sha256: str
    rule: str | None = None
    reason: str = ""
    payload: Mapping[str, Any] = field(default_factory=dict)  # proposal id, citation, thresholds…
    at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="microseconds"))


def entry_hash(prev_hash: str, fields: Mapping[str, Any]) -> str:
    """Hash of one entry: its fields in canonical JSON, chained to the previous entry's hash."""
    body = json.dumps(fields, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{prev_hash}\n{body}".encode()).hexdigest()


def event_fields(event: AuditEvent) -> dict[str, Any]:
    return {
        "at": event.at,
        "action": event.action,
        "result": event.result,
        "actor": event.actor,
        "document_sha256": event.document_sha256,
        "rule": event.rule,
        "reason": event.reason,
        "payload": dict(event.payload),
    }


@dataclass(frozen=True, slots=True, kw_only=True)
class ChainBreak:
    entry_id: int
    reason: str


def check_chain(entries: Iterable[tuple[int, Mapping[str, Any], str, str]]) -> ChainBreak | None:
    """Walk `(id, fields, prev_hash, hash)` in id order; return the first broken link, or None."""
    expected_prev = GENESIS
    for entry_id, fields, prev_hash, own_hash in entries:
        if prev_hash != expected_prev:
            return ChainBreak(entry_id=entry_id, reason="its link to the entry before does not match")
        if entry_hash(prev_hash, fields) != own_hash:
            return ChainBreak(entry_id=entry_id, reason="its contents do not match its hash")
        expected_prev = own_hash
    return None
