"""Binding *us* and *them* to the contract's parties, from `--we` or from what each party does."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from playbooks.parties.flows import NOT_A_PRICE, one_way_payments, paid_both_ways, payments
from playbooks.parties.nda import mirrored, mutual, nda_evidence, role_term
from playbooks.parties.reading import Party
from playbooks.parties.scan import Text, term_leads_or_the, term_rx, word_starts
from playbooks.parties.standins import stand_ins

__all__ = ["GENERIC", "RoleBinding", "resolve_roles", "role_alternation"]

# The two sides of a commercial contract, by the words contracts use for them. The playbook's role is
# one side; a party is placed on a side by its defined term and by what the contract says it does.
_BUYER_WORDS = (
    "customer",
    "client",
    "recipient",
    "purchaser",
    "buyer",
    "licensee",
    "shipper",
    "company",
    "subscriber",
    "distributor",
    "reseller",
    "sponsor",
    "franchisee",
    "employer",
    "member",
    "user",
    "owner",
)
_SELLER_WORDS = (
    "supplier",
    "vendor",
    "provider",
    "service provider",
    "contractor",
    "consultant",
    "licensor",
    "franchisor",
    "developer",
    "seller",
    "manufacturer",
    "transporter",
    "repairer",
    "adviser",
    "advisor",
    "agent",
    "employee",
    "administrator",
    "host",
    "operator",
    "producer",
    "partner",
)
#: What `{us}`/`{them}` mean when no party could be bound: the generic words of each side. "Company" is
#: left out (in as many contracts it names the provider as the customer).
GENERIC = {
    "buyer": r"(?:customer|client|recipient|purchaser|buyer|licensee|subscriber)",
    "seller": r"(?:supplier|vendor|provider|service\s+provider|contractor|consultant|licensor|developer"
    r"|seller)",
}
_SIDE_OF_ROLE = {
    "customer": "buyer",
    "licensee": "buyer",
    "recipient": "buyer",
    "supplier": "seller",
    "licensor": "seller",
    "discloser": "seller",
}

_VERBS_SELLER = (
    r"(?:provide|perform|render|deliver|supply|furnish|design|develop|host|maintain|support|manufacture"
    r"|transport|repair|produce|sell|license|grant)"
)


#: what money paid by name one way only (see `flows`) adds to the payer's buyer side and the payee's seller
#: side
_PAYS = 6
#: the cues below that count double: "X shall pay", "X desires to retain", "paid by X", "in consideration of
#: the Fee, X shall", "in consideration of the payment by X"
_PLAINEST = (0, 3, 11, 14, 16)


# the words a cue can begin with, besides the party's term ("the" or the term itself): see `scan.Text`
_PAY_LEADS = word_starts("pay", "invoice")
_VERB_LEADS = (
    "provide",
    "perform",
    "render",
    "deliver",
    "supply",
    "furnish",
    "design",
    "develop",
    "host",
    "maintain",
    "support",
    "manufacture",
    "transport",
    "repair",
    "produce",
    "sell",
    "license",
    "grant",
)


# what follows "retains" when nobody is engaged: a right, title or discretion kept
_NOT_A_RIGHT = (
    r"(?!\s+(?:[\w-]+\s+){0,3}?(?:rights?|title|ownership|discretion|control|possession|authority|options?|"
    r"interests?|property|responsibilit(?:y|ies)|copyrights?|benefits?|obligations?|liabilit(?:y|ies)|all|any)\b)"
)
# an engagement to distribute or resell the engaging party's products
_NOT_TO_RESELL = (
    r"(?![^.;]{0,60}?\bto\s+(?:[\w-]+,?\s+(?:and\s+|or\s+)?){0,3}?(?:distribute|resell|re-sell|sell)\b)"
)


_MADE_LEADS = ("manufactured", "produced", "developed", "designed", "built", "made", "performed", "rendered")
_MADE = "(?:" + "|".join(_MADE_LEADS) + ")"


def _evidence(text: Text, term: str) -> tuple[int, int, list[tuple[str, str]]]:
    """(buyer score, seller score, the phrases that earned them, each with its side) for one defined term."""
    # a term defined in capitals ("LEADER") is often written in title case in the body ("Leader shall pay");
    # its cues stay case-sensitive so that "LEADER" is not the word "leader"
    titled = term.isupper() and len(term) > 3
    spelt = term_rx(term) + (f"|{term_rx(term.title())}" if titled else "")
    t = r"(?<![A-Za-z])(?:the\s+)?(?:" + spelt + r")(?:'s|’s)?(?![a-z])"
    led = term_leads_or_the(term, *((term.title(),) if titled else ()))
    buyer = seller = 0
    why: list[tuple[str, str]] = []
    low = term.lower()
    if any(re.search(rf"\b{w}\b", low) for w in _BUYER_WORDS if w != "company"):
        buyer += 3
        why.append(("buyer", f"its defined term “{term}”"))
    if any(re.search(rf"\b{w}\b", low) for w in _SELLER_WORDS):
        seller += 3
        why.append(("seller", f"its defined term “{term}”"))
    cues = (
        (
            "buyer",
            t + r"\s+(?:(?:shall|will|agrees?\s+to|must)\s+(?:\w+\s+){0,3}?(?:pay|reimburse|purchase|buy)"
            r"|pays)\b"
            # paying damages, a penalty, interest or a refund is no sign of the customer ("Party B shall pay
            # liquidated damages to Party A")
            r"(?!\s+(?:\w+\s+){0,2}?compensation\b)" + NOT_A_PRICE,
            led,
        ),
        # "paid by X", "payable to the Supplier by X" — not "the amount invoiced to it by X" (who invoices
        # sells)
        (
            "buyer",
            r"\b(?:pay\w*|invoice(?!d\b)\w*)\s+(?:to\s+)?(?:the\s+)?(?:\w+\s+){0,2}?by\s+" + t,
            _PAY_LEADS,
        ),
        ("buyer", _VERBS_SELLER + r"\w*\s+(?:\w+\s+){0,5}?(?:to|for)\s+" + t, _VERB_LEADS),
        (
            "buyer",
            t
            + r"\s+(?:desires|wishes|wants)\s+to\s+(?:retain|engage|obtain|purchase|receive|use)\b"
            # retaining a distributor to sell one's products is selling them to it: the one retained buys
            # ("Erchonia desires to retain Distributor to promote, distribute and sell such equipment")
            + _NOT_TO_RESELL,
            led,
        ),
        # "the Company hereby engages the Consultant", not "Erchonia retains the right to modify the Products"
        ("buyer", t + r"\s+(?:hereby\s+)?(?:retains|engages)\b" + _NOT_A_RIGHT + _NOT_TO_RESELL, led),
        (
            "buyer",
            r"\b(?:sold|supplied|delivered|shipped|furnished|licensed)\s+(?:\w+\s+){0,3}?by\s+(?:the\s+)?\S+\s+to\s+"
            + t,
            word_starts("sold", "supplied", "delivered", "shipped", "furnished", "licensed"),
        ),
        (
            "seller",
            t + r"\s+(?:shall|will|agrees?\s+to|must)\s+(?:\w+\s+){0,3}?" + _VERBS_SELLER + r"\b",
            led,
        ),
        (
            "seller",
            r"\b(?:services|work|products?|goods)\s+(?:to\s+be\s+)?(?:provided|performed|rendered|delivered|supplied)\s+by\s+"
            + t,
            word_starts("services", "work", "product", "goods"),
        ),
        ("seller", r"\bpay\s+(?:to\s+)?" + t + NOT_A_PRICE, word_starts("pay")),
        (
            "seller",
            r"\b(?:fees?|compensation|amounts?|royalt(?:y|ies))\s+(?:\w+\s+){0,2}?(?:payable|due|paid)\s+to\s+"
            + t,
            word_starts("fee", "compensation", "amount", "royalt"),
        ),
        ("seller", t + r"\s+(?:hereby\s+)?grants?\b", led),
        (
            "buyer",
            r"\b(?:paid|compensated|reimbursed)\s+by\s+" + t,
            word_starts("paid", "compensated", "reimbursed"),
        ),
        ("seller", t + r"\s+(?:(?:was|is|are|be|shall|will)\s+){1,2}(?:paid|compensated)\b", led),
        (
            "seller",
            r"\b(?:for|that)\s+" + t + r"\s+(?:to\s+|shall\s+|will\s+)?" + _VERBS_SELLER + r"\b",
            word_starts("for", "that"),
        ),
        # what a party does in return for a fee is what it sells: "In consideration of the Sponsorship Fee,
        # the Club shall provide", "in consideration of the Hosting Fee set forth in Exhibit A, Orla shall"
        (
            "seller",
            r"\bin\s+consideration\s+(?:of|for)\s+(?:the\s+)?(?:(?:payments?|receipt)\s+of\s+(?:the\s+)?)?"
            r"(?:[\w-]+\s+){0,3}?(?:fees?|payments?|compensation|royalt(?:y|ies)|charges)\b(?![^.;,]{0,80}?\bby\b)"
            r"[^.;]{0,80}?,\s*" + t + r"\s+(?:shall|will|agrees|hereby|undertakes)\b",
            word_starts("in"),
        ),
        # "DRP shall be entitled to a base fee", "the Agent shall receive a commission": the one paid
        (
            "seller",
            t + r"\s+(?:shall|will)\s+(?:be\s+entitled\s+to|receive)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?"
            r"(?:fees?|compensation|commissions?|royalt(?:y|ies)|remuneration)\b",
            led,
        ),
        # "in consideration of the payment by Farley of the fees": the one who pays
        (
            "buyer",
            r"\bin\s+consideration\s+(?:of|for)\s+(?:the\s+)?payments?\s+(?:\w+\s+){0,2}?by\s+" + t,
            word_starts("in"),
        ),
        # who makes or develops for whom: "Platelet Wafers manufactured by Porex for Cerus" — the one it is
        # made for buys, the maker supplies
        (
            "buyer",
            rf"\b{_MADE}\s+(?:\w+\s+){{0,2}}?by\s+(?:the\s+)?\S+\s+for\s+" + t,
            word_starts(*_MADE_LEADS),
        ),
        # (for someone named: "developed or produced by CUTANEA for use in connection with" is its own)
        (
            "seller",
            rf"\b{_MADE}\s+(?:\w+\s+){{0,2}}?by\s+" + t + r"\s+for\s+(?:the\s+)?(?-i:[A-Z])",
            word_starts(*_MADE_LEADS),
        ),
        # "the full amount invoiced to it by the Supplier": the one who invoices is paid
        ("seller", r"\binvoiced\s+(?:to\s+(?:it|them|\w+)\s+)?by\s+" + t, word_starts("invoiced")),
    )
    flags = re.IGNORECASE if not term.isupper() else 0
    for k, (side, rx, leads) in enumerate(cues):
        # up to five hits count: the first five are all that is read
        hits = text.findall(rx, flags, leads, limit=5)
        if not hits:
            continue
        # paying, being paid by, buying or wanting to buy the services is the plainest sign of the customer
        n = len(hits) * (2 if k in _PLAINEST else 1)
        if side == "buyer":
            buyer += n
        else:
            seller += n
        why.append((side, "“" + " ".join(hits[0].group(0).split())[:70] + "”"))
    return buyer, seller, why


@dataclass(frozen=True, slots=True, kw_only=True)
class RoleBinding:
    """Which parties are *us* and which are *them*, how that was decided, and whether it holds."""

    us: tuple[Party, ...]
    them: tuple[Party, ...]
    our_role: str
    via: str  # "we" (named by the user) | "contract" (the parties' own words) | "unresolved"
    basis: str  # one sentence a lawyer can check

    @property
    def resolved(self) -> bool:
        return bool(self.us) and bool(self.them)

    @property
    def us_terms(self) -> tuple[str, ...]:
        return tuple(t for p in self.us for t in p.terms)

    @property
    def them_terms(self) -> tuple[str, ...]:
        return tuple(t for p in self.them for t in p.terms)

    def to_dict(self) -> dict[str, object]:
        return {
            "our_role": self.our_role,
            "resolved": self.resolved,
            "via": self.via,
            "basis": self.basis,
            "us": [p.to_dict() for p in self.us],
            "them": [p.to_dict() for p in self.them],
        }


@dataclass(slots=True)
class _Scored:
    lean: int  # towards our side: our side's score less the other's
    party: Party
    ours: list[str]  # the phrases that put it on our side
    theirs: list[str]  # the phrases that put it on the other side
    on_our_side: int  # our side's score alone


def _matches(party: Party, name: str) -> bool:
    n = " ".join(name.lower().split())
    return any(n == t.lower() for t in party.terms) or (bool(party.name) and n in party.name.lower())


def resolve_roles(
    text: str, parties: Sequence[Party], our_role: str, *, we: str | None = None
) -> RoleBinding:
    """Bind us/them. With `we`, the party it names (by defined term or name) is us; otherwise the party
    whose defined term and actions fit the playbook's role, when the contract says so clearly."""
    if we is not None:
        ours = tuple(p for p in parties if _matches(p, we))
        if not ours:
            known = ", ".join(f"“{p.defined_as}”" for p in parties) or "none found"
            return RoleBinding(
                us=(),
                them=(),
                our_role=our_role,
                via="unresolved",
                basis=f"--we {we!r} names none of the parties the preamble introduces ({known})",
            )
        rest = tuple(p for p in parties if p not in ours)
        return RoleBinding(
            us=ours,
            them=rest,
            our_role=our_role,
            via="we",
            basis=f"named by the user (--we {we!r}): “{ours[0].defined_as}” is us",
        )
    found = _by_contract(text, parties, our_role)
    if found.resolved:
        return found
    # the contract's duties written of roles no party read is called by ("the Supplier shall …" after a
    # preamble that names two companies and no roles): the roles are bound instead
    return _by_stand_ins(text, parties, our_role) or found


