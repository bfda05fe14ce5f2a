"""Storage: the only package that touches the database (and the only one that imports SQLModel/SQLAlchemy).

SQLite by default (a file, WAL journal); any SQLAlchemy URL for a shared server (PostgreSQL). Values
stay values: the table classes live here and the rest of the code sees `Document`s and plain dicts. A
review — its document version, findings and audit entries — is written in one transaction, so a crash
leaves no half review; writers are serialised in the database itself (`connection`, `lite`), and what is
read back is checked against the hashes it was written with (`record`). `Store` (`front`) is what callers
hold: on a SQLite file a review is found and written with the standard library (`lite`), everything else
through SQLAlchemy (`database`), imported only when needed.

The database is chosen by `--db` or `CITATIONGATE_DB` (a path or a SQLAlchemy URL); the default is
`$XDG_DATA_HOME/citationgate/citationgate.db` (`~/.local/share/citationgate/citationgate.db`).
"""

from citationgate.store.front import Store
from citationgate.store.record import RecordAlteredError
from citationgate.store.settings import ENV_VAR, default_db_path, resolve_url
from citationgate.store.values import ReviewRecord, VersionRecord

__all__ = [
    "ENV_VAR",
    "RecordAlteredError",
    "ReviewRecord",
    "Store",
    "VersionRecord",
    "default_db_path",
    "resolve_url",
]
