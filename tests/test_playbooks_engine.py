"""The playbook engine: locate, extract, decide in the fixed order, and quote exactly."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest import Document, load_document
from playbooks import ClauseOutcome, list_playbooks, load_playbook, run_playbook, run_tests
from playbooks.engine import coverage_of
from playbooks.library import document_from_text

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_contracts"

ORDER = """\
schema: citationgate-playbook/1
id: order
version: 0.1.0
title: Evaluation order
our_role: customer
clauses:
  - id: cap
    title: Liability cap
    required: true
    locate:
      headings: [limitation of liability]
      patterns: ["shall not exceed"]
    extract:
      cap_months: {type: duration, unit: months, near: ["shall not exceed"]}
      mutual: {type: bool, true_if: ["each party"]}
    positions:
      unacceptable:
        - when: {field: cap_months, lt: 6}
          reason: below six months
      standard:
        when: {field: cap_months, gte: 1}
      otherwise: needs_review
  - id: dpa
    title: Data processing
    locate:
      patterns: ["personal data"]
    referenced:
      patterns: ["data processing addendum[^.]{0,80}available at"]
      provided_if: ["(?im)^schedule \\\\d+ - data processing addendum"]
"""


@pytest.fixture(scope="module")
def order_playbook(tmp_path_factory: pytest.TempPathFactory) -> object:
    p = tmp_path_factory.mktemp("pb") / "order.yaml"
    p.write_text(ORDER, encoding="utf-8")
    return load_playbook(p)


def _outcome(outcomes: list[ClauseOutcome], rule: str) -> ClauseOutcome:
    (o,) = [o for o in outcomes if o.rule == rule]
    return o


def _assert_spans(doc: Document, outcomes: list[ClauseOutcome]) -> None:
    for o in outcomes:
        for q in o.quotes:
            assert doc.text[q.start : q.end] == q.text and len(q.text) >= 10, (o.rule, q)
        for name, ev in o.extracted.items():
            assert doc.text[ev.start : ev.end] == ev.text, (o.rule, name)
            assert any(q.start <= ev.start and ev.end <= q.end for q in o.quotes), (o.rule, name)
        if o.outcome not in ("missing", "referenced_not_provided", "not_applicable"):
            assert o.quotes, o.rule


@pytest.mark.parametrize("playbook_id", [pb.id for pb in list_playbooks()])
def test_builtin_playbook_tests_pass(playbook_id: str) -> None:
    """Every embedded test of every built-in playbook gets its expected outcome."""
    results = run_tests(load_playbook(playbook_id))
    assert results
    failed = [f"{r.name}: expected {r.expected}, got {r.got} ({r.detail})" for r in results if not r.passed]
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize(
    ("text", "outcome", "why"),
    [
        (
            "10.1 Each party's liability shall not exceed the fees paid in the three (3) months before.",
            "unacceptable",
            "below six months",
        ),
        (
            "10.1 Each party's liability shall not exceed the fees paid in the twelve (12) months before.",
            "standard",
            "cap_months gte 1",
        ),
        (
            "10.1 Each party's liability shall not exceed the fees paid in the twelve (3) months before.",
            "needs_review",
            "unparseable: cap_months",
        ),
        (
            "10.1 Each party's liability shall not exceed the fees paid under this Agreement.",
            "needs_review",
            "read no cap months",
        ),
    ],
    ids=["red-line-before-standard", "standard", "words-disagree-with-digits", "value-missing"],
)
def test_evaluation_order(order_playbook: object, text: str, outcome: str, why: str) -> None:
    # unacceptable is checked before standard (3 months passes "gte 1" but is a red line); an unparseable or
    # missing value is needs_review, never a silent standard
    doc = document_from_text(text)
    o = _outcome(run_playbook(doc, order_playbook), "cap")  # type: ignore[arg-type]
    assert o.outcome == outcome
    assert why in o.reason
    _assert_spans(doc, [o])


def test_claim_states_only_quoted_values(order_playbook: object) -> None:
    """The claim's number comes from the quote, and the extracted value carries its span."""
    doc = document_from_text(
        "10.1 Each party's liability shall not exceed the fees paid in the three (3) months before."
    )
    o = _outcome(run_playbook(doc, order_playbook), "cap")  # type: ignore[arg-type]
    ev = o.extracted["cap_months"]
    assert (ev.value, ev.text) == (3, "three (3) months")
    assert "three (3) months" in o.claim and ev.text in o.quotes[0].text


def test_missing_reports_what_was_searched(order_playbook: object) -> None:
    """A required clause that is absent is `missing`, with queries and the parts of the document covered."""
    doc = document_from_text(
        "1. Services. The Supplier shall provide the Services described in the Order Form."
    )
    o = _outcome(run_playbook(doc, order_playbook), "cap")  # type: ignore[arg-type]
    assert o.outcome == "missing" and o.severity == "high" and not o.quotes
    assert o.searched is not None and o.searched.complete
    assert "body" in o.searched.coverage
    assert "heading: limitation of liability" in o.searched.queries
    assert "pattern: shall not exceed" in o.searched.queries


