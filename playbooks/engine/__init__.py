"""Document + playbook → one `ClauseOutcome` per clause type, cross-clause check and drafting problem.

For each clause: **locate** (a section whose heading matches, or the passages where the clause's patterns
occur; the whole text is searched — body, tables, schedules, footnotes), **extract** typed values from the
located passages only, each with its span, then **decide** in a fixed order: not applicable → missing (or
referenced but not provided) → unparseable (`needs_review`) → unacceptable → standard → fallbacks by rank →
otherwise. An unacceptable position that cannot be checked because a value is missing blocks standard: the
outcome is `needs_review`, never a silent pass. Quotes are the passages (one to a few sentences) that
carry the decisive language and every value the claim states.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

from ingest.document import Document
from playbooks.drafting import drafting_outcomes
from playbooks.engine.about import off_subject
from playbooks.engine.blanks import blank_values, blank_weak_link
from playbooks.engine.confirm import _relocate, _unconfirmed
from playbooks.engine.context import DEFAULT_SEVERITY, _Context, _Region, _Value, coverage_of
from playbooks.engine.decide import (
    _describe_values,
    _fields_of,
    _fill,
    _judge,
    _own_seat,
    _position_fields,
    _reads,
    _rests_on_defaults,
    _severity,
    _unread,
    _weak_links,
)
from playbooks.engine.evidence import (
    _absent,
    _headed_but_not_taken,
    _hinted,
    _located_on_reference,
    _only_points,
    _referenced,
    _referenced_severity,
    _search_record,
)
from playbooks.engine.locate import _locate
from playbooks.engine.quotes import _inside, _past_heading, _quote, _quote_range, _quotes
from playbooks.engine.reading import _extract_field
from playbooks.engine.seat import our_seat, seat_of_both
from playbooks.engine.unread import Candidate, candidates, say_unknown, say_unstated, where_of
from playbooks.locator import Locator, Scan
from playbooks.locator.fusion import Location, best_passage, doubt, far_below, unseen
from playbooks.outcome import ClauseOutcome, ExtractedValue, QuoteRef
from playbooks.predicates import evaluate
from playbooks.regex_safety import regex_budget
from playbooks.schema import CompiledCheck, CompiledClause, Playbook

__all__ = ["DEFAULT_SEVERITY", "coverage_of", "run_playbook"]


def _with_holder(
    ctx: _Context, clause: CompiledClause, region: _Region, values: dict[str, _Value]
) -> tuple[_Region, dict[str, _Value]]:
    """The region with the passage that grants the right, when the holder was read outside it (a heading
    located the clause, its limbs sit in a passage of their own); the other values are read there too."""
    items = ctx.passages.items
    for f in clause.fields:
        v = values.get(f.name)
        if f.spec.type != "holder" or v is None:
            continue
        i = ctx.passages.index_at(v.ev.start)
        if i in region.passages:
            continue
        weak_anchor = items[region.anchor].heading or not region.weights.get(region.anchor, 0)
        region = replace(
            region,
            start=min(region.start, items[i].start),
            end=max(region.end, items[i].end),
            passages=tuple(sorted({*region.passages, i})),
            anchor=i if weak_anchor else region.anchor,
        )
        for g in clause.fields:
            if g.spec.type != "holder" and (w := _extract_field(ctx, region, g, clause)) is not None:
                values[g.name] = w
    return region, values


#: the outcomes that find against the contract
_ADVERSE = frozenset({"unacceptable", "fallback"})


def _run_clause(
    ctx: _Context, clause: CompiledClause
) -> tuple[ClauseOutcome, dict[str, _Value], _Region | None]:
    m = clause.model
    sev = m.severity
    base: dict[str, Any] = {
        "rule": clause.id,
        "title": clause.title,
        "guidance": m.guidance,
        "model_language": m.model_language,
    }
    if clause.applies_to and ctx.contract_type and ctx.contract_type not in clause.applies_to:
        kinds = ", ".join(t.replace("_", " ") for t in clause.applies_to)
        out = ClauseOutcome(
            outcome="not_applicable",
            severity="info",
            claim=f"{clause.title}: not applicable to a {ctx.contract_type.replace('_', ' ')} contract.",
            reason=f"the rule applies to {kinds} contracts",
            **base,
        )
        return out, {}, None
    ref = _referenced(ctx, clause)
    region = _locate(ctx, clause)
    base["location"] = ctx.locations.get(clause.id)
    pointer_only = clause.model.referenced is not None and clause.model.referenced.pointer_only
    if ref is not None and pointer_only and not _only_points(ctx, clause, region):
        ref = None  # the contract has the clause's own words beside the pointer: they are judged
    if ref is not None:
        q = _quote(ctx, ref)
        reason = "the clause points to a document that is not part of this text"
        out = ClauseOutcome(
            outcome="referenced_not_provided",
            severity=_referenced_severity(clause),
            claim=f"{clause.title}: incorporated by reference but not provided — "
            "the referenced terms are not in this document.",
            quotes=(q,) if q else (),
            searched=_search_record(
                ctx, clause, f"{clause.title}: the referenced document, attached or set out in full"
            ),
            reason=reason,
            **base,
        )
        return out, {}, region
    if region is not None and (given := _located_on_reference(ctx, clause, region, base)) is not None:
        return given, {}, region
    if region is None and clause.hints:
        aside = ctx.set_aside.get(clause.id)
        # the weaker language of the clause, where it is not a definition, another clause's, or the passage
        # set aside as another clause
        hinted = [
            i
            for i in _hinted(ctx, clause)
            if (aside is None or i not in aside[0].passages)
            and off_subject(ctx, clause, i, strict=False) is None
        ]
        if hinted:
            items = ctx.passages.items  # a hint that is a heading is quoted with the sentence under it
            quotes = tuple(
                q
                for i in hinted
                if (q := _quote_range(ctx, *_past_heading(ctx, items[i].start, items[i].end))) is not None
            )
            if quotes and (gone := _read_nowhere(ctx, clause, base)) is not None:
                # the weaker language is all there is, and the locator reads the clause nowhere: absent,
                # the passage recorded as considered and not taken
                p = items[hinted[0]]
                at = _Region(p.start, p.end, (hinted[0],), hinted[0], "pattern", {})
                return _absent(ctx, clause, base, considered=(at, gone)), {}, None
            if quotes:
                unconfirmed = _unseen(ctx, clause, base)
                out = ClauseOutcome(
                    outcome="needs_review",
                    severity=_severity(sev, "needs_review"),
                    claim=f"{clause.title}: no clear clause found, but the quoted language may be one — "
                    "read it before concluding the clause is absent.",
                    quotes=quotes,
                    searched=_search_record(ctx, clause, clause.title),
                    reason="uncertain search: only weaker language of the clause occurs" + unconfirmed,
                    **base,
                )
                return out, {}, None
    if region is None:
        seen = _headed_but_not_taken(ctx, clause)
        aside = ctx.set_aside.get(clause.id)
        if seen is not None and aside is not None and aside[0].start <= seen.start < aside[0].end:
            seen = None  # the passage under the heading was read and set aside, with why (the other side's)
        if seen is not None:
            q = _quote_range(ctx, *_past_heading(ctx, seen.start, seen.end))
            if q is not None:
                unconfirmed = _unseen(ctx, clause, base)
                out = ClauseOutcome(
                    outcome="needs_review",
                    severity=_severity(sev, "needs_review"),
                    claim=f"{clause.title}: a passage headed as this clause exists, but its operative words "
                    "were not recognised — read it before concluding the clause is absent.",
                    quotes=(q,),
                    searched=_search_record(ctx, clause, clause.title),
                    reason="absence contradicted by the search's own record: a passage under a matching "
                    "heading was considered and not taken" + unconfirmed,
                    weak=("the clause was found by its heading only",),
                    **base,
                )
                return out, {}, None
    if region is None:
        # a region located and set aside as another clause is named in the absence evidence, with why
        return _absent(ctx, clause, base, considered=ctx.set_aside.get(clause.id)), {}, None
    values: dict[str, _Value] = {}
    for f in clause.fields:
        v = _extract_field(ctx, region, f, clause)
        if v is not None:
            values[f.name] = v
    region, values = _with_holder(ctx, clause, region, values)
    other = ctx.other_rights.get(clause.id)
    if other is not None:
        # every right of this kind the clause's passages grant is of another kind (to terminate for
        # breach, not for convenience): the contract does not grant this one
        i = ctx.passages.index_at(other.start)
        p = ctx.passages.items[i]
        other_at = _Region(p.start, p.end, (i,), i, "pattern", {})
        why = f"the rights it grants are of another kind (“{other.other}”), not {clause.title.lower()}"
        return _absent(ctx, clause, base, considered=(other_at, why)), {}, None
    # what the clause holds of a value the engine did not read, each said truthfully (`unread`)
    held: dict[str, Candidate] = {}
    outcome, pos, reason, used = _judge(clause, values, _sayer(ctx, clause, region, held))
    judged_by = _position_fields(clause)
    # a value read elsewhere in the contract (a field read `anywhere`) says nothing of the located passage
    local = {k: v for k, v in values.items() if region.start <= v.scope[0] < region.end}
    if outcome == "needs_review" and judged_by and not _reads(local, list(local)):
        # the passage located states none of the values the clause is judged by: is it the clause at all?
        moved = _relocate(ctx, clause, region, judged_by)
        if moved is not None:
            region, values = moved
            held.clear()
            outcome, pos, reason, used = _judge(clause, values, _sayer(ctx, clause, region, held))
        elif (
            not _yes_elsewhere(values, judged_by)
            and (why_not := _unconfirmed(ctx, clause, region)) is not None
        ):
            return _absent(ctx, clause, base, considered=(region, why_not)), {}, None
    own_seat = _own_seat(ctx, clause, values, pos) if outcome == "unacceptable" else None
    if own_seat is not None:
        # the law (or forum) outside the allow-list is our own seat's: foreign to the playbook, not to us
        values["our_seat"] = own_seat
        law = next(n for n in used if n in values and values[n].ev.value == own_seat.ev.value)
        outcome, pos = "standard", None
        seat = own_seat.ev.value
        whose = "both parties' own seat, so ours whichever is us" if ctx.seat_of_both else "our own seat"
        reason = f"the {law.replace('_', ' ')} is that of {whose} ({seat}): not a red line against us"
        used = [*used, "our_seat"]
    extracted = {k: v.ev for k, v in values.items()}
    if outcome == "needs_review" or outcome in _ADVERSE:
        # yes/no values defaulted from the clause's silence, and those a finding that decides nothing shows
        silent = [n for n in used if (v := values.get(n)) is not None and v.inferred and n not in held]
        held.update(candidates(ctx, clause, region, silent))

    def unstated_said(names: Sequence[str]) -> str:
        return say_unstated(names, held)

    links = _weak_links(ctx, clause, region, values, used, unstated_said)
    weak = links.weak
    # a value the position needs, left blank in this copy ("within ____ days"): not stated, and said so
    blanks = blank_values(ctx, clause, region, values, used) if outcome == "needs_review" else {}
    if (blank := blank_weak_link(blanks)) is not None:
        weak = (*weak, blank)
        reason = f"{reason}; {blank}"
    unread = _unread(ctx, clause, region, values, pos, links.unstated) if outcome in _ADVERSE else []
    if unread:
        # a verdict against the contract is not drawn from a "no" its patterns defaulted to where the clause
        # itself uses the words of the field: what it says there was not read
        said = ", ".join(n.replace("_", " ") for n in unread)
        weak = (
            *weak,
            f"{said} not read: the clause uses words of the kind the playbook looks for, none matched",
        )
    red = _fields_of(pos.when) if outcome == "unacceptable" and pos is not None else []
    yes_no = {f.name for f in clause.fields if f.spec.type == "bool"}
    if red and all(f in yes_no for f in red) and not _reads(values, red):
        # a red line made of yes/no readings is earned by words read with their quote, never by defaults alone
        weak = (*weak, "the red line rests only on what the clause does not say: none of its values was read")
    if ctx.misfit and outcome == "unacceptable":
        weak = (*weak, ctx.misfit)
    red_line = pos.reason if pos is not None and outcome == "unacceptable" else None
    if weak and outcome == "unacceptable":
        # a red line is earned only when every link holds: otherwise the reader is told what to check
        outcome, reason = "needs_review", f"{reason}; not concluded because {'; '.join(weak)}"
        pos = None
    elif unread and outcome == "fallback":
        outcome, reason = "needs_review", f"{reason}; not concluded because {weak[-1]}"
        pos = None
    elif outcome in ("standard", "fallback") and _rests_on_defaults(clause, pos, values, links.unstated):
        # a position is earned by what the clause says: here it holds only by yes/no values defaulted from its
        # silence, which the reader is told to check ("binds customer: not stated" is no reading)
        outcome, reason = (
            "needs_review",
            f"{reason}; not concluded because {say_unstated(links.unstated, held)}",
        )
        pos = None
    elif links.roles_matter and outcome in ("standard", "fallback"):
        outcome, reason = "needs_review", f"{reason}; not concluded because {weak[0]}"
        pos = None
    elif outcome in ("standard", "fallback") and links.redacted is not None:
        # a position is no firmer than the words it rests on: here some of them were removed from the copy
        outcome, reason = "needs_review", f"{reason}; not concluded because {links.redacted}"
        pos = None
    if (doubted := _doubted(ctx, clause, region)) is not None:
        # present, unconfirmed: the patterns' words matched and the locator reads no such clause anywhere
        if outcome in ("standard", "fallback"):
            why = "the clause was found by its patterns only and the learned locator reads no such clause"
            outcome, reason, pos = "needs_review", f"{reason}; not concluded because {why}", None
        reason = f"{reason}; unconfirmed: {doubted}"
    quotes = _quotes(ctx, region.anchor, {**values, **blanks}, used, clause.patterns)
    if outcome == "needs_review":
        # a candidate the finding names is quoted, so the reader (and the ledger) sees the words it names
        quotes = _with_candidates(quotes, held.values())
    # a default stands on the passage it was read from: where that passage is quoted without its clause number
    # (or in a window), the value stands on the part quoted, not dropped from the finding
    extracted = {
        k: _on_quote(ctx, ev, quotes) if values[k].inferred and not _inside(ev, quotes) else ev
        for k, ev in extracted.items()
    }
    extracted = {k: ev for k, ev in extracted.items() if _inside(ev, quotes)}
    caveats = {f.name for f in clause.fields if f.spec.caveat}
    shown = _describe_values(
        [n for n in used if not (n in caveats and n in values and values[n].inferred)],
        values,
        unstated=links.unstated,
        unread=unread,
        our_role=ctx.our_role,
        undecided=outcome == "needs_review",
        not_read={n: c.text for n, c in held.items() if not c.value} if outcome == "needs_review" else None,
    )
    if pos is not None and pos.claim and pos.outcome == outcome:
        claim = _fill(pos.claim, values)
    else:
        head = {
            "standard": "meets the standard position",
            "fallback": f"is an acceptable fallback{f' (rank {pos.rank})' if pos else ''}",
            "unacceptable": "is unacceptable",
            "needs_review": "needs review",
            "not_applicable": "is not applicable",
        }[outcome]
        why = (pos.reason if pos and pos.reason else "") if outcome != "needs_review" else reason
        if own_seat is not None and outcome == "standard":
            why = reason
        if outcome == "needs_review" and weak:
            # say what could not be read, not the red line as if it held
            what = (
                f"whether {red_line} could not be confirmed"
                if red_line
                else "the position could not be checked"
            )
            why = f"{what}: {'; '.join(weak)}"
        claim = (
            f"{clause.title} {head}" + (f": {why}" if why else "") + (f" — {shown}" if shown else "") + "."
        )
    out = ClauseOutcome(
        outcome=outcome,
        severity=_severity(sev, outcome),
        claim=claim,
        quotes=quotes,
        extracted=extracted,
        reason=reason + (f"; values: {shown}" if used else ""),
        approval=pos.approval if (pos is not None and outcome == "fallback") else None,
        weak=weak,
        **base,
    )
    return out, values, region


def _sayer(
    ctx: _Context, clause: CompiledClause, region: _Region, held: dict[str, Candidate]
) -> Callable[[Sequence[str]], str]:
    """How a judgement words the values it has no reading of: with what the clause holds of each (recorded
    in `held`, to be quoted), never a bare "not found" beside a clause that may state it."""

    def say(unknown: Sequence[str]) -> str:
        found = candidates(ctx, clause, region, unknown)
        held.update(found)
        return say_unknown(clause, unknown, found, where=where_of(ctx, region))

    return say


def _with_candidates(quotes: Sequence[QuoteRef], held: Iterable[Candidate]) -> tuple[QuoteRef, ...]:
    """The quotes with each candidate's passage added where no quote shows the candidate's words yet."""
    out = list(quotes)
    for c in held:
        if not any(q.start <= c.start and c.end <= q.end for q in out):
            out.append(c.quote)
    return tuple(out)


def _unseen(ctx: _Context, clause: CompiledClause, base: dict[str, Any]) -> str:
    """For a finding the engine itself calls uncertain: where the locator, over a whole contract, reads no
    clause of the rule's category anywhere, its location is doubted (present: unconfirmed, `base` updated)
    and the reason names the locator's best passage; otherwise nothing is added."""
    read = _whole_category(ctx, clause, base)
    if read is None or not unseen(read[0], read[2]):
        return ""
    scan, loc, _ = read
    base["location"] = doubt(loc)
    return f"; unconfirmed: {best_passage(scan, loc)}"


