"""The claim-support ledger: atomic claims, deterministic support checks, enforcement, authority."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citationgate.ledger import (
    CitedPassage,
    JudgeVerdict,
    Support,
    build_ledger,
    check_support,
    extract_values,
    ledger_rows,
    split_claims,
    split_sentences,
)
from citationgate.proposals import parse_proposals
from citationgate.store import ReviewRecord, Store
from citationgate.verification import verify_and_store

FEES = "The Authority may fix fees for the use of any facility."
POLICY = "This policy covers all employees of the Authority."
CAP = "The Supplier's aggregate liability under this Agreement shall not exceed ₦50,000,000."
NOTICE = "Either party may terminate this Agreement on thirty (30) days' written notice."


# ── the cases ────────────────────────────────────────────────────────────────────────────
def test_employees_and_contractors_is_partial_naming_contractors() -> None:
    """The link works, the topic is right, half the sentence is unsupported: narrowed, not kept."""
    r = check_support("The policy covers employees and contractors", [POLICY])
    assert r.label is Support.PARTIAL
    assert "contractors" in r.explanation and "remove 'and contractors'" in r.explanation
    assert r.proposed == "The policy covers employees"


def test_amount_one_zero_off_is_unsupported() -> None:
    """₦500,000,000 against a passage that says ₦50,000,000."""
    r = check_support("The Supplier's liability is capped at ₦500,000,000", [CAP])
    assert r.label is Support.UNSUPPORTED
    assert "₦500,000,000" in r.explanation and "₦50,000,000" in r.explanation


def test_the_right_amount_in_other_words_is_supported() -> None:
    """ "capped at" and "shall not exceed" say the same; the amount agrees."""
    r = check_support("The Supplier's liability is capped at ₦50,000,000", [CAP])
    assert r.label is Support.SUPPORTED, r.explanation


def test_may_is_not_must() -> None:
    r = check_support("The Authority must fix fees for the use of any facility", [FEES])
    assert r.label is Support.UNSUPPORTED
    assert "'must' (obligation)" in r.explanation and "'may' (permission)" in r.explanation


def test_a_claim_split_in_two_one_supported_one_not() -> None:
    """One supported fragment cannot carry the rest: each atomic claim gets its own row."""
    claim = "The Authority may fix fees for the use of any facility, and may do so retrospectively."
    rows = ledger_rows(
        claim,
        [CitedPassage(finding="F2", start=0, end=len(FEES), text=FEES)],
        source="F2",
        authority="contract",
    )
    assert [r.claim for r in rows] == [
        "The Authority may fix fees for the use of any facility",
        "The Authority may do so retrospectively",
    ]
    assert [r.support for r in rows] == [Support.SUPPORTED, Support.UNSUPPORTED]
    assert "retrospectively" in rows[1].explanation
    assert [r.action for r in rows] == ["keep", "remove"]
    assert [r.id for r in rows] == ["F2.1", "F2.2"]


# ── more deterministic checks ────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize(
    ("claim", "passage", "label", "words"),
    [
        # "three (3) months" is 3 months, and "30 days" is thirty (30) days
        ("Either party may terminate on 30 days' notice", NOTICE, Support.SUPPORTED, None),
        ("Either party may terminate on 60 days' notice", NOTICE, Support.UNSUPPORTED, "60 days"),
        # a named party the passage does not mention, alone: unsupported
        ("The Customer may fix fees for the use of any facility", FEES, Support.UNSUPPORTED, "Customer"),
        # … and as a second party beside one it does mention: narrowed
        (
            "The Authority and the Minister may fix fees for the use of any facility",
            FEES,
            Support.PARTIAL,
            "Minister",
        ),
        # a negation the passage does not carry
        ("The Authority may not fix fees for the use of any facility", FEES, Support.UNSUPPORTED, "not"),
        # a negation the claim drops
        (
            "The Supplier shall disclose Confidential Information",
            "The Supplier shall not disclose Confidential Information.",
            Support.UNSUPPORTED,
            "disclose",
        ),
        # added precision
        ("The Authority may only fix fees for the use of any facility", FEES, Support.UNSUPPORTED, "only"),
        # stronger causal language
        (
            "The Authority may fix fees because of the use of any facility",
            FEES,
            Support.UNSUPPORTED,
            "because",
        ),
        # a universal quantifier the passage does not give
        ("The Authority may fix fees for the use of every facility", FEES, Support.SUPPORTED, None),
        (
            "The Supplier is liable for all damages",
            "The Supplier shall be liable for damages.",
            Support.PARTIAL,
            "all",
        ),
        # a percentage and a date
        (
            "Interest accrues at 5% from 1 January 2025",
            "Interest accrues at five per cent (5%) from January 1, 2025.",
            Support.SUPPORTED,
            None,
        ),
        (
            "Interest accrues at 15% from 1 January 2025",
            "Interest accrues at five per cent (5%) from January 1, 2025.",
            Support.UNSUPPORTED,
            "15%",
        ),
    ],
    ids=[
        "duration-parsed",
        "duration-wrong",
        "party-missing",
        "second-party",
        "negation-added",
        "negation-dropped",
        "precision",
        "causal",
        "universal-in-passage",
        "universal-added",
        "percent-and-date",
        "percent-wrong",
    ],
)
def test_deterministic_checks(claim: str, passage: str, label: Support, words: str | None) -> None:
    r = check_support(claim, [passage])
    assert r.label is label, r.explanation
    if words:
        assert words in r.explanation


def test_no_passage_is_unverifiable() -> None:
    r = check_support("The Authority may fix fees", [])
    assert r.label is Support.UNVERIFIABLE


def test_paraphrase_the_rules_cannot_decide_goes_to_review() -> None:
    """Some of the claim's words are not in the passage and no rule decides: unverifiable, not a pass."""
    r = check_support(
        "The Authority may fix reasonable fees for the use of any facility",
        [FEES],
    )
    assert r.label is Support.UNVERIFIABLE
    assert "reasonable" in r.explanation


