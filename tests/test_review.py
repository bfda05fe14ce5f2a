"""Review orchestration and reports: playbook outcomes → gate proposals → stored findings → table / Markdown.

These tests feed `review()` hand-written `ClauseOutcome` values (the playbook engine's plain output type)
so each orchestration rule is pinned down independently of any playbook's judgment; the end-to-end runs of
the built-in playbook over the sample contracts are in test_review_golden.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citationgate.errors import WithheldDocumentError
from citationgate.model import Evidence, FindingStatus, Supervision
from citationgate.reports import ABSENCE_DISCLOSURE, record_data, render_markdown, render_table
from citationgate.review import review, severity_at_least
from citationgate.store import Store
from ingest.document import Document
from ingest.load import load_document
from playbooks.outcome import ClauseOutcome, ExtractedValue, QuoteRef, SearchRecord
from playbooks.schema import Playbook, parse_playbook

CONTRACT = """SERVICES AGREEMENT

1. LIABILITY

1.1 Each party's total liability shall not exceed the Charges paid in the three (3) months before the claim.

1.2 Neither party is liable for indirect or consequential loss.

2. TERM

2.1 This Agreement continues for two (2) years and renews automatically unless either party
gives ten (10) days' notice.
"""

PLAYBOOK_YAML = b"""schema: citationgate-playbook/1
id: tiny
version: "1.2.0"
title: Tiny test playbook
our_role: customer
clauses:
  - id: liability_cap
    title: Limitation of liability
    locate: {headings: [liability]}
