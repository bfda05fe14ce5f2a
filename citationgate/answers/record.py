"""The verified record an answer is checked against (the findings' verified quotes, with the document
where it is stored), and the citations in the answer resolved to it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from citationgate.answers.records import (
    FindingsError,
    Span,
    VerifiedText,
)
from citationgate.locate import QuoteIndex
from citationgate.quotations import (
    AnswerCitation,
)
from ingest.document import Document


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
