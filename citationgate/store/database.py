"""The store through SQLAlchemy: document versions, reviews with their findings, and the audit chain.

`OrmStore` does everything on any database (PostgreSQL, SQLite); `citationgate.store.Store` is what the
rest of the code holds, and hands a SQLite file's verify/review writes to `lite` instead (no SQLAlchemy
import on that path). The rows both write are built in `values`."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert
from sqlmodel import Session, SQLModel, col, select

from citationgate.audit import (
    GENESIS,
    AuditEvent,
    ChainBreak,
    Head,
    check_chain,
    scan_legacy,
)
from citationgate.audit import key_from_env as audit_key_from_env
from citationgate.errors import NotFoundError
from citationgate.store.connection import Database, resolve_url
from citationgate.store.record import check_review, cross_check, load_document, review_sha256
from citationgate.store.tables import AuditRow, DocumentVersionRow, FindingRow, ReviewRow
from citationgate.store.values import (
    ReviewRecord,
    VersionRecord,
    chain_rows,
    dumps,
    finding_values,
    record_event,
    version_columns,
)
from ingest.document import Document
from ingest.load import READER_VERSION

if TYPE_CHECKING:
    from citationgate.store.migrate import Migration


class OrmStore:
    """A CitationGate database through SQLAlchemy; every write is one transaction.

    `audit_key` (default: `CITATIONGATE_AUDIT_KEY`) makes every audit hash an HMAC under that key."""

    def __init__(self, url: str, *, audit_key: bytes | None = None) -> None:
        self.url = url
        self._db = Database(url)
        self.engine = self._db.engine
        self.audit_key = audit_key

    @classmethod
    def open(cls, db: str | None = None) -> OrmStore:
        return cls(resolve_url(db), audit_key=audit_key_from_env())

    # ── document versions ────────────────────────────────────────────────────────────────────
    def find_version(self, *, source_sha256: str, view: str) -> VersionRecord | None:
        """The stored version read from these exact bytes, in this view, by this version of the readers
        (reuse by hash), its text re-hashed. A version read by an older reader is not reused."""
        with self._db.read() as s:
            row = s.exec(
                select(DocumentVersionRow)
                .where(
                    DocumentVersionRow.source_sha256 == source_sha256,
                    DocumentVersionRow.view == view,
                    DocumentVersionRow.reader == READER_VERSION,
                )
                .order_by(col(DocumentVersionRow.id))
            ).first()
            return _version_record(row) if row else None

    def save_version(self, document: Document, *, previous_version_id: int | None = None) -> VersionRecord:
        """Store a document version (or return the one already stored from the same bytes and view)."""
        return self._db.write(lambda s: _save_version(s, document, previous_version_id))

    def get_version(self, version_id: int) -> VersionRecord:
        with self._db.read() as s:
            row = s.get(DocumentVersionRow, version_id)
            if row is None:
                raise NotFoundError(f"document version {version_id} is not in the store")
            return _version_record(row)

    def list_versions(self) -> list[dict[str, Any]]:
        """Every stored version, without its text: for `citationgate coverage`."""
        with self._db.read() as s:
            rows = s.exec(select(DocumentVersionRow).order_by(col(DocumentVersionRow.id))).all()
            return [
                {
                    "id": r.id,
                    "lineage": r.lineage,
                    "version_no": r.version_no,
                    "name": r.name,
                    "file_type": r.file_type,
                    "view": r.view,
                    "text_sha256": r.text_sha256,
                    "status": r.status,
                    "fidelity": r.fidelity,
                    "fidelity_method": r.fidelity_method,
                    "sections_found": r.sections_found,
                    "sections_expected": r.sections_expected,
                    "reasons": json.loads(r.reasons),
                    "created_at": r.created_at.isoformat(),
                }
                for r in rows
            ]

    def ready_versions(self) -> list[VersionRecord]:
        """The latest version of every document lineage that is ready to review."""
        with self._db.read() as s:
            rows = s.exec(select(DocumentVersionRow).order_by(col(DocumentVersionRow.id))).all()
            latest: dict[int, DocumentVersionRow] = {}
            for r in rows:
                latest[r.lineage or r.id or 0] = r
            return [_version_record(r) for r in latest.values() if r.status == "ready"]

    # ── reviews ──────────────────────────────────────────────────────────────────────────────
    def write_review(
        self,
        *,
        kind: str,
        document: Document,
        findings: Sequence[Mapping[str, Any]],
        audit: Sequence[AuditEvent] = (),
        version_id: int | None = None,
        previous_version_id: int | None = None,
        parent_review_id: int | None = None,
        playbook: Mapping[str, str] | None = None,
        summary: Mapping[str, Any] | None = None,
    ) -> ReviewRecord:
        """Write a document version (if new), a review, its findings and audit entries: all or nothing.
        The audit entries commit to the review's content hash; the review records the chain's head."""
        return self._db.write(
            lambda s: self._write_review(
                s,
                kind=kind,
                document=document,
                findings=findings,
                audit=audit,
                version_id=version_id,
                previous_version_id=previous_version_id,
                parent_review_id=parent_review_id,
                playbook=playbook,
                summary=summary,
            )
        )

    def _write_review(
        self,
        s: Session,
        *,
        kind: str,
        document: Document,
        findings: Sequence[Mapping[str, Any]],
        audit: Sequence[AuditEvent] = (),
        version_id: int | None = None,
        previous_version_id: int | None = None,
        parent_review_id: int | None = None,
        playbook: Mapping[str, str] | None = None,
        summary: Mapping[str, Any] | None = None,
    ) -> ReviewRecord:
        """`write_review` inside a caller's write transaction (`_session()`: the batch records join it)."""
        if version_id is None:
            version = _save_version(s, document, previous_version_id)
        else:
            row = s.get(DocumentVersionRow, version_id)
            if row is None:
                raise NotFoundError(f"document version {version_id} is not in the store")
            version = _version_record(row)
        review = ReviewRow(
            kind=kind,
            version_id=version.id,
            parent_review_id=parent_review_id,
            playbook_id=(playbook or {}).get("id"),
            playbook_version=(playbook or {}).get("version"),
            playbook_sha256=(playbook or {}).get("sha256"),
            summary=dumps(dict(summary or {})),
        )
        s.add(review)
        s.flush()
        rows = finding_values(findings)
        _insert_many(s, FindingRow, [{"review_id": review.id or 0, **r.columns()} for r in rows])
        review.content_sha256 = review_sha256(review, text_sha256=version.document.text_sha256, findings=rows)
        events = list(audit) or [record_event(kind, version.document)]
        head = self._append_audit(
            s, events, extra={"review_id": review.id, "review_sha256": review.content_sha256}
        )
        review.audit_head, review.audit_entries = head.hash, head.entries
        s.add(review)
        s.flush()
        return ReviewRecord(
            id=review.id or 0,
            kind=kind,
            version=version,
            parent_review_id=parent_review_id,
            playbook_id=review.playbook_id,
            playbook_version=review.playbook_version,
            playbook_sha256=review.playbook_sha256,
            summary=dict(summary or {}),
            findings=[dict(f) for f in findings],
            created_at=review.created_at,
            audit_head=head,
        )

    def get_review(self, review_id: int) -> ReviewRecord:
        """A stored review, refused if its findings, summary or document text were changed since."""
        with self._db.read() as s:
            review = s.get(ReviewRow, review_id)
            if review is None:
                raise NotFoundError(
                    f"review {review_id} is not in the store (see `citationgate findings --list`)"
                )
            version_row = s.get(DocumentVersionRow, review.version_id)
            if version_row is None:
                raise NotFoundError(f"document version {review.version_id} is not in the store")
            rows = s.exec(
                select(FindingRow).where(FindingRow.review_id == review_id).order_by(col(FindingRow.id))
            ).all()
            check_review(review, version_row, rows)
            return ReviewRecord(
                id=review.id or 0,
                kind=review.kind,
                version=_version_record(version_row),
                parent_review_id=review.parent_review_id,
                playbook_id=review.playbook_id,
                playbook_version=review.playbook_version,
                playbook_sha256=review.playbook_sha256,
                summary=json.loads(review.summary),
                findings=[json.loads(r.payload) for r in rows],
                created_at=review.created_at,
                audit_head=Head(hash=review.audit_head, entries=review.audit_entries)
                if review.audit_entries
                else None,
            )

    def list_reviews(self) -> list[dict[str, Any]]:
        with self._db.read() as s:
            out = []
            for r in s.exec(select(ReviewRow).order_by(col(ReviewRow.id))).all():
                v = s.get(DocumentVersionRow, r.version_id)
                n = len(s.exec(select(FindingRow.id).where(FindingRow.review_id == r.id)).all())
                out.append(
                    {
                        "id": r.id,
                        "kind": r.kind,
                        "document": v.name if v else None,
                        "version_id": r.version_id,
                        "parent_review_id": r.parent_review_id,
                        "playbook": f"{r.playbook_id}@{r.playbook_version}" if r.playbook_id else None,
                        "findings": n,
                        "created_at": r.created_at.isoformat(),
                    }
                )
            return out

    # ── for the batch records (citationgate.store_runs), which join a review's transaction ─────
    @contextmanager
    def _session(self) -> Iterator[Session]:
        """One write transaction under the database's write lock (no retry: the caller's unit of work)."""
        with self._db.write_session() as s:
            yield s

    def _lock(self, s: Session) -> None:
        """Nothing to do: a `_session()` holds the write lock from its start."""

    def _save_version(self, s: Session, document: Document, previous_version_id: int | None) -> VersionRecord:
        return _save_version(s, document, previous_version_id)

    # ── audit ────────────────────────────────────────────────────────────────────────────────
    def append_audit(self, events: Sequence[AuditEvent]) -> Head:
        """Append entries that belong to no review (a check-answer run); returns the new head."""
        return self._db.write(lambda s: self._append_audit(s, events, extra={}))

    def _append_audit(self, s: Session, events: Sequence[AuditEvent], *, extra: Mapping[str, Any]) -> Head:
        """Append under the write lock: number n+1 after the last entry, linked to its hash."""
        last = s.exec(select(AuditRow).order_by(col(AuditRow.id).desc()).limit(1)).first()
        rows, head = chain_rows(
            events, last=(last.id or 0, last.hash) if last else (0, GENESIS), extra=extra, key=self.audit_key
        )
        _insert_many(s, AuditRow, rows)
        return head

    def migrate_audit(self) -> Migration:
        """Re-seal a chain written before entries were numbered, once verified under its own rule
        (`citationgate.store.migrate`); nothing to do for a chain that checks."""
        from citationgate.store.migrate import migrate_audit

        return migrate_audit(self)

    def head(self) -> Head:
        """The chain's head: its last hash and its length (the genesis hash and 0 when empty)."""
        with self._db.read() as s:
            last = s.exec(select(AuditRow).order_by(col(AuditRow.id).desc()).limit(1)).first()
            return Head(hash=last.hash, entries=last.id or 0) if last else Head(hash=GENESIS, entries=0)

    def audit_entries(self, *, limit: int | None = None) -> list[dict[str, Any]]:
        with self._db.read() as s:
            q = select(AuditRow).order_by(col(AuditRow.id).desc())
            if limit:
                q = q.limit(limit)
            rows = list(reversed(s.exec(q).all()))
            return [{"id": r.id, **_audit_fields(r), "prev_hash": r.prev_hash, "hash": r.hash} for r in rows]

    def check_audit(self, *, expect: str | None = None) -> tuple[int, ChainBreak | None]:
        """Verify the whole chain and the record it speaks for; returns the number of entries and the
        first break, if any. With `expect` (a head exported earlier), that head must still be in it."""
        with self._db.read() as s:
            rows = s.exec(select(AuditRow).order_by(col(AuditRow.id))).all()
            entries = [(r.id or 0, _audit_fields(r), r.prev_hash, r.hash) for r in rows]
            broken = check_chain(entries, key=self.audit_key, expect=expect)
            if broken is not None and broken.entry_id is not None:
                legacy, legacy_break = scan_legacy(entries, key=self.audit_key)
                if legacy and legacy_break is None:
                    broken = ChainBreak(
                        entry_id=broken.entry_id,
                        reason="it was sealed under the rule of the first releases (entries unnumbered); "
                        "`citationgate audit --migrate` verifies the chain under that rule and re-seals it",
                    )
            if broken is None:
                reviews = s.exec(select(ReviewRow).order_by(col(ReviewRow.id))).all()
                versions = {v.id or 0: v for v in s.exec(select(DocumentVersionRow)).all()}
                findings: dict[int, list[FindingRow]] = {}
                for f in s.exec(select(FindingRow).order_by(col(FindingRow.id))).all():
                    findings.setdefault(f.review_id, []).append(f)
                broken = cross_check(rows, reviews, versions, findings)
            return len(entries), broken