def _by_contract(text: str, parties: Sequence[Party], our_role: str) -> RoleBinding:
    """Us and them by what the parties read from the preamble are called and do."""
    side = _SIDE_OF_ROLE.get(our_role)
    if (
        our_role in ("recipient", "discloser")
        and len(parties) >= 2
        and (cue := mutual(text) or mirrored(text, [p.defined_as for p in parties]))
    ):
        # in a mutual NDA each party discloses and receives: whichever we are, we hold the reviewed role
        # "Receiving Party" / "Disclosing Party" name the roles each party takes in turn, not parties
        named_parties = [p for p in parties if not role_term(p.defined_as)]
        both = tuple(named_parties) if len(named_parties) >= 2 else tuple(parties)
        named = " and ".join(f"“{p.defined_as}”" for p in both)
        return RoleBinding(
            us=both,
            them=both,
            our_role=our_role,
            via="contract",
            basis=f"a mutual agreement (“{cue}”): each of {named} discloses and receives, so whichever is us "
            f"is the {our_role}",
        )
    if len(parties) < 2 or side is None:
        what = (
            "fewer than two parties were found in the preamble"
            if len(parties) < 2
            else (f"the playbook's role '{our_role}' has no side to bind")
        )
        return RoleBinding(us=(), them=(), our_role=our_role, via="unresolved", basis=what)
    nda = our_role in ("recipient", "discloser")
    # money one party pays another by name and never receives back decides the sides more plainly than
    # anything either of them grants or provides (a sponsor licenses its marks to the team it pays); money
    # paid both ways (each invoices the other) adds nothing
    scan = Text(text)  # every cue below is tried only where its leading word stands
    pays = None if nda else payments(scan, parties)
    flows = {} if pays is None else one_way_payments(text, parties, pays=pays)
    # where two parties each pay the other by name (each pays the other royalties) an unresolved basis says so
    both_ways = None if pays is None else paid_both_ways(text, parties, pays=pays)
    scored: list[_Scored] = []
    for p in parties:
        b, s, why = nda_evidence(scan, p.defined_as) if nda else _evidence(scan, p.defined_as)
        if p.defined_as in flows:
            way, quote = flows[p.defined_as]
            if way == "payer":
                b += _PAYS
            else:
                s += _PAYS
            paid = ("buyer" if way == "payer" else "seller", f"“{quote}”")
            why = [paid, *(w for w in why if w[1].strip("“”") not in quote)]
        # each party's basis quotes only the words that put it on the side it is said to be on
        scored.append(
            _Scored(
                lean=b - s if side == "buyer" else s - b,
                party=p,
                ours=[w for k, w in why if k == side],
                theirs=[w for k, w in why if k != side],
                on_our_side=b if side == "buyer" else s,
            )
        )
    scored.sort(key=lambda x: -x.lean)
    best, runner = scored[0], scored[1]
    if best.lean >= 2 and best.lean - runner.lean >= 3:
        ours = tuple(x.party for x in scored if x.lean >= 2 and best.lean - x.lean < 3)
        plainly_theirs = [x for x in scored if x.lean <= -3]
        if len(scored) >= 3 and len(plainly_theirs) == 1:
            # two companies that both receive one consultant's services ("Dr. Murray shall provide the
            # following ongoing services to EHS", "… to EHN"): a party leaning our way that the single party
            # plainly on the other side serves by name is on ours
            them = plainly_theirs[0].party.defined_as
            ours = (
                *ours,
                *(
                    x.party
                    for x in scored
                    if x.party not in ours and x.lean > 0 and _served(text, them, x.party.defined_as)
                ),
            )
        rest = tuple(x.party for x in scored if x.party not in ours)
        basis = (
            f"“{best.party.defined_as}” is us (the {our_role}) by its own words in the contract: "
            + ", ".join(dict.fromkeys(best.ours[:3]))
        )
        other = next((x for x in scored if x.party not in ours), None)
        if len(ours) > 1:
            basis += "; " + ", ".join(f"“{p.defined_as}”" for p in ours[1:]) + " on our side too"
        if other is not None and other.theirs:
            basis += f"; “{other.party.defined_as}” is them: " + ", ".join(dict.fromkeys(other.theirs[:2]))
        return RoleBinding(us=ours, them=rest, our_role=our_role, via="contract", basis=basis)
    if (
        len(scored) == 2
        and best.lean >= 0
        and best.on_our_side > 0
        and runner.lean <= -3
        and best.lean - runner.lean >= 4
    ):
        # of two parties, one plainly on the other side (it provides, is paid, grants) while nothing puts the
        # other there and something puts it on ours: the other is us — a sponsor also licenses its marks
        basis = (
            f"“{runner.party.defined_as}” is them by its own words in the contract: "
            + ", ".join(dict.fromkeys(runner.theirs[:3]))
            + f"; so “{best.party.defined_as}”, the other party, is us (the {our_role}): "
            + ", ".join(dict.fromkeys(best.ours[:2]))
        )
        return RoleBinding(
            us=(best.party,), them=(runner.party,), our_role=our_role, via="contract", basis=basis
        )
    named = " and ".join(f"“{x.party.defined_as}”" for x in scored[:3])
    return RoleBinding(
        us=(),
        them=(),
        our_role=our_role,
        via="unresolved",
        basis=f"the contract's words do not show which of {named} is the {our_role} (name it with --we)"
        + (f"; money is paid both ways (“{both_ways[0]}”, “{both_ways[1]}”)" if both_ways else ""),
    )


