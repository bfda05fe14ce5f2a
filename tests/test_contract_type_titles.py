"""A contract's type from its own title — never from another document's it mentions — in more of the
forms titles take, and the NDA family by more of its names."""

from __future__ import annotations

from playbooks.contract_type import classify


def test_a_document_is_typed_by_its_own_title_not_by_the_contract_it_replaces() -> None:
    text = (
        "Exhibit 4.3\n\n    Maintenance and support contract     for KELIX modules\n\n"
        "  dated 10 October 2000\n\n"
        "This contract replaces in full the Annex 7 which was an integral part of the original PURCHASE & "
        "LICENSE CONTRACT, made effective on 06 April 1998.\n\nHotline support and maintenance fees."
    )
    ctype = classify(text)
    assert (ctype.type, ctype.title) == ("maintenance_support", "Maintenance and support contract")
    power = (
        "LIMITED POWER OF ATTORNEY\n\nThe Adviser appoints FASC as its agent pursuant to the Services "
        "Agreement "
        'dated 1 January 2004 (hereinafter referred to as the "Services Agreement").'
    )
    assert classify(power).title == ""


def test_the_nda_family_has_more_names_than_non_disclosure() -> None:
    for title in (
        "CONFIDENTIAL DISCLOSURE AGREEMENT",
        "NON DISCLOSURE AGREEMENT",
        "Confidentiality and Non-Disclosure Agreement",
        "SECRECY AGREEMENT",
        "NON-DISCLOSURE / CONFIDENTIALITY\nAGREEMENT",
        "CONFIDENTIALITY DEED",
    ):
        assert classify(f"{title}\n\nThe parties agree as follows.").type == "nda", title


def test_a_contract_number_label_is_no_title_but_an_amended_agreement_named_by_number_is() -> None:
    labelled = (
        "TELKO CONTRACT No. 076C/01   LICENCE AND MAINTENANCE AGREEMENT   entered into by and between X and Y"
    )
    assert classify(labelled).title == "LICENCE AND MAINTENANCE AGREEMENT"
    amendment = (
        "AMENDMENT NO. 3\n\nReference is hereby made to that certain Wireless Content License Agreement "
        "Number "
        '12965 dated as of December 16, 2004 (the "Agreement").'
    )
    assert classify(amendment).type == "license"


def test_a_title_in_title_case_keeps_every_kind_it_joins() -> None:
    # "and" in lower case used to end a title-case title: "Co-Branding and Services Agreement" was read
    # as a "Services Agreement"
    for title, kind, kinds in (
        ("Co-Branding and Services Agreement", "marketing", ("marketing", "services")),
        ("CO-BRANDING AND SERVICES AGREEMENT", "marketing", ("marketing", "services")),
        (
            "Non-Competition, Referral and Non-Disclosure Agreement",
            "nda",
            ("nda", "restrictive_covenant", "marketing"),
        ),
        ("Software License and Maintenance Agreement", "license", ("license", "maintenance_support")),
        ("Manufacturing & Supply Agreement", "supply", ("supply",)),
        # one kind with the generic word after it; development beside a licence is its product
        ("Transportation Services Agreement", "transportation", ("transportation",)),
        ("License and Development Agreement", "license", ("license",)),
    ):
        ctype = classify(f"{title}\n\nThis {title} is made between Alder Inc. and Birch LLC.")
        assert (ctype.type, ctype.title, ctype.kinds) == (kind, title, kinds), title


def test_a_playbook_fits_a_contract_whose_title_joins_a_kind_it_is_written_for() -> None:
    from pathlib import Path

    from citationgate.review import judgement_footing
    from ingest.plain import load_text
    from playbooks import load_playbook

    playbook = load_playbook("msa-customer")
    text = (
        'CO-BRANDING AND SERVICES AGREEMENT\n\nThis Agreement is made between Alder Inc. ("Alder") and Birch '
        'LLC ("Birch").\n\n1. Birch shall provide the Services. Alder shall pay Birch the fees.\n'
    )
    _, ctype, fit = judgement_footing(load_text(Path("cobrand.txt"), text.encode()), playbook)
    assert (ctype.type, fit["fits"], fit["reviewed_as"], fit["warning"]) == (
        "marketing",
        True,
        "services",
        None,
    )
    alone = text.replace("CO-BRANDING AND SERVICES", "CO-BRANDING")
    _, ctype, fit = judgement_footing(load_text(Path("cobrand.txt"), alone.encode()), playbook)
    assert (ctype.type, fit["fits"], fit["reviewed_as"]) == ("marketing", False, "marketing")
    assert "marketing contract" in fit["warning"]
