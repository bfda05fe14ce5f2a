"""The review's footing in more of the forms real contracts use: parties named without quotes, without a
defined term, by a label, in the document's own opening sentence; NDA roles from whose purpose the
information serves."""

from __future__ import annotations

from playbooks.parties import read_parties, resolve_roles


def _terms(text: str) -> list[str]:
    return [p.defined_as for p in read_parties(text)]


BODY = (
    "\n\n2. {a} shall provide the Services. {b} shall pay the fees. {a} may subcontract. {b} may audit. "
    "{a} shall invoice monthly and {b} shall pay within 30 days.\n"
)


def test_unquoted_short_names_in_an_opening_sentence_that_is_not_a_between_preamble() -> None:
    text = (
        "Outsourcing Agreement\n\n"
        + "Contact details and a table of contents. " * 90
        + "\n\n1.1 Introduction\n\n"
        "This Network Outsourcing Agreement sets out the terms for the provision of Services by Keldor (NZ) "
        "Limited (Keldor) to the Bank of Western Fiji Limited (BWF).\n" + BODY.format(a="Keldor", b="BWF")
    )
    parties = read_parties(text)
    assert [(p.defined_as, p.name) for p in parties] == [
        ("Keldor", "Keldor (NZ) Limited"),
        ("BWF", "the Bank of Western Fiji Limited"),
    ]
    binding = resolve_roles(text, parties, "customer")
    assert [p.defined_as for p in binding.us] == ["BWF"]


def test_an_unquoted_parenthesis_is_a_term_only_when_it_is_a_role_word_or_drawn_from_the_name() -> None:
    text = (
        "LICENSE AGREEMENT\n\nThis Agreement is made between Orvane Bio AG, having its place of business at "
        "Zug (Orvane) and Telmar Pharma, Inc., having its principal place of business at Austin (Licensee). "
        "Orvane shall deliver the Product (Schedule A) to the Licensee (USA).\n"
        + BODY.format(a="Orvane", b="Licensee")
    )
    assert _terms(text) == ["Orvane", "Licensee"]


def test_initials_of_the_name_and_no_parenthesis_inside_a_name() -> None:
    text = (
        "AGENCY AGREEMENT\n\nNorthern Mutual Insurance Company of Ohio, an Ohio insurance corporation (NMIC) "
        'and Arlo Brokers, Inc., a Nevada corporation, ("Agency") agree as follows:'
        + BODY.format(a="Agency", b="NMIC")
    )
    assert _terms(text) == ["NMIC", "Agency"]


def test_hereinafter_called_and_a_lead_clause_inside_the_parenthesis() -> None:
    text = (
        "DISTRIBUTOR AGREEMENT\n\nThis Agreement is made by and between Tessaly Links Inc, a Pennsylvania "
        'corporation (hereinafter called "TLI"), and Veyron Capital Corporation, a Wisconsin corporation '
        '(including its Affiliates, "Customer") and Brannock Leasing Corp. (together with its successors and '
        'assigns, if any, "Lessor"). Hereinafter referred to as "Carrier" nobody.'
        + BODY.format(a="TLI", b="Customer")
        + "Lessor may assign. Lessor shall notify.\n"
    )
    assert _terms(text) == ["TLI", "Customer", "Lessor"]


def test_a_preamble_naming_two_entities_without_defined_terms_uses_the_names_the_body_uses() -> None:
    text = (
        "Maintenance and support contract\n\nconcluded between:   Rivotel Kosice a.s., Hlavna 17, 040 01 "
        "Kosice, Slovakia and Stellan Ltd, Bernstrasse 34, 3072 Ostermundigen, Switzerland.\n\n"
        + BODY.format(a="Stellan", b="Rivotel")
        + "Stellan shall respond to calls. Rivotel shall report faults.\n"
    )
    parties = read_parties(text)
    assert [(p.defined_as, p.name) for p in parties] == [
        ("Rivotel", "Rivotel Kosice a.s."),
        ("Stellan", "Stellan Ltd"),
    ]
    assert [p.defined_as for p in resolve_roles(text, parties, "customer").us] == ["Rivotel"]


def test_labelled_parties_party_a_and_party_b() -> None:
    text = (
        "Road Transportation Agreement\n\nParty A (Shipper): Hanlu Express Co., Ltd.\n"
        "Address: 1 Huazhi Road\n"
        "Party B (Carrier): Tongze Logistics Ltd.\nAddress: 12 Yinchun Road\n\n"
        "Party A pays the freight and Party B provides transportation services to Party A. Party B shall "
        "deliver. Party A shall pay.\n"
    )
    assert [(p.defined_as, p.name) for p in read_parties(text)] == [
        ("Party A", "Hanlu Express Co., Ltd."),
        ("Party B", "Tongze Logistics Ltd."),
    ]


