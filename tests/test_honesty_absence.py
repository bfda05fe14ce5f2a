"""When an absence is allowed: a `missing` finding only where nothing the search put nearest the clause
plausibly holds it (the absence net, `playbooks/engine/net.py`: the clause's core words together in one
sentence of the retriever's or the locator's best passages make it `needs_review`, naming the passage and
why — never a bare word like "fees"). Synthetic texts with invented party names, written for these tests."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text

HEAD = (
    'This Agreement is made between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. ("Kestrix"). '
    "Kestrix shall provide the network services to Norvale."
)
LAW = "Governing Law. This Agreement is governed by the laws of the State of New York."


def _contract(*body: str) -> str:
    return "\n\n".join(["MASTER SERVICES AGREEMENT", HEAD, *body, LAW]) + "\n"


@lru_cache(maxsize=16)
def _by_rule(text: str, playbook: str = "msa-customer") -> dict[str, Any]:
    result = review(document_from_text(text), load_playbook(playbook))
    return {str(f.proposal.rule): f for f in result.findings}


def _outcome(f: Any) -> str:
    return str(f.proposal.details["outcome"])


def test_an_amount_and_how_it_is_paid_in_other_words_is_no_absence() -> None:
    text = _contract(
        "4. Consideration. In return for the services, Norvale shall remit USD 120,000 to Kestrix by wire "
        "transfer upon signature of this Agreement."
    )
    f = _by_rule(text)["payment"]
    assert _outcome(f) == "needs_review"
    claim = str(f.proposal.claim)
    assert "may be one" in claim and "“USD 120,000”" in claim and "“wire transfer”" in claim
    assert next(c.quote for c in f.proposal.citations).startswith("In return for the services")
    # the search record is kept: what was searched, for the reader who confirms the absence
    assert f.proposal.details.get("searched")


@pytest.mark.parametrize(
    "clause",
    [
        "4. Consideration. The fees are set out in the order form.",
        # an amount in a cap on liability is no payment term, though it is "paid"
        "11. Liability. Kestrix's total liability shall not exceed $500,000 paid under this Agreement.",
    ],
    ids=["bare-fees", "liability-cap-amount"],
)
def test_a_bare_word_or_another_clauses_amount_leaves_the_absence(clause: str) -> None:
    f = _by_rule(_contract(clause))["payment"]
    assert _outcome(f) == "missing"


def test_a_forum_a_dispute_and_its_settling_in_one_sentence_is_no_absence() -> None:
    text = _contract(
        "17. Differences. Should a controversy arise between the parties, either of them may refer it to "
        "arbitration, and the award shall be final."
    )
    f = _by_rule(text)["dispute_resolution"]
    assert _outcome(f) == "needs_review"
    assert "“arbitration”" in str(f.proposal.claim) and "“controversy”" in str(f.proposal.claim)


def test_a_contract_with_no_such_words_keeps_its_absence() -> None:
    f = _by_rule(_contract("5. Staff. Kestrix shall assign qualified engineers to the services."))
    assert _outcome(f["dispute_resolution"]) == "missing"
    assert _outcome(f["payment"]) == "missing"
