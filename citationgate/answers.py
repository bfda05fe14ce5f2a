"""Quotes in a delivered answer, checked against the verified record before anything ships.

A memo, an email or a model's answer is written from verified findings, and quotes grow after they
were checked: a passage gains a clause nobody verified, or a verified passage is carried across to
the wrong section. The rule here: a quoted passage in an answer may be a **shorter part** of a
verified quote, under the citation written against it; it may **never be longer** than one.

`check_answer(answer, findings, document=…)`:

Steps 1–2 live in `citationgate.quotations` (prose: quotes and citations); this module holds the
verified record, resolution and classification.

1. **passages** — every quoted passage: straight and curly double quotes (quotes nested inside a
   passage belong to it), curly single quotes used as primary quotes (‘…’), and Markdown block quotes
   (`> …`). Code spans and fenced code are not prose; a term defined in parentheses — `(the
   "Supplier")` — is the answer's own definition, not a quotation.
2. **citations** — finding ids in square brackets as `review`/`verify` print them (`[F3]`, `[p1]`,
   `[F3, F4]`) and clause references ("clause 11.2", "Section 11.2", "s. 105N", "§ 11.2",
   "cl. 4(a)", "Schedule 2"). Each passage takes the nearest one as a reader would: one written right
   after it, else one earlier in the same sentence, else later in the same sentence, then the
   following sentence (unless it belongs to a passage there), then the preceding sentence.
3. **resolution** — a finding id resolves to that finding's verified quotes; a clause reference to the
   part of the document that section covers (its `Document.sections` range, "105H(3)" narrowed to the
   "(3)" inside "105H"), and so to the verified quotes inside it.
4. **classification** — `verified` (inside a verified quote of that citation), `longer_than_verified`
   (verified words plus words nobody checked), `wrong_citation` (verified, under another citation),
   `read_not_verified` (in the document, inside no verified quote), `nowhere` (not in the document),
   `no_citation` (verified words with no citation near them to resolve against). Words that fail on
   their own (longer, unread, nowhere) are labelled for the words; each failure carries the verified
   text it should have used.
5. **truncation guard** — a passage that stops right before "except", "unless", "provided that",
   "subject to", "notwithstanding", "save that", or starts right after a negation, is flagged:
   accurate words can still be quoted out of context. A flag does not fail the passage.

The verdict is `pass` only if every passage passes; otherwise the whole answer is `withheld`.
Locating uses the gate's own index (`citationgate.locate.QuoteIndex`), so an answer's typography
(curly quotes, dashes, reflowed lines) is tolerated exactly as the gate tolerates it — and nothing more.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError
from rapidfuzz import fuzz

from citationgate.ledger import (
    CitedPassage,
    Judge,
    LedgerRow,
    has_content,
    ledger_rows,
)
from citationgate.locate import QuoteIndex, split_ellipsis
from citationgate.model import MIN_QUOTE_CHARS
from citationgate.quotations import (
    AnswerCitation,
    CitationSource,
    Passage,
    attribute,
    blank,
    find_citations,
    find_passages,
    sentence_units,
)
from ingest.document import Document
from ingest.errors import CitationGateError

Span = tuple[int, int]


class FindingsError(CitationGateError):
    """Findings JSON that does not match the shape `verify`/`review` print, or that belongs to
    another document version."""

    exit_code = 4


class PassageStatus(StrEnum):
    VERIFIED = "verified"
    LONGER_THAN_VERIFIED = "longer_than_verified"
    WRONG_CITATION = "wrong_citation"
    READ_NOT_VERIFIED = "read_not_verified"
    NOWHERE = "nowhere"
    NO_CITATION = "no_citation"


#: Worst first: the status a passage with several ellipsis segments takes.
_SEVERITY = (
    PassageStatus.NOWHERE,
    PassageStatus.READ_NOT_VERIFIED,
    PassageStatus.LONGER_THAN_VERIFIED,
    PassageStatus.WRONG_CITATION,
    PassageStatus.NO_CITATION,
    PassageStatus.VERIFIED,
)


#: Words a passage must not stop right before (the guard flags it).
EXCEPTIONS = (
    "except",
    "unless",
    "provided that",
    "provided, however",
    "provided however",
    "subject to",
    "notwithstanding",
    "save that",
    "save as",
    "other than",
    "excluding",
)
#: Words a passage must not start right after.
NEGATIONS = ("not", "no", "never", "neither", "nor", "without", "cannot", "n't")


# ── values ───────────────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True, slots=True, kw_only=True)
class VerifiedText:
    """Text of the verified record: a verified quote (or part of one) of a finding, with document offsets."""

    finding: str
    section: str | None
    start: int | None
    end: int | None
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "finding": self.finding,
            "section": self.section,
            "start": self.start,
            "end": self.end,
            "text": self.text,
        }

    def cite(self) -> str:
        where = f", section {self.section}" if self.section else ""
        return f"[{self.finding}]{where}"


@dataclass(frozen=True, slots=True, kw_only=True)
class PassageCheck:
    """One passage's outcome: its status and reason, what it matched, and what it should have used."""

    passage: Passage
    citation: AnswerCitation | None
    citation_source: CitationSource | None
    status: PassageStatus
    reason: str
    flags: tuple[str, ...] = ()
    matched: tuple[VerifiedText, ...] = ()
    should_use: tuple[VerifiedText, ...] = ()
    document_spans: tuple[Span, ...] = ()  # where the words are in the document, when they are

    @property
    def passed(self) -> bool:
        return self.status is PassageStatus.VERIFIED

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.passage.to_dict(),
            "citation": (
                {**self.citation.to_dict(), "source": self.citation_source} if self.citation else None
            ),
            "status": self.status.value,
            "passed": self.passed,
            "reason": self.reason,
            "flags": list(self.flags),
            "matched": [m.to_dict() for m in self.matched],
            "should_use": [s.to_dict() for s in self.should_use],
            "document_spans": [list(s) for s in self.document_spans],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerCheck:
    """The whole answer's outcome: `pass` only if every passage passed, else `withheld`."""

    passages: tuple[PassageCheck, ...]
    claims: tuple[LedgerRow, ...]
    document_sha256: str | None
    document_name: str | None
    notes: tuple[str, ...] = ()

    @property
    def verdict(self) -> Literal["pass", "withheld"]:
        return "pass" if all(p.passed for p in self.passages) else "withheld"

    @property
    def failures(self) -> tuple[PassageCheck, ...]:
        return tuple(p for p in self.passages if not p.passed)

    def summary(self) -> dict[str, int]:
        counts = {s.value: 0 for s in PassageStatus}
        for p in self.passages:
            counts[p.status.value] += 1
        counts["flagged"] = sum(1 for p in self.passages if p.flags)
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "passages": [p.to_dict() for p in self.passages],
            "failures": len(self.failures),
            "summary": self.summary(),
            "claims": [c.to_dict() for c in self.claims],
            "notes": list(self.notes),
        }


