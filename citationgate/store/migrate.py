"""Re-sealing an audit chain written before entries were numbered (`citationgate audit --migrate`).

The first releases sealed each entry as `sha256(prev_hash \\n fields)`: no number, no key, and entries
that spoke for no review's content. Such a chain fails today's `audit --check` at entry 1. The migration
first verifies the chain under the rule it was written with — every link, every hash, and the entries
the current release may have appended after it under the current rule — and refuses, changing nothing,
if any link fails there: a chain that was already broken is never blessed. Then, in one transaction:

- every entry is re-sealed under the current rule (numbered 1, 2, 3…; an HMAC under
  `CITATIONGATE_AUDIT_KEY` when it is set), its fields exactly as they were;
- every review written before reviews carried a content hash gets one, from its findings, summary and
  document text as they are now;
- one last entry records the migration itself: the rule verified, how many entries, the head before
  (so a head exported before the migration can be matched to it) and every review sealed;
- the reviews that remember a head are pointed at the re-sealed entry, and the whole record is checked
  again before the transaction commits.

What it cannot prove: that the old chain, or an old review, was not edited before the migration by
someone who recomputed the old hashes — the old rule had no key. From the migration on, they are sealed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlmodel import Session, col, select

from citationgate.audit import (
    GENESIS,
    LEGACY_RULE,
    AuditEvent,
    Head,
    check_chain,
    entry_hash,
    scan_legacy,
)
from citationgate.errors import AuditChainError
from citationgate.store.record import cross_check, review_sha256, stored_text_sha256
from citationgate.store.tables import AuditRow, DocumentVersionRow, FindingRow, ReviewRow

if TYPE_CHECKING:
    from citationgate.store.database import OrmStore as Store


@dataclass(frozen=True, slots=True, kw_only=True)
class Migration:
    """What `audit --migrate` did: nothing (`resealed` 0), or re-sealed a chain."""

    resealed: int  # entries re-sealed under the current rule (0: the chain needed nothing)
    legacy: int  # of which were sealed under the old rule
    sealed_reviews: int  # reviews given a content hash
    head_before: Head | None
    head: Head

    def to_dict(self) -> dict[str, Any]:
        return {
            "migrated": self.resealed > 0,
            "resealed": self.resealed,
            "legacy_entries": self.legacy,
            "sealed_reviews": self.sealed_reviews,
            "head_before": self.head_before.to_dict() if self.head_before else None,
            "head": self.head.to_dict(),
        }


def _record(s: Session) -> tuple[list[ReviewRow], dict[int, DocumentVersionRow], dict[int, list[FindingRow]]]:
    reviews = list(s.exec(select(ReviewRow).order_by(col(ReviewRow.id))).all())
    versions = {v.id or 0: v for v in s.exec(select(DocumentVersionRow)).all()}
    findings: dict[int, list[FindingRow]] = {}
    for f in s.exec(select(FindingRow).order_by(col(FindingRow.id))).all():
        findings.setdefault(f.review_id, []).append(f)
    return reviews, versions, findings


def migrate_audit(store: Store) -> Migration:
    """Re-seal `store`'s chain as described above; `AuditChainError` (nothing changed) if it is broken."""
    from citationgate.store.database import _audit_fields

    def run(s: Session) -> Migration:
        rows = list(s.exec(select(AuditRow).order_by(col(AuditRow.id))).all())
        entries = [(r.id or 0, _audit_fields(r), r.prev_hash, r.hash) for r in rows]
        last = rows[-1] if rows else None
        head_now = Head(hash=last.hash, entries=last.id or 0) if last else Head(hash=GENESIS, entries=0)
        if check_chain(entries, key=store.audit_key) is None:
            return Migration(resealed=0, legacy=0, sealed_reviews=0, head_before=None, head=head_now)
        legacy, broken = scan_legacy(entries, key=store.audit_key)
        if broken is not None or legacy == 0:
            where = f" at entry {broken.entry_id}" if broken is not None else ""
            why = broken.reason if broken is not None else "it was not written under the old rule either"
            raise AuditChainError(
                f"audit chain broken{where} under the rule it was written with ({why}): not migrated, "
                "nothing was changed"
            )
        reviews, versions, findings = _record(s)
        broken = cross_check(rows, reviews, versions, findings)
        if broken is not None:
            where = f" at entry {broken.entry_id}" if broken.entry_id is not None else ""
            raise AuditChainError(
                f"audit chain broken{where}: {broken.reason}: not migrated, nothing was changed"
            )

        renumbered: dict[int, tuple[int, str]] = {}
        sealed = [(r.id or 0, r, _audit_fields(r)) for r in rows]
        for r in rows:
            s.delete(r)
        s.flush()
        prev = GENESIS
        for seq, (old_id, r, fields) in enumerate(sealed, start=1):
            h = entry_hash(prev, fields, seq=seq, key=store.audit_key)
            s.add(
                AuditRow(
                    id=seq,
                    at=r.at,
                    action=r.action,
                    result=r.result,
                    actor=r.actor,
                    document_sha256=r.document_sha256,
                    rule=r.rule,
                    reason=r.reason,
                    payload=r.payload,
                    prev_hash=prev,
                    hash=h,
                )
            )
            renumbered[old_id] = (seq, h)
            prev = h
        s.flush()
        newly_sealed: dict[str, str] = {}
        for review in reviews:
            if review.audit_entries:
                review.audit_entries, review.audit_head = renumbered[review.audit_entries]
            if not review.content_sha256:
                version = versions.get(review.version_id)
                text_sha = stored_text_sha256(version) if version is not None else "missing"
                review.content_sha256 = review_sha256(
                    review, text_sha256=text_sha, findings=findings.get(review.id or 0, [])
                )
                newly_sealed[str(review.id)] = review.content_sha256
            s.add(review)
        head = store._append_audit(
            s,
            [
                AuditEvent(
                    action="migrate",
                    result="resealed",
                    actor="citationgate:audit --migrate",
                    document_sha256="",
                    reason=f"{len(rows)} entries verified under the rule they were written with ({legacy} "
                    f"under {LEGACY_RULE}) and re-sealed, numbered, under the current rule; "
                    f"{len(newly_sealed)} reviews written before content hashes sealed as they are now",
                    payload={
                        "legacy_rule": LEGACY_RULE,
                        "legacy_entries": legacy,
                        "head_before": head_now.to_dict(),
                        "sealed_reviews": newly_sealed,
                    },
                )
            ],
            extra={},
        )
        _add_unique_links(s)
        s.flush()
        after = list(s.exec(select(AuditRow).order_by(col(AuditRow.id))).all())
        entries = [(r.id or 0, _audit_fields(r), r.prev_hash, r.hash) for r in after]
        broken = check_chain(entries, key=store.audit_key) or cross_check(after, *_record(s))
        if broken is not None:  # a bug, not the data: roll back rather than write a chain that fails
            raise AuditChainError(
                f"the re-sealed chain does not check ({broken.reason}): nothing was changed"
            )
        return Migration(
            resealed=len(rows),
            legacy=legacy,
            sealed_reviews=len(newly_sealed),
            head_before=head_now,
            head=head,
        )

    return store._db.write(run)


def _add_unique_links(s: Session) -> None:
    """A database made by the first releases has no unique index on the chain's links (one successor per
    entry); add them, as the current schema declares (a no-op where they exist by these names)."""
    conn = s.connection()
    conn.exec_driver_sql("CREATE UNIQUE INDEX IF NOT EXISTS uq_audit_prev_hash ON audit (prev_hash)")
    conn.exec_driver_sql("CREATE UNIQUE INDEX IF NOT EXISTS uq_audit_hash ON audit (hash)")
