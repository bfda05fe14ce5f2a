"""Classes of wrong reading found when NDAs nobody had read were audited (issue 11), each a synthetic text.

Every text here is written for the test: it has the shape of the drafting that was misread (a list of
lettered undertakings, a definition whose limbs are alternatives, a carve-out for trade secrets only, a
need-to-know rule in a sentence of its own), never a contract's own words. A test states what a lawyer
reads: the outcome, the value and, where the error was the clause cited, the words the finding quotes.
"""

from __future__ import annotations

from functools import lru_cache

from playbooks import load_playbook
from playbooks.engine import run_playbook
from playbooks.library import document_from_text
from playbooks.outcome import ClauseOutcome
from playbooks.schema import Playbook


@lru_cache(maxsize=1)
def _playbook() -> Playbook:
    return load_playbook("nda-recipient")


def _rule(text: str, rule: str) -> ClauseOutcome:
    got = [o for o in run_playbook(document_from_text(text), _playbook()) if o.rule == rule]
    assert got, f"{rule}: no outcome"
    return got[0]


def _value(o: ClauseOutcome, field: str) -> object:
    ev = o.extracted.get(field)
    return ev.value if ev is not None else None


def _quoted(o: ClauseOutcome) -> str:
    return " ".join(q.text for q in o.quotes)


# ------------------------------------------------------------------ oral information confirmed in writing
def test_oral_information_identified_in_a_writing_within_days_is_written_confirmation() -> None:
    # the confirmation is worded as an identification "in a writing within N days", or a summary "in
    # tangible form": either way oral information is protected only once it is written down
    for limb in (
        "if disclosed orally or by demonstration, is designated as confidential in a writing delivered "
        "within fifteen (15) days of the meeting",
        "if communicated orally, is identified as confidential when disclosed and later summarized in "
        "tangible form marked as such within twenty (20) days",
        "if disclosed verbally, is identified as confidential at that time and confirmed in a writing to the "
        "Recipient within thirty (30) days",
    ):
        text = (
            '1. "Confidential Information" means information the Discloser provides to the Recipient that '
            f"(a) if in documents, bears a legend marking it as confidential, or (b) {limb}.\n"
        )
        o = _rule(text, "oral_information")
        assert (o.outcome, _value(o, "written_confirmation")) == ("standard", True), limb


def test_oral_information_in_any_form_is_still_no_written_confirmation() -> None:
    text = (
        '1. "Confidential Information" means information marked as confidential, whether it is disclosed in '
        "writing or orally.\n"
    )
    o = _rule(text, "oral_information")
    assert o.outcome == "fallback" and _value(o, "written_confirmation") is not True


# ------------------------------------------------------------------ a value from another limb of a list
def test_copying_banned_in_its_own_limb_is_not_the_consent_of_the_limb_before() -> None:
    text = (
        "2. The Recipient undertakes (a) to keep the Discloser's Confidential Information secret, (b) not to "
        "pass any of it on to any other person without the Discloser's prior written approval, (c) not to "
        "use it except to assess the proposed venture, and (d) not to copy or decompile any of it.\n"
    )
    o = _rule(text, "copies")
    assert (o.outcome, _value(o, "copying")) == ("fallback", "prohibited")
    assert "not to copy" in _quoted(o)


def test_copying_with_consent_in_the_same_limb_is_still_consent() -> None:
    text = (
        "2. The Recipient undertakes (a) to keep the Discloser's Confidential Information secret, (b) not to "
        "use it except to assess the proposed venture, and (c) not to copy any of it without the Discloser's "
        "prior written approval.\n"
    )
    o = _rule(text, "copies")
    assert (o.outcome, _value(o, "copying")) == ("fallback", "consent_needed")


# ------------------------------------------------------------------ need to know, in a sentence of its own
def test_need_to_know_in_its_own_sentence_is_read_where_sharing_was_located_at_a_definition() -> None:
    text = (
        'The Recipient and its officers, employees, agents and advisers (together, "Representatives") '
        "acknowledge that the Discloser may disclose Confidential Information to it.\n\n"
        "2. The Recipient shall not disclose the Confidential Information to any third party, other than to "
        "its Representatives. Each employee who is given access to the Confidential Information shall have a "
        "genuine need to know it and shall be bound by duties of confidence no less strict than these.\n"
    )
    o = _rule(text, "sharing_employees")
    assert (o.outcome, _value(o, "need_to_know")) == ("standard", True)
    assert "need to know" in _quoted(o)


# ------------------------------------------------------------------ a clause that is something else
def test_no_third_party_beneficiaries_is_no_no_licence_clause() -> None:
    text = (
        "2. Nothing in this Agreement shall be construed as granting by one party to the other any licence "
        "or other right in or to the information disclosed.\n\n"
        "16. Nothing in this Agreement is intended to confer any rights or remedies on any third party.\n"
    )
    o = _rule(text, "no_licence")
    assert o.outcome == "standard"
    assert "licence" in _quoted(o) and "third party" not in _quoted(o)


def test_a_third_party_beneficiaries_clause_alone_is_no_statement_about_licences() -> None:
    text = "16. Nothing in this Agreement is intended to confer any rights or remedies on any third party.\n"
    assert _rule(text, "no_licence").outcome == "not_applicable"


# ------------------------------------------------------------------ return, and destruction of our notes only
def test_information_returned_and_only_our_notes_destroyed_is_no_option_to_destroy() -> None:
    text = (
        "7. On the Discloser's request, the Recipient shall promptly hand back to the Discloser all "
        "Confidential Information and copies of it in its control, and shall destroy all notes and analyses "
        "it has prepared from the Confidential Information and certify that destruction.\n"
    )
    o = _rule(text, "return_or_destroy")
    assert (o.outcome, _value(o, "destroy_option")) == ("fallback", False)


