"""A value left blank in the copy ("within ____ days", "$_______", "[__] per cent"): no value, no silence.

A form or an unsigned draft leaves the number to be filled in. The field is then *not stated* — the engine
reads no number, so the position cannot be checked (`needs_review`, as for any value not found) — but the
reason is the blank, not that the clause says nothing: the finding says so and quotes the blank, so the
reader sees at once that the copy is incomplete rather than searching the clause for a number it lacks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from playbooks.engine.context import _Context, _hits, _Region, _Value
from playbooks.outcome import ExtractedValue
from playbooks.schema import CompiledClause

__all__ = ["blank_values", "blank_weak_link"]

#: a place left to write in: underscores, an empty bracket ("[ ]", "[__]"), a run of dots
_SLOT = r"(?:_{2,}|\[\s*_*\s*\]|\.{4,}|…{2,})"
_BLANKS: Mapping[str, re.Pattern[str]] = {
    # "within ____ days", "_____ (___) days", "[ ] months'"
    "duration": re.compile(
        rf"{_SLOT}\s*(?:\(\s*(?:_+|\s*)\s*\)\s*)?(?:calendar\s+|business\s+|working\s+)?"
        r"(?:days?|weeks?|months?|years?)\b",
        re.IGNORECASE,
    ),
    # "$_______", "US$ [ ]", "_______ dollars"
    "money": re.compile(
        rf"(?:US\s?\$|\$|£|€|\b(?:USD|EUR|GBP)\s?){_SLOT}|{_SLOT}\s*(?:US\s+)?(?:dollars|euros?|pounds)\b",
        re.IGNORECASE,
    ),
    # "____ %", "[ ] per cent"
    "percent": re.compile(rf"{_SLOT}\s*(?:%|percent\b|per\s+cent\b)", re.IGNORECASE),
}


def blank_values(
    ctx: _Context,
    clause: CompiledClause,
    region: _Region,
    values: Mapping[str, _Value],
    fields: Sequence[str],
) -> dict[str, _Value]:
    """For each of `fields` not read, the blank left in its place in the located clause, if there is one:
    in a passage carrying the field's own words (`near`), the first blank of the field's kind."""
    items = ctx.passages.items
    out: dict[str, _Value] = {}
    for f in clause.fields:
        rx = _BLANKS.get(f.spec.type)
        if rx is None or f.name not in fields or f.name in values:
            continue
        for i in region.passages:
            p = items[i]
            seg = ctx.text[p.start : p.end]
            if p.heading or (f.near and not _hits(f.near, seg)):
                continue
            m = rx.search(seg)
            if m is not None:
                s, e = p.start + m.start(), p.start + m.end()
                ev = ExtractedValue(value=None, text=ctx.text[s:e], start=s, end=e)
                out[f.name] = _Value(ev, (p.start, p.end), None, False)
                break
    return out


def blank_weak_link(blanks: Mapping[str, _Value]) -> str | None:
    """The weak link a blank makes: the value the position needs is left blank in this copy."""
    if not blanks:
        return None
    said = ", ".join(f"{n.replace('_', ' ')} (“{' '.join(v.ev.text.split())}”)" for n, v in blanks.items())
    return f"{said} left blank in this copy, so not stated"
