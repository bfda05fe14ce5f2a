"""Predicates: parsed and checked at load, evaluated three-valued (unknown when a value is missing)."""

from __future__ import annotations

from typing import Any

import pytest

from playbooks.predicates import FieldKind, PredicateSyntaxError, evaluate, parse_predicate

FIELDS = {
    "cap_months": FieldKind(type="duration"),
    "mutual": FieldKind(type="bool"),
    "law": FieldKind(type="jurisdiction"),
    "base": FieldKind(type="enum", values=("paid", "payable")),
    "carve_outs": FieldKind(type="set", values=("fraud", "ip_indemnity", "confidentiality")),
    "cap_amount": FieldKind(type="money"),
}
VALUES: dict[str, Any] = {
    "cap_months": 3,
    "mutual": True,
    "law": "New York",
    "base": "paid",
    "carve_outs": ["fraud", "confidentiality"],
    "cap_amount": {"amount": 1_000_000, "currency": "USD"},
}


@pytest.mark.parametrize(
    ("pred", "result"),
    [
        ({"field": "cap_months", "lt": 6}, True),
        ({"field": "cap_months", "gte": 12}, False),
        ({"field": "cap_months", "lte": 3}, True),
        ({"field": "cap_months", "gt": 3}, False),
        ({"field": "mutual", "eq": True}, True),
        ({"field": "base", "ne": "paid"}, False),
        ({"field": "law", "in": ["New York", "Delaware"]}, True),
        ({"field": "law", "not_in": ["New York"]}, False),
        ({"field": "carve_outs", "contains": "fraud"}, True),
        ({"field": "carve_outs", "not_contains": "ip_indemnity"}, True),
        ({"field": "carve_outs", "contains_all": ["fraud", "ip_indemnity"]}, False),
        ({"field": "law", "matches": "^new"}, True),
        ({"field": "cap_amount", "gte": 1_000_000}, True),
        ({"field": "cap_amount.currency", "eq": "USD"}, True),
        ({"field": "cap_amount.amount", "lt": 500_000}, False),
        ({"all": [{"field": "mutual", "eq": True}, {"field": "cap_months", "lt": 6}]}, True),
        ({"any": [{"field": "mutual", "eq": False}, {"field": "cap_months", "lt": 6}]}, True),
        ({"not": {"field": "mutual", "eq": True}}, False),
    ],
    ids=[
        "lt",
        "gte",
        "lte",
        "gt",
        "eq-bool",
        "ne",
        "in",
        "not_in",
        "contains",
        "not_contains",
        "contains_all",
        "matches",
        "money-as-number",
        "money-currency",
        "money-amount",
        "all",
        "any",
        "not",
    ],
)
def test_evaluate(pred: dict[str, Any], result: bool) -> None:
    # each operator over known values
    assert evaluate(parse_predicate(pred, fields=FIELDS), VALUES).result is result


@pytest.mark.parametrize(
    ("pred", "result"),
    [
        ({"field": "cap_months", "lt": 6}, None),
        ({"all": [{"field": "cap_months", "lt": 6}, {"field": "mutual", "eq": False}]}, False),
        ({"all": [{"field": "cap_months", "lt": 6}, {"field": "mutual", "eq": True}]}, None),
        ({"any": [{"field": "cap_months", "lt": 6}, {"field": "mutual", "eq": True}]}, True),
        ({"not": {"field": "cap_months", "lt": 6}}, None),
        ({"field": "cap_months", "exists": False}, True),
    ],
    ids=["missing", "all-settled-false", "all-unknown", "any-settled-true", "not-unknown", "exists"],
)
def test_unknown_propagates(pred: dict[str, Any], result: bool | None) -> None:
    # a missing value makes a comparison unknown unless another item settles it; exists never is unknown
    values = {k: v for k, v in VALUES.items() if k != "cap_months"}
    verdict = evaluate(parse_predicate(pred, fields=FIELDS), values)
    assert verdict.result is result
    if result is None:
        assert verdict.unknown == ("cap_months",)


def test_decided_by_names_the_comparison() -> None:
    """The verdict says which comparison settled it, so a finding can give its reason."""
    pred = parse_predicate(
        {"all": [{"field": "mutual", "eq": True}, {"field": "cap_months", "gte": 12}]}, fields=FIELDS
    )
    assert evaluate(pred, VALUES).decided_by == "cap_months gte 12"


@pytest.mark.parametrize(
    ("pred", "path", "message"),
    [
        ({"field": "cap_mnths", "lt": 6}, ("field",), "unknown field 'cap_mnths'"),
        ({"field": "cap_months", "less": 6}, ("less",), "unknown operator 'less'"),
        ({"field": "cap_months", "lt": "six"}, ("lt",), "expects a number"),
        (
            {"field": "carve_outs", "contains": "fruad"},
            ("contains",),
            "'fruad' is not a value of 'carve_outs'",
        ),
        ({"field": "law", "contains": "x"}, ("contains",), "expects a set field"),
        ({"field": "mutual", "eq": "yes"}, ("eq",), "expects true or false"),
        ({"field": "law", "in": "New York"}, ("in",), "expects a non-empty list"),
        ({"field": "law", "matches": "("}, ("matches",), "valid regular expression"),
        ({"all": []}, ("all",), "non-empty list"),
        ({"field": "law", "eq": "x", "ne": "y"}, (), "exactly one operator"),
        ({"mutual": True}, (), "expected 'field'"),
        ([1, 2], (), "expected a mapping"),
    ],
    ids=[
        "misspelt-field",
        "unknown-op",
        "wrong-type",
        "bad-set-value",
        "contains-on-scalar",
        "bool-eq",
        "in-needs-list",
        "bad-regex",
        "empty-all",
        "two-ops",
        "no-field",
        "not-a-mapping",
    ],
)
def test_parse_errors(pred: Any, path: tuple[str, ...], message: str) -> None:
    # a bad predicate fails at load with the path inside it and what was expected
    with pytest.raises(PredicateSyntaxError) as exc:
        parse_predicate(pred, fields=FIELDS, path=("when",))
    assert exc.value.path == ("when", *path)
    assert message in exc.value.message
