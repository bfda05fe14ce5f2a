"""Where the database is and how long a writer waits: shared by both ways of opening it (no SQLAlchemy here).

`connection` opens any SQLAlchemy URL (PostgreSQL, SQLite); `lite` opens a SQLite file with the standard
library's `sqlite3`, for the runs that only read a version and write a review (`verify`, `review`).
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "CITATIONGATE_DB"
BUSY_TIMEOUT_S = 10  # one wait for SQLite's write lock; then the transaction is tried again
WRITE_DEADLINE = 600.0  # seconds of retrying before a write gives up


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


def sqlite_file(url: str) -> Path | None:
    """The file of a plain `sqlite:///PATH` URL (no driver, no query, not in memory), else None."""
    if not url.startswith("sqlite:///"):
        return None
    path = url.removeprefix("sqlite:///")
    if not path or path == ":memory:" or "?" in path or path.startswith("file:"):
        return None
    return Path(path)


def is_contention(message: str) -> bool:
    """A driver's error message that says another writer holds the lock (wait and try again)."""
    text = message.lower()
    return any(
        s in text for s in ("database is locked", "database table is locked", "busy", "deadlock", "serializ")
    )


def redact(url: str) -> str:
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url


def first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