"""


@pytest.fixture
def doc(tmp_path: Path) -> Document:
    p = tmp_path / "agreement.txt"
    p.write_text(CONTRACT, encoding="utf-8")
    return load_document(p)


@pytest.fixture
def playbook() -> Playbook:
    return parse_playbook(PLAYBOOK_YAML, source="tiny.yaml")


def _quote(doc: Document, text: str) -> QuoteRef:
    start = doc.text.index(text)
    return QuoteRef(text=text, start=start, end=start + len(text), section=None)


def _value(doc: Document, text: str, value: object) -> ExtractedValue:
    start = doc.text.index(text)
    return ExtractedValue(value=value, text=text, start=start, end=start + len(text))


CAP = (
    "Each party's total liability shall not exceed the Charges paid in the three (3) months before the claim."
)


def _cap_outcome(doc: Document, **kw: object) -> ClauseOutcome:
    base: dict[str, object] = {
        "rule": "liability_cap",
        "title": "Limitation of liability",
        "outcome": "unacceptable",
        "severity": "high",
        "claim": "The cap is three months' Charges, below the twelve months the playbook requires.",
        "quotes": (_quote(doc, CAP),),
        "extracted": {"cap_months": _value(doc, "three (3) months", 3)},
        "guidance": "Ask for twelve months' Charges.",
        "model_language": "… shall not exceed the Charges paid in the twelve (12) months …",
        "reason": "cap_months = 3 < 12 (unacceptable: cap_months < 6)",
    }
    base.update(kw)
    return ClauseOutcome(**base)  # type: ignore[arg-type]


def _absence(**kw: object) -> ClauseOutcome:
    base: dict[str, object] = {
        "rule": "governing_law",
        "title": "Governing law",
        "outcome": "missing",
        "severity": "high",
        "claim": "The agreement names no governing law.",
        "searched": SearchRecord(
            requirement="A clause choosing the governing law",
            queries=("heading: governing law", "pattern: governed by"),
            coverage=("body", "tables", "schedules", "footnotes"),
            complete=True,
        ),
        "reason": "no heading, term or pattern of the clause occurs anywhere in the document",
    }
    base.update(kw)
    return ClauseOutcome(**base)  # type: ignore[arg-type]


def test_withheld_document_is_refused_with_its_reasons(doc: Document, playbook: Playbook) -> None:
    """Nothing is reviewed against a withheld document; the error names why."""
    withheld = Document(
        name="scan.pdf",
        file_type="pdf",
        text="x",
        source_sha256="0" * 64,
        status="withheld",
        reasons=("page 3 has no text layer (scanned?)",),
    )
    with pytest.raises(WithheldDocumentError, match=r"scan\.pdf: .*withheld.*page 3 has no text layer"):
        review(withheld, playbook, outcomes=[_absence()])


def test_quoted_outcome_becomes_a_verified_finding_carrying_the_playbook_details(
    doc: Document, playbook: Playbook
) -> None:
    """A quote outcome is gated; the finding carries outcome, title, extracted spans, guidance, proposer."""
    result = review(doc, playbook, outcomes=[_cap_outcome(doc)])
    (f,) = result.findings
    assert f.status is FindingStatus.VERIFIED and f.evidence is Evidence.QUOTE
    (q,) = f.verified_quotes
    assert doc.text[q.start : q.end] == q.text == CAP
    assert f.proposal.proposer == "playbook:tiny@1.2.0"
    d = result.to_dict()
    assert d["review"]["playbook"] == {
        "id": "tiny",
        "version": "1.2.0",
        "sha256": playbook.sha256,
        "title": "Tiny test playbook",
    }
    fd = d["findings"][0]
    assert (fd["rule"], fd["outcome"], fd["severity"], fd["title"]) == (
        "liability_cap",
        "unacceptable",
        "high",
        "Limitation of liability",
    )
    ev = fd["extracted"]["cap_months"]
    assert doc.text[ev["start"] : ev["end"]] == ev["text"] == "three (3) months"
    assert fd["rationale"].startswith("cap_months = 3")


def test_finding_whose_quotes_all_fail_is_rejected_and_kept_only_in_the_audit(
    doc: Document, playbook: Playbook
) -> None:
    """An invented quote does not surface; the audit records the failure."""
    invented = QuoteRef(text="liability is unlimited for all claims whatsoever", start=0, end=48)
    result = review(doc, playbook, outcomes=[_cap_outcome(doc, quotes=(invented,), extracted={})])
    assert result.findings == ()
    assert [f.status for f in result.rejected] == [FindingStatus.REJECTED]
    assert any(e.result in ("failed", "rejected") for e in result.audit)
    assert result.summary["rejected"] == 1


def test_extracted_value_outside_every_verified_quote_is_dropped_and_needs_review(
    doc: Document, playbook: Playbook
) -> None:
    """A finding cannot state a number its quote does not contain."""
    other = "ten (10) days' notice"  # real text, but not inside the cited passage
    outcome = _cap_outcome(doc, extracted={"cap_months": _value(doc, other, 10)})
    result = review(doc, playbook, outcomes=[outcome])
    (f,) = result.findings
    assert f.status is FindingStatus.NEEDS_REVIEW
    assert f.supervision is not Supervision.STANDARD
    assert "a finding cannot state a number its quote does not contain" in f.reason
    fd = result.to_dict()["findings"][0]
    assert fd["extracted"] == {}
    assert fd["outcome"] == "needs_review" and fd["proposed_outcome"] == "unacceptable"
    assert any(e.action == "extracted" and e.result == "dropped" for e in result.audit)


def test_missing_clause_with_a_complete_search_is_a_disclosed_absence(
    doc: Document, playbook: Playbook
) -> None:
    """Absence: no quote, high supervision, what was searched and covered."""
    result = review(doc, playbook, outcomes=[_absence()])
    (f,) = result.findings
    assert f.evidence is Evidence.ABSENCE and f.supervision is Supervision.HIGH
    fd = result.to_dict()["findings"][0]
    assert fd["searched"]["coverage"] == ["body", "tables", "schedules", "footnotes"]
    assert fd["searched"]["searched"] == ["heading: governing law", "pattern: governed by"]
    assert fd["quote_verified"] is False


@pytest.mark.parametrize(
    ("searched", "why"),
    [
        (
            SearchRecord(requirement="r", queries=("q",), coverage=("body",), complete=False),
            "did not cover the whole document (covered: body)",
        ),
        (None, "no search record"),
    ],
    ids=["incomplete-search", "no-search-record"],
)
def test_missing_clause_without_a_complete_search_makes_no_finding(
    doc: Document, playbook: Playbook, searched: SearchRecord | None, why: str
) -> None:
    """Silence may be the parser's: not concluded, reported as needs_review with the reason, no finding."""
    result = review(doc, playbook, outcomes=[_absence(searched=searched)])
    assert result.findings == ()
    (nc,) = result.not_concluded
    assert nc.outcome == "needs_review" and nc.proposed_outcome == "missing" and why in nc.reason
    assert "NOT CONCLUDED" in render_table(result.to_dict())


def test_not_applicable_outcomes_are_listed_not_gated(doc: Document, playbook: Playbook) -> None:
    """A clause that does not apply is not a finding."""
    na = _absence(outcome="not_applicable", severity="info", searched=None)
    result = review(doc, playbook, outcomes=[na, _cap_outcome(doc)])
    assert [f.proposal.rule for f in result.findings] == ["liability_cap"]
    assert result.not_applicable == ("governing_law",)