def test_withheld_document_search_is_incomplete(order_playbook: object) -> None:
    """On a withheld document the search record says it is incomplete, so no absence can be concluded."""
    doc = dataclasses.replace(
        document_from_text("Nothing relevant here at all."), status="withheld", reasons=("test",)
    )
    o = _outcome(run_playbook(doc, order_playbook), "cap")  # type: ignore[arg-type]
    assert o.searched is not None and not o.searched.complete


@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        (
            "9.1 Supplier shall process personal data under the Data Processing Addendum available at "
            "https://example.com/dpa.",
            "referenced_not_provided",
        ),
        (
            "9.1 Supplier shall process personal data under the Data Processing Addendum available at "
            "https://example.com/dpa.\n\nSchedule 2 - Data Processing Addendum\n1. Scope.",
            "standard",
        ),
        ("9.1 Supplier shall process personal data only on the Customer's instructions.", "standard"),
    ],
    ids=["url-only", "attached-as-schedule", "terms-in-the-body"],
)
def test_referenced_not_provided(order_playbook: object, text: str, outcome: str) -> None:
    # a document incorporated by reference but not supplied is referenced_not_provided, not missing
    doc = document_from_text(text)
    o = _outcome(run_playbook(doc, order_playbook), "dpa")  # type: ignore[arg-type]
    assert o.outcome == outcome
    if outcome == "referenced_not_provided":
        assert o.searched is not None and o.quotes and "available at" in o.quotes[0].text
    _assert_spans(doc, [o])


def test_cross_clause_check_cites_both_clauses() -> None:
    """The IP indemnity left under the cap is unacceptable, quoting the indemnity and the cap."""
    text = (
        "9. INDEMNITY\n9.1 The Supplier shall defend and indemnify the Customer against any claim that the "
        "Services infringe a third party's intellectual property rights.\n"
        "10. LIMITATION OF LIABILITY\n10.1 Each party's aggregate liability, including under clause 9, "
        "shall not "
        "exceed the fees paid in the twelve (12) months preceding the claim.\n"
    )
    doc = document_from_text(text)
    outcomes = run_playbook(doc, load_playbook("msa-customer"))
    o = _outcome(outcomes, "ip_indemnity_outside_cap")
    assert o.outcome == "unacceptable" and o.severity == "critical"
    sections = {q.section for q in o.quotes}
    assert {"9.1", "10.1"} <= sections
    _assert_spans(doc, outcomes)


@pytest.mark.parametrize(
    ("text", "rule", "fragment"),
    [
        ("The Customer shall pay within thirty (60) days of invoice.", "number_words", "thirty (60)"),
        ("The cap is [●] per claim and the start date is [insert date].", "placeholders", "[●]"),
        ("The cap is [TBD] per claim.", "placeholders", "[TBD]"),
        (
            "1. Scope. See Section 2.\n2. Fees. As in Section 3.\n3. Term. See Section 4.\n"
            "4. Law. Under Section 14.2.",
            "cross_references",
            "Section 14.2",
        ),
    ],
    ids=["number-words", "placeholder", "tbd", "dangling-cross-reference"],
)
def test_document_checks_are_quoted_where_they_occur(text: str, rule: str, fragment: str) -> None:
    # drafting problems are verifiable from the text and quoted where they occur
    doc = document_from_text(text)
    outcomes = run_playbook(doc, load_playbook("msa-customer"))
    found = [o for o in outcomes if o.rule == rule]
    assert found, [o.rule for o in outcomes]
    assert fragment in found[0].quotes[0].text and fragment in found[0].claim
    _assert_spans(doc, outcomes)


def test_defined_but_unused_term() -> None:
    """A term defined and never used again is reported with its definition quoted."""
    doc = document_from_text(
        '1.1 "Deliverables" means the work product.\n1.2 "Widget Fee" means the fee for widgets.\n'
        "2. The Supplier shall deliver the Deliverables on time."
    )
    outcomes = run_playbook(doc, load_playbook("msa-customer"))
    unused = [o for o in outcomes if o.rule == "unused_terms"]
    assert [o.claim for o in unused] == ["“Widget Fee” is defined but never used."]


