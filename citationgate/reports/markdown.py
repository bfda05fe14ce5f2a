"""The Markdown memo of a review: a summary a lawyer could forward, findings by severity, absences apart.

The memo escapes Markdown and keeps each quote's lines in a blockquote.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from citationgate.escape import markdown
from citationgate.reports.findings import (
    ABSENCE_DISCLOSURE,
    by_severity,
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

__all__ = ["render_markdown"]


# ── Markdown memo ────────────────────────────────────────────────────────────────────────────────
def _md(text: str) -> str:
    """Escape Markdown so the text renders as itself, on one line (blockquotes keep their lines)."""
    return markdown(text)


_LIST_START = re.compile(r"^(\d+)([.)])(\s)|^([-+])(\s)")


def _blockquote(text: str) -> str:
    """Each line of the quote as a blockquote line; a line that would start a list is escaped."""
    lines = []
    for line in text.splitlines():
        md = _md(line)
        md = _LIST_START.sub(lambda m: f"{m[1]}\\{m[2]}{m[3]}" if m[1] else f"\\{m[4]}{m[5]}", md)
        lines.append(f"> {md}" if md else ">")
    return "\n".join(lines)


def render_markdown(data: Mapping[str, Any]) -> str:
    """A memo a lawyer could forward: summary, findings by severity with pinpointed quotes, absences."""
    doc = data.get("document") or {}
    review = data.get("review") or {}
    pb = review.get("playbook") or {}
    summary = data.get("summary") or {}
    findings = ordered(data.get("findings") or [])
    standard = [f for f in findings if not is_absence(f) and f.get("outcome") == "standard"]
    quoted = [f for f in findings if not is_absence(f) and f.get("outcome") != "standard"]
    absences = [f for f in findings if is_absence(f)]
    issues = [f for f in findings if f.get("outcome") not in ("standard", "fallback")]

    out = [f"# Contract review: {_md(str(doc.get('name')))}", ""]
    pb_title = f"{_md(str(pb.get('title')))} " if pb.get("title") else ""
    out += [
        f"- **Playbook:** {pb_title}`{pb.get('id')}` version {pb.get('version')} "
        f"(sha256 `{pb.get('sha256')}`)",
        f"- **Document:** {_md(str(doc.get('name')))} (text sha256 `{doc.get('text_sha256')}`)",
        f"- **Review:** {review.get('id')}",
        *(f"- **{line.split(': ', 1)[0]}:** {_md(line.split(': ', 1)[1])}" for line in footing(data)),
        "",
        "## Summary",
        "",
        f"{counts(data)}.",
        "",
    ]
    if issues:
        out.append("Points to raise:")
        out.append("")
        for f in issues:
            mark = " (absence — not quote-verified)" if is_absence(f) else ""
            out.append(
                f"- **{f.get('id')} · {_md(title(f))}** — "
                f"{label(f.get('outcome'))}, {f.get('severity')}{mark}: {_md(readable(f.get('claim')))}"
            )
        out.append("")
    else:
        out += ["Every clause the playbook checks meets its standard or an approved fallback.", ""]

    if quoted:
        out += ["## Findings", ""]
        for severity, group in by_severity(quoted):
            out += [f"### {severity.capitalize()}", ""]
            for f in group:
                out += _md_finding(f)
    if standard:
        out += ["## Clauses that meet the playbook's standard", ""]
        for f in standard:
            where = "; ".join(pinpoint(c) for c in verified(f))
            out.append(f"- **{f.get('id')} · {_md(title(f))}** — {where}")
        out.append("")
    if absences:
        out += ["## Absence findings (not quote-verified)", "", f"*{ABSENCE_DISCLOSURE}*", ""]
        for f in absences:
            out += [
                f"#### {f.get('id')} · {_md(title(f))} — {label(f.get('outcome'))} "
                f"({f.get('severity')}) · ABSENCE — not quote-verified",
                "",
                _md(readable(f.get("claim"))),
                "",
                f"- {_md(searched_line(f))}",
                f"- supervision: {label(f.get('supervision'))}",
            ]
            out += _md_advice(f)
            out.append("")
    nc = summary.get("not_concluded") or []
    if nc:
        out += ["## Not concluded", "", "No finding was made for these rules:", ""]
        out += [f"- **{_md(title(n))}**: {_md(readable(n.get('reason')))}" for n in nc]
        out.append("")
    out += [
        "## About this review",
        "",
        "Every quotation above is the document's own text at the character offsets shown, verified by "
        "CitationGate against the document version identified by its hash; clause labels are the "
        'document\'s numbering, and DOCX and text files have no pages ("page n/a").',
        "",
        f"- Playbook `{pb.get('id')}` version {pb.get('version')}, sha256 `{pb.get('sha256')}`",
        f"- Document text sha256 `{doc.get('text_sha256')}`",
    ]
    if doc.get("source_sha256"):
        out.append(f"- Source file sha256 `{doc.get('source_sha256')}`")
    return "\n".join(out).rstrip() + "\n"


def _md_finding(f: Mapping[str, Any]) -> list[str]:
    heading = _md(title(f))
    out = [
        f"#### {f.get('id')} · {heading} — {label(f.get('outcome'))}",
        "",
        _md(readable(f.get("claim"))),
        "",
    ]
    for c in verified(f):
        out += [_blockquote(str(c["text"])), ">", f"> — {pinpoint(c)}", ""]
    if f.get("status") == "needs_review":
        out += [f"*Needs review:* {_md(readable(f.get('reason')))}", ""]
    if f.get("supervision") not in (None, "standard"):
        out += [f"*Supervision:* {label(f.get('supervision'))}", ""]
    out += _md_advice(f)
    out.append("")
    return out


def _md_advice(f: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    if f.get("rationale"):
        out.append(f"- *Why:* {_md(readable(f['rationale']))}")
    if f.get("guidance"):
        out.append(f"- *Guidance:* {_md(readable(f['guidance']))}")
    if f.get("model_language") and f.get("outcome") not in ("standard",):
        out.append(f"- *Suggested language (not from the document):* {_md(str(f['model_language']))}")
    if f.get("approval"):
        out.append(f"- *Approval:* {_md(readable(f['approval']))}")
    return out
