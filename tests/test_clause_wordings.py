"""Clauses written in words the rules did not know, found; and the new words kept off other clauses. The
eighth wave's classes: payment stated as instalments tied to events or to a date (an amount "due upon" an
event, a share of the price on an order's acceptance and the balance on shipping documents, a fixed sum
"within … days after" a date, costs "invoiced … on a quarterly basis"); a payment clause under its own
heading kept where a value read elsewhere in the contract made another article look like the clause;
arbitration that a party "must submit the dispute to"; a warranty worded as a duty that the work meet the law,
or a professional attitude in the services; a purpose limitation worded as information "not … used outside
the scope of this Agreement". And the wrong clause: a force-majeure damages sentence, a product-liability
heading, a heading about what the parties do, the clause saying when the agreement takes effect, a bracketed
heading. Each agreement is written for these tests, one behaviour each."""

from __future__ import annotations

from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text
from tests.test_judgement_about import _outcome, _quoted
from tests.test_judgement_clauses import _value

# no payment clause of its own: each test adds the one it reads
PREAMBLE = (
    "CONSULTING SERVICES AGREEMENT",
    'This Consulting Services Agreement is made between Larkmoor Ltd ("Client") and Fenwick Advisory LLC '
    '("Consultant"). Consultant shall provide consulting services to Client.',
    "1. Governing Law. This Agreement is governed by the laws of the State of New York.",
)


def _by_rule(*clauses: str) -> dict[str, Any]:
    text = "\n\n".join([*PREAMBLE, *clauses]) + "\n"
    result = review(document_from_text(text), load_playbook("msa-customer"))
    assert result.roles is not None and result.roles.resolved
    return {str(f.proposal.rule): f for f in result.findings}


# ------------------------------------------------------------------------------------- payment by events


def test_an_amount_due_upon_an_event_is_the_payment_clause() -> None:
    """'a retainer of $20,000 due upon receipt of this engagement letter and $10,000 due upon delivery of
    the final report': instalments tied to events are payment terms, not an absence of them."""
    pay = _by_rule(
        "2. Consideration. Client will pay Consultant the following: a retainer of $20,000 due upon receipt "
        "of this engagement letter, and a further $10,000 due upon delivery of the final report."
    )["payment"]
    assert _outcome(pay) != "missing"
    assert "due upon receipt" in _quoted(pay)


def test_instalments_paid_upon_milestones_are_the_payment_clause() -> None:
    """'The first instalment of EUR 40.5 thousand shall be paid upon execution …': a decimal point in the
    amount does not end the sentence the pattern reads."""
    pay = _by_rule(
        "2. Instalments. Phase A: the first instalment of EUR 40.5 thousand shall be paid upon execution of "
        "this Agreement. Phase B: the second instalment shall be paid upon completion of the feasibility "
        "study."
    )["payment"]
    assert _outcome(pay) != "missing"
    assert "shall be paid upon execution" in _quoted(pay)


def test_a_share_of_the_price_on_an_orders_acceptance_is_the_payment_clause() -> None:
    """'On acceptance of each order the Client shall remit by bank transfer forty percent (40%) of the order
    price; the outstanding balance on delivery of the goods': read as payment, part of it up front."""
    pay = _by_rule(
        "2. Remittance. On acceptance of each order the Client shall remit by wire transfer forty percent "
        "(40%) of the order price. The Client shall remit the outstanding balance upon delivery of the "
        "deliverables."
    )["payment"]
    assert _outcome(pay) != "missing"
    assert "forty percent (40%) of the order price" in _quoted(pay)
    assert _value(pay, "upfront") is True


def test_a_fixed_sum_within_days_after_a_date_is_the_payment_clause() -> None:
    """'Within fifteen (15) days after the Effective Date, Client will pay to Consultant US$75,000': a sum
    due a time after a date, said before the verb."""
    pay = _by_rule(
        "2. Signing Payment. Within fifteen (15) days after the Effective Date, Client will pay to "
        "Consultant US$75,000 as a one-time engagement payment."
    )["payment"]
    assert _outcome(pay) != "missing"
    assert "will pay to" in _quoted(pay)


