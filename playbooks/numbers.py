"""Numbers written in contract text: in words ("twenty-four", "one hundred and twenty"), in digits, and the
"words (digits)" pairs whose two numbers disagree ("thirty (60) days"), which callers treat as unparseable."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DIGITS", "NUMBER_WORDS", "NumberConflict", "number_conflicts", "words_to_number"]


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
#: A number in words: "thirty", "twenty-four", "one hundred and twenty", "Two Million", "FOURTEEN MILLION,
#: EIGHT HUNDRED SIXTY TWO THOUSAND" (a comma only after a scale word, never in a list: "one, two, three")
_AFTER_SCALE = (
    r"(?:(?<=thousand)|(?<=million)|(?<=billion)|(?<=THOUSAND)|(?<=MILLION)|(?<=BILLION)|(?<=Thousand)"
    r"|(?<=Million)|(?<=Billion)),\s*"
)
NUMBER_WORDS = rf"\b(?:{_WORD})(?:(?:[\s-]+|\s+and\s+|{_AFTER_SCALE})(?:{_WORD}))*\b"
DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_MULT = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mm": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9}


def words_to_number(words: str) -> int | None:
    """ "twenty-four" → 24, "one hundred and twenty" → 120, "two million" → 2000000; None if not a number."""
    total = current = 0
    seen = False
    for w in re.split(r"[\s,-]+", words.lower().strip()):
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
