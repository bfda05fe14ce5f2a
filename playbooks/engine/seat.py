"""Our own seat: the jurisdictions the preamble places the party that is us in — where it is established
("a Delaware corporation", "a company incorporated in Papua New Guinea") or has its address ("located at …
397 Hennessy Road, Hong Kong").

A governing law or a forum outside the playbook's allow-list is a red line because it is foreign to us; the
law of our own seat is not foreign to us, whatever the allow-list says. Read only where who is us is
resolved, from the words around the definition of our own defined term ('VGrab Asia Ltd. (hereinafter
called as the "VAL"), located at …'), up to where the other party's words begin. Where who is us is not
resolved, a jurisdiction the preamble places *both* parties in is our seat whichever of them is us
(`seat_of_both`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from playbooks.extract import find_jurisdictions
from playbooks.outcome import ExtractedValue
from playbooks.parties.reading import read_parties

__all__ = ["our_seat", "seat_of_both"]

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
    return tuple(out)


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