def _insert_many(s: Session, table: type[SQLModel], rows: Sequence[Mapping[str, Any]]) -> None:
    """Many rows in one executemany inside the session's transaction (SQLAlchemy Core): no ORM object,
    validation or unit-of-work bookkeeping per row — a review of 1,000 findings writes 2,000+ rows."""
    if rows:
        s.flush()  # what the session holds (the review row) goes first: the rows refer to it
        s.connection().execute(insert(table.__table__), list(rows))  # type: ignore[attr-defined]


def _save_version(s: Session, document: Document, previous_version_id: int | None) -> VersionRecord:
    """Store `document` as a new version, or return the first version already stored from the same bytes,
    view and text by the same reader (under the write lock: checked and inserted in one transaction)."""
    existing = s.exec(
        select(DocumentVersionRow)
        .where(
            DocumentVersionRow.source_sha256 == document.source_sha256,
            DocumentVersionRow.view == document.view,
            DocumentVersionRow.text_sha256 == document.text_sha256,
            DocumentVersionRow.reader == str(document.metadata.get("reader", "")),
        )
        .order_by(col(DocumentVersionRow.id))
    ).first()
    if existing is not None and previous_version_id is None:
        return _version_record(existing)
    lineage, version_no = None, 1
    if previous_version_id is not None:
        prev = s.get(DocumentVersionRow, previous_version_id)
        if prev is None:
            raise NotFoundError(f"document version {previous_version_id} is not in the store")
        lineage = prev.lineage or prev.id
        version_no = prev.version_no + 1
    row = DocumentVersionRow(lineage=lineage, version_no=version_no, **version_columns(document))
    s.add(row)
    s.flush()
    if row.lineage is None:
        row.lineage = row.id
        s.add(row)
        s.flush()
    return _version_record(row)


def _audit_fields(r: AuditRow) -> dict[str, Any]:
    """The fields an audit entry's hash covers, as stored (a payload that is not JSON is kept as text,
    so tampering with it shows as a broken chain rather than an error)."""
    try:
        payload: Any = json.loads(r.payload)
    except ValueError:
        payload = r.payload
    return {
        "at": r.at,
        "action": r.action,
        "result": r.result,
        "actor": r.actor,
        "document_sha256": r.document_sha256,
        "rule": r.rule,
        "reason": r.reason,
        "payload": payload,
    }


def _version_record(row: DocumentVersionRow) -> VersionRecord:
    return VersionRecord(
        id=row.id or 0,
        lineage=row.lineage or row.id or 0,
        version_no=row.version_no,
        document=load_document(row),
        created_at=row.created_at,
    )
