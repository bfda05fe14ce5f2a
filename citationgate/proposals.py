"""Proposals from outside agents: untrusted JSON, validated before the gate sees it.

The shape (unknown fields are rejected; every error names its JSON path)::

    {"proposals": [
        {"id": "p1", "claim": "…", "rule"?: "…", "severity"?: "…",
         "citations": [{"quote": "…", "section"?: "11.2", "page"?: 3, "near"?: 10500}]},
        {"id": "p2", "claim": "…", "absence": {"requirement": "…", "searched": ["…", …]}}
    ]}

A proposal with an empty `citations` list is valid JSON and reaches the gate, which rejects it
outright: "no citation" is the gate's decision, recorded in the audit log, not a schema error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from citationgate.errors import ProposalError
from citationgate.model import AbsenceEvidence, CitationRequest, Proposal

_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)
NonEmpty = Annotated[StrictStr, Field(min_length=1)]


class _Citation(BaseModel):
    model_config = _STRICT
    quote: StrictStr
    section: StrictStr | None = None
    page: Annotated[StrictInt, Field(ge=1)] | None = None
    near: Annotated[StrictInt, Field(ge=0)] | None = None


class _QuoteProposal(BaseModel):
    model_config = _STRICT
    id: NonEmpty
    claim: NonEmpty
    rule: StrictStr | None = None
    severity: StrictStr | None = None
    citations: list[_Citation]


class _Absence(BaseModel):
    model_config = _STRICT
    requirement: NonEmpty
    searched: list[StrictStr]
    coverage: list[StrictStr] = []


class _AbsenceProposal(BaseModel):
    model_config = _STRICT
    id: NonEmpty
    claim: NonEmpty
    rule: StrictStr | None = None
    severity: StrictStr | None = None
    absence: _Absence


def _path(prefix: str, loc: Sequence[int | str]) -> str:
    out = prefix
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _message(err: Mapping[str, Any]) -> str:
    kind = err.get("type", "")
    if kind == "missing":
        return "field required"
    if kind == "extra_forbidden":
        return "unknown field (not part of the proposals shape)"
    msg = str(err.get("msg", "invalid value"))
    got = err.get("input")
    if kind.endswith("_type") and got is not None:
        msg += f", got {_json_type(got)}"
    return msg[:1].lower() + msg[1:]


def parse_proposals(data: object, *, source: str = "proposals") -> list[Proposal]:
    """Validate untrusted proposals JSON (already decoded) into `Proposal` values.

    Raises `ProposalError` ("{source}: proposals[2].citations[0].quote: field required") on the
    first problem found, in document order.
    """
    if not isinstance(data, dict):
        raise ProposalError(
            f'{source}: expected a JSON object {{"proposals": [...]}}, got {_json_type(data)}'
        )
    extra = sorted(k for k in data if k != "proposals")
    if extra:
        raise ProposalError(f"{source}: {extra[0]}: unknown field (expected only 'proposals')")
    if "proposals" not in data:
        raise ProposalError(f"{source}: proposals: field required")
    items = data["proposals"]
    if not isinstance(items, list):
        raise ProposalError(f"{source}: proposals: expected a list, got {_json_type(items)}")
    out: list[Proposal] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        where = f"proposals[{i}]"
        if not isinstance(item, dict):
            raise ProposalError(f"{source}: {where}: expected an object, got {_json_type(item)}")
        if "absence" in item and "citations" in item:
            raise ProposalError(
                f"{source}: {where}: has both 'citations' and 'absence' (a proposal is one or the other)"
            )
        model: type[_QuoteProposal] | type[_AbsenceProposal]
        model = _AbsenceProposal if "absence" in item else _QuoteProposal
        try:
            parsed = model.model_validate(item)
        except ValidationError as exc:
            err = exc.errors()[0]
            raise ProposalError(f"{source}: {_path(where, err['loc'])}: {_message(err)}") from None
        if parsed.id in seen:
            first = seen[parsed.id]
            raise ProposalError(
                f"{source}: {where}.id: duplicate id '{parsed.id}' (first used by proposals[{first}])"
            )
        seen[parsed.id] = i
        out.append(_to_proposal(parsed))
    return out


def _to_proposal(p: _QuoteProposal | _AbsenceProposal) -> Proposal:
    if isinstance(p, _AbsenceProposal):
        return Proposal(
            id=p.id,
            claim=p.claim,
            rule=p.rule,
            severity=p.severity,
            absence=AbsenceEvidence(
                requirement=p.absence.requirement,
                searched=tuple(p.absence.searched),
                coverage=tuple(p.absence.coverage),
            ),
        )
    return Proposal(
        id=p.id,
        claim=p.claim,
        rule=p.rule,
        severity=p.severity,
        citations=tuple(
            CitationRequest(quote=c.quote, section=c.section, page=c.page, near=c.near) for c in p.citations
        ),
    )


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


__all__ = ["parse_proposals"]
