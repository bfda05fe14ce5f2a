"""The gate: rules on citations and findings, hints, ellipses, absence, audit, proposals parsing."""

from __future__ import annotations

from typing import Any

import pytest

from citationgate import locate
from citationgate.errors import ProposalError, WithheldDocumentError
from citationgate.gate import GateResult, gate, index_for
from citationgate.model import (
    AbsenceEvidence,
    CitationRequest,
    CitationStatus,
    Evidence,
    FindingStatus,
    MatchType,
    Proposal,
    Supervision,
)
from citationgate.proposals import parse_proposals
from citationgate.store import Store
from ingest.document import Document, Page, Section

BODY_1 = (
    "1. Limitation of Liability. The Supplier shall not be liable for any indirect or consequential "
    "damages arising out of this Agreement, except for damages caused by gross negligence. "
    "Nothing in this Agreement limits liability for fraud.\n\n"
)
BODY_2 = (
    "2. Payment. The Customer must pay each undisputed invoice within thirty (30) days of receipt. "
    "Nothing in this Agreement limits liability for fraud. Liability is capped at \u20a650,000,000 in "
    "aggregate.\n\n"
)
BODY_3 = "3. Venue. The parties will meet at the civic centre on the first business day of each quarter.\n"
TEXT = BODY_1 + BODY_2 + BODY_3


def _doc(text: str = TEXT, *, status: str = "ready", pages: bool = False) -> Document:
    starts = [0, len(BODY_1), len(BODY_1) + len(BODY_2), len(text)]
    sections = tuple(
        Section(label=f"{i + 1}.", heading=h, level=1, kind="clause", start=starts[i], end=starts[i + 1])
        for i, h in enumerate(["Limitation of Liability", "Payment", "Venue"])
    )
    page_values = (
        tuple(Page(number=i + 1, start=starts[i], end=starts[i + 1]) for i in range(3)) if pages else ()
    )
    return Document(
        name="msa.txt",
        file_type="txt",
        text=text,
        source_sha256="0" * 64,
        sections=sections,
        pages=page_values,
        status=status,  # type: ignore[arg-type]
        reasons=("fidelity 91.0 % is below 99.5 %",) if status == "withheld" else (),
    )


def _one(quote: str, **hint: Any) -> Proposal:
    return Proposal(id="p1", claim="a claim", citations=(CitationRequest(quote=quote, **hint),))


def _run(*proposals: Proposal, fuzzy: bool = True, doc: Document | None = None) -> GateResult:
    document = doc or _doc()
    result = gate(document, list(proposals), fuzzy=fuzzy)
    for f in result.findings:  # the span check, everywhere a quote is produced
        for c in f.citations:
            for q in ([c.quote] if c.quote else []) + list(c.occurrences):
                assert document.text[q.start : q.end] == q.text
    return result


# ── rules on citations ───────────────────────────────────────────────────────────────────────────
def test_no_citation_is_rejected_outright() -> None:
    """A proposal without a citation is rejected, not downgraded."""
    finding = _run(Proposal(id="p1", claim="The cap is low.")).findings[0]
    assert finding.status is FindingStatus.REJECTED
    assert finding.reason.startswith("no citation")


def test_short_quote_is_rejected() -> None:
    """A quote under 10 characters proves nothing and is rejected before searching."""
    finding = _run(_one("the cap")).findings[0]
    assert finding.status is FindingStatus.REJECTED
    assert finding.citations[0].status is CitationStatus.REJECTED
    assert "at least 10" in finding.citations[0].reason


