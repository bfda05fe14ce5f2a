"""The portfolio view of a run: one row per contract, one column per clause type, every value with its quote.

`portfolio(runs, run_id, where=[...])` reads the run's entries and each reviewed document's cells (written
with its review, see `cells.py`) and returns a plain value: the clause types in playbook order, the rows,
the outcome counts per clause type (over the rows that pass the filters) and the contracts that were not
reviewed, with why. A filter is `rule=outcome` or `rule!=outcome` (the rule's id or title, any case);
several filters must all hold. Renderers for table, CSV, XLSX, HTML and JSON are in `render.py`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from citationgate.errors import BatchError
from citationgate.store_runs import DONE, RunStore

__all__ = ["Where", "parse_where", "pinpoint", "portfolio"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Where:
    """One filter: the clause type's outcome is (or is not) `outcome`."""

    rule: str
    outcome: str
    negate: bool = False

    def __str__(self) -> str:
        return f"{self.rule}{'!=' if self.negate else '='}{self.outcome}"


_WHERE = re.compile(r"^\s*([^=!]+?)\s*(!=|=)\s*([A-Za-z_]+)\s*$")


def parse_where(text: str) -> Where:
    m = _WHERE.match(text)
    if m is None:
        raise BatchError(
            f"--where {text!r}: expected CLAUSE=OUTCOME or CLAUSE!=OUTCOME (e.g. assignment=unacceptable)"
        )
    return Where(rule=m.group(1).strip(), outcome=m.group(3).strip().lower(), negate=m.group(2) == "!=")


def _by_title(name: str, titles: Mapping[str, str]) -> str:
    low = name.lower().replace(" ", "_")
    for rule, title in titles.items():
        if low in (rule.lower(), title.lower().replace(" ", "_")):
            return rule
    return name


def portfolio(
    runs: RunStore, run_id: int, *, where: Sequence[Where] = (), quotes: bool = True
) -> dict[str, Any]:
    """Run `run_id` as a portfolio (see the module's docstring).

    The filters and counts run in the database over each document's outcome per clause type; the cells
    — values with their quotes — are read for the rows kept, or not at all with `quotes=False` (then a
    row has no cells: it states nothing).
    """
    run = runs.get_run(run_id)
    counts_all = runs.outcome_counts(run_id)
    titles: dict[str, str] = {
        r: t for r, t in (run["options"].get("titles") or {}).items() if r in counts_all
    }
    for rule in counts_all:
        titles.setdefault(rule, rule)
    filters = []
    for w in where:
        rule = w.rule if w.rule in titles else _by_title(w.rule, titles)
        if rule not in titles and titles:
            known = ", ".join(sorted(titles))
            raise BatchError(f"--where {w}: no clause type {w.rule!r} in run {run_id} (known: {known})")
        filters.append((rule, w.outcome, w.negate))
    listed = runs.entries(run_id, where=filters)
    kept = [e for e in listed if e["status"] == DONE]
    counts = runs.outcome_counts(run_id, where=filters) if filters else counts_all
    not_reviewed = [
        {"path": e["path"], "status": e["status"], "reason": e["reason"]}
        for e in (runs.entries(run_id) if filters else listed)
        if e["status"] != DONE
    ]
    cells = runs.cells(sorted({e["key"] for e in kept})) if quotes else {}
    rows = []
    for e in kept:
        row_cells = cells.get(e["key"], {})
        for rule, cell in row_cells.items():
            if cell.get("title") and rule in titles:
                titles[rule] = str(cell["title"])
        rows.append(
            {
                "path": e["path"],
                "name": e["name"],
                "review_id": e["review_id"],
                "source_sha256": e["source_sha256"],
                "meta": e["meta"],
                "cells": row_cells,
            }
        )
    return {
        "run": run_id,
        "playbook": run["playbook"],
        "where": [str(w) for w in where],
        "clause_types": [{"rule": r, "title": t} for r, t in titles.items()],
        "contracts": len(rows),
        "rows": rows,
        "counts": {r: dict(sorted(counts.get(r, {}).items())) for r in titles},
        "not_reviewed": not_reviewed,
    }


def pinpoint(quote: Mapping[str, Any] | None) -> str:
    """Where a quote sits: clause, page and offsets ("§7.1 · p. 3 · [9831:10174]")."""
    if not quote:
        return ""
    parts = []
    if quote.get("section"):
        parts.append(f"§{quote['section']}")
    if quote.get("page"):
        parts.append(f"p. {quote['page']}")
    parts.append(f"[{quote['start']}:{quote['end']}]")
    return " · ".join(parts)
