"""PDF ingest: real PDFs built with fpdf2 — pages, furniture, columns, scans, encryption, damage, CLI."""

from __future__ import annotations

import io
import json
import logging
import re
import struct
import zlib
from pathlib import Path

import pytest
from fpdf import FPDF
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from citationgate.cli import app
from ingest import CorruptFileError, Document, EncryptedFileError, load_document
from ingest.fidelity import pdf_bad_characters, pdf_page_similarity, pdf_prepared
from ingest.furniture import find_furniture, is_page_number
from tests.pdf_fixtures import check

runner = CliRunner()

CLAUSES = [
    ("1. Definitions", "In this Agreement the following terms have the meanings given below. " * 6),
    ("2. Services", "The Supplier shall provide the Services with reasonable skill and care. " * 8),
    ("3. Fees", "The Customer shall pay the Fees within thirty days of receipt of a valid invoice. " * 8),
    ("4. Term", "This Agreement starts on the Effective Date and continues for two years. " * 8),
    (
        "5. Liability",
        "Neither party limits its liability for death or personal injury caused by negligence. " * 8,
    ),
    ("6. Governing Law", "This Agreement is governed by the laws of England and Wales. " * 6),
]


class _Contract(FPDF):
    """A contract with a running header, a running footer and 'Page n of N' numbers."""

    def header(self) -> None:
        self.set_font("Helvetica", size=8)
        self.cell(0, 6, "ACME Master Services Agreement - Confidential", new_x="LMARGIN", new_y="NEXT")

    def footer(self) -> None:
        self.set_y(-15)
        self.set_font("Helvetica", size=8)
        self.cell(0, 6, f"Page {self.page_no()} of {{nb}}", align="C")