def _whole_category(
    ctx: _Context, clause: CompiledClause, base: Mapping[str, Any]
) -> tuple[Scan, Location, str] | None:
    """The locator's scan, the clause's location and its category, where a locator ran for a category that is
    the whole clause; None where none ran or the category is only a part of it (`locate.category_is_part`:
    the locator's silence then says nothing of the rest)."""
    loc = base.get("location")
    if clause.model.locate.category_is_part or loc is None or loc.category is None:
        return None
    scan = ctx.scan()
    return None if scan is None else (scan, loc, loc.category)


def _yes_elsewhere(values: Mapping[str, _Value], fields: Sequence[str]) -> bool:
    """Whether a yes/no the clause is judged by reads "yes" in so many words elsewhere in the contract (a
    field read `anywhere`: "Programmer is specifically authorized to use such call letters"): the clause is
    there, whatever the passage located says."""
    return any((v := values.get(n)) is not None and not v.inferred and v.ev.value is True for n in fields)


def _read_nowhere(ctx: _Context, clause: CompiledClause, base: dict[str, Any]) -> str | None:
    """Why a passage of weaker language is not the clause, where the locator reads the rule's category far
    below its threshold everywhere in the contract (`far_below`) and the category is the whole clause, not
    a part of it; None otherwise."""
    read = _whole_category(ctx, clause, base)
    if read is None or not far_below(read[0], read[2]):
        return None
    return f"only weaker language of the clause, and {best_passage(read[0], read[1])}"


