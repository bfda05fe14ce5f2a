"""Review orchestration: a document and a playbook in, gated findings out, stored as one review.

The playbook engine proposes (`playbooks.run_playbook` → `ClauseOutcome`s); this module turns each outcome
into a gate `Proposal` exactly as it would an outside agent's JSON, the gate decides what surfaces, and the
review — findings and every audit entry — is written in one transaction.

Rules applied here, on top of the gate's:

- A withheld document is refused with its reasons (`WithheldDocumentError`, exit 5): silence there may be
  the parser's.
- An absence (`missing`, or `referenced_not_provided` with nothing to quote) is proposed only when the
  engine's search covered the whole document; otherwise no finding is made and the rule is listed as
  *not concluded* with the reason.
- A finding cannot state a number its quote does not contain: every extracted value's span must lie inside a
  verified quote's span, or the value is dropped and the finding goes to `needs_review`.
- Findings keep the gate's ids (F1, F2… in the playbook's order, as the audit entries name them), and each
  proposal is given the same id, so `proposal_id` == `id` for a playbook finding; a finding whose quotes
  all failed is rejected, does not surface, and stays in the audit log.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from citationgate.audit import AuditEvent
from citationgate.errors import WithheldDocumentError
from citationgate.gate import gate
from citationgate.ledger import extract_values, value_present
from citationgate.model import (
    AbsenceEvidence,
    CitationRequest,
    Evidence,
    Finding,
    FindingStatus,
    Proposal,
    Supervision,
)
from citationgate.store import Store
from ingest.document import Document
from playbooks import run_playbook
from playbooks.contract_type import ContractType, classify
from playbooks.incorporation import incorporations
from playbooks.locator import Locator
from playbooks.outcome import ClauseOutcome
from playbooks.parties import RoleBinding, read_parties, resolve_roles, role_alternation
from playbooks.schema import Playbook

__all__ = [
    "SEVERITY_ORDER",
    "NotConcluded",
    "PlaybookRef",
    "ReviewResult",
    "finding_dict",
    "proposal_for",
    "review",
    "severity_at_least",
    "store_review",
]

#: Most severe first.
SEVERITY_ORDER: tuple[str, ...] = ("critical", "high", "medium", "low", "info")
_ABSENCE_OUTCOMES = ("missing", "referenced_not_provided")
_UNSUPPORTED_NUMBER = "a finding cannot state a number its quote does not contain"


def severity_at_least(severity: str | None, threshold: str) -> bool:
    """True when `severity` is `threshold` or more severe (unknown severities never are)."""
    if severity not in SEVERITY_ORDER or threshold not in SEVERITY_ORDER:
        return False
    return SEVERITY_ORDER.index(severity) <= SEVERITY_ORDER.index(threshold)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaybookRef:
    """Which playbook a review ran: recorded with every review."""

    id: str
    version: str
    sha256: str
    title: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "version": self.version, "sha256": self.sha256, "title": self.title}


@dataclass(frozen=True, slots=True, kw_only=True)
class NotConcluded:
    """A rule the review could not conclude on, so it made no finding (e.g. an incomplete search)."""

    rule: str
    title: str
    outcome: str  # always "needs_review"
    severity: str
    proposed_outcome: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {
            "rule": self.rule,
            "title": self.title,
            "outcome": self.outcome,
            "severity": self.severity,
            "proposed_outcome": self.proposed_outcome,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewResult:
    """A finished review: the findings that surfaced, what was rejected or not concluded, and the audit."""

    document: Document
    playbook: PlaybookRef
    findings: tuple[Finding, ...]  # surfaced: verified or needs_review, gate ids F1, F2…
    rejected: tuple[Finding, ...] = ()  # every quote failed: not surfaced, kept in the audit
    not_concluded: tuple[NotConcluded, ...] = ()
    not_applicable: tuple[str, ...] = ()  # rules the playbook judged not applicable
    audit: tuple[AuditEvent, ...] = ()
    review_id: int | None = None  # set once stored
    version_id: int | None = None
    summary: Mapping[str, Any] = field(default_factory=dict)
    roles: RoleBinding | None = None  # who is us, who is them, and on what basis
    contract_type: ContractType | None = None
    fit: Mapping[str, Any] = field(
        default_factory=dict
    )  # {"fits": bool, "types": [...], "warning": str|None, "reviewed_as": str}
    audit_head: Mapping[str, Any] | None = None  # the audit chain's head once stored (hash, entries)

    def to_dict(self) -> dict[str, Any]:
        """The `citationgate review --format json` shape."""
        document = document_summary(self.document, version_id=self.version_id)
        if self.contract_type is not None:
            document["type"] = self.contract_type.to_dict()
        fit = dict(self.fit)
        document["incorporates"] = fit.pop("incorporates", [])
        return {
            "review": {
                "id": self.review_id,
                "kind": "review",
                "playbook": self.playbook.to_dict(),
                "audit_head": dict(self.audit_head) if self.audit_head else None,
            },
            "document": document,
            "fit": fit,
            "roles": self.roles.to_dict() if self.roles is not None else None,
            "summary": dict(self.summary),
            "findings": [finding_dict(f) for f in self.findings],
        }


def document_summary(document: Document, *, version_id: int | None = None) -> dict[str, Any]:
    return {
        "name": document.name,
        "version_id": version_id,
        "file_type": document.file_type,
        "view": document.view,
        "text_sha256": document.text_sha256,
        "source_sha256": document.source_sha256,
        "status": document.status,
        "pages": len(document.pages) or None,
    }


def finding_dict(finding: Finding) -> dict[str, Any]:
    """A finding's JSON: the gate's fields plus the playbook's, with the playbook's reason as `rationale`."""
    d = finding.to_dict()
    details = finding.proposal.details
    if "reason" in details:
        d["rationale"] = details["reason"]
    d.setdefault("extracted", {})
    d.setdefault("searched", None)
    return d


def proposal_for(outcome: ClauseOutcome, *, pid: str, proposer: str) -> Proposal | NotConcluded | None:
    """The gate proposal for one playbook outcome; NotConcluded when no finding may be made; None to skip."""
    if outcome.outcome == "not_applicable":
        return None
    details: dict[str, Any] = {
        "outcome": outcome.outcome,
        "title": outcome.title,
        "extracted": {k: v.to_dict() for k, v in outcome.extracted.items()},
        "guidance": outcome.guidance,
        "model_language": outcome.model_language,
        "reason": outcome.reason,
    }
    if outcome.approval:
        details["approval"] = outcome.approval
    if outcome.weak:
        details["weak_links"] = list(outcome.weak)
    if outcome.location is not None:  # how the clause was located: the locator's score, rank and version
        details["location"] = outcome.location.to_dict()
    if outcome.quotes:
        if outcome.searched is not None:
            details["searched"] = {k: v for k, v in outcome.searched.to_dict().items() if k != "complete"}
        citations = tuple(
            CitationRequest(quote=q.text, section=q.section, near=q.start) for q in outcome.quotes
        )
        return Proposal(
            id=pid,
            claim=outcome.claim,
            rule=outcome.rule,
            severity=outcome.severity,
            proposer=proposer,
            citations=citations,
            details=details,
        )
    if outcome.outcome in _ABSENCE_OUTCOMES:
        s = outcome.searched
        if s is None:
            why = "the engine reported no search record, so absence cannot be concluded"
        elif not s.complete:
            covered = ", ".join(s.coverage) or "nothing"
            why = (
                f"the search did not cover the whole document (covered: {covered}), "
                "so absence cannot be concluded"
            )
        else:
            absence = AbsenceEvidence(requirement=s.requirement, searched=s.queries, coverage=s.coverage)
            return Proposal(
                id=pid,
                claim=outcome.claim,
                rule=outcome.rule,
                severity=outcome.severity,
                proposer=proposer,
                absence=absence,
                details=details,
            )
        return _not_concluded(outcome, why)
    return _not_concluded(
        outcome,
        f"no passage was quoted for this {outcome.outcome} outcome: {outcome.reason or 'no reason given'}",
    )


def judgement_footing(
    document: Document, playbook: Playbook, *, we: str | None = None
) -> tuple[RoleBinding, ContractType, dict[str, Any]]:
    """Who is who and what kind of contract this is, before any rule is judged."""
    parties = read_parties(document.text)
    roles = resolve_roles(document.text, parties, playbook.our_role, we=we)
    ctype = classify(document.text)
    fits = playbook.fits
    # a title that names two kinds ("Co-Branding and Services Agreement") is both: the playbook fits one of
    # them, and the contract is reviewed as that kind
    reviewed_as = ctype.type
    if fits and ctype.type not in fits:
        reviewed_as = next((k for k in ctype.kinds if k in fits), ctype.type)
    ok = not fits or reviewed_as in fits
    warning = None
    if not ok:
        warning = (
            f"this looks like a {ctype.type.replace('_', ' ')} contract ({ctype.basis}); the playbook "
            f"'{playbook.id}' is written for {', '.join(t.replace('_', ' ') for t in fits)} contracts, "
            "so its positions may not fit"
        )
    fit: dict[str, Any] = {"fits": ok, "types": list(fits), "warning": warning, "reviewed_as": reviewed_as}
    fit.update(_partial_footing(document.text))
    return roles, ctype, fit


def _partial_footing(text: str) -> dict[str, Any]:
    """The other agreements this document hands terms to ("subject to the terms and conditions of the
    Distributor Agreement"), each with the sentence that does it: the review of such a document is partial,
    and the lawyer is told so before any finding."""
    found = incorporations(text)
    if not found:
        return {"partial": False, "incorporates": []}
    names = list(dict.fromkeys(i.name for i in found))
    said = " and ".join(f"the {n}" for n in names)
    one = len(names) == 1
    return {
        "partial": True,
        "incorporates": [
            {
                "name": i.name,
                "quote": text[i.start : i.end],
                "start": i.start,
                "end": i.end,
                "topics": list(i.topics),
            }
            for i in found
        ],
        "incorporation_warning": (
            f"this document incorporates {said}, which {'is' if one else 'are'} not in this file: what it "
            f"leaves to {'that agreement' if one else 'those agreements'} is not reviewed here, and a clause "
            "missing from this document may stand there"
        ),
    }


_COPIED = re.compile(r"“[^”]*”|\"[^\"]*\"")


def _ledger_pass(finding: Finding) -> Finding:
    """The claim ledger turned on our own claim: every value the claim states (a number, a period, an amount,
    a date) must be in the verified quotes. A value its quotes do not contain is a weak link, named."""
    if finding.evidence is not Evidence.QUOTE:
        return finding
    quotes = " ".join(q.text for q in finding.verified_quotes)
    if not quotes:
        return finding
    # the values the engine says it read follow the dash ("— payment days: 60 (“sixty (60) days”)"); the
    # playbook's own thresholds before it ("under 30 days") are policy, not readings of the contract
    claim = finding.proposal.claim
    if " — " not in claim:
        return finding
    said = _COPIED.sub(" ", claim.rsplit(" — ", 1)[1])  # words in quotation marks are the document's own
    have = extract_values(quotes)
    missing = [v.text for v in extract_values(said) if not value_present(v, have)]
    if not missing:
        return finding
    note = f"the claim states {', '.join(repr(m) for m in missing)}, which its quotes do not contain"
    details = {**finding.proposal.details, "ledger": {"status": "unsupported", "words": missing}}
    weak = [*(details.get("weak_links") or []), note]
    details["weak_links"] = weak
    return replace(finding, proposal=replace(finding.proposal, details=details))


def _weakest_link(finding: Finding) -> Finding:
    """Supervision follows the weakest link: a finding whose judgement has a weak link is not `standard`."""
    finding = _ledger_pass(finding)
    weak = finding.proposal.details.get("weak_links") or []
    if finding.supervision is not Supervision.STANDARD:
        return finding
    if weak:
        why = "judgement not firm: " + "; ".join(weak)
    elif finding.proposal.details.get("outcome") == "needs_review":
        # the engine did not decide: a finding that asks for review is never read at standard supervision
        why = "not decided by the engine: a lawyer must read the clause"
    else:
        return finding
    return replace(
        finding,
        supervision=Supervision.ELEVATED,
        reason=f"{finding.reason}; {why}" if finding.reason else why,
    )


def _not_concluded(outcome: ClauseOutcome, why: str) -> NotConcluded:
    return NotConcluded(
        rule=outcome.rule,
        title=outcome.title,
        outcome="needs_review",
        severity=outcome.severity,
        proposed_outcome=outcome.outcome,
        reason=why,
    )


def _check_extracted(finding: Finding, actor: str, document_sha256: str) -> tuple[Finding, list[AuditEvent]]:
    """Drop extracted values outside every verified quote; such a finding goes to needs_review."""
    extracted = finding.proposal.details.get("extracted") or {}
    if finding.evidence is not Evidence.QUOTE or not extracted:
        return finding, []
    spans = [(q.start, q.end) for q in finding.verified_quotes]
    kept: dict[str, Any] = {}
    dropped: list[str] = []
    for name, value in extracted.items():
        start, end = value.get("start"), value.get("end")
        if isinstance(start, int) and isinstance(end, int) and any(a <= start and end <= b for a, b in spans):
            kept[name] = value
        else:
            dropped.append(name)
    if not dropped:
        return finding, []
    names = ", ".join(f"{n} ({extracted[n].get('text')!r})" for n in dropped)
    why = f"extracted value(s) {names} not inside a verified quote: {_UNSUPPORTED_NUMBER}"
    details = {
        **finding.proposal.details,
        "extracted": kept,
        "dropped_extracted": {n: extracted[n] for n in dropped},
        "proposed_outcome": finding.proposal.details.get("outcome"),
        "outcome": "needs_review",
    }
    supervision = Supervision.ELEVATED if finding.supervision is Supervision.STANDARD else finding.supervision
    updated = replace(
        finding,
        proposal=replace(finding.proposal, details=details),
        status=FindingStatus.NEEDS_REVIEW,
        supervision=supervision,
        reason=f"{finding.reason}; {why}" if finding.reason else why,
    )
    event = AuditEvent(
        action="extracted",
        result="dropped",
        actor=actor,
        document_sha256=document_sha256,
        rule=finding.proposal.rule,
        reason=why,
        payload={"proposal_id": finding.proposal.id, "dropped": dropped},
    )
    return updated, [event]


def _summary(
    findings: Sequence[Finding], rejected: Sequence[Finding], not_concluded: Sequence[NotConcluded]
) -> dict[str, Any]:
    by_severity = Counter(str(f.proposal.severity) for f in findings)
    by_outcome = Counter(str(f.proposal.details.get("outcome")) for f in findings)
    return {
        "findings": len(findings),
        "by_severity": {s: by_severity[s] for s in SEVERITY_ORDER if by_severity[s]},
        "by_outcome": dict(sorted(by_outcome.items())),
        "absence": sum(1 for f in findings if f.evidence is Evidence.ABSENCE),
        "needs_review": sum(1 for f in findings if f.status is FindingStatus.NEEDS_REVIEW),
        "rejected": len(rejected),
        "not_concluded": [n.to_dict() for n in not_concluded],
    }


def review(
    document: Document,
    playbook: Playbook,
    *,
    store: Store | None = None,
    version_id: int | None = None,
    outcomes: Iterable[ClauseOutcome] | None = None,
    we: str | None = None,
    locator: Locator | Literal[False] | None = None,
) -> ReviewResult:
    """Run `playbook` over `document`, gate every proposal, and (with `store`) write one review.

    First the judgement's footing: the parties and which of them is *us* (`we` names it; otherwise the
    playbook's role is inferred from the contract's own words), and the contract's type against the types
    the playbook fits. `outcomes` replaces the engine's run (for tests and for callers that already ran it).
    `locator`: the clause locator fused into location (None: the shipped one; False: the rules alone).
    Raises WithheldDocumentError for a withheld document.
    """
    if not document.ready:
        reasons = "; ".join(document.reasons) or "no reason recorded"
        raise WithheldDocumentError(
            f"{document.name}: the document is withheld, so nothing is reviewed against it: {reasons}"
        )
    ref = PlaybookRef(id=playbook.id, version=playbook.version, sha256=playbook.sha256, title=playbook.title)
    proposer = f"playbook:{ref.id}@{ref.version}"
    roles, ctype, fit = judgement_footing(document, playbook, we=we)
    if outcomes is not None:
        results = list(outcomes)
    else:
        bound = playbook.bind(
            {
                "us": role_alternation(roles, "us", our_role=playbook.our_role),
                "them": role_alternation(roles, "them", our_role=playbook.our_role),
            }
            if roles.resolved
            else {}
        )
        results = run_playbook(
            document,
            bound,
            contract_type=fit["reviewed_as"] if fit["reviewed_as"] != "other" else None,
            roles_unresolved=None if roles.resolved else roles.basis,
            locator=locator,
        )

    proposals: list[Proposal] = []
    not_concluded: list[NotConcluded] = []
    not_applicable: list[str] = []
    for outcome in results:
        # the proposal carries the id the gate will give its finding (F1, F2… in proposal order), so a
        # playbook finding has one id everywhere: `id` == `proposal_id`, in the audit log and the ledger
        made = proposal_for(outcome, pid=f"F{len(proposals) + 1}", proposer=proposer)
        if made is None:
            not_applicable.append(outcome.rule)
        elif isinstance(made, NotConcluded):
            not_concluded.append(made)
        else:
            proposals.append(made)

    gated = gate(document, proposals, actor=proposer)
    audit = list(gated.audit)
    surfaced: list[Finding] = []
    rejected: list[Finding] = []
    by_pid = {f.proposal.id: f for f in gated.findings}
    for p in proposals:  # the playbook's order, whatever order the gate returns
        finding = by_pid.get(p.id)
        if finding is None:
            continue
        if finding.status is FindingStatus.REJECTED:
            rejected.append(finding)
            continue
        finding, events = _check_extracted(finding, proposer, document.text_sha256)
        audit.extend(events)
        surfaced.append(_weakest_link(finding))  # keeps the gate's id, which its audit entries name

    summary = _summary(surfaced, rejected, not_concluded)
    summary["not_applicable"] = not_applicable
    summary["playbook_title"] = ref.title
    summary["roles"] = roles.basis
    if fit.get("warning"):
        summary["fit_warning"] = fit["warning"]
    if fit.get("incorporation_warning"):
        summary["incorporation_warning"] = fit["incorporation_warning"]
    result = ReviewResult(
        roles=roles,
        contract_type=ctype,
        fit=fit,
        document=document,
        playbook=ref,
        findings=tuple(surfaced),
        rejected=tuple(rejected),
        not_concluded=tuple(not_concluded),
        not_applicable=tuple(not_applicable),
        audit=tuple(audit),
        version_id=version_id,
        summary=summary,
    )
    if store is None:
        return result
    return store_review(store, result)


def store_review(store: Store, result: ReviewResult) -> ReviewResult:
    """Write a finished review — its findings and every audit entry — in one transaction."""
    ref = result.playbook
    record = store.write_review(
        kind="review",
        document=result.document,
        findings=[finding_dict(f) for f in result.findings],
        audit=result.audit,
        version_id=result.version_id,
        playbook={"id": ref.id, "version": ref.version, "sha256": ref.sha256},
        summary=result.summary,
    )
    head = record.audit_head.to_dict() if record.audit_head else None
    return replace(result, review_id=record.id, version_id=record.version.id, audit_head=head)
