"""Per-document state shared by every clause rule: passages, headings, coverage, the learned locator scan."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ingest.document import Document
from playbooks.locator import Locator, Scan, load_locator
from playbooks.locator.fusion import Location
from playbooks.outcome import ExtractedValue
from playbooks.parties.holder import HolderHit
from playbooks.passages import Passages
from playbooks.retrieve import ClauseRetriever
from playbooks.scan import Scanner
from playbooks.schema import CompiledClause

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
    # (after a filed copy's page-footer date run into it: 'May 3, 2016 4.4 "Aggregate Consideration" means';
    # or in so many words: 'As used in this letter agreement (this "Agreement"), the term "Evaluation
    # Material" means', 'The term "Effective Date" means')
    r"\s*(?:[A-Z][a-z]{2,8}\.?\s+\d{1,2},\s+(?:19|20)\d{2}\s+)?(?:\(?[\w.]{1,6}\)?\s+)?"
    r"(?:As\s+used\s+(?:herein|in\s+this\s+(?:[\w-]+\s+){0,2}?(?:agreement|letter))(?:\s*\([^()]{0,40}\))?\s*,\s*)?"
    r"(?:(?i:the)\s+(?:term|expression)s?\s+)?[\"“][^\"”]{1,80}[\"”]\s+"
    r"(?:means|shall\s+mean|has\s+the\s+meaning|refers\s+to)\b"
)
_RUN_IN = re.compile(r"(?:[\d.()a-zA-Z]{1,8}\s+)?([A-Z][A-Za-z,'’&\- ]{2,60}?)[.:]\s")


_HEADING_ONLY = re.compile(
    r"(?:\s*(?:(?:section|article|clause)\s+)?(?:[\dA-Za-z]{1,3}[.)]|\d+(?:\.\d+)*\.?|\([a-z0-9]{1,4}\))?"
    r"\s*(?:[A-Z][\w,;'’&/\- ]{1,70}|\[[A-Z][\w,;'’&/\- ]{1,70}\])[.:]?\s*){1,3}"
)  # a heading in brackets as filed ("Section 9.05 [No Modification Except in Writing].") is a heading too

_OPERATIVE = re.compile(r"\b(?:shall|will|may|must|agrees?|is|are|has|have|not)\b", re.IGNORECASE)
# a verb that makes a short line a sentence, not a heading ("T-Mobile shall give prior notice to")
_SENTENCE = re.compile(r"\b(?:shall|will|may|must|agrees?|is|are|was|were|has|have|hereby)\b", re.IGNORECASE)
# an entry of a table of contents: "13. Confidential Information 9", "4. Fees ........ 6"
_CONTENTS_ENTRY = re.compile(r"\b\d{1,3}\.?[ \t]+[A-Z][A-Za-z'’,&/\- ]{2,60}?[ \t.…]+\d{1,3}(?=\s|$)")


def _contents_spans(text: str) -> list[tuple[int, int]]:
    """The paragraphs of `text` that are a table of contents: three or more "N. Title page" entries making
    up most of the paragraph."""
    out: list[tuple[int, int]] = []
    start = 0
    for m in (*_PARA_BREAK.finditer(text), None):
        end = m.start() if m else len(text)
        if 40 <= end - start <= 5000:
            entries = list(_CONTENTS_ENTRY.finditer(text, start, end))
            if len(entries) >= 3 and sum(e.end() - e.start() for e in entries) * 2 > end - start:
                out.append((start, end))
        start = m.end() if m else end
    return out


def _within_any(spans: Sequence[tuple[int, int]], offset: int) -> bool:
    return any(a <= offset < b for a, b in spans)


def _heading_only(seg: str) -> bool:
    """Is this passage only a heading ("7.3 Noncompetition.", "9.7 Indemnity. (a) By the Company.")?"""
    return len(seg) <= 90 and not _OPERATIVE.search(seg) and _HEADING_ONLY.fullmatch(seg) is not None


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
    # who is us is not resolved and the words say this of a party by its own name: each side the field's
    # words speak of ("us"/"them") → the name standing there ("supplier needs consent" read from "Datec must
    # not assign … without the consent of the BSP": {"them": "Datec"}); the value holds if that party is it
    named: tuple[tuple[str, str], ...] = ()
    # the same words hold of two different parties by their own names ("XLI shall not disparage …", "WCC
    # agrees that it shall not disparage …"): the value holds whoever is us, each party's name here
    each: tuple[str, ...] = ()
    # the words bind both sides by a mutual subject ("Each Party shall", "the parties hereby agree to grant to
    # each other"): the value holds whoever is us
    mutual: bool = False


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
        self.our_role = "customer"  # the playbook's role: what a side is called in a claim
        self.seat: tuple[ExtractedValue, ...] = ()  # where the preamble places us (`engine.seat`)
        self.seat_of_both = False  # who is us is not resolved, and `seat` is where both parties sit
        self.doc = doc
        self._locator = locator  # None: the shipped locator, read on first use; False: rules alone
        self._scan: Scan | None = None
        self.locations: dict[str, Location] = {}
        # clause id → a right of another kind read where the clause's own right was looked for (a holder
        # field found only rights to terminate for breach where one for convenience was asked about)
        self.other_rights: dict[str, HolderHit] = {}
        # clause id → the region located and set aside as another clause, with why (`engine.about`)
        self.set_aside: dict[str, tuple[_Region, str]] = {}
        self.excluded: dict[str, set[int]] = {}  # clause id → the passages its exclusions rule out
        self.text = doc.text
        self._recitals: tuple[int, int] | None = None
        self.passages = Passages(doc.text, furniture=[(f.start, f.end) for f in doc.furniture])
        self.scanner = Scanner(self.passages)
        self.coverage = coverage_of(doc)
        self.complete = doc.ready
        self._retriever: ClauseRetriever | None = None
        self.heads: list[tuple[int, int, str]] = []  # section start, end, heading text (lower)
        self.heads_over: dict[int, tuple[str, ...]] = {}  # passage → the headings over it, innermost first
        toc = _contents_spans(self.text)  # a table of contents names clauses it does not hold
        for s in doc.sections:
            if s.kind == "definition" or _within_any(toc, s.start):
                continue
            head = s.heading
            # no heading: the first line counts only if it is short, like a title (and not a sentence)
            if not head:
                line_end = self.text.find("\n", s.start, s.end)
                first = self.text[s.start : line_end if line_end != -1 else s.end]
                short = len(first) <= 60 and not re.search(r"[.;:]\s", first)
                head = first if short and not _SENTENCE.search(first) else ""
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
            if _within_any(toc, p.start):
                continue
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
                m = _RUN_IN.match(lead)  # "Governing Law. This …" (not "Either party may terminate. …")
                if m and len(m.group(1).split()) <= 7 and not _SENTENCE.search(m.group(1)):
                    self.heads.append((p.start, self._para_end(p.start), m.group(1).lower()))

    def _para_end(self, start: int) -> int:
        m = _PARA_BREAK.search(self.text, start)
        return m.start() if m else len(self.text)

    def retriever(self) -> ClauseRetriever:
        """The document's clause retriever, built on first use (only a search that found nothing needs it)."""
        if self._retriever is None:
            self._retriever = ClauseRetriever(self.doc, clause_types=None)
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

    def in_recitals(self, offset: int) -> bool:
        """Whether `offset` falls in the contract's recitals (its background, not its terms)."""
        if self._recitals is None:
            self._recitals = recitals_span(self.text) or (0, 0)
        a, b = self._recitals
        return a <= offset < b

    def section_label(self, offset: int) -> str | None:
        s = self.doc.section_at(offset)
        return s.label if s else None