def _served(text: str, provider: str, receiver: str) -> bool:
    """Whether the contract has `provider` provide, deliver or perform something to `receiver` by name."""
    rx = (
        rf"(?<![\w-]){re.escape(provider)}\s+(?:shall|will|agrees\s+to)\s+(?:provide|deliver|perform|render|supply)"
        rf"\b[^.;]{{0,150}}?\bto\s+(?:the\s+)?{re.escape(receiver)}(?![\w-])"
    )
    return re.search(rx, text) is not None


def _by_stand_ins(text: str, parties: Sequence[Party], our_role: str) -> RoleBinding | None:
    """Us and them bound to the roles the contract writes its duties of (see `standins`), when each role's
    own words put it on its side; None when the contract's duties are not written of such roles."""
    side = _SIDE_OF_ROLE.get(our_role)
    nda = our_role in ("recipient", "discloser")
    pair = None if side is None else stand_ins(text, parties, nda=nda)
    if pair is None:
        return None
    scan = Text(text)
    read = nda_evidence if nda else _evidence
    first, other = pair  # the buyer's (receiving) role, the seller's (disclosing) role or None
    fb, fs, first_why = read(scan, first.defined_as)
    if fb - fs < 2:
        return None
    if other is not None:
        ob, os_, other_why = read(scan, other.defined_as)
        if os_ - ob < 2:
            return None
        others: tuple[Party, ...] = (other,)
    elif nda and side == "buyer":
        # a one-way NDA whose disclosing side is only a party read from the preamble (“Recipient” shall
        # mean the adviser named at the foot; the coordinator discloses): the parties nothing discloses to
        others = tuple(p for p in parties if (e := read(scan, p.defined_as))[0] == 0 and e[1] > 0)
        other_why = [w for p in others for w in read(scan, p.defined_as)[2]]
    else:
        return None
    if not others:
        return None
    ours, theirs = ((first,), others) if side == "buyer" else (others, (first,))
    us_why, them_why = (first_why, other_why) if side == "buyer" else (other_why, first_why)
    theirs_side = "seller" if side == "buyer" else "buyer"
    named = " and ".join(f"“{p.defined_as}”" for p in parties)
    roles = " and ".join(f"“{p.defined_as}”" for p in (first, *((other,) if other else ())))
    if len(parties) >= 2 and other is not None:
        untied = f" without saying which of {named} is which"
    else:
        untied = f", which its preamble ({named or 'no party read'}) does not name"
    basis = (
        f"the contract writes its duties of {roles}{untied}"
        + f": “{ours[0].defined_as}” is us (the {our_role}) by its own words in the contract: "
        + ", ".join(dict.fromkeys(w for k, w in us_why if k == side))
    )
    them_words = ", ".join(dict.fromkeys(w for k, w in them_why if k == theirs_side))
    if them_words:
        basis += f"; “{theirs[0].defined_as}” is them: " + them_words
    return RoleBinding(us=ours, them=theirs, our_role=our_role, via="contract", basis=basis)


def role_alternation(binding: RoleBinding | None, side: str, *, our_role: str = "customer") -> str:
    """The regex for `{us}` (side "us") or `{them}` in a playbook pattern, bound to this contract.

    Bound: the parties' defined terms (and "the" before them). Unbound: the generic words of that side.
    """
    ours = _SIDE_OF_ROLE.get(our_role, "buyer")
    theirs = "seller" if ours == "buyer" else "buyer"
    generic = GENERIC[ours if side == "us" else theirs]
    if binding is None or not binding.resolved:
        return generic
    terms = binding.us_terms if side == "us" else binding.them_terms
    alts = sorted({term_rx(t) for t in terms}, key=len, reverse=True)
    if not alts:
        return generic
    both = "|".join(
        sorted({term_rx(t) for t in (*binding.us_terms, *binding.them_terms)}, key=len, reverse=True)
    )
    # "Either Flotek or FCC may terminate" speaks of each party, so of this side too
    either = rf"either\s+(?:the\s+)?(?:{both})\s+or\s+(?:the\s+)?(?:{both})"
    return "(?:" + either + "|" + "|".join(alts) + ")"
