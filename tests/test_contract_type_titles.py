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
