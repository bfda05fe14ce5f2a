"""`verify` as a library step: read (or reuse) a document, gate an outside agent's proposals, store it.

What `citationgate verify` does, for callers that hold proposals already parsed: one stored review of
kind "verify", written with its findings, its audit entries and (for a file not stored before) its
document version in one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used: `status_counts` alone needs none of them (`findings`, `audit`)
    from citationgate.gate import GateResult
    from citationgate.model import Proposal
    from citationgate.store import ReviewRecord, Store, VersionRecord


@dataclass(frozen=True, slots=True, kw_only=True)
class Verification:
    version: VersionRecord
    reused: bool  # the document version was already stored from the same bytes
    result: GateResult
    review: ReviewRecord

    @property
    def findings(self) -> list[dict[str, Any]]:
        return self.review.findings


def status_counts(findings: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How many findings have each status (verified, needs_review and rejected always present)."""
    counts: dict[str, int] = {"verified": 0, "needs_review": 0, "rejected": 0}
    for f in findings:
        status = str(f.get("status"))
        counts[status] = counts.get(status, 0) + 1
    return counts


def verify_and_store(
    store: Store,
    path: Path,
    proposals: Sequence[Proposal],
    *,
    view: str = "accepted",
    summary: Mapping[str, Any] | None = None,
) -> Verification:
    """Read `path` (or reuse its stored version), gate `proposals` against it and store the review — a
    new version with it, in the same transaction; the review's summary carries `summary` and the
    count of findings by status."""
    from citationgate.gate import gate
    from citationgate.versions import read_file

    reading = read_file(store, path, view=view)
    result = gate(reading.document, proposals)
    findings = [f.to_dict() for f in result.findings]
    record = store.write_review(
        kind="verify",
        document=reading.document,
        version_id=reading.version_id,
        findings=findings,
        audit=result.audit,
        summary={**(summary or {}), "counts": status_counts(findings)},
    )
    return Verification(version=record.version, reused=reading.reused, result=result, review=record)
