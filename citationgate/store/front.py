"""`Store`: the one object the rest of the code holds, whatever the database.

On a SQLite file, the two steps every `verify` and `review` takes — find the version stored from a file's
bytes, write a review with its findings, audit entries and new version — run on `lite` (the standard
library's `sqlite3`), so such a run never imports SQLAlchemy. Everything else, and every other database
(PostgreSQL), runs on `database.OrmStore`, which is opened only when it is first needed. Both write the
same rows into the same schema, so each reads and checks what the other wrote.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from citationgate.audit import AuditEvent, ChainBreak, Head
from citationgate.audit import key_from_env as audit_key_from_env
from citationgate.store.lite import LiteStore
from citationgate.store.settings import resolve_url, sqlite_file
from citationgate.store.values import ReviewRecord, VersionRecord
from ingest.document import Document

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlmodel import Session

    from citationgate.store.connection import Database
    from citationgate.store.database import OrmStore
    from citationgate.store.migrate import Migration


class Store:
    """A CitationGate database. Open with `Store.open(db)`; every write is one transaction.

    `audit_key` (default: `CITATIONGATE_AUDIT_KEY`) makes every audit hash an HMAC under that key."""

    def __init__(self, url: str, *, audit_key: bytes | None = None) -> None:
        self.url = url
        self.audit_key = audit_key
        self._orm_store: OrmStore | None = None
        self._orm_lock = threading.Lock()  # one engine per Store, however many threads share it (MCP)
        path = sqlite_file(url)
        self._lite = LiteStore.open(path, url=url, audit_key=audit_key) if path is not None else None
        if self._lite is None:
            self._orm()  # opened now, so a bad URL fails here as before (and an old SQLite file migrates)

    @classmethod
    def open(cls, db: str | None = None) -> Store:
        return cls(resolve_url(db), audit_key=audit_key_from_env())

    def _orm(self) -> OrmStore:
        with self._orm_lock:
            if self._orm_store is None:
                from citationgate.store.database import OrmStore

                self._orm_store = OrmStore(self.url, audit_key=self.audit_key)
            return self._orm_store

    @property
    def engine(self) -> Engine:
        return self._orm().engine

    @property
    def _db(self) -> Database:
        return self._orm()._db

    # ── document versions ────────────────────────────────────────────────────────────────────
    def find_version(self, *, source_sha256: str, view: str) -> VersionRecord | None:
        """The stored version read from these exact bytes, in this view, by this version of the readers
        (reuse by hash), its text re-hashed. A version read by an older reader is not reused."""
        if self._lite is not None:
            from ingest.load import READER_VERSION

            return self._lite.find_version(source_sha256=source_sha256, view=view, reader=READER_VERSION)
        return self._orm().find_version(source_sha256=source_sha256, view=view)

    def save_version(self, document: Document, *, previous_version_id: int | None = None) -> VersionRecord:
        """Store a document version (or return the one already stored from the same bytes and view)."""
        return self._orm().save_version(document, previous_version_id=previous_version_id)

    def get_version(self, version_id: int) -> VersionRecord:
        return self._orm().get_version(version_id)

    def list_versions(self) -> list[dict[str, Any]]:
        """Every stored version, without its text: for `citationgate coverage`."""
        return self._orm().list_versions()

    def ready_versions(self) -> list[VersionRecord]:
        """The latest version of every document lineage that is ready to review."""
        return self._orm().ready_versions()

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
        writer: LiteStore | OrmStore = self._lite if self._lite is not None else self._orm()
        return writer.write_review(
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

    def get_review(self, review_id: int) -> ReviewRecord:
        """A stored review, refused if its findings, summary or document text were changed since."""
        return self._orm().get_review(review_id)

    def list_reviews(self) -> list[dict[str, Any]]:
        return self._orm().list_reviews()

    # ── for the batch records (citationgate.store_runs), which join a review's transaction ─────
    @contextmanager
    def _session(self) -> Iterator[Session]:
        """One write transaction under the database's write lock (no retry: the caller's unit of work)."""
        with self._orm()._session() as s:
            yield s

    def _lock(self, s: Session) -> None:
        """Nothing to do: a `_session()` holds the write lock from its start."""

    def _save_version(self, s: Session, document: Document, previous_version_id: int | None) -> VersionRecord:
        return self._orm()._save_version(s, document, previous_version_id)

    def _write_review(self, s: Session, **kwargs: Any) -> ReviewRecord:
        """`write_review` inside a caller's write transaction (`_session()`)."""
        return self._orm()._write_review(s, **kwargs)

    # ── audit ────────────────────────────────────────────────────────────────────────────────
    def append_audit(self, events: Sequence[AuditEvent]) -> Head:
        """Append entries that belong to no review (a check-answer run); returns the new head."""
        return self._orm().append_audit(events)

    def migrate_audit(self) -> Migration:
        """Re-seal a chain written before entries were numbered (`citationgate.store.migrate`)."""
        return self._orm().migrate_audit()

    def head(self) -> Head:
        """The chain's head: its last hash and its length (the genesis hash and 0 when empty)."""
        return self._orm().head()

    def audit_entries(self, *, limit: int | None = None) -> list[dict[str, Any]]:
        return self._orm().audit_entries(limit=limit)

    def check_audit(self, *, expect: str | None = None) -> tuple[int, ChainBreak | None]:
        """Verify the whole chain and the record it speaks for; returns the number of entries and the
        first break, if any. With `expect` (a head exported earlier), that head must still be in it."""
        return self._orm().check_audit(expect=expect)
