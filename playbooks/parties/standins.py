"""A role's name standing in for a party: the duties written of "the Supplier" and "the Distributor",
or of "the Recipient", when no party read from the preamble is called that.

Some contracts name their parties in the preamble and then never use those names again: "Parties (1) A Pty
Ltd … (2) B LLC …", and thereafter "the Supplier shall …", "the Distributor shall purchase …" — the form's
"(the Supplier)" after each name was left out. An NDA whose receiving side is a blank ("Mr./Mrs. …") or is
introduced only in its definitions ("“Recipient” shall mean …") is the same. The contract's duties are
then the role's: whoever signs as the Distributor is the one that buys, and the review can say what the
Distributor must do without knowing which named company it is. `stand_ins` returns the role's words the
contract makes the subject of its duties, as parties with no name (`Party.name` ""), so that *us* and *them*
can be bound to them; the basis says that the contract does not tie them to a named party.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from playbooks.parties.reading import Party

__all__ = ["COMMERCIAL_BUYERS", "COMMERCIAL_SELLERS", "DISCLOSING", "RECEIVING", "stand_ins"]

# the role words that name one side of a commercial deal and nothing else ("Company", "Partner", "Member",
# "Agent" or "Owner" name either side, or someone else: they never stand in)
COMMERCIAL_BUYERS = (
    "Customer",
    "Client",
    "Purchaser",
    "Buyer",
    "Licensee",
    "Distributor",
    "Reseller",
    "Franchisee",
    "Sponsor",
    "Subscriber",
)
COMMERCIAL_SELLERS = (
    "Supplier",
    "Vendor",
    "Service Provider",
    "Provider",
    "Contractor",
    "Consultant",
    "Licensor",
    "Franchisor",
    "Seller",
    "Manufacturer",
    "Developer",
)
# an NDA's receiving and disclosing sides
RECEIVING = ("Receiving Party", "Recipient", "Receiver", "Disclosee")
DISCLOSING = ("Disclosing Party", "Discloser")

#: how often a role's word must be the subject of the contract's duties to stand in for a party
_COMMERCIAL_ACTS = 4
_NDA_ACTS = 2

_DUTY = r"\s+(?:shall|will|may|must|agrees|undertakes|hereby|acknowledges|warrants|represents)\b"


def _acts(text: str, word: str) -> int:
    """How often the capitalised role word is the subject of a duty or a right ("the Supplier shall",
    "Recipient agrees"), never inside a longer name ("the Supplier Group shall")."""
    rx = r"(?<![A-Za-z\-])(?:the\s+|The\s+)?" + re.escape(word).replace(r"\ ", r"\s+") + _DUTY
    return len(re.findall(rx, text))


def _named(parties: Sequence[Party], word: str) -> bool:
    low = word.lower()
    return any(low == t.lower() or low in t.lower().split() for p in parties for t in p.terms)


def _stand_in(text: str, word: str) -> Party:
    m = re.search(r"(?<![A-Za-z\-])" + re.escape(word).replace(r"\ ", r"\s+") + r"(?![a-z])", text)
    start = m.start() if m else 0
    return Party(
        defined_as=word,
        name="",
        start=start,
        end=start + len(word),
        mentions=len(re.findall(r"(?<![A-Za-z\-])" + re.escape(word) + r"(?![a-z])", text)),
    )


def _first_acting(text: str, parties: Sequence[Party], words: Sequence[str], least: int) -> Party | None:
    """The first of `words` the contract makes the subject of its duties at least `least` times, that no
    party read is called by; a shorter word inside a longer one found first ("Provider" inside "Service
    Provider") is the same role."""
    for w in words:
        if _acts(text, w) >= least and not _named(parties, w):
            return _stand_in(text, w)
    return None


def stand_ins(text: str, parties: Sequence[Party], *, nda: bool) -> tuple[Party, Party | None] | None:
    """(the role on the playbook's buyer or receiving side, the other side's role or None) standing in for
    parties, or None when the contract's duties are not written of roles no party is called by.

    Commercial: both a buyer's and a seller's word must each be the subject of at least four duties, and no
    party read from the preamble may be the subject of two (then its duties are written of it, and the roles'
    words name someone else: "the Customer" of a supplier's customers). NDA: the receiving side's word must be
    the subject of at least two duties; the disclosing side's word stands in when it is used twice."""
    if nda:
        receiving = _first_acting(text, parties, RECEIVING, _NDA_ACTS)
        if receiving is None:
            return None
        # the disclosing side needs no duties of its own: it is the one whose information is protected
        disclosing = next(
            (
                _stand_in(text, w)
                for w in DISCLOSING
                if not _named(parties, w) and _stand_in(text, w).mentions >= 2
            ),
            None,
        )
        return receiving, disclosing
    if any(_acts(text, t) >= 2 for p in parties for t in p.terms):
        return None
    buyer = _first_acting(text, parties, COMMERCIAL_BUYERS, _COMMERCIAL_ACTS)
    seller = _first_acting(text, parties, COMMERCIAL_SELLERS, _COMMERCIAL_ACTS)
    if buyer is None or seller is None:
        return None
    return buyer, seller
