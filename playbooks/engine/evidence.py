"""What the search considered: the absence evidence, hints, references and passages set aside."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from playbooks.engine.context import (
    _RUN_IN,
    _SENTENCE,
    _Context,
    _excluded,
    _heading_only,
    _passage_hits,
    _Region,
    ruled_out_heading,
)
from playbooks.engine.decide import _sev_get, _severity, _short
from playbooks.engine.net import plausible
from playbooks.engine.quotes import _quote_range
from playbooks.incorporation import INCORPORATED_REASON, Incorporation, for_topic, general
from playbooks.outcome import ClauseOutcome, QuoteRef, SearchRecord
from playbooks.passages import Passage
from playbooks.schema import CompiledClause


def _search_record(ctx: _Context, clause: CompiledClause, requirement: str) -> SearchRecord:
    m = clause.model.locate
    queries = tuple(f"heading: {h}" for h in m.headings) + tuple(f"term: {b}" for b in m.bridges)
    queries += tuple(f"pattern: {p}" for p in m.patterns)
    queries += _nearest_clauses(ctx, clause)
    queries += _locator_candidates(ctx, clause)
    return SearchRecord(
        requirement=requirement, queries=queries, coverage=ctx.coverage, complete=ctx.complete
    )


def _nearest_clauses(ctx: _Context, clause: CompiledClause) -> tuple[str, ...]:
    """A second, independent search before saying "absent": the clause retriever (BM25 with the
    plain-language bridges) asked for the clause by its title and bridge terms. Its nearest clauses
    are recorded in the absence evidence — what was considered and not taken — so the reviewer who
    must confirm a high-supervision absence knows where to look first. It never changes the outcome:
    a retrieval score is not evidence that the clause is there."""
    if not ctx.doc.text.strip():
        return ()
    question = " ".join([clause.model.title, *clause.model.locate.bridges])
    try:
        hits = ctx.retriever().search(question, top=3, use_semantic=False)
    except ValueError:  # nothing indexable in the document
        return ()
    if not hits:
        return (f"retrieval: {question!r} — no candidate clause",)
    near = "; ".join(f"{h.label or h.id} at {h.start}–{h.end} (confidence {h.confidence})" for h in hits)
    return (f"retrieval: {question!r} — nearest clauses considered and not taken: {near}",)


def _headed_but_not_taken(ctx: _Context, clause: CompiledClause) -> Passage | None:
    """A passage under a heading of the clause that the location step passed over (no body it could read,
    or the heading deeper in the line), or the retriever's best passage when it opens with such a heading.
    Its existence contradicts "absent": the finding must say what was found instead."""
    excluded = _excluded(ctx, clause)
    items = ctx.passages.items
    ruled_out: list[tuple[int, int]] = []  # headings over nothing but what the clause rules out
    for start, end, head in ctx.heads:
        if any(
            key in head and rx.search(head)
            for rx, key in zip(clause.heading_res, clause.heading_keys, strict=True)
        ):
            body = [i for i in ctx.passages.within(start, end) if not items[i].heading]
            text = [i for i in body if not _heading_only(ctx.text[items[i].start : items[i].end])]
            if ruled_out_heading(clause, head) or (text and all(i in excluded for i in text)):
                # every sentence under it is one the clause rules out ("Exclusivity of Warranties"; "(e)
                # Non-Compete. … does not contain a covenant-non-compete"), its heading lines aside
                ruled_out.append((start, end))
                continue
            return items[ctx.passages.index_at(start)]
    if not ctx.doc.text.strip() or not clause.heading_res:
        return None
    try:
        hits = ctx.retriever().search(clause.model.title, top=1, use_semantic=False)
    except ValueError:
        return None
    # a passage the clause's own exclusions rule out is not headed as the clause: "(a) Return all documents,
    # copies of documents …" opens with the word of a copying heading, and is a return clause
    if (
        hits
        and not any(a <= hits[0].start < b for a, b in ruled_out)
        and ctx.passages.index_at(hits[0].start) not in excluded
    ):
        # its heading, the first line: "24. WAIVER" names no audit clause, whatever the sentence under it says
        lead = ctx.text[hits[0].start : hits[0].start + 60].lstrip().split("\n", 1)[0]
        run_in = _RUN_IN.match(lead)
        lead = lead[: run_in.end(1)] if run_in else lead
        if (
            not _SENTENCE.search(lead)
            and any(rx.search(lead) for rx in clause.heading_res)
            and not ruled_out_heading(clause, lead)
        ):
            return ctx.passages.items[ctx.passages.index_at(hits[0].start)]
    return None


def _locator_candidates(ctx: _Context, clause: CompiledClause) -> tuple[str, ...]:
    """The locator's best passages for the clause's category, recorded in the absence evidence with
    their scores (what the learned search considered); like the retriever's, never the outcome itself."""
    loc = ctx.locations.get(clause.id)
    if loc is None or not loc.candidates:
        return ()
    best = "; ".join(f"{c.start}–{c.end} (score {c.score:.3f}, rank {c.rank})" for c in loc.candidates)
    return (f"locator {loc.locator} [{loc.category}]: best passages considered and not taken: {best}",)


