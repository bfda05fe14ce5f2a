"""Storage: the only module that imports SQLModel.

SQLite by default (a file, WAL journal, `BEGIN IMMEDIATE` so two writers queue instead of failing);
any SQLAlchemy URL for a shared server. Values stay values: the table classes live here and the
rest of the code sees `Document`s and plain dicts. A review — its document version, findings and
audit entries — is written in one transaction, so a crash leaves no half review.

The database is chosen by `--db` or `CITATIONGATE_DB` (a path or a SQLAlchemy URL); the default is
`$XDG_DATA_HOME/citationgate/citationgate.db` (`~/.local/share/citationgate/citationgate.db`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Field, Session, SQLModel, create_engine, select

from citationgate.audit import GENESIS, AuditEvent, ChainBreak, check_chain, entry_hash, event_fields
from citationgate.errors import NotFoundError, StoreError
from ingest.document import Document
from ingest.load import READER_VERSION

ENV_VAR = "CITATIONGATE_DB"


def default_db_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "citationgate" / "citationgate.db"


def resolve_url(db: str | None) -> str:
    """`--db` wins, then `CITATIONGATE_DB`, then the default file. A bare path becomes a SQLite URL."""
    value = db or os.environ.get(ENV_VAR) or str(default_db_path())
    if "://" in value:
        return value
    path = Path(value).expanduser()
    return f"sqlite:///{path}"


def _now() -> datetime:
    return datetime.now(UTC)


class DocumentVersionRow(SQLModel, table=True):
    __tablename__ = "document_versions"
    id: int | None = Field(default=None, primary_key=True)
    lineage: int | None = Field(default=None, index=True)  # id of the first version of this document
    version_no: int = 1
    name: str
    file_type: str
    view: str
    text_sha256: str = Field(index=True)
    source_sha256: str = Field(index=True)
    reader: str = ""  # ingest.load.READER_VERSION of the reader that produced the text
    status: str
    fidelity: float
    fidelity_method: str
    sections_found: int
    sections_expected: int | None = None
    reasons: str = "[]"
    payload: str  # Document.to_dict() as JSON, text included
    created_at: datetime = Field(default_factory=_now)


class ReviewRow(SQLModel, table=True):
    __tablename__ = "reviews"
    id: int | None = Field(default=None, primary_key=True)
    kind: str  # "review" | "verify" | "reverify"
    version_id: int = Field(foreign_key="document_versions.id", index=True)
    parent_review_id: int | None = Field(default=None, foreign_key="reviews.id")
    playbook_id: str | None = None
    playbook_version: str | None = None
    playbook_sha256: str | None = None
    summary: str = "{}"
    created_at: datetime = Field(default_factory=_now)


class FindingRow(SQLModel, table=True):
    __tablename__ = "findings"
    id: int | None = Field(default=None, primary_key=True)
    review_id: int = Field(foreign_key="reviews.id", index=True)
    key: str  # the finding's id within its review: "F1", "p1"…
    status: str
    rule: str | None = None
    severity: str | None = None
    payload: str  # Finding.to_dict() (or a reverification record) as JSON


class AuditRow(SQLModel, table=True):
    __tablename__ = "audit"
    id: int | None = Field(default=None, primary_key=True)
    at: str
    action: str
    result: str
    actor: str
    document_sha256: str
    rule: str | None = None
    reason: str = ""
    payload: str = "{}"
    prev_hash: str
    hash: str


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


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


class Store:
    """A CitationGate database. Open with `Store.open(db)`; every write is one transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            if url.startswith("sqlite:///"):
                Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
            self.engine: Engine = create_engine(url, connect_args=self._connect_args(url))
            if url.startswith("sqlite"):
                _make_sqlite_safe(self.engine)
            SQLModel.metadata.create_all(self.engine)
        except ImportError as exc:  # a server URL whose database driver is not installed
            raise StoreError(
                f"cannot open the database {_redact(url)}: its driver is not installed ({exc.name}); "
                "for PostgreSQL: pip install 'citationgate[postgres]' and use a postgresql+psycopg:// URL"
            ) from None
        except (SQLAlchemyError, OSError, ValueError) as exc:
            raise StoreError(f"cannot open the database {_redact(url)}: {_first_line(exc)}") from None

    @staticmethod
    def _connect_args(url: str) -> dict[str, Any]:
        return {"timeout": 30} if url.startswith("sqlite") else {}

    @classmethod
    def open(cls, db: str | None = None) -> Store:
        return cls(resolve_url(db))

    @contextmanager
    def _session(self) -> Iterator[Session]:
        try:
            with Session(self.engine) as session, session.begin():
                yield session
        except SQLAlchemyError as exc:
            raise StoreError(f"database error on {_redact(self.url)}: {_first_line(exc)}") from None

    # ── document versions ────────────────────────────────────────────────────────────────────
    def find_version(self, *, source_sha256: str, view: str) -> VersionRecord | None:
        """The stored version read from these exact bytes, in this view, by this version of the readers
        (reuse by hash). A version read by an older reader is not reused: the file is read again."""
        with self._session() as s:
            row = s.exec(
                select(DocumentVersionRow)
                .where(
                    DocumentVersionRow.source_sha256 == source_sha256,
                    DocumentVersionRow.view == view,
                    DocumentVersionRow.reader == READER_VERSION,
                )
                .order_by(DocumentVersionRow.id)  # type: ignore[arg-type]
            ).first()
            return _version_record(row) if row else None

    def save_version(self, document: Document, *, previous_version_id: int | None = None) -> VersionRecord:
        """Store a document version (or return the one already stored from the same bytes and view)."""
        with self._session() as s:
            return self._save_version(s, document, previous_version_id)

    def _save_version(self, s: Session, document: Document, previous_version_id: int | None) -> VersionRecord:
        existing = s.exec(
            select(DocumentVersionRow).where(
                DocumentVersionRow.source_sha256 == document.source_sha256,
                DocumentVersionRow.view == document.view,
                DocumentVersionRow.text_sha256 == document.text_sha256,
            )
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
        row = DocumentVersionRow(
            lineage=lineage,
            version_no=version_no,
            name=document.name,
            file_type=document.file_type,
            view=document.view,
            text_sha256=document.text_sha256,
            source_sha256=document.source_sha256,
            reader=str(document.metadata.get("reader", "")),
            status=document.status,
            fidelity=document.fidelity.value,
            fidelity_method=document.fidelity.method,
            sections_found=len(document.sections),
            sections_expected=document.sections_expected,
            reasons=_dumps(list(document.reasons)),
            payload=_dumps(document.to_dict()),
        )
        s.add(row)
        s.flush()
        if row.lineage is None:
            row.lineage = row.id
            s.add(row)
            s.flush()
        return _version_record(row)

    def get_version(self, version_id: int) -> VersionRecord:
        with self._session() as s:
            row = s.get(DocumentVersionRow, version_id)
            if row is None:
                raise NotFoundError(f"document version {version_id} is not in the store")
            return _version_record(row)

    def list_versions(self) -> list[dict[str, Any]]:
        """Every stored version, without its text: for `citationgate coverage`."""
        with self._session() as s:
            rows = s.exec(select(DocumentVersionRow).order_by(DocumentVersionRow.id)).all()  # type: ignore[arg-type]
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
        with self._session() as s:
            rows = s.exec(select(DocumentVersionRow).order_by(DocumentVersionRow.id)).all()  # type: ignore[arg-type]
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
        """Write a document version (if new), a review, its findings and audit entries: all or nothing."""
        with self._session() as s:
            self._lock(s)
            return self._write_review(
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

    def _write_review(
        self,
        s: Session,
        *,
        kind: str,
        document: Document,
        findings: Sequence[Mapping[str, Any]],
        audit: Sequence[AuditEvent],
        version_id: int | None,
        previous_version_id: int | None,
        parent_review_id: int | None,
        playbook: Mapping[str, str] | None,
        summary: Mapping[str, Any] | None,
    ) -> ReviewRecord:
        """`write_review` inside a caller's transaction (the batch records join it: one per document)."""
        if version_id is None:
            version = self._save_version(s, document, previous_version_id)
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
            summary=_dumps(dict(summary or {})),
        )
        s.add(review)
        s.flush()
        for f in findings:
            s.add(
                FindingRow(
                    review_id=review.id or 0,
                    key=str(f.get("id")),
                    status=str(f.get("status")),
                    rule=f.get("rule"),
                    severity=f.get("severity"),
                    payload=_dumps(dict(f)),
                )
            )
        self._append_audit(s, audit, review_id=review.id)
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
        )

    def get_review(self, review_id: int) -> ReviewRecord:
        with self._session() as s:
            review = s.get(ReviewRow, review_id)
            if review is None:
                raise NotFoundError(
                    f"review {review_id} is not in the store (see `citationgate findings --list`)"
                )
            version_row = s.get(DocumentVersionRow, review.version_id)
            assert version_row is not None
            rows = s.exec(
                select(FindingRow).where(FindingRow.review_id == review_id).order_by(FindingRow.id)  # type: ignore[arg-type]
            ).all()
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
            )

    def list_reviews(self) -> list[dict[str, Any]]:
        with self._session() as s:
            out = []
            for r in s.exec(select(ReviewRow).order_by(ReviewRow.id)).all():  # type: ignore[arg-type]
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

    # ── audit ────────────────────────────────────────────────────────────────────────────────
    def append_audit(self, events: Sequence[AuditEvent]) -> None:
        with self._session() as s:
            self._lock(s)
            self._append_audit(s, events, review_id=None)

    def _append_audit(self, s: Session, events: Sequence[AuditEvent], *, review_id: int | None) -> None:
        if not events:
            return
        last = s.exec(select(AuditRow).order_by(AuditRow.id.desc())).first()  # type: ignore[union-attr]
        prev = last.hash if last else GENESIS
        for ev in events:
            fields = event_fields(ev)
            if review_id is not None:
                fields["payload"] = {**fields["payload"], "review_id": review_id}
            h = entry_hash(prev, fields)
            s.add(
                AuditRow(
                    at=fields["at"],
                    action=fields["action"],
                    result=fields["result"],
                    actor=fields["actor"],
                    document_sha256=fields["document_sha256"],
                    rule=fields["rule"],
                    reason=fields["reason"],
                    payload=_dumps(fields["payload"]),
                    prev_hash=prev,
                    hash=h,
                )
            )
            prev = h

    def audit_entries(self, *, limit: int | None = None) -> list[dict[str, Any]]:
        with self._session() as s:
            q = select(AuditRow).order_by(AuditRow.id.desc())  # type: ignore[union-attr]
            if limit:
                q = q.limit(limit)
            rows = list(reversed(s.exec(q).all()))
            return [{"id": r.id, **_audit_fields(r), "prev_hash": r.prev_hash, "hash": r.hash} for r in rows]

    def check_audit(self) -> tuple[int, ChainBreak | None]:
        """Verify the whole chain; returns the number of entries and the first break, if any."""
        with self._session() as s:
            rows = s.exec(select(AuditRow).order_by(AuditRow.id)).all()  # type: ignore[arg-type]
            entries = [(r.id or 0, _audit_fields(r), r.prev_hash, r.hash) for r in rows]
            return len(entries), check_chain(entries)

    def _lock(self, s: Session) -> None:
        """Take the write lock first on SQLite, so concurrent writers queue rather than deadlock."""
        if self.engine.dialect.name == "sqlite":
            s.connection().exec_driver_sql("SELECT 1")


def _make_sqlite_safe(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


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
        document=Document.from_dict(json.loads(row.payload)),
        created_at=row.created_at,
    )


def _redact(url: str) -> str:
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


__all__ = ["ENV_VAR", "ReviewRecord", "Store", "VersionRecord", "default_db_path", "resolve_url"]