def test_destruction_only_with_the_disclosers_permission_is_no_option_to_destroy() -> None:
    text = (
        "5. On the written request of the Discloser the Recipient shall return all Confidential Information "
        "or, with the written permission of the Discloser, effect its destruction.\n"
    )
    o = _rule(text, "return_or_destroy")
    assert (o.outcome, _value(o, "destroy_option")) == ("fallback", False)


def test_return_or_destroy_and_destroy_notes_keeps_the_option() -> None:
    text = (
        "7. On the Discloser's request, the Recipient shall return or destroy all Confidential Information, "
        "and shall destroy all notes prepared from it.\n"
    )
    o = _rule(text, "return_or_destroy")
    assert (o.outcome, _value(o, "destroy_option")) == ("standard", True)


# ------------------------------------------------------------------ an unlimited term for trade secrets only
def test_an_unlimited_term_for_trade_secrets_only_is_not_an_unlimited_term() -> None:
    text = (
        "14. The obligations of each party shall continue for two (2) years after this Agreement ends. The "
        "duty to protect Confidential Information shall however last indefinitely as to information that "
        "constitutes a trade secret under applicable law.\n"
    )
    o = _rule(text, "confidentiality_term")
    assert (o.outcome, _value(o, "indefinite"), _value(o, "term_years")) == ("standard", False, 2)


def test_an_unlimited_term_for_trade_secrets_and_all_else_is_unlimited() -> None:
    text = (
        "14. The obligations with respect to trade secrets and all other Confidential Information shall "
        "continue indefinitely.\n"
    )
    o = _rule(text, "confidentiality_term")
    assert (o.outcome, _value(o, "indefinite")) == ("fallback", True)


# ------------------------------------------------------------------ carve-outs judged on what we knew
def test_a_source_we_do_not_know_to_be_bound_is_a_knowledge_qualifier() -> None:
    text = (
        "3. Confidential Information does not include information that the Recipient obtains from a source "
        "other than the Discloser, which source the Recipient does not know to be bound by a duty of "
        "confidence to the Discloser.\n"
    )
    o = _rule(text, "third_party_source")
    assert (o.outcome, _value(o, "knowledge_qualifier")) == ("standard", True)


# ------------------------------------------------------------------ what compels a disclosure
def test_a_carve_out_for_court_orders_only_does_not_reach_a_disclosure_the_law_requires() -> None:
    # "unless the law prohibits notice" qualifies the notice; it does not make the law a ground to disclose
    text = (
        "9. If the Recipient receives a subpoena or an order of a court to disclose Confidential "
        "Information, it may comply after promptly notifying the Discloser, unless such notice is "
        "prohibited by law.\n"
    )
    o = _rule(text, "compelled_disclosure")
    assert (o.outcome, _value(o, "by_law")) == ("fallback", False)
    assert "court orders and legal process only" in o.claim


def test_a_carve_out_for_what_law_or_regulation_requires_is_standard() -> None:
    text = (
        "9. The Recipient may disclose Confidential Information where it is required to do so under any "
        "applicable law, regulation or order of a court, provided it first promptly notifies the Discloser.\n"
    )
    o = _rule(text, "compelled_disclosure")
    assert (o.outcome, _value(o, "by_law")) == ("standard", True)


# ------------------------------------------------------------------ survival of what
def test_surviving_a_later_contract_is_no_survival_of_termination() -> None:
    text = (
        "7. This Agreement shall survive the signing of any further agreement between the parties unless "
        "that agreement expressly replaces it.\n"
    )
    assert _rule(text, "survival").outcome == "missing"


def test_a_carve_out_with_no_notice_duty_for_what_the_law_requires_is_standard() -> None:
    # no notice to give is no worse for the recipient than notice: the carve-out is judged on what compels
    text = (
        "4. Nothing in this Agreement shall prevent the Recipient from making any disclosure of Confidential "
        "Information that is required by law or by a competent regulatory authority.\n"
    )
    o = _rule(text, "compelled_disclosure")
    assert (o.outcome, _value(o, "by_law")) == ("standard", True)


# ------------------------------------------------------------------ a definition with its term last
def test_a_definition_that_names_its_term_last_is_the_definition() -> None:
    text = (
        "1. (a) All information that the Disclosing Party or its advisers furnish, whether written or oral "
        "and whether before or after the date hereof, together with all notes and analyses the Receiving "
        "Party prepares from it, is referred to herein as “Proprietary Information”.\n"
    )
    o = _rule(text, "ci_definition")
    assert o.outcome == "standard"
    assert "referred to herein as" in _quoted(o)


# ------------------------------------------------------------------ a mutual NDA's right given to one party
def test_a_right_to_keep_copies_given_to_one_party_by_name_is_said_to_be_its_only() -> None:
    text = (
        "MUTUAL NON-DISCLOSURE AGREEMENT\n\n"
        "3. On request the Receiving Party shall return or destroy all Proprietary Information of the "
        "Disclosing Party; provided, however, that Northgate and its Representatives shall not be obligated "
        "to return or destroy Proprietary Information to the extent required by law or their compliance "
        "policies.\n"
    )
    o = _rule(text, "retained_copies")
    assert (o.outcome, _value(o, "one_party_named")) == ("fallback", True)
    assert "one party by name only" in o.claim


def test_a_right_to_keep_copies_given_to_the_receiving_party_is_not_one_partys_only() -> None:
    text = (
        "3. On request the Receiving Party shall return or destroy all Proprietary Information; provided "
        "that the Receiving Party may retain copies required by law and copies held in automatic backup "
        "systems.\n"
    )
    o = _rule(text, "retained_copies")
    assert o.outcome == "standard" and _value(o, "one_party_named") is not True


