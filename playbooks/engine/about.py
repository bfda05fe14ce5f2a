"""Whether the passage located is *about* the rule: the sentence a finding quotes must speak of the rule's
subject, a passage under another clause's heading is that other clause, and a definition is no clause.

A passage's words can match a rule's patterns, and the learned locator can rate it highly, while the
passage is another clause: "neither Party shall be liable for any failure … beyond its reasonable control" is
force majeure, not a limitation of liability; "the remaining provisions shall not be impaired" is
severability, not a covenant not to sue. Four tests, made on the located clause's anchor (the sentence the
finding quotes) before any value is read from it:

- **a definition is no operative clause**: a sentence that opens by defining a term ('"Losses" means …'),
  for a rule that declares its subject or where none of the rule's own words are in it (an NDA's rules read
  the definition of Confidential Information on purpose), unless the term defined is the rule's own subject;
- **another clause's heading**: a sentence whose nearest known heading (a numbered or run-in heading, or a
  heading line) names a different clause — force majeure, severability, waiver, amendment, notices,
  counterparts, … (`KNOWN_CLAUSES`) — is that clause, unless the sentence itself states the rule's subject;
- **the rule's subject** (`locate.about` in the playbook): where a rule declares the terms its operative
  sentence must state, a sentence that states none of them is not the clause — unless it sits under one of the
  rule's own headings, which vouches for it. Where a rule declares none, its own patterns stand for its
  subject under another clause's heading;
- **whose promise** (`locate.duty`: us or them): a sentence whose promise (the subject of its "shall",
  "warrants", "agrees to") is the other side's alone is not the clause, under whatever heading.

An anchor that fails is replaced by a sentence of the same region that passes; failing that, by another
passage the clause's patterns or the locator found that passes; failing that, the clause is not located and
the passage set aside is recorded with why (the absence evidence names it). A clause under its own
heading is never set aside for its wording (only for being the other side's promise): a false "this is
missing" costs a lawyer more than a false alarm.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from playbooks.engine.context import (
    _DEFINITION,
    _OPERATIVE,
    _Context,
    _excluded,
    _heading_only,
    _passage_hits,
    _Region,
)
from playbooks.engine.lead_in import lead_in_promisor
from playbooks.schema import CompiledClause

__all__ = ["KNOWN_CLAUSES", "UNSTATED", "heading_at", "off_subject", "on_subject"]

#: clauses a heading names unmistakably, by their usual headings (general drafting vocabulary; a playbook's
#: own rule for one of them is that rule's own heading, never another's). Umbrella headings that gather many
#: clauses ("License", "Term", "Services", "Miscellaneous", "General") are not here: they say nothing.
KNOWN_CLAUSES: Mapping[str, tuple[str, ...]] = {
    "force majeure": ("force majeure", "events beyond control", "excused performance", "acts of god"),
    "severability": ("severability", "partial invalidity", "invalidity"),
    "waiver": ("waiver", "waivers", "no waiver", "non-waiver"),
    "amendment": ("amendment", "amendments", "modification", "modifications", "amendment and waiver"),
    "notices": ("notices", "notice and payment", "notice and communications"),
    "counterparts": ("counterparts", "execution in counterparts"),
    "entire agreement": ("entire agreement", "whole agreement", "entire understanding", "complete agreement"),
    "governing law": ("governing law", "applicable law", "choice of law"),
    "dispute resolution": ("dispute resolution", "disputes", "arbitration", "jurisdiction", "venue"),
    "assignment": ("assignment", "successors and assigns"),  # "Assignment of Inventions" is no such clause
    "confidentiality": ("confidentiality", "confidential information", "non-disclosure", "nondisclosure"),
    "insurance": ("insurance",),
    "indemnification": ("indemnification", "indemnity", "indemnities"),
    "limitation of liability": (
        "limitation of liability", "limitations of liability", "limitation on liability",
    ),
    "warranties": ("warranties", "warranty", "representations and warranties"),
    "audit": ("audit", "audits", "audit rights", "books and records"),
    "non-solicitation": ("non-solicitation", "non solicitation", "nonsolicitation", "no solicitation"),
    "non-competition": ("non-competition", "non-compete", "noncompetition", "covenant not to compete"),
    "publicity": ("publicity", "press releases", "announcements"),
    "relationship of the parties": (
        "relationship of the parties", "relationship of parties", "relationship", "independent contractor",
        "independent contractors", "no partnership", "no agency",
    ),
    "headings": ("headings", "captions"),
    "further assurances": ("further assurances",),
    "survival": ("survival",),
    "interpretation": ("interpretation",),
    "definitions": ("definitions",),
    "taxes": ("taxes",),
    "third-party beneficiaries": (
        "third party beneficiaries", "third-party beneficiaries", "third party beneficiary",
        "third party rights",
    ),
    "order of precedence": ("order of precedence", "precedence"),
    "expenses": ("costs and expenses",),
    "equitable relief": ("equitable relief", "injunctive relief", "specific performance"),
    "cumulative remedies": ("cumulative remedies", "remedies cumulative"),
    "compliance with laws": ("compliance with laws", "compliance with law"),
}  # fmt: skip

#: why a passage is set aside when it only fails to state the rule's subject (no other clause's heading, no
#: definition, not the other side's promise)
UNSTATED = "it does not state the subject of"
_TERM = re.compile(r"[\"“]([^\"”]{1,80})[\"”]")  # the term a definition defines
_HEAD_REACH = 40  # a heading names a clause when the clause's name starts this near its beginning


@lru_cache(maxsize=256)
def _phrase_rx(phrase: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in phrase.lower().split()]
    tail = r"(?!\s+of\b)" if phrase == "assignment" else ""
    return re.compile(r"\b" + r"[\s\-]+".join(words) + r"\b" + tail, re.IGNORECASE)


_LABEL = re.compile(
    r"\s*(?:(?:article|section|clause|part)\s+)?(?:[ivxlc]+\b|\d+(?:\.\d+)*|\(?[a-z0-9]{1,3}\))?[.:)]?\s*",
    re.IGNORECASE,
)
_TITLE = re.compile(r"\bagreement\b", re.IGNORECASE)  # "Non-Disclosure Agreement": a title, no clause heading
_WHOLE = re.compile(r"\b(?:entire|whole)\s+agreement\b", re.IGNORECASE)


def _after_label(head: str) -> str:
    """A heading's text after its clause number ("10.15 force majeure" → "force majeure")."""
    m = _LABEL.match(head)
    return head[m.end() :] if m else head


