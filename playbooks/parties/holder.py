"""Who holds a right: the party a sentence says may do something ("either party may terminate").

A right is read from its grammar, not from a party's name next to a keyword: the subject of "may
terminate" / "shall have the right to terminate" / "is entitled to terminate", the party after "may be
terminated by", and the party that gives "notice of termination". "Either party", "each party", "either
X or Y" and "X and Y" hold it jointly; a right one side holds in one sentence and the other side in
another is held by both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["BOTH", "HolderHit", "find_holders", "merge_holders"]

BOTH = "both"

# "either party", "each of the parties", "the other party" (the one not in breach: either, as the case may be)
_EITHER = re.compile(
    r"\b(?:either|each|any|both)\s+(?:of\s+the\s+)?part(?:y|ies)\b"
    r"|\b(?:either|both)\s+(?:of\s+the\s+)?compan(?:y|ies)\b"
    r"|\b(?:the\s+)?(?:other|non-?\s?breaching|non-?\s?defaulting|aggrieved|non-?\s?affected|terminating)\s+party\b"
    # ("is, to the Knowledge of SONY, a party to any settlements" names a participant in something else)
    r"|\bthe\s+part(?:y|ies)\s+not\s+in\s+(?:default|breach)\b|\ba\s+party\b(?!\s+to\s+(?:any|an?|such)\b)"
    r"|\bthe\s+parties\b"
    # "the party serving such notice may … terminate": whichever side gave notice of the other's default
    r"|\bthe\s+party\s+(?:serving|giving|sending|delivering)\s+(?:such\s+|the\s+|that\s+)?notice\b",
    re.IGNORECASE,
)
# what joins two parties into one subject: "either you or the Company", "Licensor and Licensee"
_JOINED = re.compile(r"(?:\beither\b[^.;:]{1,60}?\bor|\b(?:and|or|and/or))\s+(?:the\s+)?$", re.IGNORECASE)
_MODAL = (
    r"(?:may|can|(?:shall|will)\s+(?:have\s+the\s+(?:right|option)|be\s+entitled|be\s+free)\s+to"
    # "shall each have the right but not the obligation to terminate"
    r"|(?:is|are)\s+(?:entitled|free)\s+to|(?:has|have|reserves?|retains?)\s+the\s+(?:right|option)"
    r"(?:\s*,?\s*but\s+not\s+the\s+[-_\s]*obligation\s*,?)?\s+to"
    r"|(?:shall|will)\s+be\s+entitled\s+to)"
)
# "may, at its option, immediately terminate" (never "may be terminated": that is the passive, below)
_GAP = r"(?:(?!be\b)[\w,()'’-]+\s+){0,5}?"
_SUBJECT_REACH = 90  # how far before the verb its subject may start
#: a full stop that ends a sentence, not a title's or a company's abbreviation ("should Dr. Murray be in
#: breach")
_NOT_AN_ABBREVIATION = (
    r"(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bJr)(?<!\bSr)(?<!\bSt)(?<!\bNo)(?<!\bInc)(?<!\bCo)(?<!\bLtd)"
)
_STOP = rf"(?:{_NOT_AN_ABBREVIATION}\.|;)"
# a hard-wrapped line ends nothing
_BOUNDARY = re.compile(_STOP + r"\s|:\s|\n\s*\n|\(\s*[a-z0-9]{1,4}\s*\)\s")
# where a right's own words end: a sentence's end, or a later lettered limb that opens a right of its own
# ("(a) either party may terminate … on 30 days' notice, and (b) either party may terminate … if the other
# party commits a material breach"); never a limb of the right's own conditions ("may terminate (a) if …")
#: what opens a right of its own right after a lettered limb's mark: a subject and its modal ("(b) either
#: party may …"), not the right's own conditions ("(a) if …", "(a) an affiliate")
OWN_RIGHT_AHEAD = r"(?=(?:either|each|any|the|a)\s+(?:[\w-]+\s+){0,3}?(?:may|shall|will|can)\b)"
_LIMB_END = re.compile(
    _STOP + r"\s|\n\s*\n|,?\s*(?:and|or)?\s*\(\s*(?:[b-h]|ii|iii|iv|v|vi)\s*\)\s+" + OWN_RIGHT_AHEAD,
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(_STOP + r"\s|:\s")  # where the agent after "by" can no longer be
# what may stand before the agent ("by the Company", "by either Oaktree US or the Sub-Advisor")
# ("by written notice of the terminating Party": the party that gives the notice)
_AGENT_BEFORE = re.compile(
    r"\s*(?:(?:prior\s+)?(?:written\s+)?notice\s+(?:of|from|given\s+by)\s+)?(?:either\s+)?(?:the\s+)?"
    r"|.*\bby\s+(?:either\s+)?(?:the\s+)?",
    re.IGNORECASE,
)
_JOINED_AFTER = re.compile(r"\s*(?:,\s*)?(?:or|and|and/or)\s+(?:by\s+)?(?:the\s+)?", re.IGNORECASE)
_EITHER_WORD = re.compile(r"\beither\b", re.IGNORECASE)
#: the words of a party named as an agent: "either Party", "the Licensor", "Kestrix Systems"
_AGENT = re.compile(r"(?:(?:the|either|each|any|both)\s+)?[\w&-]+(?:\s+part(?:y|ies))?", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class HolderHit:
    side: str  # "us", "them" or BOTH
    start: int  # the subject through the verb, in document offsets
    end: int
    other: str = ""  # set on a right of another kind: the words of `unless` its own words carry


@dataclass(frozen=True, slots=True)
class _Limbs:
    """What the limbs of a right are read with: the parties' words, the words that rule a limb in (`near`) or
    make it a right of another kind (`unless`), and where those other rights go (`others`)."""

    us: Sequence[re.Pattern[str]]
    them: Sequence[re.Pattern[str]]
    unless: Sequence[re.Pattern[str]]
    near: Sequence[re.Pattern[str]]
    others: list[HolderHit] | None

    def about(self, own: str) -> bool:
        """Whether a limb's own words carry one of `near` (any words do, without `near`)."""
        return not self.near or any(n.search(own) for n in self.near)

    def other_kind(self, own: str) -> str | None:
        """The `unless` words a limb's own words carry (a right of another kind), or None."""
        return next((w.group(0) for u in self.unless if (w := u.search(own))), None)

    def keep(self, hit: HolderHit, why: str | None, out: list[HolderHit]) -> None:
        """A right of this kind into `out`; one of another kind (`why`) into `others`."""
        if why is None:
            out.append(hit)
        elif self.others is not None:
            self.others.append(hit)


