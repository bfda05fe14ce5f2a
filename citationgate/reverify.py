"""Re-verification after a redline: every earlier finding checked against the new version, exact only.

Re-verification is stricter than verification: there is no fuzzy fallback. A citation is found again
only if its words are in the new version under the gate's exact mode (`QuoteIndex.find_exact`:
whitespace-flexible and typographic-tolerant, case-sensitive). Where it is not, the citation is
**stale** and the report shows what the passage became — found by aligning the two versions
(`citationgate.align`), for display only, never as a new anchor. ("capped at ₦50,000,000" and
"₦500,000,000" are one character apart; a tolerant matcher would move the finding onto the number that
changed the deal.)

Each citation that was verified in the earlier review gets one status:

- ``verified`` — the words and their clause are unchanged: in the aligned counterpart of their old
  paragraph, under the same clause label. Offsets are updated when edits elsewhere in the document shifted
  them — a paragraph inserted or removed above included — and the shift is recorded (`shift`, and the
  reason says why); the old span is mapped through the alignment, then confirmed exactly: by identity
  where its paragraph is unchanged character for character, else by the index.
- ``moved`` — the identical words, but their clause is not where it was, and the reason says why: the
  clause was renumbered (8.2 → 8.3, the new label is reported), the paragraph itself moved, or the words
  are now only at a new place. Among several identical
  occurrences the choice is deterministic: the aligned image of the old span first; an occurrence that is
  the aligned image of *another* old occurrence (boilerplate the earlier version already had elsewhere)
  is never taken; then the old clause label, then prefix/suffix context similarity, then proximity.
- ``context_changed`` — the words still match exactly but the clause around them changed (a carve-out
  added two sentences later; "not" inserted just before the quote). The clause is the innermost numbered
  clause holding the quote (list items "(a)" belong to their clause), or its paragraph when the clause is
  long or absent. Needs review; never silently kept.
- ``stale`` — the words are no longer in the document exactly.

A finding takes the best of its citations: it stays ``verified`` while at least one citation is
verified, and the reason names the citations that went stale — unless a stale citation held a value
the finding's judgment was parsed from (a playbook finding's ``extracted`` values): then the claim no
longer stands and the finding is ``stale``, naming the value; any ``context_changed`` citation makes
the finding ``context_changed``; all stale makes it ``stale``. Absence findings are re-run: with the
playbook recorded on the earlier review, the playbook's clause is run against the new version and the
finding is ``resolved`` (with its verified quote) if the clause is now there, else ``open``; without a
playbook it stays ``open`` and says why. Findings the earlier review did not verify (rejected) are
carried with their old status and are not re-verified.

Without the old document (``--findings`` mode, from JSON alone) there is no alignment: a citation is
``verified`` under its old clause label with its 40 characters of context unchanged (the shift
recorded), ``moved`` under another label; the context check
compares the 40 characters of prefix and suffix the JSON carries (numbering labels ignored); and what a
stale passage became is the new paragraph that best matches its old words and context.

Every decision is an audit event (one per citation, one per finding), against the new version's hash.
"""

from __future__ import annotations

import bisect
import gc
import heapq
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError
from rapidfuzz import fuzz

from citationgate.align import Alignment, MappedSpan, Unit, WordEdit, align, segment, tokens, word_opcodes
from citationgate.audit import AuditEvent
from citationgate.errors import WithheldDocumentError
from citationgate.gate import index_for
from citationgate.locate import QuoteIndex
from citationgate.model import VerifiedQuote
from citationgate.normalize import normalize_quote
from ingest.document import Document, Section
from ingest.errors import CitationGateError
from playbooks import ClauseOutcome, load_playbook, run_playbook

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
        raise FindingsError(f'{source}: expected a JSON object {{"findings": [...]}}, got {_json_type(data)}')
    if "findings" not in data:
        raise FindingsError(
            f"{source}: findings: field required (expected the JSON that `verify` or `review` emit)"
        )
    items = data["findings"]
    if not isinstance(items, list):
        raise FindingsError(f"{source}: findings: expected a list, got {_json_type(items)}")
    out: list[dict[str, Any]] = []
    for i, item in enumerate(items):
        where = f"findings[{i}]"
        if not isinstance(item, dict):
            raise FindingsError(f"{source}: {where}: expected an object, got {_json_type(item)}")
        try:
            parsed = _Finding.model_validate(item)
        except ValidationError as exc:
            err = exc.errors()[0]
            path = where + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"])
            msg = "field required" if err["type"] == "missing" else str(err["msg"])
            if err["type"] != "missing":
                msg = msg[:1].lower() + msg[1:] + f", got {_json_type(err.get('input'))}"
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


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "a number"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, float) else type(value).__name__)


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


