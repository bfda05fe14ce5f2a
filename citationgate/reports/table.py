"""The terminal table of a review: findings grouped by severity, each verified quote with its pinpoint.

For display only, each whitespace run inside a quote (a numbering tab, a line break) folds to one space;
the JSON carries the exact text, and the offsets always point at the document's own characters.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from citationgate.reports.findings import (
    ABSENCE_DISCLOSURE,
    ABSENCE_MARK,
    by_severity,
    counts,
    footing,
    is_absence,
    label,
    pinpoint,
    readable,
    searched_line,
    title,
    verified,
)

__all__ = ["render_table"]


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
        *footing(data),
        counts(data),
        "",
    ]
    wrap = textwrap.TextWrapper(
        width=width,
        initial_indent="      ",
        subsequent_indent="      ",
        break_long_words=False,
        break_on_hyphens=False,
    )
    for severity, group in by_severity(data.get("findings") or []):
        lines.append(f"{severity.upper()} ({len(group)})")
        for f in group:
            status = f.get("status")
            head = f"  {f.get('id'):<4} {title(f)} — {label(f.get('outcome'))}"
            if is_absence(f):
                head += f"   [{ABSENCE_MARK}]"
            elif status != "verified":
                head += f"   [{label(status)}]"
            if f.get("supervision") not in (None, "standard"):
                head += f"   supervision: {f.get('supervision')}"
            lines.append(head)
            lines.extend(wrap.wrap(readable(f.get("claim"))))
            if is_absence(f):
                lines.extend(wrap.wrap(searched_line(f)))
            for c in verified(f):
                quoted = f"“{' '.join(str(c['text']).split())}”"
                lines.extend(wrap.wrap(quoted))
                lines.append(f"        — {pinpoint(c)}")
            if status == "needs_review" and f.get("reason") and not is_absence(f):
                lines.extend(wrap.wrap(f"needs review: {readable(f.get('reason'))}"))
        lines.append("")
    nc = summary.get("not_concluded") or []
    if nc:
        lines.append(f"NOT CONCLUDED ({len(nc)}) — no finding made")
        for n in nc:
            lines.append(f"  {title(n)}: {readable(n.get('reason'))}")
        lines.append("")
    if any(is_absence(f) for f in data.get("findings") or []):
        lines.extend(textwrap.wrap(f"Note: {ABSENCE_DISCLOSURE}", width=width))
    return "\n".join(lines).rstrip() + "\n"