@lru_cache(maxsize=64)
def _triggers(right: str) -> list[tuple[re.Pattern[str], str]]:
    """(pattern, where its subject is): 'before' the match or 'after' it (the 'by' of a passive)."""
    return [
        (re.compile(rf"\b{_MODAL}[\s,]+{_GAP}(?:{right})", re.IGNORECASE), "before"),
        # the modal split by a condition: "VAL shall, in the event of …, be entitled to terminate"
        (
            re.compile(
                rf"\b(?:may|shall|will)\s*,[^.;]{{0,250}}?,\s*(?:(?:be\s+entitled|have\s+the\s+(?:right|option)"
                rf"|be\s+free)\s+to\s+)?{_GAP}(?:{right})",
                re.IGNORECASE,
            ),
            "before",
        ),
        # a right exercised by notice that the agreement will end: "the non-defaulting party may give written
        # notice to the defaulting party that if the default is not cured within thirty (30) days the
        # Agreement will be terminated"
        (
            re.compile(
                rf"\b{_MODAL}\s+(?:give|serve|send|deliver|issue)\s+(?:\w+\s+){{0,2}}?notice\b"
                rf"[^.;]{{0,200}}?\b(?:will|shall)\s+(?:\w+\s+)?be\s+(?:automatically\s+|immediately\s+)?(?:{right})",
                re.IGNORECASE,
            ),
            "before",
        ),
        # one remedy of several: "the party serving such notice may, without prejudice to any other right or
        # remedy, defer further performance hereunder until such default be remedied or terminate this
        # Agreement"
        (
            re.compile(
                rf"\b(?:may|shall|will)\s*,[^.;]{{0,120}}?,\s*(?:suspend|defer|withhold)\b[^.;]{{0,120}}?\bor\s+(?:{right})",
                re.IGNORECASE,
            ),
            "before",
        ),
        (
            re.compile(
                rf"\s+(?:gives?|giving|provides?|providing|delivers?|delivering|serves?|serving|sends?|sending)"
                rf"\b[^.;]{{0,150}}?\bnotice\s+of\s+(?:its\s+)?(?:\w+\s+){{0,3}}?(?:{right})",
                re.IGNORECASE,
            ),
            "before",
        ),
        (
            re.compile(
                # "may be immediately terminated", "may be sooner terminated"
                rf"\b(?:(?:may|can|shall|will)\s+(?:only\s+)?be|(?:is|are)|until|unless)\s+(?:sooner\s+|earlier\s+|\w+ly\s+)?"
                # the nearest "by" is the agent's: "is terminated by Service Provider upon a default by
                # Service Recipient" is the provider's right
                rf"(?:{right})\w*[\s,]+(?:[^.;]{{0,80}}?\s)??by\s+",
                re.IGNORECASE,
            ),
            "after",
        ),
    ]