@pytest.mark.parametrize(
    "quote",
    [
        "The Supplier shall be liable for any indirect or consequential damages arising out of this",
        "The Customer should pay each undisputed invoice within thirty (30) days of receipt.",
        "Liability is capped at \u20a6500,000,000 in aggregate.",
        "The Supplier shall not be liable for any indirect damages. The Customer must pay each undisputed",
        "The Customer must pay each undisputed invoice within thirty (30) days of receipt, or when asked.",
        "3. Venue. The parties will meet at the museum on the first business day of each quarter.",
        "4. Venue. The parties will meet at the museum on the first business day of each quarter.",
    ],
    ids=["drops-not", "must-to-should", "threshold", "splice", "extension", "museum", "museum-and-section"],
)
def test_seed_failures_are_rejected(quote: str) -> None:
    """The seed failures never surface, even with the fuzzy fallback on."""
    finding = _run(_one(quote)).findings[0]
    assert finding.status is FindingStatus.REJECTED
    assert finding.citations[0].status is CitationStatus.FAILED
    assert finding.citations[0].quote is None


@pytest.mark.parametrize(
    "quote",
    [
        "The Supplier shall not be liable",
        "The  Supplier\nshall\u00a0not be liable",
        "The Customer must pay each undisputed invoice within thirty (30) days",
        "Liability is capped at \u20a650,000,000 in\naggregate.",
    ],
    ids=["plain", "reflowed", "sentence", "currency"],
)
def test_verbatim_quote_verifies_with_offsets_that_slice_back(quote: str) -> None:
    """A verbatim (whitespace-reflowed) quote verifies exactly; the quote text is the document's."""
    finding = _run(_one(quote)).findings[0]
    c = finding.citations[0]
    assert c.status is CitationStatus.VERIFIED and c.quote is not None
    assert c.quote.match is MatchType.EXACT and c.quote.similarity == 1.0
    assert " ".join(c.quote.text.split()) == " ".join(quote.split())
    assert finding.status is FindingStatus.VERIFIED and finding.supervision is Supervision.STANDARD


def test_typographic_variant_verifies_and_shows_the_documents_characters() -> None:
    """Curly quotes and dashes in the document match straight ones; the text shown is the document's."""
    text = (
        "1. Term. The \u201cTerm\u201d means the period 2024\u20132026 (the \u2018Initial Term\u2019) ends.\n"
    )
    doc = Document(name="t.txt", file_type="txt", text=text, source_sha256="0" * 64)
    c = (
        _run(_one("The \"Term\" means the period 2024-2026 (the 'Initial Term')"), doc=doc)
        .findings[0]
        .citations[0]
    )
    assert c.status is CitationStatus.VERIFIED and c.quote is not None
    assert (
        c.quote.text == "The \u201cTerm\u201d means the period 2024\u20132026 (the \u2018Initial Term\u2019)"
    )


def test_case_variant_fails_and_says_why() -> None:
    """Capitalisation is not folded; the reason says the words occur with other capitals."""
    c = _run(_one("the supplier shall not be liable")).findings[0].citations[0]
    assert c.status is CitationStatus.FAILED
    assert "capitalisation" in c.reason


# ── ambiguity and hints ──────────────────────────────────────────────────────────────────────────
REPEATED = "Nothing in this Agreement limits liability for fraud."


def test_repeated_text_without_hint_is_ambiguous() -> None:
    """Boilerplate found twice without a hint: every occurrence reported, pinpoint ambiguous."""
    finding = _run(_one(REPEATED)).findings[0]
    c = finding.citations[0]
    assert c.status is CitationStatus.AMBIGUOUS and c.quote is None
    assert [o.section for o in c.occurrences] == ["1.", "2."]
    assert "ambiguous" in c.reason
    assert finding.status is FindingStatus.NEEDS_REVIEW and finding.supervision is Supervision.ELEVATED


@pytest.mark.parametrize(
    ("hint", "section"),
    [({"section": "2"}, "2."), ({"section": "Section 1."}, "1."), ({"section": "payment"}, "2.")],
    ids=["label", "prefixed-label", "heading"],
)
def test_section_hint_picks_the_occurrence(hint: dict[str, Any], section: str) -> None:
    """A section hint (label or heading) chooses one occurrence."""
    c = _run(_one(REPEATED, **hint)).findings[0].citations[0]
    assert c.status is CitationStatus.VERIFIED and c.quote is not None
    assert c.quote.section == section
    assert len(c.occurrences) == 2


