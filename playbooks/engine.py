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

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from ingest.document import Document
from playbooks.drafting import drafting_outcomes
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
from playbooks.locator import Locator, Scan, category_of, load_locator
from playbooks.locator.fusion import Location, fuse
from playbooks.outcome import ClauseOutcome, ExtractedValue, QuoteRef, SearchRecord
from playbooks.passages import Passage, Passages
from playbooks.predicates import Compare, Predicate, evaluate
from playbooks.regex_safety import regex_budget
from playbooks.retrieve import ClauseRetriever
from playbooks.scan import Scanner
from playbooks.schema import CompiledCheck, CompiledClause, CompiledField, CompiledPosition, Playbook

__all__ = ["DEFAULT_SEVERITY", "coverage_of", "run_playbook"]

DEFAULT_SEVERITY: Mapping[str, str] = {
    "standard": "info",
    "fallback": "medium",
    "unacceptable": "high",
    "needs_review": "medium",
    "missing": "high",
    "referenced_not_provided": "high",
    "not_applicable": "info",
}
MAX_QUOTE = 700  # characters; longer passages are trimmed to a window around the decisive words
MAX_QUOTES = 4
_REGION_MAX = 6000  # a section longer than this is too broad to stand for one clause found by pattern


_PARA_BREAK = re.compile(r"\n[ \t\r]*\n")
_DEFINITION = re.compile(  # a passage that opens by defining a term: '"Minimum Quantity" means …'
    r"\s*(?:\(?[\w.]{1,6}\)?\s+)?[\"“][^\"”]{1,80}[\"”]\s+(?:means|shall\s+mean|has\s+the\s+meaning|refers\s+to)\b"
)
_RUN_IN = re.compile(r"(?:[\d.()a-zA-Z]{1,8}\s+)?([A-Z][A-Za-z,'’&\- ]{2,60}?)[.:]\s")


@dataclass(frozen=True, slots=True)
class _Region:
    start: int
    end: int
    passages: tuple[int, ...]  # indices into Passages
    anchor: int  # the passage with the clause's decisive language
    via: str  # "heading" | "pattern" | "locator"
    weights: Mapping[int, int]  # passage → how much of the clause's language it carries


@dataclass(frozen=True, slots=True)
class _Value:
    ev: ExtractedValue
    scope: tuple[int, int]  # the passage (or list) it was read from: what to quote for it
    conflict: str | None
    inferred: bool  # a default: no cue was found in the passages read


class _Context:
    """Per-document state shared by all clauses: passages, section headings, coverage."""

    def __init__(
        self,
        doc: Document,
        *,
        contract_type: str | None = None,
        roles: str | None = None,
        locator: Locator | Literal[False] | None = None,
    ) -> None:
        self.contract_type = contract_type
        self.misfit: str | None = None  # set when the playbook is not written for this type of contract
        self.roles_unresolved = roles  # why us/them are not bound, or None when they are
        self.doc = doc
        self._locator = locator  # None: the shipped locator, read on first use; False: rules alone
        self._scan: Scan | None = None
        self.locations: dict[str, Location] = {}
        self.text = doc.text
        self.passages = Passages(doc.text, furniture=[(f.start, f.end) for f in doc.furniture])
        self.scanner = Scanner(self.passages)
        self.coverage = coverage_of(doc)
        self.complete = doc.ready
        self._retriever: ClauseRetriever | None = None
        self.heads: list[tuple[int, int, str]] = []  # section start, end, heading text (lower)
        for s in doc.sections:
            if s.kind == "definition":
                continue
            head = s.heading
            if not head:  # no heading: the first line counts only if it is short, like a title
                line_end = self.text.find("\n", s.start, s.end)
                first = self.text[s.start : line_end if line_end != -1 else s.end]
                head = first if len(first) <= 60 and not re.search(r"[.;:]\s", first) else ""
            if head:
                self.heads.append((s.start, s.end, f"{s.label} {head}".lower()))
        # passages that are headings, or that open with a run-in heading ("Governing Law. This …"), or that
        # are a run-in heading split off as a sentence of their own ("6.5 Notices." then the clause)
        items = self.passages.items
        alone = [
            i for i, p in enumerate(items) if not p.heading and _heading_only(self.text[p.start : p.end])
        ]
        following = {a: alone[k + 1] if k + 1 < len(alone) else None for k, a in enumerate(alone)}
        for i, p in enumerate(items):
            lead = self.text[p.start : min(p.end, p.start + 80)]
            if p.heading:
                self.heads.append((p.start, self._heading_region_end(p.start, p.end), lead.lower()))
            elif i in following:
                nxt = following[i]
                end = self._para_end(p.start)
                if nxt is not None:
                    end = min(end, items[nxt].start)
                self.heads.append((p.start, min(end, p.start + _REGION_MAX), lead.lower()))
            else:
                m = _RUN_IN.match(lead)
                if m and len(m.group(1).split()) <= 7:
                    self.heads.append((p.start, self._para_end(p.start), m.group(1).lower()))

    def _para_end(self, start: int) -> int:
        m = _PARA_BREAK.search(self.text, start)
        return m.start() if m else len(self.text)

    def retriever(self) -> ClauseRetriever:
        """The document's clause retriever, built on first use (only a search that found nothing needs it)."""
        if self._retriever is None:
            self._retriever = ClauseRetriever(self.doc, semantic=None, clause_types=None)
        return self._retriever

    def scan(self) -> Scan | None:
        """The locator's scores of this document's units, computed on first use (None: rules alone)."""
        if self._locator is False:
            return None
        if self._scan is None:
            loc = self._locator if self._locator is not None else load_locator()
            self._scan = loc.scan_text(self.text, self.passages, scanner=self.scanner)
        return self._scan

    def _heading_region_end(self, start: int, end: int) -> int:
        sec = self.doc.section_at(start)
        if sec is not None and sec.start >= start - 12:
            return sec.end
        # an unnumbered heading: its text runs to the next heading passage
        i = self.passages.index_at(end)
        for q in self.passages.items[i + 1 :]:
            if q.heading and q.start > end:
                return q.start
        return len(self.text)

    def section_label(self, offset: int) -> str | None:
        s = self.doc.section_at(offset)
        return s.label if s else None


