"""The playbook file contract (YAML, `schema: citationgate-playbook/1`) and loading it.

Validation is pydantic with extra fields forbidden, then a second pass that compiles every regular
expression and parses every predicate against the clause's declared values. Any failure is a
`PlaybookError` naming the file, the line, the field path, and what was expected — a misspelt field in a
`when` fails here, not halfway through a review. The YAML is composed with its node marks kept, so pydantic's
error paths map back to line numbers.
"""

from __future__ import annotations

import hashlib
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from playbooks.bounded_yaml import BoundedLoader, too_large
from playbooks.errors import PlaybookError
from playbooks.extract import BOOL_CUES, CUES, EXCLUSION_TRIGGERS
from playbooks.locator.categories import CATEGORIES
from playbooks.predicates import FieldKind, Predicate, PredicateSyntaxError, parse_predicate
from playbooks.regex_safety import backtracking_risk
from playbooks.regex_safety import bounded as bounded_rx

__all__ = [
    "OUTCOMES",
    "SCHEMA_ID",
    "SEVERITIES",
    "CheckModel",
    "ClauseModel",
    "CompiledCheck",
    "CompiledClause",
    "CompiledField",
    "CompiledPosition",
    "Playbook",
    "PlaybookFile",
    "load_playbook_file",
    "parse_playbook",
]

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

    @model_validator(mode="after")
    def _kind_fits_type(self) -> ExtractModel:
        if self.kind is not None:
            fits = {"duration": ("notice", "period", "term", "deadline"), "date": ("start", "end")}.get(
                self.type, ()
            )
            if self.kind not in fits:
                raise ValueError(f"kind {self.kind!r} does not apply to a {self.type} value")
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


class IfMissingModel(_Strict):
    outcome: Literal["missing", "not_applicable", "needs_review"] = "missing"
    severity: Severity = "high"
    message: str | None = None


