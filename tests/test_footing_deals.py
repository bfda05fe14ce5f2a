"""The review's footing in deals that are not a services MSA: who is us in a sponsorship, marketing or
co-branding deal (the party that pays the other for its promotion), in a franchise or a licence (the
franchisee or licensee that pays fees or royalties), and preambles left blank in a form ("by and between
________ and …")."""

from __future__ import annotations

from playbooks.parties import read_parties, resolve_roles
from playbooks.parties.roles import _evidence
from playbooks.parties.scan import Text


def _terms(text: str) -> list[str]:
    return [p.defined_as for p in read_parties(text)]


SPONSORSHIP = (
    "Sponsorship Agreement   Parties   This Agreement is effective as of March 1st, 2019 by and between "
    'Harbor Speed Works, Inc., located at 10 Dock Street, Tampa, FL 33601 (hereinafter "HSW"), and Lumen '
    'Glass, LLC located at 4 Ridge Road, Reno, NV 89501 (hereinafter "LGL").   Recitals   A. LGL is engaged '
    'in the sale of "Glow Panels".   B. The parties wish that HSW cooperates with LGL in the marketing of '
    'LGL products ("SHOWCASE").   C. In connection with the SHOWCASE, HSW and LGL desire to work '
    "together.\n\n"
    "1.1 HSW grants a limited license to LGL to use the HSW name. HSW shall provide the following to LGL: "
    "two vehicle builds. HSW shall provide event space.\n"
    "1.2 LGL grants a limited license to HSW to use the LGL marks. LGL shall provide panels for the builds. "
    "LGL shall provide artwork. LGL shall deliver product samples.\n"
    "3.1 In consideration of the benefits, LGL will pay HSW in accordance with Attachment B. The SHOWCASE "
    "runs for one year.\n"
)


def test_the_party_that_pays_the_other_by_name_is_the_sponsor_whatever_both_grant() -> None:
    parties = read_parties(SPONSORSHIP)
    assert [p.defined_as for p in parties] == ["HSW", "LGL"]
    binding = resolve_roles(SPONSORSHIP, parties, "customer")
    assert [p.defined_as for p in binding.us] == ["LGL"]
    assert [p.defined_as for p in binding.them] == ["HSW"]
    assert "LGL will pay HSW" in binding.basis


def test_an_event_or_a_promotion_defined_in_the_recitals_is_no_party() -> None:
    text = (
        "CO-BRANDING AGREEMENT\n\nThis Agreement is made by and between Tarn Media Inc. (“Tarn”) and Quill "
        "Outfitters Ltd. (“Quill”), who wish to stage a joint tour (the “Event”) and a prize draw (the "
        "“Sweepstakes”) under a joint marketing plan (the “Campaign”).\n\n"
        "1. Tarn shall promote the Event. Quill shall pay Tarn the Campaign fee. The Event shall take "
        "place in May. The Sweepstakes shall close in June. The Campaign shall run for a year. Tarn will "
        "host the Event.\n"
    )
    assert _terms(text) == ["Tarn", "Quill"]


def test_money_paid_both_ways_says_nothing_of_sides() -> None:
    text = (
        "INTERLINE AGREEMENT\n\nThis Agreement is made between Norrow Freight Inc. (“Norrow”) and Pelt "
        "Couriers Ltd. (“Pelt”).\n\n"
        "3.1 Norrow shall deliver Pelt's parcels in Canada. 3.2 Pelt shall deliver Norrow's parcels in the "
        "United States.\n4.1 Norrow shall pay Pelt the rates in Schedule D. 4.2 Pelt shall pay Norrow the "
        "rates in Schedule E.\n"
    )
    binding = resolve_roles(text, read_parties(text), "customer")
    assert not binding.resolved
    assert "money is paid both ways" in binding.basis


def test_paying_damages_a_refund_or_an_indemnity_by_name_is_no_purchase() -> None:
    text = (
        "MARKETING AGREEMENT\n\nThis Agreement is made between Osprey Labs Inc. (“Osprey”) and Wren "
        "Advertising LLC (“Wren”).\n\n"
        "1. Wren shall provide the advertising services to Osprey. Wren shall deliver monthly reports. Wren "
        "shall design the banners.\n2. Osprey shall pay the fees within 30 days. Osprey shall pay the "
        "invoices.\n3. Wren shall pay Osprey liquidated damages for each missed placement. Wren shall pay "
        "Osprey a refund of any prepaid fees. Wren will pay Osprey any amounts awarded against it.\n"
    )
    binding = resolve_roles(text, read_parties(text), "customer")
    assert [p.defined_as for p in binding.us] == ["Osprey"]


