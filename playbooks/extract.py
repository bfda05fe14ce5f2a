"""Typed values parsed out of contract text, each tied to the exact span it was read from.

Every extractor takes a text and a base offset and returns `Hit`s: the parsed value plus `[start, end)`
into the *document* text (base + local offset), so a caller can quote precisely the words that carry the
value. Nothing here guesses: a number written in words that disagrees with its digits ("thirty (60) days")
is returned as a hit whose `conflict` says so, and the caller treats it as unparseable.

Extractors:
- `money`: "$5,000,000", "USD 2.5 million", "£1m", "€250,000", "₦50,000,000", "10,000 US dollars".
- `duration`: "twelve (12) months", "one year", "thirty (30) days", "72 hours", "a 12-month period",
  converted to the unit asked for (hours, days, months, years).
- `percent`: "1.5%", "ten percent (10%)", "2 per cent".
- `date`: "January 1, 2020", "1st day of January, 2020", "1 January 2020", "2020-01-01", "01/31/2020"
  (US month-first), as an ISO date "2020-01-01".
- `jurisdiction`: US states, UK jurisdictions ("England and Wales") and countries.
- cue-based: `bool`, `enum` and `set` values decided by regular-expression cues (see `CUES`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from playbooks.dates import find_dates
from playbooks.hits import Hit

__all__ = [
    "BOOL_CUES",
    "CUES",
    "EXCLUSION_TRIGGERS",
    "Hit",
    "NumberConflict",
    "find_bool",
    "find_dates",
    "find_durations",
    "find_enum",
    "find_jurisdictions",
    "find_money",
    "find_percents",
    "find_set",
    "number_conflicts",
    "words_to_number",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class NumberConflict:
    """A number written in words whose digits say something else: "thirty (60) days"."""

    start: int
    end: int
    words: float
    digits: float


# ---------------------------------------------------------------------------------------------- numbers

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_WORD = "|".join(sorted([*_UNITS, *_SCALES], key=len, reverse=True))
#: A number in words: "thirty", "twenty-four", "one hundred and twenty", "Two Million".
NUMBER_WORDS = rf"\b(?:{_WORD})(?:(?:[\s-]+|\s+and\s+)(?:{_WORD}))*\b"
DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_MULT = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mm": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9}


def words_to_number(words: str) -> int | None:
    """ "twenty-four" → 24, "one hundred and twenty" → 120, "two million" → 2000000; None if not a number."""
    total = current = 0
    seen = False
    for w in re.split(r"[\s-]+", words.lower().strip()):
        if not w or w == "and":
            continue
        if w in _UNITS:
            current += _UNITS[w]
            seen = True
        elif w == "hundred":
            current = (current or 1) * 100
            seen = True
        elif w in _SCALES:
            total += (current or 1) * _SCALES[w]
            current = 0
            seen = True
        else:
            return None
    return total + current if seen else None


def _num(s: str) -> float:
    v = float(s.replace(",", ""))
    return int(v) if v.is_integer() else v


_CONFLICT_RE = re.compile(
    rf"(?P<w>{NUMBER_WORDS})(?:\s+(?P<scale>thousand|million|billion))?"
    r"(?:\s+(?:U\.?S\.?\s+|Canadian\s+|Australian\s+)?(?:dollars|pounds(?:\s+sterling)?|euros|naira|percent|per\s+cent))?"
    rf"\s*\(\s*(?:US\$|U\.S\.\s*\$|USD\s*|GBP\s*|EUR\s*|NGN\s*|[$£€₦])?\s*(?P<d>{DIGITS})\s*(?:%|percent)?\s*\)",
    re.IGNORECASE,
)


_CONFLICT_PAREN = re.compile(r"\((?=\s*(?:US\$|U\.S\.\s*\$|USD|GBP|EUR|NGN|[$£€₦])?\s*\d)")


def number_conflicts(text: str, base: int = 0) -> list[NumberConflict]:
    """Every "words (digits)" pair in `text` whose two numbers disagree."""
    out = []
    last_end = -1
    for p in _CONFLICT_PAREN.finditer(text):
        pos = p.start()
        ws = max(0, pos - 160)
        for m in _CONFLICT_RE.finditer(text, ws, min(len(text), pos + 60)):
            if not (m.start() < pos < m.end()) or m.start() < last_end:
                continue
            last_end = m.end()
            w = words_to_number(m["w"])
            if w is None:
                break
            if m["scale"]:
                w *= _SCALES[m["scale"].lower()]
            d = _num(m["d"])
            if float(w) != float(d):
                out.append(NumberConflict(start=base + m.start(), end=base + m.end(), words=w, digits=d))
            break
    return out


def _conflict_in(text: str, start: int, end: int) -> str | None:
    for c in number_conflicts(text[start:end]):
        return f"the words say {c.words:g} but the digits say {c.digits:g}"
    return None


# ---------------------------------------------------------------------------------------------- money

_CURRENCY_PREFIX = {
    "us$": "USD", "u.s.$": "USD", "usd": "USD", "$": "USD", "£": "GBP", "gbp": "GBP", "€": "EUR",
    "eur": "EUR", "₦": "NGN", "ngn": "NGN", "c$": "CAD", "cad": "CAD", "a$": "AUD", "aud": "AUD",
    "¥": "JPY", "jpy": "JPY", "chf": "CHF", "inr": "INR", "₹": "INR",
}  # fmt: skip
_CURRENCY_SUFFIX = {
    "usd": "USD", "us dollars": "USD", "u.s. dollars": "USD", "dollars": "USD", "gbp": "GBP",
    "pounds sterling": "GBP", "pounds": "GBP", "sterling": "GBP", "eur": "EUR", "euros": "EUR",
    "euro": "EUR", "ngn": "NGN", "naira": "NGN", "cad": "CAD", "aud": "AUD", "chf": "CHF", "inr": "INR",
}  # fmt: skip
_PREFIX_ALT = "|".join(re.escape(k) for k in sorted(_CURRENCY_PREFIX, key=len, reverse=True))
_SUFFIX_ALT = "|".join(
    re.escape(k).replace(r"\ ", r"\s+") for k in sorted(_CURRENCY_SUFFIX, key=len, reverse=True)
)
_MULT_ALT = r"thousand|million|billion|mm|mn|bn|m|k"
_MONEY_PREFIX_RE = re.compile(
    rf"(?<![A-Za-z])(?P<cur>{_PREFIX_ALT})\s?(?P<num>{DIGITS})(?:\s?(?P<mult>{_MULT_ALT})\b)?", re.IGNORECASE
)
_MONEY_SUFFIX_RE = re.compile(
    rf"\b(?P<num>{DIGITS})(?:\s?(?P<mult>{_MULT_ALT})\b)?\s*(?P<cur>{_SUFFIX_ALT})\b", re.IGNORECASE
)


def find_money(text: str, base: int = 0) -> list[Hit]:
    """Amounts with a currency: value {"amount": number, "currency": ISO code}."""
    hits: list[Hit] = []
    taken: list[tuple[int, int]] = []
    for rx, table in ((_MONEY_PREFIX_RE, _CURRENCY_PREFIX), (_MONEY_SUFFIX_RE, _CURRENCY_SUFFIX)):
        for m in rx.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            cur = table[re.sub(r"\s+", " ", m["cur"].lower())]
            amount = _num(m["num"])
            if m["mult"]:
                amount = _num(str(amount * _MULT[m["mult"].lower()]))
            # "Five Million Dollars ($5,000,000)": check the words before the bracket too
            start = m.start()
            pre = re.search(
                rf"(?:{NUMBER_WORDS})[^()\d]{{0,40}}\(\s*$", text[max(0, start - 90) : start], re.I
            )
            span_start = start - (len(text[max(0, start - 90) : start]) - pre.start()) if pre else start
            end = m.end()
            if pre and text[end : end + 1] == ")":
                end += 1
            conflict = _conflict_in(text, span_start, end) if pre else None
            if not pre:
                span_start = start
            hits.append(
                Hit(
                    value={"amount": amount, "currency": cur},
                    start=base + span_start,
                    end=base + end,
                    conflict=conflict,
                )
            )
            taken.append((m.start(), m.end()))
    hits.sort(key=lambda h: h.start)
    return hits


# ---------------------------------------------------------------------------------------------- durations

_UNIT_HOURS = {"hour": 1.0, "day": 24.0, "week": 168.0, "month": 730.0, "year": 8760.0}
_TO_UNIT = {
    ("hour", "hours"): 1, ("day", "hours"): 24, ("week", "hours"): 168,
    ("hour", "days"): 1 / 24, ("day", "days"): 1, ("week", "days"): 7, ("month", "days"): 30,
    ("year", "days"): 365, ("day", "months"): 1 / 30, ("week", "months"): 7 / 30, ("month", "months"): 1,
    ("year", "months"): 12, ("month", "years"): 1 / 12, ("year", "years"): 1, ("day", "years"): 1 / 365,
    ("week", "weeks"): 1, ("day", "weeks"): 1 / 7, ("month", "weeks"): 30 / 7, ("year", "weeks"): 52,
    ("month", "hours"): 730, ("year", "hours"): 8760, ("hour", "months"): 1 / 730,
    ("hour", "years"): 1 / 8760,
    ("week", "years"): 1 / 52, ("hour", "weeks"): 1 / 168,
}  # fmt: skip
_QTY = rf"(?P<w>{NUMBER_WORDS})|(?P<d>{DIGITS})|(?P<a>\b(?:an?|one)\b)"
_DURATION_RE = re.compile(
    rf"(?:{_QTY})\s*(?:\(\s*(?:(?P<d2>{DIGITS})|(?P<w2>{NUMBER_WORDS}))\s*\)\s*)?[\s-]*"
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


# ---------------------------------------------------------------------------------------------- jurisdictions

US_STATES = (
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "Delaware",
    "Florida", "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky",
    "Louisiana", "Maine", "Maryland", "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri",
    "Montana", "Nebraska", "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York",
    "North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon", "Pennsylvania", "Rhode Island",
    "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah", "Vermont", "Virginia", "Washington",
    "West Virginia", "Wisconsin", "Wyoming", "District of Columbia",
)  # fmt: skip
OTHER_JURISDICTIONS = {
    "England and Wales": "England and Wales", "England & Wales": "England and Wales",
    "England": "England and Wales", "Scotland": "Scotland", "Northern Ireland": "Northern Ireland",
    "Ireland": "Ireland", "Republic of Ireland": "Ireland", "Nigeria": "Nigeria", "Lagos State": "Nigeria",
    "Ontario": "Ontario", "British Columbia": "British Columbia", "Quebec": "Quebec", "Alberta": "Alberta",
    "New South Wales": "New South Wales", "Victoria": "Victoria", "Singapore": "Singapore",
    "Hong Kong": "Hong Kong", "Germany": "Germany", "France": "France", "the Netherlands": "Netherlands",
    "Netherlands": "Netherlands", "Switzerland": "Switzerland", "Sweden": "Sweden", "Spain": "Spain",
    "Italy": "Italy", "India": "India", "Japan": "Japan", "China": "China",
    "People's Republic of China": "China", "Israel": "Israel", "Canada": "Canada",
    "Australia": "Australia", "South Africa": "South Africa", "Kenya": "Kenya", "Ghana": "Ghana",
    "Luxembourg": "Luxembourg", "Belgium": "Belgium", "Denmark": "Denmark", "Norway": "Norway",
    "Finland": "Finland", "Brazil": "Brazil", "Mexico": "Mexico", "Korea": "Korea", "Taiwan": "Taiwan",
    "United Arab Emirates": "United Arab Emirates", "Dubai": "United Arab Emirates",
    "the United Kingdom": "England and Wales", "United Kingdom": "England and Wales",
    "United States": "United States", "New Zealand": "New Zealand", "Papua New Guinea": "Papua New Guinea",
    "Bermuda": "Bermuda", "Cayman Islands": "Cayman Islands",
    "British Virgin Islands": "British Virgin Islands",
    "Austria": "Austria", "Poland": "Poland", "Czech Republic": "Czech Republic", "Portugal": "Portugal",
    "Greece": "Greece", "Turkey": "Turkey", "Russia": "Russia", "Russian Federation": "Russia",
    "Ukraine": "Ukraine", "Argentina": "Argentina", "Chile": "Chile", "Colombia": "Colombia", "Peru": "Peru",
    "Thailand": "Thailand", "Malaysia": "Malaysia", "Indonesia": "Indonesia", "Philippines": "Philippines",
    "Vietnam": "Vietnam", "Pakistan": "Pakistan", "Egypt": "Egypt", "Saudi Arabia": "Saudi Arabia",
    "Qatar": "Qatar", "Romania": "Romania", "Hungary": "Hungary", "Cyprus": "Cyprus", "Malta": "Malta",
    "Iceland": "Iceland", "Puerto Rico": "Puerto Rico", "Manitoba": "Manitoba",
    "Saskatchewan": "Saskatchewan",
    "Nova Scotia": "Nova Scotia", "New Brunswick": "New Brunswick", "Queensland": "Queensland",
    "Western Australia": "Western Australia", "South Australia": "South Australia", "Macau": "Macau",
    "Vanuatu": "Vanuatu", "Liechtenstein": "Liechtenstein", "Monaco": "Monaco", "Isle of Man": "Isle of Man",
    "Guernsey": "Guernsey", "Barbados": "Barbados", "Bahamas": "Bahamas", "Panama": "Panama",
    "Costa Rica": "Costa Rica", "Hong Kong SAR": "Hong Kong", "Republic of Korea": "Korea",
    "South Korea": "Korea", "Slovakia": "Slovakia", "Slovenia": "Slovenia", "Croatia": "Croatia",
    "Bulgaria": "Bulgaria", "Serbia": "Serbia", "Estonia": "Estonia", "Latvia": "Latvia",
    "Lithuania": "Lithuania", "Morocco": "Morocco", "Tunisia": "Tunisia", "Uruguay": "Uruguay",
    "Venezuela": "Venezuela", "Ecuador": "Ecuador", "Sri Lanka": "Sri Lanka", "Nepal": "Nepal",
    "Bangladesh": "Bangladesh", "Kuwait": "Kuwait", "Bahrain": "Bahrain", "Oman": "Oman",
}  # fmt: skip
_JURIS = {s: s for s in US_STATES} | OTHER_JURISDICTIONS
_US_STATE_SET = frozenset(US_STATES)


def _names(keys: Iterable[str]) -> str:
    """An alternation of names in which a space matches any run of whitespace (PDF text reflows)."""
    return "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in sorted(keys, key=len, reverse=True))


def _key(found: str) -> str:
    return " ".join(found.split())


_JURIS_RE = re.compile(rf"\b(?:{_names(_JURIS)})\b")
_JURIS_UPPER = {k.upper(): v for k, v in _JURIS.items()}
_JURIS_UPPER_RE = re.compile(rf"\b(?:{_names(_JURIS_UPPER)})\b")


#: a country's name that is only part of a court's name: the court sits in the state named after it
_COURT_NAME = re.compile(r"\s+(?:federal\s+)?(?:district|bankruptcy|circuit)\s+courts?\b", re.IGNORECASE)


#: federal law laid over a state's ("except to the extent governed by the United States Trademark Act",
#: "the copyright laws of the United States"): not the law that governs the contract
_FEDERAL_AFTER = re.compile(r"(?:\s+of\s+America)?\s+(?:\w+\s+){0,3}(?:Act|Code)\b", re.IGNORECASE)
_FEDERAL_BEFORE = re.compile(
    r"(?:copyright|patent|trademark|federal|intellectual\s+property|securities|export|tax)\s+"
    r"(?:and\s+\w+\s+)?laws?\s+of\s+(?:the\s+)?$",
    re.IGNORECASE,
)


#: a law named by its adjective ("English law", "Swiss law") or its initials ("the PRC"): a jurisdiction only
#: where the word "law" follows (or the initials stand alone)
_LAW_ADJECTIVES = {
    "English": "England and Wales", "Scottish": "Scotland", "Scots": "Scotland", "Irish": "Ireland",
    "Swiss": "Switzerland", "German": "Germany", "French": "France", "Dutch": "Netherlands",
    "Italian": "Italy", "Spanish": "Spain", "Swedish": "Sweden", "Israeli": "Israel", "Japanese": "Japan",
    "Chinese": "China", "PRC": "China", "Singaporean": "Singapore", "Singapore": "Singapore",
    "Hong Kong": "Hong Kong", "Indian": "India", "Canadian": "Canada", "Australian": "Australia",
    "Danish": "Denmark", "Norwegian": "Norway", "Finnish": "Finland", "Belgian": "Belgium",
    "Austrian": "Austria", "Korean": "Korea", "Brazilian": "Brazil", "Mexican": "Mexico",
    "Luxembourg": "Luxembourg", "New York": "New York", "Delaware": "Delaware", "California": "California",
}  # fmt: skip
_LAW_ADJ_RE = re.compile(
    rf"\b({_names(_LAW_ADJECTIVES)})\s+(?:substantive\s+|governing\s+)?laws?\b", re.IGNORECASE
)
_PRC_RE = re.compile(r"\b(?:the\s+)?P\.?R\.?C\.?(?![A-Za-z])")
_ADJ_KEYS = {k.lower(): v for k, v in _LAW_ADJECTIVES.items()}


def _federal_overlay(text: str, m: re.Match[str]) -> bool:
    if _key(m.group()).lower() != "united states":
        return False
    return bool(
        _FEDERAL_AFTER.match(text, m.end())
        or _FEDERAL_BEFORE.search(text[max(0, m.start() - 60) : m.start()])
    )


def find_jurisdictions(text: str, base: int = 0) -> list[Hit]:
    """Named jurisdictions by canonical name: "State of New York" → "New York", "England" → "England
    and Wales". Federal law laid over a state's ("the copyright laws of the United States") is left out."""
    hits = [
        Hit(value=_JURIS[_key(m.group())], start=base + m.start(), end=base + m.end())
        for m in _JURIS_RE.finditer(text)
        # "United States District Court for … Virginia"
        if not _COURT_NAME.match(text, m.end()) and not _federal_overlay(text, m)
    ]
    hits += [
        Hit(value=_JURIS_UPPER[_key(m.group())], start=base + m.start(), end=base + m.end())
        for m in _JURIS_UPPER_RE.finditer(text)
        if not _JURIS_RE.fullmatch(m.group()) and not _federal_overlay(text, m)
    ]
    for m in _LAW_ADJ_RE.finditer(text):  # "English law", "PRC Laws"
        if not any(h.start <= base + m.start(1) < h.end for h in hits):
            hits.append(
                Hit(value=_ADJ_KEYS[_key(m.group(1)).lower()], start=base + m.start(1), end=base + m.end(1))
            )
    for m in _PRC_RE.finditer(text):  # "the laws of the PRC"
        if not any(h.start <= base + m.start() < h.end for h in hits):
            hits.append(Hit(value="China", start=base + m.start(), end=base + m.end()))
    # "the laws of the State of New York and the laws of the United States applicable therein": the state's
    if any(h.value in _US_STATE_SET for h in hits):
        hits = [h for h in hits if h.value != "United States"]
    hits.sort(key=lambda h: h.start)
    return hits