# ── context: the clause around a span ───────────────────────────────────────────────────────────
class _Clauses:
    """The innermost numbered clause (not a list item) holding a span, found by bisection."""

    def __init__(self, sections: Sequence[Section]) -> None:
        self.sections = sorted((s for s in sections if not s.label.startswith("(")), key=lambda s: s.start)
        self.starts = [s.start for s in self.sections]

    def around(self, start: int, end: int) -> Section | None:
        i = bisect.bisect_right(self.starts, start) - 1
        steps = 0
        while i >= 0 and steps < 256:
            s = self.sections[i]
            if s.start <= start and end <= s.end:
                return s
            i -= 1
            steps += 1
        return None


def _context_region(
    clauses: _Clauses, unit: Unit | None, start: int, end: int
) -> tuple[int, int, str | None]:
    s = clauses.around(start, end)
    if s is not None and s.end - s.start <= MAX_CONTEXT_CHARS:
        return s.start, s.end, s.label
    if unit is not None:
        return min(unit.start, start), max(unit.end, end), (s.label if s else unit.section)
    return start, end, s.label if s else None


def _label_at(document: Document, offset: int) -> str | None:
    section = document.section_at(offset)
    return section.label if section is not None else None


# ── the engine ──────────────────────────────────────────────────────────────────────────────────
@dataclass
class _Run:
    new: Document
    old: Document | None
    alignment: Alignment | None
    index: QuoteIndex
    found: dict[str, list[tuple[int, int]]]
    mapped: dict[tuple[int, int], MappedSpan | None]
    new_clauses: _Clauses
    old_clauses: _Clauses | None
    playbook: PlaybookRef | None
    actor: str
    previous_review_id: int | None
    _old_index: QuoteIndex | None = None
    _new_units: tuple[Unit, ...] | None = None
    _outcomes: list[ClauseOutcome] | None = None
    _playbook_error: str | None = None
    events: list[AuditEvent] = field(default_factory=list)
    _words: dict[str, set[int]] | None = None
    _by_section: dict[str | None, list[int]] | None = None
    at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="microseconds"))
    _old_edits: dict[tuple[int, int], list[WordEdit]] = field(default_factory=dict)
    _new_edits: dict[tuple[int, int], list[WordEdit]] = field(default_factory=dict)

    def old_edits(self, al: Alignment, start: int, end: int) -> list[WordEdit]:
        key = (start, end)
        if key not in self._old_edits:
            self._old_edits[key] = al.edits_between_old(start, end, strict=True)
        return self._old_edits[key]

    def new_edits(self, al: Alignment, start: int, end: int) -> list[WordEdit]:
        key = (start, end)
        if key not in self._new_edits:
            self._new_edits[key] = al.edits_between_new(start, end, strict=True)
        return self._new_edits[key]

    def old_index(self) -> QuoteIndex | None:
        if self._old_index is None and self.old is not None:
            self._old_index = QuoteIndex(self.old.text)
        return self._old_index

    def word_index(self) -> dict[str, set[int]]:
        """Normalized word → the new version's units that contain it."""
        if self._words is None:
            self._words = {}
            for u in self.new_units():
                for k in set(u.key.split(" ")):  # the key is the unit's normalized words
                    self._words.setdefault(k, set()).add(u.index)
        return self._words

    def units_of_section(self) -> dict[str | None, list[int]]:
        if self._by_section is None:
            self._by_section = {}
            for u in self.new_units():
                self._by_section.setdefault(u.section, []).append(u.index)
        return self._by_section

    def new_units(self) -> tuple[Unit, ...]:
        if self._new_units is None:
            self._new_units = (
                self.alignment.new_units
                if self.alignment
                else segment(self.new.text, self.new.sections, self.new.furniture)
            )
        return self._new_units


def reverify(
    findings: Sequence[Mapping[str, Any]],
    new: Document,
    *,
    old: Document | None = None,
    playbook: PlaybookRef | None = None,
    previous_review_id: int | None = None,
    actor: str = _ACTOR,
) -> ReverifyResult:
    """Re-verify `findings` (the dicts `Finding.to_dict()` / the store hold) against `new`.

    `old` is the version the findings were verified against; with it the two versions are aligned and
    every rule in the module docstring applies. Without it (findings from JSON alone) the rules for
    that mode apply. Raises `WithheldDocumentError` when `new` is withheld.
    """
    if not new.ready:
        why = "; ".join(new.reasons) or "not read whole"
        raise WithheldDocumentError(
            f"{new.name}: the new version is withheld ({why}); nothing is re-verified against it"
        )
    # A batch allocates many small objects and no reference cycles: the cyclic collector's passes over
    # the caller's heap (10,000 findings' dicts) cost a fifth of the run here, for nothing. Paused for
    # the batch, restored after, whatever happens.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _reverify(findings, new, old, playbook, previous_review_id, actor)
    finally:
        if paused:
            gc.enable()


