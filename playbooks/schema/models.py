"""The playbook file as written: the YAML document's models, validated strictly (unknown fields refused)."""

from __future__ import annotations

import typing
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from playbooks.contract_type.classify import TYPES
from playbooks.locator.categories import CATEGORIES

SCHEMA_ID = "citationgate-playbook/1"
Outcome = Literal[
    "standard",
    "fallback",
    "unacceptable",
    "missing",
    "referenced_not_provided",
    "needs_review",
    "not_applicable",
]
OUTCOMES: tuple[str, ...] = typing.get_args(Outcome)
Severity = Literal["info", "low", "medium", "high", "critical"]
SEVERITIES: tuple[str, ...] = typing.get_args(Severity)
ExtractType = Literal[
    "money", "duration", "percent", "jurisdiction", "date", "bool", "enum", "set", "text", "holder"
]
Unit = Literal["hours", "days", "weeks", "months", "years"]
DocCheckName = Literal["placeholders", "number_words", "cross_references", "undefined_terms", "unused_terms"]

_ID = r"^[a-z][a-z0-9_]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ExtractModel(_Strict):
    """How to read one typed value from the located clause."""

    type: ExtractType
    unit: Unit | None = None  # duration: the unit the value is expressed in
    values: list[str] = Field(default_factory=list)  # enum / set: the allowed values
    cues: dict[str, list[str]] = Field(default_factory=dict)  # enum / set: value → regex cues
    true_if: list[str] = Field(default_factory=list)  # bool: cues meaning True
    false_if: list[str] = Field(default_factory=list)  # bool: cues meaning False (checked first)
    near: list[str] = Field(default_factory=list)  # read only sentences matching one of these
    # of several values in a passage, take the one nearest these (default: near)
    closest_to: list[str] = Field(default_factory=list)
    # not in the located clause? read it wherever `near` matches (a schedule, say)
    anywhere: bool = False
    # set: read cues after a trigger (true → the built-in carve-out triggers)
    after: list[str] | bool = False
    default: Any = None  # value when nothing is found (bool/enum/set); None → unknown
    pattern: str | None = None  # text: a regex; group 1 (or the match) is the value
    # holder: who may do `right` (regexes for the act, "terminat\\w*"); values name [both, us, them];
    # a right whose own words match `unless` is another right (for breach, on insolvency …). Where the
    # contract grants rights of other kinds only, and none of `true_if` (words that surely mean this
    # right, "convenience") occurs outside them, the clause is absent.
    right: list[str] = Field(default_factory=list)
    unless: list[str] = Field(default_factory=list)
    # duration/date: only values of this kind, typed by their context (`playbooks.kinds`): a notice
    # period is not a term, "a 360-day year" is not a payment term, a start date is not an end date
    kind: Literal["notice", "period", "term", "deadline", "start", "end"] | None = None
    # bool: where no cue decides it, whose promise the clause's own sentence is (the subject of its "shall",
    # "agrees", "covenants"): `us` → yes where it is ours or both sides', no where it is the other side's
    # alone; `them` the other way round. A reading, quoted; a sentence that promises nothing reads nothing.
    binds: Literal["us", "them"] | None = None
    # with `binds`: only a promise not to do something counts ("shall not", "agrees not to", "neither Party
    # shall"): a restraint's field is not read from a duty to act ("the Company shall advise Consultant")
    restraint: bool = False
    # bool: a qualification of the position ("the standard comes with no remedy for falling short of it"),
    # said in the finding only where its words were found — never shown as read from the clause's silence
    caveat: bool = False

    @model_validator(mode="after")
    def _kind_fits_type(self) -> ExtractModel:
        if self.kind is not None:
            fits = {"duration": ("notice", "period", "term", "deadline"), "date": ("start", "end")}.get(
                self.type, ()
            )
            if self.kind not in fits:
                raise ValueError(f"kind {self.kind!r} does not apply to a {self.type} value")
        if self.binds is not None and self.type != "bool":
            raise ValueError(f"binds applies to a bool value, not a {self.type} value")
        if self.restraint and self.binds is None:
            raise ValueError("restraint applies with binds")
        if self.caveat and self.type != "bool":
            raise ValueError(f"caveat applies to a bool value, not a {self.type} value")
        return self


class LocateModel(_Strict):
    headings: list[str] = Field(default_factory=list)
    bridges: list[str] = Field(default_factory=list)
    patterns: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)  # sentences matching these are not this clause
    # weaker language that may be the clause: when nothing is located but a hint matches, the outcome is
    # needs_review quoting the hint (never "missing" while a plausible passage exists)
    hints: list[str] = Field(default_factory=list)
    # what the clause is about: terms its operative sentence must state ("liability … limited",
    # "consequential damages"). A located sentence that states none of them is not the clause unless it sits
    # under one of the clause's own headings; without `about`, the patterns stand for the subject under
    # another clause's heading (`playbooks.engine.about`)
    about: list[str] = Field(default_factory=list)
    # whose promise the clause states: a sentence whose promise is the other side's alone (the subject of its
    # "shall", "warrants", "agrees to") is not this clause — the customer's own duty of care is no warranty
    duty: Literal["us", "them"] | None = None
    # the clause category (CUAD-style, one of `playbooks.locator.CATEGORIES`) whose learned head backs this
    # clause: its top passages are candidates beside the patterns' and headings'
    category: str | None = None
    # the category is only a part of the clause (Warranty Duration of warranties; a Third Party Beneficiary of
    # a third-party rights clause, which may deny one): the locator reading none says nothing of the clause
    category_is_part: bool = False
    # the clause is the opening statement that names the parties: the passage where the parties reader
    # (`playbooks.parties`) reads the first of two or more parties is located before headings and patterns
    preamble: bool = False

    @field_validator("category")
    @classmethod
    def _known_category(cls, v: str | None) -> str | None:
        if v is not None and v not in CATEGORIES:
            raise ValueError(f"unknown locator category {v!r} (expected one of: {', '.join(CATEGORIES)})")
        return v


