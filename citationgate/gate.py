"""The gate: a finding surfaces only if one of its quotes is in the document, at real offsets.

`gate(document, proposals)` checks every citation of every proposal against the document version's
normalized index (`index_for`, cached by text hash) and returns findings plus one audit event per
decision. For each citation, in order:

1. **too short** (< `MIN_QUOTE_CHARS` characters once whitespace is collapsed) → `rejected`;
2. **ellipsis** ("…", "...", "[...]"): each segment must be found exactly, in order, inside one
   section and within `ELLIPSIS_MAX_SPAN` characters; the quote is the document's text from the first
   segment to the last, with the gaps shown, and a gap holding a negation or exception is flagged;
3. **exact** (whitespace-flexible, typographic-tolerant, case-sensitive): every occurrence is
   reported; a hint (section, page, near) picks one, otherwise the citation is `ambiguous`;
4. **fuzzy** (only when `fuzzy=True`, for long quotes; see `citationgate.locate`) → `verified` with
   match `fuzzy`, or `failed` when the meaning guard refuses, or `unverifiable` past the time bound;
5. otherwise `failed`.

Flags (supervision raised, status kept): a quote that stops right before "except / unless /
provided that / subject to / notwithstanding", that follows a negation it leaves out, that starts or
ends inside a word, or whose hint pointed elsewhere.

A finding with no citation is rejected (absence proposals aside). A finding survives if at least
one citation is verified or ambiguous. Its status is `verified` when it has a clean exact citation
(supervision `standard`), `needs_review` when its evidence is only fuzzy, ambiguous, flagged or an
absence (supervision `elevated`, or `high` for absences), and `rejected` otherwise.
"""

from __future__ import annotations

import itertools
import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from citationgate.audit import AuditEvent
from citationgate.errors import WithheldDocumentError
from citationgate.locate import (
    FUZZY_MIN_SIMILARITY,
    FUZZY_MIN_WORDS,
    FUZZY_TIME_LIMIT_S,
    NEGATIONS,
    QuoteIndex,
    Span,
    has_ellipsis,
    split_ellipsis,
)
from citationgate.model import (
    MIN_QUOTE_CHARS,
    CitationRequest,
    CitationResult,
    CitationStatus,
    Evidence,
    Finding,
    FindingStatus,
    MatchType,
    Proposal,
    Supervision,
    VerifiedQuote,
)
from citationgate.normalize import normalize_quote, normalize_quotes
from ingest.document import Document

#: An ellipsis quote's segments must all fall within this many characters of the first one.
ELLIPSIS_MAX_SPAN = 3000
#: At most this many occurrences are listed per citation (the count is always given).
MAX_OCCURRENCES = 100
#: Document versions whose index is kept in memory.
INDEX_CACHE_SIZE = 8

#: Thresholds recorded with every audit event, so a decision can be re-read later.
THRESHOLDS: Mapping[str, Any] = {
    "min_quote_chars": MIN_QUOTE_CHARS,
    "fuzzy_min_words": FUZZY_MIN_WORDS,
    "fuzzy_min_similarity": FUZZY_MIN_SIMILARITY,
    "fuzzy_time_limit_ms": int(FUZZY_TIME_LIMIT_S * 1000),
    "ellipsis_max_span": ELLIPSIS_MAX_SPAN,
}

_EXCEPTION_AFTER = re.compile(
    r"^[\s,;:(\-–—]*(except|unless|provided\s+(?:that|however)|subject\s+to|notwithstanding|"
    r"other\s+than|save\s+(?:as|for|that)|excluding|but\s+not)\b",
    re.IGNORECASE,
)
_GAP_WORDS = re.compile(
    r"\b(not|no|never|without|except|unless|notwithstanding|provided\s+that|subject\s+to|"
    r"other\s+than|excluding|nor|neither|cannot)\b|n't\b",
    re.IGNORECASE,
)
_PREV_WORD = re.compile(r"([A-Za-z']+)\W*$")


@dataclass(frozen=True, slots=True, kw_only=True)
class GateResult:
    """Findings for one document version, and the audit events that record each decision."""

    document_sha256: str
    findings: tuple[Finding, ...]
    audit: tuple[AuditEvent, ...]

    @property
    def rejected(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.status is FindingStatus.REJECTED)

    @property
    def surviving(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.status is not FindingStatus.REJECTED)


_CACHE: OrderedDict[str, QuoteIndex] = OrderedDict()


