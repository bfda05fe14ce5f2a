"""Reports of a review: a terminal table and a Markdown memo, both rendered from the review's JSON shape.

Both work on the plain dict that `ReviewResult.to_dict()` returns (and `record_data()` rebuilds from the
store), so `citationgate review` and `citationgate findings REVIEW_ID` print the same report.

What appears in quotation marks (or a Markdown blockquote) is always the *verified* text — the document's
own characters at the cited offsets — never the proposer's wording. Absence findings carry no quote; they
are marked "ABSENCE — not quote-verified" with what was searched, on every surface.

For display only, the terminal table folds each whitespace run inside a quote (a numbering tab, a line
break) to one space, and the memo escapes Markdown and keeps the quote's lines; the JSON carries the exact
text, and the offsets always point at the document's own characters.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from citationgate.store import ReviewRecord

__all__ = ["ABSENCE_DISCLOSURE", "one_line_summary", "record_data", "render_markdown", "render_table"]

SEVERITY_ORDER: tuple[str, ...] = ("critical", "high", "medium", "low", "info")
ABSENCE_MARK = "ABSENCE — not quote-verified"
ABSENCE_DISCLOSURE = (
    "Absence findings are not quote-verified: there is no text to quote for a clause that is not there. "
    "Each reports the playbook requirement and what was searched — the queries and the parts of the "
    "document covered — and found nothing. They carry high supervision: confirm against the signed "
    "document before relying on them. No absence finding is made against a document that was not read "
    "whole."
)


def record_data(record: ReviewRecord) -> dict[str, Any]:
    """A stored review in the `citationgate review --format json` shape."""
    doc = record.version.document
    summary = dict(record.summary)
    return {
        "review": {
            "id": record.id,
            "kind": record.kind,
            "playbook": {
                "id": record.playbook_id,
                "version": record.playbook_version,
                "sha256": record.playbook_sha256,
                "title": summary.get("playbook_title", ""),
            },
            "created_at": record.created_at.isoformat(),
        },
        "document": {
            "name": doc.name,
            "version_id": record.version.id,
            "file_type": doc.file_type,
            "view": doc.view,
            "text_sha256": doc.text_sha256,
            "source_sha256": doc.source_sha256,
            "status": doc.status,
            "pages": len(doc.pages) or None,
        },
        "summary": summary,
        "findings": list(record.findings),
    }


# ── helpers ──────────────────────────────────────────────────────────────────────────────────────
def _severity_rank(f: Mapping[str, Any]) -> int:
    sev = f.get("severity")
    return SEVERITY_ORDER.index(sev) if sev in SEVERITY_ORDER else len(SEVERITY_ORDER)


def _by_severity(findings: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for f in sorted(findings, key=_severity_rank):  # stable: keeps F1, F2… order inside a severity
        groups.setdefault(str(f.get("severity") or "unrated"), []).append(f)
    return list(groups.items())


def _verified(f: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [
        c for c in f.get("citations") or [] if c.get("status") == "verified" and c.get("text") is not None
    ]


def _pinpoint(c: Mapping[str, Any]) -> str:
    section = c.get("section")
    where = f"clause {section}" if section else "no clause label"
    page = c.get("page")
    pg = f"page {page}" if page is not None else "page n/a"
    return f"{where}, {pg}, characters {c.get('start')}–{c.get('end')}"


def _is_absence(f: Mapping[str, Any]) -> bool:
    return f.get("evidence") == "absence"


def _searched_line(f: Mapping[str, Any]) -> str:
    s = f.get("searched") or {}
    queries = ", ".join(f"'{q}'" for q in s.get("searched") or s.get("queries") or []) or "none recorded"
    coverage = ", ".join(s.get("coverage") or []) or "not recorded"
    req = s.get("requirement") or "—"
    return f"requirement: {req}; searched: {queries}; covered: {coverage}"


def _counts(data: Mapping[str, Any]) -> str:
    findings = data.get("findings") or []
    by_sev: dict[str, int] = {}
    for f in findings:
        by_sev[str(f.get("severity"))] = by_sev.get(str(f.get("severity")), 0) + 1
    parts = [f"{by_sev[s]} {s}" for s in SEVERITY_ORDER if by_sev.get(s)]
    absence = sum(1 for f in findings if _is_absence(f))
    text = f"{len(findings)} finding{'s' if len(findings) != 1 else ''}"
    if parts:
        text += f" ({', '.join(parts)})"
    if absence:
        text += f"; {absence} absence (not quote-verified)"
    return text


def one_line_summary(data: Mapping[str, Any]) -> str:
    """`northwind_msa.docx: review 3, 24 findings (2 high, …); playbook msa-customer@1.0.0`."""
    pb = (data.get("review") or {}).get("playbook") or {}
    rid = (data.get("review") or {}).get("id")
    name = (data.get("document") or {}).get("name")
    return f"{name}: review {rid}, {_counts(data)}; playbook {pb.get('id')}@{pb.get('version')}"


# ── table ────────────────────────────────────────────────────────────────────────────────────────
def render_table(data: Mapping[str, Any], *, width: int = 100) -> str:
    """Findings grouped by severity: outcome, the verified quote, clause, page, offsets; absences marked."""
    doc = data.get("document") or {}
    pb = (data.get("review") or {}).get("playbook") or {}
    summary = data.get("summary") or {}
    lines = [
        f"{doc.get('name')}  (text sha256 {str(doc.get('text_sha256'))[:12]}…)",
        f"review {(data.get('review') or {}).get('id')}  playbook {pb.get('id')}@{pb.get('version')} "
        f"(sha256 {str(pb.get('sha256'))[:12]}…)",
        _counts(data),
        "",
    ]
    wrap = textwrap.TextWrapper(
        width=width,
        initial_indent="      ",
        subsequent_indent="      ",
        break_long_words=False,
        break_on_hyphens=False,
    )
    for severity, group in _by_severity(data.get("findings") or []):
        lines.append(f"{severity.upper()} ({len(group)})")
        for f in group:
            status = f.get("status")
            head = f"  {f.get('id'):<4} {f.get('title') or f.get('rule')} — {f.get('outcome')}"
            if _is_absence(f):
                head += f"   [{ABSENCE_MARK}]"
            elif status != "verified":
                head += f"   [{status}]"
            if f.get("supervision") not in (None, "standard"):
                head += f"   supervision: {f.get('supervision')}"
            lines.append(head)
            lines.extend(wrap.wrap(str(f.get("claim") or "")))
            if _is_absence(f):
                lines.extend(wrap.wrap(_searched_line(f)))
            for c in _verified(f):
                quoted = f"“{' '.join(str(c['text']).split())}”"
                lines.extend(wrap.wrap(quoted))
                lines.append(f"        — {_pinpoint(c)}")
            if status == "needs_review" and f.get("reason") and not _is_absence(f):
                lines.extend(wrap.wrap(f"needs review: {f.get('reason')}"))
        lines.append("")
    nc = summary.get("not_concluded") or []
    if nc:
        lines.append(f"NOT CONCLUDED ({len(nc)}) — no finding made")
        for n in nc:
            lines.append(f"  {n.get('title') or n.get('rule')}: {n.get('reason')}")
        lines.append("")
    if any(_is_absence(f) for f in data.get("findings") or []):
        lines.extend(textwrap.wrap(f"Note: {ABSENCE_DISCLOSURE}", width=width))
    return "\n".join(lines).rstrip() + "\n"


# ── Markdown memo ────────────────────────────────────────────────────────────────────────────────
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def _md(text: str) -> str:
    """Escape Markdown so the text renders as itself, on one line (blockquotes keep their lines)."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


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
    findings = list(data.get("findings") or [])
    standard = [f for f in findings if not _is_absence(f) and f.get("outcome") == "standard"]
    quoted = [f for f in findings if not _is_absence(f) and f.get("outcome") != "standard"]
    absences = [f for f in findings if _is_absence(f)]
    issues = [f for f in findings if f.get("outcome") not in ("standard", "fallback")]

    out = [f"# Contract review: {_md(str(doc.get('name')))}", ""]
    pb_title = f"{_md(str(pb.get('title')))} " if pb.get("title") else ""
    out += [
        f"- **Playbook:** {pb_title}`{pb.get('id')}` version {pb.get('version')} "
        f"(sha256 `{pb.get('sha256')}`)",
        f"- **Document:** {_md(str(doc.get('name')))} (text sha256 `{doc.get('text_sha256')}`)",
        f"- **Review:** {review.get('id')}",
        "",
        "## Summary",
        "",
        f"{_counts(data)}.",
        "",
    ]
    if issues:
        out.append("Points to raise:")
        out.append("")
        for f in issues:
            mark = " (absence — not quote-verified)" if _is_absence(f) else ""
            out.append(
                f"- **{f.get('id')} · {_md(str(f.get('title') or f.get('rule')))}** — "
                f"{f.get('outcome')}, {f.get('severity')}{mark}: {_md(str(f.get('claim') or ''))}"
            )
        out.append("")
    else:
        out += ["Every clause the playbook checks meets its standard or an approved fallback.", ""]

    if quoted:
        out += ["## Findings", ""]
        for severity, group in _by_severity(quoted):
            out += [f"### {severity.capitalize()}", ""]
            for f in group:
                out += _md_finding(f)
    if standard:
        out += ["## Clauses that meet the playbook's standard", ""]
        for f in standard:
            where = "; ".join(_pinpoint(c) for c in _verified(f))
            out.append(f"- **{f.get('id')} · {_md(str(f.get('title') or f.get('rule')))}** — {where}")
        out.append("")
    if absences:
        out += ["## Absence findings (not quote-verified)", "", f"*{ABSENCE_DISCLOSURE}*", ""]
        for f in absences:
            out += [
                f"#### {f.get('id')} · {_md(str(f.get('title') or f.get('rule')))} — {f.get('outcome')} "
                f"({f.get('severity')}) · ABSENCE — not quote-verified",
                "",
                _md(str(f.get("claim") or "")),
                "",
                f"- {_md(_searched_line(f))}",
                f"- supervision: {f.get('supervision')}",
            ]
            out += _md_advice(f)
            out.append("")
    nc = summary.get("not_concluded") or []
    if nc:
        out += ["## Not concluded", "", "No finding was made for these rules:", ""]
        out += [f"- **{_md(str(n.get('title') or n.get('rule')))}**: {_md(str(n.get('reason')))}" for n in nc]
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
    title = _md(str(f.get("title") or f.get("rule")))
    out = [f"#### {f.get('id')} · {title} — {f.get('outcome')}", "", _md(str(f.get("claim") or "")), ""]
    for c in _verified(f):
        out += [_blockquote(str(c["text"])), ">", f"> — {_pinpoint(c)}", ""]
    if f.get("status") == "needs_review":
        out += [f"*Needs review:* {_md(str(f.get('reason') or ''))}", ""]
    if f.get("supervision") not in (None, "standard"):
        out += [f"*Supervision:* {f.get('supervision')}", ""]
    out += _md_advice(f)
    out.append("")
    return out


def _md_advice(f: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    if f.get("rationale"):
        out.append(f"- *Why:* {_md(str(f['rationale']))}")
    if f.get("guidance"):
        out.append(f"- *Guidance:* {_md(str(f['guidance']))}")
    if f.get("model_language") and f.get("outcome") not in ("standard",):
        out.append(f"- *Suggested language (not from the document):* {_md(str(f['model_language']))}")
    if f.get("approval"):
        out.append(f"- *Approval:* {_md(str(f['approval']))}")
    return out