def _defines_own(term: str, clause: CompiledClause) -> bool:
    """Whether a defined term is the clause's own subject: one of its headings names it ("Effective Date"),
    or it is named in one ("definition of confidential information")."""
    t = " ".join(term.lower().split())
    return _own(term, clause) or any(t in h for h in clause.headings)


def _own(head: str, clause: CompiledClause) -> bool:
    """Whether a heading's text names one of the clause's own headings near its beginning."""
    return any((m := rx.search(head)) is not None and m.start() < _HEAD_REACH for rx in clause.heading_res)


def _names_other(head: str, phrases: Sequence[str]) -> bool:
    """Whether a heading names another clause: a document's title names none ("Indemnification Agreement"),
    and a first line that reads as a sentence (it has a verb) names one only where it begins with its name."""
    if _TITLE.search(head) and not _WHOLE.search(head):
        return False
    body = _after_label(head)
    sentence = _OPERATIVE.search(body) is not None
    return any(
        (m := _phrase_rx(p).search(body)) is not None
        and (m.start() == 0 or (not sentence and m.start() < _HEAD_REACH))
        for p in phrases
    )


@lru_cache(maxsize=4096)
def _known(head: str) -> str | None:
    """The clause of `KNOWN_CLAUSES` a heading names, if any."""
    return next((name for name, phrases in KNOWN_CLAUSES.items() if _names_other(head, phrases)), None)


