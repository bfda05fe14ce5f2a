"""Wordings the wave-16 and wave-17 audits found read wrong, each a class: an amendment whose title names the
agreement it amends; a passing "other than force majeure"; a list whose items each end in a full stop, under
a lead-in naming who may terminate ("shall each have the right but not the obligation to terminate … if any
of the following shall occur:"); "the minimum number of copies"; "as is reasonably practicable"; a silence
on third-party rights. Synthetic texts with invented names, written for these tests."""

from __future__ import annotations

from citationgate.review import review
from playbooks import load_playbook
from playbooks.incorporation import incorporations
from playbooks.library import document_from_text
from tests.test_judgement_clauses import _by_rule, _value
from tests.test_judgement_lead_ins import _contract
from tests.test_judgement_sections_named import _nda, _outcome


def test_an_amendment_titled_in_capitals_leaves_its_absences_open() -> None:
    text = (
        "FIRST AMENDMENT TO KESTRIX MANAGEMENT AND MAINTENANCE AGREEMENT\n\n"
        'THIS FIRST AMENDMENT TO KESTRIX MANAGEMENT AND MAINTENANCE AGREEMENT ("Amendment") is made as of '
        'December 1, 1990 by and between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. '
        '("Kestrix").\n\n'
        "1. Section 6.1 of the Agreement is amended to read: The term ends on July 20, 2006.\n\n"
        "2. Kestrix shall curtail the projects for any reason other than force majeure affecting the "
        "line.\n\n"
        "3. Except as amended hereby, the Agreement remains in full force and effect.\n"
    )
    assert incorporations(text)[0].name == "KESTRIX MANAGEMENT AND MAINTENANCE AGREEMENT"
    result = review(document_from_text(text), load_playbook("msa-customer"))
    found = {str(f.proposal.rule): f for f in result.findings}
    assert _outcome(found["limitation_of_liability"]) == "needs_review"
    assert "incorporates the KESTRIX" in found["limitation_of_liability"].proposal.claim
    # "other than force majeure" is a passing exception, not a force majeure clause
    assert "other than force majeure" not in " ".join(q.text for q in found["force_majeure"].verified_quotes)


def test_a_recitals_mention_of_an_amendment_is_no_incorporation() -> None:
    text = (
        'This License Agreement is made between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. '
        '("Kestrix").\n\n' + "Background. " * 80 + "\n\nWHEREAS, the parties entered into the License "
        "Agreement dated January 18, 2018, as amended by the Amendment to License Agreement dated April "
        "18, 2018.\n"
    )
    assert not incorporations(text)


def test_a_lead_in_names_who_may_terminate_for_its_full_stopped_items() -> None:
    text = _contract(
        "7. Termination. Kestrix and Norvale shall each have the right but not the obligation to "
        "terminate this "
        "Agreement upon forty-five (45) days prior written notice if any of the following shall occur:\n\n"
        "(a) Damage to the stadium closes it for more than thirty (30) days.\n\n"
        "(b) The cancellation of Kestrix's franchise.\n\n"
        "(c) The other party materially defaults in the performance of its material obligations under this "
        "Agreement and such other party fails to correct such breach within thirty (30) days of written "
        "notice."
    )
    tfc = _by_rule(text)["termination_for_cause"]
    assert _value(tfc, "holder") == "either" and _value(tfc, "cure_days") == 30


def test_force_majeure_caused_by_matters_such_as_acts_of_god() -> None:
    text = _contract(
        "9. The obligations of either party to perform under this Agreement shall be excused if such "
        "failure to "
        "perform is caused by matters such as acts of God, strikes, riots or war, which are reasonably "
        "beyond "
        "the control of the party obligated to perform."
    )
    assert _outcome(_by_rule(text)["force_majeure"]) != "missing"


def test_the_minimum_number_of_copies_is_no_minimum_commitment() -> None:
    text = _contract(
        "6.2 Kestrix shall make and keep only the minimum number of copies of any Confidential "
        "Information as "
        "may be required for archival reasons."
    )
    got = _by_rule(text).get("minimum_commitment")
    assert got is None or "minimum number of copies" not in " ".join(q.text for q in got.verified_quotes)


