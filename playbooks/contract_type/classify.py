"""Classifying a contract by its title, recitals and clause profile (general contract vocabulary only)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["TYPES", "ContractType", "classify"]

# type → (title words, body words). Title words decide when present; body words break ties and catch an
# untitled contract. The order is the order of preference when a title names two ("Development and
# Hosting Agreement" is hosting; "License and Maintenance" is a licence).
_PROFILE: Mapping[str, tuple[str, str]] = {
    "nda": (r"non-?disclosure|confidentiality\s+agreement|secrecy", r"confidential\s+information"),
    "employment": (
        r"employment|executive\s+agreement|offer\s+letter",
        r"\bemployee\b|\bemployment\b|\bsalary\b|\bvacation\b|\bbenefits?\s+plans?\b",
    ),
    "franchise": (r"franchise", r"\bfranchisee\b|\bfranchisor\b"),
    "joint_venture": (r"joint\s+venture|shareholders?|operating\s+agreement", r"\bjoint\s+venture\b"),
    "collaboration": (r"collaboration|co-?development|joint\s+development", r"\bcollaboration\b"),
    "sponsorship": (r"sponsorship|endorsement", r"\bsponsor\b|\bsponsorship\b"),
    "marketing": (
        r"marketing|co-?branding|promotion|advertising|affiliate|alliance|co-?hosting|referral",
        r"\bmarketing\b|\bpromot\w+|\bco-?brand\w*",
    ),
    "distribution": (
        r"distribut\w+|reseller|dealer|agency\s+agreement|sales\s+agent|var\s+agreement",
        r"\bdistributor\b|\breseller\b|\bresale\b",
    ),
    "transportation": (
        r"transportation|transport|shipping|carriage|freight",
        r"\btransport\w*\b|\bshipper\b",
    ),
    "supply": (
        r"supply|manufactur\w+|purchase|procurement|sales?\s+agreement|offtake",
        r"\bpurchase\s+orders?\b|\bproducts?\b|\bshipment\b",
    ),
    "license": (r"licen[cs]e|licensing", r"\blicensee\b|\blicensor\b|\broyalt\w+"),
    "hosting": (
        r"hosting|application\s+service|asp\b|cloud|saas|subscription",
        r"\bhost\w*\b|\bserver\w*\b|\buptime\b",
    ),
    "maintenance_support": (
        r"maintenance|support\s+agreement|repair",
        r"\bmaintenance\b|\bsupport\s+services\b",
    ),
    "outsourcing": (r"outsourcing", r"\boutsourc\w+"),
    "development": (r"development|build(?:ing)?", r"\bdevelop\w*\b|\bdeliverables?\b"),
    "consulting": (r"consult\w+|advisory|advisor", r"\bconsultant\b|\bconsulting\b"),
    "services": (
        r"services?|master\s+services|statement\s+of\s+work|administration",
        r"\bservices\b|\bstatement\s+of\s+work\b",
    ),
}
TYPES: tuple[str, ...] = (*_PROFILE, "other")
_TITLE = re.compile(
    r"\b([A-Z][A-Z&,/\- ]{3,}(?:AGREEMENT|CONTRACT))\b|\b((?:[A-Z][a-z]+\s+){1,5}Agreement)\b"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ContractType:
    type: str
    title: str  # the title the type was read from ("" when none was found)
    basis: str  # one sentence: what decided it
    runner_up: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {"type": self.type, "title": self.title, "basis": self.basis, "runner_up": self.runner_up}


def _title(text: str) -> str:
    head = text[:3000]
    for m in _TITLE.finditer(head):
        t = " ".join((m.group(1) or m.group(2)).split())
        if not re.match(r"(?i)(?:this|the|such|said)\b", t) and len(t) > 9:
            return t
    return ""


def classify(text: str) -> ContractType:
    """The contract's type from its title, then its vocabulary; 'other' when neither says."""
    title = _title(text)
    low_title = title.lower()
    body = text.lower()
    counts = {t: len(re.findall(b, body)) for t, (_, b) in _PROFILE.items()}
    hits = [t for t, (w, _) in _PROFILE.items() if title and re.search(rf"\b(?:{w})", low_title)]
    # one person on the other side with salary and employment language is an employment contract,
    # whatever its title ("Service Agreement" between a company and an executive)
    if counts["employment"] >= 25 and "employment" not in hits and re.search(r"\bemployment\b", body[:6000]):
        return ContractType(
            type="employment",
            title=title,
            runner_up=hits[0] if hits else None,
            basis=f"employment language throughout ({counts['employment']} uses of employee, salary, "
            "benefits…)",
        )
    if hits:
        best = hits[0]
        runner = hits[1] if len(hits) > 1 else None
        return ContractType(type=best, title=title, runner_up=runner, basis=f"its title “{title}”")
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    if ranked[0][1] >= 5:
        return ContractType(
            type=ranked[0][0],
            title=title,
            runner_up=ranked[1][0],
            basis=f"its vocabulary ({ranked[0][1]} uses of {ranked[0][0]} terms; no type in the title)",
        )
    return ContractType(type="other", title=title, basis="neither the title nor the vocabulary names a type")
