"""Refusing a playbook regex that can backtrack catastrophically, before it runs on a contract.

Python's `re` has no timeout: `(\\w+\\s?)+X$` on a line of forty words that lacks the X takes longer
than anyone waits. The shape that does it is a repetition of varying length inside an unbounded
repetition whose turns do not each begin with a literal character: the engine then tries every way of
splitting the text between them. Such a pattern is refused when the playbook is loaded, named in the
error with the fix (bound the inner repetition, or make the group atomic `(?>…)` or possessive `*+`,
`++`). The check is conservative: it may refuse a pattern that would in fact be quick.

A custom playbook's patterns are also run under a time bound (below), for the shapes this check misses.
"""

from __future__ import annotations

import os
import re
import re._parser as sre_parse  # type: ignore[import-not-found]
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
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
from typing import Any, cast

import regex

from playbooks.errors import PlaybookError

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


# ------------------------------------------------------------------------------------------ run-time bound
# The static check above cannot see every pattern that backtracks (an alternation whose branches overlap,
# `(?:[a-z]|[a-z ])+$`, passes it). So a custom playbook's patterns also run with a bounded run time: each
# is compiled with the `regex` module as well, and every match is given `regex`'s `timeout=`:
#   - one call may run `CITATIONGATE_REGEX_TIMEOUT` seconds (default 1) plus 1 s per MB of text it scans;
#   - all of a playbook's calls on one contract (`regex_budget`, around the engine's run) ten times that.
# A pattern past either bound ends the review with `RegexTimeoutError` (exit 4), naming the pattern and
# its line. The built-in playbooks are trusted and stay on `re` (`benchmarks/regex_timeout.py` measures
# what the bound would cost them).

TIMEOUT_ENV = "CITATIONGATE_REGEX_TIMEOUT"
DEFAULT_TIMEOUT_S = 1.0
PER_MB_S = 1.0  # more time for a call that scans more text: honest matching is linear in it
BUDGET_FACTOR = 10  # a contract's budget for all calls, in units of one call's bound
_FLAGS = re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE | re.ASCII | re.UNICODE


class RegexTimeoutError(PlaybookError):
    """A playbook pattern that ran past its time bound on a contract: it backtracks catastrophically there."""


def timeout_from_env() -> float:
    """One call's bound in seconds, from `CITATIONGATE_REGEX_TIMEOUT` (default 1)."""
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    if not raw:
        return DEFAULT_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value < 3600:
        raise PlaybookError(f"{TIMEOUT_ENV}={raw!r}: expected a number of seconds between 0 and 3600")
    return value


class _Budget:
    __slots__ = ("left",)

    def __init__(self, seconds: float) -> None:
        self.left = seconds


_BUDGET: ContextVar[_Budget | None] = ContextVar("citationgate_regex_budget", default=None)


@contextmanager
def regex_budget(chars: int) -> Iterator[None]:
    """Bound the run time of every bounded pattern's calls inside the block, together, for a text of
    `chars` characters (the engine's run over one contract)."""
    seconds = BUDGET_FACTOR * (timeout_from_env() + PER_MB_S * chars / 1e6)
    token = _BUDGET.set(_Budget(seconds))
    try:
        yield
    finally:
        _BUDGET.reset(token)


class BoundedPattern:
    """A compiled pattern with `re.Pattern`'s matching methods, each run under a time bound (above).

    `pattern`, `flags`, `groups` and `groupindex` are those of the `re` compilation, so code that reads
    them (the scanner's literal prefilter) sees what it would see with `re`; matching is `regex`'s (its
    VERSION0 behaviour, compatible with `re`), and its matches have the same methods."""

    __slots__ = ("_base", "_rx", "_where", "flags", "groupindex", "groups", "pattern")

    def __init__(self, compiled: re.Pattern[str], *, where: str) -> None:
        self.pattern = compiled.pattern
        self.flags = compiled.flags
        self.groups = compiled.groups
        self.groupindex = compiled.groupindex
        self._rx: Any = regex.compile(compiled.pattern, (compiled.flags & _FLAGS) | regex.VERSION0)
        self._where = where
        self._base = timeout_from_env()

    def __repr__(self) -> str:
        return f"BoundedPattern({self.pattern!r})"

    def _run(self, method: str, string: str, pos: int, endpos: int | None, *args: Any) -> Any:
        end = len(string) if endpos is None else min(endpos, len(string))
        limit = self._base + PER_MB_S * max(0, end - pos) / 1e6
        budget = _BUDGET.get()
        if budget is not None:
            if budget.left <= 0:
                raise self._timed_out(0.0, budget=True)
            limit = min(limit, budget.left)
        started = time.perf_counter()
        try:
            return getattr(self._rx, method)(string, pos, end, *args, timeout=limit)
        except TimeoutError:
            raise self._timed_out(limit, budget=budget is not None and limit == budget.left) from None
        finally:
            if budget is not None:
                budget.left -= time.perf_counter() - started

    def _timed_out(self, limit: float, *, budget: bool) -> RegexTimeoutError:
        bound = (
            "its share of this contract's time for the playbook's patterns"
            if budget
            else f"its bound of {limit:.1f} s ({TIMEOUT_ENV})"
        )
        return RegexTimeoutError(
            f"{self._where}: regular expression {self.pattern!r} ran past {bound}: it backtracks "
            "catastrophically on this contract; bound its repetitions, or make them atomic (?>…) or "
            "possessive (*+, ++)"
        )

    def search(self, string: str, pos: int = 0, endpos: int | None = None) -> Any:
        return self._run("search", string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int | None = None) -> Any:
        return self._run("match", string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int | None = None) -> Any:
        return self._run("fullmatch", string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int | None = None) -> Iterator[Any]:
        """Every match, left to right: one bounded search after another (`regex`'s own iterator would
        count the caller's time between matches against the pattern)."""
        end = len(string) if endpos is None else min(endpos, len(string))
        at, after_empty = pos, -1
        while at <= end:
            m = self._run("search", string, at, end)
            if m is None:
                return
            if m.start() == m.end() == after_empty:  # an empty match where the last one ended: move on
                at += 1
                continue
            yield m
            at = m.end()
            after_empty = at if m.start() == m.end() else -1
            if m.start() == m.end():
                at += 1

    def findall(self, string: str, pos: int = 0, endpos: int | None = None) -> list[Any]:
        out = []
        for m in self.finditer(string, pos, endpos):
            if self.groups == 0:
                out.append(m.group())
            elif self.groups == 1:
                out.append(m.group(1) or "")
            else:
                out.append(tuple(g or "" for g in m.groups()))
        return out


def bounded(compiled: re.Pattern[str], *, where: str) -> re.Pattern[str]:
    """`compiled` with a bounded run time, used wherever an `re.Pattern` is (it has the same methods)."""
    return cast("re.Pattern[str]", BoundedPattern(compiled, where=where))


@lru_cache(maxsize=256)
def _bounded_cached(pattern: str, flags: int) -> re.Pattern[str]:
    return bounded(re.compile(pattern, flags), where="playbook predicate")


def bounded_search(pattern: str, text: str, flags: int = re.IGNORECASE) -> bool:
    """Whether `pattern` matches somewhere in `text`, under the time bound (a predicate's `matches`)."""
    return _bounded_cached(pattern, flags).search(text) is not None
