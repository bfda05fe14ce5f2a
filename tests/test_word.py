"""DOCX ingest: every hazard built as a real .docx (python-docx package + raw WordprocessingML)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import docx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from typer.testing import CliRunner

from citationgate.cli import app
from ingest import CorruptFileError, Document, EncryptedFileError, IngestError, load_document
from ingest.fidelity import (
    docx_char_agreement,
    docx_coverage_reason,
    docx_fidelity_reason,
    docx_reference_text,
    docx_text_fidelity,
)
from ingest.sections import detect_sections
from ingest.word import package as word_package
from tests.docx_fixtures import (
    abstract_num,
    build_docx,
    cell,
    compound_file,
    dele,
    ins,
    lvl,
    num,
    numbering_xml,
    p,
    paragraph_style,
    r,
    replace_part,
    table,
)

runner = CliRunner()

# A typical contract scheme: "1." / "1.1" / "(a)" / "(i)".
CONTRACT_LEVELS = (
    lvl(0, "decimal", "%1."),
    lvl(1, "decimal", "%1.%2"),
    lvl(2, "lowerLetter", "(%3)"),
    lvl(3, "lowerRoman", "(%4)"),
)
CONTRACT_NUMBERING = numbering_xml(abstract_num(1, *CONTRACT_LEVELS), num(1, 1))


def load(path: Path, view: str = "accepted") -> Document:
    return load_document(path, view=view)


def assert_spans_slice(doc: Document) -> None:
    """Every generated span slices to a label, and every section starts at its label."""
    for g in doc.generated:
        assert g.kind == "numbering"
        label = doc.text[g.start : g.end]
        assert label and label == label.strip()
        assert doc.text[g.end] == "\t"
    for s in doc.sections:
        assert 0 <= s.start < s.end <= len(doc.text)
        if s.label:
            assert doc.text[s.start : s.end].startswith(s.label)


# ---- numbering ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("levels", "paras", "labels"),
    [
        # decimal with a full stop, and a two-level "%1.%2" that restarts under each new clause
        (CONTRACT_LEVELS, [0, 1, 1, 0, 1], ["1", "1.1", "1.2", "2", "2.1"]),
        # letters and roman numerals under a clause; deeper levels restart when a shallower one advances
        (
            CONTRACT_LEVELS,
            [0, 2, 2, 3, 3, 3, 3, 2, 3],
            ["1", "(a)", "(b)", "(i)", "(ii)", "(iii)", "(iv)", "(c)", "(i)"],
        ),
        # "ARTICLE V": an upper-roman article starting at 5, with isLgl sub-clauses shown as decimals
        (
            (lvl(0, "upperRoman", "ARTICLE %1", start=5), lvl(1, "decimal", "%1.%2", is_lgl=True)),
            [0, 1, 0, 1],
            ["ARTICLE V", "5.1", "ARTICLE VI", "6.1"],
        ),
        # schedules and exhibits numbered by Word
        ((lvl(0, "decimal", "Schedule %1"),), [0, 0], ["Schedule 1", "Schedule 2"]),
        ((lvl(0, "upperLetter", "Exhibit %1"),), [0, 0, 0], ["Exhibit A", "Exhibit B", "Exhibit C"]),
        # w:lvlRestart=0: the sub-list never restarts
        (
            (lvl(0, "decimal", "%1."), lvl(1, "lowerLetter", "(%2)", restart=0)),
            [0, 1, 0, 1],
            ["1", "(a)", "2", "(b)"],
        ),
        # letters past z repeat, as Word does ("aa", not "ba")
        ((lvl(0, "lowerLetter", "(%1)", start=26),), [0, 0], ["(z)", "(aa)"]),
        # a three-level decimal "%1.%2.%3"
        (
            (lvl(0, "decimal", "%1."), lvl(1, "decimal", "%1.%2"), lvl(2, "decimal", "%1.%2.%3")),
            [0, 1, 2, 2, 1, 2],
            ["1", "1.1", "1.1.1", "1.1.2", "1.2", "1.2.1"],
        ),
    ],
    ids=[
        "decimal",
        "letters-romans",
        "article-islgl",
        "schedule",
        "exhibit",
        "no-restart",
        "aa",
        "three-level",
    ],
)
def test_numbering_labels(
    tmp_path: Path, levels: tuple[str, ...], paras: list[int], labels: list[str]
) -> None:
    body = "".join(p(f"Clause text {i}", num=(1, ilvl)) for i, ilvl in enumerate(paras))
    doc = load(
        build_docx(tmp_path / "n.docx", body, numbering=numbering_xml(abstract_num(1, *levels), num(1, 1)))
    )
    assert [s.label for s in doc.sections] == labels
    assert all(s.generated for s in doc.sections)
    assert [doc.text[g.start : g.end].rstrip(".") for g in doc.generated] == labels
    assert doc.sections_expected == len(labels) and doc.ready
    assert_spans_slice(doc)


def test_label_and_tab_precede_the_paragraph_text(tmp_path: Path) -> None:
    """The label is rendered at the paragraph start, then one tab, then the runs."""
    body = p("Term", num=(1, 0)) + p("This Agreement starts today.", num=(1, 1))
    doc = load(build_docx(tmp_path / "n.docx", body, numbering=CONTRACT_NUMBERING))
    assert doc.text == "1.\tTerm\n1.1\tThis Agreement starts today."
    assert [(g.start, g.end) for g in doc.generated] == [(0, 2), (8, 11)]
    assert doc.sections[0].heading == "Term" and doc.sections[0].level == 1
    assert doc.sections[1].level == 2 and doc.text[doc.sections[1].start : doc.sections[1].end].endswith(
        "today."
    )


def test_nums_sharing_an_abstract_continue_and_start_override_restarts(tmp_path: Path) -> None:
    """Two w:num on one abstractNum continue one list; a w:num with startOverride starts its own."""
    numbering = numbering_xml(
        abstract_num(1, lvl(0, "decimal", "%1.")),
        num(1, 1),
        num(2, 1),
        num(3, 1, start_overrides={0: 1}),
        num(4, 1, start_overrides={0: 7}),
    )
    body = (
        p("a", num=(1, 0)) + p("b", num=(1, 0)) + p("c", num=(2, 0)) + p("d", num=(3, 0)) + p("e", num=(3, 0))
    )
    body += p("f", num=(4, 0))
    doc = load(build_docx(tmp_path / "n.docx", body, numbering=numbering))
    assert [s.label for s in doc.sections] == ["1", "2", "3", "1", "2", "7"]


def test_numbering_inherited_through_styles(tmp_path: Path) -> None:
    """Numbered only by its style (through a basedOn chain) gives a label; numId 0 switches it off."""
    styles = [
        paragraph_style("ClauseBase", "Clause Base", num_id=1),
        paragraph_style("Clause", "Clause", based_on="ClauseBase"),
    ]
    body = (
        p("Scope", style="Clause")
        + p("Fees", style="Clause")
        + p("Not numbered", style="Clause", ppr_extra='<w:numPr><w:numId w:val="0"/></w:numPr>')
        + p("Term", style="Clause")
    )
    doc = load(build_docx(tmp_path / "s.docx", body, numbering=CONTRACT_NUMBERING, styles=styles))
    assert [s.label for s in doc.sections] == ["1", "2", "3"]
    assert "\nNot numbered\n" in doc.text
    assert doc.sections_expected == 3


def test_bullets_are_not_rendered_or_counted(tmp_path: Path) -> None:
    """Bullet levels number nothing a lawyer cites: no label, no section, not expected."""
    numbering = numbering_xml(abstract_num(1, lvl(0, "bullet", "\uf0b7")), num(1, 1))
    body = p("first point", num=(1, 0)) + p("second point", num=(1, 0))
    doc = load(build_docx(tmp_path / "b.docx", body, numbering=numbering))
    assert doc.text == "first point\nsecond point"
    assert doc.sections == () and doc.generated == () and doc.sections_expected == 0 and doc.ready


def test_heading_styles_and_typed_labels_become_sections(tmp_path: Path) -> None:
    """Heading-styled paragraphs are sections; typed labels in plain paragraphs are found by the detector."""
    d = docx.Document()
    d.add_heading("Payment Terms", level=1)
    d.add_paragraph("1. Fees. The Customer shall pay the fees.")
    d.add_paragraph("2. Invoices. Invoices are due in 30")
    d.add_paragraph("days of receipt.")
    path = tmp_path / "h.docx"
    d.save(str(path))
    doc = load(path)
    assert [(s.label, s.kind) for s in doc.sections] == [("", "heading"), ("1", "clause"), ("2", "clause")]
    assert doc.sections[0].heading == "Payment Terms"
    assert not any(s.generated for s in doc.sections)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(min_value=0, max_value=2), min_size=1, max_size=25))
def test_multilevel_numbering_matches_a_reference_counter(tmp_path: Path, ilvls: list[int]) -> None:
    """Property: "%1.%2.%3" labels equal a plain reference counter (restart deeper levels on advance)."""
    levels = (lvl(0, "decimal", "%1."), lvl(1, "decimal", "%1.%2"), lvl(2, "decimal", "%1.%2.%3"))
    body = "".join(p(f"text {i}", num=(1, v)) for i, v in enumerate(ilvls))
    doc = load(
        build_docx(tmp_path / "h.docx", body, numbering=numbering_xml(abstract_num(1, *levels), num(1, 1)))
    )
    counts = [0, 0, 0]
    expected = []
    for v in ilvls:
        counts[v] += 1
        for d in range(v + 1, 3):
            counts[d] = 0
        expected.append(".".join(str(max(c, 1)) for c in counts[: v + 1]))
    assert [s.label for s in doc.sections] == expected
    assert_spans_slice(doc)


# ---- body structure -------------------------------------------------------------------------------------


def test_python_docx_table_with_merged_cells_is_read_once(tmp_path: Path) -> None:
    """A table made with python-docx, cells merged across and down: the merged text appears once."""
    d = docx.Document()
    d.add_paragraph("Before the table.")
    t = d.add_table(rows=3, cols=3)
    t.cell(0, 0).merge(t.cell(0, 1)).text = "Service Credits"
    t.cell(0, 2).text = "Rate"
    t.cell(1, 0).merge(t.cell(2, 0)).text = "Tier 1"
    t.cell(1, 1).text = "99.9%"
    t.cell(1, 2).text = "5%"
    t.cell(2, 1).text = "99.5%"
    t.cell(2, 2).text = "10%"
    d.add_paragraph("After the table.")
    path = tmp_path / "t.docx"
    d.save(str(path))
    doc = load(path)
    assert doc.text.count("Service Credits") == 1 and doc.text.count("Tier 1") == 1
    assert (
        doc.text
        == "Before the table.\nService Credits\tRate\nTier 1\t99.9%\t5%\n\t99.5%\t10%\nAfter the table."
    )
    # python-docx's own cell access repeats merged cells (the hazard this guards against)
    assert [c.text for c in t.rows[0].cells].count("Service Credits") == 2
    regions = doc.metadata["regions"]
    assert [g["kind"] for g in regions] == ["table"]
    assert doc.text[regions[0]["start"] : regions[0]["end"]].startswith("Service Credits")
    assert doc.ready


def test_nested_table_and_numbers_in_cells_are_not_sections(tmp_path: Path) -> None:
    """A table inside a cell is read in place; "1." typed in a cell is not a clause."""
    inner = table([["inner a", "inner b"]])
    body = (
        p("1. Scope. The Services.")
        + table([[cell(p("1. Item") + inner), "2. Other"]])
        + p("2. Fees. Payable.")
    )
    doc = load(build_docx(tmp_path / "t.docx", body))
    assert doc.text == "1. Scope. The Services.\n1. Item\ninner a\tinner b\t2. Other\n2. Fees. Payable."
    assert [s.label for s in doc.sections] == ["1", "2"]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # an inline content control (w:sdt inside a paragraph) keeps its text
        (
            p(
                "The Customer is ",
                '<w:sdt><w:sdtPr><w:alias w:val="Party"/></w:sdtPr><w:sdtContent>'
                + r("Acme Ltd")
                + "</w:sdtContent></w:sdt>",
                ".",
            ),
            "The Customer is Acme Ltd.",
        ),
        # a block content control wraps whole paragraphs
        (
            "<w:sdt><w:sdtPr/><w:sdtContent>" + p("Block one.") + p("Block two.") + "</w:sdtContent></w:sdt>",
            "Block one.\nBlock two.",
        ),
        # a simple field keeps its result, not its instruction
        (
            p(
                "Dated ",
                '<w:fldSimple w:instr=" DATE \\@ &quot;d MMMM yyyy&quot; ">'
                + r("1 March 2024")
                + "</w:fldSimple>",
                ".",
            ),
            "Dated 1 March 2024.",
        ),
        # a complex field: begin / instruction / separate / result / end
        (
            p(
                "See clause ",
                '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
                '<w:r><w:instrText xml:space="preserve"> REF _Ref1 \\r \\h </w:instrText></w:r>'
                '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
                + r("11.2")
                + '<w:r><w:fldChar w:fldCharType="end"/></w:r>',
                " below.",
            ),
            "See clause 11.2 below.",
        ),
        # hyperlink, smart tag and custom XML wrappers are looked through
        (
            p(
                '<w:hyperlink r:id="rIdX">' + r("www.example.com") + "</w:hyperlink>",
                " ",
                '<w:smartTag w:uri="u" w:element="place">' + r("London") + "</w:smartTag>",
                " ",
                '<w:customXml w:element="party">' + r("Supplier") + "</w:customXml>",
            ),
            "www.example.com London Supplier",
        ),
        # a page break between two words is whitespace, never glue
        (
            p(
                '<w:r><w:t>payable</w:t><w:br w:type="page"/><w:t>within</w:t><w:br/><w:t>30</w:t>'
                "<w:cr/><w:t>days</w:t></w:r>"
            ),
            "payable\nwithin\n30\ndays",
        ),
        # tab, symbol, non-breaking and soft hyphen
        (
            p(
                '<w:r><w:t>Fee</w:t><w:tab/><w:sym w:font="Wingdings" w:char="F0A7"/><w:t>non</w:t>'
                "<w:noBreakHyphen/><w:t>com</w:t><w:softHyphen/><w:t>pete </w:t>"
                '<w:sym w:font="Times New Roman" w:char="00A7"/></w:r>'
            ),
            "Fee\t\uf0a7non\u2011com\u00adpete §",
        ),
    ],
    ids=["sdt-inline", "sdt-block", "fldSimple", "complex-field", "wrappers", "breaks", "special-chars"],
)
def test_inline_structures(tmp_path: Path, body: str, expected: str) -> None:
    doc = load(build_docx(tmp_path / "x.docx", body))
    assert doc.text == expected
    assert doc.ready, doc.reasons


def test_text_box_is_read_once_not_also_its_fallback(tmp_path: Path) -> None:
    """A DrawingML text box with a VML fallback copy: its text appears once, after its paragraph."""
    box = (
        '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic><a:graphicData>'
        "<wps:wsp><wps:txbx><w:txbxContent>"
        + p("Boxed note: liability is capped.")
        + "</w:txbxContent></wps:txbx></wps:wsp>"
        "</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox>"
        "<w:txbxContent>"
        + p("Boxed note: liability is capped.")
        + "</w:txbxContent></v:textbox></v:shape></w:pict>"
        "</mc:Fallback></mc:AlternateContent></w:r>"
    )
    doc = load(build_docx(tmp_path / "b.docx", p("Anchor ", box, "paragraph.") + p("Next.")))
    assert doc.text == "Anchor paragraph.\nBoxed note: liability is capped.\nNext."
    assert doc.text.count("liability is capped") == 1
    assert [g["kind"] for g in doc.metadata["regions"]] == ["textbox"]
    assert doc.ready and doc.fidelity.value == 1.0


def test_footnotes_and_endnotes_follow_the_body(tmp_path: Path) -> None:
    """Referenced notes come after the body, each a marked region; unreferenced ones are not read."""
    body = p(
        "Fees are net",
        '<w:r><w:footnoteReference w:id="1"/></w:r>',
        " of tax",
        '<w:r><w:endnoteReference w:id="1"/></w:r>',
        ".",
    )
    path = build_docx(
        tmp_path / "f.docx",
        body,
        footnotes={1: "Excluding VAT.", 2: "Never referenced."},
        endnotes={1: "As amended."},
    )
    doc = load(path)
    assert doc.text == "Fees are net of tax.\n\n Excluding VAT.\n\n As amended."
    regions = {g["kind"]: doc.text[g["start"] : g["end"]] for g in doc.metadata["regions"]}
    assert regions == {"footnote": " Excluding VAT.", "endnote": " As amended."}
    assert "Never referenced" not in doc.text
    assert doc.ready and doc.fidelity.value == 1.0


def test_headers_and_footers_are_marked_furniture_outside_the_clauses(tmp_path: Path) -> None:
    """python-docx header/footer text is appended after the body as furniture, never inside a section."""
    d = docx.Document()
    d.sections[0].header.paragraphs[0].text = "CONFIDENTIAL - DRAFT"
    d.sections[0].footer.paragraphs[0].text = "Northwind MSA v3"
    d.add_paragraph("1. Scope. The Supplier provides the Services.")
    d.add_paragraph("2. Term. Two years.")
    path = tmp_path / "hf.docx"
    d.save(str(path))
    doc = load(path)
    kinds = {f.kind: doc.text[f.start : f.end] for f in doc.furniture}
    assert kinds == {"header": "CONFIDENTIAL - DRAFT", "footer": "Northwind MSA v3"}
    body_end = doc.metadata["body_end"]
    assert all(f.start >= body_end for f in doc.furniture)
    assert all(s.end <= body_end for s in doc.sections)
    assert [s.label for s in doc.sections] == ["1", "2"]


def test_headers_of_every_section_are_read_once(tmp_path: Path) -> None:
    """A section break in the body (w:pPr/w:sectPr) brings its own header; a shared header is read once."""
    first_section = '<w:pPr><w:sectPr><w:headerReference w:type="default" r:id="rIdH0"/></w:sectPr></w:pPr>'
    body = (
        f"<w:p>{first_section}{r('Part one.')}</w:p>"
        + p("Part two.")
        + '<w:sectPr><w:headerReference w:type="default" r:id="rIdH1"/>'
        '<w:headerReference w:type="first" r:id="rIdH0"/></w:sectPr>'
    )
    path = build_docx(tmp_path / "s.docx", body, headers=[p("Header A"), p("Header B")], sect_refs=False)
    doc = load(path)
    assert [doc.text[f.start : f.end] for f in doc.furniture] == ["Header A", "Header B"]
    assert doc.text == "Part one.\nPart two.\n\nHeader A\n\nHeader B"


def test_toc_field_lines_are_not_sections(tmp_path: Path) -> None:
    """Table-of-contents entries (a TOC field's result) are text, not clauses."""
    toc = p(
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> TOC \\o "1-3" </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r>',
        "1.\tDefinitions\t1",
    ) + p("2.\tTerm\t2", '<w:r><w:fldChar w:fldCharType="end"/></w:r>')
    body = toc + p("Definitions", num=(1, 0)) + p("Term", num=(1, 0))
    doc = load(build_docx(tmp_path / "toc.docx", body, numbering=CONTRACT_NUMBERING))
    assert [s.label for s in doc.sections] == ["1", "2"] and all(s.generated for s in doc.sections)
    assert "toc" in [g["kind"] for g in doc.metadata["regions"]]


# ---- tracked changes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "accepted", "original"),
    [
        # an insertion and a deletion in one sentence: never "liable for  losses"
        (
            p("The Supplier is liable for ", ins("direct "), dele("all "), "losses."),
            "The Supplier is liable for direct losses.",
            "The Supplier is liable for all losses.",
        ),
        # a move: the moved words appear once, at the destination (accepted) or the source (original)
        (
            p("Alpha ", dele("Beta ", "moveFrom"), "Gamma ", ins("Beta ", "moveTo"), "end."),
            "Alpha Gamma Beta end.",
            "Alpha Beta Gamma end.",
        ),
        # an inserted paragraph (its mark inserted): absent from the original
        (
            p("One.", mark="ins") + p(ins("Inserted clause.")) + p("Two."),
            "One.\nInserted clause.\nTwo.",
            "One.\nTwo.",
        ),
        # a deleted paragraph (its runs and its mark deleted): absent from the accepted view
        (
            p("One.") + p(dele("Deleted clause."), mark="del") + p("Two."),
            "One.\nTwo.",
            "One.\nDeleted clause.\nTwo.",
        ),
        # a deleted paragraph mark joins two paragraphs, as Word shows it
        (
            p("First half", mark="del") + p(" second half."),
            "First half second half.",
            "First half\n second half.",
        ),
    ],
    ids=["ins-del", "move", "inserted-paragraph", "deleted-paragraph", "joined-paragraphs"],
)
def test_tracked_change_views(tmp_path: Path, body: str, accepted: str, original: str) -> None:
    path = build_docx(tmp_path / "tc.docx", body)
    a, o = load(path), load(path, view="original")
    assert (a.text, o.text) == (accepted, original)
    assert a.view == "accepted" and o.view == "original"
    assert a.ready and o.ready, (a.reasons, o.reasons)
    assert a.fidelity.value == 1.0 and o.fidelity.value == 1.0


