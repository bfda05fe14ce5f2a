"""The proposed redline read back by our own reader in both views, its XML checked against the
WordprocessingML definitions of the elements it writes, and existing tracked changes left as they were."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

from lxml import etree
from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.reports.redline import render_redline
from ingest.load import load_document
from tests.docx_fixtures import abstract_num, build_docx, dele, ins, lvl, num, numbering_xml, p, r

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_contracts"
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

# The ECMA-376 (Part 1, wml.xsd) definitions of what the redline writes, transcribed: CT_TrackChange's
# attributes on w:ins/w:del (w:id ST_DecimalNumber, w:author required, w:date xsd:dateTime), a run's
# content inside them (w:t in an insertion, w:delText in a deletion), and the comment range marks.
WML_SUBSET = f"""<?xml version="1.0"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:w="{W_NS}" targetNamespace="{W_NS}"
            elementFormDefault="qualified" attributeFormDefault="qualified">
  <xsd:import namespace="http://www.w3.org/XML/1998/namespace"/>
  <xsd:complexType name="CT_Markup">
    <xsd:attribute name="id" type="xsd:integer" use="required"/></xsd:complexType>
  <xsd:complexType name="CT_Text"><xsd:simpleContent><xsd:extension base="xsd:string">
    <xsd:anyAttribute namespace="http://www.w3.org/XML/1998/namespace" processContents="skip"/>
  </xsd:extension></xsd:simpleContent></xsd:complexType>
  <xsd:complexType name="CT_Any"><xsd:sequence>
    <xsd:any minOccurs="0" maxOccurs="unbounded" processContents="skip"/></xsd:sequence>
    <xsd:anyAttribute processContents="skip"/></xsd:complexType>
  <xsd:complexType name="CT_InsR"><xsd:sequence>
    <xsd:element name="rPr" type="w:CT_Any" minOccurs="0"/>
    <xsd:choice minOccurs="0" maxOccurs="unbounded">
      <xsd:element name="t" type="w:CT_Text"/><xsd:element name="tab" type="w:CT_Any"/>
      <xsd:element name="br" type="w:CT_Any"/>
    </xsd:choice></xsd:sequence><xsd:anyAttribute processContents="skip"/></xsd:complexType>
  <xsd:complexType name="CT_DelR"><xsd:sequence>
    <xsd:element name="rPr" type="w:CT_Any" minOccurs="0"/>
    <xsd:choice minOccurs="0" maxOccurs="unbounded">
      <xsd:element name="delText" type="w:CT_Text"/><xsd:element name="delInstrText" type="w:CT_Text"/>
      <xsd:element name="tab" type="w:CT_Any"/><xsd:element name="br" type="w:CT_Any"/>
      <xsd:element name="noBreakHyphen" type="w:CT_Any"/><xsd:element name="softHyphen" type="w:CT_Any"/>
      <xsd:element name="sym" type="w:CT_Any"/><xsd:element name="lastRenderedPageBreak" type="w:CT_Any"/>
    </xsd:choice></xsd:sequence><xsd:anyAttribute processContents="skip"/></xsd:complexType>
  <xsd:complexType name="CT_Ins"><xsd:sequence>
    <xsd:element name="r" type="w:CT_InsR" maxOccurs="unbounded"/></xsd:sequence>
    <xsd:attribute name="id" type="xsd:integer" use="required"/>
    <xsd:attribute name="author" type="xsd:string" use="required"/>
    <xsd:attribute name="date" type="xsd:dateTime"/></xsd:complexType>
  <xsd:complexType name="CT_Del"><xsd:choice maxOccurs="unbounded">
    <xsd:element name="r" type="w:CT_DelR"/>
    <xsd:element name="bookmarkStart" type="w:CT_Any"/><xsd:element name="bookmarkEnd" type="w:CT_Any"/>
    <xsd:element name="commentRangeStart" type="w:CT_Markup"/>
    <xsd:element name="commentRangeEnd" type="w:CT_Markup"/>
    <xsd:element name="proofErr" type="w:CT_Any"/></xsd:choice>
    <xsd:attribute name="id" type="xsd:integer" use="required"/>
    <xsd:attribute name="author" type="xsd:string" use="required"/>
    <xsd:attribute name="date" type="xsd:dateTime"/></xsd:complexType>
  <xsd:complexType name="CT_TrackChange">
    <xsd:attribute name="id" type="xsd:integer" use="required"/>
    <xsd:attribute name="author" type="xsd:string" use="required"/>
    <xsd:attribute name="date" type="xsd:dateTime"/></xsd:complexType>
  <xsd:element name="ins" type="w:CT_Ins"/>
  <xsd:element name="del" type="w:CT_Del"/>
  <xsd:element name="commentRangeStart" type="w:CT_Markup"/>
  <xsd:element name="commentRangeEnd" type="w:CT_Markup"/>
