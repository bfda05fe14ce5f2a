"""What a review concludes, against facts a careful reader labelled (`shared/data/facts/`).

Each facts file holds 25 facts about one CUAD contract (schema: `facts/SCHEMA.md`): governing law, the
liability cap, who may terminate for convenience and on what notice, cure days, the initial term, renewal,
assignment, confidentiality, data return, warranty period, IP, restrictive covenants, audit, insurance,
precedence, force majeure, payment days, price increases, data protection, service credits.

The review is run as a user would run it (`review`, built-in `msa-customer`, nobody named as *us*), and its
findings are read back into the same 25 facts by `read_facts` — one small reader per fact, from the rules
and extracted values that speak to it, and the parties the review resolved. A fact the review leaves
undecided (no finding, a `needs_review` that does not state the value, a party list when the parties were
not resolved) counts as **not read**, which is wrong: undecided is not a reading. Facts marked `uncertain`
are left out of the score.

Nothing here knows a document id or text; another data root of the same shape works the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citationgate.evaluation.data import DataMissingError
from citationgate.model import Evidence, Finding
from citationgate.review import ReviewResult, review
from ingest.load import load_document
from playbooks import load_playbook

__all__ = ["FACTS", "evaluate_facts", "read_facts"]

_ABSENT = ("missing", "referenced_not_provided", "not_applicable")


@dataclass(frozen=True, slots=True)
class _Reading:
    """The findings of one review, indexed by rule, with the parties it resolved."""

    by_rule: Mapping[str, Finding]
    not_applicable: frozenset[str]  # rules the engine judged not applicable (an optional clause not found)
    us: tuple[str, ...]  # the names/defined terms the review bound to "us" (empty: unresolved)
    them: tuple[str, ...]

    def found(self, rule: str) -> Finding | None:
        """The rule's surfaced, quote-backed finding when it located the clause (not a hint-only search)."""
        f = self.by_rule.get(rule)
        if f is None or f.evidence is not Evidence.QUOTE:
            return None
        d = f.proposal.details
        if d.get("outcome") in _ABSENT or str(d.get("reason", "")).startswith("uncertain search"):
            return None
        return f

    def absent(self, rule: str) -> bool:
        """The review concluded the clause is not there (an absence, or no finding and nothing hinted)."""
        f = self.by_rule.get(rule)
        if f is None:
            return True
        return f.proposal.details.get("outcome") in _ABSENT

    def value(self, rule: str, field: str) -> Any:
        f = self.found(rule)
        if f is None:
            return None
        v = (f.proposal.details.get("extracted") or {}).get(field)
        return v.get("value") if isinstance(v, Mapping) else v

    def parties(self, role: Any) -> list[str] | None:
        """The defined terms for an extracted role value ("us"/"them"/"both"/…); None: unresolved."""
        if role in (None, "", "unclear"):
            return None
        role = str(role)
        if role in ("either", "both", "mutual"):
            return [*self.us, *self.them] if self.us and self.them else None
        if role in ("customer", "us"):
            return list(self.us) or None
        if role in ("supplier", "them"):
            return list(self.them) or None
        if role == "none":
            return []
        return None


def _presence(r: _Reading, rule: str) -> bool | None:
    if r.found(rule) is not None:
        return True
    return False if r.absent(rule) else None


def _read_liability(r: _Reading) -> dict[str, Any] | None:
    f = r.found("limitation_of_liability")
    if f is None:
        return {"present": False} if r.absent("limitation_of_liability") else None
    months = r.value("limitation_of_liability", "cap_months")
    amount = r.value("limitation_of_liability", "cap_amount")
    base = r.value("limitation_of_liability", "cap_base")
    capped = r.value("limitation_of_liability", "capped") is True
    capped = capped or months is not None or amount is not None or base not in (None, "unclear")
    return {"present": capped, "months_of_fees": months}


def _read_consequential(r: _Reading) -> dict[str, Any] | None:
    if r.found("limitation_of_liability") is None:
        return {"present": False} if r.absent("limitation_of_liability") else None
    v = r.value("limitation_of_liability", "consequential_excluded")
    return None if v is None else {"present": bool(v)}