def coverage_of(doc: Document) -> tuple[str, ...]:
    """The parts of the document a whole-text search covers (the parts the document has).

    Read from the Document: section kinds, generated and furniture spans, and the regions an ingest
    reader records in `metadata["regions"]` (DOCX tables, text boxes, footnotes and endnotes).
    """
    kinds = {s.kind for s in doc.sections}
    span_kinds = {s.kind for s in (*doc.generated, *doc.furniture)}
    regions = doc.metadata.get("regions") or ()
    span_kinds |= {str(r.get("kind")) for r in regions if isinstance(r, Mapping)}
    annex = re.compile(r"^\s*(?:schedule|exhibit|annex|appendix|attachment)\b", re.IGNORECASE)
    parts = ["body"]
    if "table" in kinds or "table" in span_kinds:
        parts.append("tables")
    if kinds & {"schedule", "exhibit"} or any(annex.match(f"{x.label} {x.heading}") for x in doc.sections):
        parts.append("schedules")
    if span_kinds & {"footnote", "endnote"}:
        parts.append("footnotes")
    if "textbox" in span_kinds:
        parts.append("text_boxes")
    if doc.furniture:
        parts.append("headers_footers")
    return tuple(parts)


# ---------------------------------------------------------------------------------------------- locate


def _hits(patterns: Sequence[re.Pattern[str]], text: str) -> int:
    return sum(1 for p in patterns if p.search(text))


def _passage_hits(ctx: _Context, patterns: Sequence[re.Pattern[str]]) -> dict[int, int]:
    """For each passage, how many of `patterns` match in it."""
    counts: dict[int, int] = {}
    for rx in patterns:
        for i in ctx.scanner.passages_matching(rx):
            counts[i] = counts.get(i, 0) + 1
    return counts


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
    """The clause's region: the rules' candidate and the locator's best passages, fused
    (`playbooks.locator.fusion`); how it was located is kept in `ctx.locations[clause.id]`."""
    region = _locate_by_rules(ctx, clause)
    category = category_of(clause)
    scan = ctx.scan() if category is not None and ctx.doc.text.strip() else None
    if scan is None or category is None:
        return region
    anchor = ctx.passages.items[region.anchor] if region else None
    rule_span = (anchor.start, anchor.end) if anchor else None
    d = fuse(scan, category, rule_span, region.via if region else None)
    ctx.locations[clause.id] = d.location
    if d.take is None:
        return region
    taken = _locator_region(ctx, clause, scan, category, d.take.start, d.take.end)
    if taken is None and region is not None:
        # no readable passage in the locator's pick: the rules' own region stands (the fusion never turns
        # a clause the rules located into an absence)
        ctx.locations[clause.id] = fuse(scan, category, rule_span, region.via, switch=False).location
        return region
    if taken is None:
        ctx.locations[clause.id] = fuse(scan, category, None, None, switch=False, take=False).location
    return taken


