"""A proposed redline: a copy of the DOCX with the playbook's model language as tracked changes.

For each `unacceptable` finding whose rule has model language, the cited clause — the verified citation
that holds most of the values the finding was decided on — becomes a tracked deletion (`w:del`, its
`w:t` turned into `w:delText`) followed by a tracked insertion (`w:ins`) of the model language, both
authored by the playbook and dated, with a comment explaining the position. Nothing else changes: the
`original` view of the copy is the input's original view, and an existing tracked change is never touched
(a clause that already carries one is left alone and reported).

Only a clause within one paragraph (and one run container) is redlined; one that crosses paragraphs,
hyperlinks or fields is reported as not redlined.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from docx.oxml import OxmlElement

from citationgate.reports.anchors import AnchorError, Anchors, RunRange, ranges_of
from citationgate.reports.findings import ordered, readable, verified
from citationgate.reports.issues import xml_safe
from citationgate.reports.word_comments import author_of
from ingest.document import Document
from ingest.numbering import W

__all__ = ["Redline", "render_redline"]

_TRACKED = frozenset(W + n for n in ("ins", "del", "moveFrom", "moveTo"))
#: What a tracked deletion may hold besides runs (range marks, proofing marks).
_MAY_DELETE = frozenset(
    W + n
    for n in (
        "r",
        "bookmarkStart",
        "bookmarkEnd",
        "commentRangeStart",
        "commentRangeEnd",
        "proofErr",
        "permStart",
        "permEnd",
    )
)
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


@dataclass(frozen=True, slots=True, kw_only=True)
class Redline:
    content: bytes
    changed: tuple[str, ...]  # finding ids redlined
    skipped: tuple[str, ...]  # "F5: why not"

    @property
    def note(self) -> str:
        text = f"{len(self.changed)} tracked change(s) to model language"
        if self.changed:
            text += f" ({', '.join(self.changed)})"
        if self.skipped:
            text += "; not redlined: " + "; ".join(self.skipped)
        return text


def _cited_clause(f: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The verified citation holding most of the values the finding extracted (ties: the first)."""
    cites = verified(f)
    if not cites:
        return None
    spans = [v for v in (f.get("extracted") or {}).values() if isinstance(v, Mapping)]

    def held(c: Mapping[str, Any]) -> int:
        return sum(1 for v in spans if c["start"] <= v.get("start", -1) and v.get("end", 1 << 62) <= c["end"])

    return max(cites, key=held)  # max keeps the first among equals


def _siblings(rr: RunRange) -> list[Any] | str:
    """The nodes from the first run to the last, all in one container; or why not."""
    parent = rr.first.getparent()
    if rr.last.getparent() is not parent or any(r.getparent() is not parent for r in rr.runs):
        return "the clause crosses paragraphs, hyperlinks or fields"
    for anc in rr.first.iterancestors():
        if anc.tag in _TRACKED:
            return "the clause already carries a tracked change"
    kids = list(parent)
    nodes = kids[kids.index(rr.first) : kids.index(rr.last) + 1]
    for n in nodes:
        if n.tag not in _MAY_DELETE:
            return "the clause holds a field, hyperlink or tracked change"
        if any(d.tag in _TRACKED or d.tag == W + "fldChar" for d in n.iter()):
            return "the clause holds a field, hyperlink or tracked change"
    return nodes


def _max_id(root: Any) -> int:
    ids = [int(v) for el in root.iter() if (v := el.get(W + "id")) is not None and v.lstrip("-").isdigit()]
    return max(ids, default=0)


def render_redline(data: Mapping[str, Any], document: Document, source: bytes) -> Redline:
    """Tracked changes to the model language for each unacceptable finding that has it."""
    if document.file_type != "docx":
        raise AnchorError(f"{document.name}: a redline needs a DOCX (this is a {document.file_type} file)")
    if document.view != "accepted":
        raise AnchorError(
            f"{document.name}: a redline is written over the accepted view (review with --view accepted)"
        )
    anchors = Anchors(document, source)
    todo: list[tuple[Mapping[str, Any], Mapping[str, Any]]] = []
    skipped: list[str] = []
    for f in ordered(data.get("findings") or []):
        if f.get("outcome") != "unacceptable" or not str(f.get("model_language") or "").strip():
            continue
        c = _cited_clause(f)
        if c is None:
            skipped.append(f"{f.get('id')}: no verified quote")
            continue
        if any(c["start"] < o["end"] and o["start"] < c["end"] for _g, o in todo):
            skipped.append(f"{f.get('id')}: its clause is already redlined for another finding")
            continue
        todo.append((f, c))
    ranges = ranges_of(anchors, [(int(c["start"]), int(c["end"])) for _f, c in todo])
    author = author_of(data)
    date = dt.datetime.now(dt.UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")
    next_id = _max_id(anchors.body) + 1
    changed: list[str] = []
    for (f, _c), rr in zip(todo, ranges, strict=True):
        fid = str(f.get("id"))
        nodes = _siblings(rr) if rr is not None else "the clause is not in the document body"
        if isinstance(nodes, str):
            skipped.append(f"{fid}: {nodes}")
            continue
        assert rr is not None
        dele = OxmlElement("w:del", attrs={W + "id": str(next_id), W + "author": author, W + "date": date})
        ins = OxmlElement("w:ins", attrs={W + "id": str(next_id + 1), W + "author": author, W + "date": date})
        next_id += 2
        nodes[0].addprevious(dele)
        for n in nodes:
            for t in n.iter(W + "t"):
                t.tag = W + "delText"
            for t in n.iter(W + "instrText"):
                t.tag = W + "delInstrText"
            dele.append(n)
        run = OxmlElement("w:r")
        rpr = rr.last.find(W + "rPr")
        if rpr is not None:
            run.append(copy.deepcopy(rpr))
        t = OxmlElement("w:t")
        t.set(_XML_SPACE, "preserve")
        t.text = xml_safe(" ".join(str(f["model_language"]).split()))
        run.append(t)
        ins.append(run)
        dele.addnext(ins)
        comment = anchors.word.comments.add_comment(
            text=xml_safe(
                f"{fid} · {str(f.get('severity') or '').upper()} · proposed change: the playbook's "
                f"position is that this clause is unacceptable. {readable(f.get('claim'))}"
            ),
            author=author,
            initials="CG",
        )
        cid = str(comment.comment_id)
        dele.addprevious(OxmlElement("w:commentRangeStart", attrs={W + "id": cid}))
        end = OxmlElement("w:commentRangeEnd", attrs={W + "id": cid})
        ins.addnext(end)
        ref = OxmlElement("w:r")
        ref.append(OxmlElement("w:commentReference", attrs={W + "id": cid}))
        end.addnext(ref)
        changed.append(fid)
    return Redline(content=anchors.save(), changed=tuple(changed), skipped=tuple(skipped))
