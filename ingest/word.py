"""DOCX: one canonical text from the WordprocessingML package, walked in body order.

python-docx's `Paragraph.text` reads only the runs directly inside a paragraph, so tracked
insertions, content controls, fields, smart tags and tables vanish and numbering is never there. This
reader walks the XML itself. What the canonical text holds, in order:

1. The body. Paragraphs are separated by "\\n". A table is its rows, one per line, cells separated by "\\t"
   (paragraphs inside a cell are separated by "\\n"); a vertically merged cell is read once (the
   continuation cells hold no text of their own); nested tables are read in place.
   Automatic numbering labels ("1.", "11.2", "(a)", "ARTICLE V") are rendered at the start of their
   paragraph followed by one "\\t", and recorded as generated spans (kind "numbering") that slice
   exactly to the label. Bullets are not rendered. Text boxes are read once (the `mc:Choice`, never
   also the `mc:Fallback` copy) and placed after the paragraph that anchors them.
   Fields keep their result and drop their instruction; `w:tab` is "\\t", `w:br`/`w:cr` (also page and
   column breaks) are "\\n", `w:noBreakHyphen` is U+2011, `w:softHyphen` is U+00AD, `w:sym` is the
   character Word stores (symbol-font glyphs stay private-use code points: no normalization).
2. Footnotes, then endnotes, that the body references in the chosen view (each a region, kind
   "footnote"/"endnote", in `metadata["regions"]`).
3. Headers, then footers, of every section (furniture, kind "header"/"footer"), each part once.

Regions after the body are separated from it and from each other by a blank line. Sections are made
only from the body.

Tracked changes are read as one explicit view: "accepted" keeps `w:ins`/`w:moveTo` and drops
`w:del`/`w:moveFrom`; "original" does the reverse and reads `w:pPrChange` for paragraph properties. A
paragraph mark deleted in the view joins its paragraph to the next one, as Word shows it.

The package is opened defensively: a ZIP with too many parts or inflating past a limit is refused;
XML is parsed without DTDs, external entities or network access, and a part that declares a DOCTYPE
is refused.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

from lxml import etree

from ingest.document import Document, Section, Span
from ingest.errors import CorruptFileError, EncryptedFileError, UnsupportedFileError
from ingest.fidelity import (
    docx_count_numbered,
    docx_coverage_reason,
    docx_fidelity_reason,
    docx_paragraph_properties,
    docx_reference_text,
    docx_referenced_notes,
    docx_text_fidelity,
)
from ingest.numbering import Counters, Numbering, StyleInfo, W, parse_styles, style_chain
from ingest.sections import detect_sections

MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_REL_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_REL_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

#: A DOCX with more parts than this is refused (a real contract has tens, at most a few hundred).
MAX_MEMBERS = 10_000
#: The parts of a DOCX may declare at most this many inflated bytes in total (zip-bomb guard).
MAX_INFLATED_BYTES = 256 << 20
#: One XML part read may inflate to at most this many bytes.
MAX_PART_BYTES = 64 << 20

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_SEP_AFTER_BODY = "\n\n"

_HEADING_STYLE = re.compile(r"^heading\s*([1-9])$", re.I)
_DEFINES = re.compile(
    r"^\s*[\"“”'‘’]{1,2}[A-Z][^\"“”\n]{0,80}[\"“”'‘’]{1,2}\s*(?:\([^)]*\)\s*)?"
    r"(?:means|shall mean|has the meaning|have the meaning|refers to|includes|shall include)\b"
)
_TITLE_LEAD = re.compile(
    r"^([A-Z][\w'’&/-]*(?:\s+(?:[A-Z][\w'’&/-]*|of|and|or|to|the|for|in|on|by)){0,7})\.\s"
)

# Comment range marks: no text; recorded by `map_docx_body` so a comment's anchored words can be read.
_MARKS = frozenset((W + "commentRangeStart", W + "commentRangeEnd"))

# Elements whose content is never text of the document.
_SKIP = frozenset(
    W + n
    for n in (
        "pPr",
        "rPr",
        "sdtPr",
        "sdtEndPr",
        "customXmlPr",
        "smartTagPr",
        "instrText",
        "delInstrText",
        "fldData",
        "commentReference",
        "annotationRef",
        "footnoteRef",
        "endnoteRef",
        "separator",
        "continuationSeparator",
        "lastRenderedPageBreak",
        "proofErr",
        "bookmarkStart",
        "bookmarkEnd",
        "subDoc",
        "tblPr",
        "tblGrid",
        "trPr",
        "tcPr",
        "sectPr",
    )
)


# --------------------------------------------------------------------------------------------------------
# The package
# --------------------------------------------------------------------------------------------------------


def _ole_kind(data: bytes) -> str:
    """What an OLE compound file is: 'encrypted' (an encrypted OOXML package), 'doc', or 'other'."""
    if "EncryptedPackage".encode("utf-16-le") in data or "EncryptionInfo".encode("utf-16-le") in data:
        return "encrypted"
    if "WordDocument".encode("utf-16-le") in data:
        return "doc"
    return "other"


class _Package:
    """A DOCX package opened with limits; parts are read and parsed on demand."""

    def __init__(self, name: str, data: bytes) -> None:
        self.name = name
        if data.startswith(_OLE_MAGIC):
            kind = _ole_kind(data)
            if kind == "encrypted":
                raise EncryptedFileError(
                    f"{name}: the document is password-protected (an encrypted Office file); "
                    "remove the password in Word and save it again"
                )
            if kind == "doc":
                raise UnsupportedFileError(
                    f"{name}: this is a legacy Word 97-2003 .doc file named .docx "
                    "(expected a .docx package); open it in Word and save it as .docx"
                )
            raise CorruptFileError(f"{name}: an OLE compound file, not a DOCX package (expected a ZIP)")
        if data.startswith(b"%PDF"):
            raise CorruptFileError(f"{name}: this is a PDF named .docx (expected a DOCX package); rename it")
        if not data.startswith(b"PK"):
            raise CorruptFileError(
                f"{name}: not a DOCX package (expected a ZIP-based Word file; it does not start with a "
                "ZIP header)"
            )
        try:
            self.zip = zipfile.ZipFile(BytesIO(data))
            infos = self.zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
            raise CorruptFileError(
                f"{name}: the DOCX package is truncated or corrupt (its ZIP directory cannot be read)"
            ) from None
        if len(infos) > MAX_MEMBERS:
            raise CorruptFileError(
                f"{name}: the DOCX package has {len(infos)} parts (limit {MAX_MEMBERS}); "
                "refused as a possible zip bomb"
            )
        inflated = sum(i.file_size for i in infos)
        if inflated > MAX_INFLATED_BYTES:
            raise CorruptFileError(
                f"{name}: the DOCX package inflates to {inflated} bytes (limit {MAX_INFLATED_BYTES}); "
                "refused as a possible zip bomb"
            )
        self.infos = {i.filename: i for i in infos}
        self._cache: dict[str, Any] = {}

    def has(self, part: str) -> bool:
        return part in self.infos

    def read(self, part: str) -> bytes:
        info = self.infos[part]
        if info.file_size > MAX_PART_BYTES:
            raise CorruptFileError(
                f"{self.name}: {part} inflates to {info.file_size} bytes (limit {MAX_PART_BYTES}); "
                "refused as a possible zip bomb"
            )
        try:
            with self.zip.open(info) as fh:
                data = fh.read(MAX_PART_BYTES + 1)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError) as exc:
            if "encrypt" in str(exc).lower() or "password" in str(exc).lower():
                raise EncryptedFileError(
                    f"{self.name}: the DOCX package is password-protected (ZIP encryption)"
                ) from None
            raise CorruptFileError(
                f"{self.name}: the DOCX package is corrupt ({part} cannot be inflated: {exc})"
            ) from None
        if len(data) > MAX_PART_BYTES:
            raise CorruptFileError(
                f"{self.name}: {part} inflates past {MAX_PART_BYTES} bytes; refused as a possible zip bomb"
            )
        return data

    def xml(self, part: str) -> Any | None:
        """The parsed root of `part`, or None when the package has no such part."""
        if part in self._cache:
            return self._cache[part]
        if not self.has(part):
            return None
        root = parse_xml(self.name, part, self.read(part))
        self._cache[part] = root
        return root

    def rels(self, part: str) -> dict[str, tuple[str, str]]:
        """Relationships of `part`: id -> (type suffix, target part name) for internal targets."""
        folder, base = posixpath.split(part)
        root = self.xml(posixpath.join(folder, "_rels", base + ".rels"))
        out: dict[str, tuple[str, str]] = {}
        if root is None:
            return out
        for rel in root.iter(_REL_NS + "Relationship"):
            if rel.get("TargetMode") == "External":
                continue
            rid, rtype, target = rel.get("Id"), rel.get("Type", ""), rel.get("Target", "")
            if not rid or not target:
                continue
            if target.startswith("/"):
                resolved = target.lstrip("/")
            else:
                resolved = posixpath.normpath(posixpath.join(folder, target))
            out[rid] = (rtype.rsplit("/", 1)[-1], resolved)
        return out


def parse_xml(name: str, part: str, data: bytes) -> Any:
    """Parse one package part safely: no DTD, no entities resolved, no network; a DOCTYPE is refused."""
    probe = data
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        probe = data.decode("utf-16", errors="replace").encode("utf-8")
    # Markup, not text: "<!" can only appear in a part as a declaration (text has "&lt;!").
    if b"<!DOCTYPE" in probe or b"<!ENTITY" in probe:
        raise CorruptFileError(
            f"{name}: {part} declares a DOCTYPE or entities (refused: a DOCX part never needs one, and "
            "external entities are never resolved)"
        )
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        remove_comments=True,
        remove_pis=True,
        huge_tree=False,
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise CorruptFileError(f"{name}: {part} is not well-formed XML ({exc})") from None
    if root is None:
        raise CorruptFileError(f"{name}: {part} is empty (expected XML)")
    docinfo = root.getroottree().docinfo
    if docinfo.doctype or docinfo.internalDTD is not None:
        raise CorruptFileError(
            f"{name}: {part} declares a DOCTYPE (refused: a DOCX part never needs one, and external "
            "entities are never resolved)"
        )
    return root


def _main_part(pkg: _Package) -> str:
    root = pkg.xml("_rels/.rels")
    if root is not None:
        for rel in root.iter(_REL_NS + "Relationship"):
            if rel.get("Type", "").endswith("/officeDocument") and rel.get("TargetMode") != "External":
                target = str(rel.get("Target", "")).lstrip("/")
                if pkg.has(target):
                    return target
    if pkg.has("word/document.xml"):
        return "word/document.xml"
    raise CorruptFileError(
        f"{pkg.name}: not a Word document (the package has no word/document.xml; expected a .docx)"
    )


# --------------------------------------------------------------------------------------------------------
# The walker
# --------------------------------------------------------------------------------------------------------


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


def _heading_for(text: str, p: _Para) -> str:
    body = text[p.text_start : p.end].strip()
    if not body:
        return ""
    first_line = body.split("\n", 1)[0].strip()
    words = first_line.split()
    if p.heading_level is not None:
        return first_line[:200].rstrip(" .:")
    if p.bold_prefix and len(p.bold_prefix.split()) <= 12:
        return p.bold_prefix.split("\n", 1)[0].strip().rstrip(" .:;—–-")
    if (
        len(words) <= 12
        and not re.search(r"[.;:,]\s", first_line)
        and not first_line.endswith((";", ",", ".", ":"))
    ):
        return first_line
    m = _TITLE_LEAD.match(first_line + " ")
    if m and len(m.group(1)) >= len(first_line) - 1:
        return m.group(1)  # "Confidentiality." alone on its line
    m = _TITLE_LEAD.match(first_line)
    if m:
        return m.group(1)
    return ""


def _kind_for(label: str, text: str) -> str:
    low = label.lower()
    if low.startswith("article"):
        return "article"
    if low.startswith(("schedule", "annex", "appendix")):
        return "schedule"
    if low.startswith(("exhibit", "attachment")):
        return "exhibit"
    if _DEFINES.match(text):
        return "definition"
    return "clause"


def _build_sections(
    text: str, body_end: int, paras: list[_Para], tables: list[tuple[int, int]], toc: list[tuple[int, int]]
) -> tuple[list[Section], list[str]]:
    found: list[tuple[Section, int]] = []  # section, order key
    hidden: list[tuple[int, int]] = []  # ranges the detector must not see: numbered paragraphs, tables
    for p in paras:
        if p.label is None and p.heading_level is None:
            continue
        body = text[p.text_start : min(p.end, p.text_start + 400)]
        if p.label is not None:
            label = p.label.strip().rstrip(".").strip()
            sec = Section(
                label=label,
                heading=_heading_for(text, p),
                level=p.ilvl + 1,
                kind=_kind_for(label, body),
                start=p.start,
                end=p.end,
                generated=True,
            )
        else:
            if not text[p.text_start : p.end].strip():
                continue
            sec = Section(
                label="",
                heading=_heading_for(text, p),
                level=p.heading_level or 1,
                kind="heading",
                start=p.start,
                end=p.end,
            )
        found.append((sec, p.start))
        hidden.append((p.start, p.end))
    skip = sorted(tables + toc)
    hidden.extend((a, min(b, body_end)) for a, b in skip)
    # Blank out what is already a section (or a table) with spaces, keeping line breaks and offsets.
    pieces: list[str] = []
    pos = 0
    for a, b in sorted(hidden):
        if a < pos:
            a = pos
        if b <= a:
            continue
        pieces.append(text[pos:a])
        pieces.append("\n".join(" " * len(line) for line in text[a:b].split("\n")))
        pos = b
    pieces.append(text[pos:body_end])
    scan = detect_sections("".join(pieces), skip=skip)
    for s in scan.sections:
        heading = s.heading
        found.append(
            (
                Section(label=s.label, heading=heading, level=s.level, kind=s.kind, start=s.start, end=s.end),
                s.start,
            )
        )
    found.sort(key=lambda t: t[1])
    sections: list[Section] = []
    for i, (s, _) in enumerate(found):
        end = body_end
        for s2, _ in found[i + 1 :]:
            if s2.level <= s.level:
                end = s2.start
                break
        while end > s.start and text[end - 1].isspace():
            end -= 1
        sections.append(
            Section(
                label=s.label,
                heading=s.heading,
                level=s.level,
                kind=s.kind,
                start=s.start,
                end=end,
                generated=s.generated,
            )
        )
    return sections, scan.gaps


# --------------------------------------------------------------------------------------------------------
# load_docx
# --------------------------------------------------------------------------------------------------------


def _count_revisions(root: Any) -> int:
    tags = {W + "ins", W + "del", W + "moveFrom", W + "moveTo"}
    return sum(1 for el in root.iter() if el.tag in tags)


def _first_part(pkg: _Package, rels: dict[str, tuple[str, str]], rtype: str) -> Any | None:
    """The parsed first part of relationship type `rtype` that the package holds, or None."""
    for kind, target in rels.values():
        if kind == rtype and pkg.has(target):
            return pkg.xml(target)
    return None


def _numbering(pkg: _Package, rels: dict[str, tuple[str, str]]) -> Numbering:
    styles: dict[str, StyleInfo] = parse_styles(_first_part(pkg, rels, "styles"))
    return Numbering.parse(_first_part(pkg, rels, "numbering"), styles)


@dataclass(frozen=True, slots=True, kw_only=True)
class BodyMap:
    """Where each character of a DOCX body's canonical text came from, for writing into the same tree.

    `text` is the body's canonical text (`load_docx(...).text[:metadata["body_end"]]`); `pieces` are
    `(start, end, element)` for every run child (`w:t`, `w:tab`, `w:br`…) that produced text, in text
    order; what lies between pieces (paragraph and cell separators, numbering labels) was generated.
    `marks` are `(offset, element)` for each `w:commentRangeStart`/`w:commentRangeEnd` met.
    """

    text: str
    pieces: tuple[tuple[int, int, Any], ...]
    marks: tuple[tuple[int, Any], ...]
    generated: tuple[Span, ...]


def map_docx_body(name: str, data: bytes, body: Any, *, view: str = "accepted") -> BodyMap:
    """Walk `body`, a `w:body` element of a tree the caller holds, exactly as `load_docx` walks its own.

    `data` is the package the tree was read from (its styles and numbering render the labels). The
    caller may then split runs or add marks in its tree at the offsets it knows from the Document.
    """
    if view not in ("accepted", "original"):
        raise UnsupportedFileError(f"{name}: unknown view '{view}' (expected accepted or original)")
    pkg = _Package(name, data)
    walker = _Walker(view=view, numbering=_numbering(pkg, pkg.rels(_main_part(pkg))))
    walker.pieces, walker.marks = [], []
    walker.blocks(body, flow=True)
    return BodyMap(
        text=walker.text(),
        pieces=tuple(walker.pieces),
        marks=tuple(walker.marks),
        generated=tuple(walker.generated),
    )


def load_docx(path: Path, data: bytes, *, view: str = "accepted") -> Document:
    """Read a DOCX file's bytes into a Document in the chosen tracked-change view."""
    if view not in ("accepted", "original"):
        raise UnsupportedFileError(f"{path.name}: unknown view '{view}' (expected accepted or original)")
    pkg = _Package(path.name, data)
    main = _main_part(pkg)
    doc_root = pkg.xml(main)
    body = doc_root.find(W + "body") if doc_root is not None else None
    if doc_root is None or body is None:
        raise CorruptFileError(f"{path.name}: {main} has no w:body (expected a Word document body)")
    rels = pkg.rels(main)

    def first(rtype: str) -> Any | None:
        return _first_part(pkg, rels, rtype)

    numbering = _numbering(pkg, rels)
    walker = _Walker(view=view, numbering=numbering)
    walker.blocks(body, flow=True)
    body_end = walker.pos
    regions: list[Span] = []  # notes; tables and text boxes (also those inside notes) are added below
    furniture: list[Span] = []
    stories: list[Any] = [body]

    # Footnotes and endnotes the body refers to in this view, in order of first reference.
    for kind in ("footnote", "endnote"):
        root = first(kind + "s")
        if root is None or not walker.notes[kind]:
            continue
        notes = {n.get(W + "id"): n for n in root.iter(W + kind)}
        ref_ids = docx_referenced_notes(doc_root, kind, view=view)
        for nid in walker.notes[kind]:
            note = notes.get(nid)
            if note is None or note.get(W + "type") not in (None, "normal"):
                continue
            if nid in ref_ids:
                stories.append(note)
            span = walker.story(note, kind)
            if span is not None:
                regions.append(span)

    # Headers and footers of every section, each part once: furniture, outside the clause flow.
    seen: set[str] = set()
    for kind in ("header", "footer"):
        for ref_kind, rid in walker.sect_refs:
            if ref_kind != kind or rid not in rels:
                continue
            target = rels[rid][1]
            if target in seen or not pkg.has(target):
                continue
            seen.add(target)
            root = pkg.xml(target)
            if root is None:
                continue
            stories.append(root)
            span = walker.story(root, kind)
            if span is not None:
                furniture.append(span)

    text = walker.text()
    tables = [(s.start, s.end) for s in walker.regions if s.kind == "table" and s.end <= body_end]
    sections, gaps = _build_sections(text, body_end, walker.paras, tables, walker.toc)
    regions.extend(walker.regions)
    regions.extend(Span(start=a, end=b, kind="toc") for a, b in walker.toc)

    reasons: list[str] = []
    notes_out: list[str] = list(gaps)
    reference = docx_reference_text(stories, view=view)
    fidelity = docx_text_fidelity(text, walker.generated, reference)
    if reason := docx_fidelity_reason(fidelity):
        reasons.append(reason)
    expected = docx_count_numbered(doc_root, numbering, view=view)
    if reason := docx_coverage_reason(sections, expected):
        reasons.append(reason)
    if walker.altchunks:
        reasons.append(
            f"the document embeds {walker.altchunks} foreign part(s) (w:altChunk) whose text is not read; "
            "open it in Word and save it again"
        )
    revisions = _count_revisions(doc_root)
    if revisions:
        notes_out.append(f"tracked changes: {revisions} revision marks, read in the {view} view")
    return Document(
        name=path.name,
        file_type="docx",
        text=text,
        source_sha256=hashlib.sha256(data).hexdigest(),
        view=view,
        sections=tuple(sections),
        fidelity=fidelity,
        status="withheld" if reasons else "ready",
        reasons=tuple(reasons),
        notes=tuple(notes_out),
        generated=tuple(walker.generated),
        furniture=tuple(furniture),
        sections_expected=expected,
        metadata={
            "body_end": body_end,
            "regions": [s.to_dict() for s in sorted(regions, key=lambda s: s.start)],
            "tracked_changes": revisions,
        },
    )
