"""The right clause and the right reading for msa-customer's IP, data-return, exclusivity, indemnity,
warranty and boilerplate rules. Synthetic agreements written for these tests, one behaviour each."""

from __future__ import annotations

from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text


def _contract(title: str, parties: str, *clauses: str) -> str:
    return "\n\n".join([title, parties, *clauses]) + "\n"


def _by_rule(text: str) -> dict[str, Any]:
    result = review(document_from_text(text), load_playbook("msa-customer"))
    assert result.roles is not None and result.roles.resolved
    return {str(f.proposal.rule): f for f in result.findings}


def _value(finding: Any, field: str) -> Any:
    v = (finding.proposal.details.get("extracted") or {}).get(field)
    return v.get("value") if isinstance(v, dict) else v


CONSULTING = (
    "CONSULTING AGREEMENT",
    'This Consulting Agreement is made between Bioco Inc. ("Bioco") and Jane Smith ("Consultant"). '
    "Consultant shall perform consulting services for Bioco, and Bioco shall pay Consultant the fees below.",
    "1. Fees. Bioco shall pay each invoice of Consultant within thirty (30) days of receipt.",
)


def test_an_assignment_after_a_list_of_duties_gives_us_the_work_product() -> None:
    text = _contract(
        *CONSULTING,
        "2. Inventions. Consultant agrees to disclose promptly to Bioco every invention made in performing "
        "the services and irrevocably assigns fully to Bioco all right, title and interest in each such "
        "invention.",
        "3. Governing Law. This Agreement is governed by the laws of the State of New York.",
    )
    ip = _by_rule(text)["ip_ownership"]
    assert _value(ip, "deliverables_owner") == "customer"
    # our data's ownership is simply not stated in a consultancy: that is the fallback, not a red line
    assert ip.proposal.details["outcome"] == "fallback"


def test_an_if_not_made_for_hire_assignment_in_a_long_list_ending_with_successors_is_the_clause() -> None:
    text = _contract(
        *CONSULTING,
        "2. Work Product. Consultant agrees: (a) that all deliverables developed by Consultant under this "
        "Agreement shall be deemed works made for hire and shall belong exclusively to Bioco; and that if "
        "such deliverables are not works made for hire, Consultant agrees to, and does hereby, assign to "
        "Bioco all right, title and interest in them; (b) to keep all knowledge of the work in trust for "
        "the sole benefit of Bioco, its successors and assigns.",
        "3. Governing Law. This Agreement is governed by the laws of the State of New York.",
    )
    ip = _by_rule(text)["ip_ownership"]
    assert ip.proposal.details["outcome"] not in ("missing", "not_applicable")
    assert _value(ip, "deliverables_owner") == "customer"


def test_deliverables_that_remain_the_suppliers_property_are_the_suppliers() -> None:
    text = _contract(
        "OUTSOURCING AGREEMENT",
        'This Outsourcing Agreement is made between Bioco Inc. ("Bioco") and Hostco LLC ("Hostco"). Hostco '
        "shall provide hosting services to Bioco, and Bioco shall pay Hostco the fees below.",
        "1. Fees. Bioco shall pay each invoice of Hostco within thirty (30) days of receipt.",
        "2. Proprietary Rights. Bioco acknowledges and agrees that any and all Deliverables shall be and "
        "remain the property of Hostco. Bioco hereby assigns all right, title and interest in any "
        "customization made for Bioco under this Agreement.",
    )
    ip = _by_rule(text)["ip_ownership"]
    assert _value(ip, "deliverables_owner") == "supplier"


def test_intellectual_property_named_in_another_clause_is_not_a_hint_of_ownership() -> None:
    text = _contract(
        *CONSULTING,
        "2. Content. Bioco shall be solely liable for the content it supplies, including all intellectual "
        "property rights in it.",
        "3. Governing Law. This Agreement is governed by the laws of the State of New York.",
    )
    ip = _by_rule(text)["ip_ownership"]
    assert ip.proposal.details["outcome"] == "missing"


DEVELOPMENT = (
    "DEVELOPMENT AGREEMENT",
    'This Development Agreement is made between Bioco Inc. ("Bioco") and Labco LLC ("Labco"). Labco shall '
    "perform development services for Bioco, and Bioco shall pay Labco the fees below.",
    "1. Fees. Bioco shall pay each invoice of Labco within thirty (30) days of receipt.",
)


def test_exclusive_warranties_under_an_exclusivity_heading_are_not_exclusivity() -> None:
    text = _contract(
        *DEVELOPMENT,
        "2. Warranty. Labco warrants that the services will be performed in a professional manner.",
        "3. Exclusivity of Warranties\n\nTHE WARRANTIES IN SECTION 2 ARE THE EXCLUSIVE WARRANTIES FROM "
        "LABCO. THEY REPLACE ALL OTHER WARRANTIES, INCLUDING THE IMPLIED WARRANTIES OF MERCHANTABILITY.",
    )
    by = _by_rule(text)
    assert "exclusivity" not in by or by["exclusivity"].proposal.details["outcome"] == "not_applicable"


