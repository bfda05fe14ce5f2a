"""The audit log: every gate decision, append-only and tamper-evident.

Each entry carries the hash of the entry before it; its own hash covers its number, its fields and
that link. Changing, removing, renumbering or reordering any stored entry breaks the chain at that
point, and `check_chain` names the first entry whose hash no longer follows. The entries a review writes
also commit to the review itself (its findings, summary and document version, `review_sha256`), so the
record they speak for cannot be edited under them.

What a chain of plain hashes cannot prove: someone with write access to the database can rewrite an
entry and recompute every hash after it, or cut the tail off, and the chain checks again. Two remedies,
as Certificate Transparency's signed tree heads do it: a secret key (`CITATIONGATE_AUDIT_KEY`), with which
every hash is an HMAC that cannot be recomputed without it, and the head (the last hash and the count)
exported to a place the attacker cannot write, which `check_chain(..., expect=HEAD)` then finds again.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from citationgate.jsontext import canonical

GENESIS = "0" * 64
KEY_ENV_VAR = "CITATIONGATE_AUDIT_KEY"


def key_from_env() -> bytes | None:
    """The HMAC key for the chain, from `CITATIONGATE_AUDIT_KEY` (None when unset or empty)."""
    value = os.environ.get(KEY_ENV_VAR, "")
    return value.encode() if value else None


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


def canonical_json(value: Any) -> str:
    """The text an entry's hash is taken of: sorted keys, no spaces (`citationgate.jsontext.canonical`)."""
    return canonical(value)


def entry_hash(prev_hash: str, fields: Mapping[str, Any], *, seq: int, key: bytes | None = None) -> str:
    """Hash of entry number `seq`: its fields in canonical JSON, chained to the previous entry's hash;
    an HMAC-SHA256 under `key` when there is one."""
    message = f"{prev_hash}\n{seq}\n{canonical_json(fields)}".encode()
    if key is not None:
        return hmac.new(key, message, hashlib.sha256).hexdigest()
    return hashlib.sha256(message).hexdigest()


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
    entry_id: int | None  # None: the break is not at one entry (an expected head that is gone)
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Head:
    """The chain's head: the hash of its last entry and how many entries it has."""

    hash: str
    entries: int

    def to_dict(self) -> dict[str, Any]:
        return {"hash": self.hash, "entries": self.entries}


def check_chain(
    entries: Iterable[tuple[int, Mapping[str, Any], str, str]],
    *,
    key: bytes | None = None,
    expect: str | None = None,
) -> ChainBreak | None:
    """Walk `(id, fields, prev_hash, hash)` in id order; return the first broken link, or None.

    Entries are numbered 1, 2, 3… with no gap, and each number is hashed. With `expect` (a head printed
    earlier, its hash alone or `HASH:COUNT`), that head must still be in the chain, at that count: a chain
    cut short or rewritten before it fails even though its links check."""
    want_hash, _, want_count = (expect or "").strip().partition(":")
    expected_prev, seen, head_found = GENESIS, 0, not want_hash
    for entry_id, fields, prev_hash, own_hash in entries:
        seen += 1
        if entry_id != seen:
            return ChainBreak(entry_id=entry_id, reason=f"it is numbered {entry_id} where {seen} belongs")
        if prev_hash != expected_prev:
            return ChainBreak(entry_id=entry_id, reason="its link to the entry before does not match")
        if entry_hash(prev_hash, fields, seq=entry_id, key=key) != own_hash:
            # a chain written under a key fails at its first entry when checked without it
            hint = f" (if it was written with {KEY_ENV_VAR} set, set it to check)" if entry_id == 1 else ""
            return ChainBreak(entry_id=entry_id, reason=f"its contents do not match its hash{hint}")
        if want_hash and own_hash == want_hash:
            if want_count and want_count != str(entry_id):
                return ChainBreak(
                    entry_id=entry_id,
                    reason=f"the expected head is entry {entry_id} here, not entry {want_count}",
                )
            head_found = True
        expected_prev = own_hash
    if not head_found:
        return ChainBreak(
            entry_id=None,
            reason=f"the expected head {want_hash[:16]}… is not in the chain of {seen} entries: "
            "entries after it were removed, or the chain was rewritten",
        )
    return None


# ── chains written before entries were numbered ──────────────────────────────────────────────────────
#: The rule the first releases sealed entries with: no number, no key, `sha256(prev_hash \n fields)`.
LEGACY_RULE = "sha256(prev_hash + '\\n' + fields), entries unnumbered"


def legacy_entry_hash(prev_hash: str, fields: Mapping[str, Any]) -> str:
    """An entry's hash under the first releases' rule (`LEGACY_RULE`)."""
    return hashlib.sha256(f"{prev_hash}\n{canonical_json(fields)}".encode()).hexdigest()


def scan_legacy(
    entries: Iterable[tuple[int, Mapping[str, Any], str, str]], *, key: bytes | None = None
) -> tuple[int, ChainBreak | None]:
    """Walk a chain that may begin with entries sealed under `LEGACY_RULE` (ids rising, gaps allowed, as
    those releases wrote them) and go on with entries sealed under the current rule (numbered by their
    id, as the current release appends them after such a chain). Returns how many entries the legacy
    prefix has, and the first link that holds under neither rule (None: the chain is intact as written)."""
    expected_prev, legacy, last_id, in_prefix = GENESIS, 0, 0, True
    for entry_id, fields, prev_hash, own_hash in entries:
        if entry_id <= last_id:
            return legacy, ChainBreak(entry_id=entry_id, reason=f"it is numbered {entry_id} after {last_id}")
        if prev_hash != expected_prev:
            return legacy, ChainBreak(entry_id=entry_id, reason="its link to the entry before does not match")
        if in_prefix and legacy_entry_hash(prev_hash, fields) == own_hash:
            legacy += 1
        elif entry_hash(prev_hash, fields, seq=entry_id, key=key) == own_hash:
            in_prefix = False
        else:
            return legacy, ChainBreak(
                entry_id=entry_id,
                reason="its contents do not match its hash, under the rule it was written with or the "
                "current one",
            )
        expected_prev, last_id = own_hash, entry_id
    return legacy, None
