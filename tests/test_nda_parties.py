"""Who is us in an NDA: the receiving party by what the contract says it is and does; both parties of a mutual
NDA; never a non-party named inside another term's definition."""

from __future__ import annotations

from playbooks.parties import read_parties, resolve_roles

MUTUAL = (
    "MUTUAL NON-DISCLOSURE AGREEMENT\n\n"
    'This Mutual Non-Disclosure Agreement is made by and between Harbour Lane Ltd ("Harbour") and Quill '
    'Analytics Ltd ("Quill") (each a "Party"). For purposes of this Agreement "Affiliate" means the parent '
    "of "
    'Quill ("Holdco") and any subsidiary of Holdco. Now, therefore, the Parties agree as follows:\n\n'
    "1. Each Party receiving Confidential Information shall keep it confidential. Holdco may receive "
    "Confidential Information from Harbour and Holdco shall keep it confidential.\n\n"
    "2. Harbour and Quill shall each use the Confidential Information only for the Purpose.\n"
)

ONE_WAY = (
    "CONFIDENTIALITY AGREEMENT\n\n"
    'This Agreement is made between Northwind Supplies Inc. ("Northwind") and Lumen Logistics LLC ("Lumen"). '
    "Northwind will provide services to Lumen and Lumen shall pay Northwind its fees.\n\n"
    "1. Lumen may disclose Confidential Information to Northwind for the Purpose.\n\n"
    "2. Northwind shall not disclose Lumen's Confidential Information and shall return it on request.\n\n"
    "3. Northwind shall keep all information received from Lumen confidential.\n"
)


def test_a_term_defined_inside_another_terms_definition_is_not_a_party() -> None:
    assert [p.defined_as for p in read_parties(MUTUAL)] == ["Harbour", "Quill"]


def test_both_parties_of_a_mutual_nda_are_us_as_recipient_and_the_basis_says_why() -> None:
    roles = resolve_roles(MUTUAL, read_parties(MUTUAL), "recipient")
    assert roles.resolved and roles.via == "contract"
    assert [p.defined_as for p in roles.us] == ["Harbour", "Quill"]
    assert "mutual" in roles.basis and "Holdco" not in roles.basis


def test_the_recipient_of_a_one_way_nda_is_the_party_the_contract_discloses_to_not_the_one_that_pays() -> (
    None
):
    # by the buyer/seller words Lumen (who pays) would be the "customer" side; in an NDA what counts is who
    # receives the other's information
    roles = resolve_roles(ONE_WAY, read_parties(ONE_WAY), "recipient")
    assert [p.defined_as for p in roles.us] == ["Northwind"]
    assert [p.defined_as for p in roles.them] == ["Lumen"]
    assert "disclose Confidential Information to Northwind" in roles.basis


def test_a_customer_side_playbook_still_reads_buyer_and_seller() -> None:
    roles = resolve_roles(ONE_WAY, read_parties(ONE_WAY), "customer")
    assert [p.defined_as for p in roles.us] == ["Lumen"]


EACH_OTHER = (
    "CONFIDENTIALITY AGREEMENT\n\n"
    'This Agreement is made between Tarn Valley Systems plc ("Tarn") and Osprey Ridge Inc. ("Osprey"). '
    "In the course of their talks Tarn and Osprey expect to disclose to each other certain information of a "
    "confidential nature.\n\n"
    "1. The receiving party shall keep the disclosing party's Confidential Information secret.\n"
)

EACH_OF = (
    "CONFIDENTIALITY AGREEMENT\n\n"
    'This Agreement is made between Tarn Valley Systems plc ("Tarn") and Osprey Ridge Inc. ("Osprey"). '
    "To evaluate a possible combination, each of Tarn and Osprey may deliver to the other party information "
    "about its business.\n\n"
    "1. The receiving party shall keep the disclosing party's Confidential Information secret.\n"
)


def test_information_disclosed_to_each_other_makes_the_nda_mutual_without_the_word() -> None:
    for text in (EACH_OTHER, EACH_OF):
        roles = resolve_roles(text, read_parties(text), "recipient")
        assert roles.resolved and roles.via == "contract"
        assert [p.defined_as for p in roles.us] == ["Tarn", "Osprey"]
        assert "mutual" in roles.basis