# ------------------------------------------------------------------ more phrasings read in unseen NDAs
def test_a_single_copy_that_may_be_retained_is_a_retention_right() -> None:
    text = (
        "3. On request the Recipient will hand back all Proprietary Information, except that one copy may be "
        "retained for archival purposes in its legal department.\n"
    )
    assert _rule(text, "retained_copies").outcome == "fallback"


def test_residuals_kept_in_memory_are_no_copies_kept() -> None:
    text = (
        '5. "Residuals" means information retained in intangible form in the unaided memories of the '
        "Recipient's employees.\n"
    )
    assert _rule(text, "retained_copies").outcome == "missing"


def test_a_source_that_had_the_right_to_disclose_is_the_third_party_carve_out() -> None:
    text = (
        "2. The obligations do not apply to information obtained from any person, firm or company which had "
        "the unrestricted right to disclose it.\n"
    )
    o = _rule(text, "third_party_source")
    assert (o.outcome, _value(o, "third_party")) == ("fallback", True)


def test_deleting_no_markings_is_no_destruction() -> None:
    text = (
        "8. The Recipient shall not alter or delete any markings on any Information.\n\n"
        "9. At the end of the discussions the Discloser may request that the Recipient return all "
        "Information.\n"
    )
    o = _rule(text, "return_or_destroy")
    assert o.outcome == "fallback" and _value(o, "destroy_option") is not True


def test_export_control_laws_are_not_what_compels_a_disclosure() -> None:
    text = (
        "1. The Recipient shall not export any Information except in compliance with the approvals required "
        "under applicable export laws. The Recipient may make disclosures required by court order, provided "
        "it promptly notifies the Discloser.\n"
    )
    o = _rule(text, "compelled_disclosure")
    assert o.outcome == "fallback" and _value(o, "by_law") is not True


# ------------------------------------------------------------------ marking as one limb of a disjunction
def test_marking_as_one_alternative_limb_does_not_make_marking_the_only_test() -> None:
    # "(a) … (b) … or (c) marked": the unmarked limbs protect unmarked information
    text = (
        '1. "Confidential Information" means information of the Discloser (a) that consists of designs, '
        "software and pricing data disclosed for the Project; (b) concerning the present or planned business "
        "of the Discloser; or (c) that is marked as confidential by the Discloser.\n"
    )
    o = _rule(text, "marking")
    assert (o.outcome, _value(o, "beyond_marking")) == ("fallback", True)
    assert "only information marked" not in o.claim


def test_marking_limbs_split_by_the_form_of_disclosure_are_still_a_marking_requirement() -> None:
    # each limb asks for a marking or an identification: written marked, oral identified
    text = (
        '1. "Confidential Information" means information that (a) if disclosed in writing, is marked as '
        "confidential; or (b) if disclosed orally, is identified as confidential at the time of disclosure.\n"
    )
    o = _rule(text, "marking")
    assert (o.outcome, _value(o, "beyond_marking")) == ("standard", False)


# ------------------------------------------------------------------ who exactly may be told
def test_sharing_with_employees_only_says_employees_not_representatives() -> None:
    text = (
        "3. The Recipient shall prevent disclosure of the Confidential Information to anyone except to those "
        "of its employees that have a need to know such information for the Purpose.\n"
    )
    o = _rule(text, "sharing_employees")
    assert (o.outcome, _value(o, "shared_with")) == ("standard", "employees")
    assert "share with employees and representatives" not in o.claim


def test_sharing_names_the_whole_list_the_permission_lets_in() -> None:
    text = (
        "3. The Recipient shall not disclose Confidential Information to any person, whether to its staff "
        "or to outsiders, except in confidence to such of its officers, employees, auditors and bankers as "
        "need to know it for the Purpose.\n"
    )
    o = _rule(text, "sharing_employees")
    assert o.outcome == "standard"
    assert _value(o, "shared_with") == "officers, employees, auditors and bankers"


# ------------------------------------------------------------------ a definition is no prohibition
def test_reverse_engineering_named_in_a_trade_secret_definition_is_no_ban() -> None:
    text = (
        '1. "Trade Secrets" means information that derives economic value from not being generally known or '
        "readily ascertainable by proper means, including through reverse engineering by others.\n"
    )
    assert _rule(text, "reverse_engineering").outcome == "not_applicable"


def test_reverse_engineering_banned_beside_the_definition_is_still_the_clause() -> None:
    text = (
        '1. "Trade Secrets" means information that derives economic value from not being generally known or '
        "readily ascertainable by proper means, including through reverse engineering by others.\n\n"
        "4. The Recipient shall not reverse engineer, decompile or disassemble any prototype it receives.\n"
    )
    o = _rule(text, "reverse_engineering")
    assert o.outcome == "standard" and "shall not reverse engineer" in _quoted(o)


# ------------------------------------------------------------------ the defined name varies
def test_information_defined_under_another_name_in_a_recital_is_the_definition() -> None:
    for name in ("Evaluation Material", "Proprietary Data", "Information"):
        text = (
            "The parties are discussing a joint bid. Each expects to give the other certain non-public and "
            "proprietary information, written or oral, about its costs, customers and technology (together, "
            f"the “{name}”).\n\n"
            f"2. Each party shall keep the {name} of the other in confidence.\n"
        )
        o = _rule(text, "ci_definition")
        assert o.outcome == "standard", name
        assert name in _quoted(o), name


def test_information_defined_by_means_under_another_name_is_the_definition() -> None:
    text = (
        '1. "Project Information" means all technical and commercial information that the Owner gives the '
        "Bidder for the tender.\n"
    )
    o = _rule(text, "ci_definition")
    assert o.outcome == "standard" and "Project Information" in _quoted(o)