def test_python_docx_reads_neither_view_of_a_tracked_edit(tmp_path: Path) -> None:
    """python-docx's Paragraph.text drops both the insertion and the deletion; each view keeps one."""
    path = build_docx(
        tmp_path / "e.docx", p("The Supplier is liable for ", ins("direct "), dele("all "), "losses.")
    )
    theirs = docx.Document(str(path)).paragraphs[0].text
    assert "direct" not in theirs and "all" not in theirs
    assert load(path).text == "The Supplier is liable for direct losses."
    assert load(path, view="original").text == "The Supplier is liable for all losses."


def test_original_view_of_a_redline_equals_the_first_version(tmp_path: Path) -> None:
    """v2 = v1 redlined (numbered clause inserted, words changed, a clause deleted and one moved):
    original(v2) == v1 and accepted(v2) == the clean v3, labels and all."""
    n = CONTRACT_NUMBERING
    v1 = (
        p("Definitions", num=(1, 0))
        + p('"Services" means the services in Schedule 1.', num=(1, 1))
        + p("Liability", num=(1, 0))
        + p("The Supplier is liable for all losses.", num=(1, 1))
        + p("Neither party excludes liability for fraud.", num=(1, 1))
        + p("Payment is due in 30 days.", num=(1, 1))
        + p("Term", num=(1, 0))
    )
    v2 = (
        p("Definitions", num=(1, 0))
        + p('"Services" means the services in Schedule 1.', num=(1, 1), mark="ins")
        + p(ins('"Fees" means the charges in Schedule 2.'), num=(1, 1))
        + p("Liability", num=(1, 0))
        + p(
            "The Supplier is liable for ",
            dele("all "),
            ins("direct "),
            "losses",
            ins(" only"),
            ".",
            num=(1, 1),
        )
        + p(dele("Neither party excludes liability for fraud."), num=(1, 1), mark="del")
        + p("Payment is due in ", dele("30", "del"), ins("45"), " days.", num=(1, 1))
        + p("Term", num=(1, 0))
    )
    v3 = (
        p("Definitions", num=(1, 0))
        + p('"Services" means the services in Schedule 1.', num=(1, 1))
        + p('"Fees" means the charges in Schedule 2.', num=(1, 1))
        + p("Liability", num=(1, 0))
        + p("The Supplier is liable for direct losses only.", num=(1, 1))
        + p("Payment is due in 45 days.", num=(1, 1))
        + p("Term", num=(1, 0))
    )
    d1, d2, d3 = (
        load(build_docx(tmp_path / f"v{i}.docx", b, numbering=n)) for i, b in ((1, v1), (2, v2), (3, v3))
    )
    original = load(tmp_path / "v2.docx", view="original")
    assert original.text == d1.text
    assert [s.label for s in original.sections] == [s.label for s in d1.sections]
    assert d2.text == d3.text
    assert [s.label for s in d2.sections] == ["1", "1.1", "1.2", "2", "2.1", "2.2", "3"]
    assert "3.\tTerm" in original.text and '1.2\t"Fees"' in d2.text
    assert "all" not in d2.text.split("liable for")[1][:10] and "fraud" not in d2.text
    assert d2.ready and original.ready