def test_costs_invoiced_on_a_periodic_basis_are_the_payment_clause() -> None:
    pay = _by_rule(
        "2. Expenses. Client agrees to bear the travel costs of the engagement, such costs to be billed by "
        "Consultant on a monthly basis."
    )["payment"]
    assert _outcome(pay) != "missing"
    assert "on a monthly basis" in _quoted(pay)


def test_an_event_tied_price_increase_is_not_the_payment_clause() -> None:
    """A price-increase limit and an audit's cost shifting use 'price' and 'upon' but fix no payment: the
    event-tied patterns do not make them the payment clause."""
    by = _by_rule(
        "2. Price Changes. Upon each anniversary of this Agreement the rates may increase by no more than "
        "three percent (3%) of the prior year's rates.",
        "3. Audit. Upon completion of any audit showing an underpayment of more than five percent (5%) of "
        "the amount due, Consultant shall bear the cost of the audit.",
    )
    pay = by["payment"]
    assert "anniversary" not in _quoted(pay)
    # the absence net may quote the audit sentence as one to read, never as the located clause
    assert _outcome(pay) in {"missing", "needs_review"}
    assert "cost of the audit" not in _quoted(pay) or "no clause of the kind was recognised" in str(
        pay.proposal.claim
    )


PAYMENT_ARTICLE = (
    "Article 3. Payment Schedule\n\nClient shall pay the service fee by stages as follows: the first "
    "stage fee shall be paid upon signing of this Agreement; the second stage fee shall be paid upon "
    "approval of the design report."
)
EXCLUSIONS = (
    "Article 4. Exclusions\n\nThe service fee does not include the deposit of survey documents with the "
    "planning authority."
)


def test_the_payment_article_is_kept_where_another_article_reads_a_value_of_the_rule() -> None:
    """A value the rule reads anywhere in the contract (an up-front deposit) says nothing of another
    candidate passage: the article headed as the payment terms stays the clause quoted."""
    pay = _by_rule(PAYMENT_ARTICLE, EXCLUSIONS)["payment"]
    assert "shall be paid upon signing" in _quoted(pay)


def test_a_deposit_of_documents_is_no_upfront_payment() -> None:
    """'the deposit of survey documents': a deposit of money is a deposit of an amount."""
    article = (
        "Article 3. Payment Schedule\n\nClient shall pay each stage fee upon approval of the design report "
        "for that stage."
    )
    pay = _by_rule(article, EXCLUSIONS)["payment"]
    assert _value(pay, "upfront") is not True


# ------------------------------------------------------------------------------------- dispute resolution


def test_a_duty_to_submit_the_dispute_to_arbitration_is_the_dispute_clause() -> None:
    """'the aggrieved party must submit the dispute to binding arbitration in accordance with the rules of
    the …' after a negotiation step, under a run-in heading the parser does not read as a section."""
    dr = _by_rule(
        "2. General. (a) Notices are given in writing. (b) Disputes. The parties shall first try to settle "
        "any disagreement through good faith talks for twenty (20) days. Failing that, the aggrieved party "
        "must submit the dispute to binding arbitration in accordance with the rules of the International "
        "Centre for Dispute Resolution."
    )["dispute_resolution"]
    assert _outcome(dr) != "missing"
    assert "submit the dispute to binding arbitration" in _quoted(dr)
    assert _value(dr, "arbitration") is True


def test_a_notice_of_termination_is_not_the_dispute_clause() -> None:
    """'submit' and 'rules' alone, with no arbitration or mediation, are no dispute clause."""
    dr = _by_rule(
        "2. Termination. Either party may submit the notice to the other party in accordance with the rules "
        "of Section 5."
    )["dispute_resolution"]
    assert _outcome(dr) == "missing"


# ------------------------------------------------------------------------------------- warranties as duties


