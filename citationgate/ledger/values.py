"""Values in a claim and in a passage: numbers, amounts, durations, percentages and dates, parsed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from citationgate.ledger.sentences import clause_references

# ── values: numbers, amounts, durations, percentages, dates ───────────────────────────────────────
_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
_NUMWORD = "|".join(sorted([*_UNITS, *_TENS, *_SCALES], key=len, reverse=True))
_WORDNUM = rf"(?:(?:{_NUMWORD})(?:[\s-]+(?:and\s+)?(?:{_NUMWORD}))*)"
_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
#: A number as drafted: "30", "1,000.50", "thirty", "thirty (30)", "30 (thirty)".
_NUMBER = (
    rf"(?:(?:{_WORDNUM})\s*\(\s*(?:{_DIGITS})\s*\)|(?:{_DIGITS})\s*\(\s*(?:{_WORDNUM})\s*\)"
    rf"|{_DIGITS}|{_WORDNUM})"
)
_CURRENCY = {
    "₦": "NGN", "ngn": "NGN", "naira": "NGN", "n": "NGN",
    "$": "USD", "us$": "USD", "usd": "USD", "dollars": "USD", "dollar": "USD",
    "£": "GBP", "gbp": "GBP", "pounds": "GBP", "sterling": "GBP",
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "¥": "JPY", "jpy": "JPY", "₹": "INR", "inr": "INR", "chf": "CHF", "cad": "CAD", "aud": "AUD",
}  # fmt: skip
_CUR_BEFORE = r"(?:₦|US\$|\$|£|€|¥|₹|NGN|USD|GBP|EUR|JPY|INR|CHF|CAD|AUD|N(?=\d))"
_MULT = r"(?:\s*(?P<mult>million|billion|thousand|bn|m|k)\b)?"
_MONEY = re.compile(
    rf"(?P<cur>{_CUR_BEFORE})\s?(?P<num>{_DIGITS}){_MULT}"
    rf"|(?P<num2>{_DIGITS}){_MULT.replace('mult', 'mult2')}"
    r"\s+(?P<cur2>naira|dollars?|pounds|euros?|NGN|USD|GBP|EUR)\b",
    re.I,
)
_PERCENT = re.compile(rf"(?P<num>{_NUMBER})\s*(?:%|per\s?cent\b|percent\b)", re.I)
_DUR_UNIT = (
    r"(?P<q>business|working|calendar|banking)?\s*"
    r"(?P<unit>days?|weeks?|months?|years?|hours?|minutes?|quarters?)\b"
)
_DURATION = re.compile(rf"(?P<num>{_NUMBER})[\s-]*(?:\(\s*\d+\s*\)\s*)?{_DUR_UNIT}", re.I)
_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december",
)  # fmt: skip
_MONTHS = {m: i for i, m in enumerate(_MONTH_NAMES, 1)}
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_DATE = re.compile(
    rf"(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+day\s+of)?\s+(?P<m1>{_MONTH}),?\s+(?P<y1>\d{{4}})"
    rf"|(?P<m2>{_MONTH})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y2>\d{{4}})"
    rf"|(?P<y3>\d{{4}})-(?P<m3>\d{{2}})-(?P<d3>\d{{2}})"
    rf"|(?P<a4>\d{{1,2}})/(?P<b4>\d{{1,2}})/(?P<y4>\d{{4}})"
)
_PLAIN_NUMBER = re.compile(rf"(?<![\w.,])(?:{_NUMBER})(?![\w])", re.I)


@dataclass(frozen=True, slots=True, kw_only=True)
class Value:
    """A value parsed from text: `kind` (money, percent, duration, date, number), its value, its words."""

    kind: str
    value: tuple[Any, ...]
    text: str
    start: int
    end: int

    def describe(self) -> str:
        return self.text


def parse_number(text: str) -> Decimal | None:
    """ "30", "1,000.5", "thirty", "thirty (30)", "twenty-one", "one hundred and twenty" → a Decimal."""
    text = text.strip()
    m = re.search(rf"\(\s*({_DIGITS})\s*\)", text)
    if m:
        return _decimal(m.group(1))
    m = re.fullmatch(rf"({_DIGITS})(?:\s*\(.*\))?", text)
    if m:
        return _decimal(m.group(1))
    total, current = 0, 0
    words = re.split(r"[\s-]+", text.lower())
    if not words or not all(w in _UNITS or w in _TENS or w in _SCALES or w == "and" for w in words):
        return None
    for w in words:
        if w in _UNITS:
            current += _UNITS[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w in _SCALES:
            total += max(current, 1) * _SCALES[w]
            current = 0
    return Decimal(total + current)


def _decimal(s: str) -> Decimal | None:
    try:
        return Decimal(s.replace(",", ""))
    except InvalidOperation:
        return None


_MULTIPLIERS = {"thousand": 10**3, "k": 10**3, "million": 10**6, "m": 10**6, "billion": 10**9, "bn": 10**9}


def extract_values(text: str) -> list[Value]:
    """Every value in `text`, each parsed: dates, amounts, percentages, durations, then bare numbers.

    Clause references ("clause 11.2", "s. 105N") are not values and are skipped.
    """
    taken: list[tuple[int, int]] = [(a, b) for a, b, _kw, _labels in clause_references(text)]
    out: list[Value] = []

    def free(a: int, b: int) -> bool:
        return all(b <= x or a >= y for x, y in taken)

    def add(kind: str, value: tuple[Any, ...], m: re.Match[str]) -> None:
        out.append(Value(kind=kind, value=value, text=m.group(0).strip(), start=m.start(), end=m.end()))
        taken.append((m.start(), m.end()))

    for m in _DATE.finditer(text):
        if not free(m.start(), m.end()):
            continue
        if m.group("y1"):
            key: tuple[Any, ...] = (int(m["y1"]), _MONTHS[m["m1"].lower()], int(m["d1"]))
        elif m.group("y2"):
            key = (int(m["y2"]), _MONTHS[m["m2"].lower()], int(m["d2"]))
        elif m.group("y3"):
            key = (int(m["y3"]), int(m["m3"]), int(m["d3"]))
        else:
            key = ("numeric", int(m["a4"]), int(m["b4"]), int(m["y4"]))
        add("date", key, m)
    for m in _MONEY.finditer(text):
        if not free(m.start(), m.end()):
            continue
        cur = (m.group("cur") or m.group("cur2") or "").lower()
        amount = _decimal(m.group("num") or m.group("num2") or "")
        mult = (m.group("mult") or m.group("mult2") or "").lower()
        if amount is None:
            continue
        amount *= _MULTIPLIERS.get(mult, 1)
        add("money", (_CURRENCY.get(cur, cur.upper()), amount.normalize()), m)
    for m in _PERCENT.finditer(text):
        if free(m.start(), m.end()) and (n := parse_number(m.group("num"))) is not None:
            add("percent", (n.normalize(),), m)
    for m in _DURATION.finditer(text):
        if not free(m.start(), m.end()):
            continue
        n = parse_number(m.group("num"))
        if n is None:
            continue
        unit = m.group("unit").lower().rstrip("s")
        q = (m.group("q") or "").lower()
        if unit == "week":
            unit, n = "day", n * 7
        elif unit == "year":
            unit, n = "month", n * 12
        elif unit == "quarter":
            unit, n = "month", n * 3
        if unit == "day" and q in ("business", "working", "banking"):
            unit = "business day"
        add("duration", (unit, n.normalize()), m)
    for m in _PLAIN_NUMBER.finditer(text):
        if not free(m.start(), m.end()) or m.group(0).strip().lower() in ("one", "zero"):
            continue
        n = parse_number(m.group(0))
        if n is not None:
            add("number", (n.normalize(),), m)
    out.sort(key=lambda v: v.start)
    return out


def _magnitude(v: Value) -> Decimal | None:
    last = v.value[-1]
    return last if isinstance(last, Decimal) else None


def value_present(claim: Value, passage: Sequence[Value]) -> bool:
    """Whether a value a claim states is among the values of its passages (a bare number matches any
    value of that magnitude: "3" is in "three (3) months")."""
    if claim.kind == "number":
        return any(_magnitude(p) == claim.value[0] for p in passage)
    return any(p.kind == claim.kind and p.value == claim.value for p in passage)
