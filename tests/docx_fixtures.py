"""Real DOCX files for tests and benchmarks: python-docx makes the package, raw XML fills in the rest.

python-docx has no API for numbering definitions, tracked changes, content controls, fields, text
boxes or footnotes, so `build_docx` starts from python-docx's own package and rewrites
`word/document.xml` (and adds or replaces numbering, styles, footnotes, endnotes, headers and footers)
with zipfile and lxml, registering each part's relationship and content type as Word does.
"""

from __future__ import annotations

import functools
import io
import struct
import zipfile
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

import docx
from lxml import etree

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
NSDECL = (
    f'xmlns:w="{W_NS}" xmlns:r="{R_NS}" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:v="urn:schemas-microsoft-com:vml" '
    'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" '
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" mc:Ignorable="w14"'
)
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_CT = "http://schemas.openxmlformats.org/package/2006/content-types"
_WML = "application/vnd.openxmlformats-officedocument.wordprocessingml."
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


# ---- small XML builders -----------------------------------------------------------------------------------


def t(text: str) -> str:
    return f'<w:t xml:space="preserve">{escape(text)}</w:t>'


def r(text: str, *, bold: bool = False) -> str:
    rpr = "<w:rPr><w:b/></w:rPr>" if bold else ""
    return f"<w:r>{rpr}{t(text)}</w:r>"


def p(
    *content: str,
    num: tuple[int, int] | None = None,
    style: str | None = None,
    mark: str = "",
    ppr_extra: str = "",
) -> str:
    """A paragraph; plain strings become runs, strings starting with '<' are raw XML.

    `num` = (numId, ilvl); `mark` = "ins" or "del" tracks the paragraph mark itself.
    """
    ppr = ""
    if style:
        ppr += f'<w:pStyle w:val="{style}"/>'
    if num is not None:
        ppr += f'<w:numPr><w:ilvl w:val="{num[1]}"/><w:numId w:val="{num[0]}"/></w:numPr>'
    ppr += ppr_extra
    if mark:
        ppr += f'<w:rPr><w:{mark} w:id="9{len(content)}" w:author="A" w:date="2024-01-01T00:00:00Z"/></w:rPr>'
    body = "".join(c if c.startswith("<") else r(c) for c in content)
    return f"<w:p>{f'<w:pPr>{ppr}</w:pPr>' if ppr else ''}{body}</w:p>"


_rev = [100]


def ins(text: str, tag: str = "ins") -> str:
    _rev[0] += 1
    return f'<w:{tag} w:id="{_rev[0]}" w:author="Counsel" w:date="2024-03-01T00:00:00Z">{r(text)}</w:{tag}>'


def dele(text: str, tag: str = "del") -> str:
    _rev[0] += 1
    inner = f'<w:r><w:delText xml:space="preserve">{escape(text)}</w:delText></w:r>'
    if tag == "moveFrom":
        inner = r(text)
    return f'<w:{tag} w:id="{_rev[0]}" w:author="Counsel" w:date="2024-03-01T00:00:00Z">{inner}</w:{tag}>'


def lvl(
    ilvl: int,
    fmt: str,
    text: str,
    *,
    start: int = 1,
    restart: int | None = None,
    is_lgl: bool = False,
    pstyle: str | None = None,
) -> str:
    extra = f'<w:lvlRestart w:val="{restart}"/>' if restart is not None else ""
    extra += f'<w:pStyle w:val="{pstyle}"/>' if pstyle else ""
    extra += "<w:isLgl/>" if is_lgl else ""
    return (
        f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>{extra}'
        f'<w:lvlText w:val="{escape(text)}"/><w:lvlJc w:val="left"/></w:lvl>'
    )


def abstract_num(aid: int, *levels: str) -> str:
    return f'<w:abstractNum w:abstractNumId="{aid}">{"".join(levels)}</w:abstractNum>'


def num(nid: int, aid: int, *, start_overrides: dict[int, int] | None = None) -> str:
    ov = "".join(
        f'<w:lvlOverride w:ilvl="{i}"><w:startOverride w:val="{v}"/></w:lvlOverride>'
        for i, v in (start_overrides or {}).items()
    )
    return f'<w:num w:numId="{nid}"><w:abstractNumId w:val="{aid}"/>{ov}</w:num>'


def numbering_xml(*items: str) -> str:
    """abstractNum elements must precede num elements (the schema's order)."""
    abstracts = [i for i in items if i.startswith("<w:abstractNum")]
    nums = [i for i in items if i.startswith("<w:num ")]
    return f"<w:numbering {NSDECL}>{''.join(abstracts)}{''.join(nums)}</w:numbering>"


