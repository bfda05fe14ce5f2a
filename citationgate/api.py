"""The library's verbs: one call each, returning exactly the value the CLI prints with `--format json`.

    from citationgate import review, verify, reverify, check_answer

    done = review("msa.docx", playbook="msa-customer", store="review.db")
    gated = verify("msa.docx", {"proposals": [...]}, store="review.db")
    after = reverify(done["review"]["id"], "msa-v2.docx", store="review.db")
    verdict = check_answer(answer_text, gated["review"]["id"], store="review.db")

The CLI and the MCP server (`citationgate mcp`) are thin layers over these functions, so the three
surfaces cannot disagree about a shape. `store` is a `Store`, a database path or SQLAlchemy URL, or
None for the default database (`CITATIONGATE_DB`, else `$XDG_DATA_HOME/citationgate/citationgate.db`).
Errors are `CitationGateError`s whose message is the CLI's `Error:` line and whose `exit_code` is the
CLI's exit code; nothing here prints or exits.

Imports are deferred into the functions: `import citationgate` stays cheap, and a command that does
not need the store, the readers or the playbook engine never loads them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citationgate.errors import UsageError
from ingest.errors import CorruptFileError

if TYPE_CHECKING:
    from citationgate.answers import AnswerCheck
    from citationgate.model import Proposal
    from citationgate.reverify import ReverifyResult
    from citationgate.review import ReviewResult
    from citationgate.store import ReviewRecord, Store
    from citationgate.verification import Verification
    from ingest.document import Document

__all__ = [
    "ReverifyRun",
    "ask",
    "check_answer",
    "findings",
    "get_text",
    "ingest",
    "list_reviews",
    "open_store",
    "reverify",
    "review",
    "verify",
    "verify_quotes",
]


def open_store(store: Store | str | None = None) -> Store:
    """A `Store` as given, or opened from a path/URL (None: the default database)."""
    from citationgate.store import Store

    return store if isinstance(store, Store) else Store.open(store)


# ── ingest ───────────────────────────────────────────────────────────────────────────────────────
def ingest(path: str | Path, *, view: str = "accepted", store: Store | str | None = None) -> dict[str, Any]:
    """Read `path` into its canonical text and store the version (reused when the same bytes were
    stored before): `{"version_id", "reused", **Document.to_dict()}`, as `ingest --format json`."""
    from citationgate.versions import ingest_file

    version, reused = ingest_file(open_store(store), Path(path), view=view)
    return {"version_id": version.id, "reused": reused, **version.document.to_dict()}


def get_text(
    version_id: int, start: int = 0, end: int | None = None, *, store: Store | str | None = None
) -> dict[str, Any]:
    """The canonical text of stored version `version_id` in `[start, end)` (code points; `end` None:
    to the end), with the version's name, hash and length."""
    from citationgate.errors import UsageError

    doc = open_store(store).get_version(version_id).document
    length = len(doc.text)
    stop = length if end is None else end
    if not (0 <= start <= stop <= length):
        raise UsageError(
            f"range [{start}, {end}) is outside version {version_id}'s text (0 ≤ start ≤ end ≤ {length})"
        )
    return {
        "version_id": version_id,
        "name": doc.name,
        "text_sha256": doc.text_sha256,
        "length": length,
        "start": start,
        "end": stop,
        "text": doc.text[start:stop],
    }


# ── ask, and quotes without a finding ───────────────────────────────────────────────────────────
def document_for(
    document: str | Path | int, *, view: str = "accepted", store: Store | str | None = None
) -> tuple[int, Document]:
    """A stored version id (an int), or a file path ingested (or reused by its bytes): (version id, doc)."""
    from citationgate.versions import ingest_file

    opened = open_store(store)
    if isinstance(document, int):
        version = opened.get_version(document)
    else:
        version, _reused = ingest_file(opened, Path(document), view=view)
    return version.id, version.document


def ask(
    document: str | Path | int,
    question: str,
    *,
    top: int = 5,
    store: Store | str | None = None,
) -> dict[str, Any]:
    """The clauses that answer a plain-language `question` in a contract (a path, or a stored version
    id), ranked, each with offsets, the document's own text, a confidence and why: the
    `ask FILE "question" --format json` value (keywords, bridges, clause types)."""
    from citationgate.errors import UsageError, WithheldDocumentError
    from playbooks.retrieve import ClauseRetriever

    if not question.strip():
        raise UsageError('give a question, e.g. "can they put the price up?"')
    _vid, doc = document_for(document, store=store)
    if not doc.ready:
        why = "; ".join(doc.reasons) or "not read whole"
        raise WithheldDocumentError(f"{doc.name}: withheld ({why}); nothing is searched in it")
    retriever = ClauseRetriever([doc])
    hits = retriever.search(question, top=top)
    return {"question": question, "results": [h.to_dict() for h in hits]}


