"""Clause presence and absence on CUAD: the built-in playbook's findings against the experts' labels.

Each CUAD category is mapped to the playbook rules (and, where a category is one aspect of a clause,
the extracted value) that speak to it — see `CUAD_MAP`. For every contract and category:

- we say **present** when a surfaced, quote-verified finding of a mapped rule exists (and its mapped
  value was extracted);
- we say **absent** when the review made an absence finding (`missing`) for a mapped rule;
- we say **unconfirmed** when the only such findings are present but unconfirmed (their `location` is
  doubted: the engine found weak evidence — patterns alone, weaker language, a heading it could not read —
  and the learned locator reads no such clause anywhere in the contract): the passage is quoted for review,
  but the review does not claim the clause; it is neither present nor absent here, and counted apart
  (`unconfirmed_present`: the experts mark the clause; `unconfirmed_absent`: they do not);
- otherwise we say nothing (a rule the playbook does not require is not reported missing).

Precision/recall/F1 are of "present". The **false-absence rate** is the share of contracts where the
experts found the clause and we reported it missing — the expensive error. **Span overlap** is the share
of our quoted findings of a mapped rule whose verified quote overlaps an expert span of the category with
a Jaccard of at least 0.5 (CUAD's own scoring threshold), measured on character ranges. **Cited overlap**
is the share of contracts rightly flagged present whose cited passage overlaps an expert span of the
category by at least half of the shorter of the two (a ~450-character passage rarely has Jaccard 0.5 with
a one-sentence span, yet it is the right place to read).

Three modes (`MODES`): the rules alone, the learned locator alone, and the two fused as the review ships.
Macro figures are over the 25 clause types of `CUAD_MAP` (`CLAUSE_CATEGORIES`). **Where asked**
(`where_asked`, the fused review's figures again): the same, leaving out each decision whose mapped rule
the playbook does not apply to the contract's type (`applies_to`: it asks who owns the deliverables, or for
data return and transition help, of services-like contracts only, while CUAD marks IP assignment and
post-termination obligations in every contract); `not_asked` counts the decisions left out, and how many of
them the experts mark.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citationgate.evaluation.data import DataMissingError, cuad_records
from citationgate.model import Evidence, Finding
from citationgate.review import review
from ingest.document import Document
from ingest.load import load_document
from playbooks import load_playbook
from playbooks.incorporation import INCORPORATED_REASON
from playbooks.locator import Locator, Scan, categories_of, load_locator


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


def _unconfirmed(finding: Finding) -> bool:
    """Present but unconfirmed: the finding's location is doubted (see the module's docstring)."""
    return bool((finding.proposal.details.get("location") or {}).get("doubted"))


def _present(
    findings: Sequence[Finding], when: When, *, unconfirmed: bool = False
) -> list[tuple[int, int]] | None:
    """The verified quote ranges of the findings satisfying `when`, or None when there are none
    (`unconfirmed=True`: of the unconfirmed ones instead of the others)."""
    spans: list[tuple[int, int]] = []
    hit = False
    for f in findings:
        if f.proposal.rule != when.rule or f.evidence is not Evidence.QUOTE:
            continue
        if _unconfirmed(f) != unconfirmed:
            continue
        if f.proposal.details.get("outcome") in ("missing", "referenced_not_provided", "not_applicable"):
            continue
        if str(f.proposal.details.get("reason", "")).startswith(INCORPORATED_REASON):
            continue  # an absence left open by an incorporation: its quote is the incorporating sentence
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


def _covers(q: tuple[int, int], e: tuple[int, int]) -> bool:
    """The cited passage and an expert span overlap by at least half of the shorter of the two."""
    inter = min(q[1], e[1]) - max(q[0], e[0])
    return inter > 0 and inter >= 0.5 * min(q[1] - q[0], e[1] - e[0])


#: rules: the playbook's patterns and headings alone; locator: the learned locator alone (a category is
#: present when its best passage is over the head's threshold, and that passage is the one cited);
#: fused: the review as it ships, rules and locator together (playbooks.locator.fusion)
MODES = ("rules", "locator", "fused")


class _Tally:
    def __init__(self, categories: Sequence[str]) -> None:
        keys = ("tp", "fp", "fn", "tn", "fa", "ours", "overlap", "cited", "cited_hit", "uc_tp", "uc_fp")
        self.counts = {c: dict.fromkeys(keys, 0) for c in categories}

    def add(
        self,
        category: str,
        *,
        present: bool,
        absent: bool,
        ours: Sequence[tuple[int, int]],
        expert: Sequence[tuple[int, int]],
        expert_present: bool,
        unconfirmed: bool = False,
    ) -> None:
        c = self.counts[category]
        if unconfirmed and not present:
            c["uc_tp" if expert_present else "uc_fp"] += 1
        if present and expert_present:
            c["tp"] += 1
            c["cited"] += 1
            c["cited_hit"] += int(any(_covers(q, e) for q in ours for e in expert))
        elif present:
            c["fp"] += 1
        elif expert_present:
            c["fn"] += 1
            c["fa"] += int(absent)
        else:
            c["tn"] += 1
        for q in ours:
            c["ours"] += 1
            c["overlap"] += int(any(_jaccard(q, e) >= 0.5 for e in expert))

    def report(self, mapping: Mapping[str, Sequence[When]]) -> dict[str, Any]:
        categories: dict[str, Any] = {}
        tot = dict.fromkeys(
            ("tp", "fp", "fn", "fa", "ours", "overlap", "cited", "cited_hit", "uc_tp", "uc_fp"), 0
        )
        for category, c in self.counts.items():
            for k in tot:
                tot[k] += c[k]
            categories[category] = _metrics(c) | {"rules": sorted({w.rule for w in mapping[category]})}
        clause_types = [m for k, m in categories.items() if k in CLAUSE_CATEGORIES]
        macro = {
            k: _mean([m[k] for m in clause_types]) for k in ("precision", "recall", "f1", "cited_overlap")
        }
        return {"categories": categories, "overall": _metrics(tot), "macro": macro}


def _mean(xs: Sequence[float | None]) -> float | None:
    vals = [x for x in xs if x is not None]
    return sum(vals) / len(vals) if vals else None


#: the clause types of CUAD_MAP (its metadata categories — parties and dates — left out of macro figures)
CLAUSE_CATEGORIES = tuple(
    c for c in CUAD_MAP if c not in ("Parties", "Agreement Date", "Effective Date", "Expiration Date")
)


def _fold_locators(cv_dir: Path) -> tuple[dict[str, int], dict[int, Locator]]:
    folds_file = cv_dir / "folds.json"
    if not folds_file.is_file():
        raise DataMissingError(
            f"{cv_dir}: no folds.json (write the fold models with `citationgate train locator --cv-dir`)"
        )
    fold_of: dict[str, int] = json.loads(folds_file.read_text(encoding="utf-8"))["fold_of"]
    models = {f: load_locator(cv_dir / f"fold{f}.npz") for f in sorted(set(fold_of.values()))}
    return fold_of, models


def evaluate_clauses(
    data_dir: Path,
    *,
    playbook_ref: str = "msa-customer",
    mapping: Mapping[str, Sequence[When]] | None = None,
    limit: int | None = None,
    skip: int = 0,
    progress: Callable[[int], None] | None = None,
    modes: Sequence[str] = ("fused",),
    cv_dir: Path | None = None,
) -> dict[str, Any]:
    """Clause presence per category for each of `modes` (see MODES).

    With `cv_dir` (written by `citationgate train locator --cv-dir`), every contract is scored by the fold
    model that did not train on it; without it the shipped locator is used, which saw every shared
    contract in training (`in_sample` says so). `skip`: leave out the first N contracts (with `limit`, the
    contracts N+1 … N+limit), so a setting chosen on one range can be measured on another.
    """
    mapping = mapping if mapping is not None else CUAD_MAP
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        raise ValueError(f"unknown mode {unknown[0]!r} (expected one of {', '.join(MODES)})")
    playbook = load_playbook(playbook_ref)
    rule_category = categories_of(playbook)
    fold_of, fold_models = _fold_locators(cv_dir) if cv_dir is not None else ({}, {})
    tallies = {m: _Tally(list(mapping)) for m in modes}
    asked = _Tally(list(mapping))  # the main mode's decisions where the playbook asks the question
    applies_to = {c.id: c.applies_to for c in playbook.clauses}
    not_asked = {"decisions": 0, "expert_present": 0}
    main_mode = "fused" if "fused" in modes else modes[-1]
    contracts = 0
    seconds = 0.0
    errors: list[dict[str, str]] = []
    for n, rec in enumerate(cuad_records(data_dir, limit=None if limit is None else skip + limit)):
        if n < skip:
            continue
        try:
            if fold_models and rec.id not in fold_of:
                raise DataMissingError(f"{rec.id}: not in the cross-validation folds of {cv_dir}")
            locator = fold_models[fold_of[rec.id]] if fold_models else load_locator()
            document: Document = load_document(rec.text_path)
            found: dict[str, list[Finding] | Scan] = {}
            kind: str | None = None  # the contract's type, as the review classified it
            for mode in modes:
                t0 = time.perf_counter()
                if mode == "locator":
                    found[mode] = locator.scan(document)
                    continue
                result = review(document, playbook, locator=locator if mode == "fused" else False)
                found[mode] = list(result.findings)
                ct = result.contract_type
                kind = ct.type if ct is not None and ct.type != "other" else kind
                if mode == modes[-1] or mode == "fused":
                    seconds += time.perf_counter() - t0
        except Exception as exc:  # an evaluation reports every failure and goes on
            errors.append({"id": rec.id, "error": f"{type(exc).__name__}: {exc}"})
            continue
        contracts += 1
        for category, whens in mapping.items():
            cat = rec.categories.get(category)
            if cat is None:
                continue
            expert = [(s["start"], s["end"]) for s in cat["spans"]]
            for mode, got in found.items():
                if isinstance(got, Scan):
                    present, ours = _located(got, category, {rule_category.get(w.rule) for w in whens})
                    absent, unconfirmed = not present, False
                else:
                    present, ours = False, []
                    for w in whens:
                        spans = _present(got, w)
                        if spans is not None:
                            present = True
                            ours.extend(spans)
                    absent = not present and _absent(got, {w.rule for w in whens})
                    unconfirmed = any(_present(got, w, unconfirmed=True) is not None for w in whens)
                targets = [tallies[mode]]
                if (
                    mode == main_mode
                    and kind is not None
                    and any(applies_to.get(w.rule) and kind not in applies_to[w.rule] for w in whens)
                ):
                    not_asked["decisions"] += 1
                    not_asked["expert_present"] += int(not cat["is_impossible"])
                elif mode == main_mode:
                    targets.append(asked)
                for t in targets:
                    t.add(
                        category,
                        present=present,
                        absent=absent,
                        ours=ours,
                        expert=expert,
                        expert_present=not cat["is_impossible"],
                        unconfirmed=unconfirmed,
                    )
        if progress:
            progress(1)
    by_mode = {m: t.report(mapping) | {"contracts": contracts} for m, t in tallies.items()}
    main = by_mode[main_mode]
    overall = main["overall"] | {"contracts": contracts, "skipped": skip, "errors": len(errors)}
    return {
        "categories": main["categories"],
        "overall": overall,
        "macro": main["macro"],
        "where_asked": asked.report(mapping) | {"not_asked": not_asked},
        "modes": by_mode,
        "locator": {
            "version": (next(iter(fold_models.values())).version if fold_models else load_locator().version),
            "in_sample": not fold_models,
            "cv_dir": str(cv_dir) if cv_dir else None,
        },
        "errors": errors[:20],
        "speed": {
            "contracts": contracts,
            "seconds": round(seconds, 3),
            "contracts_per_second": round(contracts / seconds, 2) if seconds else None,
        },
    }


def _located(scan: Scan, category: str, heads: set[str | None]) -> tuple[bool, list[tuple[int, int]]]:
    """The locator alone: the category's own head (or, for a category no head is named after, the head of
    the rule that stands for it) says present when its best passage is over the threshold."""
    names = [category] if category in scan.locator.categories else [h for h in heads if h]
    for name in names:
        top = scan.top(name, k=1)
        if top and top[0].score >= scan.locator.threshold(name):
            return True, [(top[0].start, top[0].end)]
    return False, []


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
        "cited_overlap": _rate(c["cited_hit"], c["cited"]),
        "unconfirmed_present": c["uc_tp"],
        "unconfirmed_absent": c["uc_fp"],
    }
