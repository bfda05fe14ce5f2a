"""A yes/no the located clause leaves to the sections its own sentence names is read there: a payment term
due "after receipt of the statement described in Section 4.2" has the dispute mechanism Section 4.2 sets out.
Only a "yes" is read there (another section's silence is no reading of this clause), and a section the clause
does not name is not read. Synthetic texts with invented party names, written for these tests."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text
from tests.test_judgement_clauses import _value

HEAD = (
    'This Agreement is made between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. ("Kestrix"). '
    "Kestrix shall provide the services to Norvale, and Norvale shall pay Kestrix the fees."
)
STATEMENTS = (
    "4.2 Statements. By the fifth day of each month Kestrix shall send Norvale a statement of the services "
    "of the previous month. Should Norvale dispute any amount shown on a statement, Norvale shall give "
    "Kestrix written notice of it within ten (10) days, and the parties shall settle it in good faith."
)


def _contract(payment: str) -> str:
    parts = [
        "MASTER SERVICES AGREEMENT",
        HEAD,
        "4. Services and statements",
        "4.1 Services. Kestrix shall provide the network services described in Schedule 1.",
        STATEMENTS,
        "5. Payment",
        payment,
        "6. Governing Law",
        "6.1 This Agreement is governed by the laws of the State of New York.",
    ]
    return "\n\n".join(parts) + "\n"


@lru_cache(maxsize=8)
def _payment(payment: str) -> Any:
    result = review(document_from_text(_contract(payment)), load_playbook("msa-customer"))
    return {str(f.proposal.rule): f for f in result.findings}["payment"]


def test_a_dispute_mechanism_in_the_section_the_payment_term_names_is_read() -> None:
    pay = _payment(
        "5.1 Payment Terms. Norvale shall pay each amount due within forty-five (45) days after receipt of "
        "the statement described in Section 4.2."
    )
    assert _value(pay, "disputes") is True
    assert pay.proposal.details["outcome"] == "standard"
    quoted = " ".join(q.text for q in pay.verified_quotes)
    assert "dispute any amount" in quoted


def test_a_section_the_payment_term_does_not_name_is_not_read() -> None:
    pay = _payment(
        "5.1 Payment Terms. Norvale shall pay each amount due within forty-five (45) days of invoice."
    )
    assert _value(pay, "disputes") is not True