def _over(ctx: _Context, i: int) -> tuple[str, ...]:
    """The headings over passage `i`, innermost first (computed once per passage)."""
    got = ctx.heads_over.get(i)
    if got is None:
        start = ctx.passages.items[i].start
        over = sorted((h for h in ctx.heads if h[0] <= start < h[1]), key=lambda h: -h[0])
        got = ctx.heads_over[i] = tuple(h[2] for h in over)
    return got


def heading_at(ctx: _Context, clause: CompiledClause, i: int) -> tuple[str, str] | None:
    """The heading over passage `i` that says what it is: ("own", heading) when it is one of the clause's own
    headings, ("other", clause name) when it names another clause, None when it names none. The innermost
    heading decides; a first line read as a heading that is really a sentence is passed over."""
    for head in _over(ctx, i):
        if _own(head, clause):
            return ("own", head)
        other = _known(head)
        if other is not None:
            return ("other", other)
        if _OPERATIVE.search(_after_label(head)) is None:
            return None  # a real heading that names no clause ("Miscellaneous"): what it holds is unsaid
    return None


def _states_subject(ctx: _Context, clause: CompiledClause, i: int, hits: Mapping[int, int]) -> bool:
    """Whether passage `i` states the rule's subject: one of its `about` terms, or (none declared) one of
    its patterns or plain-word bridges."""
    if clause.about:
        p = ctx.passages.items[i]
        a, b = (
            ctx.passages.with_list(i)
            if ctx.text[p.start : p.end].rstrip().endswith(":")
            else (p.start, p.end)
        )
        seg = ctx.text[a:b]
        return any(rx.search(seg) for rx in clause.about)
    return i in hits or (bool(clause.bridges) and i in _passage_hits(ctx, clause.bridges))


def _of_a_definition(clause: CompiledClause) -> bool:
    """Whether the rule is about a definition (a heading of its own names one: "definition of confidential
    information"): its clause is the sentence that defines, wherever else its patterns hit."""
    return any(re.search(r"\bdefinitions?\b", h) for h in clause.headings)


def _reads_the_opening(clause: CompiledClause) -> bool:
    """Whether a rule reads what a contract's opening states (its parties, its dates), recitals included."""
    return (
        bool(clause.model.locate.preamble)
        or any(f.spec.type == "date" for f in clause.fields)
        # a rule about a definition reads it where the recitals give it ("WHEREAS … 'Confidential
        # Information'")
        or _of_a_definition(clause)
    )


def off_subject(
    ctx: _Context,
    clause: CompiledClause,
    i: int,
    hits: Mapping[int, int] | None = None,
    *,
    strict: bool = True,
) -> str | None:
    """Why passage `i` is not the clause's operative sentence (None: it may be). `strict=False` (the weaker
    language a hint finds): only another clause's heading over a sentence that does not state the rule's
    subject, the other side's promise, or a definition (for a rule that declares its subject) rules it out."""
    if hits is None:
        hits = _passage_hits(ctx, clause.patterns)
    p = ctx.passages.items[i]
    sec = ctx.doc.section_at(p.start)
    defined = _DEFINITION.match(ctx.text, p.start)
    # a definition is no operative clause: for a rule that says what it is about, or where none of the rule's
    # own words are in it (what the locator alone found). A rule whose patterns read a definition (an NDA's
    # "Confidential Information means … whether oral or written") reads it, and a defined term that is the
    # rule's own subject ('"Effective Date" means …') is the clause. The weaker language a hint finds in a
    # definition stands for a rule only where the rule does not say what it is about.
    # A sentence in a section read as a definition that defines nothing itself and makes a promise
    # ("University will provide … the opportunity to examine the records", where a definition's section
    # ran on over the next article) is no definition.
    in_definition = (
        sec is not None and sec.kind == "definition" and not _PROMISE.search(ctx.text, p.start, p.end)
    )
    if (defined or in_definition) and (clause.about or (strict and i not in hits)):
        term = _TERM.search(defined.group(0)) if defined else None
        if term is None or not _defines_own(term.group(1), clause):
            return "it defines a term; a definition is not the operative clause"
    if ctx.in_recitals(p.start) and not _reads_the_opening(clause):
        # "A. … FNW is granted the exclusive right to … all advertising … in the Kingdome": the background
        return "it is a recital: the background to the agreement, not one of its terms"
    if (theirs := _other_sides(ctx, clause, i)) is not None:
        return theirs  # a heading does not say whose promise a sentence is
    where = heading_at(ctx, clause, i)
    if where is not None and where[0] == "own":
        if not _own_heading_speaks(ctx, clause, i):
            return (
                f"it sits under a heading naming {clause.title.lower()} and another clause, and nothing "
                "under the heading states its subject"
            )
        return None
    if where is not None and where[1] in _EXCUSES and _EXCUSED.search(ctx.text, p.start, p.end):
        # "Neither Party shall be liable … for any direct, indirect, consequential … damages arising out of
        # the suspension … by reason of Force Majeure": the liability excused under an excuse's heading is
        # the event's, whatever kinds of loss it names — no limit on liability
        return (
            f"it sits under a heading of another clause ({where[1]}): the liability it excuses is the event's"
        )
    if where is not None and not _states_subject(ctx, clause, i, hits):
        return f"it sits under a heading of another clause ({where[1]}) and does not state its subject"
    if strict and clause.about and not _states_subject(ctx, clause, i, hits):
        return f"{UNSTATED} {clause.title.lower()}"
    return None