def test_a_definition_of_excluded_information_is_not_the_definition() -> None:
    text = (
        '1. "Excluded Information" means information that is already public or that the Bidder already '
        "holds.\n"
    )
    assert _rule(text, "ci_definition").outcome == "missing"


# ------------------------------------------------------------------ representatives who hold the information
def test_a_ban_binding_us_and_our_representatives_lets_them_hold_it() -> None:
    # "neither it nor its Representatives will disclose": the Representatives (advisers among them) are
    # permitted holders of the information
    text = (
        'Each party, and its officers, employees, counsel and financial advisers (its "Representatives"), '
        "will receive information from the other for the Purpose.\n\n"
        "2. Unless the other party first agrees in writing, neither a party nor its Representatives will "
        "disclose any of the other party's information to anyone else.\n"
    )
    o = _rule(text, "sharing_third_parties")
    assert o.outcome == "standard"
    assert _value(o, "representatives_allowed") is True
    assert _value(o, "representatives_include_advisers") is True


# ------------------------------------------------------------------ what we knew, however it is worded
def test_a_source_not_known_or_that_should_be_known_to_be_bound_is_a_knowledge_qualifier() -> None:
    text = (
        "5. Information is not confidential if it is received by the Recipient from a source other than "
        "the Discloser, provided that such source was not known or reasonably should be known by the "
        "Recipient to be under a duty of confidence.\n"
    )
    o = _rule(text, "third_party_source")
    assert (o.outcome, _value(o, "knowledge_qualifier")) == ("standard", True)


def test_information_not_generally_known_to_others_is_no_knowledge_qualifier() -> None:
    text = (
        "5. Confidential Information does not include information that (a) is not generally known to others "
        "in the trade through any fault of the Recipient, or (b) is received by the Recipient from a third "
        "party who is not under an obligation of confidentiality.\n"
    )
    o = _rule(text, "third_party_source")
    assert (o.outcome, _value(o, "knowledge_qualifier")) == ("fallback", False)


# ------------------------------------------------------------------ a term ending on an anniversary
def test_obligations_ending_on_the_second_anniversary_last_two_years() -> None:
    text = (
        "9. The obligations of confidentiality under this Agreement shall end on the second anniversary of "
        "the date of this Agreement.\n"
    )
    o = _rule(text, "confidentiality_term")
    assert (o.outcome, _value(o, "term_years")) == ("standard", 2)


# ------------------------------------------------------------------ the need to know in a limb of a lead-in
def test_a_need_to_know_limb_under_a_lead_in_is_a_need_to_know_test() -> None:
    text = (
        "4. The Recipient may disclose Confidential Information to those of its officers, employees and "
        "auditors who:\n\n"
        "4.1 reasonably need to receive it for the Project; and\n\n"
        "4.2 have been told that it is confidential.\n"
    )
    o = _rule(text, "sharing_employees")
    assert (o.outcome, _value(o, "need_to_know")) == ("standard", True)


# ------------------------------------------------------------------ obligations that outlast a return
def test_obligations_continuing_without_limit_of_time_after_return_survive_and_have_no_end() -> None:
    text = (
        "6 Return of information and continuing duties\n\n"
        "6.1 The Discloser may ask for its information back at any time under this Clause 6.1.\n\n"
        "6.2 After any return of information under Clause 6.1, the Recipient's duties under this Agreement "
        "shall continue in force without limit of time.\n"
    )
    s = _rule(text, "survival")
    assert s.outcome == "standard" and "without limit of time" in _quoted(s)
    t = _rule(text, "confidentiality_term")
    assert (t.outcome, _value(t, "indefinite")) == ("fallback", True)


# ------------------------------------------------------------------ a bond waived, however far apart
def test_a_waived_bond_requirement_with_words_between_is_a_bond_waiver() -> None:
    text = (
        "7. The Discloser may obtain injunctive relief against any breach. The Recipient waives, so far as "
        "the law allows, any requirement that the Discloser post a bond before an injunction issues.\n"
    )
    o = _rule(text, "remedies")
    assert _value(o, "bond_waived") is True


# ------------------------------------------------------------------ the exclusions are not the definition
def test_a_sentence_opening_with_what_is_not_included_is_not_the_definition() -> None:
    text = (
        "WHEREAS, all data and documents a party gives the other about the venture, and all notes either "
        'party makes from them, are together referred to herein as the "Confidential Information;" and\n\n'
        '4. The term "Confidential Information" does not include information that is or becomes public '
        "through no fault of the Recipient.\n"
    )
    o = _rule(text, "ci_definition")
    assert o.outcome == "standard"
    assert "referred to herein" in _quoted(o) and "does not include" not in _quoted(o)


def test_the_defined_name_at_the_end_of_a_long_recital_is_quoted() -> None:
    # the quote of a recital too long to quote whole keeps the words that define the information
    lead = "The Owner is selling its mill, and potential buyers have asked to inspect its records. " * 6
    text = (
        f"{lead}The Owner holds certain non-public and proprietary documents, ledgers and data relating to "
        "the mill (the “Sale Information”) for review by such buyers.\n\n"
        "1. The Buyer shall keep the Sale Information in confidence.\n"
    )
    o = _rule(text, "ci_definition")
    assert o.outcome == "standard" and "Sale Information" in _quoted(o)


