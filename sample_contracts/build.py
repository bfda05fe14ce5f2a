"""Build the sample contracts from their readable sources in `sample_contracts/src/`.

    python sample_contracts/build.py

Writes, next to this file:

- `northwind_msa.docx` — automatic numbering (numbering.xml, `w:numPr`: "1.", "1.1", "(a)"; no number is
  typed in a text run), a fee table, a schedule;
- `northwind_msa_redline.docx` — the same agreement with real tracked changes (`w:ins`/`w:del` carrying
  `w:author`/`w:date`): its original view reads exactly like `northwind_msa.docx`, its accepted view like
  the negotiated version;
- `harbor_msa.pdf` — a multi-page PDF (fpdf2, core font) with a running header and footer and page numbers;
- `meridian_msa.txt` — plain text, hard-wrapped like a contract pasted from an email.

The output is deterministic (fixed zip timestamps, fixed PDF creation date), so rebuilding without changing a
source leaves the committed files byte-identical.

Source markup (one block per paragraph, blocks separated by a blank line):

    # TITLE               the document title
    ## Heading            an unnumbered heading (parties, schedules, signatures)
    =1 HEADING            a numbered clause heading: "1."   (DOCX: numbering level 0)
    =2 text               a numbered sub-clause:     "1.1"  (DOCX: numbering level 1)
    =3 text               a numbered item:           "(a)"  (DOCX: numbering level 2)
    | a | b | c           a table row (the first row of a table is its header)
    text                  an unnumbered paragraph
    {#id}                 after =1/=2: an anchor; {ref:id} elsewhere prints that clause's number
    {-text-} / {+text+}   deleted / inserted in the redline (the plain build shows the original)
    ~                     at the start of a block: the whole paragraph is deleted in the redline
"""

# ruff: noqa: E501  (the OOXML parts below are kept as Word writes them, one element per line)

from __future__ import annotations

import re
import textwrap
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"

REDLINE_AUTHOR = "Priya Natarajan (Calder Foods Legal)"
REDLINE_DATE = "2025-04-14T09:30:00Z"
ZIP_DATE = (2025, 3, 3, 9, 0, 0)


# ── source model ─────────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True, slots=True, kw_only=True)
class Block:
    kind: str  # title | heading | num | para | table
    text: str = ""
    level: int = 0  # 1..3 for numbered blocks
    anchor: str | None = None
    deleted: bool = False  # whole paragraph deleted in the redline
    inserted: bool = False  # whole paragraph inserted in the redline
    rows: tuple[tuple[str, ...], ...] = ()


def parse(source: str) -> list[Block]:
    blocks: list[Block] = []
    for chunk in re.split(r"\n\s*\n", source.strip()):
        lines = [ln.strip() for ln in chunk.strip().splitlines()]
        deleted = lines[0].startswith("~")
        if deleted:
            lines[0] = lines[0][1:]
        if lines[0].startswith("|"):
            rows = tuple(tuple(c.strip() for c in ln.strip("|").split("|")) for ln in lines)
            blocks.append(Block(kind="table", rows=rows))
            continue
        text = " ".join(lines)
        if text.startswith("## "):
            blocks.append(Block(kind="heading", text=text[3:].strip(), deleted=deleted))
        elif text.startswith("# "):
            blocks.append(Block(kind="title", text=text[2:].strip()))
        elif m := re.match(r"=([123])\s+(?:\{#([\w-]+)\}\s*)?(.*)$", text):
            body = m.group(3)
            inserted = bool(re.fullmatch(r"\{\+.*\+\}", body))
            blocks.append(
                Block(
                    kind="num",
                    level=int(m.group(1)),
                    anchor=m.group(2),
                    text=body,
                    deleted=deleted,
                    inserted=inserted,
                )
            )
        else:
            blocks.append(Block(kind="para", text=text, deleted=deleted))
    return blocks


