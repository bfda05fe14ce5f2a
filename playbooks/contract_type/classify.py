"""Classifying a contract by its title, recitals and clause profile (general contract vocabulary only)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from playbooks.parties.scan import Text, word_starts

__all__ = ["TYPES", "ContractType", "classify"]

# type → (title words, body words). Title words decide when present; body words break ties and catch an
# untitled contract. The order is the order of preference when a title names two ("Development and
# Hosting Agreement" is hosting; "License and Maintenance" is a licence).
_PROFILE: Mapping[str, tuple[str, str]] = {
    "nda": (
        r"non[\s\-]?disclosure|nondisclosure|confidential(?:ity)?\s+(?:disclosure\s+)?(?:agreement|deed|undertaking"
        r"|statement|contract)|secrecy|non-?use\s+agreement",
        r"confidential\s+information|\bevaluation\s+material\b",
    ),
    "employment": (
        # split-dollar life insurance is a benefit for an executive (or the executive's family trust), not
        # the "endorsement" of a sponsor
        r"employment|executive\s+agreement|offer\s+letter|split[\s\-]dollar",
        r"\bemployee\b|\bemployment\b|\bsalary\b|\bvacation\b|\bbenefits?\s+plans?\b",
    ),
    # covenants not to compete or solicit given on their own (on a sale of a business, by a departing owner)
    "restrictive_covenant": (
        r"non[\s\-]?compet\w*|non[\s\-]?solicit\w*|restrictive\s+covenants?",
        r"\bnon[\s\-]?compet\w*|\brestricted\s+(?:period|business|territory)\b",
    ),
    "franchise": (r"franchise", r"\bfranchisee\b|\bfranchisor\b"),
    "joint_venture": (r"joint\s+venture|shareholders?|operating\s+agreement", r"\bjoint\s+venture\b"),
    # shares and the deals that move them: a merger, a stock purchase, a Rule 145 affiliate letter
    "securities": (
        r"merger|(?:stock|share|securities|unit)\s+(?:purchase|subscription|exchange)|registration\s+rights"
        r"|voting\s+(?:agreement|trust)|lock[\s\-]?up|remarketing|joint\s+filing|standstill",
        r"\brule\s+145\b|\bsecurities\s+act\b|\bregistration\s+statement\b",
    ),
    "collaboration": (
        r"collaboration|co-?development|joint\s+development|co-?operation",
        r"\bcollaboration\b",
    ),
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
        r"supply|supplier|manufactur\w+|purchase|procurement|sales?\s+agreement|offtake",
        r"\bpurchase\s+orders?\b|\bproducts?\b|\bshipment\b",
    ),
    # an "Intellectual Property Agreement" grants or assigns rights in patents, marks and know-how
    "license": (r"licen[cs]e|licensing|intellectual\s+property", r"\blicensee\b|\blicensor\b|\broyalt\w+"),
    # a third party holding a deposit (source code, funds, documents) for release on set conditions
    "escrow": (r"escrow", r"\bescrow\b"),
    "hosting": (
        r"hosting|application\s+service|asp\b|cloud|saas|subscription",
        r"\bhost\w*\b|\bserver\w*\b|\buptime\b",
    ),
    # money lent, guaranteed or kept up: a credit agreement, a loan, a guaranty, a parent's promise to
    # maintain its subsidiary's capital ("capital maintenance", "keepwell") or an income or yield
    "finance": (
        r"credit\s+agreement|loan|guarant(?:y|ee)|keep[\s\-]?well|promissory|indenture"
        r"|(?:capital|net\s+worth|liquidity|(?:net\s+)?(?:investment\s+)?income|yield)\s+maintenance",
        r"\bborrower\b|\blender\b",
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
# the words each type's body pattern begins with (see `playbooks.parties.scan`): counting a type's words
# tries its pattern only where one of them starts, and counts what `re.findall` counts
_BODY_LEADS: Mapping[str, tuple[str, ...]] = {
    "nda": ("confidential", *word_starts("evaluation")),
    "employment": word_starts("employee", "employment", "salary", "vacation", "benefit"),
    "restrictive_covenant": word_starts("non", "restricted"),
    "franchise": word_starts("franchis"),
    "joint_venture": word_starts("joint"),
    "securities": word_starts("rule", "securities", "registration"),
    "collaboration": word_starts("collaboration"),
    "sponsorship": word_starts("sponsor"),
    "marketing": word_starts("marketing", "promot", "co"),
    "distribution": word_starts("distributor", "reseller", "resale"),
    "transportation": word_starts("transport", "shipper"),
    "supply": word_starts("purchase", "product", "shipment"),
    "license": word_starts("licens", "royalt"),
    "escrow": word_starts("escrow"),
    "hosting": word_starts("host", "server", "uptime"),
    "finance": word_starts("borrower", "lender"),
    "maintenance_support": word_starts("maintenance", "support"),
    "outsourcing": word_starts("outsourc"),
    "development": word_starts("develop", "deliverable"),
    "consulting": word_starts("consult"),
    "services": word_starts("services", "statement"),
}
_SHAREHOLDER = re.compile(
    r"\bannual\s+(?:general\s+)?meeting\b|\bnominees?\b|\bprox(?:y|ies)\b|\bstandstill\b"
)
_TITLE = re.compile(
    # (a title may wrap onto a second line, once: "NON-DISCLOSURE / CONFIDENTIALITY\nAGREEMENT")
    r"\b([A-Z](?:[A-Z&,/\- ]|(?<!AGREEMENT)(?<!CONTRACT)\n(?!\s*\n|\s*THIS\b)){3,}(?:AGREEMENT|CONTRACT))\b"
    r"(?!\s*(?:No\.?\s*[:\d]|Number\s*:|#))"  # "Contract No.: JSXCS…" labels a number, not a title
    # a title in title case, with the kinds it joins: "Co-Branding and Services Agreement", "Non-Competition,
    # Referral and Non-Disclosure Agreement" (not only their last words)
    r"|\b((?:(?!(?:Agreement|Contract)\b)[A-Z][a-z]+(?:-[A-Z]?[a-z]+)?,?\s+(?:(?:and|&)\s+(?=[A-Z]))?){1,6}"
    r"(?:Agreement|Contract))\b"
    r"(?!\s*(?:No\.?\s*[:\d]|Number\s*:|#))"
    # a line that opens with a sentence-case title: "Maintenance and support contract for SICAP(R) modules"
    r"|(?m:^[ \t]*((?:[A-Z][\w&\-]*)(?:[ \t]+(?!(?:this|the|to|shall|will|is|are|that|which|by|in|under|"
    r"hereby|such|be|any|all|its|their|our|your)\b)[\w&\-]+){0,5}?[ \t]+(?:agreement|contract))\b)"
    # an NDA by its other names: "CONFIDENTIALITY DEED", "Non-Disclosure Statement", "Secrecy Undertaking"
    r"|\b((?i:(?:mutual\s+|unilateral\s+)?(?:non[\s\-]?disclosure|confidentiality|secrecy)\s+(?:deed|statement|undertaking)))\b"
)
# a title named after words like these is another document's: "an integral part of the original Swisscom
# PURCHASE & LICENSE CONTRACT", "pursuant to the Services Agreement", "are parties to a Credit Agreement"
_ANOTHER = re.compile(
    r"(?:\b(?:pursuant\s+to|under|part\s+of|parties\s+to|party\s+to|underlying|original|existing|prior|earlier|"
    r"previous|replac\w+|supersed\w+|in\s+accordance\s+with|defined\s+in|referred\s+to\s+in|subject\s+to|"
    r"terms\s+of|entered\s+into\s+(?:a|an|the))\s+(?:(?:the|a|an|that|said|such)\s+)?(?:[\w!&.\-]+\s+){0,2}"
    # a name in quotes is a defined term for a document ('referred to as the "Services Agreement"')
    r"|(?:^|[\s(])[\"“]\s*)$"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ContractType:
    type: str
    title: str  # the title the type was read from ("" when none was found)
    basis: str  # one sentence: what decided it
    runner_up: str | None = None
    # every kind the title joins, in the order of preference: a "Co-Branding and Services Agreement" is
    # marketing and services, a "Transportation Services Agreement" transportation only
    kinds: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"type": self.type, "title": self.title, "basis": self.basis, "runner_up": self.runner_up}


def _title(text: str) -> str:
    head = text[:3000]
    for m in _TITLE.finditer(head):
        g = next(i for i in (1, 2, 3, 4) if m.group(i))
        t = " ".join(m.group(g).split())
        before = " ".join(head[max(0, m.start(g) - 80) : m.start(g)].split())
        if _ANOTHER.search(before + " "):
            continue
        if not re.match(r"(?i)(?:this|the|such|said|an?)\b", t) and len(t) > 9:
            return t
    return ""


def _kinds(low_title: str, hits: list[str]) -> tuple[str, ...]:
    """The kinds a title joins ("co-branding and services", "license, development and commercialization"):
    in each part between its commas, "and"s, "&"s and slashes, the first kind by preference ("transportation
    services" is transportation, "joint development" a collaboration), each once, by preference; development
    only when it is the title's first kind."""
    found = set()
    for part in re.split(r"\s*(?:,|&|/|\band\b)\s*", low_title):
        first = next((t for t in hits if re.search(rf"\b(?:{_PROFILE[t][0]})", part)), None)
        if first:
            found.add(first)
    # development named after another kind is the product the deal is about (a licence, distribution or
    # sponsorship "and Development"), not a service one party buys
    return tuple(t for t in hits if t in found and (t != "development" or t == hits[0]))


def _beside(title: str, kind: str, runner_up: str, language: str) -> ContractType:
    """A contract whose title reads as `runner_up` and whose body's `language` shows it is a `kind`."""
    return ContractType(
        type=kind, title=title, runner_up=runner_up, basis=f"its title “{title}” beside {language}"
    )


def _retyped(title: str, hits: list[str], counts: Mapping[str, int], body: str) -> ContractType | None:
    """The kind a title's word means in this contract where its body shows another sense of it: an
    "affiliate" under Rule 145, a split-dollar "endorsement", a shareholder's "cooperation"."""
    if (
        hits == ["marketing"]
        and counts["securities"] >= 2
        and not re.search(r"marketing|co-?branding|promotion|advertising|alliance|referral", title.lower())
    ):
        # an "affiliate" under the Securities Act (Rule 145) holds shares; it markets nothing
        language = (
            f"securities-law language ({counts['securities']} uses of Rule 145, Securities Act, "
            "registration statement)"
        )
        return _beside(title, "securities", "marketing", language)
    if hits and hits[0] == "sponsorship" and re.search(r"\bsplit[\s\-]dollar\b", body):
        # an "endorsement" of a life insurance policy for an executive: a split-dollar benefit
        return _beside(title, "employment", "sponsorship", "a split-dollar life insurance arrangement")
    if hits == ["collaboration"] and re.search(r"\bco-?operation\b", title.lower()):
        meetings = len(_SHAREHOLDER.findall(body))
        if meetings >= 8:
            # a shareholder's "cooperation" with a listed company: board seats, annual meeting, standstill
            language = f"shareholder language ({meetings} uses of annual meeting, nominee, proxy, standstill)"
            return _beside(title, "securities", "collaboration", language)
    return None


def classify(text: str) -> ContractType:
    """The contract's type from its title, then its vocabulary; 'other' when neither says."""
    title = _title(text)
    low_title = title.lower()
    body = Text(text.lower())
    counts = {t: len(body.findall(b, 0, _BODY_LEADS[t])) for t, (_, b) in _PROFILE.items()}
    hits = [t for t, (w, _) in _PROFILE.items() if title and re.search(rf"\b(?:{w})", low_title)]
    # one person on the other side with salary and employment language is an employment contract,
    # whatever its title ("Service Agreement" between a company and an executive)
    if (
        counts["employment"] >= 25
        and "employment" not in hits
        # staff who transfer with an outsourced or maintained service (TUPE) make no employment contract
        and not {"outsourcing", "maintenance_support"} & set(hits)
        and re.search(r"\bemployment\b", body.text[:6000])
    ):
        return ContractType(
            type="employment",
            title=title,
            runner_up=hits[0] if hits else None,
            basis=f"employment language throughout ({counts['employment']} uses of employee, salary, "
            "benefits…)",
        )
    retyped = _retyped(title, hits, counts, body.text)
    if retyped is not None:
        return retyped
    if hits:
        best = hits[0]
        runner = hits[1] if len(hits) > 1 else None
        return ContractType(
            type=best,
            title=title,
            runner_up=runner,
            basis=f"its title “{title}”",
            kinds=_kinds(low_title, hits),
        )
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    if ranked[0][1] >= 5:
        return ContractType(
            type=ranked[0][0],
            title=title,
            runner_up=ranked[1][0],
            basis=f"its vocabulary ({ranked[0][1]} uses of {ranked[0][0]} terms; no type in the title)",
        )
    return ContractType(type="other", title=title, basis="neither the title nor the vocabulary names a type")
