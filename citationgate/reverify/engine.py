"""The re-verification of a review: each finding takes the best of its citations; absence findings
are re-run against the new version with the playbook the earlier review used."""

from __future__ import annotations

import gc
from collections.abc import Mapping, Sequence
from typing import Any

from citationgate.align import MappedSpan, align
from citationgate.audit import AuditEvent
from citationgate.errors import WithheldDocumentError
from citationgate.gate import index_for
from citationgate.model import VerifiedQuote
from citationgate.reverify.citations import (
    _reverify_citation,
    _where,
)
from citationgate.reverify.records import (
    _ACTOR,
    CONTEXT_CHANGED,
    MOVED,
    OPEN,
    RESOLVED,
    STALE,
    VERIFIED,
    CitationOutcome,
    FindingOutcome,
    OldCitation,
    PlaybookRef,
    ReverifyResult,
)
from citationgate.reverify.state import _Clauses, _clip, _Run
from ingest.document import Document
from ingest.errors import CitationGateError
from playbooks import ClauseOutcome, load_playbook, run_playbook


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
