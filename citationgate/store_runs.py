"""Storage of batch runs: the store layer's tables for `citationgate batch` (a block of its own).

Three tables beside the store's own:

- `batch_runs`: one row per run (its options, so `--resume` needs nothing but the id).
- `batch_entries`: one row per path listed in a run (a file in three folders is three entries).
- `batch_documents`: one row per reviewed *content*, keyed by the hash of the source bytes, the playbook's
  hash, the view and the party we are — the same bytes are reviewed once whatever their path, and a rerun
  finds them done. It is written in the same transaction as the review it points at (`write_outcome`), and
  its key is unique, so a document is never reviewed into the store twice, whichever worker gets there.

Like `citationgate.store`, this is the only place these rows are SQL; the rest of the batch sees dicts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Column, Index, Text, UniqueConstraint, delete, func, insert, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel import Field, Session, SQLModel, select

from citationgate.audit import AuditEvent
from citationgate.errors import NotFoundError, StoreError
from citationgate.store import Store
from citationgate.store.connection import redact as _redact
from ingest.document import Document

__all__ = [
    "DocumentOutcome",
    "RunStore",
    "document_key",
]

DONE, FAILED, WITHHELD = "done", "failed", "withheld"
_AUDIT_LOCK = 0x43474155  # "CGAU": the advisory lock key batch writers serialise on (PostgreSQL)
FINAL = (DONE, WITHHELD, FAILED)  # a rerun does not try these again, except a transient failure


def _now() -> datetime:
    return datetime.now(UTC)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def document_key(source_sha256: str, *, playbook_sha256: str, view: str, we: str | None) -> str:
    """What makes two reviews the same review: the bytes, the playbook, the view and who we are."""
    raw = f"{source_sha256}\n{playbook_sha256}\n{view}\n{we or ''}"
    return hashlib.sha256(raw.encode()).hexdigest()


class BatchRunRow(SQLModel, table=True):
    __tablename__ = "batch_runs"
    id: int | None = Field(default=None, primary_key=True)
    status: str = "running"  # running | finished
    playbook_id: str
    playbook_version: str
    playbook_sha256: str
    options: str = Field(default="{}", sa_column=Column(Text))  # playbook spec, view, we, paths
    created_at: datetime = Field(default_factory=_now)
    finished_at: datetime | None = None


class BatchEntryRow(SQLModel, table=True):
    __tablename__ = "batch_entries"
    __table_args__ = (UniqueConstraint("run_id", "path"),)
    id: int | None = Field(default=None, primary_key=True)
    run_id: int = Field(foreign_key="batch_runs.id", index=True)
    path: str  # as listed: a file, or "room.zip!folder/contract.pdf"
    source_sha256: str | None = None  # None when the bytes could not be read at listing
    key: str | None = Field(default=None, index=True)
    locator: str = Field(default="{}", sa_column=Column(Text))  # how a worker reads the bytes
    meta: str = Field(default="{}", sa_column=Column(Text))  # a manifest row's other columns
    listing_error: str | None = None  # why it could not be listed (zip bomb, unreadable…)


class BatchDocumentRow(SQLModel, table=True):
    __tablename__ = "batch_documents"
    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(unique=True)
    source_sha256: str = Field(index=True)
    playbook_sha256: str
    view: str
    we: str | None = None
    name: str = ""
    status: str  # done | failed | withheld
    reason: str = ""
    review_id: int | None = Field(default=None, foreign_key="reviews.id")
    version_id: int | None = Field(default=None, foreign_key="document_versions.id")
    cells: str = Field(default="{}", sa_column=Column(Text))  # the portfolio's cells, quotes included
    transient: bool = False  # failed for a reason outside the document (its worker died): tried again
    attempts: int = 1
    updated_at: datetime = Field(default_factory=_now)


class BatchOutcomeRow(SQLModel, table=True):
    """One document's outcome for one clause type: what the portfolio filters and counts on, in SQL."""

    __tablename__ = "batch_outcomes"
    __table_args__ = (
        Index("ix_batch_outcomes_key_rule_outcome", "key", "rule", "outcome"),  # covers the counts
        Index("ix_batch_outcomes_rule_outcome_key", "rule", "outcome", "key"),  # covers the filters
    )
    id: int | None = Field(default=None, primary_key=True)
    key: str
    rule: str
    outcome: str


class BatchSchemaRow(SQLModel, table=True):
    """The version of the batch tables a database holds (one row); see `SCHEMA_VERSION`."""

    __tablename__ = "batch_schema"
    id: int = Field(default=1, primary_key=True)
    version: int


#: 1: the first batch commit (runs, entries, documents with their cells). 2: each document's outcome per
#: clause type in `batch_outcomes` (what the portfolio counts and filters on) and the clause titles kept
#: with each run. A database without `batch_schema` is version 1 (or new); opening it migrates it.
SCHEMA_VERSION = 2