</xsd:schema>"""


def _ours(data: bytes, author: str) -> list[Any]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        root = etree.fromstring(z.read("word/document.xml"))
    tracked = root.iter(f"{{{W_NS}}}ins", f"{{{W_NS}}}del")
    return [el for el in tracked if str(el.get(f"{{{W_NS}}}author")).startswith(author)]


# A paragraph mark's tracked deletion (w:pPr/w:rPr/w:del) is the empty CT_TrackChange, not a run container.
WML_MARK = WML_SUBSET.replace('name="del" type="w:CT_Del"', 'name="del" type="w:CT_TrackChange"')


def _assert_valid(data: bytes, author: str) -> int:
    schema = etree.XMLSchema(etree.fromstring(WML_SUBSET.encode()))
    mark = etree.XMLSchema(etree.fromstring(WML_MARK.encode()))
    ours = _ours(data, author)
    for el in ours:
        check = mark if el.getparent().tag == f"{{{W_NS}}}rPr" else schema
        assert check.validate(etree.fromstring(etree.tostring(el))), check.error_log
        # a comment range starts before our w:del; ids of revisions are unique in the part
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        root = etree.fromstring(z.read("word/document.xml"))
        ids = [el.get(f"{{{W_NS}}}id") for el in root.iter(f"{{{W_NS}}}ins", f"{{{W_NS}}}del")]
        assert len(ids) == len(set(ids))
        assert "word/comments.xml" in z.namelist()
    return len(ours)


def _data(doc: Any, start: int, end: int, model: str, outcome: str = "unacceptable") -> dict[str, Any]:
    return {
        "review": {"id": 1, "playbook": {"id": "msa-customer", "version": "1.3.1"}},
        "findings": [
            {
                "id": "F1",
                "severity": "critical",
                "outcome": outcome,
                "status": "verified",
                "evidence": "quote",
                "claim": "The cap is three months.",
                "model_language": model,
                "citations": [
                    {"status": "verified", "start": start, "end": end, "text": doc.text[start:end]}
                ],
            }
        ],
    }


def test_sample_redline_through_the_cli_reads_back_in_both_views(tmp_path: Path) -> None:
    red = tmp_path / "proposed.docx"
    result = runner.invoke(app, ["review", str(SAMPLES / "northwind_msa.docx"), "--redline", str(red)])
    assert result.exit_code == 0, result.output
    assert "proposed redline" in result.stderr and "F1" in result.stderr
    before = load_document(SAMPLES / "northwind_msa.docx")
    original = load_document(red, view="original")
    accepted = load_document(red, view="accepted")
    assert original.text == before.text
    assert original.status == accepted.status == "ready"
    flat = " ".join(accepted.text.split())
    assert "twelve (12) months preceding the event giving rise to the claim" in flat
    assert "three (3) months immediately preceding" not in flat
    assert _assert_valid(red.read_bytes(), "CitationGate · msa-customer@") == 2


def test_existing_tracked_changes_are_undisturbed(tmp_path: Path) -> None:
    """Counsel's insertion and deletion elsewhere stay byte-for-byte; a clause inside one is not redlined."""
    body = p("1. Liability. The Supplier's total liability shall not exceed three (3) months of fees.") + p(
        r("2. Payment. Invoices are payable "), ins("within thirty days"), dele(" on receipt"), r(".")
    )
    path = build_docx(tmp_path / "c.docx", body)
    doc = load_document(path)
    t = doc.text
    data = _data(
        doc, t.index("The Supplier"), t.index("of fees.") + 8, "The cap is twelve (12) months of fees."
    )
    second = dict(data["findings"][0], id="F2")
    second["citations"] = [
        {
            "status": "verified",
            "start": t.index("within"),
            "end": t.index("thirty days") + 11,
            "text": "within thirty days",
        }
    ]
    data["findings"].append(second)
    red = render_redline(data, doc, path.read_bytes())
    assert red.changed == ("F1",)
    assert red.skipped and red.skipped[0].startswith("F2: the clause already carries a tracked change")
    out = tmp_path / "red.docx"
    out.write_bytes(red.content)
    before_orig = load_document(path, view="original")
    assert load_document(out, view="original").text == before_orig.text
    accepted = load_document(out, view="accepted").text
    assert "twelve (12) months of fees." in accepted and "within thirty days" in accepted
    counsel = _ours(red.content, "Counsel")
    assert [etree.tostring(e) for e in counsel] == [
        etree.tostring(e) for e in _ours(path.read_bytes(), "Counsel")
    ]
    assert _assert_valid(red.content, "CitationGate · msa-customer@1.3.1") == 2