def verify_quotes(
    document: str | Path | int,
    quotes: object,
    *,
    store: Store | str | None = None,
) -> dict[str, Any]:
    """Locate each quote (`{"quote", "section"?, "page"?, "near"?}`) in a contract (a path, or a stored
    version id) with the gate's rules, without making a finding: `{"document", "quotes"}`, each quote
    `verified` (one place, with offsets and the document's own `text`), `ambiguous` (every
    occurrence), `failed`, `rejected` (too short) or `unverifiable`. Nothing is stored; `verify` is
    the call that records findings."""
    from citationgate.gate import gate
    from citationgate.model import Proposal
    from citationgate.proposals import parse_citations

    citations = tuple(parse_citations(quotes, source="quotes"))
    vid, doc = document_for(document, store=store)
    finding = gate(doc, [Proposal(id="quotes", claim="quote lookup", citations=citations)]).findings[0]
    return {
        "document": {
            "version_id": vid,
            "name": doc.name,
            "text_sha256": doc.text_sha256,
            "status": doc.status,
        },
        "quotes": [{"index": i, **c.to_dict()} for i, c in enumerate(finding.citations)],
    }


# ── verify ───────────────────────────────────────────────────────────────────────────────────────
def verify(
    path: str | Path,
    proposals: object,
    *,
    view: str = "accepted",
    store: Store | str | None = None,
    source: str = "proposals",
    write: bool = True,
) -> dict[str, Any]:
    """Gate an outside agent's `proposals` against the contract at `path` and store the result as a
    review (kind "verify"): the `verify --format json` value. `proposals` is the proposals JSON
    (`{"proposals": [...]}`), its list, or parsed `Proposal`s; malformed input raises `ProposalError`
    naming the JSON path. `write=False` gates without storing anything (review id null)."""
    if not write:
        return verify_unstored(path, proposals, view=view, source=source)
    return verification_json(verify_run(path, proposals, view=view, store=store, source=source))


def verify_unstored(path: str | Path, proposals: object, *, view: str, source: str) -> dict[str, Any]:
    """`verify` for a look: the same JSON, nothing written (no version, review or audit entry)."""
    from citationgate.gate import gate
    from ingest.load import load_document

    parsed = as_proposals(proposals, source=source)
    document = load_document(Path(path), view=view)
    result = gate(document, parsed)
    return {
        "review": {"id": None, "kind": "verify", "created_at": None},
        "document": {"name": document.name, "text_sha256": document.text_sha256, "status": document.status},
        "findings": [f.to_dict() for f in result.findings],
    }


def verify_run(
    path: str | Path,
    proposals: object,
    *,
    view: str = "accepted",
    store: Store | str | None = None,
    source: str = "proposals",
    summary: Mapping[str, Any] | None = None,
) -> Verification:
    """`verify`, returning the stored `Verification` (for callers that render it themselves)."""
    from citationgate.verification import verify_and_store

    parsed = as_proposals(proposals, source=source)
    return verify_and_store(open_store(store), Path(path), parsed, view=view, summary=summary)


def as_proposals(proposals: object, *, source: str) -> list[Proposal]:
    """Proposals as given: the JSON object, its list, or already parsed `Proposal`s."""
    from citationgate.model import Proposal
    from citationgate.proposals import parse_proposals

    if isinstance(proposals, Mapping):
        return parse_proposals(dict(proposals), source=source)
    if not isinstance(proposals, list | tuple):
        return parse_proposals(proposals, source=source)
    items = list(proposals)
    if items and all(isinstance(p, Proposal) for p in items):
        return [p for p in items if isinstance(p, Proposal)]
    return parse_proposals({"proposals": items}, source=source)


def verification_json(done: Verification) -> dict[str, Any]:
    record, document = done.review, done.version.document
    return {
        "review": {
            "id": record.id,
            "kind": record.kind,
            "created_at": record.created_at.isoformat(),
            "audit_head": record.audit_head.to_dict() if record.audit_head else None,
        },
        "document": {"name": document.name, "text_sha256": document.text_sha256, "status": document.status},
        "findings": done.findings,
    }


# ── review ───────────────────────────────────────────────────────────────────────────────────────
def review(
    path: str | Path,
    *,
    playbook: str | Path = "msa-customer",
    view: str = "accepted",
    we: str | None = None,
    store: Store | str | None = None,
    write: bool = True,
) -> dict[str, Any]:
    """Review the contract at `path` against a playbook (a built-in id or a YAML path), gate every
    proposal and store the review: the `review --format json` value. `we` names our party (its
    defined term or name); by default it is inferred from the contract's words.

    Nothing is stored twice: a stored review of the same version with the same playbook (by hash) whose
    findings and summary come out identical is reused — its id returned, one audit entry recording this
    run. `write=False` stores nothing at all (review id null)."""
    return review_run(path, playbook=playbook, view=view, we=we, store=store, write=write)[0].to_dict()


