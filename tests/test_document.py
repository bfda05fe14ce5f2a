"""The Document value: page and section lookups by bisection agree with the obvious scans."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.document import Document, Page, Section


def _linear_section_at(doc: Document, offset: int) -> Section | None:
    """The obviously-correct reference: the deepest containing section, the later one among equals."""
    best: Section | None = None
    for s in doc.sections:
        if s.start <= offset < s.end and (best is None or s.level >= best.level):
            best = s
    return best


@st.composite
def _documents(draw: st.DrawFn) -> Document:
    text = draw(st.text(alphabet="ab \n😀𝔄ﬁ", min_size=1, max_size=300))
    n = len(text)
    sections = []
    for i in range(draw(st.integers(0, 12))):
        start = draw(st.integers(0, n - 1))
        end = draw(st.integers(start, n))
        sections.append(
            Section(
                label=str(i), heading="", level=draw(st.integers(0, 4)), kind="clause", start=start, end=end
            )
        )
    return Document(
        name="d.txt", file_type="txt", text=text, source_sha256="0" * 64, sections=tuple(sections)
    )


@settings(max_examples=200, deadline=None)
@given(_documents(), st.data())
def test_section_at_agrees_with_a_linear_scan(doc: Document, data: st.DataObject) -> None:
    offset = data.draw(st.integers(0, len(doc.text)))
    assert doc.section_at(offset) == _linear_section_at(doc, offset)


@settings(max_examples=200, deadline=None)
@given(_documents(), st.data())
def test_utf16_offset_counts_code_units(doc: Document, data: st.DataObject) -> None:
    """An emoji is one code point in Python and two UTF-16 units in a browser."""
    offset = data.draw(st.integers(0, len(doc.text)))
    assert doc.utf16_offset(offset) == len(doc.text[:offset].encode("utf-16-le")) // 2


def test_page_of_bisects_page_starts() -> None:
    doc = Document(
        name="d.pdf",
        file_type="pdf",
        text="page one\npage two\npage three",
        source_sha256="0" * 64,
        pages=(
            Page(number=1, start=0, end=8),
            Page(number=2, start=9, end=17),
            Page(number=3, start=18, end=28),
        ),
    )
    assert [doc.page_of(o) for o in (0, 8, 9, 17, 18, 27)] == [1, 1, 2, 2, 3, 3]


def test_a_document_without_pages_says_none() -> None:
    doc = Document(name="d.docx", file_type="docx", text="no pages here", source_sha256="0" * 64)
    assert doc.page_of(3) is None


def test_with_metadata_is_replace_without_recomputing() -> None:
    """`with_metadata` gives what `dataclasses.replace(doc, metadata=…)` gives, derived fields included,
    and leaves the original as it was."""
    from dataclasses import replace

    doc = Document(
        name="d.pdf",
        file_type="pdf",
        text="1. Fees \U0001f600\n1.1 Pay.\n2. Term\n",
        source_sha256="0" * 64,
        pages=(Page(number=1, start=0, end=17), Page(number=2, start=18, end=26)),
        sections=(
            Section(label="1", heading="Fees", level=1, kind="clause", start=0, end=17),
            Section(label="1.1", heading="", level=2, kind="clause", start=10, end=17),
            Section(label="2", heading="Term", level=1, kind="clause", start=18, end=26),
        ),
        metadata={"pages": 2},
    )
    new = {"pages": 2, "reader": "1"}
    got, want = doc.with_metadata(new), replace(doc, metadata=new)
    assert got == want and got.metadata == {"pages": 2, "reader": "1"} and doc.metadata == {"pages": 2}
    for offset in range(len(doc.text)):
        assert got.section_at(offset) == want.section_at(offset)
        assert got.page_of(offset) == want.page_of(offset)
        assert got.utf16_offset(offset) == want.utf16_offset(offset)