# ---------------------------------------------------------------------------------------------- cue values

#: Built-in cues for common set/enum values, so a playbook may name a value without writing a pattern.
CUES: Mapping[str, tuple[str, ...]] = {
    "ip_indemnity": (r"\bindemni\w*", r"\binfring\w*", r"intellectual\s+property\s+claims?"),
    "confidentiality": (r"\bconfidential\w*", r"\bnon-?disclosure\b"),
    "data_breach": (
        r"\bdata\s+(?:protection|breach\w*|security|privacy)\b",
        r"\bpersonal\s+(?:data|information)\b",
        r"\bsecurity\s+(?:breach|incident)s?\b",
    ),
    "gross_negligence": (r"\bgross(?:ly)?\s+negligen\w*",),
    "wilful_misconduct": (
        r"\bwil?l?ful(?:ly)?\s+(?:misconduct|default|breach)",
        r"\bintentional\s+(?:misconduct|wrongdoing)",
    ),
    "fraud": (r"\bfraud\w*",),
    "death_personal_injury": (r"\bdeath\b", r"\b(?:personal|bodily)\s+injur\w*"),
    "fees_paid_or_payable": (
        r"(?:fees|charges|amounts)\s+(?:paid\s+(?:or|and/or)\s+payable|payable\s+or\s+paid)",
    ),
    "fees_paid_preceding": (r"(?:fees|charges|amounts)\s+(?:actually\s+)?paid",),
    "total_fees": (r"total\s+(?:fees|contract\s+value|charges)(?!\s+(?:actually\s+)?paid)",),
    "order_form": (
        r"(?:under|in)\s+the\s+(?:applicable|relevant)\s+(?:order\s+form|statement\s+of\s+work|sow)",
    ),
    "payment_obligations": (
        r"\b(?:payment\s+obligations|fees\s+(?:due|payable|owed)|obligation\s+to\s+pay)\b",
    ),
}