def _alpha(n: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[n - 1]


def number(blocks: list[Block], *, view: str) -> dict[int, str]:
    """Labels of the numbered blocks present in `view` ("original" or "accepted"), by block index."""
    labels: dict[int, str] = {}
    c1 = c2 = c3 = 0
    for i, b in enumerate(blocks):
        if b.kind != "num" or not present(b, view):
            continue
        if b.level == 1:
            c1, c2, c3 = c1 + 1, 0, 0
            labels[i] = f"{c1}."
        elif b.level == 2:
            c2, c3 = c2 + 1, 0
            labels[i] = f"{c1}.{c2}"
        else:
            c3 += 1
            labels[i] = f"({_alpha(c3)})"
    return labels


def present(b: Block, view: str) -> bool:
    return not (b.deleted if view == "accepted" else b.inserted)


def anchors(blocks: list[Block], labels: dict[int, str]) -> dict[str, str]:
    return {b.anchor: labels[i].rstrip(".") for i, b in enumerate(blocks) if b.anchor and i in labels}


def resolve_refs(text: str, original: dict[str, str], accepted: dict[str, str]) -> str:
    """`{ref:id}` → the clause number; where the redline renumbers it, a tracked change of the number."""

    def sub(m: re.Match[str]) -> str:
        old = original.get(m.group(1))
        new = accepted.get(m.group(1), old)
        if old is None:
            raise SystemExit(f"unknown reference {{ref:{m.group(1)}}}")
        return old if old == new else f"{{-{old}-}}{{+{new}+}}"

    return re.sub(r"\{ref:([\w-]+)\}", sub, text)


_SEG = re.compile(r"\{-(.*?)-\}|\{\+(.*?)\+\}")


def segments(text: str) -> list[tuple[str, str]]:
    """Split tracked markup into ("keep"|"del"|"ins", text) runs."""
    out: list[tuple[str, str]] = []
    pos = 0
    for m in _SEG.finditer(text):
        if m.start() > pos:
            out.append(("keep", text[pos : m.start()]))
        out.append(("del", m.group(1)) if m.group(1) is not None else ("ins", m.group(2)))
        pos = m.end()
    if pos < len(text):
        out.append(("keep", text[pos:]))
    return out


def view_text(text: str, view: str) -> str:
    drop = "ins" if view == "original" else "del"
    return "".join(t for kind, t in segments(text) if kind != drop)


def prepare(name: str) -> list[Block]:
    """Parse a source and resolve its cross-references (tracked where the redline renumbers them)."""
    blocks = parse((SRC / name).read_text(encoding="utf-8"))
    original = anchors(blocks, number(blocks, view="original"))
    accepted = anchors(blocks, number(blocks, view="accepted"))
    return [
        replace(
            b,
            text=resolve_refs(b.text, original, accepted),
            rows=tuple(tuple(resolve_refs(c, original, accepted) for c in r) for r in b.rows),
        )
        for b in blocks
    ]


def smart_quotes(text: str) -> str:
    """Typographic quotes, as a word processor would type them."""
    out = []
    for i, ch in enumerate(text):
        if ch == '"':
            prev = text[i - 1] if i else " "
            out.append("\u201c" if prev in " (\u2014-[" else "\u201d")
        elif ch == "'":
            out.append("\u2019")
        else:
            out.append(ch)
    return "".join(out)


# ── plain text ───────────────────────────────────────────────────────────────────────────────────
_RISKY_START = re.compile(r"^(\(|\d|[A-Z]\.)")


def _wrap(text: str, *, width: int, first: str, rest: str) -> list[str]:
    """Wrap like a contract pasted from an email, never starting a line with a number or "(x)"."""
    words = text.split(" ")
    glued: list[str] = []
    for w in words:
        if glued and _RISKY_START.match(w):
            glued[-1] += "\x00" + w
        else:
            glued.append(w)
    lines = textwrap.wrap(
        " ".join(glued),
        width=width,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [ln.replace("\x00", " ") for ln in lines]


def render_text(blocks: list[Block], *, view: str = "original", width: int = 78) -> str:
    labels = number(blocks, view=view)
    out: list[str] = []
    for i, b in enumerate(blocks):
        if not present(b, view):
            continue
        text = view_text(b.text, view)
        if b.kind == "title":
            out.append(text.center(width).rstrip())
        elif b.kind == "heading":
            out.append(text.upper())
        elif b.kind == "num" and b.level == 1:
            out.append(f"{labels[i]}  {text.upper()}")
        elif b.kind == "num" and b.level == 2:
            label = labels[i]
            out.extend(_wrap(text, width=width, first=f"{label:<5} ", rest=" " * 6))
        elif b.kind == "num":
            out.extend(_wrap(text, width=width, first=f"      {labels[i]} ", rest=" " * 10))
        elif b.kind == "table":
            widths = [max(len(r[c]) for r in b.rows) for c in range(len(b.rows[0]))]
            for n, row in enumerate(b.rows):
                out.append("  ".join(cell.ljust(widths[c]) for c, cell in enumerate(row)).rstrip())
                if n == 0:
                    out.append("  ".join("-" * w for w in widths))
        else:
            out.extend(_wrap(text, width=width, first="", rest=""))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


# ── DOCX ─────────────────────────────────────────────────────────────────────────────────────────
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>
<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/>
<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>
<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>
</Types>"""

ROOT_RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>
<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>
</Relationships>"""

DOC_RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>
<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings" Target="settings.xml"/>
</Relationships>"""

SETTINGS = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:settings xmlns:w="{W_NS}"><w:defaultTabStop w:val="720"/><w:compat/></w:settings>"""

CORE = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<dc:title>{title}</dc:title><dc:creator>CitationGate sample contracts</dc:creator>
<dcterms:created xsi:type="dcterms:W3CDTF">2025-03-03T09:00:00Z</dcterms:created>
<dcterms:modified xsi:type="dcterms:W3CDTF">{modified}</dcterms:modified>
</cp:coreProperties>"""

APP = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>CitationGate sample_contracts/build.py</Application></Properties>"""

STYLES = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="{W_NS}">
<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:cs="Calibri"/><w:sz w:val="22"/><w:lang w:val="en-GB"/></w:rPr></w:rPrDefault>
<w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="264" w:lineRule="auto"/><w:jc w:val="both"/></w:pPr></w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:pPr><w:jc w:val="center"/><w:spacing w:after="360"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:caps/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="ClauseHeading"><w:name w:val="Clause Heading"/><w:basedOn w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:caps/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="ClauseText"><w:name w:val="Clause Text"/><w:basedOn w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="ClauseItem"><w:name w:val="Clause Item"/><w:basedOn w:val="Normal"/></w:style>
<w:style w:type="table" w:styleId="FeeTable"><w:name w:val="Fee Table"/><w:tblPr><w:tblBorders>
<w:top w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:left w:val="single" w:sz="4" w:space="0" w:color="000000"/>
<w:bottom w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:right w:val="single" w:sz="4" w:space="0" w:color="000000"/>
<w:insideH w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="000000"/>
</w:tblBorders></w:tblPr></w:style>
</w:styles>"""

# One multi-level list: "1." (bold clause headings), "1.1", "(a)". The numbers live here, not in the runs.
NUMBERING = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="{W_NS}">
<w:abstractNum w:abstractNumId="0">
<w:multiLevelType w:val="multilevel"/>
<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="720"/></w:pPr><w:rPr><w:b/></w:rPr></w:lvl>
<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="720"/></w:pPr></w:lvl>
<w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="(%3)"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="1440" w:hanging="720"/></w:pPr></w:lvl>
<w:lvl w:ilvl="3"><w:start w:val="1"/><w:numFmt w:val="lowerRoman"/><w:lvlText w:val="(%4)"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="2160" w:hanging="720"/></w:pPr></w:lvl>
</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
</w:numbering>"""

_STYLE_FOR_LEVEL = {1: "ClauseHeading", 2: "ClauseText", 3: "ClauseItem"}


class _Revisions:
    def __init__(self) -> None:
        self.next_id = 1

    def attrs(self) -> str:
        rid = self.next_id
        self.next_id += 1
        return f'w:id="{rid}" w:author="{escape(REDLINE_AUTHOR)}" w:date="{REDLINE_DATE}"'


def _run(text: str, *, bold: bool = False, deleted: bool = False) -> str:
    rpr = "<w:rPr><w:b/></w:rPr>" if bold else ""
    tag = "w:delText" if deleted else "w:t"
    return f'<w:r>{rpr}<{tag} xml:space="preserve">{escape(text)}</{tag}></w:r>'


def _runs(text: str, *, tracked: bool, revs: _Revisions, bold: bool = False, whole: str = "") -> str:
    """Runs of a paragraph; with `tracked`, `{-…-}`/`{+…+}` become w:del/w:ins (else the original view)."""
    parts = []
    for kind, t in segments(text):
        t = smart_quotes(t)
        if whole:
            kind = whole
        if not tracked:
            if kind != "ins":
                parts.append(_run(t, bold=bold))
        elif kind == "keep":
            parts.append(_run(t, bold=bold))
        elif kind == "del":
            parts.append(f"<w:del {revs.attrs()}>{_run(t, bold=bold, deleted=True)}</w:del>")
        else:
            parts.append(f"<w:ins {revs.attrs()}>{_run(t, bold=bold)}</w:ins>")
    return "".join(parts)


def _paragraph(b: Block, *, tracked: bool, revs: _Revisions) -> str:
    ppr: list[str] = []
    bold = False
    if b.kind == "title":
        ppr.append('<w:pStyle w:val="Title"/>')
    elif b.kind == "heading":
        ppr.append('<w:pStyle w:val="Heading1"/>')
    elif b.kind == "num":
        ppr.append(f'<w:pStyle w:val="{_STYLE_FOR_LEVEL[b.level]}"/>')
        ppr.append(f'<w:numPr><w:ilvl w:val="{b.level - 1}"/><w:numId w:val="1"/></w:numPr>')
        bold = b.level == 1
    whole = ""
    if tracked and b.deleted:
        ppr.append(f"<w:rPr><w:del {revs.attrs()}/></w:rPr>")
        whole = "del"
    elif tracked and b.inserted:
        ppr.append(f"<w:rPr><w:ins {revs.attrs()}/></w:rPr>")
        whole = "ins"
    text = b.text
    if b.inserted:
        text = text[2:-2]  # the block is one {+…+}
    runs = _runs(text, tracked=tracked, revs=revs, bold=bold, whole=whole)
    return f"<w:p><w:pPr>{''.join(ppr)}</w:pPr>{runs}</w:p>"


def _table(b: Block) -> str:
    ncols = len(b.rows[0])
    grid = "".join('<w:gridCol w:w="3000"/>' for _ in range(ncols))
    rows = []
    for n, row in enumerate(b.rows):
        cells = []
        for cell in row:
            jc = '<w:jc w:val="right"/>' if re.fullmatch(r"[\d,.]+", cell) else '<w:jc w:val="left"/>'
            cells.append(
                f'<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr><w:p><w:pPr>{jc}'
                f'<w:spacing w:after="0"/></w:pPr>{_run(smart_quotes(cell), bold=n == 0)}</w:p></w:tc>'
            )
        header = "<w:trPr><w:tblHeader/></w:trPr>" if n == 0 else ""
        rows.append(f"<w:tr>{header}{''.join(cells)}</w:tr>")
    return (
        f'<w:tbl><w:tblPr><w:tblStyle w:val="FeeTable"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>'
        f"<w:tblGrid>{grid}</w:tblGrid>{''.join(rows)}</w:tbl>"
    )


def render_docx(blocks: list[Block], path: Path, *, tracked: bool) -> None:
    revs = _Revisions()
    body: list[str] = []
    for b in blocks:
        if b.kind == "table":
            body.append(_table(b))
        elif tracked or not b.inserted:
            body.append(_paragraph(b, tracked=tracked, revs=revs))
    sect = (
        '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/>'
        '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>'
        "</w:sectPr>"
    )
    document = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<w:document xmlns:w="{W_NS}" xmlns:r="{R_NS}"><w:body>{"".join(body)}{sect}</w:body></w:document>'
    )
    title = next(b.text for b in blocks if b.kind == "title")
    parts = {
        "[Content_Types].xml": CONTENT_TYPES,
        "_rels/.rels": ROOT_RELS,
        "docProps/core.xml": CORE.format(
            title=escape(title.title()),
            modified=REDLINE_DATE if tracked else "2025-03-03T09:00:00Z",
        ),
        "docProps/app.xml": APP,
        "word/_rels/document.xml.rels": DOC_RELS,
        "word/document.xml": document,
        "word/styles.xml": STYLES,
        "word/numbering.xml": NUMBERING,
        "word/settings.xml": SETTINGS,
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data.encode("utf-8"))


# ── PDF ──────────────────────────────────────────────────────────────────────────────────────────
def render_pdf(blocks: list[Block], path: Path, *, header: str) -> None:
    from datetime import UTC, datetime

    from fpdf import FPDF

    class _Pdf(FPDF):
        def header(self) -> None:
            self.set_font("Helvetica", "I", 8)
            self.cell(0, 6, header, align="R")
            self.ln(10)

        def footer(self) -> None:
            self.set_y(-15)
            self.set_font("Helvetica", "I", 8)
            self.cell(0, 6, "Confidential", align="L")
            self.set_x(self.l_margin)
            self.cell(0, 6, f"Page {self.page_no()} of {{nb}}", align="R")

    pdf = _Pdf(format="A4")
    pdf.set_creation_date(datetime(2025, 2, 10, 9, 0, 0, tzinfo=UTC))
    pdf.set_title(next(b.text for b in blocks if b.kind == "title").title())
    pdf.set_author("CitationGate sample contracts")
    pdf.set_margins(22, 20, 22)
    pdf.set_auto_page_break(auto=True, margin=22)
    pdf.add_page()
    labels = number(blocks, view="original")
    lh = 5.2
    for i, b in enumerate(blocks):
        text = view_text(b.text, "original")
        text.encode("latin-1")  # core fonts: Latin-1 only
        left = pdf.l_margin
        if b.kind == "title":
            pdf.set_font("Helvetica", "B", 15)
            pdf.multi_cell(0, 8, text, align="C")
            pdf.ln(4)
        elif b.kind == "heading":
            pdf.ln(2)
            pdf.set_font("Helvetica", "B", 11)
            pdf.multi_cell(0, lh, text.upper())
            pdf.ln(2)
        elif b.kind == "num" and b.level == 1:
            pdf.ln(2)
            pdf.set_font("Helvetica", "B", 11)
            pdf.cell(12, lh, labels[i])
            pdf.multi_cell(0, lh, text.upper())
            pdf.ln(2)
        elif b.kind == "num":
            indent = 12 if b.level == 2 else 24
            pdf.set_font("Helvetica", "", 10.5)
            pdf.set_x(left + indent - 12)
            pdf.cell(12, lh, labels[i])
            pdf.multi_cell(0, lh, text, align="J")
            pdf.ln(1.5)
        elif b.kind == "table":
            widths = [80, 40, 46][: len(b.rows[0])]
            for n, row in enumerate(b.rows):
                pdf.set_font("Helvetica", "B" if n == 0 else "", 10)
                for c, cell in enumerate(row):
                    pdf.cell(widths[c], 7, cell, border=1, align="R" if c == 1 and n else "L")
                pdf.ln(7)
            pdf.ln(2)
        else:
            pdf.set_font("Helvetica", "", 10.5)
            pdf.multi_cell(0, lh, text, align="J")
            pdf.ln(1.5)
    pdf.output(str(path))


# ── build ────────────────────────────────────────────────────────────────────────────────────────
def build() -> list[Path]:
    out = []
    northwind = prepare("northwind_msa.md")
    render_docx(northwind, HERE / "northwind_msa.docx", tracked=False)
    render_docx(northwind, HERE / "northwind_msa_redline.docx", tracked=True)
    out += [HERE / "northwind_msa.docx", HERE / "northwind_msa_redline.docx"]

    harbor = prepare("harbor_msa.md")
    render_pdf(
        harbor, HERE / "harbor_msa.pdf", header="Harbor Point Logistics, Inc. - Master Services Agreement"
    )
    out.append(HERE / "harbor_msa.pdf")

    meridian = prepare("meridian_msa.md")
    (HERE / "meridian_msa.txt").write_text(render_text(meridian), encoding="utf-8", newline="\n")
    out.append(HERE / "meridian_msa.txt")
    return out


def expected_text(name: str, *, view: str) -> str:
    """The agreement's paragraphs in `view`, numbered, one per line: what a correct reading must contain."""
    return render_text(prepare(name), view=view, width=10_000)


if __name__ == "__main__":
    for p in build():
        print(f"wrote {p.relative_to(HERE.parent)} ({p.stat().st_size} bytes)")
