"""The section detector: labels that continue a sequence, levels, what it rejects, gaps, definitions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.sections import detect_sections, roman_to_int


def labels(text: str, skip: tuple[tuple[int, int], ...] = ()) -> list[str]:
    return [s.label for s in detect_sections(text, skip=skip).sections]


def levels(text: str) -> list[tuple[str, int]]:
    return [(s.label, s.level) for s in detect_sections(text).sections]


FOUND = [
    ("1. Scope\nThe Supplier shall act.\n2. Fees\nFees are due.\n3. Term\nOne year.\n", ["1", "2", "3"]),
    ("1.1 Scope\nText.\n1.2 Fees\nText.\n1.3 Term\nText.\n", ["1.1", "1.2", "1.3"]),
    (
        "ARTICLE I\nDEFINITIONS\nText.\nARTICLE II\nSERVICES\nText.\nARTICLE III\nFEES\n",
        ["ARTICLE I", "ARTICLE II", "ARTICLE III"],
    ),
    ("Section 1. Scope.\nText.\nSection 2. Fees.\nText.\n", ["Section 1", "Section 2"]),
    (
        "1. Services\nThe Supplier shall:\n(a) deliver the goods;\n(b) install them; and\n(c) train staff.\n",
        ["1", "(a)", "(b)", "(c)"],
    ),
    (
        "(a) First item here.\n(b) Second item.\n(i) a sub item;\n(ii) another sub item;\n"
        "(iii) a third.\n(c) Third item.\n",
        ["(a)", "(b)", "(i)", "(ii)", "(iii)", "(c)"],
    ),
    (
        "(a) A.\n(b) B.\n(c) C.\n(d) D.\n(e) E.\n(f) F.\n(g) G.\n(h) H.\n(i) I is a letter here.\n(j) J.\n",
        ["(a)", "(b)", "(c)", "(d)", "(e)", "(f)", "(g)", "(h)", "(i)", "(j)"],
    ),
    (
        "1. Fees\nText.\n2. Term\nText.\nSchedule 1 Services\nThe services.\nSchedule 2 Prices\nPrices.\n",
        ["1", "2", "Schedule 1", "Schedule 2"],
    ),
    (
        "1. Fees\nText.\nEXHIBIT A\nFORM OF ORDER\n1. Parties\nText.\n2. Goods\nText.\nEXHIBIT B\n",
        ["1", "EXHIBIT A", "1", "2", "EXHIBIT B"],
    ),
    ("1.PROMOTION OFFER:\nText.\n2.DISTRIBUTION:\nText.\n", ["1", "2"]),
    ("1) Duties of the Agent\nText.\n2) Duties of the Principal\nText.\n", ["1)", "2)"]),
    ("A. Background\nText.\nB. Agreement\nText.\n", ["A", "B"]),
    (
        "ARTICLE 4\nFEES\n4.1 Invoices\nText.\n4.2 Payment\nText.\nARTICLE 5\nTERM\n5.1 Duration\nText.\n",
        ["ARTICLE 4", "4.1", "4.2", "ARTICLE 5", "5.1"],
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    FOUND,
    ids=[
        "decimal-top",
        "decimal-sub",
        "article-roman",
        "section-word",
        "letters-under-clause",
        "roman-under-letters",
        "i-after-h-is-a-letter",
        "schedules",
        "exhibit-restarts-numbering",
        "no-space-after-dot",
        "close-paren-numbers",
        "capital-letter-dot",
        "article-then-article-decimals",
    ],
)
def test_numbered_headings_are_found(text: str, expected: list[str]) -> None:
    """Labels that start or continue a sequence are sections."""
    assert labels(text) == expected


REJECTED = [
    # a cross-reference that a line wrap put at the start of a line
    ("1. Term\nAs set out in\nSection 11.2 above, the term is one year.\n2. Fees\nText.\n", ["1", "2"]),
    ("1. Term\nSubject to\n2.1 of this Agreement, the term runs.\n2. Fees\nText.\n", ["1", "2"]),
    (
        "1. Term\n(a) The term is one year, see\n(c) above and the schedule.\n(b) Renewal.\n",
        ["1", "(a)", "(b)"],
    ),
    # wrapped numbers
    ("1. Payment\nThe Customer shall pay within\n30\ndays of the invoice.\n2. Term\n", ["1", "2"]),
    ("1. Term\nThe Agreement lasts\n12\nmonths.\n2. Fees\n", ["1", "2"]),
    ("1. Notice\nEither party may give thirty\n(30) days notice.\n2. Fees\n", ["1", "2"]),
    ("1. Term\nThe term is one\n(1) year from signing.\n2. Fees\n", ["1", "2"]),
    ("1. Price\nThe price is USD\n1.5 million in total.\n2. Fees\n", ["1", "2"]),
    # a table of contents: dot leaders, trailing page numbers, and a run of bare headings repeated later
    (
        "1. Scope ........ 2\n2. Fees ........ 3\n1. Scope\nThe Supplier acts.\n2. Fees\nFees are due.\n",
        ["1", "2"],
    ),
    (
        "1. Scope      2\n2. Fees      3\n3. Term      4\n"
        "1. Scope\nThe Supplier acts.\n2. Fees\nDue.\n3. Term\nOne year.\n",
        ["1", "2", "3"],
    ),
    (
        "CONTENTS\n1. Scope\n2. Fees\n3. Term\n4. Law\n\n1. Scope\nThe Supplier acts in good faith.\n"
        "2. Fees\nFees are due.\n3. Term\nOne year.\n4. Law\nEngland.\n",
        ["1", "2", "3", "4"],
    ),
    # numbers going backwards or repeating are not new clauses
    ("1. Scope\nText.\n2. Fees\nText.\n1. This line restarts nothing.\n3. Term\nText.\n", ["1", "2", "3"]),
    # a list cannot start in the middle
    ("Intro text.\n7. Seventh\nText.\n", []),
    ("(c) a lone letter item\n", []),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    REJECTED,
    ids=[
        "xref-section-above",
        "xref-decimal-of",
        "xref-paren-above",
        "wrapped-30-days",
        "wrapped-12-months",
        "wrapped-paren-30-days",
        "wrapped-paren-1-year",
        "wrapped-amount",
        "toc-dot-leaders",
        "toc-page-numbers",
        "toc-bare-run",
        "backwards",
        "mid-list-start",
        "lone-letter",
    ],
)
def test_lines_that_only_look_numbered_are_rejected(text: str, expected: list[str]) -> None:
    """Cross-references, wrapped numbers, contents lines and broken sequences are not sections."""
    assert labels(text) == expected


MORE_FOUND = [
    ("1.\u00a0\u00a0Scope\u00a0of\u00a0work\nText.\n2.\u00a0Fees\nText.\n", ["1", "2"]),
    (
        "Article 1.Amendment of the Agreement\nText.\nArticle 2.Governing Law\nText.\n",
        ["Article 1", "Article 2"],
    ),
    ("1 SCOPE\nText.\n2 FEES\nText.\n", ["1", "2"]),
    (
        "1. Fees\nText.\nSCHEDULE 1 - SERVICES\n1. Scope. Text.\n2. Levels. Text.\n",
        ["1", "SCHEDULE 1", "1", "2"],
    ),
    (
        "1. Sponsor is a company.\n2. Agent is a firm.\n"
        "1. DEFINITIONS\nText.\n2. SCOPE\nText.\n3. FEES\nText.\n",
        ["1", "2", "1", "2", "3"],
    ),
    (
        "1. Definitions\n(a) first term;\n(b) second term;\n(c) third term;\n1.1 Interpretation\nText.\n"
        "2. Scope\nText.\n",
        ["1", "(a)", "(b)", "(c)", "1.1", "2"],
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    MORE_FOUND,
    ids=[
        "nbsp-after-label",
        "no-space-after-article-dot",
        "bare-number-capitals-heading",
        "schedule-dash-title-restarts",
        "titled-1-after-numbered-recitals",
        "short-list-items-are-not-a-contents-list",
    ],
)
def test_more_heading_shapes(text: str, expected: list[str]) -> None:
    """Label shapes seen in real filings, and the restarts they need."""
    assert labels(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "1. Term\nThe territory is described in the attached\nEXHIBIT D. It is fixed.\n2. Fees\nText.\n",
        "1. Term\nAs defined in Section\n11.1 [RENEWAL], the term renews.\n2. Fees\nText.\n",
        "1. Term\nEither party may go to arbitration under\nSection 12.2 [ARBITRATION].\n2. Fees\nText.\n",
    ],
    ids=["attached-exhibit", "in-section", "under-section"],
)
def test_a_line_that_runs_on_makes_the_next_label_a_cross_reference(text: str) -> None:
    """A line ending in 'in', 'under', 'attached', 'Section' … continues into the label: not a heading."""
    assert labels(text) == ["1", "2"]


def test_a_list_of_schedules_before_the_body_is_not_a_schedule() -> None:
    """'Annex 1: …' lines listing what is attached, then the body: the body is not inside 'Annex 2'."""
    text = (
        "Annex 1: Term Sheet\nAnnex 2: Prices\nSchedule 3.2: Plan\n\n1. DEFINITIONS\nText.\n2. SCOPE\nText.\n"
    )
    assert levels(text) == [("1", 1), ("2", 1)]


def test_a_capitals_line_closes_a_list() -> None:
    """Parties (1), (2) and recitals (A), (B) under their own capitals headings are sibling lists."""
    text = "PARTIES\n(1) ACME LLC; and\n(2) BETA INC.\nRECITALS\n(A) Acme sells.\n(B) Beta buys.\n"
    text += "1. DEFINITIONS\n"
    assert levels(text) == [("(1)", 1), ("(2)", 1), ("(A)", 1), ("(B)", 1), ("1", 1)]


def test_skip_ranges_hold_no_section() -> None:
    """A numbered line inside a skipped range (a table cell, page furniture) is not a section."""
    text = "1. Scope\nText.\n2. Fees\nItem table:\n3. Widget  10\n3. Term\nText.\n"
    cell = text.index("3. Widget")
    assert labels(text) == ["1", "2", "3"]
    assert labels(text, skip=((cell, cell + 12),)) == ["1", "2", "3"]
    got = detect_sections(text, skip=((cell, cell + 12),)).sections
    assert got[-1].start == text.index("3. Term")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "1. A\nx.\n1.1 B\nx.\n(a) C\nx.\n(i) D\nx.\n2. E\nx.\n",
            [("1", 1), ("1.1", 2), ("(a)", 3), ("(i)", 4), ("2", 1)],
        ),
        (
            "ARTICLE I\nX\n1.1 A\nx.\n(a) B\nx.\nARTICLE II\nY\n",
            [("ARTICLE I", 1), ("1.1", 2), ("(a)", 3), ("ARTICLE II", 1)],
        ),
        (
            "1. A\nx.\nSCHEDULE 1\nPrices\n1. B\nx.\n(a) C\nx.\n",
            [("1", 1), ("SCHEDULE 1", 1), ("1", 2), ("(a)", 3)],
        ),
    ],
    ids=["decimal-letter-roman", "article-decimal-letter", "schedule-nests-its-clauses"],
)
def test_hierarchy_levels(text: str, expected: list[tuple[str, int]]) -> None:
    """Levels follow the stack of open list styles."""
    assert levels(text) == expected


def test_section_ranges_nest() -> None:
    """A section ends where the next one at the same or a higher level starts; ends trim whitespace."""
    text = "1. Scope\nThe Supplier acts.\n(a) first;\n(b) second.\n2. Fees\nFees are due.\n\n"
    s = {x.label: x for x in detect_sections(text).sections}
    assert text[s["1"].start : s["1"].end] == "1. Scope\nThe Supplier acts.\n(a) first;\n(b) second."
    assert text[s["(a)"].start : s["(a)"].end] == "(a) first;"
    assert s["2"].end == len(text.rstrip())


@pytest.mark.parametrize(
    ("text", "gaps"),
    [
        ("1. A\nx.\n2. B\nx.\n4. D\nx.\n", ["numbering jumps from 1 to ... "]),
        ("1.1 A\nx.\n1.2 B\nx.\n1.5 C\nx.\n", ["numbering jumps from 1.2 to 1.5"]),
        ("(a) A\nx.\n(b) B\nx.\n(d) D\nx.\n", ["numbering jumps from (b) to (d)"]),
        ("1. A\nx.\n2. B\nx.\n3. C\nx.\n", []),
    ],
    ids=["top", "sub", "letters", "none"],
)
def test_gaps_are_reported(text: str, gaps: list[str]) -> None:
    """A jump forward is accepted and reported."""
    got = detect_sections(text).gaps
    if gaps and gaps[0].endswith("... "):
        assert got == ["numbering jumps from 2 to 4"]
    else:
        assert got == gaps


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        (
            '1. Definitions\n1.1 "Fees" means the charges.\n'
            '1.2 "Term" has the meaning in clause 2.\n2. Scope\nText.\n',
            ["clause", "definition", "definition", "clause"],
        ),
        (
            "1.1 LINK shall mean a link that connects two Sites.\n"
            "1.2 MEDICAL PRODUCTS shall mean any equipment.\n",
            ["definition", "definition"],
        ),
        (
            "1.1 Affiliate means a company under common control.\n"
            "1.2 Competitor Change of Control means a sale.\n",
            ["definition", "definition"],
        ),
        (
            "ARTICLE I\nDEFINITIONS\nText.\nSchedule 1 Prices\nText.\nExhibit A Form\nText.\n",
            ["article", "schedule", "exhibit"],
        ),
    ],
    ids=["quoted-terms", "capitalised-terms", "title-case-terms", "article-schedule-exhibit"],
)
def test_section_kinds(text: str, kinds: list[str]) -> None:
    """A section whose only job is to define a term is a definition; articles, schedules, exhibits."""
    assert [s.kind for s in detect_sections(text).sections] == kinds


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("1. Limitation of Liability. Neither party is liable.\n", "Limitation of Liability"),
        ("ARTICLE V\nINDEMNIFICATION\nEach party shall indemnify.\n", "INDEMNIFICATION"),
        ("1. The Supplier shall provide the services described in the order form with skill and care.\n", ""),
    ],
    ids=["inline", "next-line", "sentence-has-no-heading"],
)
def test_headings(text: str, heading: str) -> None:
    """The short title after a label, on its line or the next; none when the clause starts with a sentence."""
    assert detect_sections(text).sections[0].heading == heading


@pytest.mark.parametrize(
    ("s", "n"), [("iv", 4), ("XII", 12), ("mcm", 1900), ("iiii", None), ("civil", None), ("", None)], ids=str
)
def test_roman_to_int(s: str, n: int | None) -> None:
    """Roman numerals, valid forms only."""
    assert roman_to_int(s) == n


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="1234567890.()aivxAIVX \n\tSectionARTICLEExhibit:-", max_size=400))
def test_never_crashes_and_ranges_are_valid(text: str) -> None:
    """Property: any text scans without error and every section lies inside the text."""
    for s in detect_sections(text).sections:
        assert 0 <= s.start < s.end <= len(text)
        assert text[s.start : s.end].strip()


@pytest.mark.data
def test_every_cuad_text_scans(shared_data: Path) -> None:
    """All 408 CUAD texts: no crash, every section inside the text, most contracts have sections."""
    cuad = shared_data / "cuad"
    with_sections = 0
    n = 0
    for line in (cuad / "annotations.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        text = (cuad / rec["text_file"]).read_bytes().decode("utf-8")
        sections = detect_sections(text).sections
        n += 1
        with_sections += bool(sections)
        for s in sections:
            assert 0 <= s.start < s.end <= len(text), rec["id"]
            assert s.level >= 1
    assert n == 408
    assert with_sections >= 0.9 * n
