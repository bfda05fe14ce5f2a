"""An excuse for delay worded without "force majeure" or "reasonable" is the force majeure clause; a choice of
law that "shall prevail" over a conflict of laws is not precedence between documents. Synthetic contracts."""

from __future__ import annotations

from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text

TEXT = (
    "\n\n".join(
        [
            "SERVICES AGREEMENT",
            'This Services Agreement is made by Harbell Ltd. ("Harbell") and Quorvane Inc. ("Quorvane"), '
            "and Quorvane shall provide the Services to Harbell and Harbell shall pay for them.",
            "1. Fees. Harbell shall pay each invoice within thirty (30) days of receipt.",
            "2. Delays. Should any cause beyond the control of Quorvane arise, Quorvane shall not be liable "
            "for any resulting delay in performing the Services.",
            "3. Law. This Agreement is governed by the laws of the State of Ohio, which laws shall prevail "
            "in the event of any conflict.",
        ]
    )
    + "\n"
)


def _by_rule() -> dict[str, Any]:
    result = review(document_from_text(TEXT), load_playbook("msa-customer"))
    return {str(f.proposal.rule): f for f in result.findings}


def test_a_cause_beyond_control_excusing_delay_is_force_majeure() -> None:
    fm = _by_rule()["force_majeure"]
    assert fm.proposal.details["outcome"] != "missing"
    assert "beyond the control" in " ".join(c.quote for c in fm.proposal.citations)


def test_a_prevailing_choice_of_law_is_not_order_of_precedence() -> None:
    oop = _by_rule()["order_of_precedence"]
    quotes = " ".join(c.quote for c in oop.proposal.citations)
    assert "laws shall prevail" not in quotes