def index_for(document: Document) -> QuoteIndex:
    """The normalized index of a document version, built once and cached by its text hash."""
    key = document.text_sha256
    index = _CACHE.get(key)
    if index is None:
        index = QuoteIndex(document.text)
        _CACHE[key] = index
        while len(_CACHE) > INDEX_CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return index


def gate(
    document: Document,
    proposals: Sequence[Proposal],
    *,
    fuzzy: bool = True,
    actor: str | None = None,
) -> GateResult:
    """Verify every proposal's citations against `document`; see the module docstring.

    `fuzzy=False` is exact-only (re-verification). Raises `WithheldDocumentError` for a withheld
    document: nothing — no quote finding and no absence finding — is verified against it.
    """
    if not document.ready:
        why = "; ".join(document.reasons) or "not read whole"
        absence = (
            " (an absence finding against it would report the parser's silence)"
            if any(p.absence is not None for p in proposals)
            else ""
        )
        raise WithheldDocumentError(
            f"{document.name}: the document is withheld ({why}); nothing is verified against it{absence}"
        )
    index = index_for(document)
    checker = _Checker(document, index, fuzzy=fuzzy)
    # Every quote normalized once, and one batched exact pass for all of them (an ellipsis may be literal).
    checker.prime([c.quote for p in proposals for c in p.citations])

    findings: list[Finding] = []
    events: list[AuditEvent] = []
    for n, proposal in enumerate(proposals, start=1):
        finding_id = f"F{n}"
        who = actor or proposal.proposer
        base = {"proposal_id": proposal.id, "finding_id": finding_id, "thresholds": dict(THRESHOLDS)}
        if proposal.absence is not None:
            finding = _absence_finding(finding_id, proposal)
            events.append(
                AuditEvent(
                    action="absence",
                    result="passed",
                    actor=who,
                    document_sha256=document.text_sha256,
                    rule=proposal.rule,
                    reason=finding.reason,
                    payload={**base, "absence": proposal.absence.to_dict()},
                )
            )
            findings.append(finding)
            continue
        results: list[CitationResult] = []
        for i, request in enumerate(proposal.citations):
            result = checker.check(request)
            results.append(result)
            q = result.quote
            events.append(
                AuditEvent(
                    action="citation",
                    result=result.status.value,
                    actor=who,
                    document_sha256=document.text_sha256,
                    rule=proposal.rule,
                    reason=result.reason,
                    payload={
                        **base,
                        "citation_index": i,
                        "citation": request.to_dict(),
                        "match": q.match.value if q else None,
                        "start": q.start if q else None,
                        "end": q.end if q else None,
                        "similarity": round(q.similarity, 4) if q else None,
                        "occurrences": len(result.occurrences),
                        "flags": list(result.flags),
                    },
                )
            )
        finding = _quote_finding(finding_id, proposal, tuple(results))
        findings.append(finding)
        events.append(
            AuditEvent(
                action="finding",
                result=finding.status.value,
                actor=who,
                document_sha256=document.text_sha256,
                rule=proposal.rule,
                reason=finding.reason,
                payload={
                    **base,
                    "evidence": finding.evidence.value,
                    "supervision": finding.supervision.value,
                    "citations": len(results),
                },
            )
        )
    return GateResult(document_sha256=document.text_sha256, findings=tuple(findings), audit=tuple(events))


# ── findings ─────────────────────────────────────────────────────────────────────────────────────
def _absence_finding(finding_id: str, proposal: Proposal) -> Finding:
    assert proposal.absence is not None
    searched = ", ".join(proposal.absence.searched) or "nothing stated"
    return Finding(
        id=finding_id,
        proposal=proposal,
        status=FindingStatus.NEEDS_REVIEW,
        evidence=Evidence.ABSENCE,
        supervision=Supervision.HIGH,
        citations=(),
        reason=(
            "absence finding: not quote-verified; it reports that "
            f"'{proposal.absence.requirement}' was searched for ({searched}) and not found"
        ),
    )


