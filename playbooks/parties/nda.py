"""What an NDA says of each party: whether the contract discloses to it or protects its information, and
whether each party discloses and receives (a mutual NDA)."""

from __future__ import annotations

import re

from playbooks.parties.scan import Text, term_leads_or_the, term_rx, word_starts

__all__ = ["mirrored", "mutual", "nda_evidence", "role_term"]

_RECEIVING_WORDS = ("recipient", "receiving", "receiver", "recipients")
_DISCLOSING_WORDS = ("discloser", "disclosing", "disclosers", "providing", "furnishing")


def role_term(term: str) -> bool:
    low = term.lower()
    return any(re.search(rf"\b{w}\b", low) for w in (*_RECEIVING_WORDS, *_DISCLOSING_WORDS))


def nda_evidence(text: Text, term: str) -> tuple[int, int, list[tuple[str, str]]]:
    """(receiving score, disclosing score, the phrases that earned them) for one party of an NDA: what it is
    called and whether the contract discloses to it or protects its information (not who pays or provides:
    a vendor often receives its customer's information)."""
    t = r"(?<![A-Za-z])(?:the\s+)?" + term_rx(term) + r"(?![a-z])"
    own = term_rx(term) + r"(?:'s|’s)"
    led = term_leads_or_the(term)
    receiving = disclosing = 0
    why: list[tuple[str, str]] = []  # (the side, as in `_evidence`: receiving is "buyer"), the phrase
    low = term.lower()
    if any(re.search(rf"\b{w}\b", low) for w in _RECEIVING_WORDS):
        receiving += 3
        why.append(("buyer", f"its defined term “{term}”"))
    if any(re.search(rf"\b{w}\b", low) for w in _DISCLOSING_WORDS):
        disclosing += 3
        why.append(("seller", f"its defined term “{term}”"))
    cues = (
        (
            "receiving",
            r"\b(?:disclos|furnish|provid|made\s+available|deliver)\w*\s+(?:\w+\s+){0,4}?to\s+" + t,
            word_starts("disclos", "furnish", "provid", "made", "deliver"),
        ),
        (
            "receiving",
            t + r"\s+(?:shall|will|agrees?\s+to|must)\s+(?:\w+\s+){0,3}?(?:not\s+disclose|keep|hold|protect|"
            r"maintain|treat|return|destroy|use\s+(?:the|such|any)\s+(?:\w+\s+)?(?:information|material))",
            led,
        ),
        # the party that acknowledges what the information is, or promises what it will do with it
        (
            "receiving",
            t
            + r"\s+(?:understands|acknowledges|recognizes|recognises)\s+(?:and\s+(?:agrees|acknowledges)\s+)?"
            r"that\s+(?:the|all|any|such)\s+(?:\w+\s+){0,2}?(?:information|material)",
            led,
        ),
        (
            "disclosing",
            own + r"\s+(?:\w+\s+)?(?:con\S{1,2}dential|proprietary)\s+(?:information|material)",
            led,
        ),
        (
            "disclosing",
            r"\b(?:disclosed|furnished|provided|supplied)\s+(?:\w+\s+){0,2}?by\s+" + t,
            word_starts("disclosed", "furnished", "provided", "supplied"),
        ),
        (
            "disclosing",
            r"\b(?:received|obtained)\s+(?:\w+\s+){0,2}?from\s+" + t,
            word_starts("received", "obtained"),
        ),
    )
    # the information may be used only for work done for one party ("solely for the purpose of quoting and
    # manufacturing products for Champion"): that party is the one disclosing — the plainest sign of whose
    # the information is, so it counts three times
    served = (
        r"\b(?:solely|only|exclusively)\s+(?:for|in\s+connection\s+with)\s+the\s+purposes?\s+of\s+[^.;]{0,80}?"
        r"\b(?:for|to)\s+(?:or\s+on\s+behalf\s+of\s+)?" + t
    )
    flags = re.IGNORECASE if not term.isupper() else 0
    served_leads = word_starts("solely", "only", "exclusively")
    for side, rx, leads, weight in (
        *((side, rx, leads, 1) for side, rx, leads in cues),
        ("disclosing", served, served_leads, 3),
    ):
        hits = text.findall(rx, flags, leads, limit=5)
        if not hits:
            continue
        n = len(hits) * weight
        if side == "receiving":
            receiving += n
        else:
            disclosing += n
        phrase = "“" + " ".join(hits[0].group(0).split())[:70] + "”"
        why.append(("buyer" if side == "receiving" else "seller", phrase))
    return receiving, disclosing, why


