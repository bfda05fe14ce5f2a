"""A copy of the reviewed DOCX with one Word comment at each verified citation's exact words.

Each verified citation in the body gets a comment anchored at the runs holding exactly its text (runs are
split at the offsets through the reader's map, so tables and numbered paragraphs anchor as well). The
comment is authored by the playbook and says the finding's severity, position, claim and guidance. The
copy reads back to the same canonical text; comments change no text.

Citations in footnotes, headers or footers are not anchored (python-docx anchors comments in the main
document part only); they are counted in the result and remain in the issues list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from docx.text.run import Run

from citationgate.reports.anchors import Anchors, ranges_of
from citationgate.reports.findings import label, ordered, readable, title, verified
from citationgate.reports.issues import xml_safe
from ingest.document import Document

__all__ = ["CommentedCopy", "comment_text", "render_word_comments"]


@dataclass(frozen=True, slots=True, kw_only=True)
class CommentedCopy:
    """The DOCX bytes and what was anchored: comments written, citations that could not be."""

    data: bytes
    comments: int
    not_anchored: tuple[str, ...]  # "F3 (clause n/a, characters 12000–12040): in a footnote"


def author_of(data: Mapping[str, Any]) -> str:
    pb = (data.get("review") or {}).get("playbook") or {}
    return f"CitationGate · {pb.get('id') or 'review'}@{pb.get('version') or '?'}"


def comment_text(f: Mapping[str, Any], *, part: str = "") -> str:
    """The comment body: `F1 · CRITICAL · Limitation of liability — unacceptable`, claim, guidance…"""
    lines = [
        f"{f.get('id')} · {str(f.get('severity') or 'unrated').upper()} · {title(f)} — "
        f"{label(f.get('outcome'))}{part}",
        readable(f.get("claim")),
    ]
    if f.get("status") == "needs_review":
        lines.append(f"Needs review: {readable(f.get('reason'))}")
    if f.get("guidance"):
        lines.append(f"Guidance: {readable(f.get('guidance'))}")
    if f.get("model_language") and f.get("outcome") != "standard":
        lines.append(
            f"Suggested language (not from the document): {' '.join(str(f['model_language']).split())}"
        )
    return "\n".join(line for line in lines if line)


def render_word_comments(data: Mapping[str, Any], document: Document, source: bytes) -> CommentedCopy:
    """Anchor one comment per verified citation of every finding (severity, then document order)."""
    anchors = Anchors(document, source)
    todo: list[tuple[Mapping[str, Any], Mapping[str, Any], str]] = []
    for f in ordered(data.get("findings") or []):
        cites = verified(f)
        for i, c in enumerate(cites):
            part = f" (quote {i + 1} of {len(cites)})" if len(cites) > 1 else ""
            todo.append((f, c, part))
    ranges = ranges_of(anchors, [(int(c["start"]), int(c["end"])) for _f, c, _p in todo])
    author = author_of(data)
    written = 0
    missing: list[str] = []
    for (f, c, part), rr in zip(todo, ranges, strict=True):
        if rr is None:
            where = "outside the body (a footnote, header or footer)"
            if anchors.in_body(int(c["start"]), int(c["end"])):
                where = "in text that no run holds"
            missing.append(f"{f.get('id')} (characters {c.get('start')}–{c.get('end')}): {where}")
            continue
        anchors.word.add_comment(
            [Run(rr.first, anchors.word), Run(rr.last, anchors.word)],
            text=xml_safe(comment_text(f, part=part)),
            author=author,
            initials="CG",
        )
        written += 1
    return CommentedCopy(data=anchors.save(), comments=written, not_anchored=tuple(missing))
