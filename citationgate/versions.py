"""Reading a file into a stored document version, reusing one already stored from the same bytes."""

from __future__ import annotations

import hashlib
from pathlib import Path

from citationgate.store import Store, VersionRecord
from ingest.load import load_document


def ingest_file(
    store: Store, path: Path, *, view: str = "accepted", previous_version_id: int | None = None
) -> tuple[VersionRecord, bool]:
    """Ingest `path` (or reuse the stored version with the same bytes and view). Returns (version, reused)."""
    try:
        source_sha = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    except OSError:
        source_sha = None
    if source_sha is not None and previous_version_id is None:
        found = store.find_version(source_sha256=source_sha, view=view)
        if found is not None:
            return found, True
    document = load_document(path, view=view)
    return store.save_version(document, previous_version_id=previous_version_id), False
