"""Where a clause is: its heading, its patterns' passages, and the learned locator, fused."""

from __future__ import annotations

import re
from collections.abc import Callable

from playbooks.engine.about import _after_label, _of_a_definition, on_subject
from playbooks.engine.context import (
    _DEFINITION,
    _PARA_BREAK,
    _REGION_MAX,
    _Context,
    _excluded,
    _heading_only,
    _passage_hits,
    _Region,
    ruled_out_heading,
)
from playbooks.locator import Scan, category_of
from playbooks.locator.fusion import fuse
from playbooks.parties import read_parties
from playbooks.parties.holder import OWN_RIGHT_AHEAD
from playbooks.schema import CompiledClause


def _clause_span(ctx: _Context, offset: int) -> tuple[int, int] | None:
    """The clause around `offset`: the outermost section no longer than `_REGION_MAX` that contains it,
    and, for a numbered subsection with no parent ("11.1", "11.2" …), its run of siblings."""
    chain = [
        s
        for s in ctx.doc.sections_containing(offset, offset + 1)
        if s.kind != "definition" and s.end - s.start <= _REGION_MAX
    ]
    if not chain:
        return None
    sec = chain[0]
    start, end = sec.start, sec.end
    if "." in sec.label.strip(".") and len(chain) == 1:
        prefix = sec.label.strip(".").rsplit(".", 1)[0] + "."
        siblings = sorted(
            (s for s in ctx.doc.sections if s.level == sec.level and s.label.startswith(prefix)),
            key=lambda s: s.start,
        )
        k = next((j for j, s in enumerate(siblings) if s.start == sec.start), None)
        if k is not None:
            j = k
            while j > 0 and siblings[j - 1].end >= start - 2 and end - siblings[j - 1].start <= _REGION_MAX:
                j -= 1
                start = siblings[j].start
            j = k
            while (
                j + 1 < len(siblings)
                and siblings[j + 1].start <= end + 2
                and siblings[j + 1].end - start <= _REGION_MAX
            ):
                j += 1
                end = siblings[j].end
    return start, end


def _paragraph_span(ctx: _Context, i: int) -> tuple[int, int] | None:
    """The paragraph (between blank lines) around passage i, when it is short enough to be one clause."""
    p = ctx.passages.items[i]
    before = ctx.text.rfind("\n\n", 0, p.start)
    m = _PARA_BREAK.search(ctx.text, p.end)
    start = before + 2 if before != -1 else 0
    end = m.start() if m else len(ctx.text)
    if end - start > _REGION_MAX // 3:
        return None
    return start, end


def _locate(ctx: _Context, clause: CompiledClause) -> _Region | None:
    """The clause's region, anchored on a sentence about the rule (`playbooks.engine.about`): the rules'
    candidate and the locator's best passages, fused (`playbooks.locator.fusion`); how it was located is kept
    in `ctx.locations[clause.id]`, and a region set aside as another clause in `ctx.set_aside[clause.id]`."""
    region = _locate_fused(ctx, clause)
    if region is None:
        return None
    excluded = _excluded(ctx, clause)
    hits = _passage_hits(ctx, clause.patterns)

    def around(i: int, via: str) -> _Region:
        return region_around(ctx, i, via, excluded, lambda j: hits.get(j, 0) * 2)

    kept, why = on_subject(ctx, clause, region, _candidates(ctx, clause), around)
    if kept is None and region.via == "locator":
        # the locator's pick is another clause: the rules' own region, under the clause's heading, may stand
        # ("12. Liability Limitation. … shall not be liable …" where the locator preferred a termination
        # sentence that "incurs no liability")
        rules = _locate_by_rules(ctx, clause)
        if rules is not None and rules.via == "heading":
            kept = on_subject(ctx, clause, rules, (), around)[0]
    if kept is not None and kept.passages == region.passages:
        return kept
    category = category_of(clause)
    scan = ctx.scan() if category is not None else None
    if kept is None:
        assert why is not None
        ctx.set_aside[clause.id] = (region, why)
        if scan is not None and category is not None:
            ctx.locations[clause.id] = fuse(
                scan, category, None, None, switch=False, take=False, part=_part(clause)
            ).location
        return None
    if scan is not None and category is not None:
        a = ctx.passages.items[kept.anchor]
        ctx.locations[clause.id] = fuse(
            scan, category, (a.start, a.end), kept.via, switch=False, part=_part(clause)
        ).location
    return kept


