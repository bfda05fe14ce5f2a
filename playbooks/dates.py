"""Calendar dates read from contract text, each tied to the span it was read from.

`find_dates` returns ISO dates ("2020-01-01"), and, where the contract leaves the day or month blank to be
filled in on signature ("this ___ day of _______, 2004", "November ___, 2006", "[ ] day of [ ], 2020"), the
part it does state in ISO's reduced precision ("2004", "2006-11"): a date whose day is blank is not a date,
and a caller that needs one checks for the full form.

Forms read: "January 1, 2020", "the last day of February, 2023", "Jan. 1st 2020", "1st day of January,
2020", "the first day of July, 2017", "1 January 2020", "2020-01-01", "01/31/2020", "12-23-2019" and
"7/1/98" (US month-first), "29/3/18" and "29.03.2018" (day-first, where the day cannot be a month, or with
full stops), and the letters of an ordinal split by text extraction ("15t h day of January
2018").
"""

from __future__ import annotations

import calendar
import datetime
import re

from playbooks.hits import Hit

__all__ = ["find_dates", "is_full_date"]

_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12, "jan": 1, "feb": 2, "mar": 3, "apr": 4,
    "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
    "twentieth": 20, "thirtieth": 30,
}  # fmt: skip
_MONTH_ALT = "|".join(sorted(_MONTHS, key=len, reverse=True))
_ORD_ALT = "|".join(sorted(_ORDINALS, key=len, reverse=True))
# "1st", "15th", and the same split by text extraction: "1s t", "15t h", "1 st"
_SUFFIX = r"(?:st|nd|rd|th|s\s?t|n\s?d|r\s?d|t\s?h)"
_DAY = rf"(?P<d>[0-3]?\d)(?:\s?{_SUFFIX}(?![a-z]))?"
_YEAR = r"(?P<y>(?:19|20)\d{2})"
# a date filled in by hand sits against the blank it was written on ("_Dec. 8, 2005", "as of1 August
# 2019"): a letter may not run into the date, an underscore may
_NOT_LETTER = r"(?<![A-Za-z0-9])"
_WEEKDAY = r"(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+)?"
_DATE_RES = (
    # January 1, 2020 / Jan. 1st 2020 / March 18. 2021 (a full stop typed for the comma)
    re.compile(rf"{_NOT_LETTER}(?P<m>{_MONTH_ALT})\.?\s+{_DAY}\s*[,.]?\s*{_YEAR}\b", re.IGNORECASE),
    # 1 January 2020 / 1st day of January, 2020
    re.compile(
        rf"(?<![\d/.,-]){_DAY}\s+(?:day\s+of\s+{_WEEKDAY})?(?P<m>{_MONTH_ALT})\.?\s*,?\s*(?:in\s+the\s+year\s+)?{_YEAR}\b",
        re.IGNORECASE,
    ),
    # the first day of July, 2017 / the twenty-first (21st) day of May 2019
    re.compile(
        rf"\b(?:(?P<tens>twenty|thirty)[\s-])?(?P<o>{_ORD_ALT})\s+(?:\(\s*\d{{1,2}}{_SUFFIX}?\s*\)\s+)?"
        rf"day\s+of\s+{_WEEKDAY}(?P<m>{_MONTH_ALT})\.?\s*,?\s*(?:in\s+the\s+year\s+)?{_YEAR}\b",
        re.IGNORECASE,
    ),
    # 2020-01-31
    re.compile(r"\b(?P<y>(?:19|20)\d{2})-(?P<m>[01]?\d)-(?P<d>[0-3]?\d)\b"),
    # 12-23-2019 (month first, a four-digit year)
    re.compile(r"(?<![\d-])(?P<m>[01]?\d)-(?P<d>[0-3]?\d)-(?P<y>(?:19|20)\d{2})(?![\d-])"),
    # 01/31/2020, 7/1/98 (month first, as in US contracts)
    re.compile(r"(?<![\d/])(?P<m>[01]?\d)/(?P<d>[0-3]?\d)/(?P<y>(?:19|20)\d{2}|\d{2})(?![\d/])"),
    # 29/3/18, 31/01/2020: day first, as the rest of the world writes it — read only where the first number
    # cannot be a month, so that "3/4/18" stays the US reading
    re.compile(
        r"(?<![\d/])(?P<d>1[3-9]|2\d|3[01])/(?P<m>0?[1-9]|1[0-2])/(?P<y>(?:19|20)\d{2}|\d{2})(?![\d/])"
    ),
    # 29.03.2018: day first with full stops, the year in four digits (never a section number "13.2.1")
    re.compile(r"(?<![\d.])(?P<d>[0-3]?\d)\.(?P<m>[01]?\d)\.(?P<y>(?:19|20)\d{2})(?!\w|\.\d)"),
)
#: "the last day of February, 2023", "the last day in June 2019"
_LAST_DAY_RE = re.compile(
    rf"\blast\s+(?:calendar\s+)?day\s+(?:of|in)\s+(?P<m>{_MONTH_ALT})\.?\s*,?\s*{_YEAR}\b", re.IGNORECASE
)
_BLANK = r"(?:_{2,}|\[\s*[*·•]?\s*\])"
# a date left to be filled in: the day (and perhaps the month) blank, the year stated
_PARTIAL_RES = (
    # this ___ day of _______, 2004 / [ ] day of [ ], 2020 / ____ day of March, 2018
    re.compile(
        rf"{_BLANK}\s*(?:{_SUFFIX}\s*)?day\s+of\s+(?:{_BLANK}|(?P<m>{_MONTH_ALT})\.?)\s*,?\s*{_YEAR}\b",
        re.IGNORECASE,
    ),
    # November ___, 2006 / ___________ __, 2000
    re.compile(rf"(?:\b(?P<m>{_MONTH_ALT})\.?|{_BLANK})\s*{_BLANK}\s*,?\s*{_YEAR}\b", re.IGNORECASE),
    # the blank left out altogether: "effective as of June , 2010", "made as of , 2013", "as of [·], 2019"
    re.compile(rf"\b(?P<m>{_MONTH_ALT})\s+,\s*{_YEAR}\b", re.IGNORECASE),
    re.compile(
        rf"\b(?:as\s+of|on|dated|made|effective)\s+(?:the\s+)?(?:{_BLANK}\s*)?,\s*{_YEAR}\b", re.IGNORECASE
    ),
)

