"""Whose promise a clause's own sentence is: the party a restriction or a duty binds, read from its grammar.

"Company shall not, during the period of this Agreement, or any time thereafter, challenge Association's
ownership" binds Company, however far the verb stands from "not" and "challenge"; "Consultant shall not
solicit any employee of the Company" binds the consultant alone, which is a reading ("no, it does not bind
us", quoted), not the silence a pattern defaults from. The sentences read are the located clause's own:
those its patterns match. The promise is the verb nearest before the words the pattern matched ("shall",
"will", "agrees to", "covenants", "undertakes", "must", "is required to"); its subject is the words before
it back to where the clause begins. "Each party", "neither party", "the parties" bind both sides. A sentence
that frees rather than binds ("nothing … shall prevent", "shall not be restricted from", "is free to")
reads nothing.

Where who is us is not resolved, a promise of both sides ("the parties hereby agree to grant to each other a
limited license", "Each Party shall") still binds the side the field speaks of, whoever is us, and is read as
such (`mutual`); a promise of one party by its own name ("the Supplier shall maintain product liability
insurance") is read as holding if that party is the side the field speaks of (`named`), never as a "no".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from playbooks.engine.about import _PROMISE as _DUTY
from playbooks.engine.context import _Context, _hits, _passage_hits, _Region, _Value
from playbooks.engine.lead_in import _lead_in
from playbooks.outcome import ExtractedValue
from playbooks.parties.holder import BOTH, _subject_after, _subject_before
from playbooks.schema import CompiledClause, CompiledField

__all__ = ["bound_reading"]

#: words that free a party rather than bind it
_FREES = re.compile(
    r"\bnothing\b|\bno\s+(?:provision|term)\b|\bnot\s+(?:be\s+)?(?:restricted|prevented|prohibited|precluded|"
    r"limited|obliged|obligated|required|bound)\b|\b(?:is|are|be|remains?)\s+free\s+to\b|\bnot\s+apply\b",
    re.IGNORECASE,
)
#: what a party promises or gives: a duty's verb ("shall", "agrees to", "covenants"), a grant ("grants"), or a
#: prohibition ("Consultant may not solicit": the "may" before its "not"; "agrees not to")
_PROMISE = re.compile(
    _DUTY.pattern + r"|\b(?:hereby\s+)?grants?\b|\bmay(?=\s+not\b)|\bagrees?(?=\s+(?:not|never)\b)",
    re.IGNORECASE,
)
#: "may" after a subject of neither side ("Neither Party may disclose"), which prohibits as "may not" does
_MAY = re.compile(r"\bmay\b", re.IGNORECASE)
_NEITHER_MAY = re.compile(r"\b(?:neither|no)\s+(?:party|of\s+the\s+parties)(?:\s+hereto)?\s*$", re.IGNORECASE)
#: the name right before a verb ("Dr. Murray shall not"): a party of its own where the contract defines it
_NAME_BEFORE = re.compile(r"(?-i:\b([A-Z][\w&’'-]*\.?(?:\s+[A-Z][\w&’'-]*\.?){0,3}))\s*(?:,\s*)?$")
#: a promise not to do something, right after its verb: "shall not", "agrees not to", "will refrain from"
_NOT = re.compile(
    r"[\s,]+(?:(?:at\s+any\s+time|ever|directly\s+or\s+indirectly)[\s,]+)?(?:not|never|refrain)\b",
    re.IGNORECASE,
)
#: how many sentences under the clause's own heading are read where none of its patterns match
_UNDER_HEADING = 3
#: a verb in the passive ("The Association must be named an additional insured"): no promise of its subject
_PASSIVE = re.compile(
    r"\s+(?:not\s+)?be\s+(?:(?:an?|the)\s+)?(?!(?:obliged|obligated|required|bound|entitled|responsible|liable)\b)\w+(?:ed|en)\b",
    re.IGNORECASE,
)
#: "neither Party shall", "neither the Company nor the Consultant will": a promise of each side
_NEITHER = re.compile(r"\bneither\b", re.IGNORECASE)
#: "neither party", "neither of the parties", "neither the Company nor the Consultant" as a subject
_NEITHER_SUBJECT = re.compile(r"\bneither\s+(?:party|of\s+the\s+parties|[^.;:]{1,60}?\bnor\b)", re.IGNORECASE)
#: "neither PcoMed nor its Affiliates", "neither SONY nor any Affiliate of SONY": one party and its own
#: people, not both sides
_NEITHER_OWN = re.compile(
    r"\bneither\b[^.;:]{1,60}?\bnor\s+(?:any\s+of\s+)?(?:its|his|her|their)\b"
    r"|\bneither\s+(?P<one>[A-Z][\w&’'-]*)\s+nor\s+(?:any|an?|the)\s+(?:[\w-]+\s+){0,2}?of\s+(?P=one)\b",
    re.IGNORECASE,
)
#: the word a subject of both sides opens with ("Each of EA, Farids and the Company shall not")
_OPENS_BOTH = re.compile(r"\b(?:each|either|neither|both)\b", re.IGNORECASE)
#: the agent's words after a passive's "by" ("the Parties", "each party hereto")
_AGENT_WORDS = re.compile(r"(?:(?:the|each|both)\s+)?[\w&’'-]+(?:\s+hereto)?", re.IGNORECASE)
#: a party's name that opens a document's title, not a promise of the party ("Microsoft Corporation
#: Non-Disclosure Agreement")
_DOCUMENT_NAME = re.compile(r"(?-i:(?:[A-Z][\w&.’'-]*\s+){1,6}(?:Agreement|Contract|Policy|Plan|Act)\b)")
#: one party's name joined to another's by a word that makes the subject the two of them: "Client and the
#: Designer both agree", "Licensee and Licensor each shall" (not "Client and its Affiliates shall")
_JOINED_BOTH = re.compile(
    r"[\w&’'-]+(?:\s+[\w&’'-]+)?\s+(?:and|&)\s+(?:the\s+)?[A-Z][\w&’'-]*(?:\s+[A-Z][\w&’'-]*)?\s+"
    r"(?i:both|each|jointly|mutually)\b"
)
#: how far before a promise verb "neither" may open its subject
_NEITHER_REACH = 90


def _other_party(text: str, seg: str, at: int, *, unresolved: bool = False) -> tuple[int, str] | None:
    """A party neither side's words name, right before the verb at `at`, that the contract defines as a party
    of its own ('Michael T. Murray, N.D. ("Dr. Murray")'): a promise of someone who is not us — or, where who
    is us is not resolved (no side's words are a party's), of a party whose side is not known ("party")."""
    m = _NAME_BEFORE.search(seg, max(0, at - 60), at)
    if m is None:
        return None
    if not _defined(text, m.group(1)):
        return None
    return (m.start(1), "party" if unresolved else "them")


def _defined(text: str, name: str) -> bool:
    """Whether the contract defines `name` as a term of its own: '("Dr. Murray")', '(the "Supplier")'."""
    rx = re.escape(name).replace(r"\ ", r"\s+")
    return bool(
        re.search(
            rf"\(\s*(?:the\s+|hereinafter\s+(?:called\s+)?(?:as\s+)?(?:the\s+)?)?[\"“]{rx}[\"”]\s*\)", text
        )
    )


#: a party's name as the subject of its promise: "the Supplier", "Kestrix Systems" (up to four words)
_SUBJECT_NAME = re.compile(r"(?:[Tt]he\s+)?([A-Z][\w&’'-]*\.?(?:\s+[A-Z][\w&’'-]*\.?){0,3})\b")
#: how often a contract uses a name for it to count as a party's name (as `reading._named_reading` counts)
_NAME_USES = 3


def _party_name(text: str, subject: str, *, defined: bool) -> str | None:
    """The name of the one party a promise's subject words open with ("the Supplier shall" → "Supplier"),
    where the contract uses it as a name (capitalised, at least three times) and, for a name that is no
    side's word (`defined`), defines it as a term of its own; None where the subject is no party's own name
    (a generic word in lower case: "the vendor shall").
    """
    m = _SUBJECT_NAME.match(subject.strip())
    if m is None:
        return None
    name = " ".join(m.group(1).split())
    if text.count(name) < _NAME_USES or (defined and not _defined(text, name)):
        return None
    return name


def _promise_at(
    text: str, seg: str, at: int, f: CompiledField, *, unresolved: bool = False
) -> tuple[int, int, str] | None:
    """The promise the pattern's words at `at` in a sentence belong to: (where its subject starts, where the
    verb ends, "us" | "them" | "both") — the verb nearest before the words, or failing one (the words are a
    heading's: "Non-solicitation  Without the consent of the other Party, a Party shall not …"), the first
    after them; its subject the party named nearest before the verb (as a right's holder is read)."""
    verbs = sorted(
        [*_PROMISE.finditer(seg), *(m for m in _MAY.finditer(seg) if _NEITHER_MAY.search(seg, 0, m.start()))],
        key=lambda m: m.start(),
    )
    before = [m for m in verbs if m.start() <= at]
    verb = before[-1] if before else next((m for m in verbs if m.start() > at), None)
    if verb is None:
        return None
    us, them = f.cues.get("us", ()), f.cues.get("them", ())
    passive = _PASSIVE.match(seg, verb.end())
    if passive and (agent := _subject_after(seg, passive.end(), us, them)):
        # "shall be maintained by the Parties as confidential": the promise of the party after the "by"
        at_agent, side = agent
        word = _AGENT_WORDS.match(seg, at_agent)
        return verb.start(), word.end() if word else at_agent, "both" if side == BOTH else side
    subject = _subject_before(seg, verb.start(), us, them) or _lead_in_subject(seg, verb.start(), us, them)
    if subject is not None and _DOCUMENT_NAME.match(seg, subject[0]):
        subject = None  # "that certain Microsoft Corporation Non-Disclosure Agreement … shall govern"
    if (
        subject is None
        and (n := _NEITHER_SUBJECT.search(seg, max(0, verb.start() - _NEITHER_REACH), verb.start()))
        and not _NEITHER_OWN.match(seg, n.start())
    ):
        subject = (n.start(), BOTH)  # "Neither party shall make any public statement that disparages …"
    if subject is None:
        subject = _other_party(text, seg, verb.start(), unresolved=unresolved)
    if subject is None:
        return None
    s, side = subject
    lo = max(0, s - _NEITHER_REACH)
    if _NEITHER.search(seg, lo, verb.start()) and not _NEITHER_OWN.search(seg, lo, verb.start()):
        side = BOTH
    if side != BOTH and _JOINED_BOTH.match(seg, s, verb.start()):
        side = BOTH  # "The Client and Designer both agree not to post …": the two of them
    if side == BOTH and (opens := list(_OPENS_BOTH.finditer(seg, lo, s))):
        s = opens[
            -1
        ].start()  # quoted from the words that make it both sides': "Each of EA … and the Company"
    return s, verb.end(), "both" if side == BOTH else side


#: a lead-in that names the subject of every limb after it: "Each party: (a) will not …; (d) agrees not to
#: …", "The Licensee shall: (i) not …"
_LEAD_IN = re.compile(
    r"(?:\s+(?:shall|will|hereby|agrees?|covenants?|undertakes?|must)){0,2}\s*(?:that\s*)?:\s*(?:\(?[a-z0-9]{1,4}[.)])",
    re.IGNORECASE,
)
#: a limb's own mark ("(d) ", "iv. ") at the start of the limb the verb is in
_LIMB_MARK = re.compile(
    r"(?:^|[;:,]\s*(?:and|or)?\s*|\s)\(?(?:[a-z]{1,2}|[ivx]{1,4}|\d{1,2})[.)]\s", re.IGNORECASE
)


def _lead_in_subject(
    seg: str, at: int, us: Sequence[re.Pattern[str]], them: Sequence[re.Pattern[str]]
) -> tuple[int, str] | None:
    """The subject of the lead-in whose list the verb at `at` is a limb of, where the limb names no party
    of its own ("Each party: … (d) agrees not to do anything contesting … the trademark rights of the other
    party" binds both); None where the verb is in no such list."""
    colon = seg.rfind(":", 0, at)
    if colon < 0 or re.search(r"\.\s+[A-Z]", seg[colon:at]):
        return None
    marks = list(_LIMB_MARK.finditer(seg, colon, at))
    # the verb opens its limb ("(d) agrees not to"); a limb with words of its own before the verb has a
    # subject of its own, which no party's name fills
    if not marks or len(seg[marks[-1].end() : at].split()) > 2:
        return None
    end = _lead_in_end(seg, colon)
    if _LEAD_IN.match(seg, end) is None:
        return None
    return _subject_before(seg, end, us, them)


def _lead_in_end(seg: str, colon: int) -> int:
    """Where the lead-in's subject ends: before the modal that may close it ("The Licensee shall:")."""
    m = re.search(
        r"(?:\s+(?:shall|will|hereby|agrees?|covenants?|undertakes?|must)){1,2}\s*(?:that\s*)?$",
        seg[:colon],
        re.IGNORECASE,
    )
    return m.start() if m else colon


def bound_reading(ctx: _Context, region: _Region, f: CompiledField, clause: CompiledClause) -> _Value | None:
    """The field read from whose promise the located clause's sentences are (`binds` in the playbook): yes
    where a sentence binds the field's side (or both), no where every sentence read binds the other side
    alone; None where no sentence of the clause promises anything of a party."""
    side = f.spec.binds
    if side is None:
        return None
    items = ctx.passages.items
    hits = _passage_hits(ctx, clause.patterns)
    order = sorted(
        (i for i in region.passages if i in hits and not items[i].heading),
        key=lambda i: (i != region.anchor, -region.weights.get(i, 0), i),
    )
    value = _first_promise(ctx, f, clause, order, hits)
    if value is not None:
        return value
    # none of them promises anything: the anchor and the sentences after it, where the clause's patterns
    # matched only its heading's words ("3.2 Exclusivity. Dr. Murray shall not …", "2. Non-solicitation.
    # Without … a Party shall not …")
    after = [i for i in region.passages if i >= region.anchor and not items[i].heading and i not in order]
    return _first_promise(ctx, f, clause, after[:_UNDER_HEADING], {})


def _first_promise(
    ctx: _Context, f: CompiledField, clause: CompiledClause, order: list[int], hits: dict[int, int]
) -> _Value | None:
    """Of the sentences `order`, the first whose promise binds the field's side (yes), else the first that
    binds the other side alone (no); None where none promises anything of a party."""
    items = ctx.passages.items
    side = f.spec.binds
    if side is None:
        return None
    other: _Value | None = None
    for i in order:
        p = items[i]
        seg = ctx.text[p.start : p.end]
        if f.near and i in hits and not _hits(f.near, seg):
            continue
        starts = (
            [m.start() for rx in clause.patterns if (m := rx.search(seg)) is not None] if i in hits else [0]
        )
        for at in starts:
            base, seg = p.start, ctx.text[p.start : p.end]
            promise = _promise_at(ctx.text, seg, at, f, unresolved=bool(ctx.roles_unresolved))
            if promise is None and (lead := _lead_in(ctx, i)) is not None:
                # a limb of a list whose lead-in names its subject ("Each party: … (d) agrees not to …")
                base = ctx.passages.items[lead].start
                seg = ctx.text[base : p.end]
                promise = _promise_at(
                    ctx.text, seg, at + p.start - base, f, unresolved=bool(ctx.roles_unresolved)
                )
            if promise is None:
                continue
            s, e, who = promise
            if _FREES.search(seg[s : e + 40]) or _PASSIVE.match(seg, e):
                continue
            if f.spec.restraint and not (_NOT.match(seg, e) or _NEITHER.search(seg, s, e)):
                continue  # a duty to act, not a promise to refrain
            a = base + s + len(seg[s:e]) - len(seg[s:e].lstrip())
            named: tuple[tuple[str, str], ...] = ()
            if ctx.roles_unresolved and who != "both":
                # who is us is not bound: the sides' words are the generic ones, no party's; a promise of one
                # party holds of the field's side only if that party is it, said by the party's own name
                name = _party_name(ctx.text, seg[s:e], defined=who == "party")
                if name is None:
                    continue
                named = ((side, name),)
            ours = who == "both" or who == side or bool(named)
            ev = ExtractedValue(value=ours, text=ctx.text[a : base + e], start=a, end=base + e)
            value = _Value(ev, (p.start, p.end), None, False, named=named, mutual=who == "both")
            if named:
                return value
            if ev.value:
                return value
            other = other or value
            break
    return other