def test_page_hint_picks_the_occurrence() -> None:
    """A page hint chooses the occurrence on that page."""
    c = _run(_one(REPEATED, page=2), doc=_doc(pages=True)).findings[0].citations[0]
    assert c.status is CitationStatus.VERIFIED and c.quote is not None and c.quote.page == 2


def test_near_hint_picks_the_closest_occurrence() -> None:
    """An approximate offset chooses the nearest occurrence."""
    c = _run(_one(REPEATED, near=len(BODY_1) + 50)).findings[0].citations[0]
    assert c.status is CitationStatus.VERIFIED and c.quote is not None and c.quote.section == "2."


def test_wrong_hint_on_a_single_occurrence_is_flagged() -> None:
    """A hint pointing elsewhere does not hide a unique match, but it is flagged for review."""
    finding = _run(_one("The Customer must pay each undisputed invoice", section="3")).findings[0]
    c = finding.citations[0]
    assert c.status is CitationStatus.VERIFIED
    assert any("hint" in f for f in c.flags)
    assert finding.supervision is Supervision.ELEVATED


# ── fuzzy ────────────────────────────────────────────────────────────────────────────────────────
SLIP = "The Supplier shall not be liable for any indirect or consequentail damages arising out of"


def test_fuzzy_match_raises_supervision() -> None:
    """A slip in a long quote verifies fuzzily, with lower similarity and elevated supervision."""
    finding = _run(_one(SLIP)).findings[0]
    c = finding.citations[0]
    assert c.status is CitationStatus.VERIFIED and c.quote is not None
    assert c.quote.match is MatchType.FUZZY and c.quote.similarity < 1.0
    assert "consequential" in c.quote.text
    assert finding.status is FindingStatus.NEEDS_REVIEW and finding.supervision is Supervision.ELEVATED


def test_exact_only_mode_refuses_the_slip() -> None:
    """With fuzzy=False (re-verification) only exact matches count."""
    c = _run(_one(SLIP), fuzzy=False).findings[0].citations[0]
    assert c.status is CitationStatus.FAILED and "exact-only" in c.reason