def test_no_defined_thing_becomes_a_party_and_a_later_window_never_replaces_the_preamble() -> None:
    text = (
        "MUTUAL NONDISCLOSURE AGREEMENT\n\nThis Agreement is entered into by Corvid Corporation (“Corvid”) "
        "and "
        "the company designated below (“Company”). The parties expect to make available to one "
        "another certain information (collectively, the “Evaluation Material”). Corvid and Company each "
        "agree that "
        "the Evaluation Material shall be kept confidential. Corvid may disclose. Company may disclose. The "
        "Evaluation Material shall be returned. The Evaluation Material shall be destroyed.\n"
    )
    parties = read_parties(text)
    assert [p.defined_as for p in parties] == ["Corvid", "Company"]
    binding = resolve_roles(text, parties, "recipient")
    assert binding.resolved and "Evaluation Material" not in binding.basis


def test_a_mutual_form_nda_whose_purpose_serves_one_party_makes_the_other_the_recipient() -> None:
    text = (
        "MUTUAL CONFIDENTIAL & NON-DISCLOSURE AGREEMENT\n\nThis Agreement is entered into between Aldon "
        "Aerospace LLC (“Aldon”) and Brisk Machining Inc. (“Company”). When Aldon or Company receives "
        "Confidential Information from the other party, it is a “receiving party” hereunder.\n\n"
        "2. The receiving party may use the Confidential Information solely for the purpose of quoting and "
        "manufacturing products for Aldon.\n\n3. Company will promptly disclose to Aldon any improvement.\n\n"
        "9. Company understands and agrees that the information disclosed herein may be export controlled.\n"
        "10. Company shall keep the drawings confidential.\n"
    )
    parties = read_parties(text)
    binding = resolve_roles(text, parties, "recipient")
    assert [p.defined_as for p in binding.us] == ["Company"]
    assert [p.defined_as for p in binding.them] == ["Aldon"]


def test_paying_damages_is_no_sign_of_the_customer_and_the_present_tense_pays_is() -> None:
    text = (
        "Road Transportation Agreement\n\nParty A (Shipper): Hanlu Express Co., Ltd.\n"
        "Party B (Carrier): Tongze Logistics Ltd.\n\n"
        "Party A pays the freight and Party B provides transportation services to Party A.\n"
        "1. Party B shall pay liquidated damages to Party A for each delayed parcel. Party B shall pay "
        "liquidated damages if the vehicle is late. Party B shall pay damages for lost parcels. Party B "
        "shall pay compensation for any loss.\n2. Party B shall deliver the parcels. Party A shall pay the "
        "freight monthly.\n"
    )
    binding = resolve_roles(text, read_parties(text), "customer")
    assert [p.defined_as for p in binding.us] == ["Party A"]


def test_a_name_never_holds_another_partys_definition() -> None:
    # the words read back from "(“Distributor”)" run over the party before's own definition and address
    # ("… 32904 and Corvane Audio Inc"), or over it with no "and" at all ("…, (“Heritage”), Premier …")
    text = (
        'This agreement is made by and between Halvex Corporation. ("Halvex") whose address is 650 Mill '
        'Rd., Melbourne, Florida, 32904 and Corvane Audio Inc, ("Distributor") whose address is 2 Main St, '
        "Roseville.\n" + BODY.format(a="Halvex", b="Distributor")
    )
    assert [(p.defined_as, p.name) for p in read_parties(text)] == [
        ("Halvex", "Halvex Corporation."),
        ("Distributor", "Corvane Audio Inc"),
    ]
    text = (
        'This Second Amendment, entered into by and between Orrin Dairy Foods, LLC, ("Orrin"), Belmar '
        'Nutrition Corporation ("Belmar") is effective as of October 1, 2018.\n'
        + BODY.format(a="Orrin", b="Belmar")
    )
    assert [p.name for p in read_parties(text)] == ["Orrin Dairy Foods, LLC", "Belmar Nutrition Corporation"]
    # a preamble that labels each party "BETWEEN:" / "AND:"
    text = (
        "This Application Development Agreement is made BETWEEN: Quillon Asia Ltd. (hereinafter called "
        'as the "QAL"), located at 3 Harbour Road, Hong Kong. AND: Mr. Li Wen and Ms. Zhou Min (hereinafter '
        'called as the "Developer"), a group of private software developers.\n'
        + BODY.format(a="Developer", b="QAL")
    )
    assert [(p.defined_as, p.name) for p in read_parties(text)] == [
        ("QAL", "Quillon Asia Ltd."),
        ("Developer", "Mr. Li Wen and Ms. Zhou Min"),
    ]


def test_between_the_parties_opens_no_preamble() -> None:
    # "the complete terms and conditions between the parties" names nobody: the parties are in the opening
    text = (
        "RESELLER AGREEMENT\n\nThis agreement provides the terms under which Tamsin Media, Inc., a Nevada "
        'corporation ("TAMSIN"), authorizes Orbel Direct, Inc., a Pennsylvania Corporation ("RESELLER") to '
        "resell its products. This Agreement contains the complete terms and conditions between the parties. "
        'The Reseller intends to market the products to businesses ("BUYERS") who may include charities.\n\n'
        "1. TAMSIN shall deliver the products. RESELLER shall pay TAMSIN the fees. BUYERS may return them."
    )
    assert _terms(text)[:2] == ["TAMSIN", "RESELLER"]