# ------------------------------------------------------------------ an enumerated exception
def test_disclosure_barred_except_to_enumerated_representatives_lets_them_in() -> None:
    text = (
        'Each party, and its directors, employees, attorneys and accountants (its "Representatives"), may '
        "receive information for the Purpose.\n\n"
        "2. The Recipient shall not disclose the Confidential Information to anyone except (i) to the "
        "Recipient's Representatives on the terms of section 3, or (ii) as section 4 permits.\n"
    )
    o = _rule(text, "sharing_third_parties")
    assert o.outcome == "standard" and _value(o, "representatives_allowed") is True


# ------------------------------------------------------------------ a ban whose exception lists the people we
_BAN_WITH_EXCEPTION = (
    "1. Secrecy. The Purchaser shall hold the Confidential Information in strict confidence and shall not "
    "disclose it to, or copy any of it for the use of, any person or firm other than the Purchaser's "
    "officers, "
    "employees, accountants and legal advisers who are directly engaged in the assessment of the Site, and "
    "then "
    "only to the extent reasonably necessary for that assessment.\n\n"
    "2. Exceptions. The following shall not constitute Confidential Information: (a) information that "
    "becomes "
    "public other than through a disclosure by the Purchaser or its officers, employees or agents; and (b) "
    "information the Purchaser already held.\n"
)


def test_advisers_named_in_the_exception_to_a_ban_may_be_told() -> None:
    # "not disclose … to any person other than [our officers, employees and advisers]" is a permission to tell
    # the advisers, read in the ban itself — never in the exclusions, whose "disclosure by … its agents" only
    # says whose disclosure would not count
    o = _rule(_BAN_WITH_EXCEPTION, "sharing_third_parties")
    assert (o.outcome, _value(o, "advisers_allowed")) == ("standard", True)
    assert "other than the Purchaser" in _quoted(o) and "shall not constitute" not in _quoted(o)


def test_people_directly_engaged_and_only_as_far_as_needed_is_need_to_know() -> None:
    o = _rule(_BAN_WITH_EXCEPTION, "sharing_employees")
    assert (o.outcome, _value(o, "need_to_know")) == ("standard", True)


def test_a_disclosure_only_as_far_as_the_law_requires_is_no_need_to_know_test() -> None:
    text = (
        "3. The Recipient may disclose Confidential Information to its employees. It may disclose "
        "Confidential "
        "Information to a court only to the extent necessary to comply with the court's order.\n"
    )
    o = _rule(text, "sharing_employees")
    assert _value(o, "need_to_know") is not True


def test_copies_only_for_the_people_we_may_tell_are_copies_for_the_purpose() -> None:
    # the copying ban has the same exception as the disclosure ban: copying is not "not found"
    o = _rule(_BAN_WITH_EXCEPTION, "copies")
    assert (o.outcome, _value(o, "copying")) == ("standard", "permitted_for_purpose")


# ------------------------------------------------------------------ the terms one acts under, not kept secret
def test_information_subject_to_the_terms_of_the_agreement_is_no_confidential_agreement() -> None:
    text = (
        "All papers, figures and other agreements about the Site handed to the Purchaser (the Confidential "
        "Information) shall be subject to the terms of this Agreement\n"
        "The Purchaser accepts that the Confidential Information is strictly confidential.\n\n"
        "2. The Purchaser shall tell its advisers of the terms and conditions of this Agreement and shall "
        "make "
        "them comply with these confidentiality provisions.\n\n"
        "3. The Purchaser shall not issue any press statement or public announcement about the Site or this "
        "Agreement.\n"
    )
    o = _rule(text, "agreement_confidential")
    assert o.outcome == "standard"
    assert "public announcement" in _quoted(o) and "subject to the terms" not in _quoted(o)


def test_the_terms_of_the_agreement_kept_confidential_are_still_found() -> None:
    text = "5. The terms and conditions of this Agreement shall be kept confidential by both parties.\n"
    assert _rule(text, "agreement_confidential").outcome == "standard"


# ------------------------------------------------------------------ survival: perpetual, listed sections
def test_a_duty_kept_permanently_is_not_a_missing_survival_clause() -> None:
    text = (
        "1. The Purchaser shall keep the Confidential Information permanently and strictly confidential.\n\n"
        "2. This letter is governed by the laws of Ontario.\n"
    )
    s = _rule(text, "survival")
    assert s.outcome == "standard" and "permanently" in _quoted(s)


def test_survival_of_listed_sections_only_is_for_the_reader_to_check() -> None:
    # whether the duty of confidence is among the numbered sections is not read: the finding names them
    text = (
        "9. This Agreement terminates two years after the Effective Date; provided that Sections 3, 6 and 8 "
        "through 11 shall survive any termination of this Agreement.\n"
    )
    s = _rule(text, "survival")
    assert s.outcome == "needs_review"
    assert _value(s, "only_sections_survive") == "Sections 3, 6 and 8 through 11"


def test_survival_of_the_agreements_obligations_is_standard() -> None:
    text = (
        "9. The Recipient's obligations under this Agreement shall survive its termination for three years.\n"
    )
    assert _rule(text, "survival").outcome == "standard"


# ------------------------------------------------------------------ survival in other words than "survive"
def test_obligations_continuing_after_the_end_in_other_words_are_survival() -> None:
    for sentence in (
        "This letter governs our talks until either party ends them by notice, except that the duties of "
        "each "
        "party as to information received before that notice shall continue for a period of three (3) years "
        "thereafter.",
        "I understand that every duty this undertaking imposes on me applies while I hold a pass to the "
        "site, "
        "and at all times thereafter.",
        "The duties of the Recipient shall continue unless and until the information becomes public.",
        "The duties of confidence in clause 2 shall remain in full force and effect for so long as the "
        "information is not public.",
        "The Recipient's obligations as to source code shall be indefinite.",
        "The terms of this letter shall last while the talks go on and for 3 years following their "
        "conclusion.",
    ):
        s = _rule(f"8. {sentence}\n", "survival")
        assert s.outcome == "standard", sentence