class PositionModel(_Strict):
    when: dict[str, Any]
    reason: str | None = None
    claim: str | None = None  # a sentence template; {field} is replaced by the quoted text of the value


class FallbackModel(PositionModel):
    rank: int = Field(ge=1)
    approval: str | None = None


class PositionsModel(_Strict):
    unacceptable: list[PositionModel] = Field(default_factory=list)
    standard: PositionModel | None = None
    fallbacks: list[FallbackModel] = Field(default_factory=list)
    otherwise: Outcome = "needs_review"
    # what the finding says where no position matches, in words a lawyer can act on ("a party's name is left
    # blank"); default "no position of the playbook matched"
    unmatched: str | None = None


def _known_contract_types(types: list[str]) -> list[str]:
    unknown = [t for t in types if t not in TYPES]
    if unknown:
        raise ValueError(f"unknown contract type {unknown[0]!r}; the types are: {', '.join(TYPES)}")
    return types


class IfMissingModel(_Strict):
    outcome: Literal["missing", "not_applicable", "needs_review"] = "missing"
    severity: Severity = "high"
    message: str | None = None


class ReferencedModel(_Strict):
    """Incorporation by reference: `patterns` mark a sentence that points elsewhere ("available at https://…");
    `provided_if` are patterns whose presence anywhere in the document means the referenced text is there.
    `pointer_only`: the reference decides only where the clause located is the pointing sentence itself (a
    contract with its own confidentiality clause that also mentions the parties' NDA still has one)."""

    patterns: list[str]
    provided_if: list[str] = Field(default_factory=list)
    pointer_only: bool = False
    severity: Severity = "high"


class ClauseModel(_Strict):
    id: str = Field(pattern=_ID)
    title: str
    required: bool = False
    locate: LocateModel
    extract: dict[str, ExtractModel] = Field(default_factory=dict)
    positions: PositionsModel = Field(default_factory=PositionsModel)
    not_applicable_when: dict[str, Any] | None = None
    referenced: ReferencedModel | None = None
    if_missing: IfMissingModel | None = None
    severity: dict[Outcome, Severity] = Field(default_factory=dict)
    guidance: str = ""
    model_language: str = ""
    #: contract types the clause applies to (empty: every type); elsewhere it is not_applicable
    applies_to: list[str] = Field(default_factory=list)
    #: contract types that are not expected to have the clause: where it is absent from one of them the
    #: absence is no gap (`not_applicable`, saying so), though a clause the contract does have is judged
    not_expected_in: list[str] = Field(default_factory=list)

    @field_validator("applies_to", "not_expected_in")
    @classmethod
    def _known_types(cls, v: list[str]) -> list[str]:
        return _known_contract_types(v)


class CheckModel(_Strict):
    id: str = Field(pattern=_ID)
    title: str | None = None  # default: the id in words
    requires: list[str] = Field(min_length=1)
    when: dict[str, Any]  # the position that must hold
    #: the check is made only when this holds (e.g. only when there is a cap to carve the indemnity out of)
    applies_when: dict[str, Any] | None = None
    reason: str = "the cross-clause position does not hold"  # said when it does not hold
    claim: str | None = None
    fail_outcome: Outcome = "unacceptable"
    severity: dict[Outcome, Severity] = Field(default_factory=dict)
    guidance: str = ""
    model_language: str = ""


class DocCheckModel(_Strict):
    outcome: Outcome = "needs_review"
    severity: Severity = "medium"
    limit: int = Field(default=20, ge=1)


class TestExpectModel(_Strict):
    outcome: Outcome
    values: dict[str, Any] = Field(default_factory=dict)


class TestModel(_Strict):
    name: str | None = None
    text: str
    expect: dict[str, Outcome | TestExpectModel]


class PlaybookFile(_Strict):
    schema_: Literal["citationgate-playbook/1"] = Field(alias="schema")
    id: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    version: str = Field(pattern=r"^\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.]+)?$")
    title: str
    our_role: Literal["customer", "supplier", "discloser", "recipient", "mutual", "licensee", "licensor"]
    description: str = ""
    #: contract types the playbook is written for (empty: any); a review of another type says so up front
    fits: list[str] = Field(default_factory=list)

    @field_validator("fits")
    @classmethod
    def _known_types(cls, v: list[str]) -> list[str]:
        return _known_contract_types(v)

    clauses: list[ClauseModel] = Field(min_length=1)
    checks: list[CheckModel] = Field(default_factory=list)
    document_checks: dict[DocCheckName, DocCheckModel] = Field(default_factory=dict)
    tests: list[TestModel] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------------- compiled
