"""A SQLite file through the standard library's `sqlite3`: the two steps of `verify` and `review`.

Finding the version stored from a file's bytes, and writing a review with its findings, its audit entries
and (for a new file) its version, in one transaction — without importing SQLAlchemy, SQLModel or the
table classes, which cost a fresh process more than the rest of `verify` (`benchmarks/verify_phases.py`).
Everything else, and every other database (PostgreSQL), goes through `database.OrmStore`.

The same rules as `connection.Database`: WAL journal, foreign keys on, `BEGIN IMMEDIATE` for a write so
writers queue in the database itself, a busy timeout, a transaction retried while another writer holds
the lock or wins a race the database caught (a unique index), and never a half review. The rows are built
by `values`, as `OrmStore` builds them, and the schema is `ddl.SQLITE_SCHEMA`, what `SQLModel.metadata`
creates on SQLite (checked by a test), so either writer reads and checks what the other wrote:
`audit --check` after a review written here runs through SQLAlchemy.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from citationgate.audit import GENESIS, AuditEvent
from citationgate.errors import NotFoundError, StoreError
from citationgate.store.ddl import ADDED_COLUMNS, SQLITE_SCHEMA, STORE_TABLES
from citationgate.store.record import load_document, review_sha256
from citationgate.store.settings import BUSY_TIMEOUT_S, WRITE_DEADLINE, first_line, is_contention, redact
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

T = TypeVar("T")

_VERSION = (
    "SELECT id, lineage, version_no, name, text_sha256, source_sha256, payload, created_at "
    "FROM document_versions"
)
_AUDIT_COLUMNS = (
    "id",
    "at",
    "action",
    "result",
    "actor",
    "document_sha256",
    "rule",
    "reason",
    "payload",
    "prev_hash",
    "hash",
)
_FINDING_COLUMNS = ("review_id", "key", "status", "rule", "severity", "payload")


@dataclass(frozen=True, slots=True)
class _VersionRow:
    id: int
    lineage: int | None
    version_no: int
    name: str
    text_sha256: str
    source_sha256: str
    payload: str
    created_at: str


@dataclass(frozen=True, slots=True, kw_only=True)
class _ReviewValues:
    """The review's columns its content hash covers (`record.review_sha256`)."""

    id: int
    kind: str
    version_id: int
    parent_review_id: int | None
    playbook_id: str | None
    playbook_version: str | None
    playbook_sha256: str | None
    summary: str


def stored_datetime(at: datetime) -> str:
    """A datetime as SQLAlchemy's `DateTime` stores it in SQLite (the zone dropped), so both read it back."""
    return at.strftime("%Y-%m-%d %H:%M:%S.%f")


def read_datetime(stored: str) -> datetime:
    """A stored datetime back, in UTC as `OrmStore` reads it (every stored time was taken in UTC)."""
    at = datetime.fromisoformat(stored)
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