def _referenced(ctx: _Context, clause: CompiledClause) -> int | None:
    """The passage that incorporates the clause by reference when the referenced text is not attached."""
    if not clause.referenced:
        return None
    if any(p.search(ctx.text) for p in clause.provided_if):
        return None
    hits = _passage_hits(ctx, clause.referenced)
    return min(hits) if hits else None


def _referenced_severity(clause: CompiledClause) -> str:
    """The severity of a clause incorporated by reference but not provided: the clause's own for that outcome,
    else its `referenced` block's, else high."""
    m = clause.model
    return _sev_get(m.severity, "referenced_not_provided") or (
        m.referenced.severity if m.referenced else "high"
    )


def _only_points(ctx: _Context, clause: CompiledClause, region: _Region | None) -> bool:
    """Whether the clause located is nothing but the sentence pointing elsewhere (or nothing was located):
    every passage of the region that is not a heading and speaks of the clause's subject (carries one of
    its patterns, or the words of its title) carries a `referenced` pattern — a neighbouring sentence on
    something else ("In addition, Surgical shall … execute a Business Associate Agreement") is no clause of
    its own beside the pointer."""
    if region is None:
        return True
    hits = _passage_hits(ctx, clause.referenced)
    own = _passage_hits(ctx, clause.patterns)
    items = ctx.passages.items
    body = [
        i
        for i in region.passages
        if not items[i].heading and not _heading_only(ctx.text[items[i].start : items[i].end])
    ]
    stems = [w[:6].lower() for w in re.findall(r"[A-Za-z]{5,}", clause.title)]

    def speaks_of(i: int) -> bool:
        return i in own or any(st in ctx.text[items[i].start : items[i].end].lower() for st in stems)

    speaks = [i for i in body if speaks_of(i)]
    return bool(body) and all(i in hits and not _states_beside(ctx, clause, i) for i in speaks or body)


def _states_beside(ctx: _Context, clause: CompiledClause, i: int) -> bool:
    """Whether a pointing passage also states the clause in words of its own, outside the pointer: "Without
    limiting the obligations set forth in the Mutual Confidentiality Agreement …, the Parties hereto agree to
    maintain in confidence the terms of this Agreement" has a confidentiality clause of its own."""
    p = ctx.passages.items[i]
    seg = ctx.text[p.start : p.end]
    pointers = [m.span() for rx in clause.referenced for m in rx.finditer(seg)]
    return any(
        not any(a <= m.start() < b or a < m.end() <= b for a, b in pointers)
        for rx in clause.patterns
        for m in rx.finditer(seg)
    )