#: Built-in cues for common bool fields, by field name: (true_if, false_if).
BOOL_CUES: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "mutual": (
        (r"\b(?:each|either|neither)\s+party", r"\b(?:each|either|neither)\s+of\s+the\s+parties"),
        (
            r"\b(?:supplier|vendor|provider|contractor|consultant|licensor)['’]s\s+"
            r"(?:entire|aggregate|total|maximum|cumulative)?\s*liability",
        ),
    ),
    "consequential_excluded": (
        (r"(?:indirect|consequential|special|incidental|punitive)[^.]{0,40}(?:damages|loss)",),
        (),
    ),
}

#: Words that open a carve-out: the set cues of a `set` value are read after one of these in a sentence.
EXCLUSION_TRIGGERS: tuple[str, ...] = (
    r"shall\s+not\s+apply",
    r"(?:does|do|will)\s+not\s+apply",
    r"shall\s+not\s+(?:limit|restrict|exclude)",
    r"(?:does|do|will)\s+not\s+(?:limit|restrict|exclude)",
    r"not\s+(?:be\s+)?subject\s+to",
    r"\bexcept(?:ing)?\b",
    r"\bexclud(?:ing|es)\b",
    r"\bother\s+than\b",
    r"\bwith\s+the\s+exception\s+of\b",
    r"\bexcluded\s+claims?\b",
    r"\bcarve[- ]?outs?\b",
    r"\bnothing\s+in\s+this\b",
    r"\bunlimited\b",
)