_TWO_DIGIT_YEAR = 2000  # "7/1/98": two-digit years are read as 19xx from 31 on, 20xx below


def _year(y: str) -> int:
    n = int(y)
    if len(y) == 2:
        return n + (_TWO_DIGIT_YEAR if n <= 30 else 1900)
    return n


def _day(m: re.Match[str]) -> int | None:
    if m.groupdict().get("o"):
        n = _ORDINALS[m["o"].lower()]
        if m["tens"]:
            if n > 9:
                return None  # "twenty-twelfth" is not a day
            n += 20 if m["tens"].lower() == "twenty" else 30
        return n
    return int(m["d"])


def is_full_date(value: object) -> bool:
    """Is `value` a whole ISO date ("2020-01-01"), not one whose day or month was left blank?"""
    return isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) is not None


def find_dates(text: str, base: int = 0) -> list[Hit]:
    """Calendar dates, in text order: value "YYYY-MM-DD"; impossible dates ("February 31") are skipped; a
    date whose day is left blank is "YYYY-MM" or "YYYY" (the parts the text states)."""
    hits: list[Hit] = []
    taken: list[tuple[int, int]] = []
    for rx in _DATE_RES:
        for m in rx.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            mon = m["m"]
            month = int(mon) if mon.isdigit() else _MONTHS[mon.lower()]
            d = _day(m)
            if d is None:
                continue
            try:
                day = datetime.date(_year(m["y"]), month, d)
            except ValueError:
                continue
            taken.append((m.start(), m.end()))
            hits.append(Hit(value=day.isoformat(), start=base + m.start(), end=base + m.end()))
    for m in _LAST_DAY_RE.finditer(text):
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue
        year, month = int(m["y"]), _MONTHS[m["m"].lower()]
        last = datetime.date(year, month, calendar.monthrange(year, month)[1])
        taken.append((m.start(), m.end()))
        hits.append(Hit(value=last.isoformat(), start=base + m.start(), end=base + m.end()))
    for rx in _PARTIAL_RES:
        for m in rx.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append((m.start(), m.end()))
            value = m["y"] if not m.groupdict().get("m") else f"{m['y']}-{_MONTHS[m['m'].lower()]:02d}"
            hits.append(Hit(value=value, start=base + m.start(), end=base + m.end()))
    return sorted(hits, key=lambda h: h.start)