def _locator_region(
    ctx: _Context, clause: CompiledClause, scan: Scan, category: str, start: int, end: int
) -> _Region | None:
    """The region around the locator's passage `[start, end)`; its anchor is the passage in it the
    category's head rates highest (the quote the gate will verify)."""
    items = ctx.passages.items
    inside = [i for i in ctx.passages.within(start, end) if not items[i].heading] or list(
        ctx.passages.within(start, end)
    )
    if not inside:
        return None
    col = scan.locator.column(category)
    scores = scan.locator.score([ctx.text[items[i].start : items[i].end] for i in inside])[:, col]
    i = inside[int(scores.argmax())]
    span = _clause_span(ctx, items[i].start) or _paragraph_span(ctx, i)
    a, b = span if span else ctx.passages.with_list(i)
    excluded = set(_passage_hits(ctx, clause.exclude)) if clause.exclude else set()
    idx = tuple(j for j in ctx.passages.within(a, b) if j not in excluded) or (i,)
    return _Region(a, b, idx, i, "locator", dict.fromkeys(idx, 0))


def _run_on_end(ctx: _Context, end: int, limit: int = 3000) -> int:
    """Where the text running on after `end` stops being one clause: at the next heading, or the next
    passage that is only a heading, or `limit` characters on."""
    items = ctx.passages.items
    j = ctx.passages.index_at(end)
    while j < len(items) and items[j].start < end:
        j += 1
    out = end
    while j < len(items) and items[j].end - end <= limit:
        p = items[j]
        if p.heading or (out > end and _heading_only(ctx.text[p.start : p.end])):
            break
        out = p.end
        j += 1
    return out


def _locate_by_rules(ctx: _Context, clause: CompiledClause) -> _Region | None:
    items = ctx.passages.items
    pattern_hits = _passage_hits(ctx, clause.patterns)
    bridge_hits = _passage_hits(ctx, clause.bridges) if clause.bridges else {}
    excluded = set(_passage_hits(ctx, clause.exclude)) if clause.exclude else set()

    def weight(i: int) -> int:
        return pattern_hits.get(i, 0) * 2 + bridge_hits.get(i, 0)

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
        idx = tuple(i for i in ctx.passages.within(start, end) if i not in excluded)
        # a heading with no real text under it (a table-of-contents line) locates nothing
        body = [i for i in idx if not items[i].heading and items[i].end - items[i].start >= 20]
        if body and all(_heading_only(ctx.text[items[i].start : items[i].end]) for i in body):
            # a section that is only its heading ("24. Governing law", its sentences numbered 24.1, 24.2 as
            # sections of their own): the clause is the text that runs on under it
            end = _run_on_end(ctx, end)
            idx = tuple(i for i in ctx.passages.within(start, end) if i not in excluded)
            body = [i for i in idx if not items[i].heading and items[i].end - items[i].start >= 20]
        if not body:
            continue
        anchor = max(body, key=lambda i: (weight(i), -i))
        if weight(anchor) == 0:
            anchor = body[0]
        total = score + min(weight(anchor), 8)
        if best is None or total > best[0]:
            best = (total, _Region(start, end, idx, anchor, "heading", {j: weight(j) for j in idx}))

    scored = [(n * 3 + bridge_hits.get(i, 0), -i) for i, n in pattern_hits.items() if i not in excluded]
    operative = [sc for sc in scored if not _DEFINITION.match(ctx.text, items[-sc[1]].start)]
    scored = operative or scored  # a definition never stands for the operative clause while one exists
    if scored:
        score, neg = max(scored)
        i = -neg
        if best is None or score > best[0]:
            p = items[i]
            span = _clause_span(ctx, p.start) or _paragraph_span(ctx, i)
            start, end = span if span else ctx.passages.with_list(i)  # a ':' passage carries its list
            idx = tuple(j for j in ctx.passages.within(start, end) if j not in excluded) or (i,)
            best = (float(score), _Region(start, end, idx, i, "pattern", {j: weight(j) for j in idx}))
    return best[1] if best else None


# ---------------------------------------------------------------------------------------------- extract


def _extract_field(ctx: _Context, region: _Region, f: CompiledField) -> _Value | None:
    # headings carry no values — except a heading-like line the clause's own patterns matched ("DATED 26
    # September 2019"): the anchor is read
    items = ctx.passages.items
    v = _extract_in(
        ctx, region, f, [i for i in region.passages if not items[i].heading or i == region.anchor]
    )
    if f.spec.anywhere and (v is None or v.inferred):
        near = sorted(set(_passage_hits(ctx, f.near)) - set(region.passages))
        w = _extract_in(ctx, region, f, [i for i in near if not ctx.passages.items[i].heading], default=False)
        if w is not None:
            return w
    return v


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
            hs = find_durations(seg, p.start, unit=spec.unit or "days")
            if spec.kind:
                hs = durations_of_kind(hs, seg, p.start, spec.kind, spec.unit or "days")
        elif spec.type == "percent":
            hs = find_percents(seg, p.start)
        elif spec.type == "jurisdiction":
            hs = find_jurisdictions(seg, p.start)
        elif spec.type == "date":
            hs = find_dates(seg, p.start)
            if spec.kind:
                hs = dates_of_kind(hs, seg, p.start, spec.kind)
        elif spec.type == "bool":
            bh = find_bool(seg, p.start, true_if=f.true_if, false_if=f.false_if)
            hs = [bh] if bh else []
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
    if hit is None:
        if default and spec.default is not None and (idx or region.anchor >= 0):
            return _default(ctx, idx[0] if idx else region.anchor, spec.default)
        return None
    ev = ExtractedValue(value=hit.value, text=text[hit.start : hit.end], start=hit.start, end=hit.end)
    return _Value(ev, (items[at].start, items[at].end), hit.conflict, False)