def test_a_duty_that_the_work_meet_the_law_is_a_warranty() -> None:
    """'Consultant shall ensure that all deliverables of the engagement meet applicable building codes':
    a promise about the work, by the supplier."""
    w = _by_rule(
        "2. Duties of Consultant. Consultant shall ensure that all reports and drawings of the engagement "
        "meet applicable building codes and regulations."
    )["warranties"]
    assert _outcome(w) != "missing"
    assert "meet applicable building codes" in _quoted(w)
    assert _value(w, "professional_standard") is True


def test_a_professional_attitude_in_the_services_is_a_warranty() -> None:
    w = _by_rule(
        "2. Conduct. Consultant shall adopt a diligent professional approach in all the services under this "
        "Agreement."
    )["warranties"]
    assert _outcome(w) != "missing"
    assert "professional approach" in _quoted(w)


def test_our_duty_that_our_use_complies_with_law_is_no_warranty() -> None:
    """'Client shall ensure that its use of the services complies with applicable laws' is the customer's
    duty about its own use, not a promise about the supplier's work."""
    w = _by_rule("2. Use. Client shall ensure that its use of the services complies with applicable laws.")[
        "warranties"
    ]
    assert _outcome(w) == "missing"


# ------------------------------------------------------------------------------------- data use by scope


def test_information_not_used_outside_the_agreements_scope_is_a_purpose_limitation() -> None:
    data = _by_rule(
        "2. Confidentiality. All Client data provided to Consultant shall be treated as confidential and "
        "shall not be copied, disclosed to others or used outside the scope of this Agreement."
    )["customer_data_use"]
    assert _outcome(data) != "missing"
    assert "used outside the scope of this Agreement" in _quoted(data)
    assert _value(data, "limited_to_services") is True


def test_a_product_not_used_outside_a_study_is_no_data_clause() -> None:
    """'will not use the samples outside of the scope of the trial' limits a thing, not information."""
    data = _by_rule("2. Samples. Consultant will not use the samples outside of the scope of the trial.")[
        "customer_data_use"
    ]
    assert "outside of the scope" not in _quoted(data)


# ------------------------------------------------------------------------------------- the wrong clause

EXCUSE = (
    "9. Force Majeure\n\nA party prevented from performing by an event beyond its reasonable control shall "
    "notify the other party promptly, and its performance shall be suspended while the event continues. "
    "Neither party shall be liable to the other for any direct, indirect or consequential damages arising "
    "from a suspension of performance caused by such an event."
)


def test_a_force_majeure_damages_sentence_is_not_the_limitation_of_liability() -> None:
    """'Neither party shall be liable … for any direct, indirect or consequential damages arising from a
    suspension … caused by such an event' under a Force Majeure heading excuses the event: no limit on
    liability, whatever kinds of loss it names."""
    lol = _by_rule(EXCUSE)["limitation_of_liability"]
    assert _outcome(lol) == "missing"
    assert "suspension of performance" not in _quoted(lol)


def test_a_limitation_of_liability_beside_a_force_majeure_clause_is_still_found() -> None:
    cap = (
        "10. Limitation of Liability. Neither party shall be liable for any indirect or consequential "
        "damages, and each party's aggregate liability shall not exceed the fees paid in the twelve (12) "
        "months preceding the claim."
    )
    lol = _by_rule(EXCUSE, cap)["limitation_of_liability"]
    assert "aggregate liability shall not exceed" in _quoted(lol)
    assert "suspension of performance" not in _quoted(lol)


PRODUCT_LIABILITY = (
    "8. Product Liability and Insurance\n\n8.1 Consultant shall indemnify Client against any liability for "
    "death or personal injury caused by a defect in the reports, except to the extent the liability arises "
    "from the wilful misconduct of Client.\n\n8.2 Consultant shall maintain product liability insurance of "
    "no less than $2,000,000."
)