def _reverify(
    findings: Sequence[Mapping[str, Any]],
    new: Document,
    old: Document | None,
    playbook: PlaybookRef | None,
    previous_review_id: int | None,
    actor: str,
) -> ReverifyResult:
    alignment = align(old, new) if old is not None else None
    index = index_for(new)
    # Map every cited span through the alignment first. A span whose paragraph is unchanged character
    # for character is confirmed by that identity (stricter than the exact mode); every other quote is
    # searched, all at once, in the new version's exact index.
    mapped: dict[tuple[int, int], MappedSpan | None] = {}
    texts: set[str] = set()
    for f in findings:
        for c in f.get("citations") or ():
            text, s, e = c.get("text"), c.get("start"), c.get("end")
            if c.get("status") != VERIFIED or not isinstance(text, str):
                continue
            if isinstance(s, int) and isinstance(e, int):
                if alignment is not None:
                    m = mapped[(s, e)] = alignment.map_span(s, e)
                    if m is not None and m.identical:
                        continue
                elif new.text[s:e] == text:
                    continue
            texts.add(text)
    ordered = sorted(texts)
    found = dict(zip(ordered, index.find_exact_many(ordered), strict=True))
    run = _Run(
        new=new,
        old=old,
        alignment=alignment,
        index=index,
        found=found,
        mapped=mapped,
        new_clauses=_Clauses(new.sections),
        old_clauses=_Clauses(old.sections) if old is not None else None,
        playbook=playbook,
        actor=actor,
        previous_review_id=previous_review_id,
    )
    outcomes = tuple(_reverify_finding(run, f) for f in findings)
    return ReverifyResult(
        document_sha256=new.text_sha256,
        previous_document_sha256=old.text_sha256 if old is not None else None,
        findings=outcomes,
        audit=tuple(run.events),
    )


def _reverify_finding(run: _Run, f: Mapping[str, Any]) -> FindingOutcome:
    fid = str(f.get("id"))
    evidence = str(f.get("evidence") or "quote")
    if evidence == "absence":
        outcome = _reverify_absence(run, f)
    else:
        olds = [OldCitation.from_dict(i, c) for i, c in enumerate(f.get("citations") or ())]
        if not any(c.checkable for c in olds):
            outcome = FindingOutcome(
                id=fid,
                previous_id=fid,
                status=str(f.get("status")),
                reason=f"was {f.get('status')} in the previous review (no verified citation); "
                "not re-verified",
                evidence=evidence,
                citations=tuple(_carried(c) for c in olds),
                previous=f,
            )
        else:
            cites = []
            several = len(olds) > 1
            for c in olds:
                out = _reverify_citation(run, c) if c.checkable else _carried(c)
                cites.append(out)
                if c.checkable and several:  # one citation: the finding's own event records it
                    run.events.append(_event(run, f, "reverify-citation", out.status, out.reason, (out,)))
            status, reason = _aggregate(cites)
            lost = _values_lost(f, cites)
            if lost and status != STALE:
                status, reason = STALE, f"{lost}; {reason}"
            outcome = FindingOutcome(
                id=fid,
                previous_id=fid,
                status=status,
                reason=reason,
                evidence=evidence,
                citations=tuple(cites),
                previous=f,
            )
    run.events.append(_event(run, f, "reverify", outcome.status, outcome.reason, outcome.citations))
    return outcome


def _values_lost(f: Mapping[str, Any], cites: Sequence[CitationOutcome]) -> str:
    """The extracted values the finding's judgment rests on that sat inside a citation that went stale.

    A playbook finding states values parsed from its quotes ("the cap is three (3) months' fees"). If the
    passage holding such a value changed, the finding's claim no longer stands, even where its other
    citations are untouched: the finding is stale, and this says which value and where it came from.
    """
    extracted = f.get("extracted") or {}
    lost = []
    for name, v in extracted.items():
        if (
            not isinstance(v, Mapping)
            or not isinstance(v.get("start"), int)
            or not isinstance(v.get("end"), int)
        ):
            continue
        for c in cites:
            o = c.old
            if (
                c.status == STALE
                and o.start is not None
                and o.end is not None
                and o.start <= v["start"]
                and v["end"] <= o.end
            ):
                lost.append(f"'{name}' ({v.get('text')!r}, citation {o.index + 1})")
                break
    if not lost:
        return ""
    return "the values this finding rests on came from passages that changed: " + ", ".join(lost)


def _carried(c: OldCitation) -> CitationOutcome:
    return CitationOutcome(
        status=c.status, reason=f"was {c.status} in the previous review; not re-verified", old=c
    )