def _read_tfc(r: _Reading) -> dict[str, Any] | None:
    if r.found("termination_for_convenience") is None:
        return {"parties": []} if r.absent("termination_for_convenience") else None
    parties = r.parties(r.value("termination_for_convenience", "holder"))
    if parties is None:
        return None
    return {"parties": parties, "notice_days": r.value("termination_for_convenience", "notice_days")}


def _read_renewal(r: _Reading) -> dict[str, Any] | None:
    if r.found("auto_renewal") is None:
        return {"automatic": False} if r.absent("auto_renewal") else None
    auto = r.value("auto_renewal", "renews_automatically")
    if auto is None:
        return None
    out: dict[str, Any] = {"automatic": bool(auto)}
    if auto:
        out["non_renewal_notice_days"] = r.value("auto_renewal", "notice_days")
    return out


def _read_assignment(r: _Reading) -> dict[str, Any] | None:
    if r.found("assignment") is None:
        return {"value": False} if r.absent("assignment") else None
    restricted = r.value("assignment", "restricted")
    if restricted is not None:
        parties = r.parties(restricted)
        if parties is None:
            return None
        return {"value": bool(parties), "parties_restricted": parties}
    them = r.value("assignment", "supplier_needs_consent")
    us = r.value("assignment", "customer_needs_consent")
    if them is None and us is None:
        return None
    out: dict[str, Any] = {"value": bool(them or us)}
    if r.us and r.them:
        out["parties_restricted"] = [*(r.them if them else ()), *(r.us if us else ())]
    return out


def _read_coc(r: _Reading) -> bool | None:
    if r.found("change_of_control") is not None:
        return True
    v = r.value("assignment", "change_of_control")
    if v:
        return True
    if r.absent("change_of_control") and r.by_rule.get("assignment") is not None:
        return False
    return None


def _read_confidentiality(r: _Reading) -> dict[str, Any] | None:
    p = _presence(r, "confidentiality")
    return None if p is None else {"present": p}


def _read_return(r: _Reading) -> bool | None:
    values = [r.value("confidentiality", "return_destroy"), r.value("effect_of_termination", "data_return")]
    if any(v is True for v in values):
        return True
    # both clauses read (or concluded absent) and neither states a duty to return: the review says none
    read = [
        r.found(rule) is not None or r.absent(rule) for rule in ("confidentiality", "effect_of_termination")
    ]
    return False if all(read) else None


def _read_warranty(r: _Reading) -> int | str | None:
    if r.found("warranties") is None and not r.absent("warranties"):
        return "undecided"
    days: int | None = r.value("warranties", "warranty_days")
    return days


def _read_ip_indemnity(r: _Reading) -> dict[str, Any] | None:
    if r.found("ip_indemnity") is None:
        return {"present": False} if r.absent("ip_indemnity") else None
    who = r.value("ip_indemnity", "indemnifier")
    parties = r.parties(who) if who is not None else None
    out: dict[str, Any] = {"present": True}
    if parties is not None:
        out["indemnifying_parties"] = parties
    return out


def _read_ip_owner(r: _Reading) -> dict[str, Any] | None:
    f = r.found("ip_ownership")
    if f is None:
        return {"owner": None} if r.absent("ip_ownership") else None
    owner = r.value("ip_ownership", "deliverables_owner")
    if owner is None:
        return None
    if owner in ("joint",):
        return {"owner": "joint"}
    parties = r.parties(owner)
    return None if not parties else {"owner": parties[0]}


def _read_non_solicit(r: _Reading) -> dict[str, Any] | None:
    p = _presence(r, "non_solicitation")
    if p is None:
        return None
    return {"present": p, "months_after": r.value("non_solicitation", "period_months") if p else None}


def _read_audit(r: _Reading) -> dict[str, Any] | None:
    p = _presence(r, "audit_rights")
    if p is None:
        return None
    out: dict[str, Any] = {"present": p}
    who = r.value("audit_rights", "auditor")
    parties = r.parties(who) if who is not None else None
    if parties is not None:
        out["auditing_parties"] = parties
    return out


def _read_insurance(r: _Reading) -> dict[str, Any] | None:
    p = _presence(r, "insurance")
    return None if p is None else {"present": p}