def _hinted(ctx: _Context, clause: CompiledClause, limit: int = 2) -> list[int]:
    """The passages (at most `limit`, most hints first) carrying a clause's weaker language."""
    hits = _passage_hits(ctx, clause.hints)
    excluded = _excluded(ctx, clause)
    ranked = sorted((i for i in hits if i not in excluded), key=lambda i: (-hits[i], i))
    return sorted(ranked[:limit])


def _absent(
    ctx: _Context,
    clause: CompiledClause,
    base: Mapping[str, Any],
    *,
    considered: tuple[_Region, str] | None = None,
) -> ClauseOutcome:
    """The clause's absence; `considered` is the passage the location step found and then set aside (with
    why), recorded in the search evidence so the reviewer confirming the absence reads it first."""
    m = clause.model
    im = m.if_missing
    outcome: str = im.outcome if im else ("missing" if clause.required else "not_applicable")
    severity = _sev_get(m.severity, outcome) or (
        im.severity if im else ("high" if clause.required else "info")
    )
    msg = (im.message if im and im.message else None) or (
        f"No {clause.title.lower()} clause found."
        if outcome == "missing"
        else f"No {clause.title.lower()} clause found; nothing to review."
    )
    searched = _search_record(ctx, clause, f"{clause.title}{' (required)' if clause.required else ''}")
    held = _plausibly_held(ctx, clause, base, searched, considered) if outcome == "missing" else None
    if held is not None:
        return held
    if outcome == "missing" and (inc := _incorporated(ctx, clause, base, searched)) is not None:
        return inc
    reason = "no heading, term or pattern of the clause occurs anywhere in the document"
    kind = ctx.contract_type
    if outcome == "missing" and kind is not None and kind in clause.not_expected_in:
        # an absence is a gap only where a contract of the kind is expected to have the clause: a covenant
        # not to compete given on a sale caps no liability and carries no insurance
        outcome, severity, words = "not_applicable", "info", kind.replace("_", " ")
        msg = f"No {clause.title.lower()} clause found; none is expected in a {words} contract."
        reason = f"{reason}, and the playbook does not expect one in {words} contracts"
    if considered is not None:
        region, why = considered
        p = ctx.passages.items[region.anchor]
        label = ctx.section_label(p.start)
        where = f"{label} " if label else ""
        seen = _short(ctx.text[p.start : p.end])
        note = f"considered and not taken: {where}at {p.start}–{p.end} “{seen}” — {why}"
        searched = replace(searched, queries=(*searched.queries, note))
        reason = f"the only passage located is not the clause: {why}"
    return ClauseOutcome(
        outcome=outcome, severity=severity, claim=msg, searched=searched, reason=reason, **base
    )


def _plausibly_held(
    ctx: _Context,
    clause: CompiledClause,
    base: Mapping[str, Any],
    searched: SearchRecord,
    considered: tuple[_Region, str] | None,
) -> ClauseOutcome | None:
    """Where a passage the search put nearest the clause plausibly holds it (`net`), the absence is not
    concluded: a `needs_review` that quotes the passage and says why, the search record kept."""
    extra = considered[0].passages if considered is not None else ()
    found = plausible(ctx, clause, extra)
    if found is None:
        return None
    p = ctx.passages.items[found.index]
    q = _quote_range(ctx, p.start, p.end, focus=(found.start, found.end))
    if q is None:
        return None
    label = ctx.section_label(p.start)
    where = f" ({label})" if label and not label.startswith("(") else (f" {label}" if label else "")
    claim = (
        f"{clause.title}: no clause of the kind was recognised, but the quoted passage{where} may be one — "
        f"{found.why}; the engine could not read it as the clause. Read it before concluding the clause is "
        "absent."
    )
    return _not_concluded(
        clause,
        base,
        searched,
        claim=claim,
        quote=q,
        reason="absence not concluded: a passage the search put nearest the clause has its core words",
        weak="the clause's patterns do not match the passage; only its core words do",
    )


