"""Amounts of money read from contract text, each tied to the span it was read from: "$5,000,000", "USD 2.5
million", "£1m", "€250,000", "₦50,000,000", "10,000 US dollars" → {"amount": number, "currency": ISO code}."""

from __future__ import annotations

import re

from playbooks.hits import Hit
from playbooks.numbers import _MULT, DIGITS, NUMBER_WORDS, _conflict_in, _num

__all__ = ["find_money"]

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


#: a scanned filing's figure with letter O's for zeros: "FIVE HUNDRED THOUSAND DOLLARS ($5OO,000)"
_OCR_FIGURE = re.compile(r"(?<=\d)[\dOo,]*[Oo][\dOo,]*(?=\d|[Oo]\b|\b)")


def _zeros(m: re.Match[str]) -> str:
    run = m.group(0)
    return run.replace("O", "0").replace("o", "0") if re.fullmatch(r"[\dOo]*(?:,[\dOo]{3})*", run) else run


def find_money(text: str, base: int = 0) -> list[Hit]:
    """Amounts with a currency: value {"amount": number, "currency": ISO code}. A figure's letter O's read
    as zeros where a scan put them there ("$5OO,000"); offsets are the text's own."""
    text = _OCR_FIGURE.sub(_zeros, text)
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