def _event(
    run: _Run,
    f: Mapping[str, Any],
    action: str,
    result: str,
    reason: str,
    cites: Sequence[CitationOutcome],
) -> AuditEvent:
    """An audit event: the finding (and its citations' old and new spans) against the new version."""
    payload: dict[str, Any] = {
        "finding_id": f.get("id"),
        "proposal_id": f.get("proposal_id"),
        "previous_review_id": run.previous_review_id,
        "previous_document_sha256": run.old.text_sha256 if run.old is not None else None,
    }
    if cites:
        spans = []
        for c in cites:
            span: dict[str, Any] = {
                "citation": c.old.index,
                "status": c.status,
                "old": [c.old.start, c.old.end, c.old.section],
            }
            if c.new is not None:
                span["new"] = [c.new.start, c.new.end, c.new.section]
                span["shift"] = c.shift
            if c.became_span is not None:
                span["became"] = list(c.became_span)
            spans.append(span)
        payload["citations"] = spans
    return AuditEvent(
        at=run.at,
        action=action,
        result=result,
        actor=run.actor,
        document_sha256=run.new.text_sha256,
        rule=f.get("rule"),
        reason=reason,
        payload=payload,
    )


def _aggregate(cites: Sequence[CitationOutcome]) -> tuple[str, str]:
    if len(cites) == 1 and cites[0].status in (VERIFIED, MOVED, CONTEXT_CHANGED, STALE):
        return cites[0].status, cites[0].reason
    checked = [c for c in cites if c.status in (VERIFIED, MOVED, CONTEXT_CHANGED, STALE)]
    stale = [c for c in checked if c.status == STALE]
    n = len(checked)

    def name(c: CitationOutcome) -> str:
        return f"citation {c.old.index + 1}"

    stale_note = ""
    if stale and len(stale) < n:
        stale_note = "; went stale: " + "; ".join(f"{name(c)} ({c.reason})" for c in stale)
    changed = [c for c in checked if c.status == CONTEXT_CHANGED]
    if len(stale) == n:
        if n == 1:
            return STALE, stale[0].reason
        return STALE, "every citation went stale: " + "; ".join(f"{name(c)}: {c.reason}" for c in stale)
    if changed:
        return CONTEXT_CHANGED, "; ".join(f"{name(c)}: {c.reason}" for c in changed) + stale_note
    verified = [c for c in checked if c.status == VERIFIED]
    moved = [c for c in checked if c.status == MOVED]
    if verified:
        if n == 1:
            head = verified[0].reason
        elif len(verified) == n:
            head = f"all {n} citations verified ({verified[0].reason})"
        else:
            head = f"{len(verified)} of {n} citations verified ({', '.join(name(c) for c in verified)})"
        if moved:
            head += "; moved: " + "; ".join(f"{name(c)} ({c.reason})" for c in moved)
        return VERIFIED, head + stale_note
    if n == 1:
        return MOVED, moved[0].reason
    return MOVED, "; ".join(f"{name(c)}: {c.reason}" for c in moved) + stale_note


# ── one citation ────────────────────────────────────────────────────────────────────────────────
def _reverify_citation(run: _Run, c: OldCitation) -> CitationOutcome:
    if run.alignment is not None:
        return _with_alignment(run, run.alignment, c)
    return _without_alignment(run, c)


def _overlapping(occ: Sequence[tuple[int, int]], start: int, end: int) -> tuple[int, int] | None:
    """The occurrence at `[start, end)` exactly, else the overlapping one starting nearest to it."""
    i = bisect.bisect_left(occ, (start, end))
    if i < len(occ) and occ[i] == (start, end):
        return occ[i]
    best = None
    for o in occ:
        overlaps = o[0] < max(end, start + 1) and o[1] > start
        if overlaps and (best is None or abs(o[0] - start) < abs(best[0] - start)):
            best = o
    return best