#: where a contract's recitals open: "WHEREAS", a "RECITALS" or "BACKGROUND" heading ("R E C I T A L S")
_RECITALS_OPEN = re.compile(
    r"\bWHEREAS\b|(?m:^[ \t]*(?:R\s?E\s?C\s?I\s?T\s?A\s?L\s?S|Recitals"
    r"|B\s?A\s?C\s?K\s?G\s?R\s?O\s?U\s?N\s?D|Background)[ \t]*:?[ \t]*(?:-{3,})?[ \t]*$)"
)
#: … and where the terms begin ("The Parties unanimously agree to amend and restate the Original Cooperation
#: Agreement … and the Original Cooperation Agreement is amended and restated as follows:")
_RECITALS_CLOSE = re.compile(
    r"\bNOW,?\s+THEREFORE\b|\bagrees?\s+as\s+follows\b|\bIT\s+IS\s+(?:HEREBY\s+)?AGREED\b"
    r"|\bagree\w*\b[^.]{0,200}\bas\s+follows\s*:",
    re.IGNORECASE,
)


def recitals_span(text: str) -> tuple[int, int] | None:
    """The contract's recitals — from "WHEREAS" or a "Recitals" heading near its start to "NOW, THEREFORE" or
    "agree as follows" — or None where it has none (or they never close)."""
    m = _RECITALS_OPEN.search(text, 0, max(6000, len(text) // 5))
    if m is None:
        return None
    c = _RECITALS_CLOSE.search(text, m.end(), m.end() + 8000)
    return (m.start(), c.start()) if c is not None else None


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


def _hits(patterns: Sequence[re.Pattern[str]], text: str) -> int:
    return sum(1 for p in patterns if p.search(text))


def _passage_hits(ctx: _Context, patterns: Sequence[re.Pattern[str]]) -> dict[int, int]:
    """For each passage, how many of `patterns` match in it."""
    counts: dict[int, int] = {}
    for rx in patterns:
        for i in ctx.scanner.passages_matching(rx):
            counts[i] = counts.get(i, 0) + 1
    return counts


# where a passage's sentences meet (a sentence's limbs share its lead-in: "Neither Party may assign … except
# … to (a) … (b) … (ii) a merger" and "the term "control" … will mean (i) … (ii) …" are one sentence each)
_PART_BREAK = re.compile(r"(?<=[.!?])\s+(?=[(\"“A-Z])")


def _parts(seg: str) -> list[tuple[int, int]]:
    """The sentences of a passage's text, as offsets into it."""
    out: list[tuple[int, int]] = []
    start = 0
    for m in _PART_BREAK.finditer(seg):
        if m.start() > start:
            out.append((start, m.start()))
        start = m.end()
    if start < len(seg):
        out.append((start, len(seg)))
    return out


def _excluded(ctx: _Context, clause: CompiledClause) -> set[int]:
    """The passages the clause's `exclude` patterns rule out: those an exclusion matches, unless one of the
    clause's own patterns matches in a sentence of the passage that no exclusion touches — the exclusion
    named another sentence of a passage that also states the clause ("(a) either party may terminate for
    any or no reason on fifteen days' notice. (b) either party may terminate if the other breaches …" grants a
    right to terminate for convenience; "For three years the contractor shall not start up a business" is a
    restraint, whatever its period). Computed once per clause."""
    got = ctx.excluded.get(clause.id)
    if got is not None:
        return got
    out: set[int] = set()
    if clause.exclude:
        items = ctx.passages.items
        for i in _passage_hits(ctx, clause.exclude):
            p = items[i]
            seg = ctx.text[p.start : p.end]
            ruled = [(m.start(), m.end()) for rx in clause.exclude for m in rx.finditer(seg)]
            clean = [(a, b) for a, b in _parts(seg) if not any(x < b and a < y for x, y in ruled)]
            if not any(rx.search(seg[a:b]) for a, b in clean for rx in clause.patterns):
                out.add(i)
    ctx.excluded[clause.id] = out
    return out


def ruled_out_heading(clause: CompiledClause, head: str) -> bool:
    """Whether the rule's own exclusions rule out a heading that names it: "4. Non-solicitation of Clients"
    names another covenant than the rule on soliciting employees, and vouches for nothing under it."""
    return any(rx.search(head) for rx in clause.exclude)


def _heading_words_in_body(ctx: _Context, clause: CompiledClause, region: _Region) -> bool:
    """Whether the text under the heading uses the clause's own heading words (not only the heading)."""
    items = ctx.passages.items
    body = " ".join(ctx.text[items[i].start : items[i].end] for i in region.passages if not items[i].heading)
    stems = {k[:6].lower() for k in clause.heading_keys if len(k) >= 4}
    return bool(body.strip()) and any(st in body.lower() for st in stems)