def _candidates(ctx: _Context, clause: CompiledClause) -> list[tuple[int, str]]:
    """The clause's other candidate passages, best first: the locator's over its threshold, then the passages
    its patterns hit, most hits first."""
    out: list[tuple[int, str]] = []
    loc = ctx.locations.get(clause.id)
    scan = ctx.scan() if loc is not None and loc.category is not None else None
    if loc is not None and loc.category is not None and scan is not None:
        t = scan.locator.threshold(loc.category)
        out += [(ctx.passages.index_at(c.start), "locator") for c in loc.candidates if c.score >= t]
    hits = _passage_hits(ctx, clause.patterns)
    out += [(i, "pattern") for i in sorted(hits, key=lambda i: (-hits[i], i))]
    return out


def _locate_fused(ctx: _Context, clause: CompiledClause) -> _Region | None:
    region = _locate_by_rules(ctx, clause)
    category = category_of(clause)
    scan = ctx.scan() if category is not None and ctx.doc.text.strip() else None
    if scan is None or category is None:
        return region
    anchor = ctx.passages.items[region.anchor] if region else None
    rule_span = (anchor.start, anchor.end) if anchor else None
    d = fuse(scan, category, rule_span, region.via if region else None, part=_part(clause))
    ctx.locations[clause.id] = d.location
    if d.take is None:
        return region
    taken = _locator_region(ctx, clause, scan, category, d.take.start, d.take.end)
    if taken is None and region is not None:
        # no readable passage in the locator's pick: the rules' own region stands (the fusion never turns
        # a clause the rules located into an absence)
        ctx.locations[clause.id] = fuse(
            scan, category, rule_span, region.via, switch=False, part=_part(clause)
        ).location
        return region
    if taken is None:
        ctx.locations[clause.id] = fuse(
            scan, category, None, None, switch=False, take=False, part=_part(clause)
        ).location
    return taken


def _locator_region(
    ctx: _Context, clause: CompiledClause, scan: Scan, category: str, start: int, end: int
) -> _Region | None:
    """The region around the locator's passage `[start, end)`; its anchor is the passage in it the
    category's head rates highest (the quote the gate will verify)."""
    items = ctx.passages.items
    # what the rule excludes is not its clause, whoever found it ("no consent shall be required to assign … in
    # connection with a merger" is an assignment clause, however highly the locator rates it for change of
    # control)
    excluded = _excluded(ctx, clause)
    # the passages overlapping the unit: a unit cut from a long passage (`units.HARD`) holds no passage start
    first = ctx.passages.index_at(start)
    lo = first if items and items[first].start < end and items[first].end > start else first + 1
    over = list(range(lo, max(lo, ctx.passages.within(start, end).stop)))
    inside = [i for i in over if not items[i].heading] or over
    if not inside:
        return None
    col = scan.locator.column(category)
    scores = scan.locator.score([ctx.text[items[i].start : items[i].end] for i in inside])[:, col]
    i = inside[int(scores.argmax())]
    if i in excluded and not _worded_past_exclusion(ctx, clause, i, start, end):
        return None  # the words the locator read the clause from are words the rule rules out
    a, b = _span_of(ctx, i)
    idx = tuple(j for j in ctx.passages.within(a, b) if j == i or j not in excluded) or (i,)
    hits = _passage_hits(ctx, clause.patterns)
    worded = [j for j in idx if j in hits and j not in excluded and not items[j].heading and j not in inside]
    if i not in hits and worded:
        # the clause holds a sentence in the rule's own words that the head rates above the one it read in its
        # unit: that one is the clause quoted ("This Agreement will be effective when signed …" beside "This
        # Agreement shall terminate if …", for when the agreement ends)
        rated = scan.locator.score([ctx.text[items[j].start : items[j].end] for j in worded])[:, col]
        k = int(rated.argmax())
        if float(rated[k]) > float(scores.max()):
            i = worded[k]
    return _Region(a, b, idx, i, "locator", dict.fromkeys(idx, 0))


def _worded_past_exclusion(ctx: _Context, clause: CompiledClause, i: int, start: int, end: int) -> bool:
    """Whether passage `i`, which the rule's `exclude` hits, still carries the rule's own wording in the part
    the locator read (`[start, end)`) once the excluded words are set aside: an exclusion rules out its words,
    not the rest of the passage ("… carry and maintain … insurance on all its operations necessary to comply
    with insurance laws": "insurance laws" is excluded, "maintain … insurance" is the clause). A word broken
    at a line end ("non- exclusive") is read whole, as the exclusion means it."""
    p = ctx.passages.items[i]
    text = _LINE_BREAK_HYPHEN.sub("-", ctx.text[max(p.start, start) : min(p.end, end)])
    # each inline limb read on its own too: "(a) either party may terminate … at any time …, and (b) either
    # party may terminate … if the other party commits a material breach" — the second limb's words say
    # nothing of the first's
    for part in (text, *_INLINE_LIMB.split(text)):
        chars = list(part)
        for rx in clause.exclude:
            for m in rx.finditer(part):
                chars[m.start() : m.end()] = " " * (m.end() - m.start())
        rest = "".join(chars)
        if any(rx.search(rest) for rx in clause.patterns):
            return True
    return False


