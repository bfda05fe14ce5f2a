"""A single-file HTML review over the contract's own text: every verified citation highlighted in place.

The page is self-contained — one file, no network, no external scripts, styles or fonts — and carries a
Content-Security-Policy that allows only its own inline style and script, by hash. Everything that came
from the contract or a proposal is escaped (`html.escape`), so `<script>`, `</textarea>` or a
`javascript:` link in a contract is text on the page. Bidirectional controls (U+202E…) are shown as a
visible marker instead of reordering the text around them.

The contract is the canonical text itself: highlights are placed at the citations' exact offsets, cut
into segments where citations overlap (a segment covered twice carries both ids and the more severe
colour). Each highlight carries its citation's UTF-16 offsets (`data-u16`), which is how a browser
counts, and the page's text (with each bidi marker read as its character) is the canonical text.
"""

from __future__ import annotations

import base64
import hashlib
import html
import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from citationgate.reports.findings import (
    ABSENCE_DISCLOSURE,
    ABSENCE_MARK,
    SEVERITY_ORDER,
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
from ingest.document import Document

__all__ = ["CHROMIUM_FLAGS", "CSP", "render_html"]

_BIDI = {
    "\u061c": "ALM",
    "\u200e": "LRM",
    "\u200f": "RLM",
    "\u202a": "LRE",
    "\u202b": "RLE",
    "\u202c": "PDF",
    "\u202d": "LRO",
    "\u202e": "RLO",
    "\u2066": "LRI",
    "\u2067": "RLI",
    "\u2068": "FSI",
    "\u2069": "PDI",
}


_NO_BIDI = {ord(ch): None for ch in _BIDI}


def _attr(value: object) -> str:
    """An attribute value (or `<title>` text): escaped, bidi controls dropped."""
    return html.escape(str(value if value is not None else ""), quote=True).translate(_NO_BIDI)


def _esc(value: object) -> str:
    """Escaped text with bidi controls shown, never obeyed."""
    out = []
    for ch in html.escape(str(value if value is not None else ""), quote=True):
        name = _BIDI.get(ch)
        out.append(f'<span class="bidi" data-cp="{ord(ch):04X}">{name}</span>' if name else ch)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _Cite:
    key: str  # "F1-0"
    finding: str
    severity: str
    start: int
    end: int


def _cites(findings: Sequence[Mapping[str, Any]], n: int) -> list[_Cite]:
    out = []
    for f in findings:
        for i, c in enumerate(verified(f)):
            s, e = c.get("start"), c.get("end")
            if isinstance(s, int) and isinstance(e, int) and 0 <= s < e <= n:
                fid = _attr(f.get("id"))
                out.append(_Cite(f"{fid}-{i}", fid, _attr(f.get("severity")), s, e))
    return out


def _rank(sev: str) -> int:
    return SEVERITY_ORDER.index(sev) if sev in SEVERITY_ORDER else len(SEVERITY_ORDER)


def _contract(document: Document, cites: list[_Cite]) -> str:
    """The canonical text with highlights (segments between every citation boundary) and page markers.

    Each citation's start gets an empty anchor (`#hl-F1-0`) that the findings list scrolls to.
    """
    text = document.text
    pages = {p.start: p.number for p in document.pages}
    cuts = sorted({0, len(text), *pages, *(c.start for c in cites), *(c.end for c in cites)})
    starting: dict[int, list[_Cite]] = {}
    for c in cites:
        starting.setdefault(c.start, []).append(c)
    out: list[str] = []
    for a, b in itertools.pairwise(cuts):
        if a in pages:
            out.append(f'<span class="page" id="page-{pages[a]}" data-page="{pages[a]}"></span>')
        out.extend(f'<span class="anchor" id="hl-{c.key}"></span>' for c in starting.get(a, ()))
        covering = [c for c in cites if c.start <= a and b <= c.end]
        piece = _esc(text[a:b])
        if not covering:
            out.append(piece)
            continue
        top = min(covering, key=lambda c: _rank(c.severity))
        cls = f"hl sev-{top.severity}" + (" overlap" if len(covering) > 1 else "")
        keys = " ".join(c.key for c in covering)
        out.append(f'<mark class="{cls}" data-cites="{keys}">{piece}</mark>')
    return "".join(out)


def _status_chip(f: Mapping[str, Any]) -> str:
    status = str(f.get("status") or "")
    return f'<span class="chip st-{_attr(status)}">{_esc(label(status))}</span>'


def _old_new(f: Mapping[str, Any]) -> str:
    """A re-verified finding: each earlier citation's text and what it is now (moved, stale, …)."""
    rows = []
    for rc in f.get("report_citations") or []:
        old = rc.get("previous") or rc.get("old") or {}  # reverify names the earlier place `previous`
        now = rc.get("text") or (rc.get("new") or {}).get("text") or rc.get("became")
        rows.append(
            f'<div class="oldnew"><span class="chip st-{_attr(rc.get("status"))}">'
            f"{_esc(label(rc.get('status')))}</span>"
            f"<div><b>Before</b> (clause {_esc(old.get('section') or 'n/a')}): "
            f"<q>{_esc(old.get('text'))}</q></div>"
            f"<div><b>Now</b>: {f'<q>{_esc(now)}</q>' if now else '<i>no matching passage</i>'}</div>"
            f'<div class="why">{_esc(readable(rc.get("reason")))}</div></div>'
        )
    return "".join(rows)


def _finding(f: Mapping[str, Any]) -> str:
    fid = str(f.get("id"))
    sev = str(f.get("severity") or "unrated")
    parts = [
        f'<li class="finding sev-{_attr(sev)}" id="f-{_attr(fid)}" data-severity="{_attr(sev)}" '
        f'data-status="{_attr(f.get("status"))}" tabindex="-1">',
        f'<div class="head"><span class="fid">{_esc(fid)}</span> <b>{_esc(title(f))}</b> — '
        f"{_esc(label(f.get('outcome')))} {_status_chip(f)}</div>",
        f'<p class="claim">{_esc(readable(f.get("claim")))}</p>',
    ]
    if is_absence(f):
        parts.append(f'<p class="absence">{_esc(ABSENCE_MARK)}. {_esc(searched_line(f))}</p>')
    for i, c in enumerate(verified(f)):
        parts.append(
            f'<button type="button" class="goto" data-target="hl-{_attr(fid)}-{i}">'
            f'<q>{_esc(c.get("text"))}</q><span class="pin">{_esc(pinpoint(c))}</span></button>'
        )
    parts.append(_old_new(f))
    if f.get("status") == "needs_review" and f.get("reason"):
        parts.append(f'<p class="review">Needs review: {_esc(readable(f.get("reason")))}</p>')
    if f.get("supervision") not in (None, "standard"):
        parts.append(f'<p class="sup">Supervision: {_esc(label(f.get("supervision")))}</p>')
    if f.get("guidance"):
        parts.append(f'<p class="guidance"><b>Guidance:</b> {_esc(readable(f["guidance"]))}</p>')
    if f.get("model_language") and f.get("outcome") != "standard":
        parts.append(
            '<p class="model"><b>Suggested language (not from the document):</b> '
            f"{_esc(' '.join(str(f['model_language']).split()))}</p>"
        )
    parts.append("</li>")
    return "".join(parts)


def _header(data: Mapping[str, Any], document: Document) -> str:
    review = data.get("review") or {}
    pb = review.get("playbook") or {}
    fid = document.fidelity
    rows = [
        ("Document", f"{_esc(document.name)} ({_esc(document.file_type)}, view {_esc(document.view)})"),
        ("Status", f'<span class="chip doc-{_attr(document.status)}">{_esc(document.status)}</span>'),
        ("Fidelity", f"{fid.value:.2%} ({_esc(fid.method)})"),
        ("Pages", str(len(document.pages)) if document.pages else "n/a (no pages in this format)"),
        ("Review", f"{_esc(review.get('id'))} ({_esc(review.get('kind') or 'review')})"),
        ("Playbook", f"{_esc(pb.get('title') or pb.get('id'))} {_esc(pb.get('version'))}"),
        ("Text sha256", f"<code>{_esc(document.text_sha256)}</code>"),
        ("Findings", _esc(counts(data))),
    ]
    rows += [(_esc(k), _esc(v)) for k, _, v in (line.partition(": ") for line in footing(data))]
    if document.reasons:
        rows.append(("Withheld because", "; ".join(_esc(r) for r in document.reasons)))
    cells = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return (
        f'<header><h1>Contract review: {_esc(document.name)}</h1><table class="meta">{cells}</table></header>'
    )


def _filters(findings: Sequence[Mapping[str, Any]]) -> str:
    sevs = sorted({str(f.get("severity") or "unrated") for f in findings}, key=_rank)
    stats = sorted({str(f.get("status") or "") for f in findings})
    box = '<label><input type="checkbox" class="flt" data-kind="{}" value="{}" checked> {}</label>'
    boxes = [box.format("severity", _attr(s), _esc(s)) for s in sevs]
    boxes += [box.format("status", _attr(s), _esc(label(s))) for s in stats]
    return f'<div class="filters" role="group" aria-label="Filters">{"".join(boxes)}</div>'


_STYLE = files("citationgate.reports").joinpath("review.css").read_text(encoding="utf-8")

_SCRIPT = files("citationgate.reports").joinpath("review.js").read_text(encoding="utf-8")


def _sha(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


#: Nothing loads but the page's own style and script (by hash); no network, no frames, no forms.
CSP = (
    f"default-src 'none'; style-src '{_sha(_STYLE)}'; script-src '{_sha(_SCRIPT)}'; img-src 'none'; "
    "font-src 'none'; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; "
    "form-action 'none'"
)


#: How the tests and the screenshot command start Debian's chromium headless, offline, as root: no
#: sandbox, no GPU, none of its background connections (this machine's network is closed).
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)


def render_html(data: Mapping[str, Any], document: Document) -> str:
    """The review as one self-contained HTML page over `document`'s canonical text."""
    findings = list(data.get("findings") or [])
    quoted = [f for f in findings if not is_absence(f)]
    absences = [f for f in findings if is_absence(f)]
    cites = _cites(quoted, len(document.text))
    side = [_filters(findings)]
    for severity, group in by_severity(quoted):
        side.append(f'<h2 class="group">{_esc(severity.capitalize())} ({len(group)})</h2><ul>')
        side.extend(_finding(f) for f in group)
        side.append("</ul>")
    if absences:
        side.append(
            f'<h2 class="group" id="absences">Absence findings — not quote-verified ({len(absences)})</h2>'
            f'<p class="note">{_esc(ABSENCE_DISCLOSURE)}</p><ul>'
        )
        side.extend(_finding(f) for f in absences)
        side.append("</ul>")
    nc = (data.get("summary") or {}).get("not_concluded") or []
    if nc:
        side.append("<h2>Not concluded — no finding made</h2><ul>")
        side.extend(
            f'<li class="note"><b>{_esc(title(n))}</b>: {_esc(readable(n.get("reason")))}</li>' for n in nc
        )
        side.append("</ul>")
    u16 = {c.key: [document.utf16_offset(c.start), document.utf16_offset(c.end)] for c in cites}
    offsets = html.escape(json.dumps(u16, separators=(",", ":")), quote=True)
    body = (
        _header(data, document)
        + '<div class="layout"><aside id="findings">'
        + "".join(side)
        + f'</aside><article id="contract" data-u16="{offsets}">'
        + _contract(document, cites)
        + "</article></div>"
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Review: {_attr(document.name)}</title><style>{_STYLE}</style></head>"
        f"<body>{body}<script>{_SCRIPT}</script></body></html>\n"
    )
