"""What re-verification reads and reports: the earlier findings (parsed strictly), the statuses, and
the outcome of each citation and finding."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError

from citationgate.align import WordEdit
from citationgate.audit import AuditEvent
from citationgate.model import VerifiedQuote
from citationgate.untrusted import json_type
from ingest.errors import CitationGateError

VERIFIED = "verified"
MOVED = "moved"
CONTEXT_CHANGED = "context_changed"
STALE = "stale"
RESOLVED = "resolved"
OPEN = "open"

#: A clause longer than this is too coarse a context: the quote's own paragraph is used instead.
MAX_CONTEXT_CHARS = 4000
#: Words of a stale quote looked up to find what it became, rarest first (without the old text).
RARE_WORDS = 8
#: ... skipping words found in more paragraphs than this (unless nothing rarer is left).
COMMON_WORD_UNITS = 200
#: Edits named in a context_changed reason (nearest first).
EDITS_SHOWN = 3

_ACTOR = "reverify"
#: Fields of an earlier finding kept on its reverify record (not `extracted`: old-version offsets).
_CARRIED = (
    "proposal_id",
    "proposer",
    "title",
    "outcome",
    "guidance",
    "searched",
    "quote_verified",
    "disclosure",
)


class FindingsError(CitationGateError):
    """Findings JSON that does not match the shape `verify` and `review` emit."""

    exit_code = 4


# ── the findings JSON (untrusted input in --findings mode) ─────────────────────────────────────
class _Occurrence(BaseModel):
    model_config = ConfigDict(extra="allow")
    start: StrictInt
    end: StrictInt


class _Citation(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: StrictStr
    quote: StrictStr | None = None
    text: StrictStr | None = None
    start: StrictInt | None = None
    end: StrictInt | None = None
    section: StrictStr | None = None
    prefix: StrictStr | None = None
    suffix: StrictStr | None = None
    occurrences: list[_Occurrence] = []


class _Finding(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: StrictStr
    status: StrictStr
    evidence: StrictStr = "quote"
    citations: list[_Citation] = []


def parse_findings(data: object, *, source: str = "findings") -> list[dict[str, Any]]:
    """Validate the JSON `verify` or `review` emitted ({"findings": [...]}) and return its findings.

    Raises `FindingsError` naming the JSON path: "f.json: findings[1].citations[0].start: …".
    """
    if not isinstance(data, dict):
        raise FindingsError(f'{source}: expected a JSON object {{"findings": [...]}}, got {json_type(data)}')
    if "findings" not in data:
        raise FindingsError(
            f"{source}: findings: field required (expected the JSON that `verify` or `review` emit)"
        )
    items = data["findings"]
    if not isinstance(items, list):
        raise FindingsError(f"{source}: findings: expected a list, got {json_type(items)}")
    out: list[dict[str, Any]] = []
    for i, item in enumerate(items):
        where = f"findings[{i}]"
        if not isinstance(item, dict):
            raise FindingsError(f"{source}: {where}: expected an object, got {json_type(item)}")
        try:
            parsed = _Finding.model_validate(item)
        except ValidationError as exc:
            err = exc.errors()[0]
            path = where + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"])
            msg = "field required" if err["type"] == "missing" else str(err["msg"])
            if err["type"] != "missing":
                msg = msg[:1].lower() + msg[1:] + f", got {json_type(err.get('input'))}"
            raise FindingsError(f"{source}: {path}: {msg}") from None
        for k, c in enumerate(parsed.citations):
            if c.status == VERIFIED and (c.text is None or c.start is None or c.end is None):
                raise FindingsError(
                    f"{source}: {where}.citations[{k}]: a verified citation needs text, start and end"
                )
            if c.start is not None and c.end is not None and not 0 <= c.start < c.end:
                raise FindingsError(
                    f"{source}: {where}.citations[{k}]: start {c.start} and end {c.end} are not a span"
                )
        out.append(dict(item))
    return out


# ── values ──────────────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True, slots=True, kw_only=True)
class OldCitation:
    """A citation of the earlier review, as its JSON recorded it."""

    index: int
    status: str
    quote: str | None
    text: str | None
    start: int | None
    end: int | None
    section: str | None
    prefix: str
    suffix: str
    occurrences: tuple[tuple[int, int], ...]

    @classmethod
    def from_dict(cls, index: int, d: Mapping[str, Any]) -> OldCitation:
        return cls(
            index=index,
            status=str(d.get("status")),
            quote=d.get("quote"),
            text=d.get("text"),
            start=d.get("start"),
            end=d.get("end"),
            section=d.get("section"),
            prefix=d.get("prefix") or "",
            suffix=d.get("suffix") or "",
            occurrences=tuple((o["start"], o["end"]) for o in d.get("occurrences") or ()),
        )

    @property
    def checkable(self) -> bool:
        return self.status == VERIFIED and self.text is not None and self.start is not None

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "start": self.start, "end": self.end, "section": self.section}


@dataclass(frozen=True, slots=True, kw_only=True)
class CitationOutcome:
    """One earlier citation against the new version."""

    status: str
    reason: str
    old: OldCitation
    new: VerifiedQuote | None = None  # the exact re-anchor (verified, moved, context_changed)
    became: str | None = None  # stale: the aligned passage in the new version, for display only
    became_span: tuple[int, int] | None = None
    edits: tuple[WordEdit, ...] = ()  # stale: what changed inside; context_changed: what changed around

    @property
    def shift(self) -> int | None:
        """How far the re-anchored words moved (new start − old start); None when not re-anchored."""
        if self.new is None or self.old.start is None:
            return None
        return self.new.start - self.old.start

    def to_dict(self) -> dict[str, Any]:
        """As verify names a citation: top-level `start`, `end`, `text`, `section`, `page` are where the
        words are in the new version (null when stale); `previous` is where they were; `shift` how far."""
        n = self.new
        return {
            "status": self.status,
            "start": n.start if n else None,
            "end": n.end if n else None,
            "text": n.text if n else None,
            "section": n.section if n else None,
            "page": n.page if n else None,
            "shift": self.shift,
            "previous": self.old.to_dict(),
            "became": self.became,
            "edits": [e.to_dict() for e in self.edits],
            "reason": self.reason,
        }

    def to_finding_citation(self) -> dict[str, Any]:
        """This citation in the gate's citation shape, for the stored reverify review."""
        n = self.new
        base = {"quote": self.old.quote, "reverify_status": self.status, "reason": self.reason}
        if n is None:
            status = "failed" if self.status == STALE else self.old.status
            return {**base, "status": status, "text": None, "start": None, "end": None, "became": self.became}
        return {
            **base,
            "status": VERIFIED,
            "match": "exact",
            **{k: v for k, v in n.to_dict().items() if k != "match"},
            "occurrences": [],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class FindingOutcome:
    """One earlier finding against the new version, linked to the one it came from."""

    id: str
    previous_id: str
    status: str
    reason: str
    evidence: str
    citations: tuple[CitationOutcome, ...]
    previous: Mapping[str, Any]  # the earlier finding as stored
    resolution: VerifiedQuote | None = None  # absence findings: the verified quote of the clause now found

    def to_dict(self) -> dict[str, Any]:
        p = self.previous
        d: dict[str, Any] = {
            "id": self.id,
            "proposal_id": p.get("proposal_id"),
            "previous_id": self.previous_id,
            "status": self.status,
            "reason": self.reason,
            "evidence": self.evidence,
            "claim": p.get("claim"),
            "rule": p.get("rule"),
            "severity": p.get("severity"),
            "citations": [c.to_dict() for c in self.citations],
            "stale_citations": [c.old.index for c in self.citations if c.status == STALE],
        }
        if self.evidence == "absence":
            d["resolution"] = self.resolution.to_dict() if self.resolution else None
        return d

    def to_record(self, previous_review_id: int | None) -> dict[str, Any]:
        """What the store keeps for the new review: the report entry, its lineage, and citations in the
        shape `Finding.to_dict()` uses (re-anchored ones as verified at their new offsets, stale ones as
        failed), so `findings REVIEW_ID` shows it and a later `reverify` can start from it."""
        p = self.previous
        supervision = p.get("supervision")
        if self.status in (CONTEXT_CHANGED, MOVED) and supervision == "standard":
            supervision = "elevated"
        carried = {k: p[k] for k in _CARRIED if k in p}
        return {
            **carried,
            **self.to_dict(),
            "supervision": supervision,
            "report_citations": [c.to_dict() for c in self.citations],
            "citations": [c.to_finding_citation() for c in self.citations],
            "previous": {
                "review_id": previous_review_id,
                "id": self.previous_id,
                "status": p.get("status"),
                "quotes": [c.get("text") for c in p.get("citations") or () if c.get("text")],
            },
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ReverifyResult:
    """Every earlier finding against the new version, and the audit events that recorded them."""

    document_sha256: str
    previous_document_sha256: str | None
    findings: tuple[FindingOutcome, ...]
    audit: tuple[AuditEvent, ...]

    @property
    def summary(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for f in self.findings:
            out[f.status] = out.get(f.status, 0) + 1
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaybookRef:
    """The playbook recorded on the earlier review (absence findings are re-run with it)."""

    id: str
    version: str | None = None