def _quote_finding(finding_id: str, proposal: Proposal, results: tuple[CitationResult, ...]) -> Finding:
    def make(status: FindingStatus, supervision: Supervision, reason: str) -> Finding:
        return Finding(
            id=finding_id,
            proposal=proposal,
            status=status,
            evidence=Evidence.QUOTE,
            supervision=supervision,
            citations=results,
            reason=reason,
        )

    if not results:
        return make(
            FindingStatus.REJECTED,
            Supervision.STANDARD,
            "no citation: a finding must quote the document (only absence findings may omit quotes)",
        )
    clean = [
        r
        for r in results
        if r.status is CitationStatus.VERIFIED
        and r.quote is not None
        and r.quote.match is MatchType.EXACT
        and not r.flags
    ]
    surviving = [r for r in results if r.status in (CitationStatus.VERIFIED, CitationStatus.AMBIGUOUS)]
    total = len(results)
    if clean:
        return make(
            FindingStatus.VERIFIED,
            Supervision.STANDARD,
            f"{len(surviving)} of {total} citations verified; at least one exact and unambiguous",
        )
    if surviving:
        kinds = sorted(
            {
                "ambiguous"
                if r.status is CitationStatus.AMBIGUOUS
                else "fuzzy"
                if r.quote is not None and r.quote.match is MatchType.FUZZY
                else "flagged"
                for r in surviving
            }
        )
        return make(
            FindingStatus.NEEDS_REVIEW,
            Supervision.ELEVATED,
            f"{len(surviving)} of {total} citations located, but only with {' / '.join(kinds)} evidence",
        )
    return make(
        FindingStatus.REJECTED,
        Supervision.STANDARD,
        f"none of its {total} citations was found in the document",
    )


