"""Refusing a playbook regex that can backtrack catastrophically, before it runs on a contract.

Python's `re` has no timeout: `(\\w+\\s?)+X$` on a line of forty words that lacks the X takes longer
than anyone waits. The shape that does it is a repetition of varying length inside an unbounded
repetition whose turns do not each begin with a literal character: the engine then tries every way of
splitting the text between them. Such a pattern is refused when the playbook is loaded, named in the
error with the fix (bound the inner repetition, or make the group atomic `(?>…)` or possessive `*+`,
`++`). The check is conservative: it may refuse a pattern that would in fact be quick.
"""

from __future__ import annotations

import re._parser as sre_parse  # type: ignore[import-not-found]
from re._constants import (  # type: ignore[import-not-found]
    ASSERT,
    ASSERT_NOT,
    BRANCH,
    LITERAL,
    MAX_REPEAT,
    MAXREPEAT,
    MIN_REPEAT,
    SUBPATTERN,
)
from typing import Any

UNBOUNDED = 32  # a repetition allowing more than this many times counts as unbounded


def backtracking_risk(pattern: str) -> str | None:
    """Why `pattern` can backtrack catastrophically, or None when it cannot in the way described above."""
    try:
        tree = sre_parse.parse(pattern)
    except Exception:  # compile() reports the syntax error itself
        return None
    return _walk(list(tree), inside=None)


def _walk(items: list[Any], *, inside: str | None) -> str | None:
    for op, av in items:
        if op in (MAX_REPEAT, MIN_REPEAT):
            lo, hi, sub = av
            unbounded = hi == MAXREPEAT or hi > UNBOUNDED
            if inside is not None and lo != hi and hi > 1:
                return "a repetition of varying length inside an unbounded repetition (as in (a+)+)"
            # a body that starts with a literal fixes where each turn begins: (?:sole\s+|exclusive\s+)*
            starts_fixed = _starts_with_literal(list(sub))
            found = _walk(list(sub), inside=inside or ("repeat" if unbounded and not starts_fixed else None))
            if found:
                return found
        elif op == SUBPATTERN:
            found = _walk(list(av[-1]), inside=inside)
            if found:
                return found
        elif op == BRANCH:
            for sub in av[1]:
                found = _walk(list(sub), inside=inside)
                if found:
                    return found
        elif op in (ASSERT, ASSERT_NOT):
            found = _walk(list(av[1]), inside=inside)
            if found:
                return found
    return None


def _starts_with_literal(items: list[Any]) -> bool:
    if not items:
        return False
    op, av = items[0]
    if op == LITERAL:
        return True
    if op == SUBPATTERN:
        return _starts_with_literal(list(av[-1]))
    if op == BRANCH:
        return all(_starts_with_literal(list(b)) for b in av[1])
    return False
