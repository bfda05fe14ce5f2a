"""Compiling a validated playbook: patterns made safe and bound to roles (`{us}`, `{them}`, the mutual
subjects), fields, positions and checks."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from playbooks.errors import PlaybookError
from playbooks.extract import BOOL_CUES, CUES, EXCLUSION_TRIGGERS
from playbooks.predicates import FieldKind, Predicate, PredicateSyntaxError, parse_predicate
from playbooks.regex_safety import backtracking_risk
from playbooks.regex_safety import bounded as bounded_rx
from playbooks.schema.compiled import CompiledCheck, CompiledClause, CompiledField, CompiledPosition
from playbooks.schema.messages import (
    Marks,
    _dotted,
    _line,
)
from playbooks.schema.models import (
    _ID,
    ExtractModel,
    PlaybookFile,
)

#: what `{us}` and `{them}` stand for before a contract's parties are bound: the generic words of each side
UNBOUND_ROLES: Mapping[str, str] = {
    "us": r"(?:customer|client|recipient|purchaser|buyer|licensee|subscriber)",
    "them": r"(?:supplier|vendor|provider|service\s+provider|contractor|consultant|licensor|developer"
    r"|seller)",
}
#: … and in a playbook for one side of a disclosure, the words of that side ("the Receiving Party")
_UNBOUND_DISCLOSURE: Mapping[str, Mapping[str, str]] = {
    "recipient": {"us": r"(?:recipient|receiving\s+party)", "them": r"(?:discloser|disclosing\s+party)"},
    "discloser": {"us": r"(?:discloser|disclosing\s+party)", "them": r"(?:recipient|receiving\s+party)"},
}


#: a subject that names each party ("either Party may audit", "a Party shall not solicit", "each Party
#: warrants", "shall permit the other Party to inspect"): what it says holds of us and of them alike
MUTUAL_PARTY = (
    r"(?:\b(?:either|each|any)\s+(?:of\s+the\s+)?part(?:y|ies)(?!\s+(?:hereto\s+)?other\s+than)"
    r"|\b(?:either|both)\s+(?:of\s+the\s+)?(?:part(?:y|ies)|compan(?:y|ies))\b"
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
    bound = {**UNBOUND_ROLES, **_UNBOUND_DISCLOSURE.get(model.our_role or "", {}), **(roles or {})}
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
            field = _compile_field(fname, spec, floc, fail, rxs)
            if spec.binds is not None:
                # whose promise a sentence is: each side's words, bound to the contract's parties (read only
                # where they are bound, so they do not make the clause's reading depend on the roles)
                was = templated[0]
                sides = rxs([r"\b(?:{us})\b", r"\b(?:{them})\b"], (*floc, "binds"))
                templated[0] = was
                field = replace(field, cues={**field.cues, "us": sides[:1], "them": sides[1:]})
            fields.append(field)
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
                not_expected_in=tuple(c.not_expected_in),
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
    if spec.type == "bool" and not (true_if or false_if) and spec.binds is None:
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
