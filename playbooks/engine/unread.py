"""What a finding says of a value the engine did not read: *not stated* or *not read*.

"cure days not found in the clause" reads to a lawyer as "the contract does not say", which is false where the
clause gives "forty-five (45) working days" and the engine could not tell that this is the cure period. So the
engine says which of two things it knows: the clause it read holds nothing of the value's kind (no number
of days, none of the words a "yes" is made of) — "the engine read no cure days in the clause", which is what
it knows (the located passage may be cut short of the value, so it never says the clause states none); or it
holds a candidate the engine could not place — *not read*, naming the candidate, which the finding quotes so
the reader (and the ledger) sees it. This changes what a finding says, never its outcome.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from playbooks.engine.context import _Context, _passage_hits, _Region
from playbooks.engine.decide import _short, _topic_words
from playbooks.engine.quotes import _quote_range
from playbooks.outcome import QuoteRef
from playbooks.schema import CompiledClause, CompiledField

_NUMBER_WORDS = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)"
)
_MONTHS = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|"
    r"apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?"
)
#: a value of each kind as a contract writes it, whatever the clause uses it for
_KIND_OF_VALUE: Mapping[str, re.Pattern[str]] = {
    "duration": re.compile(
        rf"\b(?:(?:{_NUMBER_WORDS}[\s-]+){{1,3}}(?:\(\s*\d{{1,4}}\s*\)\s*)?|\d{{1,4}}\s*)"
        r"(?:calendar\s+|business\s+|working\s+|banking\s+)?(?:days?|weeks?|months?|years?)\b",
        re.IGNORECASE,
    ),
    "money": re.compile(
        r"(?:\b(?:US|AU|CA|NZ|HK|S)?\$|€|£|\b(?:USD|EUR|GBP|AUD|CAD|CHF|JPY)\s?)\s?\d[\d,]*(?:\.\d+)?"
        r"(?:\s*(?:million|billion|thousand))?|\b\d[\d,]*(?:\.\d+)?\s+(?:dollars|euros|pounds)\b",
        re.IGNORECASE,
    ),
    "percent": re.compile(r"\b\d{1,3}(?:\.\d+)?\s*(?:%|per\s*cent\b|percent\b)", re.IGNORECASE),
    "date": re.compile(
        rf"\b\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}\b|\b{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b"
        rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?{_MONTHS},?\s+\d{{4}}\b",
        re.IGNORECASE,
    ),
}

#: a sentence of a passage (a clause's limbs, split at a full stop or a semicolon)
_SENTENCE = re.compile(r"[^.;]+(?:[.;]|$)")


@dataclass(frozen=True, slots=True)
class Candidate:
    """Where the clause holds what may be a value the engine did not read: a value of the field's kind
    ("forty-five (45) working days" for a cure period) or a sentence using the words its "yes" is made of."""

    field: str
    start: int
    end: int
    text: str
    value: bool  # a value of the field's kind (True) or a sentence in the field's words (False)
    quote: QuoteRef  # the passage that holds it, quoted so the reader sees it


def candidates(
    ctx: _Context, clause: CompiledClause, region: _Region | None, names: Iterable[str]
) -> dict[str, Candidate]:
    """For each field of `names`, the candidate the clause holds for it, if any."""
    fields = {f.name: f for f in clause.fields}
    out: dict[str, Candidate] = {}
    for n in dict.fromkeys(names):
        f = fields.get(n)
        if f is not None and region is not None and (c := _candidate(ctx, clause, region, f)) is not None:
            out[n] = c
    return out


def _passages(ctx: _Context, region: _Region) -> list[int]:
    """The region's passages, its anchor first (the decisive language), then in document order."""
    return [region.anchor, *(i for i in region.passages if i != region.anchor)]


