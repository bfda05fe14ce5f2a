"""Typed extractors: each value comes back with the exact span it was parsed from."""

from __future__ import annotations

import re
from typing import Any

import pytest

from playbooks.extract import (
    CUES,
    EXCLUSION_TRIGGERS,
    find_bool,
    find_durations,
    find_enum,
    find_jurisdictions,
    find_money,
    find_percents,
    find_set,
    number_conflicts,
    words_to_number,
)


@pytest.mark.parametrize(
    ("words", "value"),
    [
        ("thirty", 30),
        ("twenty-four", 24),
        ("one hundred and twenty", 120),
        ("Two Million", 2_000_000),
        ("ninety", 90),
        ("banana", None),
    ],
    ids=["tens", "hyphenated", "hundred-and", "scale", "ninety", "not-a-number"],
)
def test_words_to_number(words: str, value: int | None) -> None:
    # number words parse to integers; anything else is None, never a guess
    assert words_to_number(words) == value


@pytest.mark.parametrize(
    ("text", "unit", "value", "span"),
    [
        ("the fees paid in the twelve (12) months preceding", "months", 12, "twelve (12) months"),
        ("for a period of one year after", "months", 12, "one year"),
        ("within thirty (30) days of receipt", "days", 30, "thirty (30) days"),
        ("no later than 72 hours after", "hours", 72, "72 hours"),
        ("within three (3) days", "hours", 72, "three (3) days"),
        ("a 12-month period", "months", 12, "12-month"),
        ("for two (2) years", "months", 24, "two (2) years"),
        ("the fees paid in the preceding year", "months", 12, "the preceding year"),
        ("within ten (10) business days", "days", 14, "ten (10) business days"),
    ],
    ids=[
        "words+digits",
        "one-year",
        "days",
        "hours",
        "days-as-hours",
        "hyphen",
        "years",
        "prior-year",
        "business",
    ],
)
def test_durations(text: str, unit: str, value: float, span: str) -> None:
    # a duration converts to the unit asked for and keeps the span of its words
    hits = find_durations(text, 100, unit=unit)
    assert hits, text
    h = hits[0]
    assert h.value == value
    assert text[h.start - 100 : h.end - 100] == span
    assert h.conflict is None


def test_duration_words_disagree_with_digits() -> None:
    """ "thirty (60) days" is a conflict, reported on the hit, never silently one of the two."""
    (h,) = find_durations("pay within thirty (60) days", unit="days")
    assert h.conflict is not None and "30" in h.conflict and "60" in h.conflict


@pytest.mark.parametrize(
    ("text", "amount", "currency", "span"),
    [
        ("shall not exceed $5,000,000 in aggregate", 5_000_000, "USD", "$5,000,000"),
        ("capped at USD 2.5 million", 2_500_000, "USD", "USD 2.5 million"),
        ("limited to £1m", 1_000_000, "GBP", "£1m"),
        ("the sum of €250,000", 250_000, "EUR", "€250,000"),
        ("is capped at ₦50,000,000", 50_000_000, "NGN", "₦50,000,000"),
        ("10,000 US dollars", 10_000, "USD", "10,000 US dollars"),
        ("Five Million Dollars ($5,000,000)", 5_000_000, "USD", "Five Million Dollars ($5,000,000)"),
    ],
    ids=["dollar", "code+million", "pound-m", "euro", "naira", "suffix", "words+digits"],
)
def test_money(text: str, amount: float, currency: str, span: str) -> None:
    # money keeps its currency and the exact span it was read from
    (h,) = find_money(text)
    assert h.value == {"amount": amount, "currency": currency}
    assert text[h.start : h.end] == span
    assert h.conflict is None


def test_money_words_disagree_with_digits() -> None:
    """ "Five Million Dollars ($500,000)" is flagged, not read as either amount."""
    (h,) = find_money("Five Million Dollars ($500,000)")
    assert h.conflict is not None


@pytest.mark.parametrize(
    ("text", "value"),
    [("interest at 1.5% per month", 1.5), ("ten percent (10%)", 10), ("2 per cent above base rate", 2)],
    ids=["symbol", "words+digits", "per-cent"],
)
def test_percents(text: str, value: float) -> None:
    # percentages in digits or words
    assert find_percents(text)[0].value == value


@pytest.mark.parametrize(
    ("text", "value", "span"),
    [
        ("governed by the laws of the State of New York", "New York", "New York"),
        ("the laws of England and Wales", "England and Wales", "England and Wales"),
        ("the laws of England", "England and Wales", "England"),
        ("THE LAWS OF THE STATE OF DELAWARE", "Delaware", "DELAWARE"),
        ("the laws in force in the Province of Ontario", "Ontario", "Ontario"),
    ],
    ids=["state", "uk", "england", "capitals", "province"],
)
def test_jurisdictions(text: str, value: str, span: str) -> None:
    # jurisdictions come back by canonical name with the words that named them
    h = find_jurisdictions(text)[0]
    assert h.value == value and text[h.start : h.end] == span


