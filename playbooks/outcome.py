"""The plain values the playbook engine returns: what it judged, why, and the exact text it relied on.

These are proposals, not findings: `citationgate` turns each into a proposal and the gate decides what
surfaces. Every `QuoteRef` and `ExtractedValue` satisfies `document.text[start:end] == text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from playbooks.locator.fusion import Location

__all__ = ["ClauseOutcome", "ExtractedValue", "PlaybookTestResult", "QuoteRef", "SearchRecord"]


@dataclass(frozen=True, slots=True, kw_only=True)
class QuoteRef:
    """A passage copied from the document: `text == document.text[start:end]`; `section` is its label."""

    text: str
    start: int
    end: int
    section: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "start": self.start, "end": self.end, "section": self.section}


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtractedValue:
    """A typed value and the span of document text it was parsed from."""

    value: Any  # JSON-able: number, string, bool, list of strings, or {"amount", "currency"}
    text: str
    start: int
    end: int

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "text": self.text, "start": self.start, "end": self.end}


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchRecord:
    """What was searched before saying a clause is absent (or only referenced)."""

    requirement: str
    queries: tuple[str, ...]
    coverage: tuple[str, ...]  # parts of the document the search covered: body, tables, schedules, footnotes…
    complete: bool  # False: the document was not read whole, so no absence may be concluded

    def to_dict(self) -> dict[str, Any]:
        return {
            "requirement": self.requirement,
            "queries": list(self.queries),
            "coverage": list(self.coverage),
            "complete": self.complete,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ClauseOutcome:
    """One judgment of one clause type (or cross-clause / document-wide check) against the playbook."""

    rule: str
    title: str
    outcome: str  # standard|fallback|unacceptable|missing|referenced_not_provided|needs_review|not_applicable
    severity: str  # info|low|medium|high|critical
    claim: str
    quotes: tuple[QuoteRef, ...] = ()
    extracted: Mapping[str, ExtractedValue] = field(default_factory=dict)
    searched: SearchRecord | None = None
    guidance: str = ""
    model_language: str = ""
    reason: str = ""
    approval: str | None = None
    #: the links of the judgement that do not hold (roles unresolved, a value read as a default, a clause
    #: found by its heading only): each one a sentence. Empty: every link holds.
    weak: tuple[str, ...] = ()
    location: Location | None = None  # how the clause was located (rules and locator), when a locator ran

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "title": self.title,
            "outcome": self.outcome,
            "severity": self.severity,
            "claim": self.claim,
            "quotes": [q.to_dict() for q in self.quotes],
            "extracted": {k: v.to_dict() for k, v in self.extracted.items()},
            "searched": self.searched.to_dict() if self.searched else None,
            "guidance": self.guidance,
            "model_language": self.model_language,
            "reason": self.reason,
            "approval": self.approval,
            "location": self.location.to_dict() if self.location else None,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaybookTestResult:
    """One embedded playbook test: clause text → the outcome expected for a rule, and what we got."""

    name: str
    passed: bool
    expected: str
    got: str
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "passed": self.passed,
            "expected": self.expected,
            "got": self.got,
            "detail": self.detail,
        }