def test_fuzzy_past_its_time_bound_is_unverifiable(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fuzzy search that runs out of time makes the citation unverifiable, never a pass."""
    monkeypatch.setattr(locate, "FUZZY_TIME_LIMIT_S", 0.0)
    finding = _run(_one(SLIP)).findings[0]
    assert finding.citations[0].status is CitationStatus.UNVERIFIABLE
    assert finding.status is FindingStatus.REJECTED


# ── splices and ellipses ─────────────────────────────────────────────────────────────────────────
def test_ellipsis_quote_verifies_as_segments_with_the_gap_shown() -> None:
    """An elided quote verifies as in-order segments in one section; the text shown includes the gap."""
    quote = "The Supplier shall not be liable for ... damages arising out of this Agreement"
    finding = _run(_one(quote)).findings[0]
    c = finding.citations[0]
    assert c.status is CitationStatus.VERIFIED and c.quote is not None
    assert len(c.quote.segments) == 2
    assert "any indirect or consequential" in c.quote.text  # the omitted words are shown
    assert any("elided quote" in f for f in c.flags)
    assert finding.supervision is Supervision.ELEVATED


def test_ellipsis_gap_with_a_negation_is_flagged() -> None:
    """Eliding a "not" is flagged (PITFALLS: "is ... permitted" over "is not permitted")."""
    c = _run(_one("The Supplier shall ... be liable for any indirect")).findings[0].citations[0]
    assert c.status is CitationStatus.VERIFIED
    assert any("'not'" in f for f in c.flags)


def test_ellipsis_across_sections_fails() -> None:
    """Segments from two different sections are a splice, not an elided quote."""
    c = _run(_one("except for damages caused by gross negligence ... within thirty (30) days")).findings[0]
    assert c.citations[0].status is CitationStatus.FAILED
    assert "splice" in c.citations[0].reason


def test_ellipsis_segments_out_of_order_fail() -> None:
    """Segments must occur in the quote's order."""
    c = _run(_one("arising out of this Agreement ... The Supplier shall not")).findings[0].citations[0]
    assert c.status is CitationStatus.FAILED


def test_short_ellipsis_segment_is_rejected() -> None:
    """Each segment must be long enough to prove something."""
    c = _run(_one("The Supplier ... liable")).findings[0].citations[0]
    assert c.status is CitationStatus.REJECTED


def test_truncated_quote_stopping_before_except_is_flagged() -> None:
    """A quote that stops right before "except" is flagged and its finding needs review."""
    quote = "shall not be liable for any indirect or consequential damages arising out of this Agreement"
    finding = _run(_one(quote)).findings[0]
    c = finding.citations[0]
    assert c.status is CitationStatus.VERIFIED
    assert any("except" in f for f in c.flags)
    assert finding.supervision is Supervision.ELEVATED


def test_quote_leaving_out_a_preceding_negation_is_flagged() -> None:
    """A quote that starts right after "not" is flagged (the edit just outside the span)."""
    c = _run(_one("be liable for any indirect or consequential damages")).findings[0].citations[0]
    assert any("'not'" in f for f in c.flags)


# ── findings ─────────────────────────────────────────────────────────────────────────────────────
def test_finding_survives_if_one_citation_verifies() -> None:
    """One verified citation carries the finding; the failed one is reported as failed."""
    proposal = Proposal(
        id="p1",
        claim="a claim",
        citations=(
            CitationRequest(quote="words that are nowhere in it at all"),
            CitationRequest(quote="The Customer must pay each undisputed invoice"),
        ),
    )
    finding = _run(proposal).findings[0]
    assert finding.status is FindingStatus.VERIFIED
    assert [c.status for c in finding.citations] == [CitationStatus.FAILED, CitationStatus.VERIFIED]


def test_absence_proposal_bypasses_the_gate_with_high_supervision() -> None:
    """An absence finding is not quote-verified, says so, and carries high supervision."""
    proposal = Proposal(
        id="p9",
        claim="There is no governing-law clause.",
        absence=AbsenceEvidence(requirement="governing law", searched=("governing law", "laws of")),
    )
    result = _run(proposal)
    finding = result.findings[0]
    assert finding.evidence is Evidence.ABSENCE and finding.supervision is Supervision.HIGH
    assert finding.status is FindingStatus.NEEDS_REVIEW
    data = finding.to_dict()
    assert data["quote_verified"] is False and "not quote-verified" in data["disclosure"]
    assert [(e.action, e.result) for e in result.audit] == [("absence", "passed")]


@pytest.mark.parametrize(
    "proposal",
    [
        Proposal(id="a", claim="c", absence=AbsenceEvidence(requirement="governing law", searched=("law",))),
        Proposal(id="q", claim="c", citations=(CitationRequest(quote="The Supplier shall not be liable"),)),
    ],
    ids=["absence", "quote"],
)
def test_withheld_document_is_refused(proposal: Proposal) -> None:
    """Nothing is verified against a withheld document (an absence there would be the parser's silence)."""
    with pytest.raises(WithheldDocumentError, match=r"^msa\.txt: the document is withheld \(fidelity"):
        gate(_doc(status="withheld"), [proposal])


def test_every_decision_is_audited_and_the_store_chains_them() -> None:
    """One audit event per citation and per finding, with proposer, ids, hash, rule, thresholds."""
    proposals = [
        Proposal(
            id="p1",
            claim="c",
            rule="liability-cap",
            proposer="agent-x",
            citations=(
                CitationRequest(quote="The Supplier shall not be liable"),
                CitationRequest(quote="short"),
            ),
        ),
        Proposal(id="p2", claim="c"),
    ]
    doc = _doc()
    result = _run(*proposals, doc=doc)
    assert [(e.action, e.result) for e in result.audit] == [
        ("citation", "verified"),
        ("citation", "rejected"),
        ("finding", "verified"),
        ("finding", "rejected"),
    ]
    first = result.audit[0]
    assert first.actor == "agent-x" and first.rule == "liability-cap"
    assert first.document_sha256 == doc.text_sha256
    assert first.payload["proposal_id"] == "p1" and first.payload["citation"]["quote"].startswith(
        "The Supplier"
    )
    assert first.payload["thresholds"]["min_quote_chars"] == 10
    store = Store.open()
    store.write_review(
        kind="verify", document=doc, findings=[f.to_dict() for f in result.findings], audit=result.audit
    )
    assert store.check_audit() == (4, None)


def test_index_is_built_once_per_document_version() -> None:
    """The normalized index is cached by the text's hash."""
    assert index_for(_doc()) is index_for(_doc())


# ── proposals JSON ───────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], 'src: expected a JSON object {"proposals": [...]}, got a list'),
        ({}, "src: proposals: field required"),
        ({"proposals": {}}, "src: proposals: expected a list, got an object"),
        ({"proposals": [], "x": 1}, "src: x: unknown field (expected only 'proposals')"),
        ({"proposals": [3]}, "src: proposals[0]: expected an object, got a number"),
        (
            {"proposals": [{"id": "a", "claim": "c", "citations": [{"quote": "q"}, {"section": "1"}]}]},
            "src: proposals[0].citations[1].quote: field required",
        ),
        (
            {"proposals": [{"id": "a", "claim": "c", "citations": [{"quote": "q", "score": 1}]}]},
            "src: proposals[0].citations[0].score: unknown field (not part of the proposals shape)",
        ),
        (
            {"proposals": [{"id": "a", "claim": "c", "citations": [{"quote": 5}]}]},
            "src: proposals[0].citations[0].quote: input should be a valid string, got a number",
        ),
        (
            {"proposals": [{"id": "a", "claim": "c", "absence": {"requirement": "r"}}]},
            "src: proposals[0].absence.searched: field required",
        ),
        (
            {
                "proposals": [
                    {"id": "a", "claim": "c", "citations": []},
                    {"id": "a", "claim": "d", "citations": []},
                ]
            },
            "src: proposals[1].id: duplicate id 'a' (first used by proposals[0])",
        ),
    ],
    ids=[
        "not-object",
        "missing-proposals",
        "proposals-not-list",
        "extra-top-level",
        "item-not-object",
        "missing-quote",
        "unknown-field",
        "wrong-type",
        "absence-missing-searched",
        "duplicate-id",
    ],
)
def test_malformed_proposals_name_the_json_path(data: object, message: str) -> None:
    """Untrusted proposals are schema-checked; the error names the JSON path."""
    with pytest.raises(ProposalError) as info:
        parse_proposals(data, source="src")
    assert str(info.value) == message


def test_proposals_parse_into_values() -> None:
    """A valid document of both kinds becomes Proposal values (an empty citation list is the gate's call)."""
    parsed = parse_proposals(
        {
            "proposals": [
                {
                    "id": "p1",
                    "claim": "c",
                    "rule": "r",
                    "severity": "high",
                    "citations": [{"quote": "q", "section": "11.2", "page": 3, "near": 100}],
                },
                {"id": "p2", "claim": "c", "citations": []},
                {"id": "p3", "claim": "c", "absence": {"requirement": "law", "searched": ["governing law"]}},
            ]
        }
    )
    assert parsed[0].citations[0] == CitationRequest(quote="q", section="11.2", page=3, near=100)
    assert parsed[1].citations == ()
    assert parsed[2].absence is not None and parsed[2].absence.searched == ("governing law",)