def _incorporated(
    ctx: _Context, clause: CompiledClause, base: Mapping[str, Any], searched: SearchRecord
) -> ClauseOutcome | None:
    """Where the document gives the clause's topic to another agreement not in the file, the clause is
    incorporated by reference but not provided; where it gives that agreement its terms at large, the absence
    is not concluded: a `needs_review`. Each quotes the incorporating sentence."""
    inc = for_topic(ctx.text, clause.title, clause.headings)
    if (
        inc is not None
    ):  # the clause is there, in the other agreement: incorporated by reference, not provided
        return _given_to(ctx, clause, base, searched, inc)
    gen = general(ctx.text)
    inc = gen[0] if gen else None
    if inc is None:
        return None
    q = _quote_range(ctx, inc.start, inc.end, focus=(inc.start, inc.end))
    if q is None:
        return None
    claim = (
        f"{clause.title}: no clause of the kind is in this document, but it incorporates the {inc.name} "
        "(quoted), which is not in this file — the clause may be there. Read it before concluding the "
        "clause is absent."
    )
    return _not_concluded(
        clause,
        base,
        searched,
        claim=claim,
        quote=q,
        reason=f"{INCORPORATED_REASON} the {inc.name}, which is not in this file",
        weak=f"the {inc.name} is not in this file",
    )


def _given_to(
    ctx: _Context, clause: CompiledClause, base: Mapping[str, Any], searched: SearchRecord, inc: Incorporation
) -> ClauseOutcome | None:
    """The clause's terms given to another agreement not in the file (`inc`): incorporated by reference, not
    provided, quoting the incorporating words."""
    q = _quote_range(ctx, inc.start, inc.end, focus=(inc.start, inc.end))
    if q is None:
        return None
    return ClauseOutcome(
        outcome="referenced_not_provided",
        severity=_referenced_severity(clause),
        claim=f"{clause.title}: incorporated by reference but not provided — the quoted sentence gives "
        f"its terms to the {inc.name}, which is not in this file; read them there.",
        quotes=(q,),
        searched=searched,
        reason=f"the clause's terms are the {inc.name}'s, which is not in this file",
        **base,
    )


def _located_on_reference(
    ctx: _Context, clause: CompiledClause, region: _Region, base: Mapping[str, Any]
) -> ClauseOutcome | None:
    """Where the clause located is nothing but the words giving its topic to another agreement ("12.2
    (Force Majeure) … of the License Agreement shall be deemed to be incorporated herein"), the clause is
    that agreement's: incorporated by reference, not provided — nothing is read from the pointer. Only a
    list of sections incorporated is a pointer and nothing else ("may be terminated at any time by either
    Party in accordance with the termination provisions of …" says something of its own)."""
    inc = for_topic(ctx.text, clause.title, clause.headings)
    if inc is None or not inc.listed:
        return None
    items = ctx.passages.items
    hits = _passage_hits(ctx, clause.patterns)
    worded = [i for i in region.passages if i in hits and not items[i].heading] or [region.anchor]
    if not all(inc.start <= items[i].end and items[i].start < inc.end for i in worded):
        return None
    a = items[region.anchor]
    if not (a.start < inc.end and inc.start < a.end):
        return None
    return _given_to(ctx, clause, base, _search_record(ctx, clause, clause.title), inc)


def _not_concluded(
    clause: CompiledClause,
    base: Mapping[str, Any],
    searched: SearchRecord,
    *,
    claim: str,
    quote: QuoteRef,
    reason: str,
    weak: str,
) -> ClauseOutcome:
    """An absence the engine will not conclude: `needs_review` quoting what stood in the way, the search
    record kept and the weak link named."""
    return ClauseOutcome(
        outcome="needs_review",
        severity=_severity(clause.model.severity, "needs_review"),
        claim=claim,
        quotes=(quote,),
        searched=searched,
        reason=reason,
        weak=(weak,),
        **base,
    )
