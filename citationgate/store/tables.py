"""The store's tables. Values stay values: these classes never leave the store package."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Index, text
from sqlmodel import Field, SQLModel

from citationgate.store.ddl import ADDED_COLUMNS

__all__ = ["ADDED_COLUMNS", "AuditRow", "DocumentVersionRow", "FindingRow", "ReviewRow", "now"]


def now() -> datetime:
    return datetime.now(UTC)


class DocumentVersionRow(SQLModel, table=True):
    __tablename__ = "document_versions"
    __table_args__ = (
        # a file read once is stored once, however many ingests of it race (first versions only: a
        # redline's new version may repeat an earlier text on purpose, in its own lineage)
        Index(
            "uq_first_version",
            "source_sha256",
            "view",
            "reader",
            "text_sha256",
            unique=True,
            sqlite_where=text("version_no = 1"),
            postgresql_where=text("version_no = 1"),
        ),
    )
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
    created_at: datetime = Field(default_factory=now)


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
    created_at: datetime = Field(default_factory=now)
    content_sha256: str = ""  # the review, its findings and its version's text (see record.review_sha256)
    audit_head: str = ""  # the chain's head hash once this review's entries were appended
    audit_entries: int = 0  # ... and the chain's length then


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
    id: int | None = Field(default=None, primary_key=True)  # 1, 2, 3… with no gap; hashed
    at: str
    action: str
    result: str
    actor: str
    document_sha256: str
    rule: str | None = None
    reason: str = ""
    payload: str = "{}"
    prev_hash: str = Field(unique=True)  # one successor per entry: the chain cannot fork
    hash: str = Field(unique=True)