class LiteStore:
    """The verify/review steps of `Store` on one SQLite file. `open` returns None for a file whose schema
    is older than this release: `OrmStore` migrates it (the next open comes here)."""

    def __init__(self, path: Path, *, url: str, audit_key: bytes | None) -> None:
        self.path, self.url, self.audit_key = path, url, audit_key
        self._last_found: tuple[_VersionRow, VersionRecord] | None = None  # see `_stored_version`

    @classmethod
    def open(cls, path: Path, *, url: str, audit_key: bytes | None) -> LiteStore | None:
        store = cls(path, url=url, audit_key=audit_key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            state = store._read(_schema_state)
            if state == "empty":
                state = store._write(_create_schema)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open the database {redact(url)}: {_message(exc)}") from None
        return store if state == "ready" else None

    # ── the two steps ────────────────────────────────────────────────────────────────────────
    def find_version(self, *, source_sha256: str, view: str, reader: str) -> VersionRecord | None:
        """As `OrmStore.find_version`: the first version read from these bytes in this view by this reader,
        its text re-hashed."""

        def find(conn: sqlite3.Connection) -> _VersionRow | None:
            row = conn.execute(
                f'{_VERSION} WHERE source_sha256 = ? AND "view" = ? AND reader = ? ORDER BY id LIMIT 1',
                (source_sha256, view, reader),
            ).fetchone()
            return _VersionRow(*row) if row else None

        found = self._read(find)
        if found is None:
            return None
        record = _version_record(found)
        self._last_found = (found, record)
        return record

    def _stored_version(self, conn: sqlite3.Connection, version_id: int) -> VersionRecord:
        """The version a review is written about, read again under the write lock. When its row is the
        one `find_version` just read and re-hashed, to the byte, that record is used rather than parsing
        the same text again; any other row is read and re-hashed here."""
        found = conn.execute(f"{_VERSION} WHERE id = ?", (version_id,)).fetchone()
        if found is None:
            raise NotFoundError(f"document version {version_id} is not in the store")
        row = _VersionRow(*found)
        if self._last_found is not None and self._last_found[0] == row:
            return self._last_found[1]
        return _version_record(row)

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
        """As `OrmStore.write_review`: version (if new), review, findings, audit entries; all or nothing."""
        rows = finding_values(findings)  # computed before the transaction: a retry writes the same
        events = list(audit) or [record_event(kind, document)]
        summary_json = dumps(dict(summary or {}))
        pb = playbook or {}

        def write(conn: sqlite3.Connection) -> ReviewRecord:
            if version_id is None:
                version = _save_version(conn, document, previous_version_id)
            else:
                version = self._stored_version(conn, version_id)
            created = datetime.now(UTC)
            cur = conn.execute(
                "INSERT INTO reviews (kind, version_id, parent_review_id, playbook_id, playbook_version, "
                "playbook_sha256, summary, created_at, content_sha256, audit_head, audit_entries) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', '', 0)",
                (
                    kind,
                    version.id,
                    parent_review_id,
                    pb.get("id"),
                    pb.get("version"),
                    pb.get("sha256"),
                    summary_json,
                    stored_datetime(created),
                ),
            )
            review = _ReviewValues(
                id=int(cur.lastrowid or 0),
                kind=kind,
                version_id=version.id,
                parent_review_id=parent_review_id,
                playbook_id=pb.get("id"),
                playbook_version=pb.get("version"),
                playbook_sha256=pb.get("sha256"),
                summary=summary_json,
            )
            _insert_many(
                conn, "findings", _FINDING_COLUMNS, [(review.id, *r.columns().values()) for r in rows]
            )
            content = review_sha256(review, text_sha256=version.document.text_sha256, findings=rows)
            last = conn.execute("SELECT id, hash FROM audit ORDER BY id DESC LIMIT 1").fetchone()
            entries, head = chain_rows(
                events,
                last=(int(last[0]), str(last[1])) if last else (0, GENESIS),
                extra={"review_id": review.id, "review_sha256": content},
                key=self.audit_key,
            )
            _insert_many(
                conn, "audit", _AUDIT_COLUMNS, [tuple(e[c] for c in _AUDIT_COLUMNS) for e in entries]
            )
            conn.execute(
                "UPDATE reviews SET content_sha256 = ?, audit_head = ?, audit_entries = ? WHERE id = ?",
                (content, head.hash, head.entries, review.id),
            )
            return ReviewRecord(
                id=review.id,
                kind=kind,
                version=version,
                parent_review_id=parent_review_id,
                playbook_id=review.playbook_id,
                playbook_version=review.playbook_version,
                playbook_sha256=review.playbook_sha256,
                summary=dict(summary or {}),
                findings=[dict(f) for f in findings],
                created_at=created,
                audit_head=head,
            )

        return self._write(write)

    # ── transactions ─────────────────────────────────────────────────────────────────────────
    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_S * 1000}")  # first, so WAL's switch waits too
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """A read transaction: a snapshot, no write lock. SQLite can still answer "database is locked" to a
        reader at once, without its busy handler — opening a database another process is switching to WAL,
        or a WAL file being recovered — so a read that meets contention is tried again (it changes nothing),
        as a write is, until `WRITE_DEADLINE`."""
        deadline = time.monotonic() + WRITE_DEADLINE
        while True:
            try:
                conn = self._connect()
                try:
                    conn.execute("BEGIN")
                    try:
                        return fn(conn)
                    finally:
                        conn.execute("ROLLBACK")
                finally:
                    conn.close()
            except sqlite3.OperationalError as exc:
                if not is_contention(str(exc)) or time.monotonic() > deadline:
                    raise StoreError(f"database error on {redact(self.url)}: {_message(exc)}") from None
            except sqlite3.Error as exc:
                raise StoreError(f"database error on {redact(self.url)}: {_message(exc)}") from None
            time.sleep(random.uniform(0.01, 0.2))  # noqa: S311 — jitter, not crypto

    def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """`fn` in one transaction under the write lock, retried as `connection.Database.write_connection`."""
        deadline = time.monotonic() + WRITE_DEADLINE
        conflicts = 0
        while True:
            try:
                conn = self._connect()
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    try:
                        result = fn(conn)
                    except BaseException:
                        if conn.in_transaction:
                            conn.execute("ROLLBACK")
                        raise
                    conn.execute("COMMIT")
                    return result
                finally:
                    conn.close()
            except sqlite3.OperationalError as exc:
                contention = is_contention(str(exc))
                if not contention or time.monotonic() > deadline:
                    waited = f" after retrying for {WRITE_DEADLINE:.0f} s" if contention else ""
                    raise StoreError(
                        f"database error on {redact(self.url)}{waited}: {_message(exc)} (nothing was written)"
                    ) from None
            except sqlite3.IntegrityError as exc:
                conflicts += 1  # another writer got there first: read again and retry
                if conflicts > 5:
                    raise StoreError(
                        f"database error on {redact(self.url)}: {_message(exc)} (nothing was written)"
                    ) from None
            except sqlite3.Error as exc:
                raise StoreError(f"database error on {redact(self.url)}: {_message(exc)}") from None
            time.sleep(random.uniform(0.01, 0.2))  # noqa: S311 — jitter, not crypto