def _doubted(ctx: _Context, clause: CompiledClause, region: _Region) -> str | None:
    """For a located clause that is present but unconfirmed (its region found by patterns alone, which the
    fusion doubted): the locator's best passage, named; None when the location is not doubted."""
    loc = ctx.locations.get(clause.id)
    scan = ctx.scan()
    if loc is None or not loc.doubted or region.via != "pattern" or scan is None:
        return None
    return best_passage(scan, loc)


def _on_quote(ctx: _Context, ev: ExtractedValue, quotes: Sequence[QuoteRef]) -> ExtractedValue:
    """A defaulted value re-anchored on the quoted part of the passage it was read from (unchanged if no
    quote overlaps that passage)."""
    for q in quotes:
        a, b = max(ev.start, q.start), min(ev.end, q.end)
        if a < b:
            return ExtractedValue(value=ev.value, text=ctx.text[a:b], start=a, end=b)
    return ev


def _run_check(
    ctx: _Context,
    check: CompiledCheck,
    results: Mapping[str, tuple[ClauseOutcome, dict[str, _Value], _Region | None]],
) -> ClauseOutcome | None:
    m = check.model
    if any(results[c][2] is None for c in m.requires):
        return None  # a clause it needs is absent: that absence is already reported
    if any(results[c][0].weak or results[c][0].outcome == "not_applicable" for c in m.requires):
        return None  # a clause it needs was not read firmly: that clause's own finding says what to check
    values = {f"{cid}.{k}": v for cid in m.requires for k, v in results[cid][1].items()}
    raw = {k: v.ev.value for k, v in values.items()}
    if check.applies_when is not None and evaluate(check.applies_when, raw).result is not True:
        return None  # the situation the check is about does not arise (or was not read) in this contract
    verdict = evaluate(check.when, raw)
    used = _fields_of(check.when)
    if verdict.result is True:
        outcome, reason = "standard", f"holds [{verdict.decided_by}]"
    elif verdict.result is False:
        outcome, reason = m.fail_outcome, f"{m.reason} [{verdict.decided_by}]"
    else:
        outcome, reason = (
            "needs_review",
            f"{', '.join(verdict.unknown)} not found, so the check cannot be made",
        )
    quotes: list[QuoteRef] = []
    for cid in m.requires:
        _, vals, region = results[cid]
        assert region is not None
        local = {k.split(".", 1)[1]: v for k, v in values.items() if k.startswith(cid + ".") and k in used}
        for q in _quotes(ctx, region.anchor, vals, list(local)):
            if all(q.start != o.start for o in quotes):
                quotes.append(q)
    extracted = {k: v.ev for k, v in values.items() if k in used and _inside(v.ev, quotes)}
    shown = _describe_values(used, values)
    if m.claim and outcome != "standard":
        claim = _fill(m.claim, values)
    elif outcome == "standard":
        claim = f"{check.title}: holds" + (f" — {shown}" if shown else "") + "."
    else:
        claim = (
            f"{check.title}: {m.reason if outcome == m.fail_outcome else reason}"
            + (f" — {shown}" if shown else "")
            + "."
        )
    return ClauseOutcome(
        rule=check.id,
        title=check.title,
        outcome=outcome,
        severity=_severity(m.severity, outcome),
        claim=claim,
        quotes=tuple(quotes),
        extracted=extracted,
        guidance=m.guidance,
        model_language=m.model_language,
        reason=reason,
    )


