"""Readings the wave-15 and wave-16 audits found wrong, each a class: a cap's carve-outs given by section
numbers ("EXCEPT FOR DAMAGES ARISING UNDER SECTIONS 14.A AND 16.A") followed to what those sections are; a
heading that names two clauses ("NOTICE AND PAYMENT") over only one of them; a flattened filing's headings
("5. Payment 5.1 FEES …"); clauses worded otherwise than the patterns expected (force majeure, precedence, a
third party's right to enforce, a standard of care, a privacy regulation, a need-to-know limit); values read
from the wrong words (a product's "Return Materials Authorization", the end of a royalty quarter, a province
beside its country). Synthetic texts with invented names, written for these tests."""

from __future__ import annotations

from typing import Any

from citationgate.review import review
from ingest.sections import detect_sections
from playbooks import load_playbook
from playbooks.jurisdictions import find_jurisdictions
from playbooks.library import document_from_text
from tests.test_judgement_clauses import _by_rule, _value
from tests.test_judgement_lead_ins import _contract


def _outcome(f: Any) -> str:
    return str(f.proposal.details.get("outcome"))


def _nda(*body: str) -> dict[str, Any]:
    head = (
        'This Confidentiality Agreement is made between Norvale Bank Ltd ("Discloser") and Kestrix Systems '
        'Inc. (the "Recipient"). The Discloser will disclose Confidential Information to the Recipient for '
        "the purpose of evaluating a possible acquisition (the “Purpose”)."
    )
    text = "\n\n".join(["CONFIDENTIALITY AGREEMENT", head, *body]) + "\n"
    result = review(document_from_text(text), load_playbook("nda-recipient"))
    return {str(f.proposal.rule): f for f in result.findings}


CAPPED = (
    "1. CLAIMS OF INFRINGEMENT\n\nA. INDEMNIFICATION. Kestrix agrees to defend at its own expense any action "
    "brought against Norvale to the extent that it is based on a claim that any Deliverable infringes a "
    "patent, "
    "copyright or trade secret, and to pay the damages finally awarded.\n\nB. Kestrix shall have sole "
    "control "
    "of the defence.",
    "2. LIMITATION OF LIABILITY\n\nA. Kestrix agrees to indemnify Norvale against any claim of bodily injury "
    "or death caused by the negligent act of Kestrix.\n\nB. EXCEPT FOR DAMAGES ARISING UNDER SECTIONS 1.A "
    "AND "
    "2.A, IN NO EVENT WILL KESTRIX'S TOTAL LIABILITY FOR ANY DAMAGES ARISING OUT OF THE AGREEMENT EXCEED THE "
    "FEES PAID BY NORVALE IN THE TWELVE (12) MONTHS PRECEDING THE CLAIM.",
)


def test_a_carve_out_given_by_section_numbers_is_what_those_sections_are() -> None:
    found = _by_rule(_contract(*CAPPED))
    carve = _value(found["limitation_of_liability"], "carve_outs")
    assert "ip_indemnity" in carve and "death_personal_injury" in carve
    assert _outcome(found["ip_indemnity_outside_cap"]) != "unacceptable"


def test_an_indemnity_named_only_as_an_indemnity_is_not_the_ip_indemnity() -> None:
    body = (
        "1. INDEMNIFICATION\n\nA. Kestrix agrees to indemnify Norvale against any claim of bodily injury "
        "caused "
        "by Kestrix.",
        "2. Intellectual Property Indemnity. Kestrix shall defend and indemnify Norvale against any claim "
        "that "
        "the Deliverables infringe the intellectual property rights of a third party.",
        "3. Liability. EXCEPT FOR DAMAGES ARISING UNDER SECTION 1.A, IN NO EVENT WILL KESTRIX'S TOTAL "
        "LIABILITY "
        "EXCEED THE FEES PAID IN THE TWELVE (12) MONTHS PRECEDING THE CLAIM.",
    )
    found = _by_rule(_contract(*body))
    assert "ip_indemnity" not in (_value(found["limitation_of_liability"], "carve_outs") or [])


def test_a_heading_run_on_into_its_first_subsection_is_the_sections_heading() -> None:
    text = (
        "1. Definitions Words have their usual meaning.\n"
        "2. Term This Agreement runs for one year.\n"
        "3. Payment 3.1 FEES AND EXPENSES Client will pay the fees set out in the SOW. 3.2 INVOICES All fees "
        "are due within thirty (30) days.\n"
        "4. General Provisions 15.1 of the Master Agreement applies.\n"
    )
    heads = {s.label: s.heading for s in detect_sections(text).sections}
    assert heads["3"] == "Payment"
    assert heads["4"] != "General Provisions"  # "15.1" is no subsection of section 4


def test_a_heading_naming_another_clause_too_does_not_vouch_for_a_payment_clause() -> None:
    text = _contract(
        "2. Fees. The Net Revenue shall be payable no later than sixty (60) days after the termination of "
        "the "
        "preceding full quarter-annual period.",
        "14. NOTICE AND PAYMENT\n\nAll notices shall be in writing and delivered by courier or by registered "
        "mail. In case of service by telecopy, a copy shall be sent by registered mail within three (3) "
        "business days thereafter.",
    )
    payment = _by_rule(text)["payment"]
    assert _value(payment, "payment_days") == 60  # the end of a quarter is no end of the agreement
    assert all("telecopy" not in q.text for q in payment.verified_quotes)