def test_a_restraint_period_and_the_exclusions_are_not_survival() -> None:
    text = (
        "4. For the term of this Agreement and for two (2) years following its termination, the Recipient "
        "will "
        "not solicit any employee of the Discloser.\n\n"
        "5. This Agreement will not apply to any information that at the time of disclosure or thereafter is "
        "public.\n\n"
        "6. This Agreement expires one (1) year after the completion of the sale of the Site.\n"
    )
    assert _rule(text, "survival").outcome == "missing"


def test_sections_given_as_examples_and_a_duty_bound_after_delivery_are_survival() -> None:
    for sentence in (
        "The terms on the use and protection of the information, including Clauses 2, 3 and 5, shall survive "
        "any termination of this letter.",
        "Notwithstanding the delivery or destruction of the papers, the Recipient remains bound by its "
        "duties "
        "under this letter.",
    ):
        s = _rule(f"8. {sentence}\n", "survival")
        assert s.outcome == "standard", sentence


# ------------------------------------------------------------------ marking as one alternative, or an example
def test_marked_or_plainly_meant_to_be_confidential_is_no_marking_requirement() -> None:
    for limb in (
        "any information either party supplies that is clearly labelled “Secret” or clearly intended to be "
        "given in confidence",
        "any information the Discloser shows the Recipient which is stamped as Proprietary, or is reasonably "
        "identifiable as confidential information of the Discloser",
        "all information about the Discloser's business, including but not limited to all papers marked "
        "“Confidential”",
    ):
        text = f'1. "Confidential Information" means {limb}.\n'
        o = _rule(text, "marking")
        assert (o.outcome, _value(o, "beyond_marking")) == ("fallback", True), limb


def test_only_marked_information_is_still_a_marking_requirement() -> None:
    text = (
        '1. "Confidential Information" means written information of the Discloser that is marked as '
        '"Confidential" at the time of disclosure.\n'
    )
    assert _rule(text, "marking").outcome == "standard"


# ------------------------------------------------------------------ the third-party exclusion in other verbs
def test_information_from_a_third_person_or_anyone_else_is_the_third_party_carve_out() -> None:
    for limb in (
        "is revealed to the Recipient by a third party who owes the Discloser no duty of secrecy",
        "is rightfully disclosed to the Recipient by a third person",
        "is made available to the Recipient by any person other than the Discloser without breach of duty",
    ):
        text = f"5. The duty of secrecy shall not extend to information which {limb}.\n"
        assert _rule(text, "third_party_source").outcome in ("standard", "fallback"), limb


# ------------------------------------------------------------------ advisers let in by a defined term
def test_a_defined_term_in_the_permission_lets_in_the_advisers_its_definition_lists() -> None:
    # the people we may tell carry a name of the contract's own ("Associates", "Recipient
    # Representatives", "Authorised Persons"), defined elsewhere (in a parenthesis after other words, or
    # by a colon) to take in agents, contractors or advisers: sharing with advisers is addressed, and allowed
    for text in (
        "1. Each party, its affiliates and the respective officers, employees, accountants, attorneys "
        "and advisors of each of them (collectively with such affiliates, “Associates”) may receive "
        "information.\n"
        "2. Neither party will disclose any Confidential Information of the other party to third "
        "parties except those of its Associates who are required to have the information in order to "
        "evaluate the Project.\n",
        "1. Any information given to the Recipient or to any officer, agent or independent contractor "
        'of the Recipient (collectively, the "Recipient Representatives") shall be kept confidential.\n'
        "2. The Recipient shall ensure that any Recipient Representative to whom it provides "
        "Confidential Information agrees in writing to the same restrictions.\n",
        "1. Definitions.\nAuthorised Persons: any employees, officers, professional advisers or "
        "consultants of the Recipient who are engaged in the Project;\n"
        "2. The Recipient may disclose the Confidential Information to its Authorised Persons, provided "
        "that it procures that they comply with this Agreement.\n",
    ):
        o = _rule(text, "sharing_third_parties")
        assert o.outcome == "standard", text
        assert (_value(o, "representatives_allowed"), _value(o, "representatives_include_advisers")) == (
            True,
            True,
        ), text


def test_a_defined_term_of_employees_only_does_not_let_in_advisers() -> None:
    text = (
        "1. Any director, officer or employee of the Recipient (collectively, the "
        '"Recipient Representatives") shall keep the information confidential.\n'
        "2. The Recipient shall ensure that any Recipient Representative to whom it provides "
        "Confidential Information agrees in writing to the same restrictions.\n"
    )
    o = _rule(text, "sharing_third_parties")
    assert o.outcome != "standard" and _value(o, "representatives_include_advisers") is not True


# ------------------------------------------------------------------ a return clause is no copying clause
def test_a_return_of_copies_opening_a_list_item_is_not_headed_as_a_copying_clause() -> None:
    # the search's best passage for "making copies" is a list item that opens "Return all documents, copies
    # of documents …": a return clause, which the copying rule itself rules out — copying is not addressed
    text = (
        "1. The Recipient shall keep the Confidential Information secret and use it only for the Purpose.\n"
        "2. Return of Information. When requested by the Discloser, the Recipient shall:\n"
        "(a) Return all documents, copies of documents, computer records and other records of Confidential "
        "Information in its possession to the Discloser within five (5) days, or destroy them; and\n"
        "(b) certify in writing that it has done so.\n"
    )
    o = _rule(text, "copies")
    assert o.outcome == "not_applicable" and not o.quotes