def test_only_unacceptable_findings_with_model_language_are_redlined(tmp_path: Path) -> None:
    path = build_docx(tmp_path / "c.docx", p("The Supplier's total liability shall not exceed the fees."))
    doc = load_document(path)
    for outcome, model in (("standard", "Other words."), ("unacceptable", "  ")):
        red = render_redline(_data(doc, 0, 20, model, outcome), doc, path.read_bytes())
        assert red.changed == ()
        assert load_document_bytes(red.content, tmp_path).text == doc.text


def load_document_bytes(data: bytes, tmp_path: Path) -> Any:
    out = tmp_path / "x.docx"
    out.write_bytes(data)
    return load_document(out, view="accepted")


def test_redline_of_a_pdf_is_an_error(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["review", str(SAMPLES / "harbor_msa.pdf"), "--redline", str(tmp_path / "r.docx")]
    )
    assert result.exit_code == 3
    assert result.stderr == "Error: harbor_msa.pdf: a redline needs a DOCX (this is a pdf file)\n"


def test_a_clause_over_numbered_paragraphs_joins_and_keeps_its_number(tmp_path: Path) -> None:
    """ "7.1 … (a) … (b) …" cited whole: each paragraph's words deleted, the marks between them deleted, and
    the joined paragraph keeps 7.1's number through a tracked property change; 7.2 is untouched."""
    levels = (lvl(0, "decimal", "%1."), lvl(1, "decimal", "%1.%2"), lvl(2, "lowerLetter", "(%3)"))
    numbering = numbering_xml(abstract_num(1, *levels), num(1, 1))
    body = (
        p("Liability", num=(1, 0))
        + p("Nothing limits liability for:", num=(1, 1))
        + p(r("death or personal injury; "), r("or", bold=True), num=(1, 2))
        + p("fraud.", num=(1, 2))
        + p("The cap is three (3) months of fees.", num=(1, 1))
    )
    path = build_docx(tmp_path / "c.docx", body, numbering=numbering)
    doc = load_document(path)
    t = doc.text
    assert "1.1\tNothing" in t and "(b)\tfraud." in t
    start, end = t.index("Nothing limits"), t.index("fraud.") + len("fraud.")
    red = render_redline(
        _data(doc, start, end, "Nothing limits liability for fraud or death."), doc, path.read_bytes()
    )
    assert red.changed == ("F1",), red.skipped
    out = tmp_path / "red.docx"
    out.write_bytes(red.content)
    original = load_document(out, view="original")
    accepted = load_document(out, view="accepted")
    assert original.text == doc.text
    assert accepted.status == "ready", accepted.reasons
    assert (
        "1.1\tNothing limits liability for fraud or death.\n1.2\tThe cap is three (3) months of fees."
        in accepted.text
    )
    assert "(a)" not in accepted.text
    assert _assert_valid(red.content, "CitationGate · msa-customer@") >= 3
