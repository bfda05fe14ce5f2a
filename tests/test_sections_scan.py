"""The section scan is fast (it visits only lines a label can start, and runs each regex only where the
characters it needs are there); the scan as it was (`tests/sections_reference.py`) is the oracle. Both must
find exactly the same sections and gaps: on the sample contracts read end to end (text, PDF, DOCX), on real
CUAD contracts (texts, and the text and skip ranges the PDF reader hands the scan), and on hostile text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest import load_document
from ingest import sections as sec
from tests import sections_reference as reference
from tests.conftest import SAMPLES

Skip = tuple[tuple[int, int], ...]


def assert_same(text: str, skip: Skip = ()) -> None:
    fast, old = sec.detect_sections(text, skip=skip), reference.detect_sections(text, skip=skip)
    assert fast.sections == old.sections
    assert fast.gaps == old.gaps


@pytest.mark.parametrize(
    "name", sorted(p.name for p in SAMPLES.iterdir() if p.suffix in {".txt", ".pdf", ".docx"})
)
def test_sample_contracts_read_the_same_end_to_end(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import ingest.pdf
    import ingest.plain
    import ingest.word.headings

    fast = load_document(SAMPLES / name).to_dict()
    for reader in (ingest.pdf, ingest.plain, ingest.word.headings):
        monkeypatch.setattr(reader, "detect_sections", reference.detect_sections)
    old = load_document(SAMPLES / name).to_dict()
    assert fast["sections"], "the sample has sections"
    assert fast == old


def _every(paths: list[Path], step: int) -> list[Path]:
    return sorted(paths)[::step]


def test_cuad_texts_scan_the_same(shared_data: Path) -> None:
    texts = _every(list((shared_data / "cuad" / "texts").glob("*.txt")), 8)  # 51 of 408, by position only
    if not texts:
        pytest.skip(f"no CUAD texts under {shared_data / 'cuad' / 'texts'}")
    found = 0
    for path in texts:
        text = path.read_text(encoding="utf-8")
        assert_same(text)
        found += len(sec.detect_sections(text).sections)
    assert found > 1000  # real contracts, really scanned


@pytest.fixture
def scans_seen(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, Skip]]]:
    """Every (text, skip) a reader hands the scan while this fixture is active."""
    import ingest.pdf
    import ingest.word.headings

    seen: list[tuple[str, Skip]] = []
    real = sec.detect_sections

    def record(text: str, *, skip: Any = ()) -> sec.SectionScan:
        seen.append((text, tuple(tuple(r) for r in skip)))
        return real(text, skip=skip)

    monkeypatch.setattr(ingest.pdf, "detect_sections", record)
    monkeypatch.setattr(ingest.word.headings, "detect_sections", record)
    yield seen


def test_cuad_pdfs_scan_the_same(shared_data: Path, scans_seen: list[tuple[str, Skip]]) -> None:
    pdfs = _every(list((shared_data / "cuad" / "pdf").glob("*.pdf")), 10)  # 5 of 41, by position only
    if not pdfs:
        pytest.skip(f"no CUAD PDFs under {shared_data / 'cuad' / 'pdf'}")
    for path in pdfs:
        load_document(path)
    assert len(scans_seen) == len(pdfs)
    assert any(skip for _text, skip in scans_seen), "page furniture handed to the scan as skip ranges"
    for text, skip in scans_seen:
        assert_same(text, skip)


def test_sample_docx_scans_the_same(scans_seen: list[tuple[str, Skip]]) -> None:
    for path in sorted(SAMPLES.glob("*.docx")):
        load_document(path)
        load_document(path, view="original")
    assert scans_seen
    for text, skip in scans_seen:
        assert_same(text, skip)


# ── hostile text ─────────────────────────────────────────────────────────────────────────────────
HOSTILE = [
    "",
    " ",
    "\n\n\n",
    "1",
    "1.",
    "(",
    "§",
    "§ 1",
    "\r\n1. Scope\r\n(a) first\r\n(b) second\r\n",
    "1. Scope\rSecond line after a bare carriage return\r2. Fees\r",
    "\ud800 1. lone surrogate\n2. Fees\n",
    "١. Arabic-Indic digit\n٢. again\n",
    "² superscript\n①. circled\n",
    "\u00a0\u00a01.\u00a0Scope\n\u00a0\u00a02.\u00a0Fees\n",
    "\t(a) tab\n\t(b) tab\n",
    "The fee is due.   1. Flattened PDF text.   2. Another clause.   (a) a list.   A. Letter.",
    "x" * 50_000 + "\n1. After a long line\n",
    "1." * 5_000,
    "\n".join(f"{i}. Clause {i}" for i in range(1, 400)),
    "ARTICLE I\nDEFINITIONS\nARTICLE II\nSERVICES\narticle iii lower\nArticle 4\nTERM\n",
    "Section 1.1 Scope\nSection 1.2 Fees\nSECTION 2\nSchedule A\nEXHIBIT B\nAnnex 1\nAPPENDIX II\n",
    "Attachment 3\nATTACHMENT C\nAppendix ZZ\n",
    "IV. Roman\nV. Roman\nIVXIV. too long\nXX. twenty\nii. lower roman\n",
    "a) lower close\nb) next\nA) upper close\n1) number close\n",
    "Contents\n1. Scope ........ 3\n2. Fees ........ 4\n3. Term 5\n1. Scope\nText.\n2. Fees\nText.\n",
    "thirty\n(30) days\n12\nmonths\n(a) above\n(b) hereof\n",
    "(a) Terms....\n(b) Fees . . . .\n(c) Law…… 4\n(d) Notices____\n(e) Real clause.\n"
    "(f) Dots... only three\n",
    "(a) Real.\n(b) Term   7\r\n(c) Fees\t\u3000iv \n(d) Law  12\x1c\n(e) Notices  x\n(f) Sentence. Ends  5\n"
    "(g) Annex  xl\n(h) Index  c\n(i) Real.\n",
    "as described in the attached\nEXHIBIT D.\narbitration under\nSection 12.2 applies\n",
    "\x0c1. form feed\n\x0b2. vertical tab\n\x1c3. file separator\n"
    "\u2028(a) line separator\n\u2029(b) paragraph\n",
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_text_scans_the_same(text: str) -> None:
    assert_same(text)
    assert_same(text, ((0, len(text) // 2),))
    assert_same(text, ((1, 2), (0, 5), (len(text) // 3, len(text))))


TOKENS = [
    *"0123456789().§:;-–—$“”\"'….,_",
    "1.", "1.1", "12.3.", "4.5.6.7", "(a)", "(iv)", "(A)", "(IV)", "(30)", "(aa)", "a)", "1)", "12)",
    "A.", "IV.", "i.", "x.", "Z.", "ARTICLE", "Article", "SECTION", "Section", "SCHEDULE", "Schedule",
    "EXHIBIT", "Exhibit", "ANNEX", "Annex", "APPENDIX", "Appendix", "ATTACHMENT", "Attachment", "I", "V",
    "X", "L", "days", "months", "above", "hereof", "under", "the", "Supplier", "shall", "DEFINITIONS",
    "means", "....", "____", "١٢", "²", "①", "Ⅳ", "ａ", "１",
    " ", "  ", "   ", "    ", "\u00a0", "\t", "\n", "\n", "\n", "\r\n", "\r", "\n\n", "  \n", "\x0c",
    "\u2028",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(TOKENS), max_size=160).map("".join),
    st.lists(st.tuples(st.integers(0, 400), st.integers(0, 60)), max_size=3),
)
def test_random_label_soup_scans_the_same(text: str, skips: list[tuple[int, int]]) -> None:
    assert_same(text, tuple((a, a + n) for a, n in skips))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_random_text_scans_the_same(text: str) -> None:
    assert_same(text)