def _read_precedence(r: _Reading) -> dict[str, Any] | None:
    if r.found("order_of_precedence") is None:
        return {"present": False} if r.absent("order_of_precedence") else None
    return {"present": r.value("order_of_precedence", "precedence") is not None}


def _months_between(start: Any, end: Any) -> int | None:
    """Whole months from one ISO date to another ("2019-11-01" to "2020-12-31": 14), or None."""
    if not (isinstance(start, str) and isinstance(end, str)):
        return None
    a, b = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", start), re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", end)
    if not (a and b):
        return None
    (y1, m1, d1), (y2, m2, d2) = ((int(x) for x in m.groups()) for m in (a, b))
    months = round((y2 - y1) * 12 + (m2 - m1) + (d2 - d1) / 30)
    return months if months > 0 else None


def _read_initial_term(r: _Reading) -> int | str | None:
    """The term's length as read, or — where the contract gives its term as dates ("effective as of
    November 1, 2019 … shall terminate on December 31, 2020") — the months between the two quoted dates."""
    if not (r.found("expiration_date") or r.absent("expiration_date")):
        return "undecided"
    months: int | None = r.value("expiration_date", "term_months")
    if months is None:
        start = (
            r.value("effective_date", "defined_date")
            or r.value("effective_date", "date")
            or r.value("agreement_date", "date")
        )
        end = r.value("expiration_date", "defined_date") or r.value("expiration_date", "expires_on")
        months = _months_between(start, end)
    return months


def _read_payment(r: _Reading) -> int | str | None:
    if r.found("payment") is None and not r.absent("payment"):
        return "undecided"
    days: int | None = r.value("payment", "payment_days")
    return days


def _read_price(r: _Reading) -> bool | str | None:
    if r.found("price_increases") is not None:
        return True
    # an optional clause the engine looked for and did not find: the review reads no right to increase
    return False if "price_increases" in r.not_applicable else "undecided"


def _read_service_credits(r: _Reading) -> bool | None:
    if r.found("service_levels") is None:
        return False if r.absent("service_levels") else None
    credits = r.value("service_levels", "credits")
    return None if credits is None else bool(credits)


#: fact → (reader, comparer). A reader returns the review's value in the fact's shape, or None/"undecided"
#: when the review did not decide it. Only the parts of a gold value the reader returns are compared.
FACTS: Mapping[str, Callable[[_Reading], Any]] = {
    "governing_law": lambda r: (
        r.value("governing_law", "law")
        if r.found("governing_law")
        else (None if r.absent("governing_law") else "undecided")
    ),
    "liability_cap": _read_liability,
    "consequential_damages_excluded": _read_consequential,
    "termination_for_convenience": _read_tfc,
    "termination_for_breach_cure_days": lambda r: (
        r.value("termination_for_cause", "cure_days")
        if r.found("termination_for_cause")
        else (None if r.absent("termination_for_cause") else "undecided")
    ),
    "initial_term_months": _read_initial_term,
    "auto_renewal": _read_renewal,
    "assignment_consent_required": _read_assignment,
    "change_of_control_restricted": _read_coc,
    "confidentiality": _read_confidentiality,
    "return_of_data_on_termination": _read_return,
    "warranty_period_days": _read_warranty,
    "ip_indemnity": _read_ip_indemnity,
    "ip_ownership_of_work_product": _read_ip_owner,
    "non_solicitation_of_employees": _read_non_solicit,
    "exclusivity": lambda r: _presence(r, "exclusivity"),
    "non_compete": lambda r: _presence(r, "non_compete"),
    "audit_rights": _read_audit,
    "insurance_required": _read_insurance,
    "order_of_precedence": _read_precedence,
    "force_majeure": lambda r: _presence(r, "force_majeure"),
    "payment_days": _read_payment,
    "price_increase_allowed": _read_price,
    "data_protection_clause": lambda r: _presence(r, "data_protection"),
    "service_credits": _read_service_credits,
}


def _norm(v: Any) -> Any:
    if isinstance(v, str):
        s = re.sub(r"^the\s+", "", v.strip(), flags=re.IGNORECASE)
        s = re.sub(r"^(?:state|commonwealth)\s+of\s+", "", s, flags=re.IGNORECASE)
        return s.lower()
    if isinstance(v, list):
        return sorted({_norm(x) for x in v})
    return v


