"""The PDF fidelity check compares like with like: typeset PDFs built with fpdf2 (two columns, ligatures,
hyphenation, running header and footer) are ready, and the defects the check exists for still withhold."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citationgate import normalize
from citationgate.evaluation.typeset import (
    ligature_font,
    paragraphs_of,
    plant,
    typeset_pdf,
    without_unicode_map,
)
from ingest import load_document, typography
from ingest.fidelity import (
    PDF_MAX_PASSAGE,
    _prepared_with_map,
    pdf_page_similarity,
    pdf_prepared,
)
from ingest.pdf import PdfReadings, check_pdf_readings, read_pdf
from tests.pdf_fixtures import check, check_texts

FONT = ligature_font()
needs_font = pytest.mark.skipif(
    FONT is None, reason="no TTF with ligature glyphs (install fonts-dejavu-core or fonts-liberation)"
)

CLAUSES = [
    "1. Definitions. In this Agreement the defined terms have the meanings given in Schedule 1, and "
    "the Confidential Information of the Disclosing Party includes its financial and officer records.",
    "2. Services. The Supplier shall provide the Services efficiently, with reasonable skill and care, "
    "in accordance with Good Industry Practice and the specifications fixed by the Customer.",
    "3. Fees. The Customer shall pay the Fees within thirty days of receipt of a valid invoice; "
    "affiliates of the Customer may place orders on the same terms, and no offset is permitted.",
    "4. Term. This Agreement starts on the Effective Date and continues for two years unless "
    "terminated earlier in accordance with clause 9 or by the written agreement of both parties.",
    "5. Liability. Neither party limits its liability for death or personal injury caused by its "
    "negligence, for fraud, or for any other liability that cannot be limited by law.",
    "6. Confidentiality. Each party shall keep the other party's Confidential Information confidential "
    "and shall not use it except to perform its obligations or exercise its rights under this Agreement.",
]


def _paragraphs(copies: int) -> list[str]:
    """Distinct clauses (numbered per copy, so no passage repeats word for word)."""
    return [f"Part {c}: " + clause for c in range(1, copies + 1) for clause in CLAUSES]


@pytest.fixture(scope="module")
def typeset(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes, PdfReadings]:
    if FONT is None:
        pytest.skip("no TTF with ligature glyphs (install fonts-dejavu-core or fonts-liberation)")
    data = typeset_pdf("MASTER SUPPLY AGREEMENT", _paragraphs(9), FONT)
    path = tmp_path_factory.mktemp("typeset") / "typeset.pdf"
    path.write_bytes(data)
    return path, data, read_pdf(path.name, data)


def test_the_gate_and_the_fidelity_check_share_one_fold_table() -> None:
    """The table moved into ingest; the gate still uses the very same object."""
    assert normalize.FOLDS is typography.FOLDS
    assert typography.FOLDS["\ufb03"] == "ffi" and typography.FOLDS["\u2014"] == "-"


@pytest.mark.parametrize(
    ("pypdf", "pdfium"),
    [
        ("the \ufb01rst \ufb02oor o\ufb03ce", "the first floor office"),  # ligatures kept vs expanded
        ("the Custom-\ner shall", "the Custom\ufffeer shall"),  # hyphen at a break vs pdfium's marker
        ("the Custom-\ner shall", "the Custom\x02er shall"),  # older pdfium's marker
        ("19-Dec-\n2018", "19-Dec\ufffe\r\n2018"),  # pdfium marks a break before a digit too
        ("\u201cAgreement\u201d \u2014 non\u2011exempt", '"Agreement" - non-exempt'),  # quotes, dashes
        ("net\u00a030\u2009days, soft\u00adhyphen", "net 30 days, softhyphen"),  # spaces, soft hyphen
    ],
    ids=["ligatures", "fffe-marker", "0002-marker", "digit-after-break", "quotes-dashes", "spaces"],
)
def test_both_readings_are_prepared_alike(pypdf: str, pdfium: str) -> None:
    """What the gate treats as the same text, the fidelity check does too."""
    assert pdf_prepared(pypdf) == pdf_prepared(pdfium)


def test_a_hyphen_inside_a_line_is_kept() -> None:
    """Only a hyphen at a line break is dropped; "non-exclusive" on one line keeps it."""
    assert pdf_prepared("a non-exclusive licence") == "anon-exclusivelicence"
    assert pdf_prepared("a non- exclusive") == "anon-exclusive"


#: Letters, digits, every kind of whitespace and line break, ligatures, markers, dashes, quotes.
TRICKY = "ab -\n\r\t\u00a0\u2028\x85\x1c\x1f\ufb01\ufb03\ufffe\x02\u2014\u00ad\u201cZ9"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=TRICKY, max_size=40))
def test_the_excerpt_map_prepares_exactly_as_the_check(text: str) -> None:
    """Property: the slow, mapped preparation (for excerpts) gives the same text as the fast one, and
    every prepared character maps back to a position of the original."""
    prepared, src = _prepared_with_map(text)
    assert prepared == pdf_prepared(text)
    assert len(src) == len(prepared) and all(0 <= i < len(text) for i in src)
    assert src == sorted(src)


def test_furniture_is_cut_from_both_readings_by_content() -> None:
    """pdfium joins the running header to the first body line and the page number to the last:
    looked up by line it stays in pdfium's reading; cut by content, both sides agree."""
    body = "The Supplier shall deliver the Goods on the Delivery Date and bear all risk until then. " * 3
    pages = [f"Source: ACME INC, 10-K, {n}/1/2020\n{body}{n}\n{n}" for n in range(1, 6)]
    second = [f"Source: ACME INC, 10-K, {n}/1/2020 {body}{n} {n}" for n in range(1, 6)]
    result = check_texts(pages, second, [[(0, 24), (len(p) - 1, len(p))] for p in pages])
    assert result.reasons == ()
    assert result.page_similarity == (1.0,) * 5