# ------------------------------------------------------------------ a duty to notify is no carve-out
def test_a_bare_duty_to_notify_of_a_subpoena_is_no_carve_out() -> None:
    # the recipient must tell the discloser when legal process arrives, and nothing permits the disclosure
    # itself: no "acceptable" carve-out for court orders. Where the whole contract permits nothing, that is
    # the red line; where it lets us disclose something elsewhere, the reader is told to check it
    notice = (
        "19. The Recipient shall promptly notify the Discloser if it receives a subpoena or other legal "
        "process seeking the disclosure of Confidential Information.\n"
    )
    for first, outcome in (
        ("6. The Recipient shall not disclose the Confidential Information to any person.\n", "unacceptable"),
        (
            "6. The Recipient may disclose the Confidential Information only to its employees who need to "
            "know it.\n",
            "needs_review",
        ),
    ):
        o = _rule(first + notice, "compelled_disclosure")
        assert (o.outcome, _value(o, "notice_of_process")) == (outcome, True), first
        assert "nothing permits the disclosure itself" in o.claim


def test_notice_of_a_subpoena_with_leave_to_disclose_is_still_a_carve_out() -> None:
    text = (
        "19. The Recipient shall promptly notify the Discloser if it receives a subpoena or other legal "
        "process seeking the disclosure of Confidential Information, and may then disclose only that portion "
        "which it is legally required to disclose.\n"
    )
    o = _rule(text, "compelled_disclosure")
    assert o.outcome in ("standard", "fallback") and _value(o, "permits_disclosure") is True


def test_permitted_by_law_in_a_neighbouring_limb_is_no_legally_permitted_notice() -> None:
    # "except as expressly permitted by applicable law" qualifies a ban on reverse engineering, not the notice
    text = (
        "2. (a) The Recipient shall (i) refrain from disclosing Confidential Information to third parties; "
        "and (ii) refrain from reverse engineering any software disclosed under this Agreement, except as "
        "expressly permitted by applicable law.\n"
        "(b) The Recipient may disclose Confidential Information in accordance with a judicial or other "
        "governmental order, provided that it gives the Discloser reasonable notice prior to such "
        "disclosure.\n"
    )
    o = _rule(text, "compelled_disclosure")
    assert _value(o, "legally_permitted") is not True
    assert "permitted by applicable law" not in _quoted(o)


# ------------------------------------------------------------------ a residuals clause widens use
def test_free_to_use_the_residuals_for_any_purpose_is_no_purpose_limitation() -> None:
    # "free to use for any purpose the residuals" frees what people remember: its "purpose" limits nothing
    text = (
        "2. The Recipient shall not disclose the Confidential Information to third parties.\n"
        "3. Further, the Recipient shall be free to use for any purpose the residuals resulting from access "
        "to the Confidential Information, provided that it shall not disclose the Confidential Information.\n"
    )
    o = _rule(text, "limited_use")
    assert o.outcome != "standard" and _value(o, "purpose_defined") is not True
    assert _value(o, "residuals_free") is True and "residuals" in o.claim


def test_a_purpose_limit_beside_a_residuals_clause_says_the_residuals_are_free() -> None:
    purpose = (
        "2. The Recipient shall use the Confidential Information solely for the purpose of the Project.\n"
    )
    residuals = (
        "3. Neither party will be restricted from using information retained in the unaided memory of its "
        "employees who had access to the Confidential Information.\n"
    )
    o = _rule(purpose, "limited_use")
    assert o.outcome == "standard"
    o = _rule(purpose + residuals, "limited_use")
    assert (o.outcome, _value(o, "purpose_defined"), _value(o, "residuals_free")) == ("fallback", True, True)
    assert "except residuals" in o.claim


# ------------------------------------------------------------------ an ownership clause that takes our work
def test_an_ownership_clause_reaching_what_we_develop_is_more_than_no_licence() -> None:
    # "All information learned or developed pursuant to this Agreement … shall be the property of the
    # Discloser" takes in our own work: not the plain no-licence term
    o = _rule(
        "5. All information learned or developed pursuant to this Agreement shall be the property of the "
        "Discloser.\n",
        "no_licence",
    )
    assert (o.outcome, _value(o, "takes_our_work")) == ("fallback", True)
    for text in (
        "5. All Confidential Information shall remain the sole property of the Discloser.\n",
        "5. All Confidential Information is the property of the Discloser, provided that all Derived "
        "Information developed by the Recipient shall be the sole property of the Recipient.\n",
    ):
        o = _rule(text, "no_licence")
        assert o.outcome == "standard" and _value(o, "takes_our_work") is not True, text


# ------------------------------------------------------------------ eighth wave: words the playbook missed
def test_information_a_recital_says_is_to_be_deemed_the_defined_term_is_the_definition() -> None:
    # a recital that gives the information its name by a verb of treatment ("to be deemed the …",
    # "shall be regarded as the …") defines it, though no "means" follows
    for recital in (
        "RECITALS: Each member of the working group may share its own technical data with the panel, all of "
        'which is to be deemed the "Confidential Information" for this letter.\n',
        "BACKGROUND: The Company will show the Adviser its plans and forecasts, which shall be regarded as "
        "the “Proprietary Information”, on the terms below.\n",
    ):
        o = _rule(recital + "1. The Adviser shall keep it secret.\n", "ci_definition")
        assert o.outcome == "standard", recital
        assert _value(o, "defined_as") in ("Confidential Information", "Proprietary Information"), recital


def test_a_duty_to_treat_something_as_confidential_information_defines_nothing() -> None:
    # unquoted, "treated as confidential information" is a duty about some other thing, not the definition
    o = _rule(
        "4. The terms of this letter shall be treated as confidential information by both sides.\n",
        "ci_definition",
    )
    assert o.outcome == "missing"


