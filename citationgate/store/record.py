"""The record proves itself: what the store reads back is checked against the hashes it was written with.

- A stored document version is re-hashed every time it is read: its text against `text_sha256`, and
  the source hash inside it against the row's `source_sha256`. A mismatch is `RecordAlteredError`;
  nothing altered is ever reused or shown.
- A review's content hash (`review_sha256`: the review, every finding as stored, and the SHA-256 of its
  version's text as stored) is kept on the review and committed into every audit entry the review
  writes, so editing or deleting a finding, a review or a document's text breaks the chain.
- Every review remembers the chain's head once its entries were in; a chain cut back past it fails.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from citationgate.audit import ChainBreak, canonical_json
from citationgate.errors import AuditChainError
from ingest.document import Document, sha256_text

if TYPE_CHECKING:  # the checks read rows of either writer (`database`'s tables, `lite`'s rows)
    from citationgate.store.tables import AuditRow, DocumentVersionRow, FindingRow, ReviewRow


class RecordAlteredError(AuditChainError):
    """A stored object no longer matches the hash it was recorded with: the store was changed outside
    CitationGate."""


class VersionColumns(Protocol):
    """What reading a version back checks: a stored `DocumentVersionRow`, or `lite`'s row."""

    @property
    def id(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def text_sha256(self) -> str: ...
    @property
    def source_sha256(self) -> str: ...
    @property
    def payload(self) -> str: ...


class ReviewColumns(Protocol):
    """What a review's content hash covers: a stored `ReviewRow`, or the values `lite` writes."""

    @property
    def id(self) -> int | None: ...
    @property
    def kind(self) -> str: ...
    @property
    def version_id(self) -> int: ...
    @property
    def parent_review_id(self) -> int | None: ...
    @property
    def playbook_id(self) -> str | None: ...
    @property
    def playbook_version(self) -> str | None: ...
    @property
    def playbook_sha256(self) -> str | None: ...
    @property
    def summary(self) -> str: ...


def load_document(row: VersionColumns) -> Document:
    """The version's document, re-hashed: its text must still hash to the recorded `text_sha256`."""
    what = f"document version {row.id} ({row.name})"
    try:
        data = json.loads(row.payload)
        document = Document.from_dict(data)
    except (ValueError, KeyError, TypeError) as exc:
        raise RecordAlteredError(f"{what}: its stored text cannot be read back ({exc}); {_ADVICE}") from None
    if document.text_sha256 != row.text_sha256 or data.get("text_sha256") != row.text_sha256:
        raise RecordAlteredError(
            f"{what}: its stored text hashes to {document.text_sha256[:12]}…, not to the recorded "
            f"text_sha256 {row.text_sha256[:12]}…; {_ADVICE}"
        )
    if document.source_sha256 != row.source_sha256:
        raise RecordAlteredError(
            f"{what}: it was read from a file with source_sha256 {document.source_sha256[:12]}…, not the "
            f"recorded {row.source_sha256[:12]}…; {_ADVICE}"
        )
    return document


_ADVICE = (
    "the store was changed outside CitationGate, so nothing stored is reused (run `citationgate audit "
    "--check`, and ingest the file again into a database you trust)"
)


def stored_text_sha256(row: DocumentVersionRow) -> str:
    """The SHA-256 of the text as it is stored now (not the column that claims it)."""
    try:
        return sha256_text(str(json.loads(row.payload)["text"]))
    except (ValueError, KeyError, TypeError):
        return "unreadable"


class FindingColumns(Protocol):
    """What a finding's hash covers: a stored `FindingRow`, or the values about to be written."""

    @property
    def key(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def rule(self) -> str | None: ...
    @property
    def severity(self) -> str | None: ...
    @property
    def payload(self) -> str: ...


def review_sha256(review: ReviewColumns, *, text_sha256: str, findings: Sequence[FindingColumns]) -> str:
    """The content hash of a review: its own fields, its findings as stored, its version's text hash."""
    body = {
        "id": review.id,
        "kind": review.kind,
        "version_id": review.version_id,
        "text_sha256": text_sha256,
        "parent_review_id": review.parent_review_id,
        "playbook": [review.playbook_id, review.playbook_version, review.playbook_sha256],
        "summary": review.summary,
        "findings": [[f.key, f.status, f.rule, f.severity, f.payload] for f in findings],
    }
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def check_review(
    review: ReviewRow, version: DocumentVersionRow | None, findings: Sequence[FindingRow]
) -> None:
    """Refuse a review whose stored content no longer hashes to what was recorded when it was written."""
    if not review.content_sha256:
        return  # written before reviews carried a content hash
    text_sha = stored_text_sha256(version) if version is not None else "missing"
    if review_sha256(review, text_sha256=text_sha, findings=findings) != review.content_sha256:
        raise RecordAlteredError(
            f"review {review.id}: its findings, summary or document text no longer match the hash recorded "
            f"when it was written; {_ADVICE}"
        )


def commitments(entries: Iterable[AuditRow]) -> dict[int, tuple[int, str]]:
    """review id → (the first entry that speaks for it, the review_sha256 it committed to)."""
    out: dict[int, tuple[int, str]] = {}

    def commit(rid: object, entry: AuditRow, sha: object) -> None:
        # the first entry that commits to a content hash (an entry of the first releases committed none)
        if isinstance(rid, int) and (rid not in out or not out[rid][1]):
            out[rid] = (entry.id or 0, str(sha or ""))

    for e in entries:
        payload = _payload(e)
        if not isinstance(payload, Mapping):
            continue
        commit(payload.get("review_id"), e, payload.get("review_sha256"))
        sealed = payload.get("sealed_reviews") if e.action == "migrate" else None
        if isinstance(sealed, Mapping):  # `audit --migrate` sealed these older reviews as they were then
            for key, sha in sealed.items():
                commit(int(key) if str(key).isdigit() else None, e, sha)
    return out


def cross_check(
    entries: Sequence[AuditRow],
    reviews: Sequence[ReviewRow],
    versions: Mapping[int, DocumentVersionRow],
    findings: Mapping[int, list[FindingRow]],
) -> ChainBreak | None:
    """The chain against the record it speaks for: every review committed, unchanged, its head kept."""
    committed = commitments(entries)
    hashes = {e.id: e.hash for e in entries}
    by_id = {r.id: r for r in reviews}
    for rid, (entry_id, sha) in sorted(committed.items()):
        review = by_id.get(rid)
        if review is None:
            return ChainBreak(entry_id=entry_id, reason=f"the review it records (review {rid}) is missing")
        version = versions.get(review.version_id)
        text_sha = stored_text_sha256(version) if version is not None else "missing"
        if sha and review_sha256(review, text_sha256=text_sha, findings=findings.get(rid, [])) != sha:
            return ChainBreak(
                entry_id=entry_id,
                reason=f"review {rid} (its findings, summary or document text) no longer matches what "
                "this entry recorded",
            )
    for review in reviews:
        rid = review.id or 0
        if review.content_sha256 and rid not in committed:
            return ChainBreak(entry_id=None, reason=f"review {rid} is not recorded in the audit chain")
        if review.audit_entries and hashes.get(review.audit_entries) != review.audit_head:
            return ChainBreak(
                entry_id=None,
                reason=f"review {rid} was written when the chain's head was entry {review.audit_entries} "
                f"({review.audit_head[:12]}…), which the chain no longer has: entries were removed or "
                "rewritten",
            )
    return None


def _payload(r: AuditRow) -> Any:
    try:
        return json.loads(r.payload)
    except ValueError:
        return r.payload