@needs_font
def test_a_typeset_pdf_is_ready_and_really_carries_the_typography(
    typeset: tuple[Path, bytes, PdfReadings],
) -> None:
    """Two columns, ligature glyphs, hyphenation and running lines: the two readings differ in exactly
    the ways the fold covers, and the document is ready at full fidelity."""
    path, _data, readings = typeset
    pypdf_text, pdfium_text = "".join(readings.pages), "".join(readings.second.pages)
    assert "\ufb01" in pypdf_text and "\ufb01" not in pdfium_text  # pypdf keeps, pdfium expands
    assert "-\n" in pypdf_text and "\ufffe" in pdfium_text  # the same break, read two ways
    doc = load_document(path)
    assert len(doc.pages) >= 3
    assert doc.status == "ready", doc.reasons
    assert doc.fidelity.value == 1.0
    marked = [doc.text[f.start : f.end] for f in doc.furniture]
    assert marked.count("MASTER SUPPLY AGREEMENT \u2014 Confidential") == len(doc.pages)
    assert [m for m in marked if m.startswith("Page ")] == [
        f"Page {n} of {len(doc.pages)}" for n in range(1, len(doc.pages) + 1)
    ]


@needs_font
@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("interleaved-columns", "is below 99.5% against an independent reading"),
        ("dropped-paragraph", "is below 99.5% against an independent reading (pages that disagree: 1)"),
        ("moved-paragraph", "is below 99.5% against an independent reading (pages that disagree: 1)"),
        ("missing-page", "the two PDF readers disagree on the page count"),
    ],
)
def test_the_defects_the_check_exists_for_still_withhold(
    typeset: tuple[Path, bytes, PdfReadings], kind: str, reason: str
) -> None:
    """Each defect planted in the canonical reading of the clean typeset file withholds it, and the
    detail quotes the two sides where they disagree."""
    _path, data, readings = typeset
    planted = plant(kind, data, readings.pages)
    check, _ = check_pdf_readings(planted.pages, readings.second.pages, readings.shapes)
    assert any(reason in r for r in check.reasons), check.reasons
    if kind != "missing-page":
        assert 'pypdf "' in check.fidelity.detail and '" vs pdfium "' in check.fidelity.detail


@needs_font
def test_glyph_garbage_withholds(typeset: tuple[Path, bytes, PdfReadings], tmp_path: Path) -> None:
    """The same file with its fonts' Unicode map removed: both readers return glyph ids; withheld."""
    path = tmp_path / "garbage.pdf"
    path.write_bytes(without_unicode_map(typeset[1]))
    doc = load_document(path)
    assert doc.status == "withheld"
    assert any("unreadable glyphs" in r for r in doc.reasons), doc.reasons


@needs_font
def test_a_dropped_paragraph_withholds_a_long_document(tmp_path: Path) -> None:
    """In a long document one missing paragraph hardly moves the total; the passage rule catches it."""
    assert FONT is not None
    data = typeset_pdf("LONG AGREEMENT", _paragraphs(40), FONT)
    readings = read_pdf("long.pdf", data)
    assert len(readings.pages) >= 10
    planted = plant("dropped-paragraph", data, readings.pages, paragraph=2 * PDF_MAX_PASSAGE)
    check, _ = check_pdf_readings(planted.pages, readings.second.pages, readings.shapes)
    assert check.fidelity.value >= 0.995  # the total alone would let it through
    assert len(check.reasons) == 1
    assert check.reasons[0].startswith(
        f"an independent reading disagrees over a passage of more than {PDF_MAX_PASSAGE} characters"
    )
    assert "on page 1 (" in check.reasons[0]


def test_a_disagreement_is_quoted_from_both_sides() -> None:
    """The detail names the page and shows each reader's words around the disagreement."""
    same = "The Customer shall pay the Fees within thirty days of receipt of a valid invoice. " * 3
    value, _reasons, detail = check(
        [same + "The Supplier shall indemnify the Customer."],
        [same + "The Supplier shall not indemnify anyone."],
    )
    assert value < 1.0
    assert 'page 1: pypdf "' in detail
    assert "indemnify the Customer" in detail and "not indemnify anyone" in detail


def test_page_similarity_of_prepared_text_counts_a_change() -> None:
    """One substituted character among four is one deletion plus one insertion of eight."""
    d, t = pdf_page_similarity(pdf_prepared("ab cd"), pdf_prepared("abXd"))
    assert 1.0 - d / t == pytest.approx(0.75)


@pytest.mark.data
def test_a_real_contract_typeset_is_ready(shared_data: Path, tmp_path: Path) -> None:
    """Real contract text from CUAD, typeset: ready."""
    if FONT is None:
        pytest.skip("no TTF with ligature glyphs (install fonts-dejavu-core or fonts-liberation)")
    text = (shared_data / "cuad" / "texts" / "cuad_007.txt").read_text(encoding="utf-8")
    path = tmp_path / "cuad_007_typeset.pdf"
    path.write_bytes(typeset_pdf("CUAD_007", paragraphs_of(text, 9000), FONT))
    doc = load_document(path)
    assert doc.status == "ready", doc.reasons