def review_run(
    path: str | Path,
    *,
    playbook: str | Path = "msa-customer",
    view: str = "accepted",
    we: str | None = None,
    store: Store | str | None = None,
    write: bool = True,
) -> tuple[ReviewResult, bool]:
    """`review`, returning the `ReviewResult` and whether the document version was reused (stored before
    from the same bytes; with `write=False`, nothing is stored and this is False)."""
    from dataclasses import replace

    from citationgate.review import finding_dict, store_review
    from citationgate.review import review as run_review
    from citationgate.versions import read_file
    from ingest.load import load_document
    from playbooks import load_playbook

    pb = load_playbook(str(playbook))
    if not write:
        return run_review(load_document(Path(path), view=view), pb, we=we), False
    opened = open_store(store)
    # a file not stored before is stored with its review, in the review's one transaction (#13)
    reading = read_file(opened, Path(path), view=view)
    version, reused = reading.stored, reading.reused
    result = run_review(reading.document, pb, version_id=reading.version_id, we=we)
    findings = [finding_dict(f) for f in result.findings]
    same = _same_review(opened, version.id, pb.sha256, findings, result.summary) if version else None
    if same is None or version is None:
        return store_review(opened, result), reused
    from citationgate.audit import AuditEvent

    opened.append_audit(
        [
            AuditEvent(
                action="review",
                result="reused",
                actor=f"playbook:{pb.id}@{pb.version}",
                document_sha256=version.document.text_sha256,
                reason=f"the same inputs gave the same findings: review {same} reused, nothing stored twice",
                payload={"review_id": same, "playbook_sha256": pb.sha256, "findings": len(findings)},
            )
        ]
    )
    head = opened.get_review(same).audit_head  # the head that review was written under, as first printed
    return replace(result, review_id=same, audit_head=head.to_dict() if head else None), reused


def _same_review(
    store: Store, version_id: int, playbook_sha256: str, findings: list[dict[str, Any]], summary: Any
) -> int | None:
    """A stored review of this version, by this playbook, with exactly these findings and summary."""
    import json

    def canonical(value: Any) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)

    want_findings, want_summary = canonical(findings), canonical(dict(summary))
    for row in reversed(store.list_reviews()):
        if row["kind"] != "review" or row["version_id"] != version_id:
            continue
        record = store.get_review(int(row["id"]))
        if record.playbook_sha256 != playbook_sha256:
            continue
        if canonical(record.findings) == want_findings and canonical(record.summary) == want_summary:
            return record.id
    return None


# ── stored findings ──────────────────────────────────────────────────────────────────────────────
def findings(review_id: int, *, store: Store | str | None = None) -> dict[str, Any]:
    """A stored review and its findings: the `findings REVIEW_ID --format json` value."""
    return record_json(open_store(store).get_review(review_id))


def record_json(record: ReviewRecord) -> dict[str, Any]:
    doc = record.version.document
    return {
        "review": {
            "id": record.id,
            "kind": record.kind,
            "created_at": record.created_at.isoformat(),
            "parent_review_id": record.parent_review_id,
            "playbook": (
                {
                    "id": record.playbook_id,
                    "version": record.playbook_version,
                    "sha256": record.playbook_sha256,
                }
                if record.playbook_id
                else None
            ),
        },
        "document": {"name": doc.name, "text_sha256": doc.text_sha256, "status": doc.status},
        "findings": record.findings,
    }


def list_reviews(*, store: Store | str | None = None) -> dict[str, Any]:
    """Every stored review (id, kind, document, findings count): the `findings --list --format json` value."""
    return {"reviews": open_store(store).list_reviews()}