# an NDA under which each party discloses and receives
_MUTUAL = (
    re.compile(
        r"\b(?:mutual|reciprocal|two-way|bilateral)\s+(?:non-?disclosure|confidentiality|nda|secrecy)\b", re.I
    ),
    re.compile(
        r"\b(?:each|either)\s+(?:party|of\s+the\s+parties)\b[^.;]{0,40}?\b(?:receiving|that\s+receives|who\s+receives"
        r"|which\s+receives|as\s+(?:a\s+)?(?:recipient|receiving\s+party))\b",
        re.I,
    ),
    re.compile(
        r"\b(?:one|either|each)\s+party\b[^.;]{0,80}?\b(?:disclos\w*|reveal\w*|furnish\w*|made\s+available|provid\w*|"
        r"transmit\w*)\b[^.;]{0,40}?\bto\s+the\s+other\s+party\b",
        re.I,
    ),
    re.compile(
        r"\bthe\s+party\s+(?:receiving|that\s+receives|which\s+receives)\b[^.;]{0,60}\b(?:from\s+)?the\s+other\b",
        re.I,
    ),
    # "X and Y may disclose to each other", "the mutual protection of information", "each of X and Y may
    # disclose … to the other party": information flows both ways
    re.compile(
        r"\b(?:disclos\w*|provid\w*|furnish\w*|exchang\w*|shar(?:e|es|ed|ing)|deliver\w*|reveal\w*)\s+(?:\w+\s+){0,3}?"
        r"(?:to|with)\s+(?:each\s+other|one\s+another)\b",
        re.I,
    ),
    re.compile(r"\bmutual\s+(?:protection|disclosure|exchange)\s+of\s+(?:\w+\s+){0,2}?information\b", re.I),
    re.compile(
        r"\beach\s+of\s+[^.;]{1,60}?\s+(?:may|shall|will|wish(?:es)?\s+to|intends?\s+to)\s+(?:\w+\s+){0,3}?"
        r"(?:disclos|furnish|provid|deliver|exchang)\w*\b[^.;]{0,60}?\bto\s+the\s+other\b",
        re.I,
    ),
)


def mutual(text: str) -> str | None:
    """The words that make an NDA mutual (in its title or opening pages), or None."""
    head = text[:6000]
    for rx in _MUTUAL:
        m = rx.search(head)
        if m:
            return " ".join(m.group(0).split())[:70]
    return None


def mirrored(text: str, terms: list[str]) -> str | None:
    """The words that make an NDA mutual when it is written as two mirrored sections, each protecting one
    party's information from the other ("Seller shall not disclose CompuCom's Confidential Information",
    "CompuCom shall not disclose Seller's Confidential Information"): each of two parties' own confidential
    information spoken of at least twice, each party bound not to disclose or use the other's; else None."""
    if len(terms) != 2:
        return None
    owned = []
    for term, other in (terms, terms[::-1]):
        own = (
            rf"(?<![A-Za-z]){term_rx(term)}(?:'s|’s)\s+(?i:con\S{{1,2}}dential|proprietary)\s+"
            r"(?i:information)\b"
        )
        duty = (
            rf"(?<![A-Za-z])(?:the\s+)?{term_rx(other)}\s+(?:shall|will|agrees\s+(?:that\s+it\s+will|to))\s+"
            rf"(?:not|(?:\w+\s+){{0,3}}?(?:protect|safeguard|hold|keep))\b[^.]{{0,200}}?{own}"
        )
        hits = re.findall(own, text)
        if len(hits) < 2 or not re.search(duty, text):
            return None
        owned.append(" ".join(hits[0].split()))
    return f"{owned[0]} … {owned[1]}"
