"""Who pays whom: money the contract says one party pays another, each named.

"LGL will pay HSW in accordance with Attachment B", "the Franchisee shall pay to the Franchisor a royalty",
"fees paid by Sponsor to the Club": where money runs from one named party to another and never back, the
payer is the side that buys (the customer, the sponsor, the licensee, the franchisee) and the payee the side
that provides — whatever else each of them grants or delivers under a deal that runs both ways (a sponsor
licenses its marks to the team it pays). Paying damages, interest, a refund, a credit or an indemnity is
no purchase ("the Supplier shall pay the Customer liquidated damages") and does not count.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from playbooks.parties.reading import Party
from playbooks.parties.scan import THE, Text, term_leads, word_starts

__all__ = ["NOT_A_PRICE", "Payments", "one_way_payments", "paid_both_ways", "payments"]

# what is paid when the payment is no price, within the four words after it: damages, interest, a refund,
# a credit, an indemnity
NOT_A_PRICE = (
    r"(?!(?:\s+[\w'’$%(),\-]+){0,4}?\s+(?i:liquidated|damages|losses|penalt\w+|interest|fines?|indemni\w*|refunds?|"
    r"credits?|rebates?|awarded|judgments?|settlements?|attorneys?|legal\s+fees|overpayments?)\b)"
)
_PRICE = r"\b(?i:fees?|royalt(?:y|ies)|prices?|compensation|commissions?|charges|consideration|remuneration)"
_WILL = r"(?i:shall|will|agrees?\s+to|must|hereby\s+agrees?\s+to|undertakes?\s+to)"
_PAY = r"(?i:pay|remit)"


# the words a passive payment begins with (see `scan.Text`)
_PRICE_LEADS = word_starts(
    "fee",
    "royalt",
    "price",
    "compensation",
    "commission",
    "charges",
    "consideration",
    "remuneration",
)


def _spellings(party: Party) -> list[str]:
    out = []
    for t in party.terms:
        out.append(t)
        if t.isupper() and len(t) > 3:  # "LEADER" is written "Leader" in the body
            out.append(t.title())
    return out


def _term(party: Party) -> str:
    terms = [re.escape(t).replace(r"\ ", r"\s+") for t in _spellings(party)]
    return (
        r"(?<![A-Za-z])(?:(?i:the)\s+)?(?:" + "|".join(sorted(terms, key=len, reverse=True)) + r")(?![a-z])"
    )


def _payment(text: Text, payer: Party, payee: Party) -> str | None:
    """The first passage in which `payer` pays `payee`, by name: "P shall pay (to) Q", "P pays Q", "paid by
    P to Q", "payable to Q by P" (the first of the first form found, then of the next)."""
    p, q = _term(payer), _term(payee)
    leads = term_leads(_spellings(payer))
    payer_leads = None if leads is None else (*leads, THE)
    patterns = (
        (
            rf"{p}\s+{_WILL}(?:\s+\w+){{0,3}}?\s+{_PAY}\s+(?:(?i:to)\s+)?{q}(?:'s|’s)?{NOT_A_PRICE}",
            payer_leads,
        ),
        (rf"{p}\s+(?i:pays|remits)\s+(?:(?i:to)\s+)?{q}{NOT_A_PRICE}", payer_leads),
        # into the payee's account: "P shall remit the fees into the account designated by Q", "P will pay
        # the price to the bank account of Q"
        (
            rf"{p}\s+{_WILL}(?:\s+\w+){{0,3}}?\s+(?i:pay|remit|transfer|deposit|wire){NOT_A_PRICE}\s+[^.;]{{0,60}}?(?i:into|to)\s+(?:(?i:the|an?)\s+)?"
            rf"(?i:bank\s+)?(?i:accounts?)\s+(?:\w+\s+){{0,2}}?(?i:of|designated\s+by|nominated\s+by|specified\s+by|"
            rf"held\s+by|notified\s+by)\s+{q}",
            payer_leads,
        ),
        # the passive only of a price ("fees payable by the Distributor to S2K"), not of "all amounts payable
        # by X to Y under the Agreement" that a security or set-off clause speaks of
        (
            rf"{_PRICE}\s+(?:\w+\s+){{0,3}}?(?i:paid|payable|remitted)\s+(?i:by)\s+{p}\s+(?i:to)\s+{q}",
            _PRICE_LEADS,
        ),
        (
            rf"{_PRICE}\s+(?:\w+\s+){{0,3}}?(?i:paid|payable|remitted)\s+(?i:to)\s+{q}\s+(?i:by)\s+{p}",
            _PRICE_LEADS,
        ),
    )
    for rx, rx_leads in patterns:
        found = text.findall(rx, 0, rx_leads, limit=1)
        if found:
            return " ".join(found[0].group(0).split())[:70]
    return None


Payments = dict[tuple[int, int], str | None]


def payments(text: str | Text, parties: Sequence[Party]) -> Payments:
    """For each ordered pair of parties (by index) with different terms, the first passage in which the
    first pays the second by name, or None."""
    scan = text if isinstance(text, Text) else Text(text)
    return {
        (i, j): _payment(scan, a, b)
        for i, a in enumerate(parties)
        for j, b in enumerate(parties)
        if i != j and a.defined_as != b.defined_as
    }


def paid_both_ways(
    text: str, parties: Sequence[Party], *, pays: Payments | None = None
) -> tuple[str, str] | None:
    """The first two passages in which two parties each pay the other by name ("Cantor will pay to LH
    royalties", "LH will pay to Cantor royalties"): a reciprocal deal; None when money runs one way.
    `pays`: `payments(text, parties)`, if already read."""
    pays = payments(text, parties) if pays is None else pays
    for (i, j), forth in pays.items():
        back = pays.get((j, i))
        if forth and back and i < j:
            return forth, back
    return None


def one_way_payments(
    text: str, parties: Sequence[Party], *, pays: Payments | None = None
) -> dict[str, tuple[str, str]]:
    """For each party that pays another by name while that other never pays it: its defined term →
    ("payer", the first such passage); and the payee's → ("payee", the same passage). Parties paid both ways
    (each invoices the other, each pays the other royalties) are left out: money then says nothing of
    sides. `pays`: `payments(text, parties)`, if already read."""
    out: dict[str, tuple[str, str]] = {}
    pays = payments(text, parties) if pays is None else pays
    for (i, j), forth in pays.items():
        if forth and not pays.get((j, i)):
            out.setdefault(parties[i].defined_as, ("payer", forth))
            out.setdefault(parties[j].defined_as, ("payee", forth))
    # a party both paying one and paid by another (a sub-agent paid by the agent it pays) is on no side
    payers = {parties[i].defined_as for (i, _), forth in pays.items() if forth}
    payees = {parties[j].defined_as for (_, j), forth in pays.items() if forth}
    for both in payers & payees:
        out.pop(both, None)
    return out
