"""Typed values read from the located passages only, each with its span."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from playbooks.engine.about import _other_sides
from playbooks.engine.bound import bound_reading
from playbooks.engine.context import _Context, _heading_only, _hits, _passage_hits, _Region, _Value
from playbooks.engine.lead_in import _as_lead_ins_sentence, _lead_in, _lead_in_bool
from playbooks.engine.refs import bare_label, referenced_values
from playbooks.extract import (
    Hit,
    find_bool,
    find_dates,
    find_durations,
    find_enum,
    find_jurisdictions,
    find_money,
    find_percents,
    find_set,
)
from playbooks.kinds import dates_of_kind, durations_of_kind
from playbooks.outcome import ExtractedValue
from playbooks.parties.holder import BOTH, HolderHit, find_holders, merge_holders
from playbooks.passages import _LIST_ITEM
from playbooks.schema import CompiledClause, CompiledField


def _extract_field(
    ctx: _Context, region: _Region, f: CompiledField, clause: CompiledClause | None = None
) -> _Value | None:
    if f.spec.type == "holder":
        return _read_holder(ctx, region, f, clause)
    # headings carry no values — except a heading-like line the clause's own patterns matched ("DATED 26
    # September 2019"): the anchor is read
    items = ctx.passages.items
    v = _extract_in(
        ctx,
        region,
        f,
        [i for i in region.passages if not items[i].heading or i == region.anchor] + _under(ctx, region),
    )
    nxt = _continuation(ctx, region) if f.spec.type == "bool" and (v is None or v.inferred) else None
    if nxt is not None:
        # the clause's next sentence completes it ("CRO may not subcontract … without the prior written
        # approval of Client. CRO will remain fully liable for the acts and omissions of its subcontractors")
        w = _extract_in(ctx, region, f, [nxt], default=False)
        if w is not None:
            return w
    if f.spec.binds is not None and clause is not None and (v is None or v.inferred):
        if f.spec.anywhere and f.spec.type == "bool":
            # a "yes" the contract states elsewhere in so many words ("The Customer and the Supplier may use
            # the marks of the other") outweighs the grammar of the sentence located
            w = _read_anywhere(ctx, region, f, clause)
            if w is not None and w.ev.value is True:
                return w
        # no cue decided it: whose promise the clause's own sentence is says whom it binds
        w = bound_reading(ctx, region, f, clause)
        if w is not None:
            return w
    if f.spec.type == "bool" and clause is not None and (v is None or v.inferred):
        # a yes/no the clause leaves to the sections its own sentence names ("… following the receipt of the
        # reports detailed in Sections 3.06 and 4.02"): read there, never for a "no"
        w = _in_named_sections(ctx, region, f)
        if w is not None:
            return w
    if f.spec.anywhere and (v is None or v.inferred):
        w = _read_anywhere(ctx, region, f, clause)
        if w is not None:
            return w
    return v


def _read_anywhere(
    ctx: _Context, region: _Region, f: CompiledField, clause: CompiledClause | None
) -> _Value | None:
    """A field read outside the located clause, wherever its `near` words occur (`anywhere`); None when no
    cue reads it there."""
    near = sorted(set(_passage_hits(ctx, f.near)) - set(region.passages))
    items = ctx.passages.items
    # a heading is never the clause: "[No Modification Except in Writing]." states no term of its own
    near = [
        i for i in near if not items[i].heading and not _heading_only(ctx.text[items[i].start : items[i].end])
    ]
    if clause is not None and clause.duty is not None:
        # a clause of one side's promise reads elsewhere only that side's: our own duty to supply content
        # "in accordance with the specifications" is no warranty of the supplier's
        near = [i for i in near if _other_sides(ctx, clause, i) is None]
    return _extract_in(ctx, region, f, near, default=False)


def _under(ctx: _Context, region: _Region) -> list[int]:
    """Where the region is nothing but a run-in heading split off as a sentence of its own ("10.2 Right to
    inspect and request information."), the passages under it up to the next such heading: what the heading
    heads. Otherwise nothing."""
    items = ctx.passages.items
    if not region.passages or not all(
        items[i].heading or _heading_only(ctx.text[items[i].start : items[i].end]) for i in region.passages
    ):
        return []
    out: list[int] = []
    for i in region.passages:
        p = items[i]
        end = next((e for s, e, _ in ctx.heads if s == p.start and e > p.end), None)
        if end is not None:
            out.extend(
                j
                for j in ctx.passages.within(p.end, end)
                if j not in region.passages and not items[j].heading
            )
    return out


def _extract_in(
    ctx: _Context, region: _Region, f: CompiledField, idx: list[int], *, default: bool = True
) -> _Value | None:
    text = ctx.text
    items = ctx.passages.items
    if f.near:
        idx = [i for i in idx if _hits(f.near, text[items[i].start : items[i].end])]
    # the clause's own sentences first: the anchor, then by how much clause language they carry
    idx.sort(key=lambda i: (i != region.anchor, -region.weights.get(i, 0), i))
    spec = f.spec
    hit: Hit | None = None
    at = -1
    scope: tuple[int, int] | None = None  # where a value given by a defined term was read: its definition
    if spec.type == "set":
        found: dict[str, Hit] = {}
        scope_start, scope_end = -1, -1
        for i in idx:
            a, b = ctx.passages.with_list(i) if f.after else (items[i].start, items[i].end)
            if a < scope_end:
                continue  # already read as part of the list before it
            for h in find_set(text[a:b], a, cues=f.cues, after=f.after):
                if h.value not in found:
                    found[h.value] = h
                    scope_start = a if scope_start == -1 else scope_start
                    scope_end = b
        for h in list(found.values()) if f.after else ():
            # "EXCEPT FOR DAMAGES ARISING UNDER SECTIONS 14.A AND 16.A": what those sections are
            for r in referenced_values(ctx.doc, h, f.cues, (scope_start, scope_end)):
                found.setdefault(r.value, r)
        if found:
            ordered = sorted(found.values(), key=lambda h: h.start)
            start, end = ordered[0].start, ordered[-1].end
            values = [v for v in spec.values if v in found]
            ev = ExtractedValue(value=values, text=text[start:end], start=start, end=end)
            return _Value(ev, (scope_start, scope_end), None, False)
        if not default:
            return None
        base = idx[0] if idx else region.anchor
        return _default(ctx, base, spec.default if spec.default is not None else [])
    for i in idx:
        p = items[i]
        seg = text[p.start : p.end]
        hs: list[Hit] = []
        if spec.type == "money":
            hs = find_money(seg, p.start)
        elif spec.type == "duration":
            hs = _durations(seg, p.start, spec.kind, spec.unit or "days")
            lead = _lead_in(ctx, i) if not hs else None
            if not hs and lead is not None:  # "You shall not, for one year after termination: … (d) solicit"
                q = items[lead]
                hs = _durations(text[q.start : q.end], q.start, spec.kind, spec.unit or "days")
                scope = (q.start, q.end) if hs else None
            if not hs:  # "during the Restricted Period": the period its definition states
                lead_text = text[items[lead].start : items[lead].end] if lead is not None else ""
                hs, scope = _defined_durations(ctx, seg + " " + lead_text, spec.kind, spec.unit or "days")
        elif spec.type == "percent":
            hs = find_percents(seg, p.start)
        elif spec.type == "jurisdiction":
            hs = find_jurisdictions(seg, p.start)
        elif spec.type == "date":
            hs = find_dates(seg, p.start)
            if spec.kind:
                hs = dates_of_kind(hs, seg, p.start, spec.kind)
        elif spec.type == "bool":
            a, b = _with_run_on(ctx, i)
            bh = find_bool(text[a:b], a, true_if=f.true_if, false_if=f.false_if)
            bh = bh or _limb_bool(text, a, b, f) or _lead_in_bool(ctx, i, f)
            hs = [bh] if bh else []
            scope = (a, b) if bh and b > p.end else None
        elif spec.type == "enum":
            e = find_enum(seg, p.start, cues=f.cues)
            hs = [e] if e else []
        elif spec.type == "text" and f.pattern is not None:
            m = f.pattern.search(seg)
            if m:
                g = 1 if m.groups() and m.group(1) else 0
                hs = [Hit(value=m.group(g), start=p.start + m.start(g), end=p.start + m.end(g))]
        if hs:
            hit = _closest(hs, f.closest_to, seg, p.start) if len(hs) > 1 and f.closest_to else hs[0]
            at = i
            break
    if hit is None and spec.type == "bool" and ctx.roles_unresolved and _names_sides(f):
        named = _named_reading(ctx, f, idx)
        if named is not None:
            return named
    if hit is None:
        if default and spec.default is not None and (idx or region.anchor >= 0):
            return _default(ctx, idx[0] if idx else region.anchor, spec.default)
        return None
    ev = ExtractedValue(value=hit.value, text=text[hit.start : hit.end], start=hit.start, end=hit.end)
    return _Value(ev, scope or (items[at].start, items[at].end), hit.conflict, False)


#: sections a sentence names: "Sections 3.06 [Reporting] and 4.02 [Reporting]", "Section 5.2", "clause 7(b)"
_NAMED_SECTIONS = re.compile(
    r"\b(?:Sections?|Clauses?|Paragraphs?)\s+(\d{1,3}(?:\.\d{1,3}){0,3})"
    r"((?:\s*\[[^\]]{0,60}\])?(?:\s*(?:,|and|or|&)\s*(?:(?:Sections?|Clauses?)\s+)?\d{1,3}(?:\.\d{1,3}){0,3}"
    r"(?:\s*\[[^\]]{0,60}\])?){0,4})"
)
_SECTION_NUMBER = re.compile(r"\d{1,3}(?:\.\d{1,3}){0,3}")
#: how many sections named by a clause are read
_NAMED_SECTIONS_READ = 4


def _in_named_sections(ctx: _Context, region: _Region, f: CompiledField) -> _Value | None:
    """A yes/no read as "yes" in the sections the located clause's own sentences name by number (its
    anchor and the sentences its patterns matched): the clause makes them part of itself. None where the
    clause names none, or they say nothing of it; never a "no" (what another section leaves unsaid is no
    reading of this clause)."""
    items = ctx.passages.items
    own = [i for i in region.passages if i == region.anchor or region.weights.get(i, 0)]
    nums: list[str] = []
    for i in own:
        for m in _NAMED_SECTIONS.finditer(ctx.text, items[i].start, items[i].end):
            nums += [n for n in _SECTION_NUMBER.findall(m.group(0)) if n not in nums]
    if not nums:
        return None
    labels = {
        n: [s for s in ctx.doc.sections if bare_label(s.label) == n] for n in nums[:_NAMED_SECTIONS_READ]
    }
    for secs in labels.values():
        if len(secs) != 1 or region.start <= secs[0].start < region.end:
            continue  # a number more than one section carries, or the clause's own: no other section read
        sec = secs[0]
        idx = [j for j, p in enumerate(items) if sec.start <= p.start < sec.end and not p.heading]
        w = _extract_in(ctx, region, f, idx, default=False)
        if w is not None and w.ev.value is True:
            return w
    return None


def _with_run_on(ctx: _Context, i: int) -> tuple[int, int]:
    """Passage `i` with the list items its sentence runs on into ("Datec must not assign this agreement
    unless Datec" / "(a) is not in breach …;" / "(b) obtains the prior written consent of the BSP"), or with
    the list a lead-in ending in ":" introduces; else the passage alone."""
    items = ctx.passages.items
    p = items[i]
    a, b = ctx.passages.with_list(i)
    if b > p.end or i + 1 >= len(items):
        return a, b
    tail = ctx.text[p.start : p.end].rstrip()
    q = items[i + 1]
    runs_on = bool(tail) and (tail[-1].isalnum() or tail[-1] == ",")
    if runs_on and not q.heading and _LIST_ITEM.match(ctx.text, q.start):
        end = q.end
        for j in range(i + 2, min(i + 13, len(items))):
            r = items[j]
            if r.heading or not _LIST_ITEM.match(ctx.text, r.start):
                break
            end = r.end
            if ctx.text[r.start : r.end].rstrip().endswith("."):
                break
        return p.start, end
    return a, b


#: an inline limb marker of one sentence: "(i)", "(e)", "(2)"
_LIMB = re.compile(r"(?:(?<=\s)|(?<=^)|(?<=[;:,]))\(\s*([a-z]{1,2}|[ivx]{1,4}|\d{1,2})\s*\)\s", re.IGNORECASE)
_ROMAN = re.compile(r"[ivx]+", re.IGNORECASE)


def _limb_kind(label: str, text: str) -> str:
    """Whether a limb's label counts in digits, roman numerals or letters ("(i)" is roman beside "(ii)")."""
    if label.isdigit():
        return "digit"
    if _ROMAN.fullmatch(label) and (len(label) > 1 or "(ii)" in text.lower()):
        return "roman"
    return "letter"


def _limb_bool(text: str, a: int, b: int, f: CompiledField) -> Hit | None:
    """A yes/no read from one inline limb of a long sentence together with the words that lead into it — the
    sentence's own lead-in or the lead-in of the limb it hangs from: "either Party may terminate this
    Agreement upon: (i) … ; (iii) written notice in the event one Party (a) … or (e) is subject to a change
    of control" gives each party a right to terminate on a change of control, however far "(e)" stands from
    "terminate". The value's span runs from the lead-in's words to the limb's."""
    seg = text[a:b]
    marks = list(_LIMB.finditer(seg))
    if len(marks) < 2:
        return None
    kinds = [_limb_kind(m.group(1), seg) for m in marks]
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(seg)
        limb = seg[m.start() : end]
        first_of_kind = next(j for j in range(len(marks)) if kinds[j] == kinds[k])
        parent = next((j for j in range(first_of_kind - 1, -1, -1) if kinds[j] != kinds[k]), None)
        leads = [(0, marks[0].start())]
        if parent is not None:
            leads.append((marks[parent].start(), marks[first_of_kind].start()))
        for lo, hi in leads:
            lead = seg[lo:hi]
            hit = find_bool(lead + limb, 0, true_if=f.true_if, false_if=f.false_if)
            if hit is None or hit.end <= len(lead) or hit.start >= len(lead):
                continue  # the lead-in alone or the limb alone would have been read already
            start, stop = a + lo + hit.start, a + m.start() + hit.end - len(lead)
            return Hit(value=hit.value, start=start, end=stop)
    return None


def _names_sides(f: CompiledField) -> bool:
    """Whether a yes/no field's "yes" words name a side ({us} or {them})."""
    return any("{us}" in w or "{them}" in w for w in f.spec.true_if)


#: capitalised words that open a sentence or name a thing, never a party
_NOT_A_PARTY = (
    r"(?:The|A|An|This|That|These|Those|Such|Any|All|Each|Either|Neither|No|None|Nothing|Notwithstanding"
    r"|If|In|On|Upon|Under|For|Where|When|Unless|Except|Subject|Provided|Its|It|He|She|They|We|You|I"
    r"|Agreement|Contract|Services?|Section|Clause|Article|Schedule|Exhibit|Appendix|Annex|Attachment"
    r"|Part(?:y|ies)|Term|Effective|Date|Confidential|Information|Products?|Software|Work|Deliverables?"
    r"|Intellectual|Property|Fees?|Charges?|Prices?|Notice|Customer|Client|Supplier|Vendor|Provider"
    r"|Contractor|Consultant|Licensee|Licensor|Recipient|Purchaser|Buyer|Seller|Developer|Subscriber)"
)
#: a party by its own name or defined term ("Datec", "the BSP", "Sicap Ltd"), case-sensitively
_PARTY_NAME = (
    r"(?-i:(?:[Tt]he\s+)?(?!" + _NOT_A_PARTY + r"\b)[A-Z][A-Za-z0-9&\-]*(?:\s+[A-Z][A-Za-z0-9&\-]*){0,2}?)"
)
_SIDE_SLOT = re.compile(r"\{(us|them)\}")


@lru_cache(maxsize=1024)
def _named_pattern(pattern: str) -> tuple[re.Pattern[str], tuple[str, ...]]:
    """A "yes" pattern with each {us}/{them} open to any party's own name, and the side of each group."""
    sides: list[str] = []

    def slot(m: re.Match[str]) -> str:
        sides.append(m.group(1))
        return f"(?P<s{len(sides) - 1}>{_PARTY_NAME})"

    return re.compile(_SIDE_SLOT.sub(slot, pattern), re.IGNORECASE), tuple(sides)


def _named_reading(ctx: _Context, f: CompiledField, idx: Sequence[int]) -> _Value | None:
    """Where who is us is not resolved, what a yes/no's words say of the parties by their own names: "Datec
    must not assign … without the prior written consent of the BSP" says the supplier needs consent if Datec
    is the supplier. A name counts when the contract uses it as a name (at least three times); the two sides
    of one reading are two different parties. Never a "no": silence is read as before."""
    items = ctx.passages.items
    text = ctx.text
    compiled = [_named_pattern(w) for w in f.spec.true_if if "{us}" in w or "{them}" in w]
    first: _Value | None = None
    for i in idx:
        a, b = _with_run_on(ctx, i)
        # the passage as written, and a list item as its lead-in's party's own sentence ("The Distributor
        # shall:" / "(i) allow the Supplier … access"): `shift` is how many words were put before it
        readings = [(text[a:b], a, 0)]
        if (lead := _as_lead_ins_sentence(ctx, i)) is not None:
            readings.append(lead)
        for (seg, a, shift), (rx, sides) in ((r, c) for r in readings for c in compiled):
            for m in rx.finditer(seg):
                named: dict[str, str] = {}
                for k, side in enumerate(sides):
                    got = m.group(f"s{k}")
                    if got is None:
                        continue
                    name = re.sub(r"^[Tt]he\s+", "", " ".join(got.split()))
                    named.setdefault(side, name)
                if not named or any(text.count(n) < 3 for n in named.values()):
                    continue
                if len(set(named.values())) < len(named):
                    continue  # "Datec … Datec": one party on both sides is no reading of either
                s, e = a + max(m.start() - shift, 0), a + m.end() - shift
                scope = (a, b) if b > items[i].end else (items[i].start, items[i].end)
                if first is None:
                    ev = ExtractedValue(value=True, text=text[s:e], start=s, end=e)
                    first = _Value(ev, scope, None, False, named=tuple(sorted(named.items())))
                    if len(named) > 1:
                        return first  # a reading of two sides at once: one party of each
                    continue
                other = next(iter(named.values()))
                held = next(iter(dict(first.named).values()))
                if len(named) == 1 and other != held:
                    # the same words of each of two parties, by its own name: the value holds whoever is us
                    lo, hi = min(first.scope[0], scope[0]), max(first.scope[1], scope[1])
                    near = hi - lo <= _EACH_REACH
                    return replace(first, scope=(lo, hi) if near else first.scope, each=(held, other))
    return first


#: how far apart two sentences that say the same of each party may be to be quoted as one passage
_EACH_REACH = 1500


def _durations(seg: str, base: int, kind: str | None, unit: str) -> list[Hit]:
    hs = [
        h
        for h in find_durations(seg, base, unit=unit)
        if not _DISMISSED_WITHIN.search(seg, 0, h.start - base)
    ]
    return durations_of_kind(hs, seg, base, kind, unit) if kind else hs


#: how long a bankruptcy petition may stand before it must be dismissed ("an involuntary petition … which is
#: not rescinded within a period of sixty (60) days"): no cure, notice or term of the contract
_DISMISSED_WITHIN = re.compile(
    r"\b(?:dismissed|rescinded|discharged|stayed|vacated|withdrawn|set\s+aside)\s+(?:or\s+\w+\s+)?within\s+"
    r"(?:a\s+period\s+of\s+|the\s+)?$",
    re.IGNORECASE,
)


#: a period named by a defined term: "during the Restricted Period", "throughout the Non-Compete Term"
_DEFINED_PERIOD = re.compile(r"\b(?:the|such)\s+((?:[A-Z][\w-]*\s+){1,3}(?:Period|Term))\b")


def _defined_durations(
    ctx: _Context, seg: str, kind: str | None, unit: str
) -> tuple[list[Hit], tuple[int, int] | None]:
    """The durations a sentence gives by a defined term, read from the term's definition ('"Restricted
    Period" shall mean the period of twelve (12) months from the Termination Date', or '… for twelve (12)
    months (the "Restricted Period")'), with the definition as their scope."""
    items = ctx.passages.items
    for m in _DEFINED_PERIOD.finditer(seg):
        name = r"\s+".join(re.escape(w) for w in m.group(1).split())
        means = re.search(
            rf"[\"“]{name}[\"”]\s*(?:shall\s+mean|means|is\s+defined\s+as|refers\s+to)\b", ctx.text
        )
        if means:
            p = items[ctx.passages.index_at(means.start())]
            hs = _durations(ctx.text[means.end() : p.end], means.end(), kind, unit)
            if hs:
                return hs[:1], (p.start, p.end)
        named = re.search(rf"\(\s*(?:the\s+|such\s+period,?\s+the\s+)?[\"“]{name}[\"”]\s*\)", ctx.text)
        if named:
            p = items[ctx.passages.index_at(named.start())]
            hs = _durations(ctx.text[p.start : named.start()], p.start, kind, unit)
            if hs:
                return hs[-1:], (p.start, p.end)
    return [], None


def _read_holder(
    ctx: _Context, region: _Region, f: CompiledField, clause: CompiledClause | None
) -> _Value | None:
    """Who holds the right, over the located clause and every other passage the clause's own patterns
    find (a right held by one side here and the other side there is held by both): "only X may" is a
    claim about the whole contract."""
    items = ctx.passages.items
    idx = set(region.passages)
    if clause is not None and clause.patterns:
        # the clause's sentence-level excludes are not applied: `unless` judges each limb of a sentence
        # ("terminates upon any of the following: (a) breach …; (b) Consultant may terminate on notice")
        idx |= set(_passage_hits(ctx, clause.patterns))
    idx |= _same_paragraph(ctx, region)
    # a limb's lead-in names who holds the right: "FNW and Sponsor shall each have the right … to terminate …
    # if any of the following shall occur:" over "(c) The other party materially defaults …"
    leads = {lead: i for i in sorted(region.passages) if (lead := _lead_in(ctx, i)) is not None}
    idx |= set(leads)
    idx = {i for i in idx if not items[i].heading}
    # a lead-in is read with its list ("may be terminated by X upon any of the following: (i) breach …"), down
    # to the located limb
    listed = {i: ctx.text[slice(*ctx.passages.with_list(i))] for i in idx}
    for lead, i in leads.items():
        if lead in listed and items[i].end > items[lead].start + len(listed[lead]):
            listed[lead] = ctx.text[items[lead].start : items[i].end]
    if f.near:
        idx = {i for i in idx if _hits(f.near, listed[i])}
    both, us, them = f.spec.values
    hits: list[HolderHit] = []
    others: list[HolderHit] = []
    for i in sorted(idx):
        p = items[i]
        hits.extend(
            find_holders(
                ctx.text[p.start : p.end],
                p.start,
                right=tuple(f.spec.right),
                us=f.cues[us],
                them=f.cues[them],
                unless=f.unless,
                near=f.near,
                listed=listed[i],
                others=others,
                also=f.true_if,
            )
        )
    merged = merge_holders(hits)
    if merged is None:
        signalled = any(
            _hits(f.true_if, _outside(ctx.text, items[i].start, items[i].end, others)) for i in idx
        )
        if clause is not None and others and not signalled:
            ctx.other_rights[clause.id] = others[0]
        return None
    side, hit = merged
    value = {BOTH: both, "us": us, "them": them}[side]
    ev = ExtractedValue(value=value, text=ctx.text[hit.start : hit.end], start=hit.start, end=hit.end)
    at = next((i for i in sorted(idx) if items[i].start <= hit.start < items[i].end), None)
    scope = (items[at].start, items[at].end) if at is not None else (hit.start, hit.end)
    return _Value(ev, scope, None, False)


#: a sentence that opens a clause or item of its own ("1.7 CRO will provide", "(b) Licensee may")
_OWN_ITEM = re.compile(r"\s*(?:\(?[a-zA-Z0-9]{1,5}[.)]|\d+(?:\.\d+)+)\s")


def _continuation(ctx: _Context, region: _Region) -> int | None:
    """The sentence right after the located clause's last, in the same paragraph, where it is no clause or
    item of its own: what the clause goes on to say. None where there is none."""
    if not region.passages:
        return None
    items = ctx.passages.items
    last = max(region.passages)
    k = last + 1
    if k >= len(items) or items[k].heading or "\n\n" in ctx.text[items[last].end : items[k].start]:
        return None
    return None if _OWN_ITEM.match(ctx.text, items[k].start) else k


#: how many sentences either side of the located clause's a right's holder is also read in
_NEIGHBOURS = 2


def _same_paragraph(ctx: _Context, region: _Region) -> set[int]:
    """The sentences next to the located clause's own in the same paragraph (no blank line between): where one
    party's right to terminate is located, the other's often stands a sentence or two before it ("VAL shall,
    in the event of … or for any other reason …, be entitled to terminate …. Developer may also terminate
    …"), in words the clause's patterns do not match."""
    items = ctx.passages.items
    out: set[int] = set()
    for i in region.passages:
        for step in (-1, 1):
            j = i
            for _ in range(_NEIGHBOURS):
                k = j + step
                if not 0 <= k < len(items) or items[k].heading:
                    break
                a, b = sorted((items[j], items[k]), key=lambda p: p.start)
                if "\n\n" in ctx.text[a.end : b.start]:
                    break
                out.add(k)
                j = k
    return out


def _outside(text: str, start: int, end: int, spans: Sequence[HolderHit]) -> str:
    """The passage's text with the limbs of other rights blanked out."""
    chars = list(text[start:end])
    for h in spans:
        for k in range(max(h.start, start), min(h.end, end)):
            chars[k - start] = " "
    return "".join(chars)


#: the words that open an exception (or a proviso) to the rule a sentence states: a value after one is the
#: exception's ("shall expire on December 31, 2006; provided, however, that … until March 31, 2008")
_EXCEPT = re.compile(
    r"\b(?:except(?:ing)?|excluding|other\s+than|save\s+(?:for|that|in)|with\s+the\s+exception\s+of"
    r"|provided\s*,?\s+(?:however|further|that)|provided\s+always)\b",
    re.I,
)


def _closest(hits: Sequence[Hit], cues: Sequence[re.Pattern[str]], seg: str, base: int) -> Hit:
    """Of several values in one passage, the one nearest a cue (ties: the earliest) — the rule's own value
    before an exception's: "thirty (30) days to cure such breach, except for nonpayment, which must be cured
    within seven (7) business days" is a cure period of thirty days."""
    spans = [(base + m.start(), base + m.end()) for rx in cues for m in rx.finditer(seg)]
    if not spans:
        return hits[0]
    # an exception is one to a rule stated before it: where the words before the proviso carry no cue of the
    # rule, the proviso states the rule itself ("… an initial term of three (3) years; provided, however, that
    # it shall renew automatically for successive one (1) year terms" is a renewal of one year)
    triggers = [t for t in (base + m.start() for m in _EXCEPT.finditer(seg)) if any(b <= t for _, b in spans)]

    def excepted(h: Hit) -> bool:
        return any(h.start > t and any(o.end <= t for o in hits) for t in triggers)

    def distance(h: Hit) -> int:
        return min(max(a - h.end, h.start - b, 0) for a, b in spans)

    return min(hits, key=lambda h: (excepted(h), distance(h), h.start))


def _default(ctx: _Context, i: int, value: Any) -> _Value:
    p = ctx.passages.items[i]
    ev = ExtractedValue(value=value, text=ctx.text[p.start : p.end], start=p.start, end=p.end)
    return _Value(ev, (p.start, p.end), None, True)


# ---------------------------------------------------------------------------------------------- quotes
