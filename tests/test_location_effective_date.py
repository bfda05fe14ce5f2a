"""When a notice takes effect ("Effective Date of Notices") is not when the agreement does: the effective
date is read from the preamble's definition and the notices sub-clause is not cited. A synthetic contract."""

from __future__ import annotations

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text

TEXT = (
    "\n\n".join(
        [
            "SERVICES AGREEMENT",
            'This Services Agreement is made and entered into as of March 3, 2015 (the "Effective Date") '
            'by and between Harbell Ltd. ("Customer") and Quorvane Inc. ("Supplier").',
            "1. Services. Supplier shall provide the services described in Exhibit A to Customer.",
            "2. Fees. Customer shall pay each invoice within thirty (30) days of receipt.",
            "6. Notices.",
            "6.1 Manner of Notices. All notices shall be in writing, delivered by hand or registered mail.",
            "6.2 Effective Date of Notices. A notice shall be deemed given on the date of delivery, "
            "or five days after mailing.",
        ]
    )
    + "\n"
)


def test_effective_date_of_notices_is_not_the_agreements_effective_date() -> None:
    result = review(document_from_text(TEXT), load_playbook("msa-customer"))
    found = {str(f.proposal.rule): f for f in result.findings}["effective_date"]
    quotes = " ".join(c.quote for c in found.proposal.citations)
    assert "Effective Date of Notices" not in quotes
    assert "March 3, 2015" in quotes
    assert found.proposal.details["outcome"] == "standard"