# ── reverify ─────────────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True, slots=True, kw_only=True)
class ReverifyRun:
    """A finished re-verification: the outcomes, the new version, and the stored review (if any)."""

    result: ReverifyResult
    document: Document
    previous_review: int | None
    review: Mapping[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        """The `reverify --format json` value."""
        doc = self.document
        return {
            "previous_review": self.previous_review,
            "review": dict(self.review) if self.review is not None else None,
            "document": {
                "name": doc.name,
                "view": doc.view,
                "text_sha256": doc.text_sha256,
                "status": doc.status,
                "previous_text_sha256": self.result.previous_document_sha256,
            },
            "summary": self.result.summary,
            "findings": [f.to_dict() for f in self.result.findings],
        }


def reverify(review_id: int, new_path: str | Path, *, store: Store | str | None = None) -> dict[str, Any]:
    """Re-verify every finding of stored review `review_id` against `new_path` (the next version of its
    document), exact only, and store the result as a new review (kind "reverify"): the
    `reverify REVIEW_ID NEW_FILE --format json` value."""
    return reverify_run(review_id, new_path, store=store).to_dict()


def reverify_run(review_id: int, new_path: str | Path, *, store: Store | str | None = None) -> ReverifyRun:
    from citationgate.reverify import PlaybookRef
    from citationgate.reverify import reverify as run_reverify
    from ingest.load import load_document

    opened = open_store(store)
    previous = opened.get_review(review_id)
    new_file = Path(new_path)
    new_doc = load_document(new_file, view="accepted")
    playbook = (
        PlaybookRef(id=previous.playbook_id, version=previous.playbook_version)
        if previous.playbook_id
        else None
    )
    result = run_reverify(
        previous.findings,
        new_doc,
        old=previous.version.document,
        playbook=playbook,
        previous_review_id=previous.id,
    )
    # The same bytes stored before (by `ingest`, `review`, an earlier `reverify`) are that version again:
    # reused, never stored twice, whichever document's lineage it was first stored in.
    existing = opened.find_version(source_sha256=new_doc.source_sha256, view=new_doc.view)
    identical = existing is not None and existing.document.text_sha256 == new_doc.text_sha256
    record = opened.write_review(
        kind="reverify",
        document=new_doc,
        version_id=existing.id if identical and existing is not None else None,
        previous_version_id=None if identical else previous.version.id,
        findings=[f.to_record(previous.id) for f in result.findings],
        audit=result.audit,
        parent_review_id=previous.id,
        playbook=(
            {
                "id": previous.playbook_id,
                "version": previous.playbook_version or "",
                "sha256": previous.playbook_sha256 or "",
            }
            if previous.playbook_id
            else None
        ),
        summary={"counts": result.summary, "new_file": new_file.name, "previous_review_id": previous.id},
    )
    review_ref = {
        "id": record.id,
        "kind": record.kind,
        "parent_review_id": previous.id,
        "version_id": record.version.id,
        "version_no": record.version.version_no,
        "created_at": record.created_at.isoformat(),
    }
    return ReverifyRun(result=result, document=new_doc, previous_review=previous.id, review=review_ref)


# ── check-answer ─────────────────────────────────────────────────────────────────────────────────
def check_answer(
    text: str,
    review_id: int | None = None,
    *,
    findings: Sequence[Mapping[str, Any]] | None = None,
    document: Document | None = None,
    store: Store | str | None = None,
    name: str = "answer",
    source: str | None = None,
) -> dict[str, Any]:
    """Check every quoted passage of an answer's `text` against the verified record of stored review
    `review_id` (or against `findings`, the JSON `verify`/`review` print, with an optional
    `document`), and record the verdict in the audit log: the `check-answer --format json` value.
    `verdict` is "pass" only if every passage passes; otherwise the whole answer is "withheld"."""
    _result, data = check_answer_run(
        text, review_id, findings=findings, document=document, store=store, name=name, source=source
    )
    return data


def check_answer_run(
    text: str,
    review_id: int | None = None,
    *,
    findings: Sequence[Mapping[str, Any]] | None = None,
    document: Document | None = None,
    store: Store | str | None = None,
    name: str = "answer",
    source: str | None = None,
) -> tuple[AnswerCheck, dict[str, Any]]:
    from citationgate.answers import check_answer as run_check
    from citationgate.audit import AuditEvent

    if (review_id is None) == (findings is None):
        raise UsageError("give exactly one of a review id or findings to check the answer against")
    opened = open_store(store)
    if review_id is not None:
        record = opened.get_review(review_id)
        findings = record.findings
        document = record.version.document
        source = source or f"review {review_id}"
    assert findings is not None
    if not text.strip():
        raise CorruptFileError(f"{name}: the answer is empty")
    result = run_check(text, findings, document=document, source=source or "findings")
    answer_sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    summary = result.summary()
    opened.append_audit(
        [
            AuditEvent(
                action="check-answer",
                result="passed" if result.verdict == "pass" else "withheld",
                actor="check-answer",
                document_sha256=result.document_sha256 or "",
                reason=(
                    f"{len(result.passages)} quoted passage(s), {len(result.failures)} failed"
                    + (f", {summary['flagged']} flagged" if summary["flagged"] else "")
                ),
                payload={
                    "answer": name,
                    "answer_sha256": answer_sha,
                    "review_id": review_id,
                    "findings_file": source if review_id is None else None,
                    "summary": summary,
                    "failures": [
                        {"index": p.passage.index, "status": p.status.value, "text": p.passage.text}
                        for p in result.failures
                    ],
                },
            )
        ]
    )
    data = {
        "answer": {"name": name, "sha256": answer_sha},
        "review": {"id": review_id} if review_id is not None else None,
        "document": (
            {"name": document.name, "text_sha256": document.text_sha256, "status": document.status}
            if document is not None
            else None
        ),
        **result.to_dict(),
    }
    return result, data