def _message(exc: BaseException) -> str:
    """The driver's message as SQLAlchemy's first line shows it: `(sqlite3.IntegrityError) …`."""
    if isinstance(exc, sqlite3.Error):
        return f"({type(exc).__module__}.{type(exc).__name__}) {first_line(exc)}"
    return first_line(exc)


def _schema_state(conn: sqlite3.Connection) -> str:
    """ "ready" (this release's schema), "empty" (none of the store's tables) or "old" (to migrate)."""
    tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    present = tables & set(STORE_TABLES)
    if not present:
        return "empty"
    if present != set(STORE_TABLES):
        return "old"
    for table, columns in ADDED_COLUMNS.items():
        have = {str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})")}
        if not set(columns) <= have:
            return "old"
    return "ready"


def _create_schema(conn: sqlite3.Connection) -> str:
    """Create the tables under the write lock, unless a concurrent first use did it meanwhile."""
    state = _schema_state(conn)
    if state == "empty":
        for statement in SQLITE_SCHEMA:
            conn.execute(statement)
        return "ready"
    return state


def _insert_many(
    conn: sqlite3.Connection, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
) -> None:
    if rows:
        conn.executemany(_insert_sql(table, columns), rows)


def _insert_sql(table: str, columns: Sequence[str]) -> str:
    """An INSERT of these columns; the names are the store's own constants, every value a parameter."""
    names = ", ".join(f'"{c}"' for c in columns)
    return f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' for _ in columns)})"  # noqa: S608


def _save_version(
    conn: sqlite3.Connection, document: Document, previous_version_id: int | None
) -> VersionRecord:
    """As `database._save_version`: the first version already stored from the same bytes, view and text
    by the same reader, else `document` stored as a new version (checked and inserted under the lock)."""
    values = version_columns(document)
    existing = conn.execute(
        f'{_VERSION} WHERE source_sha256 = ? AND "view" = ? AND text_sha256 = ? AND reader = ? '
        "ORDER BY id LIMIT 1",
        (values["source_sha256"], values["view"], values["text_sha256"], values["reader"]),
    ).fetchone()
    if existing is not None and previous_version_id is None:
        return _version_record(_VersionRow(*existing))
    lineage, version_no = None, 1
    if previous_version_id is not None:
        prev = conn.execute(f"{_VERSION} WHERE id = ?", (previous_version_id,)).fetchone()
        if prev is None:
            raise NotFoundError(f"document version {previous_version_id} is not in the store")
        row = _VersionRow(*prev)
        lineage, version_no = row.lineage or row.id, row.version_no + 1
    created = datetime.now(UTC)
    columns = {"lineage": lineage, "version_no": version_no, **values, "created_at": stored_datetime(created)}
    cur = conn.execute(_insert_sql("document_versions", list(columns)), tuple(columns.values()))
    new_id = int(cur.lastrowid or 0)
    if lineage is None:
        lineage = new_id
        conn.execute("UPDATE document_versions SET lineage = ? WHERE id = ?", (new_id, new_id))
    # the document just serialised into the row is the one in hand: no need to parse it back
    return VersionRecord(
        id=new_id, lineage=lineage, version_no=version_no, document=document, created_at=created
    )


def _version_record(row: _VersionRow) -> VersionRecord:
    return VersionRecord(
        id=row.id,
        lineage=row.lineage or row.id,
        version_no=row.version_no,
        document=load_document(row),
        created_at=read_datetime(row.created_at),
    )