def test_a_products_proprietary_notices_are_not_the_notices_clause() -> None:
    text = _contract(
        "5.3 Notices. Kestrix agrees not to alter or deface any trademark, copyright and other notices of "
        "proprietary rights included by Norvale on or in Products.",
        "14. NOTICES AND REQUESTS: Notices required under this Agreement shall be deemed given (i) when "
        "delivered in writing personally, (ii) five (5) days after having been sent by registered mail, or "
        "(iii) one (1) day after deposit with an overnight carrier.",
    )
    notices = _by_rule(text)["notices"]
    methods = _value(notices, "methods")
    assert {"hand", "post", "courier"} <= set(methods)


def test_correspondence_by_email_is_a_notices_clause() -> None:
    text = _contract(
        "§ 3 Correspondence\n\nCorrespondence shall take place preferably via e-mail, which is accorded the "
        "same status as postal mail."
    )
    notices = _by_rule(text)["notices"]
    assert _outcome(notices) != "missing" and "email" in _value(notices, "methods")


def test_neither_party_liable_for_causes_beyond_its_control_is_force_majeure() -> None:
    text = _contract(
        "18. Neither party is liable for its failure or delay to perform its obligations under the "
        "Agreement due "
        "to strikes, wars, fires, floods, earthquakes or other causes beyond its control."
    )
    assert _outcome(_by_rule(text)["force_majeure"]) != "missing"


def test_orders_governed_by_the_agreement_whatever_they_say_is_an_order_of_precedence() -> None:
    text = _contract(
        "3. Orders. Norvale agrees that each order placed with Kestrix shall be governed by this Agreement, "
        "regardless of any additional or conflicting term in Norvale's order."
    )
    assert _value(_by_rule(text)["order_of_precedence"], "precedence") == "agreement_prevails"


def test_a_return_materials_authorization_is_no_return_of_information() -> None:
    text = _contract(
        "8. Returns. Norvale may return defective products after obtaining a Return Materials Authorization "
        "number from Kestrix.",
        "12. Confidentiality. Each party shall hold the other's Confidential Information in confidence for "
        "five "
        "(5) years.",
    )
    assert _value(_by_rule(text)["confidentiality"], "return_destroy") is not True


def test_non_parties_entitled_to_enforce_are_third_party_beneficiaries() -> None:
    text = _contract(
        "13.7 Indemnified Parties which are not parties to this Agreement shall be entitled to enforce their "
        "respective rights under Clause 7. Save to this extent, any rights which would otherwise arise "
        "under the "
        "Contracts (Rights of Third Parties) Act 1999 are hereby expressly excluded."
    )
    assert _value(_by_rule(text)["third_party_beneficiaries"], "grants_rights") is True


def test_due_skill_care_and_diligence_is_a_professional_standard() -> None:
    text = _contract(
        "1.9 Kestrix shall act honestly, with due skill, care and diligence in carrying out its obligations "
        "under this Agreement."
    )
    assert _value(_by_rule(text)["warranties"], "professional_standard") is True


def test_a_heading_about_something_else_being_available_is_no_service_level() -> None:
    text = _contract(
        "1. Fund Availability. Norvale agrees to make shares of the Funds available during the term for "
        "purchase "
        "by Kestrix on each Business Day."
    )
    assert _outcome(_by_rule(text)["service_levels"]) != "standard"


def test_a_site_available_24_hours_a_day_is_a_measured_service_level() -> None:
    text = _contract(
        "6. Availability. The Web Site will be available to Internet users approximately 24 hours a day, "
        "seven "
        "days a week, normal maintenance excepted."
    )
    assert _outcome(_by_rule(text)["service_levels"]) == "standard"


def test_compliance_with_a_privacy_regulation_is_a_data_protection_term() -> None:
    text = _contract("6. Privacy. Kestrix will be responsible for compliance with Regulation S-P.")
    assert _outcome(_by_rule(text)["data_protection"]) != "missing"


def test_access_only_to_the_extent_necessary_to_assist_is_need_to_know() -> None:
    got = _nda(
        "3. The Recipient shall permit its Representatives access to the Confidential Information only to "
        "the "
        "extent necessary to allow them to assist the Recipient in the Purpose."
    )
    assert _value(got["sharing_employees"], "need_to_know") is True


def test_representatives_to_whom_disclosure_is_required_is_need_to_know() -> None:
    got = _nda(
        "3. The Recipient may disclose Confidential Information to those of its Representatives to whom "
        "disclosure is reasonably required to facilitate the Recipient's evaluation."
    )
    share = got["sharing_employees"]
    assert _value(share, "need_to_know") is True
    assert _value(share, "shared_with") == "Representatives"


def test_a_province_beside_its_country_is_the_governing_law() -> None:
    got = find_jurisdictions(
        "governed by the laws of the Province of Québec and the laws of Canada applicable therein"
    )
    assert [h.value for h in got] == ["Quebec"]
    assert [h.value for h in find_jurisdictions("governed by the laws of Canada")] == ["Canada"]


def test_terms_a_filing_defines_without_quotation_marks_are_defined() -> None:
    text = _contract(
        "1. Definitions. Products shall mean the kiosks Kestrix sells. Customers shall mean the pharmacies "
        "in "
        "the Territory. The software, manuals and training (collectively, Deliverables) are listed in "
        "Exhibit A.",
        *(
            f"{n}. Clause {n}. Kestrix shall deliver the Products and Deliverables to Customers, and "
            f"Products "
            "and Deliverables remain the property of Kestrix."
            for n in range(2, 8)
        ),
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    undefined = " ".join(f.proposal.claim for f in result.findings if f.proposal.rule == "undefined_terms")
    for term in ("Products", "Customers", "Deliverables", "Kestrix", "Norvale"):
        assert f"“{term}”" not in undefined
