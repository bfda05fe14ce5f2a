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
from citationgate.untrusted import MAX_PROPOSALS, MAX_QUOTE_CHARS

_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)
NonEmpty = Annotated[StrictStr, Field(min_length=1)]


class CitationIn(BaseModel):
    """A quote the proposer relies on, copied from the contract word for word, with optional hints
    that pick one occurrence when the words occur more than once."""

    model_config = _STRICT
    quote: StrictStr = Field(
        max_length=MAX_QUOTE_CHARS,
        description="The contract's words, copied verbatim (at least 10 characters; an ellipsis "
        "marks an omission and each piece must be found in order).",
    )
    section: StrictStr | None = Field(default=None, description="The clause label or heading, e.g. '11.2'.")
    page: Annotated[StrictInt, Field(ge=1)] | None = Field(default=None, description="PDF page, from 1.")
    near: Annotated[StrictInt, Field(ge=0)] | None = Field(
        default=None, description="An approximate character offset into the document's text."
    )


class QuoteProposalIn(BaseModel):
    """A claim about the contract backed by quotes; it surfaces only if one quote verifies."""

    model_config = _STRICT
    id: NonEmpty = Field(description="The proposer's own id; kept as `proposal_id` on every surface.")
    claim: NonEmpty = Field(description="What the proposer says the contract means.")
    rule: StrictStr | None = Field(default=None, description="The proposer's rule or topic id.")
    severity: StrictStr | None = Field(default=None, description="info | low | medium | high | critical")
    citations: list[CitationIn]


class AbsenceIn(BaseModel):
    """What was searched for and not found (an absence finding is never quote-verified)."""

    model_config = _STRICT
    requirement: NonEmpty = Field(description="The clause that should be there, e.g. 'governing law'.")
    searched: list[StrictStr] = Field(description="The words or patterns searched for.")
    coverage: list[StrictStr] = Field(default=[], description="Which parts of the document were searched.")


class AbsenceProposalIn(BaseModel):
    """A claim that the contract lacks something: disclosed as not quote-verified, high supervision."""

    model_config = _STRICT
    id: NonEmpty = Field(description="The proposer's own id; kept as `proposal_id` on every surface.")
    claim: NonEmpty
    rule: StrictStr | None = None
    severity: StrictStr | None = None
    absence: AbsenceIn


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
    if len(items) > MAX_PROPOSALS:
        raise ProposalError(
            f"{source}: proposals: {len(items):,} proposals is over the limit of {MAX_PROPOSALS:,} "
            "in one file"
        )
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
        model: type[QuoteProposalIn] | type[AbsenceProposalIn]
        model = AbsenceProposalIn if "absence" in item else QuoteProposalIn
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


def parse_citations(data: object, *, source: str = "quotes") -> list[CitationRequest]:
    """Validate a bare list of citations (`[{"quote", "section"?, "page"?, "near"?}, …]`); errors name
    the JSON path, e.g. "quotes[1].quote: field required"."""
    if not isinstance(data, list):
        raise ProposalError(f"{source}: expected a list of quotes, got {_json_type(data)}")
    out: list[CitationRequest] = []
    for i, item in enumerate(data):
        try:
            c = CitationIn.model_validate(item)
        except ValidationError as exc:
            err = exc.errors()[0]
            raise ProposalError(f"{source}: {_path(f'{source}[{i}]', err['loc'])}: {_message(err)}") from None
        out.append(CitationRequest(quote=c.quote, section=c.section, page=c.page, near=c.near))
    return out


def _to_proposal(p: QuoteProposalIn | AbsenceProposalIn) -> Proposal:
    if isinstance(p, AbsenceProposalIn):
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


__all__ = [
    "AbsenceIn",
    "AbsenceProposalIn",
    "CitationIn",
    "QuoteProposalIn",
    "parse_citations",
    "parse_proposals",
]