def test_a_legal_obligation_to_disclose_to_authorities_is_the_compelled_disclosure_carve_out() -> None:
    # the compulsion named as a noun ("a statutory duty to disclose", "a legal obligation to disclose … under
    # law or regulation"), not as "required by law"
    for clause in (
        "6. These undertakings do not extend to any information which the Adviser is under a statutory duty "
        "to disclose to a regulator under applicable law or regulation.\n",
        "6. Nothing here restricts information that the Member has a legal obligation to disclose to "
        "governmental authorities pursuant to statute or a binding administrative ruling.\n",
    ):
        o = _rule(clause, "compelled_disclosure")
        assert (o.outcome, _value(o, "by_law")) == ("standard", True), clause


def test_a_notice_required_by_a_customer_order_is_no_notice_of_a_compelled_disclosure() -> None:
    # "notify … within the time required by the purchase order" in a clause about orders says nothing of the
    # notice the compelled-disclosure carve-out asks for: that value comes from the carve-out's own clause
    text = (
        "4. The Buyer shall notify the Vendor of any cancelled purchase order within the period required by "
        "the terms of that purchase order.\n"
        "5. Save as required by law, the Buyer shall keep all of the Vendor's Confidential Information "
        "secret.\n"
    )
    o = _rule(text, "compelled_disclosure")
    assert o.outcome == "standard" and _value(o, "notice") is None
    assert "cancelled purchase order" not in _quoted(o)


def test_a_delivery_back_to_the_discloser_is_the_return_clause() -> None:
    # "shall hand over to the disclosing party the Confidential Information" returns it; a delivery of the
    # information to the recipient is the disclosure itself, not a return
    o = _rule(
        "7. On the written request of the Owner, the Visitor shall at once surrender to the disclosing "
        "member all Confidential Information and every document containing it.\n",
        "return_or_destroy",
    )
    assert (o.outcome, _value(o, "on_request"), _value(o, "destroy_option")) == ("fallback", True, False)
    o = _rule(
        "3. The Disclosing Party may deliver to the Recipient such documents as it chooses.\n",
        "return_or_destroy",
    )
    assert o.outcome == "missing"


def test_a_ban_on_using_the_information_at_all_is_a_limit_on_use() -> None:
    # "shall not use, copy, sell or publish any of the information" bans use outright: not "no limit on use"
    o = _rule(
        "3. After completion, the Vendor shall not, in any way, use, exploit, sell or pass on any of the "
        "Purchaser's Confidential Information.\n",
        "limited_use",
    )
    assert (o.outcome, _value(o, "use_barred")) == ("fallback", True)
    assert "banned outright" in o.claim
    # a ban with an exception for the purpose is the usual limit, not an outright ban
    o = _rule(
        "3. The Recipient shall not use or disclose the Confidential Information except for the purpose of "
        "evaluating the Project.\n",
        "limited_use",
    )
    assert o.outcome == "standard" and _value(o, "use_barred") is not True


def test_a_purpose_stated_in_the_plural_is_a_stated_purpose() -> None:
    o = _rule(
        "2. The Adviser shall use the Confidential Information only for consortium purposes.\n", "limited_use"
    )
    assert (o.outcome, _value(o, "purpose_defined")) == ("standard", True)


def test_lenders_named_among_customers_and_suppliers_are_no_advisers() -> None:
    # a permission to pass some information to trading counterparts who ask for it ("clients, suppliers,
    # lenders") lets in no professional adviser; with an accountant named beside them it does
    o = _rule(
        "5. However, the Seller may disclose past sales figures where clients, suppliers, lenders or other "
        "third parties require them, if they keep them confidential.\n",
        "sharing_third_parties",
    )
    got = (o.outcome, _value(o, "advisers_allowed"), _value(o, "counterparts_only"))
    assert got == ("fallback", False, True)
    assert "business counterparts" in o.claim
    o = _rule(
        "5. The Seller may disclose the Confidential Information to its clients, lenders and accountants who "
        "need to know it.\n",
        "sharing_third_parties",
    )
    assert (o.outcome, _value(o, "advisers_allowed")) == ("standard", True)


def test_a_term_in_the_definition_of_something_else_is_not_the_confidentiality_term() -> None:
    # '"Managed Services" means … contracts with a term of more than two years' says how long those
    # contracts run; the confidentiality obligations here have no end date
    text = (
        '1. "Managed Services" means hosting and support contracts having a term of more than two years.\n'
        "2. From the closing onwards, the Vendor shall keep the Purchaser's Confidential Information "
        "secret.\n"
    )
    o = _rule(text, "confidentiality_term")
    assert o.outcome == "needs_review" and _value(o, "term_years") is None
    o = _rule(
        '1. "Confidentiality Period" means a period of three (3) years from the Effective Date.\n',
        "confidentiality_term",
    )
    assert (o.outcome, _value(o, "term_years")) == ("standard", 3)


def test_no_retention_right_where_nothing_must_be_returned_asserts_no_return_duty() -> None:
    # the absence of a right to keep copies says nothing false where the agreement asks for no return at all
    o = _rule("2. The Recipient shall keep the Confidential Information secret.\n", "retained_copies")
    assert o.outcome == "missing" and "is absolute" not in o.claim


def test_a_use_limit_joined_to_a_ban_by_nor_is_the_limit_on_use() -> None:
    # "shall not pass it to anyone … nor use it for purposes other than the study" limits use to the study
    o = _rule(
        "4. The Visitor shall not hand any Confidential Information to another person, nor use that "
        "information for purposes other than the feasibility study.\n",
        "limited_use",
    )
    assert (o.outcome, _value(o, "purpose_defined")) == ("standard", True)