def _rx(*ps: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in ps)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Each party's aggregate liability shall not exceed", True),
        ("The Supplier's aggregate liability shall not exceed", False),
        ("Liability shall not exceed the fees", None),
    ],
    ids=["mutual", "one-sided", "no-cue"],
)
def test_bool_cues(text: str, value: bool | None) -> None:
    # a bool is decided by its cues; no cue is None (unknown), not False
    h = find_bool(
        text, 0, true_if=_rx(r"\beach\s+party"), false_if=_rx(r"supplier['’]s\s+aggregate\s+liability")
    )
    assert (h.value if h else None) == value


def test_enum_first_cue_wins() -> None:
    """The enum value whose cue occurs first is chosen, with its span."""
    cues = {"paid_or_payable": _rx(r"paid\s+or\s+payable"), "paid": _rx(r"\bpaid\b")}
    h = find_enum("the fees paid or payable in the year", 10, cues=cues)
    assert h is not None and h.value == "paid_or_payable" and (h.start, h.end) == (19, 34)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The limits in clause 10.1 shall not apply to a party's indemnification obligations, breach of "
            "confidentiality, gross negligence, wilful misconduct, fraud or death or personal injury.",
            [
                "ip_indemnity",
                "confidentiality",
                "gross_negligence",
                "wilful_misconduct",
                "fraud",
                "death_personal_injury",
            ],
        ),
        ("Each party's liability, including under the indemnities in clause 9, shall not exceed £1m.", []),
        (
            "Except for breaches of data protection obligations, liability is capped at the fees.",
            ["data_breach"],
        ),
        (
            "Other than the written warranty, Supplier DISCLAIMS ALL OTHER WARRANTIES, INCLUDING "
            "WARRANTIES OF MERCHANTABILITY OR NON-INFRINGEMENT OF THIRD PARTY INTELLECTUAL PROPERTY RIGHTS.",
            [],
        ),
    ],
    ids=["carve-out-list", "indemnity-under-cap", "except-for", "non-infringement-warranty"],
)
def test_carve_out_set(text: str, expected: list[str]) -> None:
    # carve-outs are read only after an exclusion trigger, so "including under the indemnities" is not one
    cues = {k: _rx(*CUES[k]) for k in CUES}
    got = [h.value for h in find_set(text, 0, cues=cues, after=_rx(*EXCLUSION_TRIGGERS))]
    assert sorted(got) == sorted(expected)


@pytest.mark.parametrize(
    ("text", "conflicts"),
    [
        ("within thirty (60) days", [(30, 60)]),
        ("within thirty (30) days", []),
        ("ten percent (15%)", [(10, 15)]),
        ("One Million Dollars ($100,000)", [(1_000_000, 100_000)]),
        ("twenty-four (24) hours and five (6) days", [(5, 6)]),
    ],
    ids=["days", "agree", "percent", "money", "second-of-two"],
)
def test_number_conflicts(text: str, conflicts: list[tuple[Any, Any]]) -> None:
    # every words/digits disagreement, with its span
    got = number_conflicts(text)
    assert [(c.words, c.digits) for c in got] == conflicts
    for c in got:
        assert "(" in text[c.start : c.end]


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("OR FIVE HUNDRED THOUSAND DOLLARS ($5OO,000).", 500_000),
        ("a monthly fee of $1O,OOO", 10_000),
        ("$50 Only", 50),
    ],
)
def test_a_scans_letter_os_in_a_figure_are_zeros(text: str, amount: int) -> None:
    """A scanned filing writes "$5OO,000": the amount is five hundred thousand, quoted as written."""
    hits = find_money(text)
    assert [h.value["amount"] for h in hits] == [amount]
    assert "$" in text[hits[0].start : hits[0].end]


@pytest.mark.parametrize(
    "text",
    [
        "approximately FOURTEEN MILLION, EIGHT HUNDRED SIXTY TWO THOUSAND DOLLARS ($14,862,000) (the",
        "ONE MILLION, SEVEN HUNDRED THIRTY FOUR THOUSAND, THREE HUNDRED NINETY FIVE DOLLARS ($1,734,395)",
    ],
)
def test_a_number_in_words_with_commas_after_its_scales_agrees_with_its_digits(text: str) -> None:
    """A filing writes "FOURTEEN MILLION, EIGHT HUNDRED …": the words are the whole number, not the part after
    the comma."""
    assert number_conflicts(text) == []