def test_paragraph_property_change_is_read_in_the_original_view(tmp_path: Path) -> None:
    """Numbering added as a tracked formatting change (w:pPrChange) is absent in the original view."""
    change = '<w:pPrChange w:id="5" w:author="A" w:date="2024-01-01T00:00:00Z"><w:pPr/></w:pPrChange>'
    body = p("Scope", num=(1, 0), ppr_extra=change) + p("Body text.")
    path = build_docx(tmp_path / "ppr.docx", body, numbering=CONTRACT_NUMBERING)
    assert load(path).text.startswith("1.\tScope")
    original = load(path, view="original")
    assert original.text.startswith("Scope\n") and original.sections_expected == 0


# ---- fidelity and coverage -------------------------------------------------------------------------------


def _numbered_contract(tmp_path: Path, clauses: int = 40) -> Path:
    body = ""
    for i in range(clauses):
        body += p(f"Heading {i}", num=(1, 0))
        body += p(f"The Supplier shall perform obligation {i} with reasonable skill and care.", num=(1, 1))
        body += p("Background sentence without numbering that explains the commercial context.")
    return build_docx(tmp_path / "c.docx", body, numbering=CONTRACT_NUMBERING)


def test_python_docx_reading_has_high_fidelity_but_fails_coverage(tmp_path: Path) -> None:
    """A python-docx paragraph join has every character yet no label: only the coverage check sees it."""
    path = _numbered_contract(tmp_path)
    doc = load(path)
    joined = "\n".join(par.text for par in docx.Document(str(path)).paragraphs)
    with zipfile.ZipFile(path) as z:
        reference = docx_reference_text([etree.fromstring(z.read("word/document.xml"))], view="accepted")
    assert docx_text_fidelity(joined, (), reference).value == 1.0  # every character of every w:t…
    assert docx_char_agreement(joined, doc.text)[1] < 0.97  # …yet the labels (5% of our text) are gone
    pydocx_sections = detect_sections(joined).sections
    reason = docx_coverage_reason(pydocx_sections, doc.sections_expected or 0)
    assert reason == (
        "found 0 of 80 numbered clauses (the document numbers 80 paragraphs automatically; "
        "a reading that misses their labels cannot locate them)"
    )
    assert docx_coverage_reason(doc.sections, doc.sections_expected or 0) is None
    assert doc.ready and len(doc.sections) == 80


