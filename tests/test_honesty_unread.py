"""What a `needs_review` says of a value the engine did not read: "the engine read no …" (the clause
it read holds nothing of the value's kind) or *not read* (the clause holds a candidate the engine could
not place — a number of days, a sentence in the field's own words), naming the candidate and quoting it;
and the ledger takes the engine's account of itself for what it is (a statement to review, never one to
remove). Wording only: the outcome is the same either way. Synthetic texts with invented party names,
written for these tests."""

from __future__ import annotations

from typing import Any

from citationgate.ledger import build_ledger
from citationgate.review import finding_dict
from tests.test_honesty_absence import _by_rule

HEAD = (
    'This Agreement is made between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. ("Kestrix"). '
    "Kestrix shall provide the services to Norvale, and Norvale shall pay Kestrix the fees."
)
LAW = "Governing Law. This Agreement is governed by the laws of the State of New York."


def _contract(*body: str) -> str:
    return "\n\n".join(["MASTER SERVICES AGREEMENT", HEAD, *body, LAW]) + "\n"


def _claim(f: Any) -> str:
    return str(f.proposal.claim)


def _quotes(f: Any) -> list[str]:
    return [c.quote for c in f.proposal.citations]


# a cure period the clause states in words ("the default continues for … after it is pointed out in a letter")
# that tie it to no cure or notice word the rule reads
CURE_IN_OTHER_WORDS = (
    "12. Termination. Either party may terminate this Agreement where the other is in default of any of its "
    "obligations and the default continues for forty-five (45) working days after it is pointed out in a "
    "letter."
)
NO_CURE_AT_ALL = (
    "12. Termination. Either party may terminate this Agreement if the other party commits a material "
    "breach of it."
)
VARIATION_IN_OTHER_WORDS = (
    "20. Entire Agreement. This Agreement is the entire agreement between the parties about its subject and "
    "supersedes all earlier understandings. A change to these terms takes effect, and a modification of them "
    "binds, only once each party has put its name to a document recording it."
)
NO_VARIATION_WORDS = (
    "20. Entire Agreement. This Agreement is the entire agreement between the parties about its subject and "
    "supersedes all earlier understandings."
)


def test_a_period_the_clause_gives_is_named_not_called_not_found() -> None:
    f = _by_rule(_contract(CURE_IN_OTHER_WORDS))["termination_for_cause"]
    claim = _claim(f)
    assert f.proposal.details["outcome"] == "needs_review"
    assert "not found" not in claim
    assert "cure days not read" in claim and "“forty-five (45) working days”" in claim
    assert any("forty-five (45) working days" in q for q in _quotes(f))


def test_a_clause_with_no_period_at_all_says_the_engine_read_none() -> None:
    f = _by_rule(_contract(NO_CURE_AT_ALL))["termination_for_cause"]
    claim = _claim(f)
    assert f.proposal.details["outcome"] == "needs_review"
    assert "the engine read no cure days" in claim
    assert "not read" not in claim and "not found" not in claim


def test_a_yes_no_the_clause_words_otherwise_is_not_read_and_its_sentence_quoted() -> None:
    f = _by_rule(_contract(VARIATION_IN_OTHER_WORDS))["entire_agreement"]
    claim = _claim(f)
    assert f.proposal.details["outcome"] == "needs_review"
    assert "written variation: not found" not in claim
    assert "written variation: not read (“A change to these terms" in claim
    assert any(q.startswith("A change to these terms takes effect") for q in _quotes(f))


def test_a_clause_silent_on_the_yes_no_keeps_its_plain_wording() -> None:
    f = _by_rule(_contract(NO_VARIATION_WORDS))["entire_agreement"]
    assert "not read" not in _claim(f)
    assert len(_quotes(f)) == 1


def test_the_wording_changes_no_outcome() -> None:
    # the same clause with a cure period the rule does read: a verdict, and nothing said of candidates
    read = (
        "12. Termination. Either party may terminate this Agreement if the other commits a material breach "
        "which it fails to remedy within thirty (30) days after written notice."
    )
    f = _by_rule(_contract(read))["termination_for_cause"]
    assert f.proposal.details["outcome"] == "standard"
    assert "not read" not in _claim(f)


def test_the_ledger_reviews_the_engines_account_of_itself_and_never_removes_it() -> None:
    text = _contract(CURE_IN_OTHER_WORDS, VARIATION_IN_OTHER_WORDS)
    by = _by_rule(text)
    findings = [finding_dict(by[r]) for r in ("termination_for_cause", "entire_agreement")]
    rows = [r for r in build_ledger(findings) if "not read" in r.claim or "the engine could not" in r.claim]
    assert rows
    assert all(r.support.value == "unverifiable" and r.action == "review" for r in rows)
    assert all("the engine's account" in r.explanation for r in rows)