def test_as_is_reasonably_practicable_is_no_as_is_disclaimer() -> None:
    text = _contract(
        "1.8 Kestrix warrants that it shall use reasonable best efforts to effect as wide a distribution "
        "as is "
        "reasonably practicable without affecting the price.",
        "8. Disclaimer. The Software is provided as is, without warranty of any kind.",
    )
    warranties = _by_rule(text)["warranties"]
    said = warranties.proposal.details["extracted"].get("as_is") or {}
    assert "practicable" not in said.get("text", "")


def test_confidentiality_for_two_years_thereafter_is_read() -> None:
    text = _contract(
        "14. Confidentiality. Each party shall keep the other party's Confidential Information confidential "
        "during the Term and for two (2) years thereafter, and shall return or destroy it on termination."
    )
    conf = _by_rule(text)["confidentiality"]
    assert _value(conf, "survival_years") == 2
    assert _outcome(conf) != "standard"  # below the playbook's three years


def test_third_party_rights_are_never_excluded_by_silence() -> None:
    text = _contract(
        "12. Warranties. Kestrix owns all rights necessary to grant to Norvale the rights granted under this "
        "Agreement, and no third party has any claim to the Content."
    )
    tpb = _by_rule(text).get("third_party_beneficiaries")
    assert tpb is None or _outcome(tpb) != "standard"


def test_a_statement_that_no_rights_are_conferred_on_third_parties_is_read() -> None:
    text = _contract("13. This Agreement does not confer any rights or remedies on any third party.")
    assert _value(_by_rule(text)["third_party_beneficiaries"], "grants_rights") is False


def test_an_nda_indemnity_for_a_failure_to_comply_is_an_indemnity() -> None:
    got = _nda(
        "6.2 The Recipient shall indemnify the Discloser against any loss or damage suffered by the "
        "Discloser as "
        "a result of the failure of the Recipient or its Representatives to comply with the terms of this "
        "Agreement.",
        "6.3 The Discloser is entitled to injunctive relief for any breach of this Agreement.",
    )
    assert _value(got["remedies"], "indemnity") is True


def test_covenants_expiring_on_the_first_anniversary_are_a_one_year_term() -> None:
    got = _nda(
        "9. Termination: The covenants contained in this agreement shall terminate and expire on the "
        "date that "
        "is the first anniversary of the date first set out above."
    )
    assert _value(got["confidentiality_term"], "term_years") == 1


def test_half_the_price_before_shipment_is_paid_upfront() -> None:
    text = _contract(
        "4. Payment. Norvale shall pay half (1/2) of the purchase price prior to shipment and the remaining "
        "balance thirty (30) days after shipment of the Products."
    )
    assert _value(_by_rule(text)["payment"], "upfront") is True


def test_no_modification_by_purchase_order_forms_is_an_order_of_precedence() -> None:
    text = _contract(
        "23. No modifications shall be effected by any Norvale purchase order forms or other documents "
        "containing terms at variance with those in this Agreement."
    )
    assert _value(_by_rule(text)["order_of_precedence"], "precedence") == "agreement_prevails"


def test_a_term_after_an_event_is_not_the_agreements_term() -> None:
    text = _contract(
        "7. Termination. This Agreement shall continue indefinitely. This Agreement will terminate "
        "automatically one year after the closing of any sale of Kestrix by its parent."
    )
    exp = _by_rule(text)["expiration_date"]
    assert _value(exp, "term_months") is None and _value(exp, "until_terminated") is True


def test_copies_the_law_requires_the_recipient_to_retain_are_retained_copies() -> None:
    got = _nda(
        "5.1 On request the Recipient shall return or destroy the Confidential Information.",
        "5.2 Clause 5.1 shall not apply to the extent that the Recipient is required to retain any such "
        "Confidential Information by any applicable law or for the purposes of any audit.",
    )
    assert _outcome(got["retained_copies"]) != "missing"
