"""A proposed redline: a copy of the DOCX with the playbook's model language as tracked changes.

For each `unacceptable` finding whose rule has model language, the cited clause — the verified citation
that holds most of the values the finding was decided on — becomes a tracked deletion (`w:del`, its
`w:t` turned into `w:delText`) followed by a tracked insertion (`w:ins`) of the model language, both
authored by the playbook and dated, with a comment explaining the position. Nothing else changes: the
`original` view of the copy is the input's original view, and an existing tracked change is never touched
(a clause that already carries one is left alone and reported).

A clause over several paragraphs is deleted paragraph by paragraph, the marks between them tracked as
deleted so the accepted view joins them, and the joined paragraph keeps the first one's properties (its
clause number) by a tracked property change (`w:pPrChange`) on the last. A clause that crosses a table,
a section break, a hyperlink or a field is reported as not redlined.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from docx.oxml import OxmlElement
from lxml import etree

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


def _paragraphs(rr: RunRange) -> list[tuple[Any, list[Any]]] | str:
    """Each paragraph the clause touches, in order, with its nodes to delete; or why it cannot be done.

    The paragraphs must be consecutive siblings (no table in between) and each run a direct child of its
    paragraph (no hyperlink, field or existing tracked change inside the clause).
    """
    first_p, last_p = rr.first.getparent(), rr.last.getparent()
    if any(anc.tag in _TRACKED for r in rr.runs for anc in r.iterancestors()):
        return "the clause already carries a tracked change"
    if any(r.getparent().tag != W + "p" for r in rr.runs):
        return "the clause holds a field, hyperlink or tracked change"
    paras = [first_p]
    while paras[-1] is not last_p:
        nxt = paras[-1].getnext()
        if nxt is None or nxt.tag != W + "p":
            return "the clause crosses a table or a section break"
        paras.append(nxt)
    out: list[tuple[Any, list[Any]]] = []
    for i, para in enumerate(paras):
        kids = [k for k in para if k.tag != W + "pPr"]
        lo = kids.index(rr.first) if i == 0 else 0
        hi = kids.index(rr.last) + 1 if para is last_p else len(kids)
        nodes = kids[lo:hi]
        for n in nodes:
            if n.tag not in _MAY_DELETE or any(d.tag in _TRACKED or d.tag == W + "fldChar" for d in n.iter()):
                return "the clause holds a field, hyperlink or tracked change"
        out.append((para, nodes))
    if len(paras) > 1 and any(p.find(f"{W}pPr/{W}sectPr") is not None for p in paras[:-1]):
        return "the clause crosses a section break"
    return out


def _ppr(para: Any) -> Any:
    ppr = para.find(W + "pPr")
    if ppr is None:
        ppr = OxmlElement("w:pPr")
        para.insert(0, ppr)
    return ppr


def _delete_mark(para: Any, attrs: dict[str, str]) -> None:
    """Track the deletion of a paragraph's mark (`w:pPr/w:rPr/w:del`): it joins the next paragraph."""
    ppr = _ppr(para)
    rpr = ppr.find(W + "rPr")
    if rpr is None:
        rpr = OxmlElement("w:rPr")
        later = [c for c in ppr if c.tag in (W + "sectPr", W + "pPrChange")]
        if later:
            later[0].addprevious(rpr)
        else:
            ppr.append(rpr)
    ins = rpr.find(W + "ins")
    mark = OxmlElement("w:del", attrs=attrs)
    if ins is not None:
        ins.addnext(mark)
    else:
        rpr.insert(0, mark)


def _keep_first_properties(first: Any, last: Any, attrs: dict[str, str]) -> None:
    """The joined paragraph keeps the first one's properties (its numbering): a tracked property change
    on the last paragraph, whose original properties go into `w:pPrChange`."""
    own = ("rPr", "sectPr", "pPrChange")
    src, dst = _ppr(first), _ppr(last)
    wanted = [copy.deepcopy(c) for c in src if c.tag not in {W + n for n in own}]
    before = [c for c in dst if c.tag not in {W + n for n in own}]
    if [etree.tostring(c) for c in wanted] == [etree.tostring(c) for c in before]:
        return
    change = OxmlElement("w:pPrChange", attrs=attrs)
    old = OxmlElement("w:pPr")
    for c in before:
        old.append(c)  # moves it out of dst
    change.append(old)
    for i, c in enumerate(wanted):
        dst.insert(i, c)
    dst.append(change)


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
        paras = _paragraphs(rr) if rr is not None else "the clause is not in the document body"
        if isinstance(paras, str):
            skipped.append(f"{fid}: {paras}")
            continue
        assert rr is not None

        def attrs() -> dict[str, str]:
            nonlocal next_id
            next_id += 1
            return {W + "id": str(next_id - 1), W + "author": author, W + "date": date}

        dels = []
        for _para, nodes in paras:
            if not nodes:
                continue
            dele = OxmlElement("w:del", attrs=attrs())
            nodes[0].addprevious(dele)
            for n in nodes:
                for t in n.iter(W + "t"):
                    t.tag = W + "delText"
                for t in n.iter(W + "instrText"):
                    t.tag = W + "delInstrText"
                dele.append(n)
            dels.append(dele)
        for para, _nodes in paras[:-1]:
            _delete_mark(para, attrs())
        if len(paras) > 1:
            _keep_first_properties(paras[0][0], paras[-1][0], attrs())
        ins = OxmlElement("w:ins", attrs=attrs())
        run = OxmlElement("w:r")
        rpr = rr.last.find(W + "rPr")
        if rpr is not None:
            run.append(copy.deepcopy(rpr))
        t = OxmlElement("w:t")
        t.set(_XML_SPACE, "preserve")
        t.text = xml_safe(" ".join(str(f["model_language"]).split()))
        run.append(t)
        ins.append(run)
        dels[-1].addnext(ins)
        dele = dels[0]
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