class ReferencedModel(_Strict):
    """Incorporation by reference: `patterns` mark a sentence that points elsewhere ("available at https://…");
    `provided_if` are patterns whose presence anywhere in the document means the referenced text is there."""

    patterns: list[str]
    provided_if: list[str] = Field(default_factory=list)
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
    clauses: list[ClauseModel] = Field(min_length=1)
    checks: list[CheckModel] = Field(default_factory=list)
    document_checks: dict[DocCheckName, DocCheckModel] = Field(default_factory=dict)
    tests: list[TestModel] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------------- compiled


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledField:
    name: str
    spec: ExtractModel
    near: tuple[re.Pattern[str], ...]
    closest_to: tuple[re.Pattern[str], ...]
    cues: Mapping[str, tuple[re.Pattern[str], ...]]  # enum / set
    true_if: tuple[re.Pattern[str], ...]
    false_if: tuple[re.Pattern[str], ...]
    after: tuple[re.Pattern[str], ...]
    pattern: re.Pattern[str] | None
    unless: tuple[re.Pattern[str], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledPosition:
    outcome: str  # unacceptable | standard | fallback
    when: Predicate
    reason: str | None
    claim: str | None
    rank: int = 0
    approval: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledClause:
    id: str
    title: str
    required: bool
    model: ClauseModel
    headings: tuple[str, ...]
    heading_keys: tuple[str, ...]  # the longest word of each heading: a cheap test before the regex
    heading_res: tuple[re.Pattern[str], ...]
    bridges: tuple[re.Pattern[str], ...]
    patterns: tuple[re.Pattern[str], ...]
    exclude: tuple[re.Pattern[str], ...]
    hints: tuple[re.Pattern[str], ...]
    fields: tuple[CompiledField, ...]
    positions: tuple[CompiledPosition, ...]  # in evaluation order: unacceptable, standard, fallbacks by rank
    not_applicable_when: Predicate | None
    referenced: tuple[re.Pattern[str], ...]
    provided_if: tuple[re.Pattern[str], ...]
    applies_to: tuple[str, ...] = ()
    role_dependent: bool = False  # some pattern speaks of {us} or {them}: its reading needs the roles bound
    about: tuple[re.Pattern[str], ...] = ()  # terms the operative sentence states (`playbooks.engine.about`)
    duty: tuple[re.Pattern[str], re.Pattern[str]] | None = None  # (the side whose promise it is, the other)


@dataclass(frozen=True, slots=True, kw_only=True)
class CompiledCheck:
    id: str
    title: str
    model: CheckModel
    when: Predicate
    applies_when: Predicate | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Playbook:
    """A loaded, validated playbook. `sha256` is the hash of the file's bytes (recorded on every review)."""

    id: str
    version: str
    title: str
    our_role: str
    sha256: str
    source: str  # the file it was read from
    model: PlaybookFile = field(repr=False)
    clauses: tuple[CompiledClause, ...] = field(repr=False)
    checks: tuple[CompiledCheck, ...] = field(repr=False)
    marks: Mapping[tuple[str | int, ...], int] = field(default_factory=dict, repr=False)
    roles: Mapping[str, str] = field(default_factory=dict, repr=False)  # what {us}/{them} were bound to
    bounded: bool = field(default=True, repr=False)  # patterns run under a time bound (all but built-ins)

    @property
    def description(self) -> str:
        return self.model.description

    @property
    def fits(self) -> tuple[str, ...]:
        return tuple(self.model.fits)

    def bind(self, roles: Mapping[str, str]) -> Playbook:
        """This playbook with `{us}`/`{them}` in its patterns bound to `roles` (regexes for each side)."""
        if dict(roles) == dict(self.roles):
            return self
        clauses, checks = _compile(
            self.model, Path(self.source).name, dict(self.marks), roles=roles, bounded=self.bounded
        )
        return replace(self, clauses=clauses, checks=checks, roles=dict(roles))

    def clause(self, clause_id: str) -> CompiledClause | None:
        return next((c for c in self.clauses if c.id == clause_id), None)


# ---------------------------------------------------------------------------------------------- loading


def load_playbook_file(path: Path) -> Playbook:
    """Read and validate a playbook YAML file; any problem is a PlaybookError naming file, line and field."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PlaybookError(
            f"{path}: no such playbook file (expected a YAML file or a built-in id)"
        ) from None
    except OSError as exc:
        raise PlaybookError(f"{path}: cannot read the playbook ({exc.strerror})") from None
    return parse_playbook(data, source=str(path))


def parse_playbook(data: bytes, *, source: str, bounded: bool = True) -> Playbook:
    """A playbook from its YAML bytes. Its patterns run under a time bound (`regex_safety`) unless
    `bounded` is False, which only the built-in playbooks, trusted and measured, are loaded with."""
    name = Path(source).name
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PlaybookError(
            f"{name}: not UTF-8 text (byte {exc.start}); a playbook is a UTF-8 YAML file"
        ) from None
    raw, marks = _compose(text, name)
    if not isinstance(raw, dict):
        raise PlaybookError(
            f"{name}: line 1: expected a mapping with schema, id, version, title, our_role, clauses"
        )
    try:
        model = PlaybookFile.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        raise PlaybookError(_describe(name, marks, loc, err)) from None
    clauses, checks = _compile(model, name, marks, bounded=bounded)
    return Playbook(
        bounded=bounded,
        marks=marks,
        id=model.id,
        version=model.version,
        title=model.title,
        our_role=model.our_role,
        sha256=hashlib.sha256(data).hexdigest(),
        source=source,
        model=model,
        clauses=clauses,
        checks=checks,
    )


Marks = dict[tuple[str | int, ...], int]


def _compose(text: str, name: str) -> tuple[Any, Marks]:
    if (why := too_large(text)) is not None:
        raise PlaybookError(f"{name}: {why}")
    loader = BoundedLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise PlaybookError(f"{name}: the file is empty (expected a playbook mapping)")
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise PlaybookError(f"{name}: {line}invalid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise PlaybookError(f"{name}: invalid YAML: {exc}") from None
    finally:
        loader.dispose()
    marks: Marks = {(): node.start_mark.line + 1}

    def walk(n: yaml.Node, path: tuple[str | int, ...]) -> None:
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                key = k.value if isinstance(k, yaml.ScalarNode) else str(k.value)
                marks[(*path, key)] = k.start_mark.line + 1
                walk(v, (*path, key))
        elif isinstance(n, yaml.SequenceNode):
            for i, v in enumerate(n.value):
                marks[(*path, i)] = v.start_mark.line + 1
                walk(v, (*path, i))

    walk(node, ())
    return data, marks


def _line(marks: Marks, loc: tuple[str | int, ...]) -> int:
    for n in range(len(loc), -1, -1):
        if loc[:n] in marks:
            return marks[loc[:n]]
    return 1


def _dotted(loc: tuple[str | int, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _model_fields_at(loc: tuple[str | int, ...]) -> list[str] | None:
    """The field names allowed at `loc` (for "unknown field" messages)."""
    tp: Any = PlaybookFile
    for part in loc:
        tp = _unwrap(tp, part)
        if tp is None:
            return None
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [f.alias or n for n, f in tp.model_fields.items()]
    return None


def _unwrap(tp: Any, part: str | int) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(tp):
            got = _unwrap(arg, part)
            if got is not None:
                return got
        return None
    if origin is list and isinstance(part, int):
        return typing.get_args(tp)[0]
    if origin is dict and isinstance(part, str):
        return typing.get_args(tp)[1]
    if isinstance(tp, type) and issubclass(tp, BaseModel) and isinstance(part, str):
        for n, f in tp.model_fields.items():
            if part in (n, f.alias):
                return f.annotation
    return None


_OUTCOME_TAGS = {"literal['standard'", "TestExpectModel"}


def _describe(name: str, marks: Marks, loc: tuple[str | int, ...], err: Mapping[str, Any]) -> str:
    # pydantic adds union-member tags to the path; drop them so the path reads like the YAML
    clean = tuple(
        p
        for p in loc
        if not (isinstance(p, str) and (p.startswith(("literal[", "function-")) or p in _OUTCOME_TAGS))
    )
    line = _line(marks, clean)
    where = _dotted(clean)
    kind = err.get("type", "")
    if kind == "extra_forbidden":
        allowed = _model_fields_at(clean[:-1])
        expected = f" (expected one of: {', '.join(allowed)})" if allowed else ""
        return f"{name}: line {line}: {where}: unknown field '{clean[-1]}'{expected}"
    if kind == "missing":
        return f"{name}: line {line}: {where}: required field missing"
    got = err.get("input")
    got_s = "" if isinstance(got, dict | list) else f", got {got!r}"
    return f"{name}: line {line}: {where}: {err.get('msg', 'invalid value')}{got_s}"


#: what `{us}` and `{them}` stand for before a contract's parties are bound: the generic words of each side
UNBOUND_ROLES: Mapping[str, str] = {
    "us": r"(?:customer|client|recipient|purchaser|buyer|licensee|subscriber)",
    "them": r"(?:supplier|vendor|provider|service\s+provider|contractor|consultant|licensor|developer"
    r"|seller)",
}


#: a subject that names each party ("either Party may audit", "a Party shall not solicit", "each Party
#: warrants", "shall permit the other Party to inspect"): what it says holds of us and of them alike
MUTUAL_PARTY = (
    r"(?:\b(?:either|each|any)\s+(?:of\s+the\s+)?part(?:y|ies)(?!\s+(?:hereto\s+)?other\s+than)"
    r"|\ba\s+party(?!\s+to\b)|\bthe\s+other\s+party)"
)
#: where `{us}`/`{them}` also stand for a mutual subject: where the words say something holds of a side
#: (locating the clause, its hints, a yes/no's "yes" words). Not in `false_if`, `exclude` or the cues of an
#: enum or holder value: "each Party's liability" is no evidence that only the supplier's is capped.
_MUTUAL_AT = frozenset({"patterns", "hints", "true_if"})


class _Risky(Exception):
    """A pattern `backtracking_risk` refuses (its message says why)."""


@lru_cache(maxsize=8192)
def _regex(pattern: str, literal: bool) -> re.Pattern[str]:
    """One pattern compiled and checked once per process, however many times the playbook is compiled.

    `Playbook.bind` recompiles the playbook for each contract's parties, but only its `{us}`/`{them}`
    patterns change; the rest (most of them) come from here rather than being parsed and checked for
    catastrophic backtracking again for every document. The same text gives the same result.
    """
    if literal:
        words = [re.escape(w) for w in pattern.split()]
        return re.compile(r"\b" + r"[\s\-]+".join(words) + r"\b", re.IGNORECASE)
    compiled = re.compile(pattern, re.IGNORECASE)
    risk = backtracking_risk(pattern)
    if risk is not None:
        raise _Risky(risk)
    return compiled


@lru_cache(maxsize=1024)
def _builtin_regex(pattern: str) -> re.Pattern[str]:
    """A built-in cue or trigger (not checked: they ship with the code), compiled once per process."""
    return re.compile(pattern, re.IGNORECASE)


def _compile(
    model: PlaybookFile,
    name: str,
    marks: Marks,
    *,
    roles: Mapping[str, str] | None = None,
    bounded: bool = True,
) -> tuple[tuple[CompiledClause, ...], tuple[CompiledCheck, ...]]:
    bound = {**UNBOUND_ROLES, **(roles or {})}
    templated: list[bool] = [False]

    def fail(loc: tuple[str | int, ...], message: str) -> PlaybookError:
        return PlaybookError(f"{name}: line {_line(marks, loc)}: {_dotted(loc)}: {message}")

    def rx(pattern: str, loc: tuple[str | int, ...], *, literal: bool = False) -> re.Pattern[str]:
        if "{us}" in pattern or "{them}" in pattern:
            templated[0] = True
            us, them = bound["us"], bound["them"]
            if len(loc) >= 2 and loc[-2] in _MUTUAL_AT:
                us, them = f"(?:{us}|{MUTUAL_PARTY})", f"(?:{them}|{MUTUAL_PARTY})"
            pattern = pattern.replace("{us}", us).replace("{them}", them)
        try:
            compiled = _regex(pattern, literal)
        except re.error as exc:
            raise fail(loc, f"invalid regular expression {pattern!r} ({exc})") from None
        except _Risky as risk:
            raise fail(
                loc,
                f"regular expression {pattern!r} can backtrack catastrophically: {risk}; bound the inner "
                "repetition, or make it atomic (?>…) or possessive (*+, ++)",
            ) from None
        if bounded and not literal:  # a custom playbook's pattern also runs under a time bound
            return bounded_rx(compiled, where=f"{name}: line {_line(marks, loc)}: {_dotted(loc)}")
        return compiled

    def rxs(
        patterns: list[str], loc: tuple[str | int, ...], *, literal: bool = False
    ) -> tuple[re.Pattern[str], ...]:
        return tuple(rx(p, (*loc, i), literal=literal) for i, p in enumerate(patterns))

    seen: set[str] = set()
    clauses: list[CompiledClause] = []
    kinds_by_clause: dict[str, dict[str, FieldKind]] = {}
    for ci, c in enumerate(model.clauses):
        templated[0] = False
        cloc: tuple[str | int, ...] = ("clauses", ci)
        if c.id in seen:
            raise fail((*cloc, "id"), f"duplicate clause id '{c.id}' (expected each clause id once)")
        seen.add(c.id)
        if not (c.locate.headings or c.locate.patterns):
            raise fail((*cloc, "locate"), "expected at least one of headings or patterns")
        fields: list[CompiledField] = []
        kinds: dict[str, FieldKind] = {}
        for fname, spec in c.extract.items():
            floc = (*cloc, "extract", fname)
            if not re.match(_ID, fname):
                raise fail(floc, f"field name '{fname}' must be lower_snake_case")
            fields.append(_compile_field(fname, spec, floc, fail, rxs))
            kinds[fname] = FieldKind(type=spec.type, values=tuple(spec.values))
        kinds_by_clause[c.id] = kinds

        def pred(
            data: dict[str, Any], loc: tuple[str | int, ...], kinds: dict[str, FieldKind] = kinds
        ) -> Predicate:
            try:
                return parse_predicate(data, fields=kinds, path=loc)
            except PredicateSyntaxError as exc:
                raise fail(exc.path, exc.message) from None

        ploc = (*cloc, "positions")
        positions: list[CompiledPosition] = []
        for i, p in enumerate(c.positions.unacceptable):
            positions.append(
                CompiledPosition(
                    outcome="unacceptable",
                    when=pred(p.when, (*ploc, "unacceptable", i, "when")),
                    reason=p.reason,
                    claim=p.claim,
                )
            )
        if c.positions.standard is not None:
            p = c.positions.standard
            positions.append(
                CompiledPosition(
                    outcome="standard",
                    when=pred(p.when, (*ploc, "standard", "when")),
                    reason=p.reason,
                    claim=p.claim,
                )
            )
        ranks = [f.rank for f in c.positions.fallbacks]
        if len(set(ranks)) != len(ranks):
            raise fail((*ploc, "fallbacks"), f"fallback ranks must be distinct, got {ranks}")
        order = sorted(range(len(c.positions.fallbacks)), key=lambda i: c.positions.fallbacks[i].rank)
        for i in order:
            f = c.positions.fallbacks[i]
            positions.append(
                CompiledPosition(
                    outcome="fallback",
                    when=pred(f.when, (*ploc, "fallbacks", i, "when")),
                    reason=f.reason,
                    claim=f.claim,
                    rank=f.rank,
                    approval=f.approval,
                )
            )
        na = pred(c.not_applicable_when, (*cloc, "not_applicable_when")) if c.not_applicable_when else None
        ref = c.referenced
        was = templated[0]  # what a clause is about locates it; it does not make its reading role-dependent
        about = rxs(c.locate.about, (*cloc, "locate", "about"))
        duty = None
        if c.locate.duty is not None:
            own, other = ("{us}", "{them}") if c.locate.duty == "us" else ("{them}", "{us}")
            dloc = (*cloc, "locate", "duty")
            duty = (rx(rf"\b(?:{own})\b", dloc), rx(rf"\b(?:{other})\b", dloc))
        templated[0] = was
        clauses.append(
            CompiledClause(
                id=c.id,
                title=c.title,
                required=c.required,
                model=c,
                headings=tuple(h.lower() for h in c.locate.headings),
                heading_keys=tuple(max(h.lower().split(), key=len, default="") for h in c.locate.headings),
                heading_res=rxs(c.locate.headings, (*cloc, "locate", "headings"), literal=True),
                bridges=rxs(c.locate.bridges, (*cloc, "locate", "bridges"), literal=True),
                patterns=rxs(c.locate.patterns, (*cloc, "locate", "patterns")),
                exclude=rxs(c.locate.exclude, (*cloc, "locate", "exclude")),
                hints=rxs(c.locate.hints, (*cloc, "locate", "hints")),
                fields=tuple(fields),
                positions=tuple(positions),
                not_applicable_when=na,
                referenced=rxs(ref.patterns, (*cloc, "referenced", "patterns")) if ref else (),
                provided_if=rxs(ref.provided_if, (*cloc, "referenced", "provided_if")) if ref else (),
                applies_to=tuple(c.applies_to),
                role_dependent=templated[0],
                about=about,
                duty=duty,
            )
        )
    checks: list[CompiledCheck] = []
    for ki, k in enumerate(model.checks):
        kloc: tuple[str | int, ...] = ("checks", ki)
        for ri, r in enumerate(k.requires):
            if r not in kinds_by_clause:
                raise fail(
                    (*kloc, "requires", ri),
                    f"unknown clause '{r}' (expected one of: {', '.join(kinds_by_clause)})",
                )
        kinds = {f"{cid}.{fn}": fk for cid in k.requires for fn, fk in kinds_by_clause[cid].items()}
        try:
            when = parse_predicate(k.when, fields=kinds, path=(*kloc, "when"))
            applies = (
                parse_predicate(k.applies_when, fields=kinds, path=(*kloc, "applies_when"))
                if k.applies_when is not None
                else None
            )
        except PredicateSyntaxError as exc:
            raise fail(exc.path, exc.message) from None
        title = k.title or k.id.replace("_", " ").capitalize()
        checks.append(CompiledCheck(id=k.id, title=title, model=k, when=when, applies_when=applies))
    for ti, t in enumerate(model.tests):
        for cid in t.expect:
            if cid not in seen and cid not in {k.id for k in model.checks} and cid not in _DOC_CHECK_RULES:
                raise fail(
                    ("tests", ti, "expect", cid),
                    f"unknown clause or check '{cid}' (expected one of: {', '.join(seen)})",
                )
    return tuple(clauses), tuple(checks)


_CATCH_ALL = ("unclear", "other", "none")  # enum values that mean "no cue matched": need no cues
_DOC_CHECK_RULES = ("placeholders", "number_words", "cross_references", "undefined_terms", "unused_terms")


def _compile_field(
    fname: str, spec: ExtractModel, floc: tuple[str | int, ...], fail: Any, rxs: Any
) -> CompiledField:
    cues: dict[str, tuple[re.Pattern[str], ...]] = {}
    if spec.type == "holder":
        if len(spec.values) != 3 or not spec.right:
            raise fail(
                (*floc, "values" if len(spec.values) != 3 else "right"),
                "a holder needs three values (both, us, them — e.g. [either, customer, supplier]) "
                "and `right`: patterns for the act held",
            )
        rxs(spec.right, (*floc, "right"))  # checked like every pattern (the reader compiles its grammar)
        defaults = {spec.values[1]: ["{us}"], spec.values[2]: ["{them}"]}
        for v in spec.values[1:]:
            cues[v] = rxs(spec.cues.get(v, defaults[v]), (*floc, "cues", v))
    elif spec.type in ("enum", "set"):
        if not spec.values:
            raise fail((*floc, "values"), f"a {spec.type} needs its list of values")
        for extra in spec.cues:
            if extra not in spec.values:
                raise fail(
                    (*floc, "cues", extra), f"'{extra}' is not one of values ({', '.join(spec.values)})"
                )
        for v in spec.values:
            if v in spec.cues:
                cues[v] = rxs(spec.cues[v], (*floc, "cues", v))
            elif v in CUES:
                cues[v] = tuple(_builtin_regex(p) for p in CUES[v])
            elif v != spec.default and v not in _CATCH_ALL:
                raise fail(
                    (*floc, "values"),
                    f"no cues for value '{v}' "
                    f"(expected cues: {{{v}: [patterns]}} or a built-in value: {', '.join(CUES)})",
                )
    if spec.type == "duration" and spec.unit is None:
        raise fail((*floc, "type"), "a duration needs a unit (hours, days, weeks, months or years)")
    true_if, false_if = spec.true_if, spec.false_if
    if spec.type == "bool" and not (true_if or false_if):
        if fname not in BOOL_CUES:
            raise fail(
                (*floc, "type"),
                "a bool needs true_if and/or false_if cues "
                f"(built-in cues exist for: {', '.join(BOOL_CUES)})",
            )
        true_if, false_if = list(BOOL_CUES[fname][0]), list(BOOL_CUES[fname][1])
    if spec.anywhere and not spec.near:
        raise fail((*floc, "anywhere"), "anywhere: true needs near patterns to say where to read")
    if spec.type == "text" and not spec.pattern:
        raise fail((*floc, "type"), "a text value needs a pattern")
    after: tuple[re.Pattern[str], ...] = ()
    if spec.after is True:
        after = tuple(_builtin_regex(p) for p in EXCLUSION_TRIGGERS)
    elif isinstance(spec.after, list):
        after = rxs(spec.after, (*floc, "after"))
    pattern = rxs([spec.pattern], (*floc, "pattern"))[0] if spec.pattern else None
    return CompiledField(
        name=fname,
        spec=spec,
        near=rxs(spec.near, (*floc, "near")),
        closest_to=rxs(spec.closest_to or spec.near, (*floc, "closest_to" if spec.closest_to else "near")),
        cues=cues,
        true_if=rxs(true_if, (*floc, "true_if")),
        false_if=rxs(false_if, (*floc, "false_if")),
        after=after,
        pattern=pattern,
        unless=rxs(spec.unless, (*floc, "unless")),
    )