def _closest(hits: Sequence[Hit], cues: Sequence[re.Pattern[str]], seg: str, base: int) -> Hit:
    """Of several values in one passage, the one nearest a cue (ties: the earliest)."""
    spans = [(base + m.start(), base + m.end()) for rx in cues for m in rx.finditer(seg)]
    if not spans:
        return hits[0]

    def distance(h: Hit) -> int:
        return min(max(a - h.end, h.start - b, 0) for a, b in spans)

    return min(hits, key=lambda h: (distance(h), h.start))


def _default(ctx: _Context, i: int, value: Any) -> _Value:
    p = ctx.passages.items[i]
    ev = ExtractedValue(value=value, text=ctx.text[p.start : p.end], start=p.start, end=p.end)
    return _Value(ev, (p.start, p.end), None, True)


# ---------------------------------------------------------------------------------------------- quotes


def _quote_range(
    ctx: _Context, start: int, end: int, focus: tuple[int, int] | None = None
) -> QuoteRef | None:
    """A quote of `[start, end)`; a long passage is trimmed to a window that keeps `focus` whole."""
    lo, hi = start, end
    if end - start > MAX_QUOTE:
        fa, fb = focus if focus else (start, start + 1)
        half = max((MAX_QUOTE - (fb - fa)) // 2, 60)
        start = max(lo, fa - half)
        end = min(hi, fb + half)
        while start > lo and not ctx.text[start - 1].isspace():  # snap to word boundaries
            start -= 1
        while end < hi and not ctx.text[end].isspace():
            end += 1
    start = after_label(ctx.doc, start, end)
    while start < end and ctx.text[start].isspace():
        start += 1
    while end > start and ctx.text[end - 1].isspace():
        end -= 1
    if end - start < 10:
        return None
    return QuoteRef(text=ctx.text[start:end], start=start, end=end, section=ctx.section_label(start))


_LABEL_TAIL = re.compile(r"[.):]?[ \t\u00a0]+")


def after_label(doc: Document, start: int, end: int) -> int:
    """Where a quote starting at `start` begins once the clause's own number is left out.

    The number belongs to the pinpoint ("clause 7.3"), not to the quoted words: a renumbered clause
    still says the same thing, and re-verification must find the same words after a redline. A DOCX
    number generated from numbering.xml is skipped the same way as a typed one.
    """
    p = start
    for g in doc.generated:
        if g.start == p and g.kind == "numbering":
            p = g.end
    section = doc.section_at(p)
    if section is not None and section.start == p and doc.text.startswith(section.label, p):
        p += len(section.label)
    if p == start:
        return start
    tail = _LABEL_TAIL.match(doc.text, p)
    p = tail.end() if tail else p
    return p if end - p >= 10 else start


def _quote(ctx: _Context, i: int) -> QuoteRef | None:
    p = ctx.passages.items[i]
    return _quote_range(ctx, p.start, p.end)


def _quotes(
    ctx: _Context, anchor: int, values: Mapping[str, _Value], used: Sequence[str]
) -> tuple[QuoteRef, ...]:
    """The decisive values' passages first, then the anchor passage, then the other values' passages."""
    items = ctx.passages.items
    a = items[anchor]
    wanted: list[tuple[tuple[int, int], tuple[int, int] | None]] = []
    for name in used:
        v = values.get(name)
        if v is not None:
            wanted.append((v.scope, None if v.inferred else (v.ev.start, v.ev.end)))
    wanted.append(((a.start, a.end), None))
    for name, v in values.items():
        if name not in used and not v.inferred:
            wanted.append((v.scope, (v.ev.start, v.ev.end)))
    ranges: list[tuple[int, int, tuple[int, int] | None]] = []
    wanted = [(_past_heading(ctx, s, e), focus) for (s, e), focus in wanted]
    for (s, e), focus in wanted:
        if any(rs <= s and e <= re_ for rs, re_, _ in ranges):
            continue
        if len(ranges) >= MAX_QUOTES:
            break
        inner = [r for r in ranges if s <= r[0] and r[1] <= e]
        if focus is None:  # a wider passage keeps the decisive value of the one it takes in
            focus = next((r[2] for r in inner if r[2] is not None), None)
        ranges = [r for r in ranges if r not in inner]
        ranges.append((s, e, focus))
    out = [q for s, e, f in sorted(ranges) if (q := _quote_range(ctx, s, e, f)) is not None]
    if not out:  # the anchor is too short to quote on its own: widen to the next passage
        nxt = min(anchor + 1, len(items) - 1)
        q = _quote_range(ctx, a.start, items[nxt].end)
        if q is not None:
            out.append(q)
    return tuple(out)


_HEADING_ONLY = re.compile(
    r"(?:\s*(?:(?:section|article|clause)\s+)?(?:[\dA-Za-z]{1,3}[.)]|\d+(?:\.\d+)*\.?|\([a-z0-9]{1,4}\))?"
    r"\s*[A-Z][\w,'’&/\- ]{1,70}[.:]?\s*){1,3}"
)
_OPERATIVE = re.compile(r"\b(?:shall|will|may|must|agrees?|is|are|has|have|not)\b", re.IGNORECASE)


def _heading_only(seg: str) -> bool:
    """Is this passage only a heading ("7.3 Noncompetition.", "9.7 Indemnity. (a) By the Company.")?"""
    return len(seg) <= 90 and not _OPERATIVE.search(seg) and _HEADING_ONLY.fullmatch(seg) is not None


def _past_heading(ctx: _Context, start: int, end: int) -> tuple[int, int]:
    """A passage that is only a heading ("7.3 Noncompetition.") is never quoted alone: it stands for the
    clause under it, so the quote runs on into the clause's first sentence."""
    if not _heading_only(ctx.text[start:end]):
        return start, end
    i = ctx.passages.index_at(start)
    items = ctx.passages.items
    j = i + 1
    while j < len(items) and items[j].start < end:
        j += 1
    if j < len(items) and items[j].start - end < 200:
        return start, items[j].end
    return start, end


def _inside(ev: ExtractedValue, quotes: Sequence[QuoteRef]) -> bool:
    return any(q.start <= ev.start and ev.end <= q.end for q in quotes)


# ---------------------------------------------------------------------------------------------- decide


def _fields_of(pred: Predicate) -> list[str]:
    if isinstance(pred, Compare):
        return [pred.field]
    if hasattr(pred, "items"):
        return [f for it in pred.items for f in _fields_of(it)]
    return _fields_of(pred.item)


def _show(v: Any) -> str:
    if isinstance(v, Mapping) and "amount" in v:
        return f"{v.get('currency', '')} {v['amount']:,}".strip()
    if isinstance(v, list):
        return "none" if not v else ", ".join(map(str, v))
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _describe_values(names: Sequence[str], values: Mapping[str, _Value]) -> str:
    parts = []
    for n in dict.fromkeys(names):
        v = values.get(n)
        if v is None:
            continue
        name = n.replace("_", " ")
        if v.inferred:
            parts.append(f"{name}: {_show(v.ev.value)} (no wording found)")
        else:
            parts.append(f"{name}: {_show(v.ev.value)} (“{_short(v.ev.text)}”)")
    return "; ".join(parts)


def _short(s: str, n: int = 80) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def _fill(template: str, values: Mapping[str, _Value]) -> str:
    def sub(m: re.Match[str]) -> str:
        v = values.get(m.group(1))
        if v is None:
            return "(not found)"
        if v.inferred or isinstance(v.ev.value, list | bool):
            return _show(v.ev.value)
        return _short(v.ev.text)

    return re.sub(r"\{([a-z][a-z0-9_.]*)\}", sub, template)


def _sev_get(sev: Mapping[Any, str], outcome: str) -> str | None:
    return sev.get(outcome)


def _severity(clause_sev: Mapping[Any, str], outcome: str) -> str:
    return clause_sev.get(outcome) or DEFAULT_SEVERITY[outcome]


def _decide(
    positions: Sequence[CompiledPosition], raw: Mapping[str, Any], otherwise: str
) -> tuple[str, CompiledPosition | None, str, list[str]]:
    """(outcome, deciding position, reason, fields the decision read)."""
    blocked: list[tuple[CompiledPosition, tuple[str, ...]]] = []
    for pos in positions:
        v = evaluate(pos.when, raw)
        fields = _fields_of(pos.when)
        if pos.outcome == "unacceptable":
            if v.result:
                return "unacceptable", pos, f"{pos.reason or 'red line'} [{v.decided_by}]", fields
            if v.result is None:
                blocked.append((pos, v.unknown))
            continue
        if blocked:
            p, unknown = blocked[0]
            why = p.reason or p.when.render()
            return (
                "needs_review",
                p,
                f"could not check the red line '{why}': {', '.join(unknown)} not found in the clause",
                _fields_of(p.when),
            )
        if v.result:
            label = "standard position" if pos.outcome == "standard" else f"fallback {pos.rank}"
            return pos.outcome, pos, f"{pos.reason or label} [{v.decided_by}]", fields
        if v.result is None:
            return (
                "needs_review",
                pos,
                f"{', '.join(v.unknown)} not found in the clause, "
                f"so the {pos.outcome} position cannot be checked",
                fields,
            )
    if blocked:
        p, unknown = blocked[0]
        return (
            "needs_review",
            p,
            f"could not check the red line '{p.reason or p.when.render()}': {', '.join(unknown)} not found",
            _fields_of(p.when),
        )
    if not positions:
        return "standard", None, "present", []
    # no position matched: the outcome rests on every value the positions read, so those are quoted
    read = list(dict.fromkeys(f for pos in positions for f in _fields_of(pos.when)))
    return otherwise, None, "no position of the playbook matched", read


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
    for start, _end, head in ctx.heads:
        if any(
            key in head and rx.search(head)
            for rx, key in zip(clause.heading_res, clause.heading_keys, strict=True)
        ):
            return ctx.passages.items[ctx.passages.index_at(start)]
    if not ctx.doc.text.strip() or not clause.heading_res:
        return None
    try:
        hits = ctx.retriever().search(clause.model.title, top=1, use_semantic=False)
    except ValueError:
        return None
    if hits:
        lead = ctx.text[hits[0].start : hits[0].start + 100]
        if any(rx.search(lead[:60]) for rx in clause.heading_res):
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


def _hinted(ctx: _Context, clause: CompiledClause, limit: int = 2) -> list[int]:
    """The passages (at most `limit`, most hints first) carrying a clause's weaker language."""
    hits = _passage_hits(ctx, clause.hints)
    excluded = set(_passage_hits(ctx, clause.exclude)) if clause.exclude else set()
    ranked = sorted((i for i in hits if i not in excluded), key=lambda i: (-hits[i], i))
    return sorted(ranked[:limit])


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
    if ref is not None:
        q = _quote(ctx, ref)
        severity: str = sev.get("referenced_not_provided") or (
            m.referenced.severity if m.referenced else "high"
        )
        reason = "the clause points to a document that is not part of this text"
        out = ClauseOutcome(
            outcome="referenced_not_provided",
            severity=severity,
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
    if region is None and clause.hints:
        hinted = _hinted(ctx, clause)
        if hinted:
            quotes = tuple(q for i in hinted if (q := _quote(ctx, i)) is not None)
            if quotes:
                out = ClauseOutcome(
                    outcome="needs_review",
                    severity=_severity(sev, "needs_review"),
                    claim=f"{clause.title}: no clear clause found, but the quoted language may be one — "
                    "read it before concluding the clause is absent.",
                    quotes=quotes,
                    searched=_search_record(ctx, clause, clause.title),
                    reason="uncertain search: only weaker language of the clause occurs",
                    **base,
                )
                return out, {}, None
    if region is None:
        seen = _headed_but_not_taken(ctx, clause)
        if seen is not None:
            q = _quote_range(ctx, *_past_heading(ctx, seen.start, seen.end))
            if q is not None:
                out = ClauseOutcome(
                    outcome="needs_review",
                    severity=_severity(sev, "needs_review"),
                    claim=f"{clause.title}: a passage headed as this clause exists, but its operative words "
                    "were not recognised — read it before concluding the clause is absent.",
                    quotes=(q,),
                    searched=_search_record(ctx, clause, clause.title),
                    reason="absence contradicted by the search's own record: a passage under a matching "
                    "heading was considered and not taken",
                    weak=("the clause was found by its heading only",),
                    **base,
                )
                return out, {}, None
    if region is None:
        return _absent(ctx, clause, base), {}, None
    values: dict[str, _Value] = {}
    for f in clause.fields:
        v = _extract_field(ctx, region, f)
        if v is not None:
            values[f.name] = v
    outcome, pos, reason, used = _judge(clause, values)
    judged_by = _position_fields(clause)
    if outcome == "needs_review" and judged_by and not _reads(values, list(values)):
        # the passage located states none of the values the clause is judged by: is it the clause at all?
        moved = _relocate(ctx, clause, region, judged_by)
        if moved is not None:
            region, values = moved
            outcome, pos, reason, used = _judge(clause, values)
        elif (why_not := _unconfirmed(ctx, clause, region)) is not None:
            return _absent(ctx, clause, base, considered=(region, why_not)), {}, None
    extracted = {k: v.ev for k, v in values.items()}
    weak = _weak_links(ctx, clause, region, values, used)
    if ctx.misfit and outcome == "unacceptable":
        weak = (*weak, ctx.misfit)
    red_line = pos.reason if pos is not None and outcome == "unacceptable" else None
    if weak and outcome == "unacceptable":
        # a red line is earned only when every link holds: otherwise the reader is told what to check
        outcome, reason = "needs_review", f"{reason}; not concluded because {'; '.join(weak)}"
        pos = None
    elif ctx.roles_unresolved and clause.role_dependent and outcome in ("standard", "fallback"):
        outcome, reason = "needs_review", f"{reason}; not concluded because {weak[0]}"
        pos = None
    quotes = _quotes(ctx, region.anchor, values, used)
    extracted = {k: ev for k, ev in extracted.items() if _inside(ev, quotes)}
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
        if outcome == "needs_review" and weak:
            # say what could not be read, not the red line as if it held
            what = (
                f"whether {red_line} could not be confirmed"
                if red_line
                else "the position could not be checked"
            )
            why = f"{what}: {'; '.join(weak)}"
        shown = _describe_values(used, values)
        claim = (
            f"{clause.title} {head}" + (f": {why}" if why else "") + (f" — {shown}" if shown else "") + "."
        )
    out = ClauseOutcome(
        outcome=outcome,
        severity=_severity(sev, outcome),
        claim=claim,
        quotes=quotes,
        extracted=extracted,
        reason=reason + (f"; values: {_describe_values(used, values)}" if used else ""),
        approval=pos.approval if (pos is not None and outcome == "fallback") else None,
        weak=weak,
        **base,
    )
    return out, values, region


def _judge(
    clause: CompiledClause, values: Mapping[str, _Value]
) -> tuple[str, CompiledPosition | None, str, list[str]]:
    """(outcome, deciding position, reason, fields read) from the values read in the clause."""
    raw = {k: v.ev.value for k, v in values.items()}
    if clause.not_applicable_when is not None and evaluate(clause.not_applicable_when, raw).result:
        return (
            "not_applicable",
            None,
            f"not applicable [{clause.not_applicable_when.render()}]",
            _fields_of(clause.not_applicable_when),
        )
    conflicts = [(k, v.conflict) for k, v in values.items() if v.conflict]
    if conflicts:
        k, c = conflicts[0]
        return "needs_review", None, f"unparseable: {k} — {c}", [k]
    return _decide(clause.positions, raw, clause.model.positions.otherwise)


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
    reason = "no heading, term or pattern of the clause occurs anywhere in the document"
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


def _position_fields(clause: CompiledClause) -> list[str]:
    """The fields the clause's positions are judged by (what a located clause must state)."""
    return list(dict.fromkeys(f for pos in clause.positions for f in _fields_of(pos.when)))


def _reads(values: Mapping[str, _Value], fields: Sequence[str]) -> int:
    """How many of `fields` were read from the contract's words (not defaulted from silence)."""
    return sum(1 for f in fields if (v := values.get(f)) is not None and not v.inferred)


def _candidate_region(ctx: _Context, clause: CompiledClause, i: int, via: str) -> _Region:
    """The clause region around passage `i`, as the pattern search builds it."""
    span = _clause_span(ctx, ctx.passages.items[i].start) or _paragraph_span(ctx, i)
    a, b = span if span else ctx.passages.with_list(i)
    excluded = set(_passage_hits(ctx, clause.exclude)) if clause.exclude else set()
    idx = tuple(j for j in ctx.passages.within(a, b) if j not in excluded) or (i,)
    hits = _passage_hits(ctx, clause.patterns)
    return _Region(a, b, idx, i, via, {j: hits.get(j, 0) * 2 for j in idx})


def _relocate(
    ctx: _Context, clause: CompiledClause, region: _Region, fields: Sequence[str], limit: int = 4
) -> tuple[_Region, dict[str, _Value]] | None:
    """Another candidate passage of the clause that states values the clause is judged by, when the one
    located states none — attorneys' fees are not the payment terms because both say "pay". A candidate is
    the locator's passage over its threshold, or a passage the clause's own patterns hit that the locator
    does not rule out (where the locator sees the clause somewhere in this contract)."""
    excluded = set(_passage_hits(ctx, clause.exclude)) if clause.exclude else set()
    hits = _passage_hits(ctx, clause.patterns)
    loc = ctx.locations.get(clause.id)
    t = _threshold(ctx, loc)
    scan = ctx.scan() if t is not None else None
    order: list[tuple[int, str]] = []
    if loc is not None and t is not None:
        order += [(ctx.passages.index_at(c.start), "locator") for c in loc.candidates if c.score >= t]
    for i in sorted(hits, key=lambda i: (-hits[i], i))[:limit]:
        p = ctx.passages.items[i]
        if (
            scan is not None
            and loc is not None
            and loc.category is not None
            and t is not None
            and _sees(loc, t)
        ):
            here = scan.at(loc.category, p.start, p.end)
            if here is None or here.score < 0.5 * t:
                continue
        order.append((i, "pattern"))
    seen = set(region.passages)
    best: tuple[tuple[int, int], _Region, dict[str, _Value]] | None = None
    for i, via in order:
        if i in seen or i in excluded or ctx.passages.items[i].heading:
            continue
        cand = _candidate_region(ctx, clause, i, via)
        seen.update(cand.passages)
        vals = {f.name: v for f in clause.fields if (v := _extract_field(ctx, cand, f)) is not None}
        n = (_reads(vals, fields), _reads(vals, list(vals)))
        if n[0] and (best is None or n > best[0]):
            best = (n, cand, vals)
    return (best[1], best[2]) if best else None


def _sees(loc: Location, t: float) -> bool:
    """Whether the locator sees a clause of its category anywhere in this contract (a passage over its
    threshold); where it sees none, its low scores say nothing about the passages the rules found."""
    return any(c.score >= t for c in loc.candidates)


def _unconfirmed(ctx: _Context, clause: CompiledClause, region: _Region) -> str | None:
    """Why the region located is not the clause, when nothing vouches for it: it states none of the clause's
    values, no pattern of the clause hits it (or only a heading word put it there), and the locator neither
    rates it nor sees the clause anywhere else."""
    weights = [region.weights.get(i, 0) for i in region.passages]
    heading_only = region.via == "heading" and not any(weights)
    loc = ctx.locations.get(clause.id)
    t = _threshold(ctx, loc)
    sees = loc is not None and t is not None and _sees(loc, t)
    if (
        heading_only
        and clause.patterns
        and not sees
        and not _passage_hits(ctx, clause.patterns)
        and not set(_passage_hits(ctx, clause.hints)) & set(region.passages)
    ):
        return (
            "found by its heading alone; it states none of the terms the clause is judged by, and none of "
            "the clause's wording occurs anywhere in the contract"
        )
    if loc is not None and loc.locator_score is not None and t is not None:
        vouched = (region.via == "heading" and any(weights)) or max(weights, default=0) >= 4
        if not vouched and not _sees(loc, t) and loc.locator_score < 0.25 * t:
            return (
                f"it states none of the terms the clause is judged by, and the locator rates it "
                f"{loc.locator_score:.2f} against its threshold {t:.2f} for {loc.category}"
            )
        return None
    if heading_only and not _heading_words_in_body(ctx, clause, region):
        return "found by a heading word alone; it states none of the terms the clause is judged by"
    return None


def _heading_words_in_body(ctx: _Context, clause: CompiledClause, region: _Region) -> bool:
    """Whether the text under the heading uses the clause's own heading words (not only the heading)."""
    items = ctx.passages.items
    body = " ".join(ctx.text[items[i].start : items[i].end] for i in region.passages if not items[i].heading)
    stems = {k[:6].lower() for k in clause.heading_keys if len(k) >= 4}
    return bool(body.strip()) and any(st in body.lower() for st in stems)


def _threshold(ctx: _Context, loc: Location | None) -> float | None:
    """The locator's cross-validated threshold for the category `loc` was scored in (None: no locator)."""
    if loc is None or loc.category is None or (scan := ctx.scan()) is None:
        return None
    return scan.locator.threshold(loc.category)


def _silent_everywhere(ctx: _Context, f: CompiledField) -> bool:
    """None of the field's "yes" words occur anywhere in the document, and they name no party."""
    if not f.true_if or any("{us}" in p or "{them}" in p for p in f.spec.true_if):
        return False
    return not any(ctx.scanner.passages_matching(rx) for rx in f.true_if)


def _weak_links(
    ctx: _Context, clause: CompiledClause, region: _Region, values: Mapping[str, _Value], used: Sequence[str]
) -> tuple[str, ...]:
    """The links of this judgement that do not hold, each said as a reader would check it."""
    weak: list[str] = []
    if ctx.roles_unresolved and clause.role_dependent:
        weak.append(f"who is us is not resolved ({ctx.roles_unresolved})")
    # a yes/no read from silence ("no wording found") is not a reading — unless the silence is the whole
    # contract's: none of the words that would make it "yes" occur anywhere in the document (and the words
    # do not depend on who is who, where a narrow pattern could miss the parties' own names). A list the
    # clause itself gives with none of the values in it (no carve-out listed) is a reading too.
    bools = {f.name: f for f in clause.fields if f.spec.type == "bool"}
    inferred = [
        n
        for n in dict.fromkeys(used)
        if n in bools
        and (v := values.get(n)) is not None
        and v.inferred
        and not _silent_everywhere(ctx, bools[n])
    ]
    if inferred:
        weak.append(f"the clause does not state {', '.join(n.replace('_', ' ') for n in inferred)}")
    loc = ctx.locations.get(clause.id)
    if loc is not None and loc.doubted and region.via == "pattern":
        weak.append(
            f"the clause was found by its patterns only and the learned locator ({loc.locator}) reads no "
            f"{loc.category} clause anywhere in the document"
        )
    heading_only = region.via == "heading" and not any(region.weights.get(i, 0) for i in region.passages)
    if heading_only and not _heading_words_in_body(ctx, clause, region):
        weak.append("the clause was found by its heading only; none of its operative words occur under it")
    return tuple(weak)


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
