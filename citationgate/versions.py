"""Reading a file into a document version, reusing one already stored from the same bytes.

Two verbs. `ingest_file` reads and stores the version at once (`citationgate ingest`, `ask`). `read_file`
reads without storing: a run that stores a result about the file (`review`, `verify`) hands the
`Reading` to `Store.write_review`, which stores a new version in the same transaction as the review, its
findings and its audit entries — so a failure anywhere before that commit stores nothing at all, and
the database never holds a version whose review was lost.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from citationgate.store import Store, VersionRecord
from ingest.document import Document
from ingest.load import load_document


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """A file as a run sees it: the version stored before from the same bytes (`stored`), or the
    document read just now and not stored yet (`stored` None: the run's own write stores it)."""

    document: Document
    stored: VersionRecord | None = None

    @property
    def version_id(self) -> int | None:
        return self.stored.id if self.stored is not None else None

    @property
    def reused(self) -> bool:
        return self.stored is not None


def read_file(store: Store, path: Path, *, view: str = "accepted") -> Reading:
    """The stored version read from `path`'s exact bytes in `view` (its text re-hashed), else `path`
    read now; nothing is written."""
    try:
        source_sha = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    except OSError:
        source_sha = None
    if source_sha is not None:
        found = store.find_version(source_sha256=source_sha, view=view)
        if found is not None:
            return Reading(document=found.document, stored=found)
    return Reading(document=load_document(path, view=view))


def ingest_file(
    store: Store, path: Path, *, view: str = "accepted", previous_version_id: int | None = None
) -> tuple[VersionRecord, bool]:
    """Ingest `path` (or reuse the stored version with the same bytes and view). Returns (version, reused)."""
    if previous_version_id is None:
        reading = read_file(store, path, view=view)
        if reading.stored is not None:
            return reading.stored, True
        document = reading.document
    else:
        document = load_document(path, view=view)
    return store.save_version(document, previous_version_id=previous_version_id), False