def _other_sides(ctx: _Context, clause: CompiledClause, i: int) -> str | None:
    """Why passage `i` is not the clause where the clause states one side's promise (`locate.duty`) and the
    passage's promise is the other side's alone (None: it is not, or it promises nothing)."""
    if clause.duty is None:
        return None
    p = ctx.passages.items[i]
    # a list item's promise is its lead-in's party's where the item names no subject of its own
    who = lead_in_promisor(ctx, i) or _promisor(ctx.text[p.start : p.end])
    if who is None:
        return None
    own, other = clause.duty
    if other.search(who) and not own.search(who) and not _JOINT.search(who):
        return f"it states a promise of {' '.join(who.split())}, the other side"
    return None


#: clauses that excuse a party for an event: a sentence under their heading that frees a party of liability
#: is the excuse, not a limitation of liability
_EXCUSES = frozenset({"force majeure"})
_EXCUSED = re.compile(
    r"\b(?:(?:not|never)\s+be\s+(?:held\s+)?(?:liable|responsible)|(?:have|bear|incur)\s+no\s+liabilit)"
    r"|\b(?:neither|no)\s+(?:\w+\s+){0,3}?(?:shall|will)\s+(?:\w+\s+)?be\s+(?:held\s+)?(?:liable|responsible)\b",
    re.IGNORECASE,
)

# what a party promises: the verb after its subject ("Supplier warrants", "TAG will treat", "X agrees to")
_PROMISE = re.compile(
    r"\b(?:shall|will|must|agrees?\s+to|undertakes?|covenants?|warrants?|represents?|guarantees?"
    r"|is\s+(?:responsible|obliged|obligated|required))\b",
    re.IGNORECASE,
)
_SUBJECT_START = re.compile(r"(?:^|[;:]\s|\.\s|\(\s*[a-z0-9]{1,4}\s*\)\s|\bthat\s)", re.IGNORECASE)
_JOINT = re.compile(
    r"\b(?:either|each|both|neither)\s+(?:of\s+the\s+)?part(?:y|ies)\b|\bthe\s+parties\b", re.I
)


def _promisor(sentence: str) -> str | None:
    """The words before a sentence's first promise verb, back to where its clause begins (its subject and
    what leads into it); None where it promises nothing."""
    m = _PROMISE.search(sentence)
    if m is None:
        return None
    lo = max(0, m.start() - 120)
    starts = [s.end() for s in _SUBJECT_START.finditer(sentence, lo, m.start())]
    return sentence[starts[-1] if starts else lo : m.start()] or None