_TABLES = [
    BatchRunRow.__table__,  # type: ignore[attr-defined]
    BatchEntryRow.__table__,  # type: ignore[attr-defined]
    BatchDocumentRow.__table__,  # type: ignore[attr-defined]
    BatchOutcomeRow.__table__,  # type: ignore[attr-defined]
    BatchSchemaRow.__table__,  # type: ignore[attr-defined]
]


@dataclass(frozen=True, slots=True, kw_only=True)
class DocumentOutcome:
    """What became of one document: written now, or found already written by someone else."""

    key: str
    status: str
    reason: str
    review_id: int | None
    already: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "status": self.status,
            "reason": self.reason,
            "review_id": self.review_id,
            "already": self.already,
        }


class RunStore:
    """The batch tables of one store. `RunStore(store)` creates them if they are not there yet."""

    def __init__(self, store: Store) -> None:
        self.store = store
        try:
            SQLModel.metadata.create_all(store.engine, tables=_TABLES)
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot create the batch tables in {_redact(store.url)}: {exc}") from None
        if self.schema_version() < SCHEMA_VERSION:
            self._migrate()

    def schema_version(self) -> int:
        with self.store._db.read() as s:
            row = s.get(BatchSchemaRow, 1)
            return row.version if row is not None else 1

    def _migrate(self) -> None:
        """Bring tables made by earlier batch code up to `SCHEMA_VERSION`, in one write transaction (a
        worker opening the same database at that moment waits, then finds it done)."""
        with self._session() as s:
            self._serialise(s)
            row = s.get(BatchSchemaRow, 1)
            if row is not None and row.version >= SCHEMA_VERSION:
                return
            # 1 → 2: each settled document's outcomes from its cells, each run's clause titles from them
            o: Any = BatchOutcomeRow
            d: Any = BatchDocumentRow
            have = select(o.key).distinct()
            docs: Any = s.exec(select(d.key, d.cells).where(d.key.not_in(have))).all()
            titles_by_key: dict[str, dict[str, str]] = {}
            for key, cells_json in docs:
                cells = json.loads(cells_json or "{}")
                for rule, cell in cells.items():
                    s.add(BatchOutcomeRow(key=key, rule=rule, outcome=str(cell.get("outcome") or "")))
                titles_by_key[key] = {r: str(c.get("title") or r) for r, c in cells.items()}
            for run in s.exec(select(BatchRunRow)).all():
                options = json.loads(run.options or "{}")
                if "titles" in options:
                    continue
                titles = _playbook_titles(str(options.get("playbook") or ""), run.playbook_sha256)
                if titles is None:  # the playbook is not here as it was: the titles the cells name
                    keys = s.exec(select(BatchEntryRow.key).where(BatchEntryRow.run_id == run.id)).all()
                    titles = {}
                    for k in keys:
                        for r, t in titles_by_key.get(k or "", {}).items():
                            if titles.get(r, r) == r:  # a not-applicable cell's title is its id
                                titles[r] = t
                options["titles"] = titles
                run.options = _dumps(options)
                s.add(run)
            s.merge(BatchSchemaRow(id=1, version=SCHEMA_VERSION))

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self.store._session() as s:
            yield s

    # ── runs ─────────────────────────────────────────────────────────────────────────────────
    def create_run(
        self, *, playbook: Mapping[str, str], options: Mapping[str, Any], entries: Iterable[Mapping[str, Any]]
    ) -> int:
        """Create a run and its listing in one transaction; returns the run id."""
        with self._session() as s:
            run = BatchRunRow(
                playbook_id=playbook["id"],
                playbook_version=playbook["version"],
                playbook_sha256=playbook["sha256"],
                options=_dumps(dict(options)),
            )
            s.add(run)
            s.flush()
            for e in entries:
                s.add(
                    BatchEntryRow(
                        run_id=run.id or 0,
                        path=e["path"],
                        source_sha256=e.get("source_sha256"),
                        key=e.get("key"),
                        locator=_dumps(e.get("locator") or {}),
                        meta=_dumps(e.get("meta") or {}),
                        listing_error=e.get("listing_error"),
                    )
                )
            s.flush()
            return run.id or 0

    def get_run(self, run_id: int) -> dict[str, Any]:
        with self._session() as s:
            run = s.get(BatchRunRow, run_id)
            if run is None:
                raise NotFoundError(
                    f"batch run {run_id} is not in the store (see `citationgate batch --help`)"
                )
            return {
                "id": run.id,
                "status": run.status,
                "playbook": {
                    "id": run.playbook_id,
                    "version": run.playbook_version,
                    "sha256": run.playbook_sha256,
                },
                "options": json.loads(run.options),
                "created_at": run.created_at.isoformat(),
                "finished_at": run.finished_at.isoformat() if run.finished_at else None,
            }

    def finish_run(self, run_id: int) -> None:
        with self._session() as s:
            run = s.get(BatchRunRow, run_id)
            if run is None:
                raise NotFoundError(f"batch run {run_id} is not in the store")
            run.status = "finished"
            run.finished_at = _now()
            s.add(run)

    def entries(
        self, run_id: int, *, cells: bool = False, where: Sequence[tuple[str, str, bool]] = ()
    ) -> list[dict[str, Any]]:
        """The run's listing, each entry with its document's status, reason and review; with `cells`, also
        each document's portfolio cells (quotes included: the bulk of the data). `where` keeps the entries
        whose document has (or, negated, has not) an outcome for a clause type: (rule, outcome, negate)."""
        e: Any = BatchEntryRow
        d: Any = BatchDocumentRow
        columns: list[Any] = [e.path, e.source_sha256, e.key, e.locator, e.meta, e.listing_error]
        columns += [d.status, d.reason, d.review_id, d.name]
        if cells:
            columns.append(d.cells)
        with self._session() as s:
            q = select(*columns).join(d, d.key == e.key, isouter=True).where(e.run_id == run_id)
            for clause in _filters(where):
                q = q.where(clause)
            rows: Any = s.exec(q.order_by(e.id)).all()
        out = []
        for r in rows:
            path, sha, key, locator, meta, listing_error, status, reason, review_id, name = r[:10]
            if listing_error is not None:
                status, reason = FAILED, listing_error
            elif status is None:
                status, reason = "pending", ""
            entry = {
                "path": path,
                "source_sha256": sha,
                "key": key,
                "locator": json.loads(locator),
                "meta": json.loads(meta),
                "status": status,
                "reason": reason,
                "review_id": review_id,
                "name": name or "",
            }
            if cells:
                entry["cells"] = json.loads(r[10]) if r[10] else {}
            out.append(entry)
        return out

    def outcome_counts(
        self, run_id: int, *, where: Sequence[tuple[str, str, bool]] = ()
    ) -> dict[str, dict[str, int]]:
        """{rule: {outcome: entries}} over the run's entries that pass `where` (see `entries`)."""
        e: Any = BatchEntryRow
        o: Any = BatchOutcomeRow
        with self._session() as s:
            q = select(o.rule, o.outcome, func.count()).join(e, e.key == o.key).where(e.run_id == run_id)
            for clause in _filters(where):
                q = q.where(clause)
            rows: Any = s.exec(q.group_by(o.rule, o.outcome)).all()
        out: dict[str, dict[str, int]] = {}
        for rule, outcome, n in rows:
            out.setdefault(rule, {})[outcome] = int(n)
        return out

    def cells(self, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The portfolio cells of each document in `keys`."""
        found: dict[str, dict[str, Any]] = {}
        with self._session() as s:
            for i in range(0, len(keys), 500):
                chunk = list(keys[i : i + 500])
                rows = s.exec(
                    select(BatchDocumentRow.key, BatchDocumentRow.cells).where(
                        BatchDocumentRow.key.in_(chunk)  # type: ignore[attr-defined]
                    )
                ).all()
                found.update({k: json.loads(c) for k, c in rows})
        return found

    def settled(self, keys: Sequence[str]) -> dict[str, str]:
        """The status of every key in `keys` that is done, withheld or failed for a reason of its own
        (what a rerun skips); a transient failure is not settled."""
        found: dict[str, str] = {}
        with self._session() as s:
            for i in range(0, len(keys), 500):
                chunk = list(keys[i : i + 500])
                rows = s.exec(
                    select(BatchDocumentRow.key, BatchDocumentRow.status).where(
                        BatchDocumentRow.key.in_(chunk),  # type: ignore[attr-defined]
                        BatchDocumentRow.status.in_(FINAL),  # type: ignore[attr-defined]
                        BatchDocumentRow.transient == False,  # noqa: E712
                    )
                ).all()
                found.update(dict(rows))
        return found

    def documents(self) -> list[dict[str, Any]]:
        """Every reviewed content's record (key, status, reason, review), without its cells."""
        with self._session() as s:
            rows = s.exec(select(BatchDocumentRow).order_by(BatchDocumentRow.id)).all()  # type: ignore[arg-type]
            return [
                {
                    "key": r.key,
                    "name": r.name,
                    "status": r.status,
                    "reason": r.reason,
                    "review_id": r.review_id,
                    "attempts": r.attempts,
                    "transient": r.transient,
                }
                for r in rows
            ]

    def document_count(self) -> int:
        with self._session() as s:
            return int(s.exec(select(func.count()).select_from(BatchDocumentRow)).one())

    # ── one document, one transaction ────────────────────────────────────────────────────────
    def _serialise(self, s: Session) -> None:
        """Writers take turns: SQLite's write lock (the store's), and on PostgreSQL a transaction-scoped
        advisory lock, so workers writing at once never read the same audit head and fork the chain."""
        self.store._lock(s)
        if self.store.engine.dialect.name == "postgresql":
            s.connection().exec_driver_sql(f"SELECT pg_advisory_xact_lock({_AUDIT_LOCK})")

    def write_outcome(
        self,
        *,
        key: str,
        source_sha256: str,
        playbook: Mapping[str, str],
        view: str,
        we: str | None,
        name: str,
        status: str,
        reason: str = "",
        document: Document | None = None,
        findings: Sequence[Mapping[str, Any]] = (),
        audit: Sequence[AuditEvent] = (),
        summary: Mapping[str, Any] | None = None,
        cells: Mapping[str, Any] | None = None,
        transient: bool = False,
    ) -> DocumentOutcome:
        """Record what became of one document, with its review (status done) or its stored version
        (withheld), in one transaction. A key already done or withheld is left as it is and reported
        as `already`: a task that ran twice (its worker died after the commit) writes nothing twice."""
        try:
            with self._session() as s:
                self._serialise(s)
                row = s.exec(select(BatchDocumentRow).where(BatchDocumentRow.key == key)).first()
                if row is not None and row.status in FINAL and not row.transient:
                    return _outcome(row, already=True)
                review_id = version_id = None
                if status == DONE and document is not None:
                    record = self.store._write_review(
                        s,
                        kind="review",
                        document=document,
                        findings=findings,
                        audit=audit,
                        version_id=None,
                        previous_version_id=None,
                        parent_review_id=None,
                        playbook=playbook,
                        summary=summary,
                    )
                    review_id, version_id = record.id, record.version.id
                elif document is not None:  # withheld: keep the version, so `coverage` lists why
                    version_id = self.store._save_version(s, document, None).id
                values = {
                    "name": name,
                    "status": status,
                    "reason": reason,
                    "review_id": review_id,
                    "version_id": version_id,
                    "cells": _dumps(dict(cells or {})),
                    "transient": transient,
                    "updated_at": _now(),
                }
                d: Any = BatchDocumentRow.__table__  # type: ignore[attr-defined]
                if row is None:
                    # SQLAlchemy Core, like the store's findings: no ORM object per row (44 outcome rows
                    # a document), the same columns and values as the ORM wrote
                    values.update(key=key, source_sha256=source_sha256, view=view, we=we, attempts=1)
                    s.connection().execute(insert(d).values(playbook_sha256=playbook["sha256"], **values))
                else:  # a transient failure tried again: its old outcome rows go
                    s.connection().execute(
                        update(d).where(d.c.id == row.id).values(attempts=row.attempts + 1, **values)
                    )
                    s.execute(delete(BatchOutcomeRow).where(BatchOutcomeRow.key == key))  # type: ignore[arg-type]
                outcomes = [
                    {"key": key, "rule": rule, "outcome": str(cell.get("outcome") or "")}
                    for rule, cell in (cells or {}).items()
                ]
                if outcomes:
                    s.connection().execute(insert(BatchOutcomeRow.__table__), outcomes)  # type: ignore[attr-defined]
                return DocumentOutcome(key=key, status=status, reason=reason, review_id=review_id)
        except StoreError as exc:
            if not isinstance(exc.__context__, IntegrityError):
                raise
        # another writer committed the same key between our check and our commit: theirs stands
        with self._session() as s:
            existing = s.exec(select(BatchDocumentRow).where(BatchDocumentRow.key == key)).one()
            return _outcome(existing, already=True)


def _playbook_titles(spec: str, sha256: str) -> dict[str, str] | None:
    """The clause and check titles of the playbook a run used, if it still loads with the same hash."""
    from playbooks import load_playbook

    try:
        pb = load_playbook(spec)
    except Exception:  # gone, moved or broken since: the caller falls back to the cells' titles
        return None
    if pb.sha256 != sha256:
        return None
    titles = {c.id: c.title for c in pb.clauses}
    titles.update({c.id: c.title for c in pb.checks})
    return titles


def _filters(where: Sequence[tuple[str, str, bool]]) -> list[Any]:
    """SQL conditions on the entry's key for each (rule, outcome, negate)."""
    e: Any = BatchEntryRow
    o: Any = BatchOutcomeRow
    out = []
    for rule, outcome, negate in where:
        having = select(o.key).where(o.rule == rule, o.outcome == outcome)
        out.append(e.key.not_in(having) if negate else e.key.in_(having))
    return out


def _outcome(row: BatchDocumentRow, *, already: bool) -> DocumentOutcome:
    return DocumentOutcome(
        key=row.key, status=row.status, reason=row.reason, review_id=row.review_id, already=already
    )