def test_review_and_its_audit_are_stored_together(doc: Document, playbook: Playbook) -> None:
    """One write: the review, its surfaced findings, and every audit entry (rejections included)."""
    store = Store.open()
    before_reviews, before_audit = len(store.list_reviews()), len(store.audit_entries())
    invented = QuoteRef(text="a passage that appears nowhere in it", start=0, end=36)
    outcomes = [
        _cap_outcome(doc),
        _cap_outcome(doc, rule="other", quotes=(invented,), extracted={}),
        _absence(),
    ]
    result = review(doc, playbook, outcomes=outcomes, store=store)
    assert result.review_id is not None
    assert len(store.list_reviews()) == before_reviews + 1
    assert len(store.audit_entries()) == before_audit + len(result.audit)
    rec = store.get_review(result.review_id)
    assert (rec.playbook_id, rec.playbook_version, rec.playbook_sha256) == ("tiny", "1.2.0", playbook.sha256)
    assert [f["id"] for f in rec.findings] == [f.id for f in result.findings]
    assert store.check_audit()[1] is None
    # The stored review renders exactly as the live one.
    assert render_markdown(record_data(rec)) == render_markdown(result.to_dict())


def test_table_shows_verified_quote_pinpoint_and_marks_absences(doc: Document, playbook: Playbook) -> None:
    """Grouped by severity; the quote is the document's text with clause, page n/a and offsets."""
    result = review(doc, playbook, outcomes=[_cap_outcome(doc), _absence(severity="medium")])
    table = render_table(result.to_dict(), width=400)
    start = doc.text.index(CAP)
    assert f"“{CAP}”" in table
    assert f"clause 1.1, page n/a, characters {start}–{start + len(CAP)}" in table
    assert "ABSENCE — not quote-verified" in table
    assert table.index("HIGH (1)") < table.index("MEDIUM (1)")


def test_markdown_memo_blockquotes_quotes_and_discloses_absences(doc: Document, playbook: Playbook) -> None:
    """The memo: summary, blockquoted verified quotes with pinpoints, absence disclosure, playbook hash."""
    result = review(doc, playbook, outcomes=[_cap_outcome(doc), _absence()])
    md = render_markdown(result.to_dict())
    assert "> Each party's total liability shall not exceed" in md
    assert "> — clause 1.1, page n/a, characters" in md
    assert "## Absence findings (not quote-verified)" in md and ABSENCE_DISCLOSURE in md
    assert playbook.sha256 in md and doc.text_sha256 in md
    assert "Suggested language (not from the document)" in md


@pytest.mark.parametrize(
    ("severity", "threshold", "expected"),
    [
        ("critical", "high", True),
        ("high", "high", True),
        ("medium", "high", False),
        ("info", "info", True),
        (None, "info", False),
    ],
    ids=["above", "equal", "below", "lowest", "unrated"],
)
def test_severity_at_least(severity: str | None, threshold: str, expected: bool) -> None:
    """--fail-on compares by severity rank; an unrated finding never trips it."""
    assert severity_at_least(severity, threshold) is expected


def test_markdown_quote_renders_as_the_documents_text(doc: Document, playbook: Playbook) -> None:
    """A quoted line that looks like a list item or carries Markdown is escaped, not reformatted."""
    text = "1. LIABILITY\n\n1.1 Each party's total liability"
    outcome = _cap_outcome(doc, quotes=(_quote(doc, text),), extracted={})
    md = render_markdown(review(doc, playbook, outcomes=[outcome]).to_dict())
    assert "> 1\\. LIABILITY\n>\n> 1.1 Each party's total liability\n" in md


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_property_extracted_values_survive_only_inside_verified_quotes(
    doc: Document, playbook: Playbook, data: st.DataObject
) -> None:
    """Any real passage verifies at its own offsets; an extracted span survives iff it lies inside it."""
    n = len(doc.text)
    start = data.draw(st.integers(0, n - 40), label="start")
    end = data.draw(st.integers(start + 20, min(n, start + 200)), label="end")
    while start < end and doc.text[start].isspace():
        start += 1
    while end > start and doc.text[end - 1].isspace():
        end -= 1
    vs = data.draw(st.integers(0, n - 5), label="value_start")
    ve = data.draw(st.integers(vs + 1, min(n, vs + 30)), label="value_end")
    quote = QuoteRef(text=doc.text[start:end], start=start, end=end)
    value = ExtractedValue(value=1, text=doc.text[vs:ve], start=vs, end=ve)
    result = review(doc, playbook, outcomes=[_cap_outcome(doc, quotes=(quote,), extracted={"v": value})])
    (f,) = result.findings
    spans = [(q.start, q.end) for q in f.verified_quotes]
    assert spans and all(doc.text[a:b] == q.text for (a, b), q in zip(spans, f.verified_quotes, strict=True))
    inside = any(a <= vs and ve <= b for a, b in spans)
    assert ("v" in result.to_dict()["findings"][0]["extracted"]) is inside
    if not inside:
        assert f.status is FindingStatus.NEEDS_REVIEW
