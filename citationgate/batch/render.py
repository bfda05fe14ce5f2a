"""A portfolio value rendered as a terminal table, CSV, XLSX, HTML or JSON.

The grid formats (CSV, XLSX, HTML) have, per clause type, four columns: outcome, value, the verified quote
that contains the value, and its pinpoint — a cell that states a value always has its quote beside it.
Spreadsheet cells that begin with `= + - @` (or a tab or carriage return) are prefixed with `'` so a
spreadsheet shows them as text and never runs them as formulas; HTML escapes everything and allows no
script (a strict Content-Security-Policy).
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Iterator, Mapping
from typing import Any

from citationgate.batch.portfolio import pinpoint

__all__ = ["grid", "render_csv", "render_html", "render_json", "render_table", "render_xlsx", "safe_cell"]

_FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """A spreadsheet cell that cannot be a formula: text that starts like one gets a leading `'`."""
    if isinstance(value, str) and value.startswith(_FORMULA_PREFIXES):
        return "'" + value
    return value


def _value_text(cell: Mapping[str, Any]) -> str:
    v = cell.get("value")
    if not v:
        return ""
    shown = v.get("value")
    if isinstance(shown, list):
        shown = ", ".join(map(str, shown))
    return f"{v.get('name')}: {shown}" if shown is not None else str(v.get("text") or "")


def _quote(cell: Mapping[str, Any]) -> str:
    if cell.get("absence"):
        return "(absence: not quote-verified; searched " + "; ".join(cell.get("searched") or []) + ")"
    q = cell.get("quote")
    return str(q["text"]) if q else str(cell.get("why") or "")


def grid(p: Mapping[str, Any]) -> Iterator[list[Any]]:
    """The portfolio as rows of plain values: a header, then one row per contract."""
    header: list[Any] = ["path", "document", "review"]
    for ct in p["clause_types"]:
        t = ct["title"]
        header += [f"{t}: outcome", f"{t}: value", f"{t}: quote", f"{t}: pinpoint"]
    yield header
    for row in p["rows"]:
        out: list[Any] = [row["path"], row["name"], row["review_id"]]
        for ct in p["clause_types"]:
            cell = row["cells"].get(ct["rule"]) or {}
            out += [cell.get("outcome", ""), _value_text(cell), _quote(cell), pinpoint(cell.get("quote"))]
        yield out


def render_csv(p: Mapping[str, Any]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for r in grid(p):
        w.writerow([safe_cell(v) for v in r])
    return buf.getvalue()


def render_xlsx(p: Mapping[str, Any]) -> bytes:
    from openpyxl import Workbook

    wb = Workbook(write_only=True)
    sheet = wb.create_sheet("portfolio")
    for r in grid(p):
        sheet.append([safe_cell(v) for v in r])
    counts = wb.create_sheet("counts")
    counts.append(["clause type", "outcome", "contracts"])
    for ct in p["clause_types"]:
        for outcome, n in p["counts"].get(ct["rule"], {}).items():
            counts.append([safe_cell(ct["title"]), outcome, n])
    missing = wb.create_sheet("not reviewed")
    missing.append(["path", "status", "why"])
    for m in p["not_reviewed"]:
        missing.append([safe_cell(m["path"]), m["status"], safe_cell(m["reason"])])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def render_json(p: Mapping[str, Any]) -> str:
    return json.dumps(p, ensure_ascii=False, indent=2, default=str) + "\n"


def render_table(p: Mapping[str, Any]) -> str:
    """For a terminal: the counts per clause type, then each contract's cells that are not standard."""
    lines = [
        f"run {p['run']} · {p['playbook']['id']}@{p['playbook']['version']} · {p['contracts']} contract(s)"
        + (f" where {' and '.join(p['where'])}" if p["where"] else "")
    ]
    lines.append("")
    lines.append(f"{'clause type':<40} counts")
    for ct in p["clause_types"]:
        c = p["counts"].get(ct["rule"], {})
        lines.append(f"{ct['title'][:40]:<40} " + ", ".join(f"{k} {v}" for k, v in c.items()))
    for row in p["rows"]:
        lines.append("")
        lines.append(f"{row['path']}  (review {row['review_id']})")
        for ct in p["clause_types"]:
            cell = row["cells"].get(ct["rule"]) or {}
            if cell.get("outcome") in ("standard", "not_applicable", None):
                continue
            value = _value_text(cell)
            lines.append(f"  {ct['title'][:38]:<38} {cell['outcome']}" + (f" — {value}" if value else ""))
            quote = _quote(cell)
            if quote:
                short = " ".join(quote.split())
                short = short if len(short) <= 160 else short[:157] + "…"
                lines.append(f"      “{short}”  {pinpoint(cell.get('quote'))}".rstrip())
    if p["not_reviewed"]:
        lines.append("")
        lines.append("not reviewed:")
        for m in p["not_reviewed"]:
            lines.append(f"  {m['status']:<8} {m['path']}: {m['reason']}")
    return "\n".join(lines) + "\n"


_CSS = (
    "body{font:14px system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse}"
    "td,th{border:1px solid #ccc;padding:4px;vertical-align:top;max-width:28em}"
    "blockquote{margin:.3em 0;padding-left:.5em;border-left:3px solid #999;font-size:12px}"
    ".unacceptable{background:#fdd}.needs_review{background:#ffd}.missing{background:#fed}"
    ".pin{color:#555;font-size:11px}"
)


def render_html(p: Mapping[str, Any]) -> str:
    e = html.escape
    title = f"Portfolio · run {p['run']}"
    out = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f"<title>{e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{e(title)}</h1><p>{e(p['playbook']['id'])}@{e(p['playbook']['version'])} · "
        f"{p['contracts']} contract(s)"
        + (f" where {e(' and '.join(p['where']))}" if p["where"] else "")
        + "</p>",
        "<h2>Counts</h2><table><tr><th>clause type</th><th>outcomes</th></tr>",
    ]
    for ct in p["clause_types"]:
        c = p["counts"].get(ct["rule"], {})
        out.append(
            f"<tr><td>{e(ct['title'])}</td><td>{e(', '.join(f'{k} {v}' for k, v in c.items()))}</td></tr>"
        )
    out.append("</table><h2>Contracts</h2><table><tr><th>contract</th>")
    out += [f"<th>{e(ct['title'])}</th>" for ct in p["clause_types"]]
    out.append("</tr>")
    for row in p["rows"]:
        out.append(
            f"<tr><td>{e(row['path'])}<br><span class=pin>review {e(str(row['review_id']))}</span></td>"
        )
        for ct in p["clause_types"]:
            cell = row["cells"].get(ct["rule"]) or {}
            outcome = str(cell.get("outcome") or "")
            body = f"<b>{e(outcome)}</b>"
            value = _value_text(cell)
            if value:
                body += f"<br>{e(value)}"
            quote = _quote(cell)
            if quote:
                pin = e(pinpoint(cell.get("quote")))
                body += f"<blockquote>{e(quote)}</blockquote><span class=pin>{pin}</span>"
            out.append(f'<td class="{e(outcome)}">{body}</td>')
        out.append("</tr>")
    out.append("</table>")
    if p["not_reviewed"]:
        out.append("<h2>Not reviewed</h2><table><tr><th>contract</th><th>status</th><th>why</th></tr>")
        for m in p["not_reviewed"]:
            out.append(f"<tr><td>{e(m['path'])}</td><td>{e(m['status'])}</td><td>{e(m['reason'])}</td></tr>")
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
