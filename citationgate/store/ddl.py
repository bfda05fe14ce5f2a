"""The store's four tables as SQLite creates them, written out so that a SQLite file can be made and
checked without SQLAlchemy (`lite`). `tests/test_store_lite.py` compiles `tables`' SQLModel classes for
SQLite and requires exactly these statements, so the two cannot drift."""

from __future__ import annotations

#: the store's own tables (the batch records add theirs, `citationgate.store_runs`)
STORE_TABLES = ("document_versions", "audit", "reviews", "findings")

# columns added since the first release: an older database gets them on open
ADDED_COLUMNS: dict[str, dict[str, str]] = {
    "reviews": {
        "content_sha256": "VARCHAR NOT NULL DEFAULT ''",
        "audit_head": "VARCHAR NOT NULL DEFAULT ''",
        "audit_entries": "INTEGER NOT NULL DEFAULT 0",
    }
}

#: `SQLModel.metadata.create_all` on SQLite, statement by statement, in its order
SQLITE_SCHEMA = (
    "CREATE TABLE document_versions ( id INTEGER NOT NULL, lineage INTEGER, version_no INTEGER NOT NULL, "
    'name VARCHAR NOT NULL, file_type VARCHAR NOT NULL, "view" VARCHAR NOT NULL, text_sha256 VARCHAR NOT '
    "NULL, source_sha256 VARCHAR NOT NULL, reader VARCHAR NOT NULL, status VARCHAR NOT NULL, fidelity "
    "FLOAT NOT NULL, fidelity_method VARCHAR NOT NULL, sections_found INTEGER NOT NULL, sections_expected "
    "INTEGER, reasons VARCHAR NOT NULL, payload VARCHAR NOT NULL, created_at DATETIME NOT NULL, PRIMARY "
    "KEY (id) )",
    "CREATE INDEX ix_document_versions_lineage ON document_versions (lineage)",
    "CREATE INDEX ix_document_versions_source_sha256 ON document_versions (source_sha256)",
    "CREATE INDEX ix_document_versions_text_sha256 ON document_versions (text_sha256)",
    'CREATE UNIQUE INDEX uq_first_version ON document_versions (source_sha256, "view", reader, '
    "text_sha256) WHERE version_no = 1",
    "CREATE TABLE audit ( id INTEGER NOT NULL, at VARCHAR NOT NULL, action VARCHAR NOT NULL, result "
    "VARCHAR NOT NULL, actor VARCHAR NOT NULL, document_sha256 VARCHAR NOT NULL, rule VARCHAR, reason "
    "VARCHAR NOT NULL, payload VARCHAR NOT NULL, prev_hash VARCHAR NOT NULL, hash VARCHAR NOT NULL, "
    "PRIMARY KEY (id), UNIQUE (prev_hash), UNIQUE (hash) )",
    "CREATE TABLE reviews ( id INTEGER NOT NULL, kind VARCHAR NOT NULL, version_id INTEGER NOT NULL, "
    "parent_review_id INTEGER, playbook_id VARCHAR, playbook_version VARCHAR, playbook_sha256 VARCHAR, "
    "summary VARCHAR NOT NULL, created_at DATETIME NOT NULL, content_sha256 VARCHAR NOT NULL, audit_head "
    "VARCHAR NOT NULL, audit_entries INTEGER NOT NULL, PRIMARY KEY (id), FOREIGN KEY(version_id) "
    "REFERENCES document_versions (id), FOREIGN KEY(parent_review_id) REFERENCES reviews (id) )",
    "CREATE INDEX ix_reviews_version_id ON reviews (version_id)",
    'CREATE TABLE findings ( id INTEGER NOT NULL, review_id INTEGER NOT NULL, "key" VARCHAR NOT NULL, '
    "status VARCHAR NOT NULL, rule VARCHAR, severity VARCHAR, payload VARCHAR NOT NULL, PRIMARY KEY (id), "
    "FOREIGN KEY(review_id) REFERENCES reviews (id) )",
    "CREATE INDEX ix_findings_review_id ON findings (review_id)",
)