# ── findings input (untrusted JSON) ───────────────────────────────────────────────────────────────
class _CitationIn(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: str
    text: str | None = None
    start: int | None = None
    end: int | None = None
    section: str | None = None


class _FindingIn(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    status: str
    claim: str = ""
    citations: list[_CitationIn] = []


def parse_findings(data: object, *, source: str = "findings") -> list[dict[str, Any]]:
    """Validate findings JSON: `verify`/`review` output (`{"findings": [...], …}`) or a bare list.

    Each finding needs `id`, `status` and `citations` (each with `status`; a verified one with integer
    `start`/`end` and its `text`). Errors name the JSON path: "findings[2].citations[0].start: …".
    """
    items = data.get("findings") if isinstance(data, Mapping) else data
    if not isinstance(items, list):
        raise FindingsError(
            f'{source}: expected a list of findings or an object with "findings" (got {type(items).__name__})'
        )
    out = []
    for i, item in enumerate(items):
        try:
            f = _FindingIn.model_validate(item)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"])
            raise FindingsError(f"{source}: findings[{i}]{loc}: {err['msg']}") from None
        for j, c in enumerate(f.citations):
            if c.status == "verified" and (c.text is None or c.start is None or c.end is None):
                raise FindingsError(
                    f"{source}: findings[{i}].citations[{j}]: a verified citation needs text, start and end"
                )
        out.append(dict(item) if isinstance(item, Mapping) else f.model_dump())
    return out


# ── the verified record ──────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True, slots=True, kw_only=True)
class _Verified:
    finding: str
    section: str | None  # the label the record gives (innermost section)
    start: int  # in the corpus
    end: int
    doc_start: int | None  # in the document, as the record says
    doc_end: int | None
    text: str
    note: str | None = None  # e.g. the redline changed the clause around it (reverify: context_changed)


@dataclass(slots=True)
class _Corpus:
    text: str
    index: QuoteIndex
    spans: list[_Verified]
    document: Document | None
    finding_status: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # proposal id → finding id

    def verified_text(self, v: _Verified, a: int, b: int) -> VerifiedText:
        a, b = max(a, v.start), min(b, v.end)
        a, b = _snap(self.text, a, b)
        off = (v.doc_start - v.start) if v.doc_start is not None else None
        return VerifiedText(
            finding=v.finding,
            section=v.section,
            start=a + off if off is not None else None,
            end=b + off if off is not None else None,
            text=self.text[a:b],
        )

    def whole(self, v: _Verified) -> VerifiedText:
        return self.verified_text(v, v.start, v.end)

    def doc_span(self, v: _Verified | None, a: int, b: int) -> Span:
        if self.document is not None or v is None or v.doc_start is None:
            return (a, b)
        return (a - v.start + v.doc_start, b - v.start + v.doc_start)


def _snap(text: str, a: int, b: int) -> Span:
    while a < b and (text[a].isspace() or text[a] in ",;:"):
        a += 1
    while b > a and (text[b - 1].isspace() or text[b - 1] in ",;:"):
        b -= 1
    return a, b


#: `_closest` offers a verified quote whole up to this length.
WHOLE_QUOTE_CHARS = 300
#: … and only one that aligns with the passage at least this well (rapidfuzz partial ratio, 0–100).
CLOSEST_MIN_SCORE = 70

_SEPARATOR = "\n\n\u2063\u241e\u2063\n\n"


def _corpus(findings: Sequence[Mapping[str, Any]], document: Document | None, source: str) -> _Corpus:
    records: list[tuple[str, str | None, int | None, int | None, str, str | None]] = []
    status: dict[str, str] = {}
    aliases: dict[str, str] = {}
    for f in findings:
        fid = str(f.get("id"))
        status[fid] = str(f.get("status"))
        if f.get("proposal_id") is not None:
            aliases.setdefault(str(f["proposal_id"]), fid)
        if f.get("status") == "rejected":
            continue
        for c in f.get("citations") or ():
            if (
                not isinstance(c, Mapping)
                or c.get("status") != "verified"
                or not isinstance(c.get("text"), str)
            ):
                continue
            note = None
            if c.get("reverify_status") == "context_changed":
                note = f"the clause around [{fid}]'s quote changed in the last redline (context_changed)"
            records.append((fid, c.get("section"), c.get("start"), c.get("end"), c["text"], note))
    if document is not None:
        spans = []
        for fid, section, a, b, text, note in records:
            if not (isinstance(a, int) and isinstance(b, int)) or document.text[a:b] != text:
                raise FindingsError(
                    f"{source}: finding {fid} cites [{a}, {b}) but {document.name} reads differently there — "
                    f"the findings were made against another document version "
                    f"(this one is {document.text_sha256[:12]})"
                )
            spans.append(
                _Verified(
                    finding=fid, section=section, start=a, end=b, doc_start=a, doc_end=b, text=text, note=note
                )
            )
        return _Corpus(
            text=document.text,
            index=_index_for(document),
            spans=spans,
            document=document,
            finding_status=status,
            aliases=aliases,
        )
    parts: list[str] = []
    spans = []
    pos = 0
    for fid, section, a, b, text, note in records:
        if parts:
            parts.append(_SEPARATOR)
            pos += len(_SEPARATOR)
        spans.append(
            _Verified(
                finding=fid,
                section=section,
                start=pos,
                end=pos + len(text),
                doc_start=a if isinstance(a, int) else None,
                doc_end=b if isinstance(b, int) else None,
                text=text,
                note=note,
            )
        )
        parts.append(text)
        pos += len(text)
    joined = "".join(parts)
    return _Corpus(
        text=joined,
        index=QuoteIndex(joined),
        spans=spans,
        document=None,
        finding_status=status,
        aliases=aliases,
    )


def _index_for(document: Document) -> QuoteIndex:
    try:
        from citationgate.gate import index_for  # the gate's cache, when it is there
    except ImportError:  # pragma: no cover - the gate module is optional for this one call
        return QuoteIndex(document.text)
    return index_for(document)


# ── resolving citations ──────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True, slots=True, kw_only=True)
class _Resolved:
    spans: tuple[int, ...]  # indices into corpus.spans
    regions: tuple[Span, ...] | None  # clause references: where the words must be; None for finding ids
    notes: tuple[str, ...]
    describe: str


def _norm_label(label: str) -> str:
    s = label.strip().rstrip(".").lower()
    s = re.sub(r"^(?:section|clause|sec\.|s\.|§|cl\.|para(?:graph)?\.?|regulation|rule)\s*", "", s)
    s = re.sub(r"^art(?:icle)?\.?\s+", "article ", s)
    return re.sub(r"\s+", " ", s)


_LABEL_PARTS = re.compile(r"^(?P<base>.*?)(?P<subs>(?:\([a-zA-Z0-9]{1,6}\))*)$")


def section_regions(document: Document, label: str) -> tuple[list[Span], list[str]]:
    """Where a section label sits in the document: its `Document.sections` range(s), or — for
    statute-style labels the detector does not list ("105N.") — the lines that start with the label,
    each up to the next line that starts a sibling. "105H(3)" is narrowed to the "(3)" inside "105H"."""
    m = _LABEL_PARTS.match(label.strip())
    base = (m.group("base") if m else label).strip()
    subs = re.findall(r"\([a-zA-Z0-9]{1,6}\)", m.group("subs")) if m else []
    notes: list[str] = []
    if not base and subs:
        base, subs = subs[0], subs[1:]
    regions = [(s.start, s.end) for s in document.sections if _norm_label(s.label) == _norm_label(base)]
    if not regions:
        regions = _scan_label(document.text, base, 0, len(document.text))
    if not regions:
        return [], [f"{label}: no section {base} in {document.name}"]
    for sub in subs:
        narrowed: list[Span] = []
        for a, b in regions:
            inner = [
                (s.start, min(s.end, b))
                for s in document.sections
                if a <= s.start < b and _norm_label(s.label) == _norm_label(sub)
            ]
            narrowed.extend(inner or _scan_label(document.text, sub, a, b))
        if not narrowed:
            notes.append(f"{label}: no {sub} inside {base}; read as the whole of {base}")
            break
        regions = narrowed
    return regions, notes


def _scan_label(text: str, label: str, a: int, b: int) -> list[Span]:
    """Lines in `text[a:b]` that start with `label` ("105N." or "(3)"), each to the next sibling line."""
    bare = label.strip().rstrip(".")
    if not bare:
        return []
    keyword = r"(?:(?:Section|SECTION|Clause|CLAUSE|Regulation|Rule|Article|ARTICLE)\s+)?"
    head = re.compile(rf"(?m)^[ \t]*{keyword}{re.escape(bare)}\.?(?=\s)")
    if bare.startswith("("):
        sibling = re.compile(r"(?m)^[ \t]*\([a-zA-Z0-9]{1,6}\)(?=\s)")
    elif re.match(r"^\d", bare):
        depth = bare.count(".")
        sibling = re.compile(
            rf"(?m)^[ \t]*{keyword}\d{{1,4}}[A-Z]{{0,2}}(?:\.\d{{1,4}}[A-Z]{{0,2}}){{0,{depth}}}\.?(?=\s)"
        )
    else:
        word = bare.split()[0]
        sibling = re.compile(rf"(?m)^[ \t]*{re.escape(word)}\s+\S+")
    out = []
    for m in head.finditer(text, a, b):
        nxt = sibling.search(text, m.end(), b)
        out.append((m.start(), nxt.start() if nxt else b))
    return out


def _resolve(c: AnswerCitation | None, corpus: _Corpus) -> _Resolved:
    if c is None:
        return _Resolved(spans=(), regions=None, notes=(), describe="")
    if c.kind == "finding":
        notes = []
        idx: list[int] = []
        for ref in c.refs:
            # a finding id as review/verify print it; failing that, the proposer's own id ([p1])
            fid = ref if ref in corpus.finding_status else corpus.aliases.get(ref, ref)
            hits = [i for i, v in enumerate(corpus.spans) if v.finding == fid]
            if not hits:
                st = corpus.finding_status.get(fid)
                notes.append(
                    f"[{ref}] is not a finding of this record"
                    if st is None
                    else f"[{ref}] has no verified quote (the finding is {st})"
                )
            idx.extend(hits)
        return _Resolved(spans=tuple(idx), regions=None, notes=tuple(notes), describe=c.text)
    notes = []
    if corpus.document is not None:
        regions: list[Span] = []
        for ref in c.refs:
            r, n = section_regions(corpus.document, ref)
            regions.extend(r)
            notes.extend(n)
        idx = [i for i, v in enumerate(corpus.spans) if any(v.start < b and a < v.end for a, b in regions)]
        return _Resolved(spans=tuple(idx), regions=tuple(regions), notes=tuple(notes), describe=c.text)
    wanted = {_norm_label(r) for r in c.refs}
    idx = [
        i
        for i, v in enumerate(corpus.spans)
        if v.section
        and any(_norm_label(v.section) == w or _norm_label(v.section).startswith(w + ".") for w in wanted)
    ]
    if not idx:
        notes.append(f"{c.text}: no verified quote is labelled with that section (no document to resolve it)")
    return _Resolved(spans=tuple(idx), regions=None, notes=tuple(notes), describe=c.text)


# ── classification ───────────────────────────────────────────────────────────────────────────────
_EDGE_ELLIPSIS = re.compile(
    r"^\s*(?:\[\s*(?:\.\s*){3}\]|\[…\]|…|(?:\.\s?){3})\s*|\s*(?:\[\s*(?:\.\s*){3}\]|\[…\]|…|(?:\.\s?){3})\s*$"
)
_EDGE_PUNCT = ".,;:"


def _core(text: str) -> str:
    """The passage without ellipses at its edges, and without the full stop or comma a writer puts
    inside closing quotation marks."""
    prev = None
    while prev != text:
        prev = text
        text = _EDGE_ELLIPSIS.sub("", text).strip()
        text = text.rstrip(_EDGE_PUNCT).strip()
    return text


_SWAP_NESTED = str.maketrans("'‘’\"“”", "\"“”'‘’")


_BRACKETED_LETTER = re.compile(r"\[([A-Za-z])\]")


def _variants(segment: str) -> list[tuple[str, str | None]]:
    """The segment as written, then the readings a careful writer's conventions allow, each with the
    flag it earns: nested quotes swapped ('…' ↔ "…"); a bracketed letter ("[T]he") read as the
    document's letter in either case; an unbracketed capital first letter read in lower case
    (flagged — the document's word starts in lower case)."""
    base = _BRACKETED_LETTER.sub(r"\1", segment)
    out: list[tuple[str, str | None]] = [(base, None)]
    if base != segment:
        swapped_case = _BRACKETED_LETTER.sub(lambda m: m.group(1).swapcase(), segment)
        out.append((swapped_case, None))
    for text, note in list(out):
        swapped = text.translate(_SWAP_NESTED)
        if swapped != text:
            out.append((swapped, note))
    if segment[:1].isupper() and not segment.startswith("["):
        lowered = segment[0].lower() + segment[1:]
        out.append((lowered, f"first letter capitalised: the document reads '{segment[0].lower()}'"))
    return out


def _locate_noted(corpus: _Corpus, segment: str) -> tuple[list[Span], str | None]:
    for text, note in _variants(segment):
        found = corpus.index.find_exact(text)
        if found:
            return found, note
    return [], None


def _locate(corpus: _Corpus, segment: str) -> list[Span]:
    return _locate_noted(corpus, segment)[0]


@dataclass(slots=True)
class _SegmentOutcome:
    status: PassageStatus
    occurrence: Span | None = None
    span: _Verified | None = None
    matched: list[VerifiedText] = field(default_factory=list)
    should_use: list[VerifiedText] = field(default_factory=list)
    detail: str = ""
    doc_spans: list[Span] = field(default_factory=list)
    note: str | None = None


def _inside(o: Span, v: _Verified) -> bool:
    return v.start <= o[0] and o[1] <= v.end


def _in_regions(o: Span, regions: tuple[Span, ...] | None) -> bool:
    return regions is None or any(a <= o[0] and o[1] <= b for a, b in regions)


def _classify_segment(corpus: _Corpus, segment: str, resolved: _Resolved, cited: bool) -> _SegmentOutcome:
    occ, note = _locate_noted(corpus, segment)
    outcome = _classify_located(corpus, segment, resolved, cited, occ)
    if outcome.occurrence is not None or outcome.doc_spans:
        outcome.note = note
    return outcome


def _classify_located(
    corpus: _Corpus, segment: str, resolved: _Resolved, cited: bool, occ: list[Span]
) -> _SegmentOutcome:
    spans = corpus.spans
    allowed = set(resolved.spans)
    for o in occ:
        for i in allowed:
            v = spans[i]
            if _inside(o, v) and _in_regions(o, resolved.regions):
                return _SegmentOutcome(
                    status=PassageStatus.VERIFIED,
                    occurrence=o,
                    span=v,
                    matched=[corpus.verified_text(v, *o)],
                    doc_spans=[corpus.doc_span(v, *o)],
                )
    inside = [(o, v) for o in occ for v in spans if _inside(o, v)]
    if inside:
        o, v = inside[0]
        others = list(dict.fromkeys(corpus.verified_text(w, *p) for p, w in inside))
        return _SegmentOutcome(
            status=PassageStatus.WRONG_CITATION if cited else PassageStatus.NO_CITATION,
            occurrence=o,
            span=v,
            should_use=others,
            doc_spans=[corpus.doc_span(v, *o)],
        )
    # verified text inside the passage: at least MIN_QUOTE_CHARS of it (one shared word proves nothing)
    overlap = [(o, v) for o in occ for v in spans if min(o[1], v.end) - max(o[0], v.start) >= MIN_QUOTE_CHARS]
    if overlap:
        o, v = max(overlap, key=lambda ov: min(ov[0][1], ov[1].end) - max(ov[0][0], ov[1].start))
        part = corpus.verified_text(v, *o)
        extra = _unverified_words(corpus.text, o, v)
        return _SegmentOutcome(
            status=PassageStatus.LONGER_THAN_VERIFIED,
            occurrence=o,
            span=v,
            should_use=[part],
            detail=f"{extra} was never verified",
            doc_spans=[o],
        )
    ext = _extension(corpus, segment)
    if ext is not None:
        v, part, extra = ext
        return _SegmentOutcome(
            status=PassageStatus.LONGER_THAN_VERIFIED,
            span=v,
            should_use=[part],
            detail=f"the verified quote of [{v.finding}] {extra} was never verified",
        )
    if occ and corpus.document is not None:
        return _SegmentOutcome(
            status=PassageStatus.READ_NOT_VERIFIED,
            occurrence=occ[0],
            should_use=_closest(corpus, segment, resolved),
            doc_spans=list(occ),
        )
    return _SegmentOutcome(status=PassageStatus.NOWHERE, should_use=_closest(corpus, segment, resolved))


def _unverified_words(text: str, o: Span, v: _Verified) -> str:
    parts = []
    if o[0] < v.start:
        parts.append(f"'{_clip(text[o[0] : v.start])}' before it")
    if o[1] > v.end:
        parts.append(f"'{_clip(text[v.end : o[1]])}' after it")
    return f"the passage runs past the verified quote of [{v.finding}]: " + " and ".join(parts)


def _clip(s: str, n: int = 60) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def _word_cuts(segment: str) -> tuple[list[int], list[int]]:
    ends = [m.end() for m in re.finditer(r"\w+", segment)]
    starts = [m.start() for m in re.finditer(r"\w+", segment)]
    return ends, starts


def _extension(corpus: _Corpus, segment: str) -> tuple[_Verified, VerifiedText, str] | None:
    """The segment as a verified quote with words added at either end: its longest prefix that lies
    in a verified quote and reaches that quote's end, or its longest suffix from a quote's start."""
    ends, starts = _word_cuts(segment)

    def inside_any(piece: str) -> list[tuple[Span, _Verified]]:
        if len(piece.strip()) < MIN_QUOTE_CHARS:
            return []
        return [(o, v) for o in _locate(corpus, piece) for v in corpus.spans if _inside(o, v)]

    # prefixes: longer is a larger cut; search the largest cut whose prefix is inside a verified quote
    best_p = _search(ends[:-1], lambda k: inside_any(segment[:k]), largest=True)
    if best_p is not None:
        k, hits = best_p
        for o, v in hits:
            if not corpus.text[o[1] : v.end].strip(" \t\n.,;:"):
                return (
                    v,
                    corpus.verified_text(v, *o),
                    f"ends at '{_clip(segment[:k][-40:])}'; '{_clip(segment[k:])}'",
                )
    best_s = _search(starts[1:], lambda k: inside_any(segment[k:]), largest=False)
    if best_s is not None:
        k, hits = best_s
        for o, v in hits:
            if not corpus.text[v.start : o[0]].strip(" \t\n.,;:"):
                return (
                    v,
                    corpus.verified_text(v, *o),
                    f"starts at '{_clip(segment[k:][:40])}'; '{_clip(segment[:k])}'",
                )
    return None


def _search(cuts: list[int], found: Any, *, largest: bool) -> tuple[int, Any] | None:
    """Binary search over monotone cuts: the largest (or smallest) cut whose piece is found."""
    lo, hi, best = 0, len(cuts) - 1, None
    while lo <= hi:
        mid = (lo + hi) // 2
        hits = found(cuts[mid])
        if hits:
            best = (cuts[mid], hits)
            if largest:
                lo = mid + 1
            else:
                hi = mid - 1
        elif largest:
            hi = mid - 1
        else:
            lo = mid + 1
    return best


def _closest(corpus: _Corpus, segment: str, resolved: _Resolved) -> list[VerifiedText]:
    """The verified text nearest to a passage that is not verified: under its citation first.

    A verified quote up to `WHOLE_QUOTE_CHARS` long is offered whole (what the writer could have
    copied); a longer one is cut to the part that aligns with the passage, widened to whole words.
    """
    pools = [[corpus.spans[i] for i in resolved.spans], corpus.spans]
    for pool in pools:
        best: tuple[float, VerifiedText] | None = None
        for v in pool:
            al = fuzz.partial_ratio_alignment(segment, v.text, score_cutoff=CLOSEST_MIN_SCORE)
            if al is None:
                continue
            if len(v.text) > WHOLE_QUOTE_CHARS and len(segment) <= len(v.text):
                a, b = _widen_to_sentence(corpus.text, v.start + al.dest_start, v.start + al.dest_end, v)
            else:
                a, b = v.start, v.end
            vt = corpus.verified_text(v, a, b)
            if best is None or al.score > best[0]:
                best = (al.score, vt)
        if best is not None:
            return [best[1]]
    return []


def _widen_to_sentence(text: str, a: int, b: int, v: _Verified) -> Span:
    """Widen `[a, b)` to the sentence (or `;`-separated part, or list item) of the verified quote it
    falls in, so a suggestion never starts after a "neither" or stops before an "except"."""
    while a > v.start and not (text[a - 1] in ";\n" or (text[a - 1] == "." and text[a].isspace())):
        a -= 1
    while b < v.end and text[b - 1] not in ";.\n":
        b += 1
    return a, b


# ── the truncation guard ─────────────────────────────────────────────────────────────────────────
def _guard(corpus: _Corpus, o: Span, v: _Verified | None) -> list[str]:
    """Flags for a located passage that stops before an exception or starts after a negation."""
    text = corpus.text
    lo = 0 if corpus.document is not None or v is None else v.start
    hi = len(text) if corpus.document is not None or v is None else v.end
    flags = []
    after = text[o[1] : min(hi, o[1] + 60)]
    after = re.sub(r"^[\s,;:()\-—–]+", "", after).lower()
    for w in EXCEPTIONS:
        if re.match(rf"{re.escape(w)}\b", after):
            flags.append(f"stops right before '{w}'")
            break
    before = text[max(lo, o[0] - 40) : o[0]]
    before = re.split(r"[.;:]", before)[-1]
    words = re.findall(r"[A-Za-z']+", before.lower())[-2:]
    for w in reversed(words):
        if w in NEGATIONS or w.endswith("n't"):
            flags.append(f"starts right after '{w}'")
            break
    return flags


def _gap_flags(text: str, a: int, b: int) -> list[str]:
    gap = text[a:b].lower()
    hits = [w for w in (*NEGATIONS, *EXCEPTIONS) if re.search(rf"\b{re.escape(w)}\b", gap)]
    return [f"the ellipsis leaves out '{hits[0]}'"] if hits else []


# ── the check ────────────────────────────────────────────────────────────────────────────────────
def check_answer(
    answer: str,
    findings: Sequence[Mapping[str, Any]],
    *,
    document: Document | None = None,
    source: str = "findings",
    judge: Judge | None = None,
) -> AnswerCheck:
    """Check every quoted passage of `answer` against the verified record (`findings`, the JSON shape
    `verify`/`review` print), resolving clause references through `document` when given."""
    corpus = _corpus(findings, document, source)
    known = frozenset(str(f.get(k)) for f in findings for k in ("id", "proposal_id") if f.get(k) is not None)
    passages = find_passages(answer)
    masked = blank(answer, [(p.start, p.end) for p in passages])
    citations = find_citations(masked, known_ids=known)
    attributed = attribute(answer, passages, citations)
    checks = [_check_passage(corpus, p, c, src) for p, (c, src) in zip(passages, attributed, strict=True)]
    notes = []
    if document is None:
        notes.append(
            "no document: words outside every verified quote are reported as `nowhere` (not in anything "
            "that could be read); pass --doc to tell `read_not_verified` from `nowhere`"
        )
    claims = _answer_claims(answer, passages, citations, corpus, judge)
    return AnswerCheck(
        passages=tuple(checks),
        claims=tuple(claims),
        document_sha256=document.text_sha256 if document is not None else None,
        document_name=document.name if document is not None else None,
        notes=tuple(notes),
    )


def _check_passage(
    corpus: _Corpus, p: Passage, c: AnswerCitation | None, src: CitationSource | None
) -> PassageCheck:
    resolved = _resolve(c, corpus)
    core = _core(p.text)
    segments = split_ellipsis(core) or [core]
    outcomes = [_classify_segment(corpus, s, resolved, c is not None) for s in segments]
    flags: list[str] = []
    status = next(s for s in _SEVERITY if any(o.status is s for o in outcomes))
    if p.unclosed:
        flags.append("unclosed quotation mark: read to the end of the paragraph")
    located = [o for o in outcomes if o.occurrence is not None]
    if located:
        flags.extend(
            _guard(corpus, located[-1].occurrence or (0, 0), located[-1].span)
            if len(located) == len(outcomes)
            else []
        )
        if len(located) == len(outcomes) and len(located) > 1:
            first = located[0].occurrence
            flags = [f for f in flags if not f.startswith("starts")] + [
                f for f in _guard(corpus, first or (0, 0), located[0].span) if f.startswith("starts")
            ]
            for x, y in itertools.pairwise(located):
                xo, yo = x.occurrence or (0, 0), y.occurrence or (0, 0)
                if yo[0] < xo[1]:
                    status = PassageStatus.NOWHERE
                    break
                flags.extend(_gap_flags(corpus.text, xo[1], yo[0]))
    flags.extend(o.span.note for o in outcomes if o.span is not None and o.span.note)
    flags.extend(o.note for o in outcomes if o.note)
    matched = [m for o in outcomes for m in o.matched]
    should = list(dict.fromkeys(s for o in outcomes for s in o.should_use))
    reason = _reason(status, outcomes, c, resolved, segments)
    doc_spans = tuple(s for o in outcomes for s in o.doc_spans)
    return PassageCheck(
        passage=p,
        citation=c,
        citation_source=src,
        status=status,
        reason=reason,
        flags=tuple(dict.fromkeys(flags)),
        matched=tuple(matched),
        should_use=tuple(should),
        document_spans=doc_spans,
    )


def _reason(
    status: PassageStatus,
    outcomes: Sequence[_SegmentOutcome],
    c: AnswerCitation | None,
    resolved: _Resolved,
    segments: Sequence[str],
) -> str:
    cite = c.text if c else ""
    notes = "; ".join(resolved.notes)
    tail = f" ({notes})" if notes else ""
    worst = (
        next(o for o in outcomes if o.status is status)
        if any(o.status is status for o in outcomes)
        else outcomes[0]
    )
    use = worst.should_use[0].cite() if worst.should_use else ""
    if status is PassageStatus.VERIFIED:
        where = ", ".join(m.cite() for m in worst.matched)
        return f"inside the verified quote of {where}, as cited by {cite}"
    if status is PassageStatus.WRONG_CITATION:
        return f"the words are verified under {use}, not under {cite}{tail}"
    if status is PassageStatus.NO_CITATION:
        return (
            "no citation near it (its sentence, the next or the one before); "
            f"the words are verified under {use}"
        )
    suffix = "" if c else "; and no citation near it"
    if status is PassageStatus.LONGER_THAN_VERIFIED:
        return f"{worst.detail}{suffix}{tail}"
    if status is PassageStatus.READ_NOT_VERIFIED:
        return f"the words are in the document but inside no verified quote{suffix}{tail}"
    if len(segments) > 1 and all(o.status is not PassageStatus.NOWHERE for o in outcomes):
        return f"each part is in the record, but not in the order the ellipsis joins them{suffix}{tail}"
    closest = f"; the closest verified text is {use}" if use else ""
    return f"the words are not in the document{closest}{suffix}{tail}"


def _answer_claims(
    answer: str,
    passages: Sequence[Passage],
    citations: Sequence[AnswerCitation],
    corpus: _Corpus,
    judge: Judge | None,
) -> list[LedgerRow]:
    """Each cited sentence of the answer, split into atomic claims and checked against the verified
    quotes its citations resolve to."""
    rows: list[LedgerRow] = []
    units = sentence_units(answer, passages)
    n = 0
    for a, b in units:
        cites = [c for c in citations if a <= c.start < b]
        if not cites or any(p.kind == "block" and p.outer_start == a for p in passages):
            continue
        n += 1
        text = answer[a:b]
        for c in sorted(cites, key=lambda c: c.start, reverse=True):
            if c.kind == "finding":
                s, e = c.start - a, c.end - a
                text = text[:s] + text[e:]
        for c in sorted(cites, key=lambda c: c.start, reverse=True):
            if c.kind == "clause":
                m = re.search(r"\(\s*" + re.escape(c.text) + r"\s*\)", text)
                if m:
                    text = text[: m.start()] + text[m.end() :]
        text = re.sub(r"…|\.\.\.", " ", text)
        text = re.sub(r"\s+([.,;:])", r"\1", re.sub(r"[ \t]{2,}", " ", text)).strip()
        text = re.sub(r"[“”„«»\"]", "", text)  # the claim is the words; apostrophes stay
        idx: list[int] = []
        for c in cites:
            idx.extend(_resolve(c, corpus).spans)
        cited = [
            CitedPassage(
                finding=corpus.spans[i].finding,
                start=corpus.spans[i].doc_start,
                end=corpus.spans[i].doc_end,
                text=corpus.spans[i].text,
                section=corpus.spans[i].section,
            )
            for i in dict.fromkeys(idx)
        ]
        if not has_content(text):
            continue  # a lead-in ("Clause 11.2 provides:") claims nothing of its own
        reason = None if cited else "its citations resolve to no verified quote"
        rows.extend(
            ledger_rows(
                text,
                cited,
                source=f"A{n}",
                authority="contract" if cited else "none",
                judge=judge,
                unverifiable_reason=reason,
            )
        )
    return rows


__all__ = [
    "EXCEPTIONS",
    "NEGATIONS",
    "AnswerCheck",
    "AnswerCitation",
    "FindingsError",
    "Passage",
    "PassageCheck",
    "PassageStatus",
    "VerifiedText",
    "attribute",
    "check_answer",
    "find_citations",
    "find_passages",
    "parse_findings",
    "section_regions",
]