def on_subject(
    ctx: _Context,
    clause: CompiledClause,
    region: _Region,
    others: Sequence[tuple[int, str]],
    around: Callable[[int, str], _Region],
) -> tuple[_Region | None, str | None]:
    """The region with its anchor on a sentence about the rule; else the region `around` another candidate
    of the clause that is (`others`: passage, how it was found — the locator's and the patterns' candidates,
    best first); else (None, why the region located is not the clause). A region found by its own heading
    stands."""
    hits = _passage_hits(ctx, clause.patterns)
    why = off_subject(ctx, clause, region.anchor, hits)
    if why is None:
        return region, None
    items = ctx.passages.items
    inside = sorted(
        (i for i in region.passages if i != region.anchor and not items[i].heading),
        key=lambda i: (-region.weights.get(i, 0), i),
    )
    for i in inside:
        if _stands(ctx, clause, i, hits):
            return replace(region, anchor=i), None
    if (
        region.via == "heading"
        and _other_sides(ctx, clause, region.anchor) is None
        and _speaks_of(ctx, clause, region)
    ):
        return region, None  # found by its own heading: the heading vouches, whatever its first sentence
    excluded = _excluded(ctx, clause)
    seen = set(region.passages)
    for i, via in others:
        if i in seen or i in excluded or items[i].heading:
            continue
        seen.add(i)
        if _stands(ctx, clause, i, hits):
            return around(i, via), None
    return None, why


def _own_heading_speaks(ctx: _Context, clause: CompiledClause, i: int) -> bool:
    """Whether the clause's own heading over passage `i` vouches for it: always, unless the heading names
    another clause too and nothing under it states this clause's subject (`about`) — "14. NOTICE AND PAYMENT"
    over a notices clause alone vouches for no payment clause."""
    if not clause.about:
        return True
    start = ctx.passages.items[i].start
    over = sorted((h for h in ctx.heads if h[0] <= start < h[1] and _own(h[2], clause)), key=lambda h: -h[0])
    # the heading vouches for the clause, however its sentence is worded — unless it also names another
    # clause and nothing under it states this one's subject
    other = _known(over[0][2]) if over else None
    if other is None or any(p in clause.headings for p in (other, *KNOWN_CLAUSES[other])):
        return True
    return any(_says_below_heading(ctx, clause, j) for j in ctx.passages.within(over[0][0], over[0][1]))


def _says_below_heading(ctx: _Context, clause: CompiledClause, j: int) -> bool:
    """Whether passage `j`, past any heading line it opens with, states one of the clause's `about` terms."""
    p = ctx.passages.items[j]
    return not p.heading and any(rx.search(_below_heading(ctx.text[p.start : p.end])) for rx in clause.about)


def _below_heading(seg: str) -> str:
    """A passage's words after the heading line it opens with ("14. NOTICE AND PAYMENT\n\nAll notices …"),
    so that the heading's own words do not count as what the passage states."""
    if _heading_only(seg.strip()):
        return ""
    first, _, rest = seg.partition("\n")
    return rest if rest.strip() and _heading_only(first.strip()) else seg


def _speaks_of(ctx: _Context, clause: CompiledClause, region: _Region) -> bool:
    """Whether some sentence under the heading states the clause's subject (`about`), where the clause names
    one: "14. NOTICE AND PAYMENT" over a notices clause alone vouches for no payment clause."""
    if not clause.about:
        return True
    return any(_says_below_heading(ctx, clause, i) for i in region.passages)


def _stands(ctx: _Context, clause: CompiledClause, i: int, hits: Mapping[int, int]) -> bool:
    """Whether passage `i` may stand for the clause in place of an anchor set aside: nothing rules it out, and
    it states the rule's subject or sits under one of the rule's own headings, which vouches for it."""
    if off_subject(ctx, clause, i, hits) is not None:
        return False
    if _states_subject(ctx, clause, i, hits):
        return True
    where = heading_at(ctx, clause, i)
    return where is not None and where[0] == "own"
