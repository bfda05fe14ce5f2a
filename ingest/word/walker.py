"""The body walker: paragraphs, runs, tables, text boxes, fields and tracked changes read in body order
into one canonical text, with generated numbering labels."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ingest.document import Span
from ingest.fidelity import (
    docx_paragraph_properties,
)
from ingest.numbering import Counters, Numbering, W, style_chain
from ingest.word.package import (
    _HEADING_STYLE,
    _MARKS,
    _SEP_AFTER_BODY,
    _SKIP,
    MC,
    M,
    R,
)


@dataclass
class _Field:
    phase: str  # "instr" until w:fldChar separate, then "result"
    instr: list[str] = field(default_factory=list)
    result_start: int = 0


@dataclass
class _Para:
    """A body paragraph (outside tables and text boxes): what sections are made of."""

    start: int
    text_start: int
    end: int
    label: str | None
    ilvl: int
    heading_level: int | None
    bold_prefix: str


class _Walker:
    def __init__(self, *, view: str, numbering: Numbering) -> None:
        self.view = view
        self.numbering = numbering
        self.out: list[str] = []
        self.pos = 0
        self.sep: str | None = None
        self.generated: list[Span] = []
        self.regions: list[Span] = []
        self.toc: list[tuple[int, int]] = []
        self.paras: list[_Para] = []
        self.fields: list[_Field] = []
        self.counters = Counters(numbering)
        self.table_depth = 0
        self.boxes: list[Any] = []
        self.notes: dict[str, list[str]] = {"footnote": [], "endnote": []}
        self.sect_refs: list[tuple[str, str]] = []  # (header|footer, r:id) in order
        self.altchunks = 0
        self.bold: list[tuple[str, bool]] | None = None
        self._heading_cache: dict[str | None, int | None] = {}
        self._resolved: dict[Any, tuple[str, int] | None] = {}
        #: When a list: (start, end, element) for each run child that emitted text (`map_docx_body`).
        self.pieces: list[tuple[int, int, Any]] | None = None
        #: When a list: (offset, element) for each comment range mark met (`map_docx_body`).
        self.marks: list[tuple[int, Any]] | None = None

    # -- output ------------------------------------------------------------------------------------------

    def emit(self, s: str) -> None:
        if s:
            self.out.append(s)
            self.pos += len(s)

    def flush_sep(self) -> None:
        if self.sep is not None and self.pos > 0:
            self.emit(self.sep)
        self.sep = None

    def text(self) -> str:
        return "".join(self.out)

    def story(self, root: Any, kind: str) -> Span | None:
        """Append a story read after the body (a footnote, a header…) as its own region, or nothing."""
        mark_out, mark_pos = len(self.out), self.pos
        if self.pos:
            self.emit(_SEP_AFTER_BODY)
        self.sep = None
        start = self.pos
        self.fields, self.counters = [], Counters(self.numbering)
        self.blocks(root, flow=False)
        if not "".join(self.out[mark_out:]).strip():
            del self.out[mark_out:]
            self.pos = mark_pos
            self.generated = [g for g in self.generated if g.start < mark_pos]
            return None
        return Span(start=start, end=self.pos, kind=kind)

    def _live(self) -> bool:
        return not any(f.phase == "instr" for f in self.fields)

    # -- view ----------------------------------------------------------------------------------------------

    def _keeps(self, tag: str) -> bool | None:
        """For a tracked-change wrapper: True keep, False drop; None when `tag` is not one."""
        if tag in (W + "ins", W + "moveTo"):
            return self.view == "accepted"
        if tag in (W + "del", W + "moveFrom"):
            return self.view == "original"
        return None

    def _mark_removed(self, p: Any) -> bool:
        rpr = p.find(f"{W}pPr/{W}rPr")
        if rpr is None:
            return False
        names = ("ins", "moveTo") if self.view == "original" else ("del", "moveFrom")
        return any(rpr.find(W + n) is not None for n in names)

    # -- blocks ----------------------------------------------------------------------------------------------

    def blocks(self, children: Iterable[Any], *, flow: bool) -> None:
        group: list[Any] = []
        for el in children:
            tag = el.tag
            if tag == W + "p":
                group.append(el)
                if not self._mark_removed(el):
                    self.paragraph(group, flow=flow)
                    group = []
                continue
            if not isinstance(tag, str):
                continue
            if group:
                self.paragraph(group, flow=flow)
                group = []
            if tag == W + "tbl":
                self.table(el)
            elif tag == W + "sdt":
                content = el.find(W + "sdtContent")
                if content is not None:
                    self.blocks(content, flow=flow)
            elif tag == W + "customXml":
                self.blocks(el, flow=flow)
            elif (keep := self._keeps(tag)) is not None:
                if keep:
                    self.blocks(el, flow=flow)
            elif tag == MC + "AlternateContent":
                chosen = _choice(el)
                if chosen is not None:
                    self.blocks(chosen, flow=flow)
            elif tag == W + "altChunk":
                self.altchunks += 1
            elif tag == W + "sectPr":
                self._sect(el)
        if group:
            self.paragraph(group, flow=flow)

    def _sect(self, sect: Any) -> None:
        for ref in sect:
            kind = {W + "headerReference": "header", W + "footerReference": "footer"}.get(ref.tag)
            rid = ref.get(R + "id") if kind else None
            if kind and rid:
                self.sect_refs.append((kind, rid))

    def _resolve(self, num_pr: Any | None, style_id: str | None) -> tuple[str, int] | None:
        key = (
            None if num_pr is None else tuple((c.tag, c.get(W + "val")) for c in num_pr),
            style_id,
        )
        if key not in self._resolved:
            self._resolved[key] = self.numbering.resolve(num_pr, style_id)
        return self._resolved[key]

    def _heading_level(self, style_id: str | None, ppr: Any | None) -> int | None:
        if ppr is not None:
            ol = ppr.find(W + "outlineLvl")
            if ol is not None:
                v = ol.get(W + "val", "9")
                if v.isdigit() and int(v) < 9:
                    return int(v) + 1
        if style_id in self._heading_cache:
            return self._heading_cache[style_id]
        level: int | None = None
        for st in style_chain(self.numbering.styles, style_id):
            m = _HEADING_STYLE.match(st.name.strip()) or _HEADING_STYLE.match(st.id)
            if m:
                level = int(m.group(1))
                break
            if st.name.strip().lower() == "title":
                level = 1
                break
            if st.outline_level is not None and st.outline_level < 9:
                level = st.outline_level + 1
                break
        self._heading_cache[style_id] = level
        return level

    def paragraph(self, group: list[Any], *, flow: bool) -> None:
        ppr = docx_paragraph_properties(group[-1], self.view)
        style_id: str | None = None
        num_pr = None
        if ppr is not None:
            st = ppr.find(W + "pStyle")
            style_id = st.get(W + "val") if st is not None else None
            num_pr = ppr.find(W + "numPr")
        self.flush_sep()
        start = self.pos
        label_text: str | None = None
        ilvl = 0
        resolved = self._resolve(num_pr, style_id) if self.numbering.nums else None
        if resolved is not None:
            label = self.counters.advance(*resolved)
            ilvl = resolved[1]
            if label is not None:
                label_text = label.text
                self.generated.append(Span(start=self.pos, end=self.pos + len(label.text), kind="numbering"))
                self.emit(label.text)
                self.emit("\t")
        text_start = self.pos
        for p in group:
            sect = p.find(f"{W}pPr/{W}sectPr")
            if sect is not None:
                self._sect(sect)  # a section break: its headers and footers count too
        outer_boxes = self.boxes
        self.boxes = []
        self.bold = [] if flow else None
        for p in group:
            self.inline(p)
        end = self.pos
        if flow:
            self.paras.append(
                _Para(
                    start=start,
                    text_start=text_start,
                    end=end,
                    label=label_text,
                    ilvl=ilvl,
                    heading_level=self._heading_level(style_id, ppr),
                    bold_prefix=self._bold_prefix(),
                )
            )
        self.bold = None
        self.sep = "\n"
        boxes, self.boxes = self.boxes, outer_boxes
        for box in boxes:
            self.flush_sep()
            box_start = self.pos
            saved_fields, self.fields = self.fields, []
            self.blocks(box, flow=False)
            self.fields = saved_fields
            if self.pos > box_start:
                self.regions.append(Span(start=box_start, end=self.pos, kind="textbox"))
            self.sep = "\n"

    def _bold_prefix(self) -> str:
        """The text of the bold runs a paragraph starts with ("Confidentiality." in a run-in heading)."""
        prefix: list[str] = []
        for piece, is_bold in self.bold or ():
            if is_bold:
                prefix.append(piece)
            elif piece.strip():
                break
            else:
                prefix.append(piece)
        return "".join(prefix).strip() if any(b for _, b in self.bold or ()) else ""

    def table(self, tbl: Any) -> None:
        self.flush_sep()
        start = self.pos
        self.table_depth += 1
        first_row = True
        for tr in self._rows(tbl):
            if not first_row:
                self.sep = None
                self.emit("\n")
            first_row = False
            first_cell = True
            for tc in self._cells(tr):
                if not first_cell:
                    self.sep = None
                    self.emit("\t")
                first_cell = False
                self.sep = None
                self.blocks(tc, flow=False)
                self.sep = None
        self.table_depth -= 1
        if self.table_depth == 0 and self.pos > start:
            self.regions.append(Span(start=start, end=self.pos, kind="table"))
        self.sep = "\n"

    def _wrapped(self, el: Any, tag: str) -> Iterator[Any]:
        """Children `tag` of `el`, looking through content controls, custom XML and tracked wrappers."""
        for c in el:
            if c.tag == tag:
                yield c
            elif c.tag == W + "sdt":
                content = c.find(W + "sdtContent")
                if content is not None:
                    yield from self._wrapped(content, tag)
            elif c.tag == W + "customXml" or (isinstance(c.tag, str) and self._keeps(c.tag)):
                yield from self._wrapped(c, tag)

    def _rows(self, tbl: Any) -> Iterator[Any]:
        gone = W + ("ins" if self.view == "original" else "del")
        for tr in self._wrapped(tbl, W + "tr"):
            if tr.find(f"{W}trPr/{gone}") is None:
                yield tr

    def _cells(self, tr: Any) -> Iterator[Any]:
        gone = W + ("cellIns" if self.view == "original" else "cellDel")
        for tc in self._wrapped(tr, W + "tc"):
            if tc.find(f"{W}tcPr/{gone}") is None:
                yield tc

    # -- inline ----------------------------------------------------------------------------------------------

    def inline(self, el: Any) -> None:
        for c in el:
            tag = c.tag
            if not isinstance(tag, str) or tag in _SKIP:
                continue
            if tag in _MARKS:
                if self.marks is not None:
                    self.marks.append((self.pos, c))
            elif tag == W + "r":
                self.run(c)
            elif (keep := self._keeps(tag)) is not None:
                if keep:
                    self.inline(c)
            elif tag == W + "sdt":
                content = c.find(W + "sdtContent")
                if content is not None:
                    self.inline(content)
            elif tag == M + "t":
                if self._live():
                    self.emit(c.text or "")
            elif tag == MC + "AlternateContent":
                chosen = _choice(c)
                if chosen is not None:
                    self.inline(chosen)
            elif tag in (W + "tbl", W + "p"):
                continue  # not valid inside a paragraph
            else:
                # hyperlink, smartTag, customXml, fldSimple (its runs are the result), bdo, dir, math…
                self.inline(c)

    def run(self, r: Any) -> None:
        bold = self.bold is not None and _run_bold(r)
        mark = len(self.out)
        for c in r:
            tag = c.tag
            before = self.pos
            if tag == W + "t":
                if self._live():
                    self.emit(c.text or "")
            elif tag == W + "delText":
                if self.view == "original" and self._live():
                    self.emit(c.text or "")
            elif tag in (W + "tab", W + "ptab"):
                if self._live():
                    self.emit("\t")
            elif tag in (W + "br", W + "cr"):
                if self._live():
                    self.emit("\n")
            elif tag == W + "noBreakHyphen":
                if self._live():
                    self.emit("\u2011")
            elif tag == W + "softHyphen":
                if self._live():
                    self.emit("\u00ad")
            elif tag == W + "sym":
                if self._live():
                    self.emit(_symbol(c))
            elif tag == W + "fldChar":
                self._field_char(c)
            elif tag == W + "instrText":
                if self.fields and self.fields[-1].phase == "instr":
                    self.fields[-1].instr.append(c.text or "")
            elif tag in (W + "footnoteReference", W + "endnoteReference"):
                kind = "footnote" if tag == W + "footnoteReference" else "endnote"
                nid = c.get(W + "id")
                if nid is not None and self._live() and nid not in self.notes[kind]:
                    self.notes[kind].append(nid)
            elif tag in (W + "drawing", W + "pict", W + "object", MC + "AlternateContent"):
                self.boxes.extend(_text_boxes(c))
            if self.pieces is not None and self.pos > before:
                self.pieces.append((before, self.pos, c))
        if self.bold is not None and len(self.out) > mark:
            self.bold.append(("".join(self.out[mark:]), bold))

    def _field_char(self, c: Any) -> None:
        kind = c.get(W + "fldCharType")
        if kind == "begin":
            self.fields.append(_Field(phase="instr"))
        elif kind == "separate" and self.fields:
            f = self.fields[-1]
            f.phase = "result"
            f.result_start = self.pos
        elif kind == "end" and self.fields:
            f = self.fields.pop()
            if f.phase == "result" and "".join(f.instr).strip().upper().startswith("TOC"):
                self.toc.append((f.result_start, self.pos))


def _choice(alt: Any) -> Any | None:
    """The content of an mc:AlternateContent to read: its first Choice, else its Fallback."""
    choice = alt.find(MC + "Choice")
    return choice if choice is not None else alt.find(MC + "Fallback")


def _text_boxes(el: Any) -> Iterator[Any]:
    """Outermost w:txbxContent under `el`, reading one branch of each mc:AlternateContent."""
    if el.tag == W + "txbxContent":
        yield el
        return
    if el.tag == MC + "AlternateContent":
        chosen = _choice(el)
        if chosen is not None:
            yield from _text_boxes(chosen)
        return
    for c in el:
        if isinstance(c.tag, str):
            yield from _text_boxes(c)


def _on(el: Any) -> bool:
    return el is not None and el.get(W + "val") not in ("0", "false", "off")


def _run_bold(r: Any) -> bool:
    rpr = r.find(W + "rPr")
    return rpr is not None and (_on(rpr.find(W + "b")) or _on(rpr.find(W + "bCs")))


def _symbol(el: Any) -> str:
    """A w:sym as the character Word stores (symbol fonts use private-use code points F0xx: kept)."""
    try:
        return chr(int(el.get(W + "char") or "", 16))
    except ValueError:
        return ""


# --------------------------------------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------------------------------------
