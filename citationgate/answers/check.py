"""The check: every quoted passage of an answer judged, and whether the whole answer must be withheld."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from citationgate.answers.record import (
    _Corpus,
    _corpus,
    _resolve,
    _Resolved,
)
from citationgate.answers.records import (
    _SEVERITY,
    AnswerCheck,
    PassageCheck,
    PassageStatus,
)
from citationgate.answers.segments import (
    _classify_segment,
    _core,
    _gap_flags,
    _guard,
    _SegmentOutcome,
)
from citationgate.ledger import (
    CitedPassage,
    Judge,
    LedgerRow,
    has_content,
    ledger_rows,
)
from citationgate.locate import split_ellipsis
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