def _candidate(ctx: _Context, clause: CompiledClause, region: _Region, f: CompiledField) -> Candidate | None:
    items = ctx.passages.items
    kind = _KIND_OF_VALUE.get(f.spec.type)
    if kind is not None:
        for i in _passages(ctx, region):
            p = items[i]
            m = kind.search(ctx.text, p.start, p.end)
            if m is not None:
                return _make(ctx, f.name, p.start, p.end, m.start(), m.end(), value=True)
        return None
    if f.spec.type != "bool":
        return None
    words = _topic_words(f, clause)
    if not words:
        return None
    need = min(2, len(words))
    order = _passages(ctx, region)
    if getattr(f.spec, "anywhere", False):
        # a field read anywhere in the contract: its words may stand in another clause than the one located —
        # where its `near` words are, as it is read there ("after termination … an orderly transition", not
        # a recital's "agreed to sell and transfer")
        where = _passage_hits(ctx, f.near) if f.near else None
        order += [i for i in range(len(items)) if i not in region.passages and (where is None or i in where)]
    for i in order:
        p = items[i]
        for m in _SENTENCE.finditer(ctx.text, p.start, p.end):
            said = m.group(0).lower()
            hits = [h.start() for w in words if (h := re.search(r"\b" + re.escape(w), said)) is not None]
            if len(hits) >= need:
                # shown from a little before its first such word, so the words are what the reader sees
                a = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
                first = m.start() + min(hits)
                if first - a > 30:
                    a = ctx.text.rfind(" ", a, first - 20) + 1 or a
                return _make(ctx, f.name, p.start, p.end, a, m.end(), value=False)
    return None


def _make(ctx: _Context, name: str, pa: int, pb: int, a: int, b: int, *, value: bool) -> Candidate | None:
    q = _quote_range(ctx, pa, pb, focus=(a, b))
    if q is None or not (q.start <= a and b <= q.end):
        # the quote would not show it: a sentence too long for one is shown by its own words
        q = _quote_range(ctx, a, b, focus=(a, b))
        if q is None:
            return None
        a, b = max(a, q.start), min(b, q.end)
    return Candidate(field=name, start=a, end=b, text=ctx.text[a:b], value=value, quote=q)


def _name(n: str) -> str:
    return n.replace("_", " ")


def not_read(n: str, c: Candidate, where: str = "") -> str:
    """What a finding says of field `n` the engine did not read beside a candidate the clause holds."""
    if c.value:
        return (
            f"{_name(n)} not read: the clause{where} gives “{_short(c.text)}” — the engine could not tell "
            f"whether that is the {_name(n)}"
        )
    return (
        f"{_name(n)} not read: the clause{where} uses words of the kind (“{_short(c.text)}”) — the engine "
        "could not tell whether they state it"
    )


def say_unknown(
    clause: CompiledClause, unknown: Sequence[str], cands: Mapping[str, Candidate], *, where: str = ""
) -> str:
    """The values the engine has no reading of (none was extracted), each said truthfully: not read beside a
    candidate; "the engine read no …" where the clause holds nothing of the value's kind; else could not be
    read."""
    kinds = {f.name: f.spec.type for f in clause.fields}
    parts = []
    for n in dict.fromkeys(unknown):
        if n in cands:
            parts.append(not_read(n, cands[n], where))
        elif kinds.get(n) in _KIND_OF_VALUE:
            parts.append(f"the engine read no {_name(n)} in the clause{where}")
        else:
            parts.append(f"{_name(n)} could not be read from the clause{where}")
    return "; ".join(parts)


def say_unstated(names: Sequence[str], cands: Mapping[str, Candidate]) -> str:
    """A weak link for yes/no values defaulted from the clause's silence: where the clause uses the words
    of the field, what it says there was not read; where it does not, it does not state them."""
    by_words: dict[tuple[int, int], list[str]] = {}
    for n in names:
        if n in cands:
            by_words.setdefault((cands[n].start, cands[n].end), []).append(n)
    # fields whose words stand in the same sentence are said once, together
    read = [not_read(", ".join(ns), cands[ns[0]]) for ns in by_words.values()]
    rest = [_name(n) for n in names if n not in cands]
    if rest:
        read.append(f"the clause does not state {', '.join(rest)}")
    return "; ".join(read)


def where_of(ctx: _Context, region: _Region | None) -> str:
    """ " (7(c))": the located clause's own label, when it has one, for the reader to find it."""
    if region is None:
        return ""
    label = ctx.section_label(ctx.passages.items[region.anchor].start)
    if not label:
        return ""
    return f" {label}" if label.startswith("(") else f" ({label})"
