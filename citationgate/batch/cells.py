"""A review's portfolio cells: per clause type, its outcome and key value, each value with its verified quote.

Computed once, when the review is written (in the same transaction), so the portfolio over ten thousand
contracts reads one small record per contract instead of every finding. A cell that states a value
always carries the verified quote that contains it and its pinpoint (section, page, offsets); a value
whose span lies in no verified quote is not stated (the review has already dropped such values, this is
the same rule held again at the edge). An absence cell says it is an absence and what was searched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["portfolio_cells"]


def portfolio_cells(findings: Sequence[Mapping[str, Any]], summary: Mapping[str, Any]) -> dict[str, Any]:
    """`{rule: cell}` for every rule the review concluded on, found not applicable, or could not conclude."""
    cells: dict[str, Any] = {}
    for f in findings:
        rule = f.get("rule")
        if not rule or rule in cells:
            continue
        cells[str(rule)] = _cell(f)
    for nc in summary.get("not_concluded") or ():
        rule = str(nc.get("rule"))
        cells.setdefault(
            rule,
            {
                "title": nc.get("title") or rule,
                "outcome": "needs_review",
                "severity": nc.get("severity"),
                "status": "not_concluded",
                "why": nc.get("reason") or "",
            },
        )
    for rule in summary.get("not_applicable") or ():
        cells.setdefault(str(rule), {"title": str(rule), "outcome": "not_applicable"})
    return cells


def _cell(f: Mapping[str, Any]) -> dict[str, Any]:
    cell: dict[str, Any] = {
        "title": f.get("title") or f.get("rule"),
        "outcome": f.get("outcome") or f.get("status"),
        "severity": f.get("severity"),
        "status": f.get("status"),
        "finding": f.get("id"),
    }
    if f.get("evidence") == "absence":
        searched = f.get("searched") or {}
        cell["absence"] = True
        cell["why"] = f.get("disclosure") or "absence: not quote-verified"
        cell["searched"] = list(searched.get("searched") or [])[:5]
        return cell
    verified = [c for c in f.get("citations") or () if c.get("status") == "verified" and c.get("text")]
    extracted = f.get("extracted") or {}
    for name, value in extracted.items():
        start, end = value.get("start"), value.get("end")
        if not isinstance(start, int) or not isinstance(end, int):
            continue
        quote = next((c for c in verified if c["start"] <= start and end <= c["end"]), None)
        if quote is None:
            continue
        cell["value"] = {"name": name, "value": value.get("value"), "text": value.get("text")}
        cell["quote"] = _quote(quote)
        break
    if "quote" not in cell and verified:
        cell["quote"] = _quote(verified[0])
    return cell


def _quote(c: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "text": c["text"],
        "start": c["start"],
        "end": c["end"],
        "section": c.get("section") or None,
        "page": c.get("page"),
    }
