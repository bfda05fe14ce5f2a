"""Positions as structured predicates over extracted values — parsed and checked at load, never `eval`.

A predicate is a mapping: `{all: [...]}`, `{any: [...]}`, `{not: {...}}`, or a comparison
`{field: NAME, OP: VALUE}` with OP one of `eq ne lt lte gt gte in not_in contains contains_all
not_contains exists matches`. Evaluation is three-valued: True, False, or None (`unknown`) when a value the
comparison needs was not found in the text — the caller turns unknown into `needs_review`, never into a pass.
`Verdict.decided_by` names the comparison that settled the answer, so a finding can say why.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playbooks.regex_safety import backtracking_risk, bounded_search

__all__ = [
    "OPS",
    "AllOf",
    "AnyOf",
    "Compare",
    "FieldKind",
    "Not",
    "Predicate",
    "PredicateSyntaxError",
    "Verdict",
    "evaluate",
    "parse_predicate",
]

OPS = (
    "eq", "ne", "lt", "lte", "gt", "gte", "in", "not_in", "contains", "contains_all", "not_contains",
    "exists", "matches",
)  # fmt: skip
_NUMERIC_OPS = ("lt", "lte", "gt", "gte")
_SET_OPS = ("contains", "contains_all", "not_contains")


class PredicateSyntaxError(ValueError):
    """A predicate that does not parse; `path` is where in the YAML it sits."""

    def __init__(self, path: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldKind:
    """What a predicate may say about a field: its extractor type and, for enum/set, its allowed values."""

    type: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Compare:
    field: str
    op: str
    value: Any

    def render(self) -> str:
        return f"{self.field} {self.op} {self.value!r}" if self.op != "exists" else f"{self.field} exists"


@dataclass(frozen=True, slots=True, kw_only=True)
class AllOf:
    items: tuple[Predicate, ...]

    def render(self) -> str:
        return "all(" + ", ".join(i.render() for i in self.items) + ")"


@dataclass(frozen=True, slots=True, kw_only=True)
class AnyOf:
    items: tuple[Predicate, ...]

    def render(self) -> str:
        return "any(" + ", ".join(i.render() for i in self.items) + ")"


@dataclass(frozen=True, slots=True, kw_only=True)
class Not:
    item: Predicate

    def render(self) -> str:
        return f"not({self.item.render()})"


Predicate = Compare | AllOf | AnyOf | Not


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """`result` True/False, or None when unknown; `decided_by` the comparison that settled it;
    `unknown` the fields that were needed but not found."""

    result: bool | None
    decided_by: str
    unknown: tuple[str, ...] = ()


# ---------------------------------------------------------------------------------------------- parsing


def parse_predicate(
    data: object, *, fields: Mapping[str, FieldKind], path: tuple[str | int, ...] = ()
) -> Predicate:
    """Parse and check one predicate; every field must be one of `fields` (names, possibly dotted)."""
    if not isinstance(data, Mapping):
        raise PredicateSyntaxError(
            path, f"expected a mapping such as {{field: NAME, eq: VALUE}}, got {data!r}"
        )
    keys = set(data)
    for combinator in ("all", "any"):
        if combinator in keys:
            if keys != {combinator}:
                raise PredicateSyntaxError(
                    path, f"'{combinator}' must stand alone, got also {sorted(keys - {combinator})}"
                )
            items = data[combinator]
            if not isinstance(items, list) or not items:
                raise PredicateSyntaxError((*path, combinator), "expected a non-empty list of predicates")
            parsed = tuple(
                parse_predicate(it, fields=fields, path=(*path, combinator, i)) for i, it in enumerate(items)
            )
            return AllOf(items=parsed) if combinator == "all" else AnyOf(items=parsed)
    if "not" in keys:
        if keys != {"not"}:
            raise PredicateSyntaxError(path, f"'not' must stand alone, got also {sorted(keys - {'not'})}")
        return Not(item=parse_predicate(data["not"], fields=fields, path=(*path, "not")))
    if "field" not in keys:
        raise PredicateSyntaxError(
            path,
            f"expected 'field' with one of {', '.join(OPS)} (or all/any/not), got {sorted(map(str, keys))}",
        )
    name = data["field"]
    ops = keys - {"field"}
    if len(ops) != 1:
        raise PredicateSyntaxError(
            path, f"expected exactly one operator ({', '.join(OPS)}), got {sorted(map(str, ops))}"
        )
    op = str(next(iter(ops)))
    if op not in OPS:
        raise PredicateSyntaxError((*path, op), f"unknown operator '{op}' (expected one of {', '.join(OPS)})")
    kind = _field_kind(name, fields, path)
    value = data[op]
    _check_operand(kind, str(name), op, value, (*path, op))
    return Compare(field=str(name), op=op, value=tuple(value) if isinstance(value, list) else value)


def _field_kind(name: object, fields: Mapping[str, FieldKind], path: tuple[str | int, ...]) -> FieldKind:
    if not isinstance(name, str):
        raise PredicateSyntaxError((*path, "field"), f"expected a field name, got {name!r}")
    if name in fields:
        return fields[name]
    head, _, sub = name.rpartition(".")
    if head in fields and fields[head].type == "money" and sub in ("amount", "currency"):
        return FieldKind(type="number" if sub == "amount" else "text")
    known = ", ".join(sorted(fields)) or "none declared"
    raise PredicateSyntaxError((*path, "field"), f"unknown field '{name}' (expected one of: {known})")


def _check_operand(kind: FieldKind, name: str, op: str, value: object, path: tuple[str | int, ...]) -> None:
    def bad(expected: str) -> PredicateSyntaxError:
        return PredicateSyntaxError(path, f"'{name} {op}' expects {expected}, got {value!r}")

    if op in _NUMERIC_OPS:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise bad("a number")
        if kind.type not in ("duration", "days", "hours", "months", "percent", "money", "number"):
            raise bad(f"a numeric field, but '{name}' is a {kind.type}")
    elif op in ("in", "not_in", "contains_all"):
        if not isinstance(value, list) or not value:
            raise bad("a non-empty list")
        for v in value:
            _check_member(kind, name, v, path)
    elif op in ("contains", "not_contains"):
        if kind.type != "set":
            raise bad(f"a set field, but '{name}' is a {kind.type}")
        _check_member(kind, name, value, path)
    elif op == "exists":
        if not isinstance(value, bool):
            raise bad("true or false")
    elif op == "matches":
        if not isinstance(value, str):
            raise bad("a regular expression")
        try:
            re.compile(value)
        except re.error as exc:
            raise bad(f"a valid regular expression ({exc})") from None
        risk = backtracking_risk(value)
        if risk is not None:
            raise bad(f"a regular expression that cannot backtrack catastrophically ({risk})")
    elif op in ("eq", "ne"):
        if kind.type == "bool" and not isinstance(value, bool):
            raise bad("true or false")
        _check_member(kind, name, value, path)


def _check_member(kind: FieldKind, name: str, value: object, path: tuple[str | int, ...]) -> None:
    if kind.values and kind.type in ("enum", "set", "holder") and value not in kind.values:
        raise PredicateSyntaxError(
            path, f"'{value}' is not a value of '{name}' (expected one of: {', '.join(kind.values)})"
        )


# ---------------------------------------------------------------------------------------------- evaluation


def _resolve(name: str, values: Mapping[str, Any]) -> Any:
    if name in values:
        return values[name]
    head, _, sub = name.rpartition(".")
    parent = values.get(head)
    if isinstance(parent, Mapping):
        return parent.get(sub)
    return None


def _number(v: Any) -> float | None:
    if isinstance(v, Mapping):
        v = v.get("amount")
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    return float(v)


def _compare(c: Compare, values: Mapping[str, Any]) -> Verdict:
    actual = _resolve(c.field, values)
    label = c.render()
    if c.op == "exists":
        return Verdict(result=(actual is not None) == bool(c.value), decided_by=label)
    if actual is None:
        return Verdict(result=None, decided_by=label, unknown=(c.field,))
    result: bool
    if c.op in _NUMERIC_OPS:
        a = _number(actual)
        if a is None:
            return Verdict(result=None, decided_by=label, unknown=(c.field,))
        b = float(c.value)
        result = {"lt": a < b, "lte": a <= b, "gt": a > b, "gte": a >= b}[c.op]
    elif c.op == "eq":
        result = actual == c.value
    elif c.op == "ne":
        result = actual != c.value
    elif c.op == "in":
        result = actual in c.value
    elif c.op == "not_in":
        result = actual not in c.value
    elif c.op in _SET_OPS:
        members: Sequence[Any] | str = actual if isinstance(actual, list | tuple | str) else [actual]
        if c.op == "contains":
            result = c.value in members
        elif c.op == "not_contains":
            result = c.value not in members
        else:
            result = all(v in members for v in c.value)
    else:  # matches
        result = bounded_search(str(c.value), str(actual))  # a playbook's pattern: under the time bound
    return Verdict(result=result, decided_by=label)


def evaluate(pred: Predicate, values: Mapping[str, Any]) -> Verdict:
    """Three-valued evaluation; a missing value makes a comparison unknown, and unknown propagates
    through all/any unless another item settles the answer (False in `all`, True in `any`)."""
    if isinstance(pred, Compare):
        return _compare(pred, values)
    if isinstance(pred, Not):
        v = evaluate(pred.item, values)
        return Verdict(
            result=None if v.result is None else not v.result,
            decided_by=f"not({v.decided_by})",
            unknown=v.unknown,
        )
    settle = isinstance(pred, AnyOf)  # any: True settles; all: False settles
    unknown: list[str] = []
    last = ""
    for item in pred.items:
        v = evaluate(item, values)
        if v.result is settle:
            return Verdict(result=settle, decided_by=v.decided_by)
        if v.result is None:
            unknown.extend(v.unknown)
        last = v.decided_by
    if unknown:
        return Verdict(result=None, decided_by=pred.render(), unknown=tuple(dict.fromkeys(unknown)))
    return Verdict(result=not settle, decided_by=last if len(pred.items) == 1 else pred.render())