def _with_alignment(run: _Run, al: Alignment, c: OldCitation) -> CitationOutcome:
    assert c.text is not None and c.start is not None and c.end is not None
    start, end = c.start, c.end
    occ = run.found.get(c.text, [])
    key = (c.start, c.end)
    mapped = run.mapped[key] if key in run.mapped else al.map_span(c.start, c.end)
    if mapped is not None and mapped.identical:
        image: tuple[int, int] | None = (mapped.start, mapped.end)
    elif mapped is not None and mapped.intact:
        image = _overlapping(occ, mapped.start, mapped.end)
    else:
        image = None
    relocated = False
    anchor = image
    if anchor is None and occ:
        taken = _taken(run, al, c, occ)
        free = [o for o in occ if o not in taken]
        if free:
            near = mapped.start if mapped is not None else c.start
            anchor = _choose(run, c, free, near)
            relocated = True
        else:
            where = ", ".join(_where(run, o) for o in occ[:3])
            return _stale(
                run,
                c,
                mapped,
                f"the cited words are no longer in their clause exactly; identical words remain at {where}, "
                "but the previous version already had them there (another clause's copy, not re-anchored)",
            )
    if anchor is None:
        return _stale(run, c, mapped, None)

    vq = VerifiedQuote.at(run.new, anchor[0], anchor[1])
    old_unit = mapped.old_unit if mapped is not None else al.old_unit_at(c.start)
    new_unit = mapped.new_unit if mapped is not None and image is not None else al.new_unit_at(anchor[0])
    assert run.old is not None and run.old_clauses is not None
    rs, re_, label = _context_region(run.old_clauses, old_unit, c.start, c.end)
    ns, ne, _ = _context_region(run.new_clauses, new_unit, anchor[0], anchor[1])
    around = {
        e
        for e in run.old_edits(al, rs, re_)
        if not (c.start <= e.old_start and e.old_end <= c.end and not _at_edge(e.old_start, e.old_end, c))
    }
    around |= {
        e
        for e in run.new_edits(al, ns, ne)
        if not (anchor[0] <= e.new_start and e.new_end <= anchor[1] and not _at_new_edge(e, anchor))
    }
    if around:
        edits = sorted(around, key=lambda e: (_distance(e, start, end), e.old_start))[:EDITS_SHOWN]
        clause = f"clause {label}" if label else "the paragraph"
        desc = "; ".join(_describe_near(e, c.start, c.end) for e in edits)
        more = f" (and {len(around) - len(edits)} more)" if len(around) > len(edits) else ""
        reason = (
            f"the quoted words are unchanged, but {clause} around them changed: {desc}{more}; needs review"
        )
        if relocated:
            reason += f" (found at a new place: {_where(run, anchor)})"
        return CitationOutcome(status=CONTEXT_CHANGED, reason=reason, old=c, new=vq, edits=tuple(edits))
    if relocated:
        why = "its paragraph was deleted" if mapped is None else "its old place was edited"
        return CitationOutcome(
            status=MOVED,
            reason=f"the words are no longer where they were ({why}); "
            f"found unchanged at {_where(run, anchor)} and re-anchored",
            old=c,
            new=vq,
        )
    if (c.section or None) != (vq.section or None):
        return CitationOutcome(
            status=MOVED,
            reason=f"renumbered: {c.section or '(no clause)'} → {vq.section or '(no clause)'}; "
            f"re-anchored to [{vq.start}, {vq.end})",
            old=c,
            new=vq,
        )
    if old_unit is not None and al.old_kind.get(old_unit.index) == "moved":
        return CitationOutcome(
            status=MOVED,
            reason=f"its paragraph moved; found unchanged at {_where(run, anchor)} and re-anchored",
            old=c,
            new=vq,
        )
    # The words and their clause are unchanged: verified, whatever happened above them. The shift is
    # recorded (`shift`, and the reason), not reported as a move: a lawyer reads "moved" as "this
    # clause is somewhere else now", which is noise when a paragraph was merely removed above it.
    delta = vq.start - c.start
    at = f"in {vq.section}" if vq.section else "in its paragraph"
    reason = f"unchanged {at}"
    if delta:
        inserted, removed = al.paragraphs_above(c.start, anchor[0])
        parts = []
        if inserted:
            parts.append(f"{inserted} paragraph{'s' if inserted > 1 else ''} inserted")
        if removed:
            parts.append(f"{removed} paragraph{'s' if removed > 1 else ''} removed")
        why = f"{' and '.join(parts)} above it" if parts else "edits earlier in the document"
        reason += (
            f"; offsets shifted by {delta:+d} ({why}): now [{vq.start}, {vq.end}), was [{c.start}, {c.end})"
        )
    return CitationOutcome(status=VERIFIED, reason=reason, old=c, new=vq)


def _at_edge(a: int, b: int, c: OldCitation) -> bool:
    return a == b and (a == c.start or a == c.end)


def _at_new_edge(e: WordEdit, anchor: tuple[int, int]) -> bool:
    return e.new_start == e.new_end and (e.new_start == anchor[0] or e.new_start == anchor[1])


def _distance(e: WordEdit, start: int, end: int) -> int:
    if e.old_end <= start:
        return start - e.old_end
    if e.old_start >= end:
        return e.old_start - end
    return 0


def _describe_near(e: WordEdit, start: int, end: int) -> str:
    d = e.describe()
    if e.old_end <= start and start - e.old_end <= 1:
        return d + " just before the quote"
    if e.old_start >= end and e.old_start - end <= 1:
        return d + " just after the quote"
    return d + (" before the quote" if e.old_end <= start else " after the quote")