@lru_cache(maxsize=64)
def _passive_lead_in(right: str) -> re.Pattern[str]:
    """A lead-in whose list names who may do it: "this Agreement may be terminated as follows:" (its limbs
    then open with "by X", "(b) by either Party, if the other Party is in material breach …")."""
    return re.compile(
        rf"\b(?:may|can|shall|will)\s+(?:only\s+)?be\s+(?:sooner\s+|earlier\s+)?(?:{right})\w*"
        rf"[^.;:]{{0,80}}:\s*$",
        re.IGNORECASE,
    )


# a limb of such a list that opens with its agent: "b. by either Party", "(ii) by the Company"
_LIMB_BY = re.compile(
    r"(?:^|\n|[;:]\s*(?:or|and)?)\s*\(?(?:[a-z]{1,2}|[ivx]{1,4}|\d{1,2})[.)]{1,2}\s+by\s+", re.IGNORECASE
)


def _mentions(
    window: str, us: Sequence[re.Pattern[str]], them: Sequence[re.Pattern[str]]
) -> list[tuple[int, int, str]]:
    out = [(m.start(), m.end(), BOTH) for m in _EITHER.finditer(window)]
    sides: dict[tuple[int, int], set[str]] = {}
    for side, rxs in (("us", us), ("them", them)):
        for rx in rxs:
            for m in rx.finditer(window):
                if m.end() > m.start():
                    sides.setdefault((m.start(), m.end()), set()).add(side)
    # words that name both sides at once ("either Flotex or Chemco" is bound on each side) name both
    out.extend((a, b, next(iter(s)) if len(s) == 1 else BOTH) for (a, b), s in sides.items())
    return sorted(out)


def _subject_before(
    seg: str, at: int, us: Sequence[re.Pattern[str]], them: Sequence[re.Pattern[str]]
) -> tuple[int, str] | None:
    lo = max(0, at - _SUBJECT_REACH)
    window = seg[lo:at]
    cut = max((m.end() for m in _BOUNDARY.finditer(window)), default=0)
    window = window[cut:]
    found = _mentions(window, us, them)
    if not found:
        return None
    a, _, side = max(found, key=lambda t: (t[1], -t[0]))  # the mention nearest the verb
    if side != BOTH:
        before = window[:a]
        if _JOINED.search(before):
            joined = [t for t in found if t[1] <= a]
            if not joined or joined[-1][2] != side or _EITHER_WORD.search(before):
                side = BOTH
    return lo + cut + a, side


def _subject_after(
    seg: str, at: int, us: Sequence[re.Pattern[str]], them: Sequence[re.Pattern[str]]
) -> tuple[int, str] | None:
    window = seg[at : at + 120]
    stop = _CLAUSE_END.search(window)
    window = window[: stop.start()] if stop else window
    found = _mentions(window, us, them)
    # the party right after the "by", or after a later "or by" ("by mutual agreement or by either party")
    agents = [t for t in found if _AGENT_BEFORE.fullmatch(window[: t[0]])]
    if not agents:
        return None
    # the first agent, joined by "or"/"and" to the next ("by either Oaktree US or the Sub-Advisor"); a later
    # "by" of other words is not the right's ("terminated by Service Provider upon a default by Service
    # Recipient")
    a, b, side = agents[0]
    if side != BOTH:
        rest = window[b:]
        joined = _JOINED_AFTER.match(rest)
        # the next party named right after the "or" ("or the Consultant": its mention may include "the")
        starts: set[int] = set()
        if joined:
            starts.add(b + joined.end())
            if (the := re.search(r"\bthe\s+$", joined.group(0), re.IGNORECASE)) is not None:
                starts.add(b + the.start())
        later = [t for t in found if t[0] in starts]
        if later and later[0][2] != side:
            side = BOTH
    return at + a, side