# ── the judge protocol ───────────────────────────────────────────────────────────────────────────
class _RaisingJudge:
    name = "broken"

    def judge(self, claim: str, passages: Sequence[str]) -> JudgeVerdict:
        raise TimeoutError("model did not answer")


class _GarbageJudge:
    name = "garbage"

    def judge(self, claim: str, passages: Sequence[str]) -> JudgeVerdict:
        return JudgeVerdict(label="definitely", explanation="?")  # type: ignore[arg-type]


class _AgreeingJudge:
    name = "agree"

    def judge(self, claim: str, passages: Sequence[str]) -> JudgeVerdict:
        return JudgeVerdict(label=Support.SUPPORTED, explanation="'reasonable' is implied")


@pytest.mark.parametrize(
    ("judge", "label"),
    [
        (_RaisingJudge(), Support.UNVERIFIABLE),
        (_GarbageJudge(), Support.UNVERIFIABLE),
        (_AgreeingJudge(), Support.SUPPORTED),
    ],
    ids=["raises", "unparseable", "agrees"],
)
def test_a_judges_failure_stays_unverifiable(judge: Any, label: Support) -> None:
    """The judge is asked only what the rules could not decide; its failures are never a pass."""
    r = check_support(
        "The Authority may fix reasonable fees for the use of any facility", [FEES], judge=judge
    )
    assert r.label is label
    assert r.decided_by == f"judge:{judge.name}"


def test_the_judge_cannot_overrule_a_rule() -> None:
    """A wrong amount stays unsupported whatever a judge would say."""
    r = check_support("Liability is capped at ₦500,000,000", [CAP], judge=_AgreeingJudge())
    assert r.label is Support.UNSUPPORTED and r.decided_by == "rules"


