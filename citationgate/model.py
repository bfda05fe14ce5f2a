"""The gate's values: what a proposer asks, and what the gate found.

A proposal's quote (`CitationRequest.quote`) and a verified quote (`VerifiedQuote`) are different
types. A `VerifiedQuote` can only be made by `VerifiedQuote.at(document, start, end, …)`, which takes
its text from the document — so `document.text[q.start:q.end] == q.text` holds by construction, and
what appears in quotation marks is always the document's own text, never the proposer's wording.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ingest.document import Document

#: Quotes shorter than this prove nothing ("the cap" matches everywhere).
MIN_QUOTE_CHARS = 10


class CitationStatus(StrEnum):
    VERIFIED = "verified"  # found, one occurrence chosen
    AMBIGUOUS = "ambiguous"  # found more than once and nothing chose between them
    FAILED = "failed"  # not in the document
    REJECTED = "rejected"  # refused before searching (too short, empty)
    UNVERIFIABLE = "unverifiable"  # the search could not finish within its bound


class MatchType(StrEnum):
    EXACT = "exact"  # whitespace-flexible, typographic-tolerant, case-sensitive
    FUZZY = "fuzzy"  # first verification only; never where the differing words carry meaning


class FindingStatus(StrEnum):
    VERIFIED = "verified"
    REJECTED = "rejected"
    NEEDS_REVIEW = "needs_review"


class Evidence(StrEnum):
    QUOTE = "quote"
    ABSENCE = "absence"


class Supervision(StrEnum):
    STANDARD = "standard"
    ELEVATED = "elevated"  # fuzzy or ambiguous evidence
    HIGH = "high"  # absence findings: not quote-verified


@dataclass(frozen=True, slots=True, kw_only=True)
class CitationRequest:
    """A quote a proposer says is in the document, with an optional hint to pick an occurrence."""

    quote: str
    section: str | None = None  # a section label, e.g. "11.2"
    page: int | None = None
    near: int | None = None  # an approximate character offset

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"quote": self.quote}
        for k in ("section", "page", "near"):
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        return d


@dataclass(frozen=True, slots=True, kw_only=True)
class AbsenceEvidence:
    """What a proposer searched for, and where, before saying a required clause is absent."""

    requirement: str
    searched: tuple[str, ...]
    coverage: tuple[str, ...] = ()  # parts of the document covered: body, tables, schedules, footnotes…

    def to_dict(self) -> dict[str, Any]:
        return {
            "requirement": self.requirement,
            "searched": list(self.searched),
            "coverage": list(self.coverage),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Proposal:
    """A claim about the contract and the quotes that show it (or, for an absence, what was searched).

    `details` carries proposer-specific fields the gate passes through untouched (a playbook's
    outcome, title, extracted values…). The gate trusts none of it.
    """

    id: str
    claim: str
    citations: tuple[CitationRequest, ...] = ()
    absence: AbsenceEvidence | None = None
    rule: str | None = None
    severity: str | None = None
    proposer: str = "outside-agent"
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class VerifiedQuote:
    """Text of the document at `[start, end)`, with where it sits. Only `at()` makes one."""

    start: int
    end: int
    text: str
    match: MatchType
    similarity: float
    section: str | None
    page: int | None
    prefix: str
    suffix: str
    utf16_start: int
    utf16_end: int
    #: For a quote that marked omissions with an ellipsis: the verbatim pieces, in order, inside
    #: `[start, end)`; the text between them is the omitted gap (shown, never hidden).
    segments: tuple[tuple[int, int], ...] = ()

    @classmethod
    def at(
        cls,
        document: Document,
        start: int,
        end: int,
        *,
        match: MatchType = MatchType.EXACT,
        similarity: float = 1.0,
        context: int = 40,
        segments: tuple[tuple[int, int], ...] = (),
    ) -> VerifiedQuote:
        text = document.text
        if not (0 <= start < end <= len(text)):
            raise ValueError(f"span [{start}, {end}) is outside the text (length {len(text)})")
        if segments and not all(start <= a < b <= end for a, b in segments):
            raise ValueError(f"segments {segments} are not inside [{start}, {end})")
        section = document.section_at(start)
        return cls(
            start=start,
            end=end,
            text=text[start:end],
            match=match,
            similarity=similarity,
            section=section.label if section else None,
            page=document.page_of(start),
            prefix=text[max(0, start - context) : start],
            suffix=text[end : end + context],
            utf16_start=document.utf16_offset(start),
            utf16_end=document.utf16_offset(end),
            segments=tuple(segments),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "end": self.end,
            "utf16_start": self.utf16_start,
            "utf16_end": self.utf16_end,
            "text": self.text,
            "match": self.match.value,
            "similarity": round(self.similarity, 4),
            "section": self.section,
            "page": self.page,
            "prefix": self.prefix,
            "suffix": self.suffix,
            "segments": [list(seg) for seg in self.segments],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class CitationResult:
    """The gate's answer for one citation: a status, a reason, and the located quote if any."""

    request: CitationRequest
    status: CitationStatus
    reason: str
    quote: VerifiedQuote | None = None  # the chosen occurrence (verified) or None
    occurrences: tuple[VerifiedQuote, ...] = ()  # every place the quote was found
    flags: tuple[str, ...] = ()  # e.g. "stops before 'except'"; raise supervision, do not fail

    @property
    def verified(self) -> bool:
        return self.status is CitationStatus.VERIFIED

    def to_dict(self) -> dict[str, Any]:
        q = self.quote
        return {
            "quote": self.request.quote,
            "hint": {k: v for k, v in self.request.to_dict().items() if k != "quote"},
            "status": self.status.value,
            "match": q.match.value if q else None,
            "similarity": round(q.similarity, 4) if q else None,
            "start": q.start if q else None,
            "end": q.end if q else None,
            "utf16_start": q.utf16_start if q else None,
            "utf16_end": q.utf16_end if q else None,
            "text": q.text if q else None,
            "section": q.section if q else None,
            "page": q.page if q else None,
            "prefix": q.prefix if q else None,
            "suffix": q.suffix if q else None,
            "occurrences": [
                {"start": o.start, "end": o.end, "section": o.section, "page": o.page}
                for o in self.occurrences
            ],
            "segments": [list(seg) for seg in q.segments] if q else [],
            "flags": list(self.flags),
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """A proposal after the gate: it surfaces only if `status` is not REJECTED."""

    id: str
    proposal: Proposal
    status: FindingStatus
    evidence: Evidence
    supervision: Supervision
    citations: tuple[CitationResult, ...]
    reason: str

    @property
    def verified_quotes(self) -> tuple[VerifiedQuote, ...]:
        return tuple(c.quote for c in self.citations if c.verified and c.quote is not None)

    def to_dict(self) -> dict[str, Any]:
        p = self.proposal
        d: dict[str, Any] = {
            "id": self.id,
            "proposal_id": p.id,
            "status": self.status.value,
            "evidence": self.evidence.value,
            "supervision": self.supervision.value,
            "claim": p.claim,
            "rule": p.rule,
            "severity": p.severity,
            "proposer": p.proposer,
            "reason": self.reason,
            "citations": [c.to_dict() for c in self.citations],
        }
        if p.absence is not None:
            d["searched"] = p.absence.to_dict()
            d["quote_verified"] = False
            d["disclosure"] = (
                "Absence finding: not quote-verified; it reports what was searched and not found."
            )
        for k, v in p.details.items():
            d.setdefault(k, v)
        return d
