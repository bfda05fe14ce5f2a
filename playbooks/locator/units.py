"""The locator's reading unit: a run of whole passages of about `TARGET` characters.

A unit starts at a heading (so a clause's heading travels with its words) or when the run has grown past
`TARGET`; a single passage longer than `HARD` (a table, a clause with no full stop) is cut at whitespace.
Units are tight, verbatim ranges of the text: `text[start:end]` has no whitespace at either edge.
The same cut is used to train the locator and to run it, so what it learned is what it reads.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from playbooks.passages import Passage

__all__ = ["HARD", "TARGET", "cut_units"]

TARGET = 450  # characters: a clause-sized window (the reference model's passage size)
HARD = 900  # a unit longer than this is cut at whitespace into pieces of about TARGET
_SPACE = re.compile(r"\s+")


def _tight(text: str, a: int, b: int) -> tuple[int, int] | None:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return (a, b) if b - a >= 2 else None


def _split_long(text: str, a: int, b: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    while b - a > HARD:
        m = _SPACE.search(text, a + TARGET, min(b, a + TARGET + 200))
        cut = m.start() if m else a + TARGET
        piece = _tight(text, a, cut)
        if piece:
            out.append(piece)
        a = m.end() if m else cut
    last = _tight(text, a, b)
    if last:
        out.append(last)
    return out


def cut_units(text: str, passages: Sequence[Passage]) -> list[tuple[int, int]]:
    """The units of `text` given its passages (in order), as `(start, end)` ranges."""
    out: list[tuple[int, int]] = []
    start: int | None = None
    end = 0
    body = False  # the current run holds more than headings

    def flush() -> None:
        if start is not None:
            out.extend(_split_long(text, start, end))

    for p in passages:
        if start is not None and (
            (p.heading and body) or (p.end - start > TARGET and end - start >= TARGET // 3)
        ):
            flush()
            start = None
        if start is None:
            start, body = p.start, False
        end = p.end
        body = body or not p.heading
    flush()
    return out