def test_a_product_liability_heading_is_not_the_limitation_of_liability() -> None:
    """'8. Product Liability and Insurance' heads an indemnity and its insurance: the indemnity's exception
    for the other's wilful misconduct is no carve-out from a cap the contract does not have."""
    lol = _by_rule(PRODUCT_LIABILITY)["limitation_of_liability"]
    assert _outcome(lol) == "missing"
    assert "wilful misconduct" not in _quoted(lol)


def test_product_liability_insurance_is_still_the_insurance_clause() -> None:
    ins = _by_rule(PRODUCT_LIABILITY)["insurance"]
    assert "product liability insurance" in _quoted(ins)


def test_a_heading_about_what_the_parties_do_is_not_the_parties_clause() -> None:
    """'12. Obligations of the Parties on Expiry' names the parties but says what they do: the parties
    finding quotes the opening statement that names them."""
    parties = _by_rule(
        "12. Obligations of the Parties on Expiry. On expiry each party shall return the other's materials."
    )["parties"]
    assert "Obligations of the Parties" not in _quoted(parties)
    assert "made between" in _quoted(parties)


def test_a_first_party_after_between_and_a_comma_is_read() -> None:
    """'by and between, A & B Holdings LLC, a Delaware company': the comma after 'between' and an
    ampersand in the name do not hide the first party."""
    text = (
        "SERVICES AGREEMENT\n\nThis Services Agreement is made by and between, A & B Holdings LLC, a "
        'Delaware company ("Client"), and Fenwick Advisory LLC ("Consultant"). Consultant shall provide '
        "consulting services to Client.\n\n1. Governing Law. This Agreement is governed by the laws of the "
        "State of New York.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    parties = {str(f.proposal.rule): f for f in result.findings}["parties"]
    assert _value(parties, "first_party") == "A & B Holdings LLC"


def test_the_end_of_the_term_is_read_from_the_clause_saying_when_it_ends() -> None:
    """'This Agreement shall come into force when signed …' says when it takes effect; 'This Agreement shall
    terminate when the project is completed and accepted' says when it ends, and is the clause quoted."""
    term = _by_rule(
        "7. Term and Termination\n\n7.1 This Agreement shall come into force when signed by both parties and "
        "when the related supply contract has been executed.\n\n7.2 This Agreement shall terminate when the "
        "project is completed and accepted by Client, unless terminated earlier under this Article 7."
    )["expiration_date"]
    assert "shall terminate when" in _quoted(term)


def test_a_bracketed_heading_is_no_written_variation_term() -> None:
    """'Section 9.5 [Amendments in Writing]. Amendments in Writing.' is a heading as filed: the written
    variation is read from the sentence under it, which is what the finding quotes."""
    ea = _by_rule(
        "Section 9.4 [Entire Agreement]. Entire Agreement. This Agreement sets forth the entire agreement "
        "between the parties and supersedes all prior understandings.",
        "Section 9.5 [Amendments in Writing]. Amendments in Writing. This Agreement shall not be altered or "
        "amended except by a writing signed by the party to be charged.",
    )["entire_agreement"]
    assert _value(ea, "written_variation") is True
    assert "altered or amended except by a writing" in _quoted(ea)
    assert "[Amendments in Writing]" not in _quoted(ea)


def test_a_company_abbreviation_in_the_preamble_does_not_end_it() -> None:
    """'between Harrow Media, Inc., a Nevada corporation ("Harrow"), and quill.io, Inc. (formerly Quill
    Labs, Inc.), …': the periods of 'Inc.' and of a domain name do not end the opening statement."""
    text = (
        "SERVICES AGREEMENT\n\nServices Agreement, effective as of May 2, 2001, between Harrow Media, Inc., "
        'a Nevada corporation ("Client"), and quill.io, Inc. (formerly known as Quill Labs, Inc.), a Nevada '
        'corporation ("Consultant"). Consultant shall provide consulting services to Client.\n\n'
        "1. Governing Law. This Agreement is governed by the laws of the State of New York.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    parties = {str(f.proposal.rule): f for f in result.findings}["parties"]
    assert _outcome(parties) == "standard"
    assert str(_value(parties, "first_party")).startswith("Harrow Media")