def test_a_promise_not_to_develop_with_third_parties_is_exclusivity_binding_us() -> None:
    text = _contract(
        *DEVELOPMENT,
        "2. Collaboration. During the term Bioco will not itself or with or through third parties engage "
        "in the development of any vaccine for the disease.",
    )
    ex = _by_rule(text)["exclusivity"]
    assert _value(ex, "binds_customer") is True


HOSTING = (
    "HOSTING AGREEMENT",
    'This Hosting Agreement is made between Bioco Inc. ("Bioco") and Hostco LLC ("Hostco"). Hostco shall '
    "provide hosting services to Bioco, and Bioco shall pay Hostco the fees below.",
    "1. Fees. Bioco shall pay each invoice of Hostco within thirty (30) days of receipt.",
)


def test_our_named_data_that_will_be_returned_on_termination_is_a_data_return() -> None:
    text = _contract(
        *HOSTING,
        '2. Records. Any files provided to Hostco by Bioco ("Bioco Data") are and shall remain Bioco\'s '
        "property and, upon the termination of this Agreement for any reason, such Bioco Data will be "
        "returned to Bioco by Hostco.",
    )
    assert _value(_by_rule(text)["effect_of_termination"], "data_return") is True


def test_destroying_unauthorised_copies_after_a_leak_is_not_a_return_on_termination() -> None:
    text = _contract(
        *HOSTING,
        "2. Confidentiality. Each party shall keep the Confidential Information of the other strictly "
        "confidential for five (5) years. Upon discovery of any unauthorised disclosure of Confidential "
        "Information, the receiving party shall (i) retrieve the disclosed Confidential Information, (ii) "
        "destroy any unauthorized copies thereof and (iii) stop further disclosure.",
    )
    assert _value(_by_rule(text)["confidentiality"], "return_destroy") is not True


def test_shipping_back_confidential_information_on_termination_is_a_return() -> None:
    text = _contract(
        *HOSTING,
        "2. Confidentiality. Each party shall keep the Confidential Information of the other strictly "
        "confidential and shall not disclose it to any third party.",
        "3. Effect of Termination. Upon termination of this Agreement for any reason, Bioco shall, within "
        "five (5) days, ship to Hostco all software and other Confidential Information of Hostco in its "
        "possession.",
    )
    assert _value(_by_rule(text)["confidentiality"], "return_destroy") is True


SERVICES = (
    "SERVICES AGREEMENT",
    'This Services Agreement is made between Bioco Inc. ("Bioco") and Servco LLC ("Servco"). Servco shall '
    "provide services to Bioco, and Bioco shall pay Servco the fees below.",
    "1. Fees. Bioco shall pay each invoice of Servco within thirty (30) days of receipt.",
)


def test_a_general_indemnity_under_an_indemnification_heading_is_not_an_ip_indemnity() -> None:
    text = _contract(
        *SERVICES,
        "2. Indemnification. Servco shall indemnify, defend and hold harmless Bioco against any and all "
        "losses arising out of Servco's negligence, wilful misconduct or breach of this Agreement.",
    )
    assert _by_rule(text)["ip_indemnity"].proposal.details["outcome"] == "missing"


def test_defending_any_suit_for_alleged_infringement_is_the_ip_indemnity() -> None:
    text = _contract(
        *SERVICES,
        "2. Product Liability. Servco shall indemnify Bioco against claims for injury caused by a defect "
        "in the products.",
        "3. Patents. Servco will defend any suit or proceeding brought against Bioco for alleged "
        "infringement of any patents or copyrights by the products, and will indemnify and save Bioco "
        "harmless from all damages awarded in it.",
    )
    ip = _by_rule(text)["ip_indemnity"]
    assert _value(ip, "by_supplier") is True
    assert any("infringement" in q.text for q in ip.verified_quotes)


def test_our_indemnity_for_breaches_of_third_party_ip_runs_from_us() -> None:
    text = _contract(
        *SERVICES,
        "2. Indemnities. Bioco will defend, indemnify and hold harmless Servco from all liabilities "
        "arising from any third party claim attributable to any breach of this Agreement by Bioco, "
        "including but not limited to breaches of third party intellectual property rights.",
    )
    ip = _by_rule(text)["ip_indemnity"]
    assert _value(ip, "by_supplier") is False


def test_a_renewal_at_the_suppliers_then_prevailing_rates_lets_prices_rise() -> None:
    text = _contract(
        *SERVICES,
        "2. Term. This Agreement shall automatically renew for consecutive one (1) year terms at Servco's "
        "then prevailing rates.",
    )
    price = _by_rule(text)["price_increases"]
    assert price.proposal.details["outcome"] not in ("missing", "not_applicable")


def test_a_word_of_insurance_in_an_indemnity_is_no_insurance_clause() -> None:
    text = _contract(
        *SERVICES,
        "2. Indemnification. Servco shall indemnify Bioco against all losses, including the cost of "
        "pursuing any insurance providers, arising out of Servco's negligence.",
    )
    assert _by_rule(text)["insurance"].proposal.details["outcome"] == "missing"