#: "or" opening an alternative ground: "in the event of Developer committing any breach … or for any other
#: reason"
_OR = re.compile(r"\bor\b", re.IGNORECASE)
#: how soon after the "or" the alternative's own words must start
_ALTERNATIVE_REACH = 25


def _names_as_alternative(own: str, also: Sequence[re.Pattern[str]]) -> bool:
    """Whether a right's words name, as an alternative ground after an "or", words that surely mean this
    right (`also`: "for breach of the terms … or for any other reason considered as sufficient" is a right to
    terminate for any reason as well as for breach)."""
    for o in _OR.finditer(own):
        tail = own[o.end() : o.end() + 60]
        if any((m := rx.search(tail)) is not None and m.start() < _ALTERNATIVE_REACH for rx in also):
            return True
    return False


def find_holders(
    seg: str,
    base: int,
    *,
    right: Sequence[str],
    us: Sequence[re.Pattern[str]],
    them: Sequence[re.Pattern[str]],
    unless: Sequence[re.Pattern[str]] = (),
    near: Sequence[re.Pattern[str]] = (),
    listed: str = "",
    others: list[HolderHit] | None = None,
    also: Sequence[re.Pattern[str]] = (),
) -> list[HolderHit]:
    """Each holder of the right in this passage. A right whose own words (its sentence or limb) match
    `unless` (for breach, on insolvency …) is a right of another kind: skipped, and added to `others`.
    With `near`, a right counts only where its own words carry one of them — or, for a lead-in ending in
    a colon, the list after it (`listed`): "(d) Consultant may terminate on ninety days' notice" is not a
    right to terminate for cause because limb (b) of the same sentence names cause. A right whose words name
    one of `also` (words that surely mean this right) as an alternative after an "or" is this right too."""
    rx = "|".join(f"(?:{r})" for r in right)
    limbs = _Limbs(us=us, them=them, unless=unless, near=near, others=others)
    out: list[HolderHit] = []
    for pattern, where in _triggers(rx):
        for m in pattern.finditer(seg):
            subject = (
                _subject_before(seg, m.start(), us, them)
                if where == "before"
                else _subject_after(seg, m.end(), us, them)
            )
            if subject is None:
                continue
            at, side = subject
            start = min(at, m.start())
            # the right's own words: its sentence or limb, conditions before the subject included
            opened = max((b.end() for b in _BOUNDARY.finditer(seg, 0, start)), default=0)
            stop = _LIMB_END.search(seg, m.end())
            own = seg[opened : stop.start() if stop else len(seg)]
            lead_in = ":" in own[m.end() - opened :]
            if near and not any(n.search(own) or (lead_in and n.search(listed)) for n in near):
                continue
            why = limbs.other_kind(own)
            if why is not None and _names_as_alternative(own, also):
                why = None  # "for breach … or for any other reason": a right of this kind as well
            if why is not None:
                if others is not None:
                    others.append(HolderHit(side=side, start=base + start, end=base + m.end(), other=why))
                continue
            end = m.end()
            if where == "after":  # the agent after "by" is part of the right's words: "by either Party"
                agent = _AGENT.match(seg, at)
                end = max(end, agent.end() if agent else at + 1)
            out.append(HolderHit(side=side, start=base + start, end=base + max(end, at + 1)))
            if where == "after":
                out.extend(_inline_limbs(seg, m.end(), stop.start() if stop else len(seg), base, us, them))
                if stop is not None:
                    out.extend(_semicolon_limbs(seg, stop.start(), base, limbs))
    if listed and _passive_lead_in(rx).search(seg):
        out.extend(_limb_holders(listed, len(seg), base, limbs))
    return sorted(out, key=lambda h: h.start)


