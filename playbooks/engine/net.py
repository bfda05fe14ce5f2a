"""The absence net: a clause is reported missing only when nothing near the search plausibly holds it.

A `missing` finding is made when the rule's patterns miss — even where the search's own nearest passage (the
retriever's, the locator's, the one set aside, even one the location step called another clause's) plainly
holds the clause in words nobody wrote a pattern for ("EUR 40,000 falls due on signature"; "a controversy …
may be referred to arbitration"). So before saying "absent", those passages are read for the clause's **core
signals**: for a clause the vocabulary below knows, two or more kinds of words that together are the clause
(an amount *and* when it falls due; arbitration or a court *and* a dispute *and* its settling), in one
sentence. A passage that has them makes the finding `needs_review`, naming the passage and why. The signals
are specific on purpose: a bare "fees" holds no payment term, and every `needs_review` made here is one a
lawyer must read (docs/needs_review_share.py measures the cost).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass

from playbooks.engine.context import _Context, _excluded
from playbooks.schema import CompiledClause

_MONEY = (
    r"(?:\b(?:US|AU|CA|NZ|HK|S)?\$|€|£|\b(?:USD|EUR|GBP|AUD|CAD|CHF|JPY)\s?)\s?\d[\d,]*(?:\.\d+)?"
    r"|\b\d[\d,]*(?:\.\d+)?\s+(?:dollars|euros|pounds)\b"
)


@dataclass(frozen=True, slots=True)
class _Signal:
    what: str  # what the words are, as the finding says it ("an amount")
    rx: re.Pattern[str]


def _sig(what: str, pattern: str) -> _Signal:
    return _Signal(what, re.compile(pattern, re.IGNORECASE))


#: per topic (a rule's id), the kinds of words that together are the clause, each needed in one sentence
_CORE: dict[str, tuple[_Signal, ...]] = {
    "payment": (
        _sig(
            "an amount or a share of the price",
            _MONEY + r"|\b\d{1,3}(?:\.\d+)?\s*(?:%|per\s*cent\b|percent\b)",
        ),
        _sig(
            "when or how it is paid",
            r"\b(?:due|payable|paid|pay|pays|invoic\w*|wire\s+transfer|instal+ments?|upon\s+receipt|balance)\b",
        ),
    ),
    "dispute_resolution": (
        _sig(
            "a forum for it (arbitration, mediation or a court)",
            r"\barbitrat\w*|\bmediat\w*|\bArbitration\s+Association\b|\bcourts?\s+(?:of|in|located)\b",
        ),
        _sig("a dispute", r"\bdisputes?\b|\bcontrovers(?:y|ies)\b"),
        _sig("how it is settled", r"\b(?:resol\w+|settle\w*|submit\w*|refer\w*|finally|binding)\b"),
    ),
    "ci_definition": (
        _sig("the defined term", r"[\"“]\s*Confidential\s+Information\s*[\"”]"),
        _sig(
            "words that define it",
            r"\b(?:considered|deemed|means?|defined|referred\s+to|hereinafter|collectively|shall\s+include)\b",
        ),
        _sig("what it covers", r"\b(?:information|materials?|data|documents?)\b"),
    ),
    "compelled_disclosure": (
        _sig("a disclosure", r"\bdisclos\w+"),
        _sig(
            "what compels it (a law, a court, an authority)",
            r"\b(?:laws?|regulations?|court|authorit(?:y|ies)|subpoena|legal\s+process|administrative)\b",
        ),
        _sig("that it is required", r"\b(?:required|obligation|obliged|obligated|compelled|ordered|order)\b"),
    ),
    "return_or_destroy": (
        _sig("returning or destroying it", r"\b(?:return\w*|deliver\w*|destroy\w*|destruction)\b"),
        _sig(
            "what is handed back",
            r"\bconfidential\s+information\b|\b(?:materials|documents|copies|records)\b",
        ),
        _sig(
            "when (on request or at the end)", r"\b(?:request\w*|demand\w*|terminat\w+|expir\w+|promptly)\b"
        ),
    ),
    "limited_use": (
        _sig("a bar on use", r"\b(?:not|never|no)\b[^.;]{0,80}\buse\b|\buse\b[^.;]{0,40}\b(?:only|solely)\b"),
        _sig("the information it protects", r"\bconfidential\s+information\b|\bproprietary\b"),
    ),
}

#: per topic, words that make a sentence another clause's though it has the signals (a cap on liability
#: "shall not exceed $1,000,000 paid …" is no payment term)
_NOT: dict[str, re.Pattern[str]] = {
    "payment": re.compile(
        r"\b(?:liab\w+|exceed\w*|damages|indemn\w+|insur\w+|penalt\w+|liquidated)\b", re.IGNORECASE
    ),
}

#: a sentence of a passage
_SENTENCE = re.compile(r"[^.;]+(?:[.;]|$)")


@dataclass(frozen=True, slots=True)
class Plausible:
    """A passage near the search that plausibly holds the clause: where, and why."""

    index: int  # the passage
    start: int  # the sentence that carries the signals
    end: int
    why: str


def _near(ctx: _Context, clause: CompiledClause, limit: int = 5) -> Iterator[int]:
    """The passages the search itself put nearest the clause: the retriever's, the locator's candidates."""
    seen: set[int] = set()
    question = " ".join([clause.model.title, *clause.model.locate.bridges])
    spans: list[tuple[int, int]] = []
    if ctx.doc.text.strip():
        with suppress(ValueError):  # nothing indexable in the document
            hits = ctx.retriever().search(question, top=limit, use_semantic=False)
            spans += [(h.start, h.end) for h in hits]
    loc = ctx.locations.get(clause.id)
    if loc is not None:
        spans += [(c.start, c.end) for c in loc.candidates]
    for a, b in spans:
        for i in ctx.passages.within(a, b) or [ctx.passages.index_at(a)]:
            if i not in seen:
                seen.add(i)
                yield i


def plausible(ctx: _Context, clause: CompiledClause, extra: Sequence[int] = ()) -> Plausible | None:
    """The first passage near the search (or among `extra`, the ones the location step set aside) whose words
    plausibly hold the clause; None where none does."""
    core = _CORE.get(clause.id)
    if core is None:
        return None
    excluded = _excluded(ctx, clause)
    items = ctx.passages.items
    for i in dict.fromkeys([*extra, *_near(ctx, clause)]):
        p = items[i]
        if i in excluded or p.heading:
            continue
        for m in _SENTENCE.finditer(ctx.text, p.start, p.end):
            said = m.group(0)
            a = m.start() + len(said) - len(said.lstrip())
            if (other := _NOT.get(clause.id)) is not None and other.search(said):
                continue
            found = [(s.what, h.group(0)) for s in core if (h := s.rx.search(said)) is not None]
            if len(found) == len(core):
                why = "; ".join(f"{what} (“{' '.join(w.split())}”)" for what, w in found)
                return Plausible(i, a, m.end(), f"it has the words of the clause: {why}")
    return None
