"""Periods of time and percentages read from contract text, each tied to the span it was read from.

- `find_durations`: "twelve (12) months", "one year", "thirty (30) days", "72 hours", "a 12-month period",
  converted to the unit asked for (hours, days, weeks, months, years).
- `find_percents`: "1.5%", "ten percent (10%)", "2 per cent", "1 1/2%", "one and one-half percent".
"""

from __future__ import annotations

import math
import re

from playbooks.hits import Hit
from playbooks.money import _PREFIX_ALT
from playbooks.numbers import DIGITS, NUMBER_WORDS, _num, words_to_number

__all__ = ["find_durations", "find_percents"]

# ---------------------------------------------------------------------------------------------- durations

_UNIT_HOURS = {"hour": 1.0, "day": 24.0, "week": 168.0, "month": 730.0, "year": 8760.0}
_TO_UNIT = {
    ("hour", "hours"): 1, ("day", "hours"): 24, ("week", "hours"): 168,
    ("hour", "days"): 1 / 24, ("day", "days"): 1, ("week", "days"): 7, ("month", "days"): 30,
    ("year", "days"): 365, ("day", "months"): 1 / 30, ("week", "months"): 7 / 30, ("month", "months"): 1,
    ("year", "months"): 12, ("month", "years"): 1 / 12, ("year", "years"): 1, ("day", "years"): 1 / 365,
    ("week", "weeks"): 1, ("day", "weeks"): 1 / 7, ("month", "weeks"): 30 / 7, ("year", "weeks"): 52,
    ("month", "hours"): 730, ("year", "hours"): 8760,
    ("week", "years"): 1 / 52,
}  # fmt: skip
# no hours → weeks, months or years: a count of hours ("photo shoots shall not exceed five (5) hours") is
# never a period the contract states in months — a cap of 0.0068 months' fees, a term of 0.01 years
_QTY = rf"(?P<w>{NUMBER_WORDS})|(?P<d>{DIGITS})|(?P<a>\b(?:an?|one)\b)"
_DURATION_RE = re.compile(
    rf"(?:{_QTY})\s*(?:\(\s*(?:(?P<d2>{DIGITS})|(?P<w2>{NUMBER_WORDS}))\s*\)\s*)?[\s-]*"
    # 'within five "Business Days" (being …)': the unit defined where it is used
    r'(?:["“]\s*)?'
    # "ten (10) Contract Years", "five (5) full years": the unit qualified by the contract's own word
    r"(?P<kind>business\s+|working\s+|calendar\s+|banking\s+|contract\s+|lease\s+|agreement\s+|fiscal\s+|full\s+"
    r"|consecutive\s+)?"
    r"(?P<unit>hours?|days?|weeks?|months?|years?)\b",
    re.IGNORECASE,
)
#: a currency just before a number: "$50,000 Year 1 …" is an amount beside a schedule's label, not 50,000
#: years
#: days counted on working days only: five of them to a calendar week
_WORKING_DAYS = {"business", "working", "banking"}
_CURRENCY_BEFORE = re.compile(rf"(?<![A-Za-z])(?:{_PREFIX_ALT})\s?$", re.IGNORECASE)
_PRIOR_YEAR_RE = re.compile(
    r"\b(?:the\s+(?:preceding|prior|previous|immediately\s+preceding)\s+(?:calendar\s+)?year"
    r"|the\s+(?:calendar\s+)?year\s+(?:immediately\s+)?(?:preceding|prior\s+to|before))\b",
    re.IGNORECASE,
)


def find_durations(text: str, base: int = 0, *, unit: str = "days") -> list[Hit]:
    """Periods of time converted to `unit` (hours, days, weeks, months, years).

    "twelve (12) months" → 12 (months), "one year" → 12 (months), "thirty (30) days" → 30 (days),
    "72 hours" → 72 (hours). Business, working and banking days count at their calendar length, seven days
    for every five ("ten (10) business days" → 14 days, the quote saying which); a words/digits disagreement
    sets `conflict`.
    """
    hits: list[Hit] = []
    for m in _DURATION_RE.finditer(text):
        if m["d"] and _CURRENCY_BEFORE.search(text, max(0, m.start() - 6), m.start()):
            continue  # an amount of money is never a period of time
        u = m["unit"].lower().rstrip("s")
        if m["w"]:
            n: float | None = words_to_number(m["w"])
        elif m["d"]:
            n = _num(m["d"])
        else:
            n = 1
        start = m.start()
        half = re.search(r"\bhalf[\s-]+$", text[max(0, start - 6) : start], re.IGNORECASE) if m["a"] else None
        if half:  # "half a year", "half an hour"
            n, start = 0.5, start - (len(text[max(0, start - 6) : start]) - half.start())
        if n is None:
            continue
        conflict = None
        if m["w2"] and m["d"]:  # "90 (ninety) days": the words in brackets confirm the digits
            w2 = words_to_number(m["w2"])
            if w2 is not None and float(w2) != float(n):
                conflict = f"the digits say {n:g} but the words say {w2:g}"
        if m["d2"]:
            d2 = _num(m["d2"])
            if m["w"] and float(n) != float(d2):
                conflict = f"the words say {n:g} but the digits say {d2:g}"
            elif not m["w"]:
                n = d2
        factor = _TO_UNIT.get((u, unit))
        if factor is None:
            continue
        if u == "day" and (m["kind"] or "").strip().lower() in _WORKING_DAYS:
            # "twenty-five (25) business days" is five weeks: a period compared with calendar days (a red line
            # of "under 30 days") is its calendar length, at least seven days for every five working ones
            n = math.ceil(float(n) * 7 / 5)
        value = _num(f"{n * factor:.4f}")
        hits.append(Hit(value=value, start=base + start, end=base + m.end(), conflict=conflict))
    if unit in ("months", "years", "days"):
        for m in _PRIOR_YEAR_RE.finditer(text):
            if any(h.start <= base + m.start() < h.end for h in hits):
                continue
            hits.append(
                Hit(value=_num(str(_TO_UNIT[("year", unit)])), start=base + m.start(), end=base + m.end())
            )
        hits.sort(key=lambda h: h.start)
    return hits