def _taken(run: _Run, al: Alignment, c: OldCitation, occ: Sequence[tuple[int, int]]) -> set[tuple[int, int]]:
    """New occurrences that are the aligned images of the *other* old occurrences of the same words."""
    assert c.text is not None and c.start is not None and c.end is not None
    others = [o for o in c.occurrences if o != (c.start, c.end)]
    if not c.occurrences:
        idx = run.old_index()
        others = [o for o in (idx.find_exact(c.text) if idx else []) if o != (c.start, c.end)]
    taken = set()
    for s, e in others:
        m = al.map_span(s, e)
        if m is not None and m.intact:
            o = _overlapping(occ, m.start, m.end)
            if o is not None:
                taken.add(o)
    return taken


def _choose(run: _Run, c: OldCitation, occ: Sequence[tuple[int, int]], near: int) -> tuple[int, int]:
    """Deterministic choice among identical occurrences: clause label, context, proximity, offset."""
    if len(occ) == 1:
        return occ[0]
    text = run.new.text
    old_ctx = normalize_quote(c.prefix), normalize_quote(c.suffix)

    def score(o: tuple[int, int]) -> tuple[int, float, int, int]:
        vq_section = _label_at(run.new, o[0])
        same = int(c.section is not None and vq_section == c.section)
        pre = normalize_quote(text[max(0, o[0] - len(c.prefix)) : o[0]])
        suf = normalize_quote(text[o[1] : o[1] + len(c.suffix)])
        sim = fuzz.ratio(old_ctx[0], pre) + fuzz.ratio(old_ctx[1], suf)
        return (-same, -sim, abs(o[0] - near), o[0])

    return min(occ, key=score)


def _where(run: _Run, span: tuple[int, int]) -> str:
    label = _label_at(run.new, span[0])
    page = run.new.page_of(span[0])
    parts = [f"clause {label}" if label else "no numbered clause", f"offsets [{span[0]}, {span[1]})"]
    if page is not None:
        parts.append(f"page {page}")
    return ", ".join(parts)


def _stale(run: _Run, c: OldCitation, mapped: Any, why: str | None) -> CitationOutcome:
    became = None
    became_span = None
    edits: tuple[WordEdit, ...] = ()
    if mapped is not None and mapped.end > mapped.start:
        became_span = (mapped.start, mapped.end)
        became = run.new.text[mapped.start : mapped.end]
        edits = tuple(mapped.edits)
    if why is None:
        if mapped is None:
            label = f"clause {c.section}" if c.section else "its paragraph"
            why = f"the cited words are no longer in the document exactly: {label} was deleted"
        elif edits:
            why = "the cited words are no longer in the document exactly: " + "; ".join(
                e.describe() for e in edits[:EDITS_SHOWN]
            )
        else:
            why = "the cited words are no longer in the document exactly"
    if became is not None:
        why += f"; the passage now reads: {_clip(became)!r}"
    return CitationOutcome(
        status=STALE, reason=why, old=c, became=became, became_span=became_span, edits=edits
    )


# ── without the old document ────────────────────────────────────────────────────────────────────
_LABEL_TOKEN = re.compile(
    r"^(?:\(?(?:\d{1,3}(?:\.\d{1,3})*|[a-z]{1,2}|[ivxlc]{1,6}|[A-Z])[.)]?|Section|SECTION|Article|ARTICLE)$"
)


def _context_words(s: str, *, from_end: bool) -> list[str]:
    """Words of a prefix/suffix, line-initial numbering labels dropped, partial edge word dropped."""
    lines = s.split("\n")
    words: list[str] = []
    for ln in lines:
        toks = ln.split()
        k = 0
        while k < len(toks) and _LABEL_TOKEN.match(toks[k]):
            k += 1
        words.extend(t if t.isascii() else normalize_quote(t) for t in toks[k:])
    # the window was cut at a fixed width: its outer word may be partial
    if words and s and not s[0 if from_end else -1].isspace():
        words = words[1:] if from_end else words[:-1]
    return words


_CLAUSE_LINE = re.compile(
    r"^[^\S\n]*(?:\(?(?:\d{1,3}(?:\.\d{1,3})*|[a-z]{1,2}|[ivxlc]{1,6})[.)]|Section\s|ARTICLE\s)"
)


def _within_clause(ctx: str, *, prefix: bool) -> str:
    """The part of a prefix (suffix) inside the quote's own clause: cut at a blank line or a clause label."""
    lines = ctx.split("\n")
    if prefix:
        for k in range(len(lines) - 1, 0, -1):
            if not lines[k].strip() or _CLAUSE_LINE.match(lines[k]):
                # a blank line: the clause starts after it; a label line starts the clause itself
                keep = lines[k + 1 :] if not lines[k].strip() else lines[k:]
                return "\n" + "\n".join(keep)
        return ctx
    for k in range(1, len(lines)):
        if not lines[k].strip() or _CLAUSE_LINE.match(lines[k]):
            return "\n".join(lines[:k]) + "\n"
    return ctx