_LINE_BREAK_HYPHEN = re.compile(r"(?<=\w)-\s+(?=\w)")
#: where an inline limb that opens a right of its own begins inside a sentence: "…, and (b) either party may
#: …" — not a limb of one lead-in ("may assign without consent to (a) an affiliate or (b) a buyer"), which
#: the lead-in's exclusion covers
_INLINE_LIMB = re.compile(
    r"(?:[,;:]\s*(?:and|or)?\s*|\s)\(\s*(?:[a-h]|i{1,3}|iv|vi{0,3})\s*\)\s" + OWN_RIGHT_AHEAD, re.IGNORECASE
)


# a section number standing alone as a passage: "9." where a page's sections run on in one line
_BARE_NUMBER = re.compile(r"\s*(?:(?:section|article|clause)\s+)?\d{1,3}(?:\.\d{1,3})*\.?\s*", re.IGNORECASE)


#: the section number just before (or opening) a heading: "11. LIMITATIONS OF LIABILITY."
_LABEL_BEFORE = re.compile(r"(?:^|\s)(\d{1,3})\.\s*$")
_LABEL_OPENS = re.compile(r"\s*(\d{1,3})\.\s")


def _run_on_end(ctx: _Context, end: int, limit: int = 3000, *, start: int | None = None) -> int:
    """Where the text running on after `end` stops being one clause: at the next heading, the next passage
    that is only a heading or a section number, or `limit` characters on — but not at a heading of the
    section's own sub-section ("11. LIMITATIONS OF LIABILITY. 11.1 GENERAL. …" runs on over "11.2 CPDC
    MAXIMUM LIABILITY." and its cap), where the heading at `start` is numbered."""
    items = ctx.passages.items
    j = ctx.passages.index_at(end)
    while j < len(items) and items[j].start < end:
        j += 1
    label = None
    if start is not None:
        m = _LABEL_BEFORE.search(ctx.text, max(0, start - 8), start) or _LABEL_OPENS.match(ctx.text, start)
        label = m.group(1) if m else None
    out = end
    while j < len(items) and items[j].end - end <= limit:
        p = items[j]
        seg = ctx.text[p.start : p.end]
        # its own sub-section's heading, or a sentence in capitals under it, is no new clause
        own = label is not None and (re.match(rf"\s*{label}\.\d", seg) is not None or len(seg.split()) > 12)
        if p.heading or _BARE_NUMBER.fullmatch(seg) or (out > end and _heading_only(seg) and not own):
            break
        out = p.end
        j += 1
    return out


def _locate_by_rules(ctx: _Context, clause: CompiledClause) -> _Region | None:
    items = ctx.passages.items
    pattern_hits = _passage_hits(ctx, clause.patterns)
    bridge_hits = _passage_hits(ctx, clause.bridges) if clause.bridges else {}
    excluded = _excluded(ctx, clause)

    def weight(i: int) -> int:
        return pattern_hits.get(i, 0) * 2 + bridge_hits.get(i, 0)

    if clause.model.locate.preamble and (i := _preamble_passage(ctx)) is not None and i not in excluded:
        # the opening statement the parties are read from, not a later sentence "between" two of them
        return region_around(ctx, i, "pattern", excluded, weight)

    best: tuple[float, _Region] | None = None
    for start, end, head in ctx.heads:
        score = 0.0
        for phrase, rx, key in zip(clause.headings, clause.heading_res, clause.heading_keys, strict=True):
            if key not in head:
                continue
            m = rx.search(head)
            if m and m.start() < 40:
                score = max(score, 10 + len(phrase.split()) * 2 + (3 if m.start() < 12 else 0))
        if not score:
            continue
        if ruled_out_heading(clause, head):
            continue  # another clause's heading, though it names this one ("Non-solicitation of Clients")
        idx = tuple(i for i in ctx.passages.within(start, end) if i not in excluded)
        # a heading with no real text under it (a table-of-contents line) locates nothing
        body = [i for i in idx if not items[i].heading and items[i].end - items[i].start >= 20]
        if body and all(_heading_only(ctx.text[items[i].start : items[i].end]) for i in body):
            # a section that is only its heading ("24. Governing law", its sentences numbered 24.1, 24.2 as
            # sections of their own): the clause is the text that runs on under it
            end = _run_on_end(ctx, end, start=start)
            idx = tuple(i for i in ctx.passages.within(start, end) if i not in excluded)
            body = [i for i in idx if not items[i].heading and items[i].end - items[i].start >= 20]
        # a heading over nothing but headings and passages the rule excludes ("(e) Non-Compete. … does not
        # contain a covenant-non-compete") locates nothing: a heading alone is no clause
        if not body or all(_title_line(ctx.text[items[i].start : items[i].end]) for i in body):
            continue
        anchor = max(body, key=lambda i: (weight(i), -i))
        if weight(anchor) == 0:
            anchor = body[0]
        total = score + min(weight(anchor), 8)
        if best is None or total > best[0]:
            best = (total, _Region(start, end, idx, anchor, "heading", {j: weight(j) for j in idx}))

    # a heading line of the clause's own ("(e) Non-Compete.") that its patterns hit is the heading's to
    # locate, above: its words alone are no clause
    scored = [
        (n * 3 + bridge_hits.get(i, 0), -i)
        for i, n in pattern_hits.items()
        if i not in excluded and not _own_heading_line(ctx, clause, i)
    ]
    defining = [sc for sc in scored if _DEFINITION.match(ctx.text, items[-sc[1]].start)]
    operative = [sc for sc in scored if sc not in defining]
    # a definition never stands for the operative clause while one exists; a rule about a definition reads
    # the definition, not a sentence using its words
    scored = defining if defining and _of_a_definition(clause) else operative or scored
    if scored:
        score, neg = max(scored)
        i = -neg
        if best is None or score > best[0]:
            best = (float(score), region_around(ctx, i, "pattern", excluded, weight))
    return best[1] if best else None


