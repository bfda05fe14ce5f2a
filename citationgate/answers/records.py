"""The values an answer check reports, and the findings it reads (untrusted JSON, parsed strictly)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from citationgate.ledger import (
    LedgerRow,
)
from citationgate.quotations import (
    AnswerCitation,
    CitationSource,
    Passage,
)
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
