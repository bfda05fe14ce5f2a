"""The issues list a lawyer sends a client: one row per finding, as a Word table and as CSV.

Columns: clause, issue, position (standard / fallback / unacceptable …), quote with pinpoint, recommended
action, model language. Rows are sorted by severity, then document order; absence findings are flagged
"ABSENCE — not quote-verified" with what was searched, in place of a quote.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import docx
from docx.enum.section import WD_ORIENT
from docx.shared import Pt

from citationgate.reports.findings import (
    ABSENCE_DISCLOSURE,
    ABSENCE_MARK,
    counts,
    footing,
    is_absence,
    label,
    ordered,
    pinpoint,
    readable,
    searched_line,
    title,
    verified,
)

__all__ = ["COLUMNS", "IssueRow", "issue_rows", "render_csv", "render_issues_docx", "xml_safe"]

COLUMNS = (
    "#",
    "Clause",
    "Issue",
    "Severity",
    "Position",
    "Quote and pinpoint",
    "Recommended action",
    "Model language",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class IssueRow:
    finding: str
    clause: str
    issue: str
    severity: str
    position: str
    quote: str
    action: str
    model_language: str

    def cells(self) -> tuple[str, ...]:
        return (
            self.finding,
            self.clause,
            self.issue,
            self.severity,
            self.position,
            self.quote,
            self.action,
            self.model_language,
        )


def _clause(f: Mapping[str, Any]) -> str:
    labels = [str(c["section"]) for c in verified(f) if c.get("section")]
    where = ", ".join(dict.fromkeys(labels)) if labels else ("—" if is_absence(f) else "no clause label")
    return f"{where} · {title(f)}"


def _quote(f: Mapping[str, Any]) -> str:
    if is_absence(f):
        return f"{ABSENCE_MARK}. {searched_line(f)}"
    return "\n\n".join(f"“{c['text']}” — {pinpoint(c)}" for c in verified(f))


def _action(f: Mapping[str, Any]) -> str:
    parts = []
    if f.get("outcome") == "standard":
        parts.append("None: meets the playbook's standard.")
    elif f.get("guidance"):
        parts.append(readable(f["guidance"]))
    if f.get("status") == "needs_review":
        parts.append(f"Needs review: {readable(f.get('reason'))}")
    if f.get("approval"):
        parts.append(f"Approval: {readable(f['approval'])}")
    return " ".join(parts)


def issue_rows(data: Mapping[str, Any]) -> list[IssueRow]:
    """One row per finding, severity first, then document order."""
    rows = []
    for f in ordered(data.get("findings") or []):
        model = " ".join(str(f.get("model_language") or "").split()) if f.get("outcome") != "standard" else ""
        rows.append(
            IssueRow(
                finding=str(f.get("id")),
                clause=_clause(f),
                issue=readable(f.get("claim")),
                severity=str(f.get("severity") or "unrated"),
                position=label(f.get("outcome")) + (" (absence)" if is_absence(f) else ""),
                quote=_quote(f),
                action=_action(f),
                model_language=model,
            )
        )
    return rows


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """Text a DOCX can hold: characters XML 1.0 forbids (a form feed from a PDF…) become U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: str) -> str:
    """A CSV cell a spreadsheet shows as text: a leading formula character is quoted with an apostrophe."""
    return f"'{value}" if value.startswith(_FORMULA_START) else value


def render_csv(data: Mapping[str, Any]) -> str:
    """The issues list as CSV (RFC 4180 quoting; cells never start a spreadsheet formula)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in issue_rows(data):
        writer.writerow([_cell(c) for c in row.cells()])
    return buf.getvalue()


def render_issues_docx(data: Mapping[str, Any], *, note: str = "") -> bytes:
    """The issues list as a Word document: heading, provenance, one table row per finding."""
    doc_info = data.get("document") or {}
    pb = (data.get("review") or {}).get("playbook") or {}
    word = docx.Document()
    section = word.sections[0]
    section.orientation = WD_ORIENT.LANDSCAPE
    section.page_width, section.page_height = section.page_height, section.page_width
    word.add_heading(f"Issues list: {doc_info.get('name')}", level=1)
    word.add_paragraph(
        f"Playbook {pb.get('title') or pb.get('id')} (version {pb.get('version')}); "
        f"review {(data.get('review') or {}).get('id')}; {counts(data)}."
    )
    for line in footing(data):
        word.add_paragraph(xml_safe(line))
    if note:
        word.add_paragraph(note)
    rows = issue_rows(data)
    tbl = word.add_table(rows=1, cols=len(COLUMNS))
    tbl.style = "Table Grid"
    for cell, name in zip(tbl.rows[0].cells, COLUMNS, strict=True):
        cell.text = ""
        cell.paragraphs[0].add_run(name).bold = True
    for row in rows:
        for cell, value in zip(tbl.add_row().cells, row.cells(), strict=True):
            cell.text = xml_safe(value)
    for tr in tbl.rows:
        for cell in tr.cells:
            for para in cell.paragraphs:
                for run in para.runs:
                    run.font.size = Pt(8)
    if any(is_absence(f) for f in data.get("findings") or []):
        word.add_paragraph(ABSENCE_DISCLOSURE)
    word.add_paragraph(
        "Every quotation is the document's own text at the character offsets shown, verified against the "
        f"document version with text sha256 {doc_info.get('text_sha256')}."
    )
    out = io.BytesIO()
    word.save(out)
    return out.getvalue()
