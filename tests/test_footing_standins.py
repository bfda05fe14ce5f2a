"""Roles the contract writes its duties of, standing in for parties it never calls by them; who pays into
whose account; who invoices; a label before a party's name."""

from __future__ import annotations

from playbooks.parties import read_parties, resolve_roles

# the preamble numbers two companies and gives neither a role; every duty is the Reseller's or the Vendor's
UNTIED = (
    "Resale agreement\n\nbetween\n\nHarrow Fields Instruments Ltd\n\nAnd\n\nCopperline Trading LLC\n\n"
    "THIS AGREEMENT is dated\n\nParties\n\n"
    "(1) Harrow Fields Instruments Ltd (company no. 0441) of 3 Mill Lane, Leeds\n\n"
    "(2) Copperline Trading LLC of 88 Bay Road, Tampa\n\n"
    "Background\n\n"
    "The Vendor wishes to appoint the Reseller to resell its meters in the Region.\n\n"
    "1. The Vendor appoints the Reseller as its non-exclusive reseller.\n"
    "2. The Reseller shall purchase the meters at the list prices, and the Reseller shall pay each invoice "
    "within 30 days. The Reseller must settle the sums invoiced to it by the Vendor in dollars.\n"
    "3. The Vendor shall deliver the meters to the Reseller's depot. The Vendor shall keep the meters "
    "insured until delivery. The Vendor may change the list prices on notice.\n"
    "4. The Reseller shall keep records of its sales. The Reseller may not hold itself out as the Vendor's "
    "agent. The Vendor will replace faulty meters.\n\n"
    "Signed for Harrow Fields Instruments Ltd\n\nSigned for Copperline Trading LLC\n"
)


def test_roles_the_duties_are_written_of_stand_in_for_parties_the_preamble_gives_no_role() -> None:
    parties = read_parties(UNTIED)
    roles = resolve_roles(UNTIED, parties, "customer")
    assert roles.resolved and roles.via == "contract"
    assert [p.defined_as for p in roles.us] == ["Reseller"]
    assert [p.defined_as for p in roles.them] == ["Vendor"]
    # the basis says the contract never ties the roles to the named companies; no name is guessed
    assert "without saying which of" in roles.basis
    assert all(p.name == "" for p in (*roles.us, *roles.them))
    # a supplier-side review is the other role
    seller = resolve_roles(UNTIED, parties, "supplier")
    assert [p.defined_as for p in seller.us] == ["Vendor"]


def test_the_amount_invoiced_by_a_party_puts_it_on_the_side_that_is_paid() -> None:
    roles = resolve_roles(UNTIED, read_parties(UNTIED), "customer")
    assert "“invoiced to it by the Vendor”" in roles.basis.split("is them:")[1]


NAMED_ACTORS = (
    'SERVICES AGREEMENT between Quarry Lane Ltd ("Quarry") and Tessel Works Inc. ("Tessel").\n\n'
    "1. Quarry shall perform the services for its own customers. Quarry shall keep records.\n"
    "2. Tessel shall review the reports. Tessel may audit Quarry.\n"
    "3. The Customer shall pay the Supplier. The Customer shall pay on time. The Customer shall give notice. "
    "The Customer may object.\n"
    "4. The Supplier shall deliver. The Supplier shall invoice. The Supplier shall insure. The Supplier may "
    "suspend.\n"
)


def test_no_role_stands_in_where_the_duties_are_written_of_the_named_parties() -> None:
    # the preamble's parties are the subjects of the contract's duties: "the Customer" names someone else
    roles = resolve_roles(NAMED_ACTORS, read_parties(NAMED_ACTORS), "customer")
    assert all(p.defined_as not in ("Customer", "Supplier") for p in (*roles.us, *roles.them))


ADVISER_NDA = (
    "NON-DISCLOSURE AGREEMENT\n\n"
    "This agreement is made by Northfold Research Institute GmbH, Lindenweg 2, Bonn "
    '(hereinafter "Northfold") acting for the members of the Tidewater consortium, and Dr ……… '
    '(hereinafter "Dr ………").\n'
    "WHEREAS Northfold coordinates the consortium and Dr ……… sits on its review panel;\n"
    "THEREFORE it is agreed:\n"
    "1. “Disclosing Party” shall mean any member of the consortium. “Recipient” shall mean Dr ………\n"
    "2. Recipient shall hold all information disclosed to Recipient in confidence. Recipient shall use it "
    "only to advise the consortium.\n"
    "3. Recipient shall return all papers at the Disclosing Party's request. Northfold may sign on behalf "
    "of the members.\n"
)