# ── citations ────────────────────────────────────────────────────────────────────────────────────
class _Checker:
    def __init__(self, document: Document, index: QuoteIndex, *, fuzzy: bool) -> None:
        self.document = document
        self.index = index
        self.fuzzy = fuzzy
        self._exact: dict[str, list[Span]] = {}
        self._needles: dict[str, str] = {}  # quote → normalize_quote(quote), computed once
        self._case_only: dict[str, bool] | None = None  # failed quote → found once case is ignored
        self._fuzzy_prepared = False

    def prime(self, quotes: Sequence[str]) -> None:
        """Normalize every quote (one vectorized pass) and search the long enough ones in one batch."""
        unique = list(dict.fromkeys(quotes))
        self._needles.update(zip(unique, normalize_quotes(unique), strict=True))
        long = [q for q in unique if len(self._needles[q]) >= MIN_QUOTE_CHARS]
        needles = [self._needles[q] for q in long]
        for quote, spans in zip(long, self.index.find_exact_many(long, needles=needles), strict=True):
            self._exact[quote] = spans

    def needle(self, quote: str) -> str:
        if quote not in self._needles:
            self._needles[quote] = normalize_quote(quote)
        return self._needles[quote]

    def exact(self, quote: str) -> list[Span]:
        if quote not in self._exact:
            self._exact[quote] = self.index.find_exact(quote)
        return self._exact[quote]

    def differs_only_in_case(self, quote: str) -> bool:
        """Asked of each quote not found verbatim: the first time, answered for all of them at once."""
        if self._case_only is None:
            failed = [q for q, spans in self._exact.items() if not spans]
            found = self.index.differ_only_in_case([self.needle(q) for q in failed])
            self._case_only = dict(zip(failed, found, strict=True))
        if quote not in self._case_only:
            self._case_only[quote] = self.index.differ_only_in_case([self.needle(quote)])[0]
        return self._case_only[quote]

    def check(self, request: CitationRequest) -> CitationResult:
        quote = request.quote
        size = len(self.needle(quote))
        if size < MIN_QUOTE_CHARS:
            return CitationResult(
                request=request,
                status=CitationStatus.REJECTED,
                reason=(
                    f"quote is {size} characters; at least {MIN_QUOTE_CHARS} are needed "
                    "(a short phrase matches everywhere and proves nothing)"
                ),
            )
        if has_ellipsis(quote) and not self.exact(quote):  # a literal "..." in the text is verbatim
            segments = split_ellipsis(quote)
            if len(segments) >= 2:
                return self._segments(request, segments)
            if not segments:
                return CitationResult(
                    request=request, status=CitationStatus.REJECTED, reason="quote is only an ellipsis"
                )
            quote = segments[0]  # an ellipsis at an edge marks a cut there, not a splice
        spans = self.exact(quote)
        if spans:
            return self._choose(request, spans, MatchType.EXACT, 1.0, "found verbatim")
        return self._not_exact(request, quote)

    def _not_exact(self, request: CitationRequest, quote: str) -> CitationResult:
        base = (
            "not found verbatim in the document (whitespace-flexible, typographic-tolerant, case-sensitive)"
        )
        if self.differs_only_in_case(quote):
            base += "; the same words occur with different capitalisation, which is not folded"
        if not self.fuzzy:
            return CitationResult(
                request=request, status=CitationStatus.FAILED, reason=base + "; exact-only check"
            )
        if not self._fuzzy_prepared:  # the first quote to search: the shingles of all of them in one pass
            self._fuzzy_prepared = True
            self.index.prepare_fuzzy([self.needle(q) for q, spans in self._exact.items() if not spans])
        outcome = self.index.find_fuzzy(quote, needle=self.needle(quote))
        if outcome.kind == "match" and outcome.span is not None:
            return self._choose(
                request,
                [outcome.span],
                MatchType.FUZZY,
                outcome.similarity,
                f"fuzzy: {outcome.reason}",
            )
        if outcome.kind == "timeout":
            return CitationResult(
                request=request, status=CitationStatus.UNVERIFIABLE, reason=f"{base}; {outcome.reason}"
            )
        where = ""
        if outcome.span is not None:
            a, b = outcome.span
            where = f" (closest passage at [{a}, {b}))"
        return CitationResult(
            request=request, status=CitationStatus.FAILED, reason=f"{base}; fuzzy: {outcome.reason}{where}"
        )

    # ── occurrences and hints ────────────────────────────────────────────────────────────────
    def _choose(
        self,
        request: CitationRequest,
        spans: Sequence[Span],
        match: MatchType,
        similarity: float,
        how: str,
        *,
        segments_of: Mapping[Span, tuple[Span, ...]] | None = None,
        extra_flags: Mapping[Span, tuple[str, ...]] | None = None,
    ) -> CitationResult:
        doc = self.document

        def quote_at(span: Span) -> VerifiedQuote:
            return VerifiedQuote.at(
                doc,
                span[0],
                span[1],
                match=match,
                similarity=similarity,
                segments=(segments_of or {}).get(span, ()),
            )

        listed = spans[:MAX_OCCURRENCES]
        occurrences = tuple(quote_at(s) for s in listed) if len(spans) > 1 else ()
        count = f"{len(spans)} occurrences" + (
            f" (first {MAX_OCCURRENCES} listed)" if len(spans) > MAX_OCCURRENCES else ""
        )
        chosen, hint_note = self._pick(request, spans)
        if chosen is None:
            return CitationResult(
                request=request,
                status=CitationStatus.AMBIGUOUS,
                reason=f"{how}, but at {count}{hint_note}; pinpoint ambiguous",
                occurrences=occurrences,
            )
        quote = quote_at(chosen)
        flags = list(self._flags(chosen, quote.segments))
        flags.extend((extra_flags or {}).get(chosen, ()))
        if hint_note:
            flags.append(hint_note.strip("; "))
        where = f"at [{chosen[0]}, {chosen[1]})"
        if len(spans) > 1:
            where += f", chosen by the hint among {count}"
        return CitationResult(
            request=request,
            status=CitationStatus.VERIFIED,
            reason=f"{how} {where}",
            quote=quote,
            occurrences=occurrences,
            flags=tuple(flags),
        )

    def _pick(self, request: CitationRequest, spans: Sequence[Span]) -> tuple[Span | None, str]:
        """The occurrence the hint points to; with one occurrence, that one (noting a wrong hint)."""
        doc = self.document
        candidates = list(spans)
        if request.section is not None:
            want = _label_key(request.section)
            candidates = [s for s in candidates if want in self._section_keys(s)]
        if request.page is not None:
            candidates = [s for s in candidates if doc.page_of(s[0]) == request.page]
        if request.near is not None and len(candidates) > 1:
            near = request.near
            distances = sorted((abs(s[0] - near), s) for s in candidates)
            if distances[0][0] != distances[1][0]:
                candidates = [distances[0][1]]
        if len(candidates) == 1:
            return candidates[0], ""
        hinted = request.section is not None or request.page is not None or request.near is not None
        if len(spans) == 1:
            note = "; the hint does not match where it was found" if hinted else ""
            return spans[0], note
        if hinted and not candidates:
            return None, "; the hint matches none of them"
        if hinted:
            return None, f"; the hint leaves {len(candidates)}"
        return None, ""

    def _section_keys(self, span: Span) -> set[str]:
        keys = set()
        for s in self.document.sections_containing(span[0], span[1]):
            keys.add(_label_key(s.label))
            if s.heading:
                keys.add(_label_key(s.heading))
        inner = self.document.section_at(span[0])
        if inner is not None:
            keys.add(_label_key(inner.label))
            if inner.heading:
                keys.add(_label_key(inner.heading))
        return keys

    # ── flags ────────────────────────────────────────────────────────────────────────────────
    def _flags(self, span: Span, segments: tuple[Span, ...]) -> list[str]:
        text = self.document.text
        start, end = span
        flags: list[str] = []
        after = _EXCEPTION_AFTER.match(text[end : end + 60])
        if after:
            flags.append(
                f"stops right before '{' '.join(after.group(1).split())}' (truncated out of context?)"
            )
        before = _PREV_WORD.search(text[max(0, start - 40) : start])
        if before and (before.group(1).lower() in NEGATIONS or before.group(1).lower().endswith("n't")):
            flags.append(f"follows '{before.group(1)}', which the quote leaves out")
        if start > 0 and text[start - 1].isalnum() and text[start].isalnum():
            flags.append("starts inside a word")
        if end < len(text) and text[end - 1].isalnum() and text[end].isalnum():
            flags.append("ends inside a word")
        return flags

    # ── ellipsis ─────────────────────────────────────────────────────────────────────────────
    def _segments(self, request: CitationRequest, segments: list[str]) -> CitationResult:
        short = [s for s in segments if len(normalize_quote(s)) < MIN_QUOTE_CHARS]
        if short:
            return CitationResult(
                request=request,
                status=CitationStatus.REJECTED,
                reason=(
                    f"ellipsis segment '{short[0]}' is under {MIN_QUOTE_CHARS} characters; each piece "
                    "of an elided quote must be long enough to prove something"
                ),
            )
        chains = self.index.find_segments(segments)
        if not chains:
            missing = [s for s in segments if not self.exact(s)]
            why = (
                f"segment '{missing[0]}' is not in the document"
                if missing
                else "its segments do not occur in this order"
            )
            return CitationResult(
                request=request,
                status=CitationStatus.FAILED,
                reason=f"ellipsis quote of {len(segments)} segments: {why} (a splice is not a quote)",
            )
        valid: dict[Span, tuple[Span, ...]] = {}
        for chain in chains:
            start, end = chain[0][0], chain[-1][1]
            if end - start > ELLIPSIS_MAX_SPAN or not self._one_section(start, end):
                continue
            valid[(start, end)] = chain
        if not valid:
            return CitationResult(
                request=request,
                status=CitationStatus.FAILED,
                reason=(
                    f"ellipsis quote of {len(segments)} segments: the segments occur in order only across "
                    f"sections or more than {ELLIPSIS_MAX_SPAN} characters apart (a splice is not a quote)"
                ),
            )
        flags: dict[Span, tuple[str, ...]] = {}
        text = self.document.text
        for span, chain in valid.items():
            gaps = [text[a[1] : b[0]] for a, b in itertools.pairwise(chain)]
            omitted = sum(len(g) for g in gaps)
            notes = [f"elided quote: {len(chain)} segments, {omitted} characters omitted (shown in the text)"]
            words = sorted(
                {" ".join(m.group(0).lower().split()) for g in gaps for m in _GAP_WORDS.finditer(g)}
            )
            if words:
                notes.append(f"the omitted text contains {', '.join(repr(w) for w in words)}")
            flags[span] = tuple(notes)
        return self._choose(
            request,
            sorted(valid),
            MatchType.EXACT,
            1.0,
            f"found as {len(segments)} verbatim segments in order",
            segments_of=valid,
            extra_flags=flags,
        )

    def _one_section(self, start: int, end: int) -> bool:
        doc = self.document
        if not doc.sections:
            return True
        inner = doc.section_at(start)
        return inner is None or end <= inner.end


def _label_key(label: str) -> str:
    """A section label or heading for comparison: 'Section 11.2.' → '11.2', 'ARTICLE V' → 'v'."""
    key = " ".join(label.lower().split()).strip(" .:")
    for prefix in ("section ", "clause ", "article ", "§ ", "§"):
        if key.startswith(prefix):
            key = key[len(prefix) :].strip()
    return key.strip("() .")


__all__ = ["THRESHOLDS", "GateResult", "gate", "index_for"]