def _same(gold: Any, ours: Any) -> bool:
    """Does the review's reading agree with the gold value on every part the reading states?"""
    if isinstance(ours, str) and ours == "undecided":
        return False
    if isinstance(gold, Mapping):
        if not isinstance(ours, Mapping):
            return False
        if gold.get("present") is False or gold.get("automatic") is False or gold.get("value") is False:
            key = next(k for k in ("present", "automatic", "value") if k in gold)
            return ours.get(key) is False
        for k, g in gold.items():
            if k not in ours:
                continue  # a part the engine does not read is not scored
            if not _same(g, ours[k]):
                return False
        # a present fact needs its presence read
        return all(k in ours for k in ("present", "automatic", "value", "parties", "owner") if k in gold)
    if isinstance(gold, list):
        return isinstance(ours, list) and _norm(gold) == _norm(ours)
    if isinstance(gold, bool) or gold is None:
        return ours is gold or (gold is None and ours in (None, False))
    if isinstance(gold, int | float) and isinstance(ours, int | float):
        return abs(gold - ours) <= max(1, 0.02 * abs(gold))
    return bool(_norm(gold) == _norm(ours))


def _reading(result: ReviewResult) -> _Reading:
    by_rule: dict[str, Finding] = {}
    for f in result.findings:
        by_rule.setdefault(f.proposal.rule or "", f)
    roles = getattr(result, "roles", None)
    us = tuple(getattr(roles, "us_terms", ()) or ()) if roles is not None else ()
    them = tuple(getattr(roles, "them_terms", ()) or ()) if roles is not None else ()
    return _Reading(by_rule=by_rule, not_applicable=frozenset(result.not_applicable), us=us, them=them)


def read_facts(result: ReviewResult) -> dict[str, Any]:
    """The review's reading of the 25 facts (None or "undecided" where it decided nothing)."""
    r = _reading(result)
    return {name: reader(r) for name, reader in FACTS.items()}


def _fact_files(data_dir: Path) -> list[Path]:
    folder = data_dir / "facts"
    if not folder.is_dir():
        raise DataMissingError(f"{folder}: contract facts not found (expected facts/<id>.json beside cuad/)")
    return sorted(folder.glob("*.json"))


def evaluate_facts(
    data_dir: Path,
    *,
    playbook_ref: str = "msa-customer",
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Score the review's reading against every certain gold fact under `data_dir/facts`."""
    playbook = load_playbook(playbook_ref)
    per_fact: dict[str, dict[str, int]] = {name: {"right": 0, "total": 0} for name in FACTS}
    misses: list[dict[str, Any]] = []
    errors: list[dict[str, str]] = []
    files = _fact_files(data_dir)[: limit if limit is not None else None]
    for path in files:
        gold = json.loads(path.read_text(encoding="utf-8"))
        text_path = data_dir / "cuad" / "texts" / f"{gold['id']}.txt"
        try:
            result = review(load_document(text_path), playbook)
        except Exception as exc:  # an evaluation reports every failure and goes on
            errors.append({"id": gold["id"], "error": f"{type(exc).__name__}: {exc}"})
            continue
        ours = read_facts(result)
        for name in FACTS:
            g = (gold.get("facts") or {}).get(name)
            if g is None or g.get("uncertain"):
                continue
            ok = _same(g.get("value"), ours[name])
            per_fact[name]["total"] += 1
            per_fact[name]["right"] += int(ok)
            if not ok:
                misses.append({"id": gold["id"], "fact": name, "gold": g.get("value"), "review": ours[name]})
        if progress:
            progress(1)
    right = sum(c["right"] for c in per_fact.values())
    total = sum(c["total"] for c in per_fact.values())
    return {
        "accuracy": right / total if total else None,
        "right": right,
        "total": total,
        "contracts": len(files) - len(errors),
        "per_fact": {
            k: v | {"accuracy": v["right"] / v["total"] if v["total"] else None} for k, v in per_fact.items()
        },
        "misses": misses,
        "errors": errors,
    }