def test_the_franchisee_that_pays_royalties_is_the_customer_side_and_the_franchisor_the_other() -> None:
    text = (
        "MASTER FRANCHISE AGREEMENT\n\nThis Agreement is made between Velo Arcades Private Limited "
        "(“Franchisor”) and Dunmore Holdings Corp. (“Franchisee”).\n\n"
        "1. Franchisor hereby grants to Franchisee the exclusive right to operate Velo centres. Franchisor "
        "shall provide training. Franchisor shall provide the operations manual.\n"
        "2. Franchisee shall pay to Franchisor a royalty of 5% of gross sales. Royalties payable to "
        "Franchisor are due monthly. Franchisee shall maintain the standards.\n"
    )
    binding = resolve_roles(text, read_parties(text), "customer")
    assert [p.defined_as for p in binding.us] == ["Franchisee"]
    assert [p.defined_as for p in binding.them] == ["Franchisor"]
    licence = resolve_roles(text, read_parties(text), "licensee")
    assert [p.defined_as for p in licence.us] == ["Franchisee"]
    supplier = resolve_roles(text, read_parties(text), "supplier")
    assert [p.defined_as for p in supplier.us] == ["Franchisor"]


def test_a_licensee_named_by_its_name_is_the_side_that_pays_the_licensor() -> None:
    text = (
        "TRADEMARK LICENSE AGREEMENT\n\nThis Agreement is made between Corbel Capital, L.L.C. (“Corbel”) "
        "and Orrin Loan Fund, Inc. (“Orrin”).\n\n"
        "1. Corbel grants to Orrin a non-exclusive license to use the mark. Corbel shall provide the "
        "artwork.\n2. Orrin will pay Corbel a fee of $1,000 a year. Orrin shall use the mark as directed.\n"
    )
    binding = resolve_roles(text, read_parties(text), "licensee")
    assert [p.defined_as for p in binding.us] == ["Orrin"]


def test_a_forms_blank_is_never_a_partys_name() -> None:
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made as of this _____ day of ______ 2013 by and between "
        "______________________ (“Supplier”) and Arden Mills Corp. (“Company”), and [ ] (the “Agent”).\n\n"
        "1. Supplier shall supply the Products to Company. Company shall pay Supplier the price within 30 "
        "days. The Agent shall keep records. The Agent shall report monthly.\n"
    )
    parties = read_parties(text)
    assert [(p.defined_as, p.name) for p in parties] == [
        ("Supplier", ""),
        ("Company", "Arden Mills Corp."),
        ("Agent", ""),
    ]
    binding = resolve_roles(text, parties, "customer")
    assert [p.defined_as for p in binding.us] == ["Company"]
    assert "____" not in binding.basis


def test_a_name_written_before_a_blank_keeps_its_words_and_a_sentence_before_a_blank_is_none() -> None:
    text = (
        "SERVICES AGREEMENT\n\nThis Agreement is made between Halden Crowdfunding, Inc. (the “Company”) and "
        "Solway Vending Ltd, a ___ DE corporation (“Customer”).\n\n"
        "1. Company shall provide the Services. Customer shall pay the fees. Company shall host the "
        "offering.\n"
    )
    assert [(p.defined_as, p.name) for p in read_parties(text)] == [
        ("Company", "Halden Crowdfunding, Inc."),
        ("Customer", "Solway Vending Ltd"),
    ]
    form = (
        "1. By execution of this Vendor Contract (“Contract”), _______________ (“Vendor”) agrees to supply "
        "Brightline Stores, Inc. (“Brightline”). Vendor shall deliver. Brightline shall pay Vendor. Vendor "
        "shall invoice Brightline.\n"
    )
    assert next((p.defined_as, p.name) for p in read_parties(form)) == ("Vendor", "")


def test_what_a_party_does_in_consideration_of_a_fee_is_what_it_sells() -> None:
    text = (
        "SPONSORSHIP AGREEMENT\n\nThis Agreement is made between Kestrel Racing Club Ltd. (the “Club”) and "
        "Marlow Beverages Inc. (“Marlow”).\n\n"
        "1. In consideration of the Sponsorship Fee set out in Schedule 2, the Club shall provide Marlow "
        "with the sponsorship rights. In consideration of the Sponsorship Fee, the Club shall display "
        "Marlow's logo on the cars.\n2. Marlow grants the Club a licence to use its marks. Marlow shall "
        "provide the logo artwork. Marlow shall pay the Sponsorship Fee in two instalments.\n"
    )
    binding = resolve_roles(text, read_parties(text), "customer")
    assert [p.defined_as for p in binding.us] == ["Marlow"]
    assert [p.defined_as for p in binding.them] == ["Club"]


