"""Absence only after a confident search (`locate.hints`), dates read from the quoted text, and the
msa-customer clause types that the CUAD evaluation maps onto."""

from __future__ import annotations

from pathlib import Path

import pytest

from playbooks import ClauseOutcome, load_playbook, run_playbook
from playbooks.extract import find_dates
from playbooks.library import document_from_text
from playbooks.schema import parse_playbook

HINTED = b"""\
schema: citationgate-playbook/1
id: hinted
version: 0.1.0
title: Hints
our_role: customer
clauses:
  - id: insurance
    title: Insurance
    required: true
    locate:
      patterns: ['maintain[^.]{0,60}insurance']
      hints: ['\\binsurance\\b']
      exclude: ['freight[^.]{0,40}insurance']
"""


def _outcome(text: str, rule: str, source: bytes = HINTED) -> ClauseOutcome:
    pb = parse_playbook(source, source="hinted.yaml")
    return next(o for o in run_playbook(document_from_text(text), pb) if o.rule == rule)


@pytest.mark.parametrize(
    ("text", "outcome", "quoted"),
    [
        # the clause's own language: located, judged as usual
        ("The Supplier shall maintain insurance of USD 1,000,000.", "standard", True),
        # only weaker language: not "missing" — needs_review, quoting the passage that may be the clause
        (
            "Insurance cover is the responsibility of each party as set out in the schedule.",
            "needs_review",
            True,
        ),
        # a hint in excluded language does not count: nothing plausible, so missing
        ("The Distributor pays all freight and insurance charges.", "missing", False),
        # nothing at all: missing, with the search recorded
        ("The Supplier shall provide the Services.", "missing", False),
    ],
    ids=["located", "hint-only", "hint-excluded", "absent"],
)
def test_missing_only_when_nothing_plausible(text: str, outcome: str, quoted: bool) -> None:
    got = _outcome(text, "insurance")
    assert got.outcome == outcome
    assert bool(got.quotes) is quoted
    if outcome == "missing":
        assert got.searched is not None and got.searched.queries


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("dated as of January 1, 2020 by and between", ["2020-01-01"]),
        ("made this 1st day of March, 2019", ["2019-03-01"]),
        ("effective 12 June 2018", ["2018-06-12"]),
        ("as of Dec. 15th, 2005", ["2005-12-15"]),
        ("signed 2021-07-04 and 01/31/2022", ["2021-07-04", "2022-01-31"]),
        ("February 30, 2020 is not a date", []),  # impossible dates are skipped
        ("within thirty (30) days of May", []),  # a month without a year is no date
    ],
    ids=["us", "day-of", "english", "abbrev", "iso-and-slash", "impossible", "no-year"],
)
def test_dates_are_read_as_iso(text: str, dates: list[str]) -> None:
    hits = find_dates(text, 100)
    assert [h.value for h in hits] == dates
    for h in hits:
        assert h.start >= 100 and h.end - 100 <= len(text)


def test_date_spans_slice_back() -> None:
    """Every date's span is the words it was read from."""
    text = "This Agreement is made on 17 January 2025 and expires on March 3, 2028."
    for h in find_dates(text):
        assert text[h.start : h.end] in ("17 January 2025", "March 3, 2028")


@pytest.mark.parametrize(
    ("text", "rule", "outcome"),
    [
        # red lines from the customer's side
        ("The Customer shall not compete with the Supplier in the Territory.", "non_compete", "unacceptable"),
        (
            "The Customer shall not solicit any client of the Supplier during the Term.",
            "no_solicit_customers",
            "unacceptable",
        ),
        # optional clauses that are absent are not findings of absence
        ("The Supplier shall provide the Services.", "non_compete", "not_applicable"),
        ("The Supplier shall provide the Services.", "source_code_escrow", "not_applicable"),
        ("The Supplier shall provide the Services.", "termination_for_convenience", "not_applicable"),
    ],
    ids=["non-compete-binds-us", "customer-no-solicit-binds-us", "no-non-compete", "no-escrow", "no-t4c"],
)
def test_msa_customer_new_clause_types(text: str, rule: str, outcome: str) -> None:
    pb = load_playbook("msa-customer")
    got = next(o for o in run_playbook(document_from_text(text), pb) if o.rule == rule)
    assert got.outcome == outcome


def test_every_absence_rule_is_required() -> None:
    """A rule that can report 'missing' is a required one: optional clauses never produce an absence."""
    pb = load_playbook("msa-customer")
    for c in pb.clauses:
        im = c.model.if_missing
        if im is None or im.outcome == "missing":
            assert c.required, c.id


def test_hints_validated_at_load(tmp_path: Path) -> None:
    """A broken hint pattern fails when the playbook loads, naming the field."""
    bad = HINTED.replace(b"\\binsurance\\b", b"(unclosed")
    with pytest.raises(Exception, match="hints"):
        parse_playbook(bad, source=str(tmp_path / "bad.yaml"))