def paragraph_style(sid: str, name: str, *, based_on: str | None = None, num_id: int | None = None) -> str:
    b = f'<w:basedOn w:val="{based_on}"/>' if based_on else ""
    n = f'<w:pPr><w:numPr><w:numId w:val="{num_id}"/></w:numPr></w:pPr>' if num_id is not None else ""
    return f'<w:style w:type="paragraph" w:styleId="{sid}"><w:name w:val="{name}"/>{b}{n}</w:style>'


def table(rows: Sequence[Sequence[str]]) -> str:
    """A table; each cell is a `cell(...)` (raw `<w:tc>`) or plain text (one paragraph)."""
    body = "".join(
        "<w:tr>" + "".join(c if c.startswith("<w:tc") else cell(c) for c in row) + "</w:tr>" for row in rows
    )
    return f"<w:tbl><w:tblPr/><w:tblGrid/>{body}</w:tbl>"


def cell(content: str, *, vmerge: str | None = None, span: int = 1) -> str:
    tcpr = ""
    if span > 1:
        tcpr += f'<w:gridSpan w:val="{span}"/>'
    if vmerge == "restart":
        tcpr += '<w:vMerge w:val="restart"/>'
    elif vmerge == "continue":
        tcpr += "<w:vMerge/>"
    inner = content if content.startswith("<") else p(content) if content else "<w:p/>"
    return f"<w:tc><w:tcPr>{tcpr}</w:tcPr>{inner}</w:tc>"


# ---- packages --------------------------------------------------------------------------------------------


def document_xml(body: str, sect: str = "") -> str:
    return f"<w:document {NSDECL}><w:body>{body}<w:sectPr>{sect}</w:sectPr></w:body></w:document>"


def _story(tag: str, blocks: str) -> str:
    return f"<w:{tag} {NSDECL}>{blocks}</w:{tag}>"


def _notes(kind: str, notes: dict[int, str]) -> str:
    sep = (
        f'<w:{kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}>'
        f'<w:{kind} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r>'
        f"</w:p></w:{kind}>"
    )
    body = "".join(
        f'<w:{kind} w:id="{i}"><w:p><w:r><w:{kind}Ref/></w:r>{r(" " + text)}</w:p></w:{kind}>'
        for i, text in notes.items()
    )
    return f"<w:{kind}s {NSDECL}>{sep}{body}</w:{kind}s>"


@functools.cache
def _base_parts() -> dict[str, bytes]:
    """python-docx's own default package, made once per process."""
    base = io.BytesIO()
    docx.Document().save(base)
    with zipfile.ZipFile(base) as src:
        return {n: src.read(n) for n in src.namelist()}