def test_all_amounts_payable_by_one_party_to_the_other_is_no_price_paid() -> None:
    text = (
        "SECURITY AGREEMENT\n\nThis Agreement is made between Halberd Bank plc (“Halberd”) and Ostrava "
        "Trust Ltd. (the “Counterparty”).\n\n"
        "1. This Agreement secures all present and future amounts payable by Halberd to the Counterparty "
        "under the Master Agreement. 2. The Counterparty shall notify Halberd. 3. Halberd shall notify the "
        "Counterparty.\n"
    )
    assert not resolve_roles(text, read_parties(text), "customer").resolved


def test_the_party_entitled_to_a_fee_is_the_one_that_provides() -> None:
    text = (
        "SPONSORSHIP AGREEMENT\n\nThis Agreement is made between Delta Racing Promotions, Inc. (“DRP”) and "
        "Harrow's Grill, Inc. (“Harrow”).\n\n"
        "3. DRP shall perform the following services for Harrow's in connection with race programs. DRP will "
        "purchase decals for the car. DRP will provide race day uniforms. DRP shall provide an alternate "
        "driver. DRP shall maintain the car.\n"
        "6. In consideration of the services provided, DRP shall be entitled to a base fee of $80,000.\n"
    )
    binding = resolve_roles(text, read_parties(text), "customer")
    assert [p.defined_as for p in binding.us] == ["Harrow"]


def test_a_plain_language_franchise_form_names_each_party_by_pronouns_then_by_its_term() -> None:
    text = (
        "FRANCHISE AGREEMENT\n\nThis Franchise Agreement between Larchmont Inns Franchise LLC (“we,” “us,” "
        "“our” or “Franchisor”) and the Franchisee (“you,” “your” or “Franchisee”) set forth in the Addendum "
        "is dated as of the Effective Date.\n\n"
        "1. Franchisor grants to Franchisee a licence to operate the Inn. Franchisor shall provide training. "
        "Franchisor will provide the manual.\n2. Franchisee shall pay to Franchisor a royalty. Franchisee "
        "shall operate the Inn.\n"
    )
    parties = read_parties(text)
    assert [(p.defined_as, p.name) for p in parties] == [
        ("Franchisor", "Larchmont Inns Franchise LLC"),
        ("Franchisee", "the Franchisee"),
    ]
    assert [p.defined_as for p in resolve_roles(text, parties, "customer").us] == ["Franchisee"]


def test_two_parties_are_never_shown_under_one_name() -> None:
    # no "and" closes the first party's term: its address runs on into the second party's name
    text = (
        "This Agreement is made effective May 1, 2020, by and between Northgate Tools Inc., a Delaware "
        'corporation ("Company"), with its principal place of business at 12 Elm Road, Austin, TX 78701 and '
        'the Riverside Heart Foundation, Inc. ("Foundation"), an Ohio not-for-profit corporation.\n\n'
        "1. Company shall pay the Foundation the fee. The Foundation shall name the Company a sponsor. "
        "Company and Foundation agree.\n"
    )
    names = {p.defined_as: p.name for p in read_parties(text)}
    assert names == {"Company": "Northgate Tools Inc.", "Foundation": "Riverside Heart Foundation, Inc."}


def test_a_party_whose_own_name_cannot_be_read_is_shown_without_one_not_under_another_s() -> None:
    # "Agent" is a party, but no name of its own is written before its term
    text = (
        'AGENCY AGREEMENT by and between Lakeview Savings Corporation, a Maryland corporation ("Company"), '
        'for itself and as agent for its subsidiaries ("Agent"), and Harbor Securities LLC ("Dealer").\n\n'
        "1. The Company appoints the Dealer. The Agent shall cooperate. The Company shall pay the Dealer a "
        "fee. The Agent, the Dealer and the Company agree.\n"
    )
    parties = {p.defined_as: p.name for p in read_parties(text)}
    assert parties["Company"] == "Lakeview Savings Corporation"
    assert parties["Dealer"] == "Harbor Securities LLC"
    assert parties["Agent"] == ""