def test_definitions_written_as_filings_write_them_are_no_drafting_problems() -> None:
    """A definitions section numbered "1.8 "Territory" shall mean", a term '"Confidential Information" of a
    party shall mean', one defined '(the initial "Services Term")', and a plural definition used in the
    singular are neither undefined, unused nor dangling references."""
    doc = document_from_text(
        '1. DEFINITIONS 1.1 "Confidential Information" of a party shall mean any information '
        'disclosed by that '
        'party. 1.2 "House Accounts" shall mean the customers who buy directly. 1.8 "Territory" shall mean '
        "Taiwan. 2. APPOINTMENT 2.1 The Supplier shall serve the Territory, except any House "
        "Account. 2.2 The "
        'Services are performed from the Effective Date until December 31, 2018 (the initial '
        '"Services Term"). '
        "During any Services Term the Customer keeps the Confidential Information secret. 3. TERM "
        "3.1 Each Services "
        "Term renews unless the Confidential Information is returned. 3.2 See Section 1.8 for the "
        "Territory. 4. "
        "Any renewed Services Term follows Section 2.1, and the Confidential Information stays "
        "secret. 5. The "
        "Services Term ends as Section 3.1 says; the Confidential Information is returned."
    )
    outcomes = run_playbook(doc, load_playbook("msa-customer"))
    drafting = [
        o.claim for o in outcomes if o.rule in ("undefined_terms", "unused_terms", "cross_references")
    ]
    assert drafting == []


@pytest.mark.parametrize(
    ("sample", "rule", "outcome"),
    [
        ("northwind_msa.docx", "limitation_of_liability", "unacceptable"),
        ("northwind_msa.docx", "ip_indemnity_outside_cap", "unacceptable"),
        ("northwind_msa.docx", "data_protection", "referenced_not_provided"),
        ("harbor_msa.pdf", "auto_renewal", "unacceptable"),
        ("meridian_msa.txt", "governing_law", "missing"),
        ("meridian_msa.txt", "limitation_of_liability", "standard"),
    ],
    ids=[
        "cap-3-months",
        "ip-indemnity-under-cap",
        "dpa-by-url",
        "10-day-renewal-window",
        "no-governing-law",
        "good-cap",
    ],
)
def test_planted_issues_in_samples(sample: str, rule: str, outcome: str) -> None:
    # the issues planted in the sample contracts are caught by the built-in playbook
    path = SAMPLES / sample
    if not path.exists():
        pytest.skip(f"{sample} not built")
    doc = load_document(path)
    outcomes = run_playbook(doc, load_playbook("msa-customer"))
    assert _outcome(outcomes, rule).outcome == outcome
    _assert_spans(doc, outcomes)


def test_cap_claim_names_the_quoted_number() -> None:
    """The northwind cap claim states three months, which its quote contains."""
    path = SAMPLES / "northwind_msa.docx"
    if not path.exists():
        pytest.skip("northwind_msa.docx not built")
    doc = load_document(path)
    o = _outcome(run_playbook(doc, load_playbook("msa-customer")), "limitation_of_liability")
    ev = o.extracted["cap_months"]
    assert ev.value == 3 and ev.text in o.claim
    assert any(ev.text in q.text for q in o.quotes)


_SENTENCES = st.sampled_from(
    [
        "Each party's aggregate liability shall not exceed the fees paid in the twelve (12) months before.",
        "The Supplier shall notify the Customer of any personal data breach within 48 hours.",
        "This Agreement is governed by the laws of England and Wales.",
        "This Agreement automatically renews for successive one (1) year terms unless notice is given.",
        "Either party may terminate for material breach not remedied within thirty (30) days.",
        "The Customer shall pay each invoice within forty-five (45) days.",
        "[●]",
        "10. LIMITATION OF LIABILITY",
        "(a) fraud;",
        "Section 99.9 applies.",
        "",
    ]
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_SENTENCES, min_size=1, max_size=12), st.sampled_from(["\n", "\n\n", " ", "\r\n"]))
def test_any_text_quotes_slice_back(parts: list[str], sep: str) -> None:
    """Whatever the text, the engine does not crash and every quote and value slices back."""
    doc = document_from_text(sep.join(parts) or " ")
    _assert_spans(doc, run_playbook(doc, load_playbook("msa-customer")))


@pytest.mark.data
def test_cuad_contracts_run_and_quotes_slice_back(shared_data: Path) -> None:
    """Real contracts: no crash, every quote and extracted value is exactly the text at its offsets."""
    files = sorted((shared_data / "cuad" / "texts").glob("*.txt"))[::50]
    pb = load_playbook("msa-customer")
    for f in files:
        doc = load_document(f)
        outcomes = run_playbook(doc, pb)
        assert {o.rule for o in outcomes} >= {c.id for c in pb.clauses}
        _assert_spans(doc, outcomes)


@pytest.mark.parametrize(
    ("sample", "parts"),
    [
        ("northwind_msa.docx", {"body", "tables", "schedules"}),
        ("harbor_msa.pdf", {"body", "schedules", "headers_footers"}),
        ("meridian_msa.txt", {"body", "schedules"}),
    ],
    ids=["docx-table-and-schedule", "pdf-furniture", "text"],
)
def test_coverage_names_the_parts_searched(sample: str, parts: set[str]) -> None:
    # an absence finding's coverage lists the parts of this document the whole-text search went through
    path = SAMPLES / sample
    if not path.exists():
        pytest.skip(f"{sample} not built")
    assert set(coverage_of(load_document(path))) == parts