def test_fidelity_below_threshold_withholds_with_a_reason() -> None:
    """Text missing from the canonical reading lowers fidelity below 99.5% and says why."""
    reference = "The Supplier shall indemnify the Customer. " * 50
    fid = docx_text_fidelity(reference[: len(reference) // 2], (), reference)
    assert fid.value < 0.995 and fid.method == "docx-wt-multiset"
    reason = docx_fidelity_reason(fid)
    assert reason is not None and reason.startswith("text fidelity 66.")


def test_embedded_alt_chunk_is_withheld(tmp_path: Path) -> None:
    """Text in a w:altChunk part is not read, so the document says so and is withheld."""
    doc = load(build_docx(tmp_path / "a.docx", p("Main text.") + '<w:altChunk r:id="rIdAlt"/>'))
    assert doc.status == "withheld"
    assert doc.reasons[0].startswith("the document embeds 1 foreign part(s) (w:altChunk)")


def test_same_bytes_same_text(tmp_path: Path) -> None:
    """Loading twice gives the same text, hash and offsets."""
    path = _numbered_contract(tmp_path, clauses=5)
    a, b = load(path), load(path)
    assert a.text_sha256 == b.text_sha256 and a.sections == b.sections and a.generated == b.generated


# ---- bad input -------------------------------------------------------------------------------------------


def _good(tmp_path: Path) -> Path:
    return build_docx(tmp_path / "bad.docx", p("Text."))


def _truncated(tmp_path: Path) -> Path:
    path = _good(tmp_path)
    path.write_bytes(path.read_bytes()[:300])
    return path


def _not_zip(tmp_path: Path) -> Path:
    path = tmp_path / "bad.docx"
    path.write_text("just some text, not a package")
    return path


def _no_document(tmp_path: Path) -> Path:
    path = tmp_path / "bad.docx"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/workbook.xml", "<workbook/>")
    return path


def _doctype(tmp_path: Path) -> Path:
    hostile = (
        '<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
        f'<w:document xmlns:w="{"http://schemas.openxmlformats.org/wordprocessingml/2006/main"}">'
        "<w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>"
    ).encode()
    return replace_part(_good(tmp_path), "word/document.xml", hostile)


def _malformed(tmp_path: Path) -> Path:
    return replace_part(_good(tmp_path), "word/document.xml", b"<w:document><w:body>")


def _encrypted(tmp_path: Path) -> Path:
    path = tmp_path / "bad.docx"
    path.write_bytes(
        compound_file({"EncryptionInfo": b"\x04\x00\x04\x00\x40", "EncryptedPackage": b"\x93" * 6000})
    )
    return path


def _legacy_doc(tmp_path: Path) -> Path:
    path = tmp_path / "bad.docx"
    path.write_bytes(compound_file({"WordDocument": b"\xec\xa5" + b"\0" * 5000, "1Table": b"\0" * 100}))
    return path


def _pdf(tmp_path: Path) -> Path:
    path = tmp_path / "bad.docx"
    path.write_bytes(b"%PDF-1.7\n%\xe2\xe3\n1 0 obj<<>>endobj\n")
    return path


BAD = [
    (
        _truncated,
        CorruptFileError,
        "bad.docx: the DOCX package is truncated or corrupt (its ZIP directory cannot be read)",
    ),
    (
        _not_zip,
        CorruptFileError,
        "bad.docx: not a DOCX package (expected a ZIP-based Word file; it does not start with a ZIP header)",
    ),
    (
        _no_document,
        CorruptFileError,
        "bad.docx: not a Word document (the package has no word/document.xml; expected a .docx)",
    ),
    (
        _doctype,
        CorruptFileError,
        "bad.docx: word/document.xml declares a DOCTYPE or entities (refused: a DOCX part never needs one, "
        "and external entities are never resolved)",
    ),
    (_malformed, CorruptFileError, "bad.docx: word/document.xml is not well-formed XML"),
    (
        _encrypted,
        EncryptedFileError,
        "bad.docx: the document is password-protected (an encrypted Office file); "
        "remove the password in Word and save it again",
    ),
    (
        _legacy_doc,
        IngestError,
        "bad.docx: this is a legacy Word 97-2003 .doc file named .docx (expected a .docx package); "
        "open it in Word and save it as .docx",
    ),
    (_pdf, CorruptFileError, "bad.docx: this is a PDF named .docx (expected a DOCX package); rename it"),
]
BAD_IDS = [
    "truncated",
    "not-zip",
    "no-document-xml",
    "doctype-xxe",
    "malformed-xml",
    "encrypted",
    "legacy-doc",
    "pdf",
]


@pytest.mark.parametrize(("make", "error", "message"), BAD, ids=BAD_IDS)
def test_bad_input_raises_one_clear_error(tmp_path: Path, make, error, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error) as exc:
        load(make(tmp_path))
    assert str(exc.value).startswith(message)


@pytest.mark.parametrize(("make", "error", "message"), BAD, ids=BAD_IDS)
def test_bad_input_on_the_cli_is_one_error_line_exit_3(tmp_path: Path, make, error, message) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(app, ["ingest", str(make(tmp_path))])
    assert result.exit_code == 3
    assert result.output.startswith("Error: " + message) and result.output.count("\n") == 1
    assert "Traceback" not in result.output


def test_zip_bomb_is_refused_by_inflated_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package inflating past the limit is refused before any part is read (limit lowered: small test)."""
    monkeypatch.setattr(word_package, "MAX_INFLATED_BYTES", 1_000_000)
    path = _good(tmp_path)
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/media/bomb.bin", b"\0" * 3_000_000)
    assert path.stat().st_size < 100_000  # a real high-ratio member
    with pytest.raises(
        CorruptFileError,
        match=r"^bad\.docx: the DOCX package inflates to \d+ bytes \(limit 1000000\); "
        r"refused as a possible zip bomb$",
    ):
        load(path)


def test_zip_bomb_is_refused_by_member_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package with more parts than the limit is refused."""
    monkeypatch.setattr(word_package, "MAX_MEMBERS", 50)
    path = _good(tmp_path)
    with zipfile.ZipFile(path, "a") as z:
        for i in range(60):
            z.writestr(f"word/media/x{i}.bin", b"")
    with pytest.raises(
        CorruptFileError, match=r"has \d+ parts \(limit 50\); refused as a possible zip bomb$"
    ):
        load(path)


# ---- CLI -------------------------------------------------------------------------------------------------


def test_cli_ingest_json_shows_generated_numbering_and_sections(tmp_path: Path) -> None:
    """`citationgate ingest file.docx --format json`: generated labels, sections with offsets, view."""
    body = (
        p("Definitions", num=(1, 0))
        + p('"Fees" means the charges.', num=(1, 1))
        + p("Liability", num=(1, 0))
        + p("Each party is liable for ", ins("direct "), dele("all "), "losses.", num=(1, 1))
    )
    path = build_docx(tmp_path / "msa.docx", body, numbering=CONTRACT_NUMBERING)
    result = runner.invoke(app, ["ingest", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "ready" and data["view"] == "accepted" and data["file_type"] == "docx"
    assert [(s["label"], s["heading"], s["level"], s["kind"]) for s in data["sections"]] == [
        ("1", "Definitions", 1, "clause"),
        ("1.1", "", 2, "definition"),
        ("2", "Liability", 1, "clause"),
        ("2.1", "", 2, "clause"),
    ]
    text = data["text"]
    assert [text[g["start"] : g["end"]] for g in data["generated"]] == ["1.", "1.1", "2.", "2.1"]
    assert all(s["generated"] for s in data["sections"])
    assert data["sections_expected"] == 4 and data["fidelity"]["method"] == "docx-wt-multiset"
    assert "liable for direct losses." in text and "all losses" not in text
    original = runner.invoke(app, ["ingest", str(path), "--view", "original", "--format", "json"])
    assert "liable for all losses." in json.loads(original.stdout)["text"]


def test_map_docx_body_gives_the_run_child_behind_every_character(tmp_path: Path) -> None:
    """The body map's text is the document's body text; each piece slices to its element's text, and
    what no piece covers is generated (numbering labels, paragraph and cell separators)."""
    import docx as python_docx

    from ingest.word import map_docx_body

    body = (
        p("Limitation", num=(1, 0))
        + p(r("Each party's "), r("liability", bold=True), "<w:r><w:tab/></w:r>", r("is capped."), num=(1, 1))
        + table([["a cell", "another"]])
        + p(ins("inserted words"), dele(" deleted words"))
    )
    path = build_docx(tmp_path / "m.docx", body, numbering=CONTRACT_NUMBERING)
    data = path.read_bytes()
    for view in ("accepted", "original"):
        doc = load(path, view=view)
        word = python_docx.Document(str(path))
        m = map_docx_body(path.name, data, word.element.body, view=view)
        assert m.text == doc.text[: doc.metadata["body_end"]]
        covered = set()
        for start, end, el in m.pieces:
            piece = m.text[start:end]
            if el.tag.endswith(("}t", "}delText")):
                assert piece == el.text
            else:
                assert piece in ("\t", "\n") and el.tag.endswith(("}tab", "}br"))
            covered.update(range(start, end))
        generated = {i for g in m.generated for i in range(g.start, g.end)}
        assert all(i in generated or m.text[i] in "\t\n" for i in set(range(len(m.text))) - covered)