# ---------------------------------------------------------------------------------------------- percents

_PERCENT_RE = re.compile(
    rf"(?:(?P<w>{NUMBER_WORDS})\s+(?:percent|per\s+cent)\s*(?:\(\s*(?P<d2>{DIGITS})\s*%?\s*\))?"
    rf"|(?P<d>{DIGITS})\s*(?:%|percent\b|per\s+cent\b))",
    re.IGNORECASE,
)


_PERCENT_WORD = r"(?:%|percent\b|per\s+cent\b)"
_UNICODE_FRACTIONS = {"½": 0.5, "¼": 0.25, "¾": 0.75, "⅓": 1 / 3, "⅔": 2 / 3}
_WORD_FRACTIONS = {
    "half": 0.5,
    "quarter": 0.25,
    "third": 1 / 3,
    "three quarter": 0.75,
    "three quarters": 0.75,
}
#: a whole number and a fraction: "1 1/2%", "1-1/2%", "1½%", "½%", and the OCR'd "1 l/2%" (a letter l or I
#: read for the digit one) — 1.5, never the "2%" the fraction ends in
_FRACTION_PERCENT_RE = re.compile(
    r"(?<![\d.,/])(?:(?P<whole>\d{1,3})(?:\s+|-|\s*(?=[½¼¾⅓⅔])))?"
    r"(?:(?P<num>[1-9]|(?<=\s)[lI]|(?<=-)[lI])\s*/\s*(?P<den>[2-9])|(?P<uni>[½¼¾⅓⅔]))"
    rf"\s*{_PERCENT_WORD}",
)
#: the same in words: "one and one-half percent", "one and a half per cent", "one-half of one percent"
_WORD_FRACTION_PERCENT_RE = re.compile(
    rf"(?:(?P<w>{NUMBER_WORDS})\s+and\s+)?(?:(?:one|a|an)[\s-]+)?(?P<frac>half|quarter|third|three[\s-]quarters?)"
    r"(?P<of>\s+of\s+(?:one|1)\s*)?"
    rf"\s*{_PERCENT_WORD}(?:\s*\(\s*(?P<d2>{DIGITS})\s*%?\s*\))?",
    re.IGNORECASE,
)


def _fraction_percents(text: str, base: int) -> list[Hit]:
    hits = []
    for m in _FRACTION_PERCENT_RE.finditer(text):
        if m["uni"]:
            frac = _UNICODE_FRACTIONS[m["uni"]]
        else:
            num = 1 if m["num"] in "lI" else int(m["num"])
            if num >= int(m["den"]):
                continue  # "3/2%" is no fraction of a whole number
            frac = num / int(m["den"])
        if m["whole"] is None and not m["uni"] and m["num"] in "lI":
            continue
        value = _num(f"{int(m['whole'] or 0) + frac:.4f}")
        hits.append(Hit(value=value, start=base + m.start(), end=base + m.end()))
    for m in _WORD_FRACTION_PERCENT_RE.finditer(text):
        whole = words_to_number(m["w"]) if m["w"] else 0
        if whole is None:
            continue
        frac = _WORD_FRACTIONS[re.sub(r"[\s-]+", " ", m["frac"].lower())]
        value = _num(f"{whole + frac:.4f}")
        conflict = None
        if m["d2"] and float(_num(m["d2"])) != float(value):
            conflict = f"the words say {value:g} but the digits say {_num(m['d2']):g}"
        hits.append(Hit(value=value, start=base + m.start(), end=base + m.end(), conflict=conflict))
    return hits


def find_percents(text: str, base: int = 0) -> list[Hit]:
    """Percentages: "1.5%" → 1.5, "ten percent (10%)" → 10, "1 1/2%" (or the OCR'd "1 l/2%") → 1.5,
    "one and one-half percent" → 1.5."""
    hits = _fraction_percents(text, base)
    taken = [(h.start - base, h.end - base) for h in hits]
    for m in _PERCENT_RE.finditer(text):
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue
        conflict = None
        if m["w"]:
            n = words_to_number(m["w"])
            if n is None:
                continue
            value: float = n
            if m["d2"] and float(_num(m["d2"])) != float(n):
                conflict = f"the words say {n:g} but the digits say {_num(m['d2']):g}"
        else:
            value = _num(m["d"])
        hits.append(Hit(value=value, start=base + m.start(), end=base + m.end(), conflict=conflict))
    hits.sort(key=lambda h: h.start)
    return hits