def test_an_nda_whose_recipient_is_only_defined_in_its_definitions_binds_us_to_the_recipient() -> None:
    parties = read_parties(ADVISER_NDA)
    roles = resolve_roles(ADVISER_NDA, parties, "recipient")
    assert roles.resolved
    assert [p.defined_as for p in roles.us] == ["Recipient"]
    assert [p.defined_as for p in roles.them] == ["Disclosing Party"]
    assert "its preamble" in roles.basis and "“Recipient shall hold”" in roles.basis


ONE_DISCLOSER = (
    "CONFIDENTIALITY UNDERTAKING\n\n"
    'This undertaking is given to Brackwater Energy Co-operative ("Brackwater") by the person signing '
    "below.\n"
    "1. Brackwater will disclose technical papers to the Recipient for the review.\n"
    "2. The Recipient shall keep the papers furnished by Brackwater secret. The Recipient shall not copy "
    "them.\n"
)


def test_a_one_way_nda_with_no_disclosing_role_has_the_party_that_discloses_as_them() -> None:
    roles = resolve_roles(ONE_DISCLOSER, read_parties(ONE_DISCLOSER), "recipient")
    assert [p.defined_as for p in roles.us] == ["Recipient"]
    assert [p.defined_as for p in roles.them] == ["Brackwater"]


INTO_ACCOUNT = (
    "DESIGN SERVICES CONTRACT\n\n"
    "Contracting Party: Westmoor Leisure Holdings Inc. (hereinafter referred to as Party A) and "
    "Contracting Party: Ilse Varga Design Studio (hereinafter referred to as Party B) agree as follows:\n"
    "Article 1. Party B shall draw the plans of the hotel.\n"
    "Article 2. Party A shall transfer the design fee into the account designated by Party B in three "
    "instalments.\n"
    "Article 3. Party A shall provide the site survey. Party B shall report progress to Party A.\n"
)


def test_the_party_that_pays_into_the_others_account_is_the_customer() -> None:
    parties = read_parties(INTO_ACCOUNT)
    assert [p.name for p in parties] == ["Westmoor Leisure Holdings Inc.", "Ilse Varga Design Studio"]
    roles = resolve_roles(INTO_ACCOUNT, parties, "customer")
    assert [p.defined_as for p in roles.us] == ["Party A"]
    assert "into the account designated by" in roles.basis


REDACTED = (
    'SUPPLY AGREEMENT made by and between Orrin Bay Roasters LLC ("Company"), and XXXXXXXXXXXX ("Buyer"). '
    "The Buyer shall purchase the beans. The Company shall ship them.\n"
)


def test_a_name_redacted_from_a_filing_is_no_partys_name() -> None:
    parties = read_parties(REDACTED)
    assert [(p.defined_as, p.name) for p in parties] == [("Company", "Orrin Bay Roasters LLC"), ("Buyer", "")]


MIRRORED = (
    "NON-SOLICITATION AND CONFIDENTIALITY AGREEMENT\n\n"
    'This Agreement is made between Fenwick Analytics Inc. ("Fenwick") and Drover Labs LLC ("Drover").\n\n'
    "ARTICLE 4. CONFIDENTIALITY\n"
    "4.1 Drover's Confidential Information means its price lists. Fenwick shall not use or disclose any of "
    "Drover's Confidential Information.\n"
    "4.2 Fenwick's Confidential Information means its customer lists. Drover shall not use or disclose any "
    "of Fenwick's Confidential Information.\n"
)


def test_an_nda_written_as_two_mirrored_sections_is_mutual() -> None:
    roles = resolve_roles(MIRRORED, read_parties(MIRRORED), "recipient")
    assert roles.resolved and "mutual" in roles.basis
    assert [p.defined_as for p in roles.us] == ["Fenwick", "Drover"]


def test_one_partys_information_protected_twice_is_not_mutual() -> None:
    one_way = MIRRORED.split("4.2")[0] + "4.2 Fenwick shall return Drover's Confidential Information.\n"
    roles = resolve_roles(one_way, read_parties(one_way), "recipient")
    assert "mutual" not in roles.basis
