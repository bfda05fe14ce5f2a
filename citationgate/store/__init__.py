"""Storage: the only package that imports SQLModel and SQLAlchemy.

SQLite by default (a file, WAL journal); any SQLAlchemy URL for a shared server (PostgreSQL). Values
stay values: the table classes live here and the rest of the code sees `Document`s and plain dicts. A
review — its document version, findings and audit entries — is written in one transaction, so a crash
leaves no half review; writers are serialised in the database itself (`connection`), and what is read
back is checked against the hashes it was written with (`record`).

The database is chosen by `--db` or `CITATIONGATE_DB` (a path or a SQLAlchemy URL); the default is
`$XDG_DATA_HOME/citationgate/citationgate.db` (`~/.local/share/citationgate/citationgate.db`).
"""

from citationgate.store.connection import ENV_VAR, default_db_path, resolve_url
from citationgate.store.database import ReviewRecord, Store, VersionRecord
from citationgate.store.record import RecordAlteredError

__all__ = [
    "ENV_VAR",
    "RecordAlteredError",
    "ReviewRecord",
    "Store",
    "VersionRecord",
    "default_db_path",
    "resolve_url",
]