def build_docx(
    path: Path,
    body: str,
    *,
    numbering: str | None = None,
    styles: Sequence[str] = (),
    footnotes: dict[int, str] | None = None,
    endnotes: dict[int, str] | None = None,
    headers: Sequence[str] = (),
    footers: Sequence[str] = (),
    document: str | None = None,
    sect_refs: bool = True,
) -> Path:
    """Write a DOCX whose body is `body` (raw w:body content) into `path`; returns `path`."""
    parts = dict(_base_parts())
    ct = etree.fromstring(parts["[Content_Types].xml"])
    rels = etree.fromstring(parts["word/_rels/document.xml.rels"])

    def add(part: str, xml: str, ctype: str, rtype: str, rid: str) -> None:
        parts[part] = xml.encode("utf-8")
        name = "/" + part
        for o in ct.findall(f"{{{_CT}}}Override"):
            if o.get("PartName") == name:
                ct.remove(o)
        etree.SubElement(ct, f"{{{_CT}}}Override", PartName=name, ContentType=ctype)
        for rel in rels.findall(f"{{{_PKG_REL}}}Relationship"):
            if rel.get("Target") == part.split("/", 1)[1]:
                rels.remove(rel)
        etree.SubElement(
            rels, f"{{{_PKG_REL}}}Relationship", Id=rid, Type=_REL + rtype, Target=part.split("/", 1)[1]
        )

    if numbering is not None:
        add("word/numbering.xml", numbering, _WML + "numbering+xml", "numbering", "rIdNum")
    if styles:
        st = etree.fromstring(parts["word/styles.xml"])
        for s in styles:
            st.append(etree.fromstring(s.replace("<w:style ", f'<w:style xmlns:w="{W_NS}" ', 1)))
        parts["word/styles.xml"] = etree.tostring(st, xml_declaration=True, encoding="UTF-8", standalone=True)
    if footnotes:
        add("word/footnotes.xml", _notes("footnote", footnotes), _WML + "footnotes+xml", "footnotes", "rIdFn")
    if endnotes:
        add("word/endnotes.xml", _notes("endnote", endnotes), _WML + "endnotes+xml", "endnotes", "rIdEn")
    sect = ""
    for i, h in enumerate(headers):
        add(f"word/header{i + 1}.xml", _story("hdr", h), _WML + "header+xml", "header", f"rIdH{i}")
        kind = ("default", "first", "even")[i % 3]
        sect += f'<w:headerReference w:type="{kind}" r:id="rIdH{i}"/>'
    for i, f in enumerate(footers):
        add(f"word/footer{i + 1}.xml", _story("ftr", f), _WML + "footer+xml", "footer", f"rIdF{i}")
        kind = ("default", "first", "even")[i % 3]
        sect += f'<w:footerReference w:type="{kind}" r:id="rIdF{i}"/>'
    if not sect_refs:
        sect = ""  # the caller places w:headerReference r:id="rIdH<i>" / rIdF<i> itself
    parts["word/document.xml"] = (document or document_xml(body, sect)).encode("utf-8")
    parts["[Content_Types].xml"] = etree.tostring(ct, xml_declaration=True, encoding="UTF-8", standalone=True)
    parts["word/_rels/document.xml.rels"] = etree.tostring(
        rels, xml_declaration=True, encoding="UTF-8", standalone=True
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in parts.items():
            out.writestr(name, data)
    return path


def replace_part(path: Path, part: str, data: bytes) -> Path:
    """Rewrite one part of an existing package (for corrupt or hostile variants)."""
    with zipfile.ZipFile(path) as src:
        parts = {n: src.read(n) for n in src.namelist()}
    parts[part] = data
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, content in parts.items():
            out.writestr(name, content)
    return path


def compound_file(streams: dict[str, bytes]) -> bytes:
    """A minimal OLE compound file (what Word 97-2003 .doc and encrypted Office files are).

    Version 3, 512-byte sectors; every stream is padded to at least 4096 bytes so it lives in
    regular sectors (no mini stream). Readable by olefile; enough for format detection.
    """
    sector = 512
    names = list(streams)
    datas = [streams[n].ljust(4096, b"\0") for n in names]
    data_sectors = [(len(d) + sector - 1) // sector for d in datas]
    n_dir = (len(names) + 1 + 3) // 4
    n_data = sum(data_sectors)
    n_fat = 1
    while (n_fat + n_dir + n_data) > n_fat * 128:
        n_fat += 1
    fat = [0xFFFFFFFD] * n_fat  # FAT sectors
    dir_start = len(fat)
    for i in range(n_dir):
        fat.append(dir_start + i + 1 if i < n_dir - 1 else 0xFFFFFFFE)
    starts = []
    for count in data_sectors:
        first = len(fat)
        starts.append(first)
        for i in range(count):
            fat.append(first + i + 1 if i < count - 1 else 0xFFFFFFFE)
    fat += [0xFFFFFFFF] * (n_fat * 128 - len(fat))

    def entry(
        name: str, kind: int, start: int, size: int, child: int = 0xFFFFFFFF, right: int = 0xFFFFFFFF
    ) -> bytes:
        raw = name.encode("utf-16-le") + b"\0\0"
        return (
            raw.ljust(64, b"\0")
            + struct.pack("<HBB", len(raw), kind, 1)
            + struct.pack("<III", 0xFFFFFFFF, right, child)
            + b"\0" * 16
            + b"\0" * 4
            + b"\0" * 16
            + struct.pack("<IIi", start, size, 0)
        )

    entries = [entry("Root Entry", 5, 0xFFFFFFFE, 0, child=1)]
    for i, (name, d) in enumerate(zip(names, datas, strict=True)):
        right = i + 2 if i + 1 < len(names) else 0xFFFFFFFF
        entries.append(entry(name, 2, starts[i], len(d), right=right))
    directory = b"".join(entries).ljust(n_dir * sector, b"\0")
    difat = list(range(n_fat)) + [0xFFFFFFFF] * (109 - n_fat)
    header = (
        bytes.fromhex("d0cf11e0a1b11ae1")
        + b"\0" * 16
        + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
        + b"\0" * 6
        + struct.pack("<IIIIIIIII", 0, n_fat, dir_start, 0, 4096, 0xFFFFFFFE, 0, 0xFFFFFFFE, 0)
        + struct.pack("<109I", *difat)
    )
    fat_bytes = struct.pack(f"<{n_fat * 128}I", *fat)
    body = b"".join(d.ljust(c * sector, b"\0") for d, c in zip(datas, data_sectors, strict=True))
    return header + fat_bytes + directory + body
