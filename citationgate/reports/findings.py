"""What every report format shares: a stored review in the review's JSON shape, severity order, pinpoints.

Every format works on the plain dict that `ReviewResult.to_dict()` returns (and `record_data()` rebuilds
from the store), so `citationgate review` and `citationgate findings REVIEW_ID` render the same report.
What appears in quotation marks is always the *verified* text — the document's own characters at the
cited offsets — never the proposer's wording. Absence findings carry no quote; they are marked
"ABSENCE — not quote-verified" with what was searched, on every surface.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from citationgate.store import ReviewRecord

__all__ = [
    "ABSENCE_DISCLOSURE",
    "ABSENCE_MARK",
    "SEVERITY_ORDER",
    "by_severity",
    "counts",
    "footing",
    "is_absence",
    "label",
    "one_line_summary",
    "ordered",
    "pinpoint",
    "readable",
    "record_data",
    "searched_line",
    "title",
    "verified",
]

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


def _first_offset(f: Mapping[str, Any]) -> float:
    starts = [int(c["start"]) for c in verified(f) if isinstance(c.get("start"), int)]
    return min(starts) if starts else float("inf")  # an absence has no place: after the quoted ones


def ordered(findings: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Severity first, then document order (the first verified quote); ties keep F1, F2… order."""
    return sorted(findings, key=lambda f: (_severity_rank(f), _first_offset(f)))


def by_severity(findings: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """Findings grouped by severity (most severe first), each group in document order."""
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for f in ordered(findings):
        groups.setdefault(str(f.get("severity") or "unrated"), []).append(f)
    return list(groups.items())


# An engine's working notation inside prose: "[cap_months lt 6]", "; values: cap_months: 3 (…)".
_PREDICATE = re.compile(r"\s*\[[^\]]*(?:_|\b(?:lt|le|gt|ge|eq|ne|contains|in|not)\b)[^\]]*\]")
_VALUES_TAIL = re.compile(r";\s*values?:.*\Z", re.S)
_SNAKE = re.compile(r"\b[A-Za-z][a-z0-9]*(?:_[A-Za-z0-9]+)+\b")
_REGEX_TOKEN = re.compile(r"\S*(?:\\[bBdDsSwW]|\(\?[:!=<iP]|\[\^)\S*")


def readable(text: object) -> str:
    """Prose for a person: no snake_case tokens, predicate notation or regular expressions.

    The engine's evidence keeps them (JSON `evidence`, `rationale`); what a lawyer reads says
    "gross negligence", not "gross_negligence", and drops "[cap_months lt 6]".
    """
    out = _VALUES_TAIL.sub("", str(text or ""))
    out = _PREDICATE.sub("", out)
    out = _REGEX_TOKEN.sub("", out)
    out = _SNAKE.sub(lambda m: m[0].replace("_", " "), out)
    return re.sub(r"[ \t]{2,}", " ", out).strip()


def label(value: object) -> str:
    """An outcome or status as words: `referenced_not_provided` → `referenced not provided`."""
    return str(value or "").replace("_", " ")


def title(f: Mapping[str, Any]) -> str:
    """The finding's title, or its rule id as words."""
    return str(f.get("title") or label(f.get("rule")))


def verified(f: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [
        c for c in f.get("citations") or [] if c.get("status") == "verified" and c.get("text") is not None
    ]


def pinpoint(c: Mapping[str, Any]) -> str:
    section = c.get("section")
    where = f"clause {section}" if section else "no clause label"
    page = c.get("page")
    pg = f"page {page}" if page is not None else "page n/a"
    return f"{where}, {pg}, characters {c.get('start')}–{c.get('end')}"


def is_absence(f: Mapping[str, Any]) -> bool:
    return f.get("evidence") == "absence"


def searched_line(f: Mapping[str, Any]) -> str:
    s = f.get("searched") or {}
    queries = (
        ", ".join(f"'{readable(q)}'" for q in s.get("searched") or s.get("queries") or []) or "none recorded"
    )
    coverage = ", ".join(readable(c) for c in s.get("coverage") or []) or "not recorded"
    req = readable(s.get("requirement")) or "—"
    return f"requirement: {req}; searched: {queries}; covered: {coverage}"


def counts(data: Mapping[str, Any]) -> str:
    findings = data.get("findings") or []
    by_sev: dict[str, int] = {}
    for f in findings:
        by_sev[str(f.get("severity"))] = by_sev.get(str(f.get("severity")), 0) + 1
    parts = [f"{by_sev[s]} {s}" for s in SEVERITY_ORDER if by_sev.get(s)]
    absence = sum(1 for f in findings if is_absence(f))
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
    return f"{name}: review {rid}, {counts(data)}; playbook {pb.get('id')}@{pb.get('version')}"


def footing(data: Mapping[str, Any]) -> list[str]:
    """What the judgement stands on, said before any finding: who is us (and why), and any type mismatch."""
    summary = data.get("summary") or {}
    lines = []
    if summary.get("roles"):
        lines.append(f"Parties: {summary['roles']}")
    if summary.get("fit_warning"):
        lines.append(f"Warning: {summary['fit_warning']}")
    if summary.get("incorporation_warning"):
        lines.append(f"Warning: {summary['incorporation_warning']}")
    return lines
