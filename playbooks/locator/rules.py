"""The playbook's own rules as features of the locator: where its patterns and headings hit.

For each clause of the built-in playbook that names a category, two features of every unit: how many
(pattern, passage) pairs of the unit match (as `log1p`), and whether one of the clause's headings occurs
near the start of a passage of the unit (a heading line or a run-in heading). The patterns are copied
into the weights when the locator is trained, so the features at run time are those it learned on,
whatever a playbook later becomes; they are matched through `playbooks.scan.Scanner` (its literal
prefilter and its cache: inside a review the engine's own scanner is passed, so a pattern the engine
runs anyway is matched once).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from playbooks.passages import Passages
from playbooks.scan import Scanner

__all__ = ["RULE_SCALE", "RuleFeatures"]

#: the features' scale beside the l2-normalised tf-idf rows (chosen with the rest by grouped CV)
RULE_SCALE = 0.3
#: a heading of the clause within this many characters of a passage's start (a heading line, or the
#: run-in heading of "2. Limitation of Liability. In no event …")
HEAD = 60


@dataclass(frozen=True, slots=True)
class _Rule:
    id: str
    patterns: tuple[re.Pattern[str], ...]
    headings: tuple[re.Pattern[str], ...]


class RuleFeatures:
    """The rules a locator was trained with, and their features for a text's units."""

    def __init__(self, spec: Sequence[dict[str, Any]], *, scale: float = RULE_SCALE) -> None:
        self.spec = [dict(r) for r in spec]
        self.scale = scale
        self.rules = tuple(
            _Rule(
                id=r["id"],
                patterns=tuple(re.compile(p, f) for p, f in r["patterns"]),
                headings=tuple(re.compile(p, f) for p, f in r["headings"]),
            )
            for r in spec
        )

    @classmethod
    def of_playbook(cls, playbook: Any, *, scale: float = RULE_SCALE) -> RuleFeatures:
        """The clauses of `playbook` that name a locator category, in the playbook's order."""
        spec = [
            {
                "id": c.id,
                "patterns": [[p.pattern, p.flags] for p in c.patterns],
                "headings": [[p.pattern, p.flags] for p in c.heading_res],
            }
            for c in playbook.clauses
            if c.model.locate.category is not None
        ]
        return cls(spec, scale=scale)

    def __len__(self) -> int:
        return 2 * len(self.rules)

    def matrix(
        self, passages: Passages, units: Sequence[tuple[int, int]], scanner: Scanner | None = None
    ) -> npt.NDArray[np.float32]:
        """`[len(units), 2 · rules]`: per rule, log1p of its pattern hits in the unit, and a heading hit."""
        scan = scanner if scanner is not None and scanner.passages is passages else Scanner(passages)
        out = np.zeros((len(units), len(self)), dtype=np.float32)
        if not units:
            return out
        items = passages.items
        starts = np.fromiter((a for a, _ in units), dtype=np.int64, count=len(units))
        ends = np.fromiter((b for _, b in units), dtype=np.int64, count=len(units))

        def units_of(i: int) -> range:
            p = items[i]
            lo = int(np.searchsorted(ends, p.start, side="right"))
            hi = int(np.searchsorted(starts, p.end, side="left"))
            return range(lo, max(lo, hi))

        for k, rule in enumerate(self.rules):
            for rx in rule.patterns:
                for i in scan.passages_matching(rx):
                    for u in units_of(i):
                        out[u, 2 * k] += 1.0
            for rx in rule.headings:
                for i in scan.passages_matching(rx):
                    p = items[i]
                    if rx.search(passages.text, p.start, min(p.end, p.start + HEAD)):
                        for u in units_of(i):
                            out[u, 2 * k + 1] = 1.0
        out[:, 0::2] = np.log1p(out[:, 0::2])
        return out * self.scale
