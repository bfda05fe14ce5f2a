"""Opening a database and running transactions on it, safely beside other processes doing the same.

Reads never take the write lock. A write takes it first, in the database itself: `BEGIN IMMEDIATE` on
SQLite (WAL journal, so readers go on reading), a transaction-scoped advisory lock on PostgreSQL. So
writers queue one behind the other, the audit chain is appended by one writer at a time and never forks,
and a check-then-insert (a version stored once) is safe. A writer that waits past the busy timeout, or
loses a race the database caught (a unique constraint), runs its transaction again: what it writes was
computed before the transaction began, so nothing is lost; only after `WRITE_DEADLINE` seconds of
retrying does it give up, writing nothing.

Creating the schema is itself a write under the same lock, and is skipped when the tables are already
there, so concurrent first uses of an empty database do not race.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, event, inspect
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlmodel import Session, SQLModel, create_engine

from citationgate.errors import StoreError
from citationgate.store.ddl import STORE_TABLES
from citationgate.store.settings import (
    BUSY_TIMEOUT_S,
    ENV_VAR,
    WRITE_DEADLINE,
    default_db_path,
    first_line,
    is_contention,
    redact,
    resolve_url,
)
from citationgate.store.tables import ADDED_COLUMNS

__all__ = ["ENV_VAR", "Database", "default_db_path", "first_line", "redact", "resolve_url"]
_LOCK_KEY = 0x43474154  # "CGAT": the advisory lock every writer takes on PostgreSQL
_WRITE = "citationgate_write"

T = TypeVar("T")


class Database:
    """An engine with two kinds of transaction: `read()` and `write(fn)`."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            if url.startswith("sqlite:///"):
                Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
            connect_args: dict[str, Any] = {"timeout": BUSY_TIMEOUT_S} if self.is_sqlite else {}
            self.engine: Engine = create_engine(url, connect_args=connect_args)
            if self.is_sqlite:
                _make_sqlite_safe(self.engine)
            self._writer = self.engine.execution_options(**{_WRITE: True})
            if not self._schema_ready():
                self.write_connection(_create_schema)
        except ImportError as exc:  # a server URL whose database driver is not installed
            raise StoreError(
                f"cannot open the database {redact(url)}: its driver is not installed ({exc.name}); "
                "for PostgreSQL: pip install 'citationgate[postgres]' and use a postgresql+psycopg:// URL"
            ) from None
        except (SQLAlchemyError, OSError, ValueError) as exc:
            raise StoreError(f"cannot open the database {redact(url)}: {first_line(exc)}") from None

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def _schema_ready(self) -> bool:
        with self.engine.connect() as conn:
            insp = inspect(conn)
            tables = set(insp.get_table_names())
            # the store's own tables only: which other modules' tables are in SQLModel's metadata depends
            # on what the process imported (the batch records create theirs), and a reader must not need
            # the write lock to create them
            if not set(STORE_TABLES) <= tables:
                return False
            for table, columns in ADDED_COLUMNS.items():
                have = {c["name"] for c in insp.get_columns(table)}
                if not set(columns) <= have:
                    return False
            return True

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A read transaction: a snapshot, no write lock."""
        try:
            with Session(self.engine) as session, session.begin():
                yield session
        except SQLAlchemyError as exc:
            raise StoreError(f"database error on {redact(self.url)}: {first_line(exc)}") from None

    @contextmanager
    def write_session(self) -> Iterator[Session]:
        """One write transaction under the write lock, without retry (the caller owns the unit of work)."""
        try:
            with self._writer.begin() as conn:
                if self.dialect == "postgresql":
                    conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_LOCK_KEY})")
                with Session(bind=conn) as session:
                    yield session
                    session.flush()
        except SQLAlchemyError as exc:
            raise StoreError(f"database error on {redact(self.url)}: {first_line(exc)}") from None

    def write(self, fn: Callable[[Session], T]) -> T:
        """Run `fn` in one write transaction under the database's write lock, retrying as above."""

        def attempt(conn: Connection) -> T:
            with Session(bind=conn) as session:
                result = fn(session)
                session.flush()
                return result

        return self.write_connection(attempt)

    def write_connection(self, fn: Callable[[Connection], T]) -> T:
        deadline = time.monotonic() + WRITE_DEADLINE
        conflicts = 0
        while True:
            try:
                with self._writer.begin() as conn:
                    if self.dialect == "postgresql":
                        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_LOCK_KEY})")
                    return fn(conn)
            except OperationalError as exc:
                if not _is_contention(exc) or time.monotonic() > deadline:
                    waited = f" after retrying for {WRITE_DEADLINE:.0f} s" if _is_contention(exc) else ""
                    where = f"{redact(self.url)}{waited}"
                    raise StoreError(
                        f"database error on {where}: {first_line(exc)} (nothing was written)"
                    ) from None
            except IntegrityError as exc:
                conflicts += 1  # another writer got there first: read again and retry
                if conflicts > 5:
                    raise StoreError(
                        f"database error on {redact(self.url)}: {first_line(exc)} (nothing was written)"
                    ) from None
            except SQLAlchemyError as exc:
                raise StoreError(f"database error on {redact(self.url)}: {first_line(exc)}") from None
            time.sleep(random.uniform(0.01, 0.2))  # noqa: S311 — jitter, not crypto


def _is_contention(exc: OperationalError) -> bool:
    return is_contention(str(exc.orig))


def _create_schema(conn: Connection) -> None:
    SQLModel.metadata.create_all(conn, tables=[SQLModel.metadata.tables[t] for t in STORE_TABLES])
    insp = inspect(conn)
    for table, columns in ADDED_COLUMNS.items():
        have = {c["name"] for c in insp.get_columns(table)}
        for name, ddl in columns.items():
            if name not in have:
                conn.exec_driver_sql(f"ALTER TABLE {table} ADD COLUMN {name} {ddl}")


def _make_sqlite_safe(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_S * 1000}")  # first, so WAL's switch waits too
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # the write lock only for a write; a read is a plain (deferred) transaction
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(_WRITE) else "BEGIN")
