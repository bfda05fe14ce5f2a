"""Proposals from outside agents: untrusted JSON, validated before the gate sees it.

The shape (unknown fields are rejected; every error names its JSON path)::

    {"proposals": [
        {"id": "p1", "claim": "…", "rule"?: "…", "severity"?: "…",
         "citations": [{"quote": "…", "section"?: "11.2", "page"?: 3, "near"?: 10500}]},
        {"id": "p2", "claim": "…", "absence": {"requirement": "…", "searched": ["…", …]}}
    ]}

A proposal with an empty `citations` list is valid JSON and reaches the gate, which rejects it
outright: "no citation" is the gate's decision, recorded in the audit log, not a schema error.

The shape is the pydantic models of `citationgate.schemas` (what `citationgate schema proposals` prints).
A quote proposal whose every value is plainly of that shape — the exact JSON types, lengths within bounds,
no other key — is read directly (`_plain_proposal`), without importing pydantic, which would cost a
fresh `verify` more than reading its 1,000 proposals; anything else (an absence, a wrong type, a missing
or unknown field, a lone surrogate) is validated by the models, which word the error.
`tests/test_proposals_plain.py` checks the direct reading against the models: the same fields and
bounds, and on generated input the same proposals where it reads one, and a model error wherever it
declines one that is invalid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeGuard

from citationgate.errors import ProposalError
from citationgate.model import AbsenceEvidence, CitationRequest, Proposal
from citationgate.untrusted import MAX_PROPOSALS, MAX_QUOTE_CHARS, json_type

if TYPE_CHECKING:
    from citationgate.schemas import AbsenceProposalIn, QuoteProposalIn

#: The keys of a quote proposal and of a citation, as the models declare them (checked by a test).
QUOTE_PROPOSAL_KEYS = frozenset({"id", "claim", "rule", "severity", "citations"})
CITATION_KEYS = frozenset({"quote", "section", "page", "near"})
#: The largest integer read directly (a larger `page` or `near` is left to the models).
_INT_MAX = 2**63 - 1


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
        msg += f", got {json_type(got)}"
    return msg[:1].lower() + msg[1:]


def parse_proposals(data: object, *, source: str = "proposals") -> list[Proposal]:
    """Validate untrusted proposals JSON (already decoded) into `Proposal` values.

    Raises `ProposalError` ("{source}: proposals[2].citations[0].quote: field required") on the
    first problem found, in document order.
    """
    if not isinstance(data, dict):
        raise ProposalError(f'{source}: expected a JSON object {{"proposals": [...]}}, got {json_type(data)}')
    extra = sorted(k for k in data if k != "proposals")
    if extra:
        raise ProposalError(f"{source}: {extra[0]}: unknown field (expected only 'proposals')")
    if "proposals" not in data:
        raise ProposalError(f"{source}: proposals: field required")
    items = data["proposals"]
    if not isinstance(items, list):
        raise ProposalError(f"{source}: proposals: expected a list, got {json_type(items)}")
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
            raise ProposalError(f"{source}: {where}: expected an object, got {json_type(item)}")
        if "absence" in item and "citations" in item:
            raise ProposalError(
                f"{source}: {where}: has both 'citations' and 'absence' (a proposal is one or the other)"
            )
        parsed = _plain_proposal(item) or _validated_proposal(item, source=source, where=where)
        if parsed.id in seen:
            first = seen[parsed.id]
            raise ProposalError(
                f"{source}: {where}.id: duplicate id '{parsed.id}' (first used by proposals[{first}])"
            )
        seen[parsed.id] = i
        out.append(parsed)
    return out


def _validated_proposal(item: dict[str, Any], *, source: str, where: str) -> Proposal:
    """One proposal validated by the models: the value, or the `ProposalError` naming the first problem."""
    from pydantic import ValidationError

    from citationgate.schemas import AbsenceProposalIn, QuoteProposalIn

    model: type[QuoteProposalIn] | type[AbsenceProposalIn]
    model = AbsenceProposalIn if "absence" in item else QuoteProposalIn
    try:
        return _to_proposal(model.model_validate(item))
    except ValidationError as exc:
        err = exc.errors()[0]
        raise ProposalError(f"{source}: {_path(where, err['loc'])}: {_message(err)}") from None


def _plain_proposal(item: dict[str, Any]) -> Proposal | None:
    """A quote proposal read directly when every value is plainly what the models accept; else None."""
    if "absence" in item or not item.keys() <= QUOTE_PROPOSAL_KEYS:
        return None
    pid, claim, cites = item.get("id"), item.get("claim"), item.get("citations")
    rule, severity = item.get("rule"), item.get("severity")
    if not (_text(pid) and _text(claim) and _maybe_text(rule) and _maybe_text(severity)):
        return None
    if type(cites) is not list:
        return None
    citations = []
    for c in cites:
        citation = _plain_citation(c)
        if citation is None:
            return None
        citations.append(citation)
    return Proposal(id=pid, claim=claim, rule=rule, severity=severity, citations=tuple(citations))


def _plain_citation(c: object) -> CitationRequest | None:
    if type(c) is not dict or not c.keys() <= CITATION_KEYS:
        return None
    quote, section, page, near = c.get("quote"), c.get("section"), c.get("page"), c.get("near")
    if type(quote) is not str or len(quote) > MAX_QUOTE_CHARS or not _utf8(quote):
        return None
    if not (_maybe_text(section) and _maybe_int(page, 1) and _maybe_int(near, 0)):
        return None
    return CitationRequest(quote=quote, section=section, page=page, near=near)


def _utf8(s: str) -> bool:
    """No lone surrogate (the models read a string as UTF-8)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _text(v: object) -> TypeGuard[str]:
    return type(v) is str and v != "" and _utf8(v)


def _maybe_text(v: object) -> bool:
    return v is None or (type(v) is str and _utf8(v))


def _maybe_int(v: object, low: int) -> bool:
    return v is None or (type(v) is int and low <= v <= _INT_MAX)


def parse_citations(data: object, *, source: str = "quotes") -> list[CitationRequest]:
    """Validate a bare list of citations (`[{"quote", "section"?, "page"?, "near"?}, …]`); errors name
    the JSON path, e.g. "quotes[1].quote: field required"."""
    if not isinstance(data, list):
        raise ProposalError(f"{source}: expected a list of quotes, got {json_type(data)}")
    out: list[CitationRequest] = []
    for i, item in enumerate(data):
        citation = _plain_citation(item)
        if citation is None:
            from pydantic import ValidationError

            from citationgate.schemas import CitationIn

            try:
                c = CitationIn.model_validate(item)
            except ValidationError as exc:
                err = exc.errors()[0]
                where = _path(f"{source}[{i}]", err["loc"])
                raise ProposalError(f"{source}: {where}: {_message(err)}") from None
            citation = CitationRequest(quote=c.quote, section=c.section, page=c.page, near=c.near)
        out.append(citation)
    return out


def _to_proposal(p: QuoteProposalIn | AbsenceProposalIn) -> Proposal:
    from citationgate.schemas import AbsenceProposalIn

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


__all__ = ["CITATION_KEYS", "QUOTE_PROPOSAL_KEYS", "parse_citations", "parse_proposals"]
