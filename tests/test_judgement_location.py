"""A clause is the passage whose words carry its terms: located passages that state none of them are set
aside (another candidate, or an honest absence), and a red line drawn for another kind of contract is not
earned. Synthetic contracts written for these tests."""

from __future__ import annotations

from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text

SUPPLY = (
    "\n\n".join(
        [
            "SUPPLY AGREEMENT",
            'This Supply Agreement is made between Flotex Inc. ("Flotex") and Chemco LLC ("Chemco"). '
            "Chemco shall sell the Product to Flotex and Flotex shall purchase the Product from Chemco.",
            "1. Purchase. Flotex shall pay for the Product it orders. Terms of payment will be 1/3 upon "
            "placement of order and 2/3 balance net thirty (30) days.",
            "2. Rework and Product Liability Indemnification. In the event of any defect in the Product, "
            "Chemco will, upon Flotex's request, rework the Product and indemnify Flotex against claims "
            "arising from the defect.",
            "3. Termination. Either Flotex or Chemco may terminate this Agreement upon written notice when "
            "the other party materially breaches this Agreement and does not remedy the breach within "
            "30 days.",
            "4. Attorney's Fees. If any legal action is brought for the enforcement of this Agreement, the "
            "prevailing party shall be entitled to recover its reasonable attorney's fees and costs.",
            "5. Governing Law. This Agreement is governed by the laws of the State of Texas.",
        ]
    )
    + "\n"
)


def _by_rule() -> dict[str, Any]:
    result = review(document_from_text(SUPPLY), load_playbook("msa-customer"))
    assert result.roles is not None and result.roles.resolved
    return {str(f.proposal.rule): f for f in result.findings}


def test_a_heading_word_alone_does_not_make_a_liability_cap() -> None:
    """'Product Liability Indemnification' states no cap: absent, and the passage set aside is named."""
    lol = _by_rule()["limitation_of_liability"]
    assert lol.proposal.details["outcome"] == "missing"
    assert lol.proposal.absence is not None
    searched = " ".join(lol.proposal.absence.searched)
    assert "considered and not taken" in searched and "Rework and Product Liability" in searched


def test_attorneys_fees_are_not_the_payment_terms() -> None:
    payment = _by_rule()["payment"]
    assert payment.proposal.details["extracted"]["payment_days"]["value"] == 30
    assert all("attorney" not in q.text.lower() for q in payment.verified_quotes)
    assert any("net thirty (30)" in q.text for q in payment.verified_quotes)


def test_a_prevailing_party_is_not_an_order_of_precedence() -> None:
    precedence = _by_rule()["order_of_precedence"]
    assert precedence.proposal.details["outcome"] == "missing"
    assert not precedence.verified_quotes


def test_either_named_party_may_terminate_binds_us() -> None:
    tfc = _by_rule()["termination_for_cause"]
    assert tfc.proposal.details["extracted"]["holder"]["value"] == "either"
    assert "only the supplier" not in tfc.proposal.claim


def test_a_red_line_written_for_services_is_not_drawn_on_a_supply_contract() -> None:
    law = _by_rule()["governing_law"]
    assert law.proposal.details["outcome"] == "needs_review"
    assert "written for" in str(law.proposal.details["reason"])
    assert law.supervision.value != "standard"


def test_a_finding_that_asks_for_review_is_never_at_standard_supervision() -> None:
    findings = _by_rule().values()
    asking = [f for f in findings if f.proposal.details.get("outcome") == "needs_review"]
    assert asking
    assert all(f.supervision.value != "standard" for f in asking)


def test_an_indemnity_that_names_no_infringement_is_not_an_ip_indemnity() -> None:
    """A product-defect indemnity says nothing of IP: the IP indemnity is absent."""
    ip = _by_rule()["ip_indemnity"]
    assert ip.proposal.details["outcome"] == "missing"


def test_the_supplier_hereby_agreeing_to_indemnify_against_infringement_is_read() -> None:
    text = SUPPLY.replace(
        "5. Governing Law.",
        "6. Patents. Chemco hereby agrees to indemnify, defend and hold Flotex harmless from any claims "
        "that the Product infringes any patent.\n\n5. Governing Law.",
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    ip = next(f for f in result.findings if f.proposal.rule == "ip_indemnity")
    assert ip.proposal.details["extracted"]["by_supplier"]["value"] is True
    assert ip.proposal.details["outcome"] in ("standard", "fallback")