def test_the_distributor_retained_to_sell_the_suppliers_products_is_the_customer_side() -> None:
    # retaining a distributor to distribute and sell one's products is selling them to it; "retains the
    # right to modify the Products" engages nobody
    text = (
        'This agreement is made by and between Halvex Corporation ("Halvex") and Corvane Audio Inc '
        '("Distributor").\n\nRecitals\n\nA. Halvex desires to retain Distributor to promote, distribute and '
        "sell the Products. B. Distributor desires to obtain the right to sell the Products.\n\n"
        "1. Halvex grants Distributor the exclusive right to distribute the Products. Halvex retains the "
        "right, in its sole discretion, to modify the Products. Halvex will fully reimburse Distributor for "
        "returned products. Halvex agrees to provide Products to Distributor pursuant to purchase orders. "
        "Distributor shall pay for all products purchased in a timely manner. Distributor shall maintain "
        "records.\n"
    )
    binding = resolve_roles(text, read_parties(text), "customer")
    assert [p.defined_as for p in binding.us] == ["Distributor"]
    assert "Halvex retains" not in binding.basis and "desires to retain" not in binding.basis
    # retained to advise, or hereby retained, the one retained is engaged by the other: its buyer cues count
    engaged = text.replace("to promote, distribute and sell the Products", "to advise on the Products")
    engaged = engaged.replace(
        "Halvex retains the right, in its sole discretion,", "Halvex hereby retains Corvane"
    )
    _, _, why = _evidence(Text(engaged), "Halvex")
    assert ("buyer", "“Halvex desires to retain”") in why and ("buyer", "“Halvex hereby retains”") in why
    _, _, why = _evidence(Text(text), "Halvex")
    assert not any(w.startswith("“Halvex desires") or w.startswith("“Halvex retains") for _, w in why)


def test_the_party_a_thing_is_made_for_is_the_customer_side_and_the_maker_the_supplier() -> None:
    text = (
        'This Amendment to the Supply and Manufacturing Agreement between Corvel Corporation ("Corvel") '
        'and Pindar Corporation ("Pindar") is made this 22 June 2018.\n\n1. The revised specifications '
        "for Wafers manufactured by Pindar for Corvel are attached. Pindar shall continue to manufacture the "
        "Wafers. Corvel shall provide written notice to Pindar. Services performed by Pindar are invoiced, "
        "and Pindar will be compensated for them.\n"
    )
    binding = resolve_roles(text, read_parties(text), "customer")
    assert [p.defined_as for p in binding.us] == ["Corvel"]
    assert "manufactured by Pindar for Corvel" in binding.basis
    # made by a party for its own use names nobody it is made for
    own = text.replace("manufactured by Pindar for Corvel", "developed by Pindar for use in the Wafers")
    assert not any("for use" in w for _, w in _evidence(Text(own), "Pindar")[2])
    assert not resolve_roles(own, read_parties(own), "customer").resolved


CONSULTANCY_FOR_TWO = (
    'This Consulting Agreement is entered into by and between Kestrel Sciences Inc. ("KSI"), Kestrel '
    'Nutrition Inc. ("KNI"), and Jane Doyle ("Dr. Doyle").\n'
    "2.1 KSI and KNI shall bear all costs of the products which KSI or KNI sells. "
    "2.2 Dr. Doyle shall provide the following services to KSI: guidance on research. "
    "2.3 Dr. Doyle shall provide the following services to KNI: advice on formulation. "
    "2.4 Dr. Doyle shall deliver a quarterly plan to KSI. "
    "3.1 KSI will grant Dr. Doyle a licence to use its laboratory.\n"
    "5.1 KNI will pay Dr. Doyle $8,000 per month. Dr. Doyle will be paid a royalty. "
    "Dr. Doyle shall provide monthly reports to KNI. Dr. Doyle will deliver the formulations.\n"
)


def test_two_companies_that_receive_one_consultants_services_are_both_us() -> None:
    """Of three parties, one plainly on the other side (it provides and is paid): every party leaning our way
    is us — the second company is not "them" because it also grants the consultant a licence."""
    parties = read_parties(CONSULTANCY_FOR_TWO)
    assert [p.defined_as for p in parties] == ["KSI", "KNI", "Dr. Doyle"]
    binding = resolve_roles(CONSULTANCY_FOR_TWO, parties, "customer")
    assert sorted(p.defined_as for p in binding.us) == ["KNI", "KSI"]
    assert [p.defined_as for p in binding.them] == ["Dr. Doyle"]
    assert "“Dr. Doyle” is them" in binding.basis
