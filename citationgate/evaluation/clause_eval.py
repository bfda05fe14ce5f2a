"""Clause presence and absence on CUAD: the built-in playbook's findings against the experts' labels.

Each CUAD category is mapped to the playbook rules (and, where a category is one aspect of a clause,
the extracted value) that speak to it — see `CUAD_MAP`. For every contract and category:

- we say **present** when a surfaced, quote-verified finding of a mapped rule exists (and its mapped
  value was extracted);
- we say **absent** when the review made an absence finding (`missing`) for a mapped rule;
- otherwise we say nothing (a rule the playbook does not require is not reported missing).

Precision/recall/F1 are of "present". The **false-absence rate** is the share of contracts where the
experts found the clause and we reported it missing — the expensive error. **Span overlap** is the share
of our quoted findings of a mapped rule whose verified quote overlaps an expert span of the category with
a Jaccard of at least 0.5 (CUAD's own scoring threshold), measured on character ranges.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citationgate.evaluation.data import cuad_records
from citationgate.model import Evidence, Finding
from citationgate.review import review
from ingest.document import Document
from ingest.load import load_document
from playbooks import load_playbook


@dataclass(frozen=True, slots=True, kw_only=True)
class When:
    """A category is present when `rule` surfaced with a verified quote (and `field`, if named, was extracted
    with a value that is not false/empty; `value` narrows it to one value)."""

    rule: str
    field: str | None = None
    value: Any = None


# CUAD category → the playbook rules that speak to it. General contract semantics only: which clause a
# category is about, never anything about a particular document.
CUAD_MAP: Mapping[str, Sequence[When]] = {
    "Parties": (When(rule="parties"),),
    "Agreement Date": (When(rule="agreement_date"),),
    "Effective Date": (When(rule="effective_date"),),
    "Expiration Date": (When(rule="expiration_date"),),
    "Governing Law": (When(rule="governing_law"),),
    # CUAD's experts label consequential-damages exclusions as Cap on Liability; the rule locates both
    "Cap on Liability": (When(rule="limitation_of_liability"),),
    "Uncapped Liability": (When(rule="limitation_of_liability", field="carve_outs"),),
    # CUAD's experts label clauses permitting assignment (with consent, to affiliates) as Anti-Assignment
    "Anti-Assignment": (When(rule="assignment"),),
    "Change of Control": (When(rule="change_of_control"),),
    "Termination for Convenience": (When(rule="termination_for_convenience"),),
    # CUAD's renewal term includes renewal options and extensions, not only automatic renewal
    "Renewal Term": (When(rule="auto_renewal", field="renewal"),),
    "Notice Period to Terminate Renewal": (When(rule="auto_renewal", field="notice_days"),),
    "Insurance": (When(rule="insurance"),),
    "Audit Rights": (When(rule="audit_rights"),),
    "Warranty Duration": (When(rule="warranties", field="warranty_days"),),
    "Non-Compete": (When(rule="non_compete"),),
    "Exclusivity": (When(rule="exclusivity"),),
    "No-Solicit of Employees": (When(rule="non_solicitation"),),
    "No-Solicit of Customers": (When(rule="no_solicit_customers"),),
    # CUAD labels IP that passes to the other party, not a party keeping its own
    "IP Ownership Assignment": (When(rule="ip_ownership", field="ip_transfers"),),
    "License Grant": (When(rule="licence_grant"),),
    "Post-Termination Services": (When(rule="effect_of_termination"),),
    "Liquidated Damages": (When(rule="liquidated_damages"),),
    # CUAD labels a non-party who benefits; a "no third-party beneficiaries" clause is not one
    "Third Party Beneficiary": (When(rule="third_party_beneficiaries", field="grants_rights"),),
    "Most Favored Nation": (When(rule="most_favoured_nation"),),
    "Minimum Commitment": (When(rule="minimum_commitment"),),
    "Covenant Not to Sue": (When(rule="covenant_not_to_sue"),),
    "Non-Disparagement": (When(rule="non_disparagement"),),
    "Source Code Escrow": (When(rule="source_code_escrow"),),
}


def _jaccard(a: tuple[int, int], b: tuple[int, int]) -> float:
    inter = max(0, min(a[1], b[1]) - max(a[0], b[0]))
    union = max(a[1], b[1]) - min(a[0], b[0])
    return inter / union if union > 0 else 0.0


def _present(findings: Sequence[Finding], when: When) -> list[tuple[int, int]] | None:
    """The verified quote ranges of the findings satisfying `when`, or None when there are none."""
    spans: list[tuple[int, int]] = []
    hit = False
    for f in findings:
        if f.proposal.rule != when.rule or f.evidence is not Evidence.QUOTE:
            continue
        if f.proposal.details.get("outcome") in ("missing", "referenced_not_provided", "not_applicable"):
            continue
        if when.field is not None:
            extracted = f.proposal.details.get("extracted") or {}
            v = extracted.get(when.field)
            value = v.get("value") if isinstance(v, Mapping) else v
            if value in (None, False, [], "", "unclear"):
                continue
            if (
                when.value is not None
                and value != when.value
                and not (isinstance(value, list) and when.value in value)
            ):
                continue
        quotes = f.verified_quotes
        if quotes:
            hit = True
            spans.extend((q.start, q.end) for q in quotes)
    return spans if hit else None


def _absent(findings: Sequence[Finding], rules: set[str]) -> bool:
    return any(
        f.evidence is Evidence.ABSENCE
        and f.proposal.rule in rules
        and f.proposal.details.get("outcome") == "missing"
        for f in findings
    )


def _rate(num: int, den: int) -> float | None:
    return num / den if den else None


def evaluate_clauses(
    data_dir: Path,
    *,
    playbook_ref: str = "msa-customer",
    mapping: Mapping[str, Sequence[When]] | None = None,
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    mapping = mapping if mapping is not None else CUAD_MAP
    playbook = load_playbook(playbook_ref)
    counts = {c: {"tp": 0, "fp": 0, "fn": 0, "tn": 0, "fa": 0, "ours": 0, "overlap": 0} for c in mapping}
    contracts = 0
    seconds = 0.0
    errors: list[dict[str, str]] = []
    for rec in cuad_records(data_dir, limit=limit):
        t0 = time.perf_counter()
        try:
            document: Document = load_document(rec.text_path)
            result = review(document, playbook)
        except Exception as exc:  # an evaluation reports every failure and goes on
            errors.append({"id": rec.id, "error": f"{type(exc).__name__}: {exc}"})
            continue
        seconds += time.perf_counter() - t0
        contracts += 1
        findings = result.findings
        for category, whens in mapping.items():
            cat = rec.categories.get(category)
            if cat is None:
                continue
            expert_present = not cat["is_impossible"]
            expert_spans = [(s["start"], s["end"]) for s in cat["spans"]]
            ours: list[tuple[int, int]] = []
            present = False
            for w in whens:
                got = _present(findings, w)
                if got is not None:
                    present = True
                    ours.extend(got)
            absent = not present and _absent(findings, {w.rule for w in whens})
            c = counts[category]
            if present and expert_present:
                c["tp"] += 1
            elif present:
                c["fp"] += 1
            elif expert_present:
                c["fn"] += 1
                c["fa"] += int(absent)
            else:
                c["tn"] += 1
            for q in ours:
                c["ours"] += 1
                c["overlap"] += int(any(_jaccard(q, e) >= 0.5 for e in expert_spans))
        if progress:
            progress(1)
    categories: dict[str, Any] = {}
    tot = {"tp": 0, "fp": 0, "fn": 0, "fa": 0, "ours": 0, "overlap": 0}
    for category, c in counts.items():
        for k in tot:
            tot[k] += c[k]
        categories[category] = _metrics(c) | {"rules": sorted({w.rule for w in mapping[category]})}
    overall = _metrics(tot) | {"contracts": contracts, "errors": len(errors)}
    return {
        "categories": categories,
        "overall": overall,
        "errors": errors[:20],
        "speed": {
            "contracts": contracts,
            "seconds": round(seconds, 3),
            "contracts_per_second": round(contracts / seconds, 2) if seconds else None,
        },
    }


def _metrics(c: Mapping[str, int]) -> dict[str, Any]:
    precision = _rate(c["tp"], c["tp"] + c["fp"])
    recall = _rate(c["tp"], c["tp"] + c["fn"])
    f1 = (
        2 * precision * recall / (precision + recall)
        if precision is not None and recall is not None and precision + recall
        else None
    )
    return {
        "expert_present": c["tp"] + c["fn"],
        "predicted_present": c["tp"] + c["fp"],
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "false_absence_rate": _rate(c["fa"], c["tp"] + c["fn"]),
        "span_overlap": _rate(c["overlap"], c["ours"]),
    }