def _preamble_passage(ctx: _Context) -> int | None:
    """The passage in which the parties reader reads the first of the contract's two or more named parties
    (`playbooks.parties.read_parties`), or None where it reads fewer."""
    parties = [p for p in read_parties(ctx.text) if not p.blank]
    if len(parties) < 2 or not ctx.passages.items:
        return None
    first = parties[0]
    # the passage the name is written in ("BETWEEN: AZUL LINHAS AÉREAS BRASILEIRAS S/A, a company … Hereafter
    # referred to as the "Company""), where it is written shortly before its defined term
    named = ctx.text.rfind(first.name, max(0, first.start - 1500), first.start) if first.name else -1
    return ctx.passages.index_at(named if named >= 0 else first.start)


def _title_line(seg: str) -> bool:
    """Whether a passage is a heading line and nothing else: short, no sentence, no value ("7.3
    Noncompetition.", not "The parties submit to the exclusive jurisdiction of the courts of the State of
    Texas." nor "Effective Date: March 1, 2019")."""
    return (
        len(seg.strip()) <= _TITLE_MAX
        and _heading_only(seg)
        and not any(c.isdigit() for c in _after_label(seg.strip()))
    )


_TITLE_MAX = 60


def _own_heading_line(ctx: _Context, clause: CompiledClause, i: int) -> bool:
    """Whether passage `i` is only a heading, and one naming the clause ("7.3 Noncompetition.")."""
    p = ctx.passages.items[i]
    seg = ctx.text[p.start : p.end]
    return _title_line(seg) and any(rx.search(seg) for rx in clause.heading_res)


def _span_of(ctx: _Context, i: int) -> tuple[int, int]:
    """The clause around passage i: its section or paragraph; where neither is known (sections running on
    in one line, "9. Counterparts; Third Party Beneficiaries. This Agreement may …"), a passage that is only
    a heading runs on to the next heading or section number, and any other is itself (with its list)."""
    span = _clause_span(ctx, ctx.passages.items[i].start) or _paragraph_span(ctx, i)
    if span:
        return span
    start, end = ctx.passages.with_list(i)
    if _heading_only(ctx.text[start:end]):
        end = _run_on_end(ctx, end)
    return start, end


def region_around(
    ctx: _Context, i: int, via: str, excluded: set[int], weight: Callable[[int], int]
) -> _Region:
    """The clause region around passage `i`: its clause or paragraph (a ':' passage carries its list),
    without the excluded passages, each passage weighted by how much of the clause's language it carries."""
    start, end = _span_of(ctx, i)
    idx = tuple(j for j in ctx.passages.within(start, end) if j not in excluded) or (i,)
    return _Region(start, end, idx, i, via, {j: weight(j) for j in idx})


# ---------------------------------------------------------------------------------------------- extract


def _part(clause: CompiledClause) -> bool:
    """Whether the clause's locator category is only a part of it (`locate.category_is_part`)."""
    return clause.model.locate.category_is_part