def _contract_pdf() -> bytes:
    pdf = _Contract()
    pdf.alias_nb_pages()
    pdf.add_page()
    for i, (heading, body) in enumerate(CLAUSES):
        if i in (2, 4):
            pdf.add_page()  # three pages, whatever the font metrics
        pdf.set_font("Helvetica", style="B", size=11)
        pdf.multi_cell(0, 6, heading, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 6, body.strip(), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _png(width: int, height: int) -> bytes:
    """A small grey-gradient PNG written by hand (zlib + struct), so the test needs no image library."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        )

    rows = b"".join(b"\x00" + bytes((x * 7 + y * 3) % 256 for x in range(width)) for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


@pytest.fixture(scope="module")
def contract(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("pdf") / "msa.pdf"
    path.write_bytes(_contract_pdf())
    return load_document(path)


def test_multi_page_contract_is_ready_with_pages_and_sections(contract: Document) -> None:
    """Several pages; each Page range slices its own text; pages are joined by one line break."""
    assert contract.status == "ready", contract.reasons
    assert contract.file_type == "pdf"
    assert len(contract.pages) >= 3
    assert [p.number for p in contract.pages] == list(range(1, len(contract.pages) + 1))
    assert contract.pages[0].start == 0 and contract.pages[-1].end == len(contract.text)
    for a, b in zip(contract.pages, contract.pages[1:], strict=False):
        assert b.start == a.end + 1 and contract.text[a.end] == "\n"
    assert [s.label for s in contract.sections] == ["1", "2", "3", "4", "5", "6"]
    assert contract.fidelity.value >= 0.995 and contract.fidelity.method == "pdfium-page-indel"
    assert "lowest page" in contract.fidelity.detail


def test_running_header_footer_and_page_numbers_are_furniture_not_deleted(contract: Document) -> None:
    """Each page's header and 'Page n of N' footer is a furniture span; the text still holds them."""
    marked = [contract.text[f.start : f.end] for f in contract.furniture]
    n = len(contract.pages)
    assert marked.count("ACME Master Services Agreement - Confidential") == n
    assert [m for m in marked if m.startswith("Page ")] == [f"Page {i} of {n}" for i in range(1, n + 1)]
    assert all(f.kind == "furniture" for f in contract.furniture)
    for f in contract.furniture:  # each furniture line lies inside one page
        page = contract.pages[contract.page_of(f.start) - 1]  # type: ignore[operator]
        assert page.start <= f.start < f.end <= page.end
    assert contract.text.count("ACME Master Services Agreement - Confidential") == n
    assert not any(s.start in {f.start for f in contract.furniture} for s in contract.sections)


def test_page_of_maps_clauses_to_their_pages(contract: Document) -> None:
    """page_of(offset) agrees with the page whose range holds the offset, for the last clause too."""
    start = contract.text.index("6. Governing Law")
    last = contract.pages[-1]
    expected = next(p.number for p in contract.pages if p.start <= start < p.end)
    assert contract.page_of(start) == expected
    assert contract.page_of(0) == 1
    assert contract.page_of(last.end - 1) == last.number


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_offset_maps_to_the_page_that_holds_it(contract: Document, data: st.DataObject) -> None:
    """Property: for any offset inside a page's range, page_of returns that page's number."""
    page = data.draw(st.sampled_from(contract.pages))
    if page.end > page.start:
        offset = data.draw(st.integers(page.start, page.end - 1))
        assert contract.page_of(offset) == page.number


def test_same_bytes_same_text_and_offsets(tmp_path: Path) -> None:
    """Reading is deterministic: same bytes, same text, hash, pages and furniture."""
    p = _write(tmp_path, "a.pdf", _contract_pdf())
    a, b = load_document(p), load_document(p)
    assert (a.text, a.text_sha256, a.pages, a.furniture, a.sections) == (
        b.text,
        b.text_sha256,
        b.pages,
        b.furniture,
        b.sections,
    )


def test_two_columns_are_not_interleaved(tmp_path: Path) -> None:
    """A two-column page: a sentence of column 1 reads continuously in the canonical text."""
    left = (
        "The Supplier shall deliver the Goods to the Delivery Point on the Delivery Date and shall bear "
        "all risk in the Goods until delivery is complete under this clause."
    )
    right = (
        "The Customer may reject any Goods that do not conform to the Specification by written notice "
        "given within ten Business Days after the Goods are delivered."
    )
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.set_xy(10, 20)
    pdf.multi_cell(90, 6, left)
    pdf.set_xy(110, 20)
    pdf.multi_cell(90, 6, right)
    doc = load_document(_write(tmp_path, "columns.pdf", bytes(pdf.output())))
    flat = re.sub(r"\s+", " ", doc.text)
    assert left in flat
    assert right in flat
    assert doc.status == "ready", doc.reasons


def test_scanned_page_withholds_the_document_naming_the_page(tmp_path: Path) -> None:
    """Page 2 is only an image (a scan): the document is withheld, the reason names page 2."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.multi_cell(0, 6, "1. Services. The Supplier shall provide the Services described in Schedule 1. " * 4)
    pdf.add_page()
    pdf.image(io.BytesIO(_png(120, 160)), x=10, y=10, w=190, h=270)
    pdf.add_page()
    pdf.multi_cell(0, 6, "2. Fees. The Customer shall pay the Fees set out in Schedule 2. " * 4)
    doc = load_document(_write(tmp_path, "scan.pdf", bytes(pdf.output())))
    assert doc.status == "withheld"
    assert doc.reasons == ("page 2 has no text layer (it is an image); OCR it first",)


def test_blank_page_is_noted_not_withheld(tmp_path: Path) -> None:
    """An empty page (no text, no image) is a note, not a reason to withhold."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.multi_cell(0, 6, "1. Services. The Supplier shall provide the Services described in Schedule 1. " * 4)
    pdf.add_page()
    doc = load_document(_write(tmp_path, "blank.pdf", bytes(pdf.output())))
    assert doc.status == "ready", doc.reasons
    assert "blank page: 2" in doc.notes


def _encrypted(user_password: str) -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.multi_cell(0, 6, "1. Confidentiality. Each party shall keep the other's information confidential.")
    pdf.set_encryption(owner_password="owner-secret", user_password=user_password)
    return bytes(pdf.output())


def test_password_protected_pdf_is_a_clear_error(tmp_path: Path) -> None:
    """A user password we do not have: one EncryptedFileError naming the file."""
    with pytest.raises(EncryptedFileError) as err:
        load_document(_write(tmp_path, "x.pdf", _encrypted("s3cret")))
    assert str(err.value) == "x.pdf: the PDF is password-protected; remove the password and try again"
    assert err.value.exit_code == 3


def test_pdf_encrypted_with_an_empty_user_password_is_read(tmp_path: Path) -> None:
    """Permissions-only encryption (empty user password) opens and reads normally."""
    doc = load_document(_write(tmp_path, "perm.pdf", _encrypted("")))
    assert doc.status == "ready", doc.reasons
    assert "Each party shall keep the other's information confidential." in re.sub(r"\s+", " ", doc.text)


def _damaged_cases() -> list[tuple[bytes, str]]:
    good = _contract_pdf()
    return [
        (good[: len(good) // 2], "the PDF is truncated"),
        (
            good[:200] + b"\x00garbage" * 50 + b"\n%%EOF\n",
            "the PDF is damaged or truncated and cannot be read",
        ),
        (b"%PDF-1.7\n%%EOF\n", "the PDF is damaged or truncated and cannot be read"),
        (b"PK\x03\x04 this is a zip, not a pdf", "not a PDF file"),
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    _damaged_cases(),
    ids=["truncated-half", "garbage-body", "header-only", "not-a-pdf"],
)
def test_damaged_pdf_is_one_clear_error(
    tmp_path: Path, data: bytes, message: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Truncated or corrupt bytes: one CorruptFileError naming the file; pypdf logs nothing."""
    with caplog.at_level(logging.WARNING), pytest.raises(CorruptFileError) as err:
        load_document(_write(tmp_path, "bad.pdf", data))
    assert str(err.value).startswith("bad.pdf: ")
    assert message in str(err.value)
    assert not [r for r in caplog.records if r.name.startswith("pypdf")]


def test_cli_ingest_json_has_pages(tmp_path: Path) -> None:
    """`ingest x.pdf --format json`: pages with number/start/end, furniture, status ready, exit 0."""
    p = _write(tmp_path, "msa.pdf", _contract_pdf())
    result = runner.invoke(app, ["ingest", str(p), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "ready"
    assert data["pages"][0] == {"number": 1, "start": 0, "end": data["pages"][0]["end"]}
    assert all(set(pg) == {"number", "start", "end"} for pg in data["pages"])
    assert {f["kind"] for f in data["furniture"]} == {"furniture"}


def test_cli_withheld_scan_exits_5(tmp_path: Path) -> None:
    """A scanned page: stored, withheld, exit code 5, and the reason names the page."""
    pdf = FPDF()
    pdf.add_page()
    pdf.image(io.BytesIO(_png(64, 64)), x=0, y=0, w=210, h=297)
    p = _write(tmp_path, "scan.pdf", bytes(pdf.output()))
    result = runner.invoke(app, ["ingest", str(p), "--format", "json"])
    assert result.exit_code == 5
    data = json.loads(result.stdout)
    assert data["status"] == "withheld"
    assert data["reasons"] == ["page 1 has no text layer (it is an image); OCR it first"]


def test_cli_password_error_is_one_line(tmp_path: Path) -> None:
    """The CLI shows `Error: …` and exits 3 for a password-protected PDF — no traceback."""
    p = _write(tmp_path, "x.pdf", _encrypted("s3cret"))
    result = runner.invoke(app, ["ingest", str(p)])
    assert result.exit_code == 3
    assert result.stderr == "Error: x.pdf: the PDF is password-protected; remove the password and try again\n"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("3", True),  # a bare number
        ("- 3 -", True),  # dashed
        ("-12-", True),
        ("Page 3 of 12", True),
        ("page 3", True),
        ("3 of 12", True),
        ("iv", True),  # lower-case roman front matter
        ("1.", False),  # a clause number on its own line
        ("2.1", False),
        ("V", False),  # upper-case roman: more likely "ARTICLE V" split
        ("civil", False),  # a word made of roman letters
        ("30 days", False),
    ],
    ids=lambda v: repr(v),
)
def test_page_number_shapes(line: str, expected: bool) -> None:
    """What counts as a bare page-number line."""
    assert is_page_number(line) is expected


def test_running_lines_need_to_repeat_and_carry_letters() -> None:
    """A masked line repeated on most pages is furniture; clause numbers like '1.' never are."""
    bodies = ["The Supplier delivers.", "Fees are due.", "Either party may end it.", "Law: Ohio.", "Notices."]
    pages = [f"Source: ACME INC, 10-K, {i}/1/2020\n{i}.\n{b}\n{i}" for i, b in enumerate(bodies, start=1)]
    marks = find_furniture(pages)
    for i, (page, ranges) in enumerate(zip(pages, marks, strict=True), start=1):
        assert [page[a:b] for a, b in ranges] == [f"Source: ACME INC, 10-K, {i}/1/2020", str(i)]


@pytest.mark.parametrize(
    ("a", "b", "similar"),
    [
        ("The Supplier shall pay.", "The  Supplier\nshall pay.", 1.0),  # whitespace is ignored
        ("abcd", "abXd", 0.75),  # one substitution = one deletion + one insertion of 8
        ("", "", 1.0),
    ],
    ids=["whitespace", "one-change", "empty"],
)
def test_page_similarity(a: str, b: str, similar: float) -> None:
    """Indel similarity of whitespace-stripped text."""
    d, t = pdf_page_similarity(pdf_prepared(a), pdf_prepared(b))
    assert (1.0 - d / t if t else 1.0) == pytest.approx(similar)


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("plain text", 0),
        ("a\ufffdb", 1),
        ("x(cid:12)(cid:7)y", 2),
        ("\ue000\x01", 2),
        ("tab\tand\nbreak\f", 0),
    ],
    ids=["clean", "replacement", "cid", "private-and-control", "whitespace-is-fine"],
)
def test_bad_character_count(text: str, bad: int) -> None:
    """Unreadable glyphs both readers would share are counted."""
    assert pdf_bad_characters(text) == bad


@pytest.mark.data
@pytest.mark.parametrize("doc_id", ["cuad_093", "cuad_439", "cuad_247"])
def test_real_cuad_pdfs_ingest_and_offsets_map_to_pages(shared_data: Path, doc_id: str) -> None:
    """Real filings: ready, high fidelity, page ranges tile the text, sections inside the text."""
    doc = load_document(shared_data / "cuad" / "pdf" / f"{doc_id}.pdf")
    assert doc.status == "ready", doc.reasons
    assert doc.fidelity.value >= 0.995
    assert doc.pages[0].start == 0 and doc.pages[-1].end == len(doc.text)
    for p in doc.pages:
        if p.end > p.start:
            assert doc.page_of(p.start) == p.number and doc.page_of(p.end - 1) == p.number
    for s in doc.sections:
        assert 0 <= s.start < s.end <= len(doc.text)


def _outlined(third_heading: str) -> bytes:
    """Three bookmarked clauses; the third's printed heading is given (numbered or not)."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    clauses = [
        ("1. Scope", "1. Scope", "The Supplier shall provide the Services."),
        ("2. Fees", "2. Fees", "Fees are due in thirty days."),
        ("3. Term", third_heading, "The term is one year, renewing each year."),
    ]
    for bookmark, heading, body in clauses:
        pdf.start_section(bookmark)
        pdf.multi_cell(0, 6, f"{heading}\n{body}", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


@pytest.mark.parametrize(
    ("third_heading", "status", "found"),
    [("3. Term", "ready", 3), ("Term", "withheld", 2)],
    ids=["outline-matched", "fewer-than-outline"],
)
def test_sections_expected_come_from_the_outline(
    tmp_path: Path, third_heading: str, status: str, found: int
) -> None:
    """The outline counts the sections; finding fewer than it lists withholds the document."""
    doc = load_document(_write(tmp_path, "outlined.pdf", _outlined(third_heading)))
    assert doc.sections_expected == 3
    assert len(doc.sections) == found
    assert doc.status == status
    if status == "withheld":
        assert doc.reasons == (
            "found 2 sections but the PDF's outline lists 3; part of its structure was not read",
        )


def test_no_outline_means_sections_expected_unknown(contract: Document) -> None:
    """Without bookmarks there is nothing independent to count: None, and a note says so."""
    assert contract.sections_expected is None
    assert any("no outline" in n for n in contract.notes)


def test_text_drawn_as_shapes_is_withheld(tmp_path: Path) -> None:
    """A page of vector shapes and no text (outlined glyphs) has no text layer either."""
    pdf = FPDF()
    pdf.add_page()
    for i in range(300):
        pdf.rect(10 + (i % 20) * 9, 10 + (i // 20) * 9, 5, 5)
    doc = load_document(_write(tmp_path, "drawn.pdf", bytes(pdf.output())))
    assert doc.reasons == ("page 1 has no text layer (its text is drawn as shapes); OCR it first",)


BODY = "The Supplier shall provide the Services with reasonable skill and care at all times. "


@pytest.mark.parametrize(
    ("pages", "second", "reason"),
    [
        ([BODY * 3, BODY * 3], [BODY * 3, BODY * 3], None),
        (
            [BODY * 3, BODY * 3],
            [BODY * 3, "Something else entirely, read from another page. " * 5],
            "below 99.5%",
        ),
        ([BODY * 3, BODY * 3], [BODY * 3], "disagree on the page count"),
        ([BODY * 3 + "\ufffd" * 20], [BODY * 3 + "\ufffd" * 20], "unreadable glyphs"),
        ([BODY * 3 + "(cid:3)" * 10], [BODY * 3 + "(cid:3)" * 10], "unreadable glyphs"),
    ],
    ids=["agree", "page-differs", "page-count", "replacement-chars", "cid-glyphs"],
)
def test_fidelity_check_and_shared_error_guards(
    pages: list[str], second: list[str], reason: str | None
) -> None:
    """The two readings are compared per page; errors both readers share are caught by guards."""
    value, reasons, detail = check(pages, second)
    if reason is None:
        assert value == 1.0 and reasons == ()
    else:
        assert any(reason in r for r in reasons), reasons
    assert "lowest page" in detail
