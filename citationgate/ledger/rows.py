"""The ledger itself: rows of atomic claims, their cited passages, labels and actions."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from citationgate.ledger.labels import _ENGINE_ACCOUNT, _EVALUATIVE, ACTIONS, Authority, Support
from citationgate.ledger.support import Judge, Problem, SupportCheck, check_support
from citationgate.ledger.words import split_claims
from ingest.document import Document


# ── the ledger ───────────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True, slots=True, kw_only=True)
class CitedPassage:
    """A verified passage a claim cites: the document's own text at `[start, end)`."""

    finding: str | None
    start: int | None
    end: int | None
    text: str
    section: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "finding": self.finding,
            "start": self.start,
            "end": self.end,
            "section": self.section,
            "text": self.text,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class LedgerRow:
    """One atomic claim, its passages, its support label, and what to do about it."""

    id: str
    claim: str
    source: str  # the finding id or answer sentence the claim came from
    original: str  # the whole claim it was split from
    passages: tuple[CitedPassage, ...]
    support: Support
    explanation: str
    action: str
    authority: Authority
    proposed: str | None = None
    rejected: str | None = None
    problems: tuple[Problem, ...] = ()
    decided_by: str = "rules"
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "claim": self.claim,
            "source": self.source,
            "original": self.original,
            "passages": [p.to_dict() for p in self.passages],
            "support": self.support.value,
            "explanation": self.explanation,
            "action": self.action,
            "proposed": self.proposed,
            "rejected": self.rejected,
            "authority": self.authority,
            "decided_by": self.decided_by,
            "problems": [p.to_dict() for p in self.problems],
            **dict(self.extra),
        }


def ledger_rows(
    claim: str,
    passages: Sequence[CitedPassage],
    *,
    source: str,
    authority: Authority,
    judge: Judge | None = None,
    unverifiable_reason: str | None = None,
) -> list[LedgerRow]:
    """Split `claim` into atomic claims and check each against the union of `passages`."""
    rows = []
    atoms = split_claims(claim) or [claim.strip()]
    for i, atom in enumerate(atoms, 1):
        source_authority = authority
        if unverifiable_reason is not None:
            check = SupportCheck(label=Support.UNVERIFIABLE, explanation=unverifiable_reason)
        elif m := _EVALUATIVE.search(atom):
            source_authority = "playbook"
            check = SupportCheck(
                label=Support.UNVERIFIABLE,
                explanation=(
                    f"a judgement against the playbook ('{m.group(0)}'), not a statement of the "
                    "contract: no passage can establish it"
                ),
            )
        elif m := _ENGINE_ACCOUNT.search(atom):
            check = SupportCheck(
                label=Support.UNVERIFIABLE,
                explanation=(
                    f"the engine's account of what it could not read ('{m.group(0)}'), not a statement "
                    "of the contract: the reader settles it by reading the quoted words"
                ),
            )
        else:
            check = check_support(atom, [p.text for p in passages], judge=judge)
        action = ACTIONS[check.label]
        explanation = check.explanation
        if check.label is Support.UNSUPPORTED:
            explanation += "; removed unless new evidence is verified"
        rows.append(
            LedgerRow(
                id=f"{source}.{i}",
                claim=atom,
                source=source,
                original=claim,
                passages=tuple(passages),
                support=check.label,
                explanation=explanation,
                action=action,
                authority=source_authority,
                proposed=check.proposed,
                rejected=atom if check.label is Support.PARTIAL else None,
                problems=check.problems,
                decided_by=check.decided_by,
            )
        )
    return rows


_ANNEX_LABEL = re.compile(r"(?i)^(schedule|exhibit|annex|appendix|attachment)\b")


def authority_of(finding: Mapping[str, Any], document: Document | None) -> Authority:
    """Where a finding's words come from: the contract body, a schedule/exhibit, or a document the
    contract refers to but that was not supplied. Recorded beside the support label, never in it."""
    if str(finding.get("outcome") or "") == "referenced_not_provided":
        return "referenced_not_supplied"
    verified = [
        c for c in finding.get("citations") or () if isinstance(c, Mapping) and c.get("status") == "verified"
    ]
    if not verified:
        return "none"
    for c in verified:
        if _in_annex(c, document):
            return "schedule"
    return "contract"


def _in_annex(citation: Mapping[str, Any], document: Document | None) -> bool:
    start = citation.get("start")
    if document is not None and isinstance(start, int):
        for s in document.sections:
            if s.start <= start < s.end and (
                s.kind in ("schedule", "exhibit") or _ANNEX_LABEL.match(s.label)
            ):
                return True
        return False
    return bool(_ANNEX_LABEL.match(str(citation.get("section") or "")))


def finding_passages(finding: Mapping[str, Any]) -> list[CitedPassage]:
    """The verified passages of a finding (its citations whose status is `verified`)."""
    out = []
    for c in finding.get("citations") or ():
        if isinstance(c, Mapping) and c.get("status") == "verified" and isinstance(c.get("text"), str):
            out.append(
                CitedPassage(
                    finding=str(finding.get("id")),
                    start=c.get("start"),
                    end=c.get("end"),
                    text=c["text"],
                    section=c.get("section"),
                )
            )
    return out


def build_ledger(
    findings: Sequence[Mapping[str, Any]], *, document: Document | None = None, judge: Judge | None = None
) -> list[LedgerRow]:
    """One row per atomic claim of every finding that surfaced (rejected findings never do)."""
    rows: list[LedgerRow] = []
    for f in findings:
        if f.get("status") == "rejected":
            continue
        fid = str(f.get("id"))
        claim = str(f.get("claim") or "").strip()
        if not claim:
            continue
        passages = finding_passages(f)
        reason = None
        if f.get("evidence") == "absence":
            reason = "absence finding: no passage to inspect (it reports what was searched and not found)"
        elif f.get("outcome") == "referenced_not_provided":
            reason = (
                "the claim is about terms the contract refers to but that were not supplied: "
                "a passage cannot establish what is in them"
            )
        elif not passages:
            reason = "no verified passage: the finding's citations could not be inspected"
        made = ledger_rows(
            claim,
            passages,
            source=fid,
            authority=authority_of(f, document),
            judge=judge,
            unverifiable_reason=reason,
        )
        pid = f.get("proposal_id")
        rows.extend(replace(r, extra={**r.extra, "proposal_id": pid}) for r in made)
    return rows


def summarize(rows: Sequence[LedgerRow]) -> dict[str, int]:
    counts = {s.value: 0 for s in Support}
    for r in rows:
        counts[r.support.value] += 1
    return counts