def run_playbook(
    document: Document,
    playbook: Playbook,
    *,
    contract_type: str | None = None,
    roles_unresolved: str | None = None,
    locator: Locator | Literal[False] | None = None,
) -> list[ClauseOutcome]:
    """Judge `document` against every clause, check and drafting rule of `playbook`.

    `contract_type` makes the clauses whose `applies_to` excludes it `not_applicable`; `roles_unresolved`
    (why us/them could not be bound) keeps every role-dependent clause from a verdict. Clauses that name a
    locator category are located by their rules and the learned locator together (`locator`: None for the
    one shipped in the package, False for the rules alone). Returns clause outcomes in playbook order, then
    cross-clause checks, then drafting problems found. Every quote and extracted value slices back:
    `document.text[q.start:q.end] == q.text`.
    """
    with regex_budget(len(document.text)):  # a custom playbook's patterns: one time budget per contract
        return _run_playbook(
            document,
            playbook,
            contract_type=contract_type,
            roles_unresolved=roles_unresolved,
            locator=locator,
        )


def _run_playbook(
    document: Document,
    playbook: Playbook,
    *,
    contract_type: str | None,
    roles_unresolved: str | None,
    locator: Locator | Literal[False] | None,
) -> list[ClauseOutcome]:
    ctx = _Context(document, contract_type=contract_type, roles=roles_unresolved, locator=locator)
    ctx.our_role = playbook.our_role
    if roles_unresolved is None:
        ctx.seat = our_seat(document.text, playbook.roles)
    else:
        ctx.seat = seat_of_both(document.text)  # both parties' seat is ours, whichever is us
        ctx.seat_of_both = bool(ctx.seat)
    if contract_type and playbook.fits and contract_type not in playbook.fits:
        # a red line drawn for one kind of contract is not earned on another: the reader is told to judge it
        kinds = ", ".join(t.replace("_", " ") for t in playbook.fits)
        ctx.misfit = (
            f"the playbook's red lines are written for {kinds} contracts, "
            f"and this is a {contract_type.replace('_', ' ')} contract"
        )
    results = {c.id: _run_clause(ctx, c) for c in playbook.clauses}
    out = [r[0] for r in results.values()]
    for check in playbook.checks:
        o = _run_check(ctx, check, results)
        if o is not None:
            out.append(o)
    out.extend(drafting_outcomes(document, ctx.passages, playbook.model.document_checks))
    return out
