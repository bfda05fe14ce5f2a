"""Fast pattern scanning: run a regular expression only where its required words occur.

Python's `re` scans quickly only when a pattern starts with a literal; `\\bcap\\b` or
`(?:aggregate|total) liability` step through every position. A playbook has hundreds of patterns, so each
is analysed once for the literal text every match must contain (a literal run, or one of several
alternatives), the lower-cased document is searched for those literals with `str.find`, and the pattern
is run only on the passages that contain one.

A pattern is matched against each passage, so its anchors are the passage's: `^` and `\\A` match where the
passage starts (and `(?m)^` after every newline in it too), `$` and `\\Z` where it ends — as they do when a
field's cues are read from a passage's text. (Searched over the whole document, `^` would only ever match
at its first character.)
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from playbooks.passages import Passages

__all__ = ["Scanner", "anchored", "masked_stops", "required_literals"]

_sre: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")
_MIN = 3


def _alts(items: Any) -> list[str] | None:
    """Literal alternatives one of which every match of this parsed sequence contains; None if unknown."""
    best: list[str] | None = None
    run = ""

    def consider(cand: list[str] | None) -> None:
        nonlocal best
        if not cand or min(len(c) for c in cand) < _MIN:
            return
        if best is None or (len(cand), -min(map(len, cand))) < (len(best), -min(map(len, best))):
            best = cand

    for op, av in items:
        if op is _c.LITERAL:
            run += chr(av)
            continue
        consider([run])
        run = ""
        if op is _c.SUBPATTERN:
            consider(_alts(av[-1]))
        elif op is _c.BRANCH:
            branches = [_alts(b) for b in av[1]]
            if all(branches):
                consider([x for b in branches if b for x in b])
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT) and av[0] >= 1:
            consider(_alts(av[2]))
    consider([run])
    return best


def _anchored(items: Any) -> bool:
    """Does this parsed pattern hold a start anchor (`^`, `\\A`) anywhere?"""
    for op, av in items:
        if op is _c.AT and av in (_c.AT_BEGINNING, _c.AT_BEGINNING_STRING):
            return True
        if op is _c.SUBPATTERN and _anchored(av[-1]):
            return True
        if op is _c.BRANCH and any(_anchored(b) for b in av[1]):
            return True
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and _anchored(av[2]):
            return True
        if op in (_c.ASSERT, _c.ASSERT_NOT) and _anchored(av[1]):
            return True
        if op is _c.ATOMIC_GROUP and _anchored(av):
            return True
    return False


@lru_cache(maxsize=4096)
def anchored(pattern: str, flags: int) -> bool:
    """Does `pattern` anchor on a start (`^`, `\\A`)? Such a pattern is matched on each passage's own text."""
    try:
        return _anchored(list(_sre.parse(pattern, flags)))
    except Exception:
        return False


@lru_cache(maxsize=4096)
def required_literals(pattern: str, flags: int) -> tuple[str, ...] | None:
    """Lower-cased literals, one of which occurs in every match of `pattern` (None: no such hint)."""
    try:
        parsed = _sre.parse(pattern, flags)
    except Exception:
        return None
    alts = _alts(list(parsed))
    return tuple(sorted({a.lower() for a in alts})) if alts else None


#: a full stop that ends an abbreviation, not a sentence: a title before a name ("should Dr. Murray be in
#: breach"), a company's legal form with the sentence running on ("KI, Inc. shall have the right to
#: terminate", "Acme Co., the Supplier")
_ABBREVIATION_STOP = re.compile(
    r"\b(?:Dr|Mr|Mrs|Ms|Messrs|Prof)\.(?=\s*[A-Z])"
    r"|\b(?:Inc|Ltd|Co|Corp|Pty|Bhd|Jr|Sr|No|Nos)\.(?=\s*(?:[,;:()\]]|[a-z]))"
)
#: what stands in for such a stop in the text patterns are matched against: one character, so every offset
#: holds
_NOT_A_STOP = "\u2024"


def masked_stops(text: str) -> str:
    """`text` with each abbreviation's full stop replaced by a one-dot leader (same length, same offsets), so
    a pattern's "within one sentence" (`[^.]{0,120}`) runs on past "Dr." and "Inc." as a reader does."""
    return _ABBREVIATION_STOP.sub(lambda m: m.group(0)[:-1] + _NOT_A_STOP, text)


class Scanner:
    """Which passages of a text each pattern matches in, using the literal prefilter. Patterns are matched
    against the text with its abbreviations' stops masked (`masked_stops`); offsets are the text's own."""

    def __init__(self, passages: Passages) -> None:
        self.passages = passages
        self.text = masked_stops(passages.text)
        lower = self.text.lower()
        self.lower = lower if len(lower) == len(self.text) else None
        self._cache: dict[tuple[str, int], tuple[int, ...]] = {}

    def _candidates(self, literals: Sequence[str]) -> list[int]:
        assert self.lower is not None
        found: set[int] = set()
        for lit in literals:
            pos = self.lower.find(lit)
            while pos != -1:
                found.add(self.passages.index_at(pos))
                pos = self.lower.find(lit, pos + 1)
        return sorted(found)

    def passages_matching(self, rx: re.Pattern[str]) -> tuple[int, ...]:
        """Indices of the passages in which `rx` matches (a match starting inside the passage)."""
        key = (rx.pattern, rx.flags)
        if key in self._cache:
            return self._cache[key]
        lits = required_literals(rx.pattern, rx.flags) if self.lower is not None else None
        out: list[int] = []
        items = self.passages.items
        if anchored(rx.pattern, rx.flags):  # its `^` is each passage's start
            cands = self._candidates(lits) if lits is not None else range(len(items))
            out = [i for i in cands if rx.search(self.text[items[i].start : items[i].end])]
        elif lits is None:
            seen: set[int] = set()
            for m in rx.finditer(self.text):
                i = self.passages.index_at(m.start())
                if i not in seen:
                    seen.add(i)
                    out.append(i)
        else:
            for i in self._candidates(lits):
                p = items[i]
                if rx.search(self.text, p.start, p.end):
                    out.append(i)
        result = tuple(out)
        self._cache[key] = result
        return result
