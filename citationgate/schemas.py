"""The published JSON shapes, as pydantic models: what `citationgate schema` prints and the MCP tools declare.

Input (`Proposals`) is strict — unknown fields are rejected, as `parse_proposals` rejects them, because it
validates with the same models (reading a plainly valid proposal directly, checked against them by
`tests/test_proposals_plain.py`). Outputs describe the fields every consumer may rely on and allow more (a
playbook finding carries its `extracted` values, `guidance`, `model_language`…), so a new field never breaks a
pipeline that validates against an older schema. The models are checked against real runs in the tests,
so the schema cannot drift from what the CLI prints.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from citationgate.untrusted import MAX_QUOTE_CHARS

_OPEN = ConfigDict(extra="allow")

__all__ = [
    "SCHEMAS",
    "AbsenceIn",
    "AbsenceProposalIn",
    "AnswerCheckOut",
    "CitationIn",
    "CitationOut",
    "DocumentRef",
    "FindingOut",
    "FindingsOut",
    "Proposals",
    "QuoteProposalIn",
    "ReverifyOut",
    "ReviewOut",
    "VerifyOut",
    "inline_schema",
    "schema_json",
]


# ── input: proposals (`citationgate.proposals` validates with these) ─────────────────────────────
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


class Proposals(BaseModel):
    """What an outside agent (an LLM, a script) sends to `citationgate verify`: claims, each quoting the
    contract. A quote is checked verbatim against the document; only findings with a verified quote
    surface. An absence proposal says what was searched and not found."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, title="CitationGate proposals")
    proposals: list[QuoteProposalIn | AbsenceProposalIn]


class Occurrence(BaseModel):
    model_config = _OPEN
    start: int
    end: int
    section: str | None = None
    page: int | None = None


class CitationOut(BaseModel):
    """One citation after the gate. `text` is the document's own words at `[start, end)` (code points
    into the version's canonical text), never the proposer's; it is null unless the citation verified."""

    model_config = _OPEN
    quote: str | None = Field(description="What the proposer quoted (not shown as the document's words).")
    status: str = Field(description="verified | ambiguous | failed | rejected | unverifiable")
    match: str | None = Field(default=None, description="exact | fuzzy")
    start: int | None = None
    end: int | None = None
    text: str | None = Field(default=None, description="document.text[start:end]")
    section: str | None = None
    page: int | None = None
    occurrences: list[Occurrence] = Field(default_factory=list)
    flags: list[str] = Field(default_factory=list)
    reason: str | None = None


class FindingOut(BaseModel):
    """A gated finding. `id` is the gate's (F1, F2…, as audit entries name it); `proposal_id` is the
    proposer's own id, kept on every surface (verify, reverify, ledger, audit, findings)."""

    model_config = _OPEN
    id: str
    proposal_id: str | None = None
    status: str = Field(description="verified | needs_review | rejected (reverify: verified | moved | …)")
    evidence: str = Field(description="quote | absence")
    supervision: str | None = None
    claim: str | None = None
    rule: str | None = None
    severity: str | None = None
    citations: list[dict[str, Any]] = Field(default_factory=list)
    reason: str | None = None


class DocumentRef(BaseModel):
    model_config = _OPEN
    name: str
    text_sha256: str
    status: str = Field(description="ready | withheld")


class ReviewRef(BaseModel):
    model_config = _OPEN
    id: int | None
    kind: str


class VerifyOut(BaseModel):
    """`citationgate verify --format json`, `citationgate.verify(...)`, the MCP `verify` tool."""

    model_config = _OPEN
    review: ReviewRef
    document: DocumentRef
    findings: list[FindingOut]


class FindingsOut(VerifyOut):
    """`citationgate findings REVIEW_ID --format json`, the MCP `findings` tool: a stored review."""


class ReviewOut(BaseModel):
    """`citationgate review --format json`, `citationgate.review(...)`, the MCP `review` tool."""

    model_config = _OPEN
    review: ReviewRef
    document: DocumentRef
    summary: dict[str, Any]
    findings: list[FindingOut]


class ReverifyOut(BaseModel):
    """`citationgate reverify … --format json`, `citationgate.reverify(...)`, the MCP `reverify` tool."""

    model_config = _OPEN
    previous_review: int | None
    review: ReviewRef | None
    document: DocumentRef
    summary: dict[str, int]
    findings: list[dict[str, Any]]


class AnswerCheckOut(BaseModel):
    """`citationgate check-answer … --format json`, `citationgate.check_answer(...)`, the MCP
    `check_answer` tool. `verdict` is "pass" only if every quoted passage passed; otherwise the whole
    answer is "withheld"."""

    model_config = _OPEN
    verdict: Literal["pass", "withheld"]
    failures: int
    summary: dict[str, int]
    passages: list[dict[str, Any]]
    answer: dict[str, Any]
    review: dict[str, Any] | None
    document: dict[str, Any] | None


#: `citationgate schema NAME` prints SCHEMAS[NAME].
SCHEMAS: dict[str, type[BaseModel]] = {
    "proposals": Proposals,
    "findings": FindingsOut,
    "review": ReviewOut,
    "verify": VerifyOut,
    "reverify": ReverifyOut,
    "check-answer": AnswerCheckOut,
}


def schema_json(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one published shape, generated from its model."""
    model = SCHEMAS[name]
    schema = model.model_json_schema(mode="validation" if name == "proposals" else "serialization")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def inline_schema(annotation: Any) -> dict[str, Any]:
    """The JSON Schema of a type with every `$ref` replaced by its definition, so it can sit inside
    another schema (an MCP tool's input) whose root has no `$defs`."""
    from pydantic import TypeAdapter

    schema = TypeAdapter(annotation).json_schema()
    defs = schema.pop("$defs", {})

    def expand(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return expand(defs[ref.removeprefix("#/$defs/")])
            return {k: expand(v) for k, v in node.items()}
        if isinstance(node, list):
            return [expand(v) for v in node]
        return node

    result: dict[str, Any] = expand(schema)
    return result


def dumps(name: str) -> str:
    return json.dumps(schema_json(name), ensure_ascii=False, indent=2)


# ── shapes only the MCP tools return (the CLI prints the same values) ───────────────────────────
class IngestOut(BaseModel):
    """A stored document version: what `ingest --format json` prints, without the text (read it with
    `get_text` or the `citationgate://documents/{version_id}/text` resource)."""

    model_config = _OPEN
    version_id: int
    reused: bool = Field(description="the same bytes were stored before; that version is reused")
    name: str
    text_sha256: str
    status: str = Field(description="ready | withheld (then `reasons` says why; nothing is reviewed)")
    reasons: list[str]
    characters: int
    sections: list[dict[str, Any]]


class TextOut(BaseModel):
    """A range of a stored version's canonical text; offsets are code points, half-open."""

    model_config = _OPEN
    version_id: int
    name: str
    text_sha256: str
    length: int
    start: int
    end: int
    text: str


class AskOut(BaseModel):
    """`ask FILE "question" --format json`: ranked clauses, each with offsets and the document's text."""

    model_config = _OPEN
    question: str
    results: list[dict[str, Any]]


class QuotesOut(BaseModel):
    """Each quote located in the document, or not: `status` verified | ambiguous | failed | rejected |
    unverifiable, with offsets and the document's own text. Nothing is stored."""

    model_config = _OPEN
    document: dict[str, Any]
    quotes: list[CitationOut]


class ReviewsOut(BaseModel):
    """`findings --list --format json`: every stored review."""

    model_config = _OPEN
    reviews: list[dict[str, Any]]