def _first(patterns: Sequence[re.Pattern[str]], text: str) -> re.Match[str] | None:
    best: re.Match[str] | None = None
    for p in patterns:
        m = p.search(text)
        if m and (best is None or m.start() < best.start()):
            best = m
    return best


def find_bool(
    text: str, base: int, *, true_if: Sequence[re.Pattern[str]], false_if: Sequence[re.Pattern[str]]
) -> Hit | None:
    """True when a `true_if` cue occurs, False when a `false_if` cue occurs (false cues win), else None."""
    m = _first(false_if, text)
    if m:
        return Hit(value=False, start=base + m.start(), end=base + m.end())
    m = _first(true_if, text)
    if m:
        return Hit(value=True, start=base + m.start(), end=base + m.end())
    return None


def find_enum(text: str, base: int, *, cues: Mapping[str, Sequence[re.Pattern[str]]]) -> Hit | None:
    """The enum value whose cue occurs first in `text` (ties: the value listed first)."""
    best: tuple[int, str, re.Match[str]] | None = None
    for value, pats in cues.items():
        m = _first(pats, text)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), value, m)
    if best is None:
        return None
    return Hit(value=best[1], start=base + best[2].start(), end=base + best[2].end())


def find_set(
    text: str,
    base: int,
    *,
    cues: Mapping[str, Sequence[re.Pattern[str]]],
    after: Sequence[re.Pattern[str]] = (),
) -> list[Hit]:
    """Every set value whose cue occurs in `text` (after the first `after` trigger, if triggers are given)."""
    scopes: Iterable[tuple[int, int]]
    if after:
        m = _first(after, text)
        if m is None:
            return []
        scopes = [(m.start(), len(text))]
    else:
        scopes = [(0, len(text))]
    hits = []
    for a, b in scopes:
        for value, pats in cues.items():
            m = _first(pats, text[a:b])
            if m:
                hits.append(Hit(value=value, start=base + a + m.start(), end=base + a + m.end()))
    hits.sort(key=lambda h: h.start)
    return hits
