"""Our own seat: the jurisdictions the preamble places the party that is us in — where it is established
("a Delaware corporation", "a company incorporated in Papua New Guinea") or has its address ("located at …
397 Hennessy Road, Hong Kong") — and the one the contract says we (or the parties) are qualified to do
business in ("are qualified and authorized to do business in the State of Louisiana").

A governing law or a forum outside the playbook's allow-list is a red line because it is foreign to us; the
law of our own seat is not foreign to us, whatever the allow-list says. Read only where who is us is
resolved, from the words around the definition of our own defined term ('VGrab Asia Ltd. (hereinafter
called as the "VAL"), located at …'), up to where the other party's words begin. Where who is us is not
resolved, a jurisdiction the preamble places *both* parties in is our seat whichever of them is us
(`seat_of_both`).

A preamble that gives no address ("The Covenanter: X Inc. (hereinafter referred to as Party A)") is read
on, at the signing block's "Party A: X Inc. Address: …, Taipei City": an address under our own label, up to
the other party's. An address often names only its city, so a short list of cities whose jurisdiction is not
in doubt (`CITY_SEATS`) places a party where no country or state is named after the city ("London, Ontario"
is Ontario).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from playbooks.extract import find_jurisdictions
from playbooks.outcome import ExtractedValue
from playbooks.parties.reading import read_parties

__all__ = ["CITY_SEATS", "our_seat", "seat_of_both"]

#: how far before a jurisdiction the words placing a party there may stand
_REACH = 120
#: how far before and after our definition the words placing us may stand
_BEFORE, _AFTER = 250, 350
#: what says a jurisdiction is where a party is: its establishment or its address
_PLACED = re.compile(
    r"\b(?:located|situated|resid\w+|domiciled|address\w*|offices?|place\s+of\s+business|registered|"
    r"incorporated|organi[sz]ed|existing|formed|established|constituted|chartered|"
    r"corporation|company|limited|partnership|association|bank|LLC|Inc|Ltd|GmbH|S\.?A|B\.?V)\b",
    re.IGNORECASE,
)
#: cities an address may name without its country, each in one jurisdiction only
CITY_SEATS = {
    "Taipei": "Taiwan", "New Taipei": "Taiwan", "Taichung": "Taiwan", "Kaohsiung": "Taiwan",
    "Tainan": "Taiwan", "Hsinchu": "Taiwan", "Beijing": "China", "Shanghai": "China", "Shenzhen": "China",
    "Guangzhou": "China", "Hangzhou": "China", "Tokyo": "Japan", "Osaka": "Japan", "Seoul": "Korea",
    "Mumbai": "India", "New Delhi": "India", "Bangalore": "India", "Bengaluru": "India", "Chennai": "India",
    "London": "England and Wales", "Paris": "France", "Berlin": "Germany", "Munich": "Germany",
    "Frankfurt": "Germany", "Toronto": "Ontario", "Vancouver": "British Columbia", "Montreal": "Quebec",
    "Sydney": "New South Wales", "Melbourne": "Victoria", "Tel Aviv": "Israel", "Zurich": "Switzerland",
    "Geneva": "Switzerland", "Amsterdam": "Netherlands", "Dublin": "Ireland", "Kuala Lumpur": "Malaysia",
    "Bangkok": "Thailand", "Jakarta": "Indonesia", "Manila": "Philippines",
}  # fmt: skip
_CITY = re.compile(r"\b(" + "|".join(sorted(map(re.escape, CITY_SEATS), key=len, reverse=True)) + r")\b")
#: a jurisdiction named right after a city overrides it: "London, Ontario"
_NAMED_AFTER = 40
#: the signing block's label of a party, and its address (within a line or two of the label)
_LABEL = r"\b(?:{terms})\s*:"
_LABEL_TO_ADDRESS = 150
#: a label inside a sentence is no signing block: "deliver to the Company:", "Account Details for UBS AG:"
_IN_SENTENCE = re.compile(r"\b[a-z][\w-]*[\s,]*$")
_ADDRESS = re.compile(r"\b(?:address|located\s+at|registered\s+office)\b", re.IGNORECASE)
#: the word before a party's name in a preamble: "by and between Freeze Tag Inc.", "and Mr. Zheng"
_OPENS = re.compile(r"\b(?:between|BETWEEN|and|AND)\b[\s,:]*(?=[A-Z])")
#: a party's definition: '(the "Company")', '(hereinafter called as the "VAL")'
_DEFINED = (
    r"\(\s*(?:hereinafter\s+(?:referred\s+to\s+|called\s+)?(?:as\s+)?)?"
    r"(?:the\s+)?[\"“]?(?:{terms})[\"”]?\s*[),]"
)


def our_seat(text: str, roles: Mapping[str, str]) -> tuple[ExtractedValue, ...]:
    """The jurisdictions our preamble words place us in (canonical names, each at its span), first
    definition of our defined term only; () where who is us is not bound or nothing places us."""
    us, them = roles.get("us"), roles.get("them")
    if not us or not them:
        return ()
    ours = re.search(_DEFINED.format(terms=us), text, re.IGNORECASE)
    if ours is None:
        return ()
    theirs = list(re.finditer(_DEFINED.format(terms=them), text, re.IGNORECASE))
    lo = max(0, ours.start() - _BEFORE)
    hi = min(len(text), ours.end() + _AFTER)
    # the other party's words are not ours: stop at its definition on either side
    lo = max([lo, *(m.end() for m in theirs if m.end() <= ours.start())])
    # and where our own words begin: after the last "between" or "and" that opens a name before our definition
    opened = [m.end() for m in _OPENS.finditer(text, lo, ours.start())]
    lo = max([lo, *opened])
    hi = min([hi, *(m.start() for m in theirs if m.start() >= ours.end())])
    # and at its name, where it is introduced after ours ("… Hong Kong. AND: Mr. Zheng …")
    after = re.search(r"\b(?:AND|and)\s*:|\n\s*\n|\band\s+(?=[A-Z])", text[ours.end() : hi])
    if after is not None:
        hi = ours.end() + after.start()
    window = text[lo:hi]
    out: list[ExtractedValue] = []
    for h in find_jurisdictions(window, lo):
        # quoted from the words that place us there ("located at …, Hong Kong", "Inc., a Delaware")
        placed = [m.start() for m in _PLACED.finditer(text, max(lo, h.start - _REACH), h.start)]
        if placed:
            a = placed[-1] if len(placed) == 1 else placed[0]
            out.append(ExtractedValue(value=h.value, text=text[a : h.end], start=a, end=h.end))
    return (tuple(out) or _signed_seat(text, us, them)) + _qualified_seat(text, us, them)


#: a representation that a party is present in a jurisdiction: "The Parties hereto represent that … they are
#: … qualified and authorized to do business in the State of Louisiana" (said of us, or of the parties)
_QUALIFIED = (
    r"\b(?:the\s+parties|each\s+(?:of\s+the\s+)?part(?:y|ies)|both\s+parties|(?:the\s+)?(?:{terms}))\b"
    r"(?:(?!\b(?:{others})\b)[^.]){{0,250}}?\b(?:is|are)\s+(?:(?:duly|validly|also)\s+)?qualified\s+"
    r"(?:and\s+(?:duly\s+)?(?:authori[sz]ed|licensed|registered)\s+)?to\s+(?:do|transact|conduct|carry\s+on)\s+"
    r"business\s+in\s+((?:the\s+)?(?:(?:state|commonwealth|province)\s+of\s+)?[A-Z][\w ]{{2,40}})"
)


def _qualified_seat(text: str, us: str, them: str = "") -> tuple[ExtractedValue, ...]:
    """The jurisdiction the contract says we (or the parties) are qualified to do business in, quoted from
    the words that say it; () where it says none."""
    others = them or r"(?!x)x"
    rx = re.compile(_QUALIFIED.format(terms=us, others=others), re.IGNORECASE)
    for m in rx.finditer(text):
        named = find_jurisdictions(m.group(1), m.start(1))
        if named:
            h = named[0]
            return (ExtractedValue(value=h.value, text=text[m.start() : h.end], start=m.start(), end=h.end),)
    return ()


def _signed_seat(text: str, us: str, them: str) -> tuple[ExtractedValue, ...]:
    """Our seat from an address under our own label in the signing block ("Party A: X Inc. Address: …,
    Taipei City"), quoted from "Address" to the place; () where no such address names a place."""
    theirs = re.compile(_LABEL.format(terms=them))
    for m in re.finditer(_LABEL.format(terms=us), text):
        if _IN_SENTENCE.search(text[max(0, m.start() - 30) : m.start()]):
            continue
        hi = min(len(text), m.end() + _AFTER)
        other = theirs.search(text, m.end(), hi)
        if other is not None:
            hi = other.start()
        address = _ADDRESS.search(text, m.end(), min(hi, m.end() + _LABEL_TO_ADDRESS))
        if address is None:
            continue
        lo = address.start()
        named = find_jurisdictions(text[lo:hi], lo)
        found = [(h.value, h.end) for h in named]
        for c in _CITY.finditer(text, lo, hi):
            if not any(c.end() <= h.start <= c.end() + _NAMED_AFTER for h in named):
                found.append((CITY_SEATS[c.group(1)], c.end()))
        if found:
            first = dict(sorted(found, key=lambda f: -f[1]))  # each place once, where first named
            return tuple(
                ExtractedValue(value=v, text=text[lo:end], start=lo, end=end)
                for v, end in sorted(first.items(), key=lambda f: f[1])
            )
    return ()


def seat_of_both(text: str) -> tuple[ExtractedValue, ...]:
    """Where who is us is not resolved: the jurisdictions the preamble places each of the two parties in
    (each quoted from the first party's words), () where there are not exactly two parties or they sit
    apart. The law both parties' seats share is ours whoever is us."""
    parties = [p for p in read_parties(text) if p.defined_as and not p.blank]
    if len(parties) != 2:
        return ()
    a, b = ("|".join(re.escape(t) for t in p.terms) for p in parties)
    first = our_seat(text, {"us": a, "them": b})
    second = {v.value for v in our_seat(text, {"us": b, "them": a})}
    return tuple(v for v in first if v.value in second)