def _context_differs(old_ctx: str, new_ctx: str, *, prefix: bool) -> bool:
    if old_ctx == new_ctx:
        return False
    a = _context_words(_within_clause(old_ctx, prefix=prefix), from_end=prefix)
    b = _context_words(_within_clause(new_ctx, prefix=prefix), from_end=prefix)
    n = min(len(a), len(b))
    if n == 0:
        return len(a) != len(b) and max(len(a), len(b)) > 1
    return a[-n:] != b[-n:] if prefix else a[:n] != b[:n]


def _without_alignment(run: _Run, c: OldCitation) -> CitationOutcome:
    assert c.text is not None and c.start is not None and c.end is not None
    occ = run.found.get(c.text, [])
    if run.new.text[c.start : c.end] == c.text:  # the same words at the same offsets
        anchor = (c.start, c.end)
    elif not occ:
        return _stale_unaligned(run, c)
    else:
        in_clause = [o for o in occ if c.section is not None and _label_at(run.new, o[0]) == c.section]
        k = len(c.occurrences)
        if in_clause:
            anchor = _choose(run, c, in_clause, c.start)
        elif k > 1 and len(occ) < k:
            where = ", ".join(_where(run, o) for o in occ[:3])
            return _stale_unaligned(
                run,
                c,
                f"the cited words are no longer in {c.section or 'their clause'}; identical words remain at "
                f"{where}, but the previous version had {k} copies and now has {len(occ)} "
                "(another clause's copy, not re-anchored)",
            )
        else:
            anchor = _choose(run, c, occ, c.start)
    vq = VerifiedQuote.at(run.new, anchor[0], anchor[1])
    text = run.new.text
    pre = text[max(0, anchor[0] - len(c.prefix)) : anchor[0]]
    suf = text[anchor[1] : anchor[1] + len(c.suffix)]
    where = _where(run, anchor)
    changed = []
    if _context_differs(c.prefix, pre, prefix=True):
        changed.append(f"before it, {_clip(c.prefix.strip(), 40)!r} now reads {_clip(pre.strip(), 40)!r}")
    if _context_differs(c.suffix, suf, prefix=False):
        changed.append(f"after it, {_clip(c.suffix.strip(), 40)!r} now reads {_clip(suf.strip(), 40)!r}")
    if changed:
        return CitationOutcome(
            status=CONTEXT_CHANGED,
            reason="the quoted words are unchanged, but the text around them changed: "
            + "; ".join(changed)
            + f"; needs review (at {where})",
            old=c,
            new=vq,
        )
    if anchor == (c.start, c.end) and (c.section or None) == (vq.section or None):
        return CitationOutcome(status=VERIFIED, reason="unchanged at the same offsets", old=c, new=vq)
    if (c.section or None) == (vq.section or None):
        # same words, same clause label, same context: only the offsets shifted
        return CitationOutcome(
            status=VERIFIED,
            reason=f"unchanged in {vq.section or 'its paragraph'}; "
            f"offsets shifted by {anchor[0] - c.start:+d}: now {where}",
            old=c,
            new=vq,
        )
    reason = f"now in {vq.section or 'no numbered clause'} (was {c.section or 'no numbered clause'})"
    return CitationOutcome(status=MOVED, reason=f"{reason}; re-anchored to {where}", old=c, new=vq)


def _stale_unaligned(run: _Run, c: OldCitation, why: str | None = None) -> CitationOutcome:
    """Stale without the old document: what the passage became is the best-matching new paragraph."""
    assert c.text is not None
    reason = why or "the cited words are no longer in the document exactly"
    span = _became_unaligned(run, c)
    if span is None:
        return CitationOutcome(status=STALE, reason=reason + "; no similar passage found", old=c)
    became = run.new.text[span[0] : span[1]]
    return CitationOutcome(
        status=STALE,
        reason=reason + f"; the passage now reads: {_clip(became)!r}",
        old=c,
        became=became,
        became_span=span,
    )


