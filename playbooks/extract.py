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

The cue values live here; the others, by concept, in `playbooks.numbers` (numbers in words and digits, their
conflicts), `playbooks.money`, `playbooks.periods` (durations and percents), `playbooks.dates` and
`playbooks.jurisdictions` — this module re-exports them, so callers import every extractor from one place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from playbooks.dates import find_dates
from playbooks.hits import Hit
from playbooks.jurisdictions import OTHER_JURISDICTIONS, US_STATES, find_jurisdictions
from playbooks.money import find_money
from playbooks.numbers import NumberConflict, number_conflicts, words_to_number
from playbooks.periods import find_durations, find_percents

__all__ = [
    "BOOL_CUES",
    "CUES",
    "EXCLUSION_TRIGGERS",
    "OTHER_JURISDICTIONS",
    "US_STATES",
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


# ---------------------------------------------------------------------------------------------- cue values

#: Built-in cues for common set/enum values, so a playbook may name a value without writing a pattern.
CUES: Mapping[str, tuple[str, ...]] = {
    # not a warranty disclaimer's "NON-INFRINGEMENT"
    "ip_indemnity": (r"\bindemni\w*", r"(?<!non-)(?<!non)\binfring\w*", r"intellectual\s+property\s+claims?"),
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