#: a later lettered limb of one passive sentence that opens with its own agent: "… shall be terminable (a)
#: by the Licensor … or (b) by the Licensee …"
_INLINE_LIMB_BY = re.compile(
    r"(?:[,;]\s*|\s)(?:(?:or|and)\s+)?\(\s*(?:[a-z]|[ivx]{1,4}|\d{1,2})\s*\)\s+by\s+", re.IGNORECASE
)


#: a later limb of a passive right set off by a semicolon with its own agent: "This Agreement shall be
#: terminable by Licensor at any time …; by Licensor or Licensee upon sixty (60) days' written notice …;
#: or by Licensee …"
_SEMICOLON_BY = re.compile(r";\s*(?:(?:or|and)\s+)?by\s+", re.IGNORECASE)
_SENTENCE_END = re.compile(_NOT_AN_ABBREVIATION + r"\.\s")


def _semicolon_limbs(seg: str, at: int, base: int, limbs: _Limbs) -> list[HolderHit]:
    """The holders of the limbs that follow a passive right after a semicolon, each opening with its own agent
    and judged by its own words (to the next semicolon), as long as the sentence runs on."""
    out: list[HolderHit] = []
    end = _SENTENCE_END.search(seg, at)
    limit = end.start() if end else len(seg)
    while (m := _SEMICOLON_BY.match(seg, at)) is not None and m.start() < limit:
        nxt = seg.find(";", m.end(), limit)
        stop = nxt if nxt != -1 else limit
        own = seg[m.end() : stop]
        subject = _subject_after(seg, m.end(), limbs.us, limbs.them)
        if subject is not None and limbs.about(own):
            why = limbs.other_kind(own)
            hit = HolderHit(side=subject[1], start=base + m.start() + 1, end=base + stop, other=why or "")
            limbs.keep(hit, why, out)
        at = stop
    return out


def _inline_limbs(
    seg: str, after: int, stop: int, base: int, us: Sequence[re.Pattern[str]], them: Sequence[re.Pattern[str]]
) -> list[HolderHit]:
    """The holders the later lettered limbs of a passive right name in the same sentence (the first limb's
    agent is the trigger's own). The right's words are the sentence's, already judged by the caller."""
    out: list[HolderHit] = []
    for m in _INLINE_LIMB_BY.finditer(seg, after, stop):
        subject = _subject_after(seg, m.end(), us, them)
        if subject is not None:
            at, side = subject
            out.append(HolderHit(side=side, start=base + m.start(), end=base + max(m.end(), at + 1)))
    return out


def _limb_holders(listed: str, after: int, base: int, limbs: _Limbs) -> list[HolderHit]:
    """The holders a passive lead-in's limbs name, each limb judged by its own words ("a. by mutual
    agreement" names no party; "b. by either Party, … if the other Party is in material breach")."""
    out: list[HolderHit] = []
    for m in _LIMB_BY.finditer(listed, after):
        subject = _subject_after(listed, m.end(), limbs.us, limbs.them)
        if subject is None:
            continue
        at, side = subject
        stop = _LIMB_END.search(listed, m.end())
        own = listed[m.start() : stop.start() if stop else len(listed)]
        if not limbs.about(own):
            continue
        why = limbs.other_kind(own)
        comma = re.compile(r"[,;(]").search(listed, at, len(listed))
        end = min(comma.start() if comma else at + 40, m.start() + len(own))
        hit = HolderHit(side=side, start=base + m.end() - 3, end=base + max(end, at + 1), other=why or "")
        limbs.keep(hit, why, out)
    return out


def merge_holders(hits: Iterable[HolderHit]) -> tuple[str, HolderHit] | None:
    """The holder over all hits: both when any hit says both or the two sides each hold it; the hit to
    quote is the first that says so."""
    hits = list(hits)
    if not hits:
        return None
    sides = {h.side for h in hits}
    if BOTH in sides or {"us", "them"} <= sides:
        joint = [h for h in hits if h.side == BOTH]
        return BOTH, (joint[0] if joint else hits[0])
    return hits[0].side, hits[0]