# ── parsing ──────────────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("three (3) months", "duration", ("month", Decimal(3))),
        ("3 (three) months", "duration", ("month", Decimal(3))),
        ("one year", "duration", ("month", Decimal(12))),
        ("two weeks", "duration", ("day", Decimal(14))),
        ("ten (10) Business Days", "duration", ("business day", Decimal(10))),
        ("₦50,000,000", "money", ("NGN", Decimal(50_000_000))),
        ("$1.5 million", "money", ("USD", Decimal(1_500_000))),
        ("USD 10,000", "money", ("USD", Decimal(10_000))),
        ("12.5%", "percent", (Decimal("12.5"),)),
        ("twenty per cent", "percent", (Decimal(20),)),
        ("31 December 2025", "date", (2025, 12, 31)),
        ("December 31, 2025", "date", (2025, 12, 31)),
    ],
    ids=lambda x: str(x)[:20],
)
def test_extract_values(text: str, kind: str, value: tuple[Any, ...]) -> None:
    [v] = extract_values(text)
    assert (v.kind, v.value) == (
        kind,
        tuple(Decimal(x).normalize() if isinstance(x, Decimal) else x for x in value),
    )


def test_clause_references_are_not_values() -> None:
    assert extract_values("under clause 11.2 and s. 105N") == []


@pytest.mark.parametrize(
    ("claim", "atoms"),
    [
        # noun coordination is one claim
        ("The policy covers employees and contractors.", ["The policy covers employees and contractors"]),
        # clause coordination is two; the second borrows the subject
        (
            "The Supplier shall pay the fees and shall keep records.",
            ["The Supplier shall pay the fees", "The Supplier shall keep records"],
        ),
        # a semicolon
        (
            "Fees are due in 30 days; late fees accrue interest.",
            ["Fees are due in 30 days", "Late fees accrue interest"],
        ),
        # two sentences, an abbreviation inside one
        (
            "See cl. 4 for fees. The cap is 12 months' fees.",
            ["See cl. 4 for fees", "The cap is 12 months' fees"],
        ),
    ],
    ids=["nouns", "clauses", "semicolon", "sentences"],
)
def test_split_claims(claim: str, atoms: list[str]) -> None:
    assert split_claims(claim) == atoms


def test_split_sentences_keeps_numbers_and_quotes_whole() -> None:
    text = 'Clause 11.2 says "fees are due. Always." Then s. 105N applies.'
    q = text.index("fees")
    spans = split_sentences(text, opaque=[(q, text.index('"', q))])
    assert [text[a:b] for a, b in spans] == [
        'Clause 11.2 says "fees are due. Always."',
        "Then s. 105N applies.",
    ]


# ── a ledger built from a real review ────────────────────────────────────────────────────────────
CONTRACT = """MASTER SERVICES AGREEMENT

1. Policy
1.1 This policy covers all employees of the Supplier.
1.2 The Supplier's aggregate liability shall not exceed ₦50,000,000.

Schedule 1 Fees
The Customer shall pay the fees within thirty (30) days of invoice.
"""


def _review(tmp_path: Path, proposals: dict[str, Any]) -> ReviewRecord:
    path = tmp_path / "msa.txt"
    path.write_text(CONTRACT, encoding="utf-8")
    return verify_and_store(Store.open(), path, parse_proposals(proposals)).review