def _became_unaligned(run: _Run, c: OldCitation) -> tuple[int, int] | None:
    assert c.text is not None
    units = run.new_units()
    if not units:
        return None
    text = run.new.text
    pseudo = c.prefix + c.text + c.suffix
    q0, q1 = len(c.prefix), len(c.prefix) + len(c.text)
    qt = tokens(pseudo, 0, len(pseudo))
    candidates = set(run.units_of_section().get(c.section, ())) if c.section is not None else set()
    # the paragraphs sharing most of the quote's distinct words (an inverted index, built once)
    words = run.word_index()
    quoted = {k for k, s, e in zip(qt.keys, qt.starts, qt.ends, strict=True) if s >= q0 and e <= q1}
    # the rarest of the quote's words say most about where it went ("the" is everywhere)
    ranked = sorted((w for w in quoted if w in words), key=lambda w: (len(words[w]), w))
    rare = [w for w in ranked[:RARE_WORDS] if len(words[w]) <= COMMON_WORD_UNITS] or ranked[:2]
    shared: dict[int, int] = {}
    for w in rare:
        for ui in words[w]:
            shared[ui] = shared.get(ui, 0) + 1
    # paragraphs of the old clause that share a rare word, and the three that share the most
    candidates = {ui for ui in candidates if ui in shared}
    candidates.update(heapq.nsmallest(3, shared, key=lambda ui: (-shared[ui], ui)))
    inside = [k for k, (s, e) in enumerate(zip(qt.starts, qt.ends, strict=True)) if s >= q0 and e <= q1]
    if not inside:
        return None
    best: tuple[int, int, int, int] | None = None  # (-equal, index, start, end)
    for ui in sorted(candidates):
        u = units[ui]
        ut = tokens(text, u.body_start, u.end)
        if not ut.keys:
            continue
        ops = word_opcodes(qt.keys, ut.keys)
        equal = 0
        first: int | None = None
        last: int | None = None
        for tag, i1, i2, j1, j2 in ops:
            lo, hi = max(i1, inside[0]), min(i2, inside[-1] + 1)
            if lo >= hi:
                continue
            if tag == "equal":
                equal += hi - lo
                a, b = j1 + (lo - i1), j1 + (hi - i1)
            else:
                a, b = j1, j2
            if b > a:
                first = a if first is None else min(first, a)
                last = b - 1 if last is None else max(last, b - 1)
        if first is None or last is None or equal == 0:
            continue
        cand = (-equal, ui, ut.starts[first], ut.ends[last])
        if best is None or cand < best:
            best = cand
    if best is None:
        return None
    return best[2], best[3]


# ── absence findings ────────────────────────────────────────────────────────────────────────────
def _reverify_absence(run: _Run, f: Mapping[str, Any]) -> FindingOutcome:
    fid = str(f.get("id"))
    rule = f.get("rule")

    def outcome(status: str, reason: str, resolution: VerifiedQuote | None = None) -> FindingOutcome:
        return FindingOutcome(
            id=fid,
            previous_id=fid,
            status=status,
            reason=reason,
            evidence="absence",
            citations=(),
            previous=f,
            resolution=resolution,
        )

    if run.playbook is None:
        return outcome(
            OPEN,
            "still open: no playbook was recorded with the previous review, so the absence could not "
            "be re-run against the new version",
        )
    outcomes = _playbook_outcomes(run)
    if outcomes is None:
        return outcome(
            OPEN, f"still open: the playbook {run.playbook.id} could not be re-run ({run._playbook_error})"
        )
    hit = next((o for o in outcomes if o.rule == rule), None)
    pb = f"{run.playbook.id}@{run.playbook.version}" if run.playbook.version else run.playbook.id
    if hit is None:
        return outcome(OPEN, f"still open: playbook {pb} has no rule {rule!r} to re-run")
    kind = str(hit.outcome)
    if kind in ("missing", "referenced_not_provided") or not hit.quotes:
        reason = f"still open: re-running {rule} of playbook {pb} on the new version: {kind or 'no quote'}"
        if hit.reason:
            reason += f" ({hit.reason})"
        return outcome(OPEN, reason)
    for q in hit.quotes:
        spans = run.index.find_exact(str(q.text))
        if not spans:
            continue
        span = (q.start, q.end) if (q.start, q.end) in spans else spans[0]
        vq = VerifiedQuote.at(run.new, span[0], span[1])
        where = _where(run, span)
        return outcome(
            RESOLVED, f"resolved: the clause is now there ({kind}, {where}): {_clip(vq.text)!r}", vq
        )
    return outcome(
        OPEN, f"still open: playbook {pb} found {rule} ({kind}) but none of its quotes verified exactly"
    )


def _playbook_outcomes(run: _Run) -> list[ClauseOutcome] | None:
    if run._outcomes is not None or run._playbook_error is not None:
        return run._outcomes
    assert run.playbook is not None
    try:
        pb = load_playbook(run.playbook.id)
        if run.playbook.version and pb.version != run.playbook.version:
            run._playbook_error = (
                f"the review used version {run.playbook.version}, and version {pb.version} is installed"
            )
            return None
        run._outcomes = list(run_playbook(run.new, pb))
    except CitationGateError as exc:
        run._playbook_error = str(exc)
    return run._outcomes


def _clip(s: str, n: int = 120) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


__all__ = [
    "CONTEXT_CHANGED",
    "MOVED",
    "OPEN",
    "RESOLVED",
    "STALE",
    "VERIFIED",
    "CitationOutcome",
    "FindingOutcome",
    "FindingsError",
    "OldCitation",
    "PlaybookRef",
    "ReverifyResult",
    "parse_findings",
    "reverify",
]