def test_ledger_rows_from_a_review(tmp_path: Path) -> None:
    """One row per atomic claim; partial keeps the rejected wording; authority recorded apart."""
    rec = _review(
        tmp_path,
        {
            "proposals": [
                {
                    "id": "p1",
                    "claim": "The policy covers employees and contractors.",
                    "citations": [{"quote": "This policy covers all employees of the Supplier."}],
                },
                {
                    "id": "p2",
                    "claim": "Liability is capped at ₦500,000,000 and the Customer shall pay within 30 days.",
                    "citations": [
                        {"quote": "The Supplier's aggregate liability shall not exceed ₦50,000,000."},
                        {"quote": "The Customer shall pay the fees within thirty (30) days of invoice."},
                    ],
                },
                {
                    "id": "p3",
                    "claim": "The Customer shall pay the fees within 30 days.",
                    "citations": [
                        {"quote": "The Customer shall pay the fees within thirty (30) days of invoice."}
                    ],
                },
                {
                    "id": "p4",
                    "claim": "There is no data processing agreement.",
                    "absence": {
                        "requirement": "data processing terms",
                        "searched": ["data processing", "DPA"],
                    },
                },
            ]
        },
    )
    rows = build_ledger(rec.findings, document=rec.version.document)
    by_id = {r.id: r for r in rows}
    f1, f2, f3, f4 = (f["id"] for f in rec.findings)
    assert by_id[f"{f1}.1"].support is Support.PARTIAL
    assert by_id[f"{f1}.1"].proposed == "The policy covers employees"
    assert by_id[f"{f1}.1"].rejected == "The policy covers employees and contractors"
    assert by_id[f"{f1}.1"].action == "narrow"
    # the union of a finding's passages: one atom unsupported, one supported
    assert [by_id[f"{f2}.1"].support, by_id[f"{f2}.2"].support] == [Support.UNSUPPORTED, Support.SUPPORTED]
    assert by_id[f"{f2}.1"].action == "remove"
    # a passage in a schedule: the authority says so, the label does not change
    assert by_id[f"{f3}.1"].support is Support.SUPPORTED
    assert by_id[f"{f3}.1"].authority == "schedule"
    assert by_id[f"{f1}.1"].authority == "contract"
    # an absence finding has no passage: review it
    assert by_id[f"{f4}.1"].support is Support.UNVERIFIABLE and by_id[f"{f4}.1"].action == "review"
    doc = rec.version.document
    for r in rows:
        for p in r.passages:
            assert p.start is not None and p.end is not None and doc.text[p.start : p.end] == p.text


def test_a_judgement_against_the_playbook_is_not_a_contract_claim() -> None:
    """ "— below the six months' minimum" is the playbook speaking: its own row, authority playbook."""
    cap = "The liability shall not exceed the fees paid in the three (3) months preceding the claim."
    rows = ledger_rows(
        "The liability cap is three (3) months of fees — below the six months' minimum.",
        [CitedPassage(finding="F1", start=0, end=len(cap), text=cap)],
        source="F1",
        authority="contract",
    )
    assert [(r.support, r.authority) for r in rows] == [
        (Support.SUPPORTED, "contract"),
        (Support.UNVERIFIABLE, "playbook"),
    ]
    assert rows[1].action == "review"


def test_acronym_spelled_out_in_the_passage_is_named() -> None:
    """ "IP" is "Intellectual Property" in the passage."""
    passage = (
        "The Supplier shall indemnify the Customer against claims that the Services infringe "
        "Intellectual Property Rights."
    )
    r = check_support("The Supplier shall indemnify the Customer against IP claims", [passage])
    assert r.label is Support.SUPPORTED, r.explanation


def test_referenced_document_authority() -> None:
    """A finding whose outcome is referenced_not_provided has that authority, whatever its label."""
    finding = {
        "id": "F1",
        "status": "verified",
        "claim": "Personal data is processed under the DPA.",
        "outcome": "referenced_not_provided",
        "citations": [{"status": "verified", "text": "processed under the DPA", "start": 0, "end": 23}],
    }
    [row] = build_ledger([finding])
    assert row.authority == "referenced_not_supplied"


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10**9), st.integers(1, 10**9))
def test_amounts_are_compared_by_value(a: int, b: int) -> None:
    """However an amount is written (₦ with thousands separators, or NGN without), the claim is
    supported only when its value equals the passage's."""
    r = check_support(f"The fee is ₦{a:,}", [f"The fee shall be NGN {b}."])
    assert (r.label is Support.SUPPORTED) == (a == b), r.explanation
    if a != b:
        assert r.label is Support.UNSUPPORTED
