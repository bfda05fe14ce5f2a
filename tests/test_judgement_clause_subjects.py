"""Is the located passage about the rule? Session 5's classes of wrong clause, each with the other direction
(the real clause is still found): a word inside another word, a bare heading that heads something else, how
often a thing is done read as how much is bought, a representation about another instrument read as a
covenant, an excuse for an act of God without the words "force majeure", a written notice read as a written
variation, data returned at the end read as no return; and the false absences beside them — a redacted
clause under its heading, the rule's own heading where the locator preferred another clause, a promise
inside a section read as a definition. The agreement is `tests.test_judgement_about`'s (its preamble and
helpers); the clauses are written for these tests, one behaviour each."""

from __future__ import annotations

from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text
from tests.test_judgement_about import _by_rule, _outcome, _quoted
from tests.test_judgement_clauses import _value


def _not_applicable(by: dict[str, Any], rule: str) -> bool:
    """The rule found no clause of its kind (a rule whose absence is not applicable reports nothing)."""
    return rule not in by or _outcome(by[rule]) == "not_applicable"


HELP_DESK = (
    "3. Help Desk. The Level 1 support is responsible for transferring calls to the appropriate support "
    "group, although coordination and ownership of the problem and escalation management remains with the "
    "Level 1 support."
)


def test_ownership_of_a_task_is_not_ownership_of_intellectual_property() -> None:
    """'transferring calls … ownership of the problem': 'transfer' inside another word assigns nothing."""
    ip = _by_rule(HELP_DESK)["ip_ownership"]
    assert "ownership of the problem" not in _quoted(ip)
    assert _value(ip, "ip_transfers") is not True


def test_an_assignment_of_the_deliverables_beside_a_help_desk_is_still_the_ip_clause() -> None:
    assign = (
        "4. Deliverables. Servco hereby assigns to Bioco all right, title and interest in and to the "
        "Deliverables."
    )
    ip = _by_rule(HELP_DESK, assign)["ip_ownership"]
    assert "hereby assigns" in _quoted(ip)
    assert _value(ip, "deliverables_owner") == "customer"


DISPUTE_NOTICE = (
    "Dispute Resolution\n\n19.1 Notice\n\nA party claiming that a dispute, difference or question arising "
    "out of this agreement has arisen must notify the other party in writing giving details of the "
    "dispute.\n\n19.2 Escalation\n\nThe parties' senior executives shall meet within ten days to resolve the "
    "dispute."
)


def test_a_dispute_step_headed_notice_is_not_the_notices_clause() -> None:
    """A notices clause says how notices are given; 'must notify the other party in writing giving details
    of the dispute' under a heading 'Notice' is the first step of dispute resolution."""
    notices = _by_rule(DISPUTE_NOTICE)["notices"]
    assert _outcome(notices) != "standard"
    assert "details of the dispute" not in _quoted(notices)


def test_a_notices_clause_headed_notice_is_still_the_notices_clause() -> None:
    real = (
        "12. Notice. All notices under this Agreement shall be in writing and shall be delivered by hand or "
        "by courier to the address of the receiving party set out above."
    )
    notices = _by_rule(DISPUTE_NOTICE, real)["notices"]
    assert _outcome(notices) == "standard"
    assert "delivered by hand" in _quoted(notices)
    assert {"hand", "courier"} <= set(_value(notices, "methods"))


SLA_REVIEW = (
    "9. Service Level Review. At least annually the parties will review the Service Levels to determine "
    "whether they still reflect the requirements of Bioco."
)


def test_how_often_a_review_is_held_is_no_minimum_commitment() -> None:
    assert _not_applicable(_by_rule(SLA_REVIEW), "minimum_commitment")


def test_a_minimum_purchase_beside_a_yearly_review_is_still_found() -> None:
    buy = "10. Volume. Bioco shall purchase not less than 1,000 units per calendar year."
    mc = _by_rule(SLA_REVIEW, buy)["minimum_commitment"]
    assert _outcome(mc) != "not_applicable"
    assert "1,000 units" in _quoted(mc)


GLOSSARY = (
    "Schedule 1 - Definitions\n\n      Problem:\n\n      A condition of the system which indicates an error "
    "for which the cause is yet unknown.\n\n      Release / upgrade:\n\n      A consistent set of software "
    "which provides major improvement and/or extensions to the previous software on the System."
)


def test_a_software_release_is_no_release_of_claims() -> None:
    """A glossary entry 'Release / upgrade:' is no heading of a covenant not to sue."""
    assert _not_applicable(_by_rule(GLOSSARY), "covenant_not_to_sue")


def test_a_no_challenge_covenant_is_still_found() -> None:
    covenant = (
        "7. No Challenge. Bioco shall not challenge the validity of Servco's patents or trademarks during "
        "the term."
    )
    cns = _by_rule(GLOSSARY, covenant)["covenant_not_to_sue"]
    assert _outcome(cns) != "not_applicable"
    assert "shall not challenge" in _quoted(cns)


REPRESENTATION = (
    "7. Representations. (e) Non-Compete. The Settlement Agreement between Servco and its former employee "
    "does not contain a covenant-non-compete applicable to that employee, and to Servco's knowledge the "
    "employee is not subject to any covenant-non-compete that would prevent his employment with Servco."
)


def test_a_representation_that_another_agreement_has_no_non_compete_is_no_non_compete() -> None:
    assert _not_applicable(_by_rule(REPRESENTATION), "non_compete")


def test_a_real_non_compete_beside_the_representation_is_still_found() -> None:
    covenant = (
        "8. Non-Competition. During the term Servco shall not provide competing services to any competitor "
        "of Bioco."
    )
    nc = _by_rule(REPRESENTATION, covenant)["non_compete"]
    assert _outcome(nc) != "not_applicable"
    assert "competing services" in _quoted(nc)


MERGER_ASSIGNMENT = (
    "12. Assignment. Neither party shall assign its rights under this Agreement without the prior written "
    "consent of the other party. Notwithstanding the foregoing, no such consent shall be required for either "
    "party to assign this Agreement in connection with a merger or sale of all or substantially all of its "
    "assets."
)


def test_a_termination_right_on_a_change_of_control_is_still_found() -> None:
    coc_clause = (
        "13. Change of Control. Bioco may terminate this Agreement by written notice if Servco undergoes a "
        "change of control."
    )
    coc = _by_rule(MERGER_ASSIGNMENT, coc_clause)["change_of_control"]
    assert _outcome(coc) == "standard"
    assert _value(coc, "customer_may_terminate") is True


def test_an_excuse_for_an_act_of_god_is_a_force_majeure_clause() -> None:
    """'will not be held liable for … an Act of God': narrow, but a force majeure excuse, not an absence."""
    excuse = (
        "17. Insurance. Servco will not be held liable for service level deficiencies related to insurance "
        "issues or an Act of God."
    )
    fm = _by_rule(excuse)["force_majeure"]
    assert _outcome(fm) != "missing"
    assert "Act of God" in _quoted(fm)


ENTIRE = (
    "14. Entire Agreement. This Agreement constitutes the entire agreement between the parties and "
    "supersedes all prior agreements."
)
INFRINGEMENT_NOTICE = (
    "8. Enforcement. If either party learns of any infringement of the Servco Surface Modification "
    "Technology, then that party shall give written notice thereof to the other party."
)


def test_a_written_notice_of_infringement_is_no_written_variation() -> None:
    ea = _by_rule(INFRINGEMENT_NOTICE, ENTIRE)["entire_agreement"]
    assert _value(ea, "written_variation") is not True
    assert _outcome(ea) != "standard"


def test_a_variation_only_in_writing_is_still_read() -> None:
    amendment = (
        "15. Amendment. No change to this Agreement is valid unless made in writing and signed by both "
        "parties."
    )
    ea = _by_rule(INFRINGEMENT_NOTICE, ENTIRE, amendment)["entire_agreement"]
    assert _value(ea, "written_variation") is True
    assert _outcome(ea) == "standard"


def test_a_variation_by_mutual_written_agreement_is_still_read() -> None:
    amendment = "15. Amendment. This Agreement may be amended by mutual written agreement of the parties."
    ea = _by_rule(ENTIRE, amendment)["entire_agreement"]
    assert _value(ea, "written_variation") is True


def test_data_returned_at_the_end_is_a_return_duty() -> None:
    """'promptly return all Bioco data … destroy any relevant information' is a return-or-destroy duty."""
    conf = "11. Confidentiality. Each party shall keep the other party's Confidential Information secret."
    disengage = (
        "20. Disengagement. Upon request from Bioco or at the end of the disengagement period Servco "
        "must:\n\n  (a) promptly return all Bioco data, physical and written records, hardware and "
        "software\n\n  (b) if requested by Bioco destroy any relevant information and certify in writing "
        "that it has done so."
    )
    c = _by_rule(conf, disengage)["confidentiality"]
    assert _value(c, "return_destroy") is True


def test_a_redacted_limitation_of_liability_is_no_absence() -> None:
    """'9.4 Limitation of Liability. [***].': the clause is there, its words withheld — never 'missing'."""
    redacted = (
        "9.4 Limitation of Liability.\n\n[***].\n\n9.5 Survival. Sections 9.1 to 9.4 survive termination."
    )
    lol = _by_rule(redacted)["limitation_of_liability"]
    assert _outcome(lol) == "needs_review"
    assert "[***]" in _quoted(lol)


def test_a_heading_over_a_clause_stands_where_the_locator_prefers_another_sentence() -> None:
    """A termination sentence that 'incurs no liability' is not the cap; the clause under the rule's own
    heading ('Liability Limitation') stands for it, even with no cap wording."""
    termination = (
        "10. Termination. Neither party shall incur any liability whatsoever for any damage, loss or "
        "expenses of any kind suffered by the other party arising from any termination of this Agreement."
    )
    limitation = (
        "12. Liability Limitation. EXCEPT IN THE EVENT OF WILFUL MISCONDUCT, SERVCO SHALL NOT BE LIABLE TO "
        "BIOCO WITH RESPECT TO ANY LOSS RESULTING FROM THE BIOCO PRODUCTS."
    )
    lol = _by_rule(termination, limitation)["limitation_of_liability"]
    assert _outcome(lol) != "missing"
    assert "BIOCO PRODUCTS" in _quoted(lol)


def test_a_promise_inside_a_section_read_as_a_definition_is_operative() -> None:
    """A definitions section that runs on over the next article (its last entry has no heading after it):
    'Servco will provide Bioco the opportunity to examine the records' is a promise, not a definition."""
    text = (
        '1. Definitions. 1.1 "Records" means the books of account of Servco. 1.2 "Term" means two years. '
        "ARTICLE TWO PROJECT Servco will provide Bioco the opportunity to examine the originals of the "
        "Records at Servco's premises during normal business hours."
    )
    audit = _by_rule(text)["audit_rights"]
    assert _outcome(audit) != "missing"
    assert "examine the originals" in _quoted(audit)


def test_rights_that_are_not_transferable_or_assignable_are_an_assignment_restriction() -> None:
    text = (
        "6.5 Limits on Sublicensing. All rights granted herein are not sublicenseable, transferable or "
        "assignable."
    )
    assignment = _by_rule(text)["assignment"]
    assert _outcome(assignment) != "missing"
    assert "not sublicenseable, transferable or assignable" in _quoted(assignment)


def test_a_technology_transfer_heading_is_no_assignment_clause() -> None:
    text = (
        "2.2 Information Transfer Mechanism Development. Servco shall develop a mechanism for the "
        "exchange of order data with Bioco."
    )
    assignment = _by_rule(text)["assignment"]
    assert "exchange of order data" not in _quoted(assignment)


def test_a_date_line_named_as_a_heading_is_a_value_not_a_heading() -> None:
    """'Effective Date: March 1, 2019' reads like a heading of the rule but carries its value: it locates."""
    text = "Effective Date: March 1, 2019"
    by = _by_rule(text)
    assert "March 1, 2019" in _quoted(by["effective_date"])


# ------------------------------------------------------------------ session 6: clauses reported missing
# An exclusion names another thing a passage speaks of; where the passage also states the clause in words the
# exclusion did not match, it is still the clause.


def test_an_insurance_duty_that_mentions_insurance_laws_is_still_the_insurance_clause() -> None:
    text = (
        "6. Insurance. Both parties shall at all times while this Agreement is in effect, at its own "
        "expense, carry and maintain insurance on all its operations necessary to comply with insurance "
        "laws as applicable."
    )
    insurance = _by_rule(text)["insurance"]
    assert _outcome(insurance) != "missing"
    assert "carry and maintain insurance" in _quoted(insurance)


def test_licences_under_insurance_laws_are_no_insurance_duty() -> None:
    """The same exclusion still rules out a passage whose only insurance words are the ones it names."""
    text = (
        "7. Licences. Servco shall obtain and maintain all licences required by the insurance laws of the "
        "State of New York."
    )
    insurance = _by_rule(text)["insurance"]
    assert "licences required" not in _quoted(insurance)
    assert _outcome(insurance) in ("missing", "needs_review")


def test_a_use_limited_to_this_agreement_beside_an_ownership_is_no_exclusivity() -> None:
    """'… shall remain the sole and exclusive property of Servco and Bioco shall not resell or use it in any
    other manner': an ownership and a use limit, not a duty to buy from one source only (the exclusion of
    'exclusive property' names one thing the passage speaks of; what is left is no exclusivity either)."""
    text = (
        "7. Tools. Servco's tools are and shall remain the sole and exclusive property of Servco, and Bioco "
        "shall not resell or make use of the tools in any other manner than under this Agreement."
    )
    ex = _by_rule(text).get("exclusivity")
    assert ex is None or _outcome(ex) not in ("unacceptable", "standard", "fallback")


def test_a_non_exclusive_licence_broken_across_a_line_is_no_exclusivity() -> None:
    """'non- exclusive' (a hyphen at a line break) is excluded as 'non-exclusive' is."""
    text = (
        "8. Licence. Servco hereby grants to Bioco a royalty-free, non- exclusive perpetual licence to use "
        "the reports."
    )
    ex = _by_rule(text).get("exclusivity")
    assert ex is None or _outcome(ex) not in ("unacceptable", "standard", "fallback")


def test_a_convenience_limb_beside_a_breach_limb_is_the_termination_for_convenience() -> None:
    """An exclusion rules out the sentence or limb it matches, not the passage's other limbs: '(a) … for any
    or no reason on fifteen days' notice. (b) … if the other party breaches …' grants a convenience right."""
    text = (
        "6. Termination. (a) Either party may terminate this Agreement for any or no reason upon fifteen "
        "(15) days' notice to the other. (b) In addition, either party may terminate this Agreement upon "
        "fifteen (15) days' written notice if the other party breaches a material term of this Agreement."
    )
    tfc = _by_rule(text)["termination_for_convenience"]
    assert _outcome(tfc) != "missing"
    assert "for any or no reason" in _quoted(tfc)
    assert _value(tfc, "notice_days") == 15


def test_consent_to_a_courts_jurisdiction_is_the_dispute_resolution_clause() -> None:
    """Under a governing-law heading, a consent to a court's jurisdiction is the venue clause."""
    text = (
        "8. Governing Law. (a) This Agreement is governed by the laws of the State of New York. (b) The "
        "parties hereby consent to the jurisdiction of the state and federal courts sitting in New York "
        "County to resolve any dispute arising under this Agreement."
    )
    dr = _by_rule(text)["dispute_resolution"]
    assert _outcome(dr) != "missing"
    assert "consent to the jurisdiction" in _quoted(dr)
    assert _value(dr, "venue") == "New York"


def test_a_submission_to_personal_jurisdiction_and_a_court_to_sue_in_are_the_venue_clause() -> None:
    text = (
        "8. Law. Each party submits to personal jurisdiction in Delaware, and any action arising under this "
        "Agreement shall be brought in a court in Wilmington, Delaware."
    )
    dr = _by_rule(text)["dispute_resolution"]
    assert _outcome(dr) != "missing"
    assert "submits to personal jurisdiction" in _quoted(dr)


def test_consent_to_an_assignment_is_no_jurisdiction_clause() -> None:
    text = "8. Assignment. Servco may not assign this Agreement without the prior written consent of Bioco."
    dr = _by_rule(text)["dispute_resolution"]
    assert _outcome(dr) == "missing"


def test_notices_under_a_heading_with_no_stop_that_calls_them_communications_are_found() -> None:
    """'9. Notices and Other Communications All requests …' (the heading runs into the text) and a clause
    that says how 'Communications' are given: it is the notices clause."""
    text = (
        "9. Notices and Other Communications All requests, consents and other communications (together, "
        '"Communications") under this Agreement must be in writing. Communications are duly given if '
        "delivered personally or sent by registered mail to the address of the receiving party above."
    )
    notices = _by_rule(text)["notices"]
    assert _outcome(notices) == "standard"
    assert "duly given if delivered personally" in _quoted(notices)
    assert "hand" in set(_value(notices, "methods")) or "post" in set(_value(notices, "methods"))


def test_a_complete_agreement_clause_is_the_entire_agreement() -> None:
    text = (
        "14. Complete Agreement. This Agreement and its schedules contain the complete agreement between the "
        "parties and supersede any prior understandings, whether written or oral."
    )
    ea = _by_rule(text)["entire_agreement"]
    assert _outcome(ea) != "missing"
    assert "complete agreement between the parties" in _quoted(ea)


def test_complete_agreement_on_a_specification_is_no_entire_agreement_clause() -> None:
    text = (
        "5. Specifications. Until there is complete agreement on the specifications, Servco shall not start "
        "the work."
    )
    ea = _by_rule(text)["entire_agreement"]
    assert _outcome(ea) == "missing"


def test_payment_set_out_in_an_attachment_is_located_not_missing() -> None:
    """'Bioco will pay Servco in accordance with Attachment B': the payment terms are there, in an
    attachment; the finding quotes the pointer, never 'no payment terms found'."""
    text = (
        'SPONSORSHIP AGREEMENT\n\nThis Sponsorship Agreement is made between Bioco Inc. ("Bioco") and '
        'Servco LLC ("Servco"). Servco shall promote the products of Bioco at its events.\n\n3. Fee. In '
        "consideration of the promotion, Bioco will pay Servco in accordance with Attachment B, which forms "
        "part of this Agreement.\n\nATTACHMENT B\n\nBioco shall issue 10,000 of its shares to Servco on "
        "signing.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    payment = {str(f.proposal.rule): f for f in result.findings}["payment"]
    assert _outcome(payment) != "missing"
    assert "in accordance with Attachment B" in _quoted(payment)


def test_a_salary_payable_monthly_in_arrears_is_a_payment_term() -> None:
    """When a recurring amount falls due ('payable in equal monthly instalments in arrears') is a payment
    term: an employment-style contract's pay is located, not reported missing."""
    text = (
        'EMPLOYMENT AGREEMENT\n\nThis Employment Agreement is made between Bioco Inc. (the "Company") and '
        'Jane Roe (the "Executive").\n\n6. Salary. The Company shall pay the Executive a salary of '
        "$120,000 a year, payable in equal monthly instalments in arrears on the last working day of each "
        "month.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    payment = {str(f.proposal.rule): f for f in result.findings}["payment"]
    assert _outcome(payment) != "missing"
    assert "payable in equal monthly instalments in arrears" in _quoted(payment)


# ------------------------------------------------------------------ session 6: a rule about a definition
def _nda_rule(text: str, rule: str) -> Any:
    from playbooks.engine import run_playbook

    outcomes = run_playbook(document_from_text(text), load_playbook("nda-recipient"))
    got = [o for o in outcomes if o.rule == rule]
    assert got, rule
    return got[0]


_USE_BEFORE_DEFINITION = (
    "MUTUAL NON-DISCLOSURE AGREEMENT\n\n"
    "1. The Recipient shall not use any information of the Discloser, including without limitation its "
    "business plans, pricing, customer lists and financial data, except to evaluate the Transaction.\n\n"
)


def test_the_definition_rule_reads_the_definition_not_a_sentence_using_the_same_words() -> None:
    """A rule about a definition (what the information is) reads the sentence that defines it, even where a
    use clause before it lists kinds of information 'including without limitation' too."""
    text = (
        _USE_BEFORE_DEFINITION + '2. Definitions. "Confidential Information" means only technical '
        "information disclosed by the Discloser that is marked as confidential.\n\n"
        "3. The Recipient shall hold the Confidential Information in strict confidence.\n"
    )
    o = _nda_rule(text, "ci_definition")
    assert "means only technical information" in " ".join(q.text for q in o.quotes)
    assert o.outcome == "fallback"  # only technical information is protected


def test_without_a_definition_the_definition_rule_still_reads_the_description() -> None:
    text = _USE_BEFORE_DEFINITION + "2. The Recipient shall keep all such information in confidence.\n"
    o = _nda_rule(text, "ci_definition")
    assert o.outcome != "missing"
    assert "including without limitation its business plans" in " ".join(q.text for q in o.quotes)


def test_a_definition_still_loses_to_the_operative_clause_for_a_rule_about_a_duty() -> None:
    """The other direction: a rule about a duty (the services playbook's audit right) does not read the
    definition of the records it audits."""
    text = (
        '1A. Definitions. "Records" means the books of account of Servco relating to the audit of the fees.'
        "\n\n5. Audit. Bioco may audit the Records of Servco once a year on thirty days' notice."
    )
    audit = _by_rule(text)["audit_rights"]
    assert "Bioco may audit the Records" in _quoted(audit)


def test_an_exclusion_in_a_sentences_lead_in_covers_its_limbs() -> None:
    """'Neither party may assign … except that a party may assign without consent to (a) an affiliate or (b)
    a buyer in (i) … (ii) a sale of all or substantially all of its assets': the exception's limbs are the
    assignment clause's, not a change-of-control clause (the exclusion of the lead-in covers them)."""
    text = (
        "9. Assignment. Neither party may assign this Agreement without the prior written consent of the "
        "other party, except that a party may assign this Agreement without such consent to (a) any of its "
        "Affiliates, or (b) any third party in connection with (i) a merger of such party or (ii) a sale of "
        "all or substantially all of the assets of such party's business to which this Agreement relates."
    )
    coc = _by_rule(text).get("change_of_control")
    assert coc is None or _outcome(coc) in ("missing", "not_applicable")


def test_a_governing_law_sentence_that_also_names_a_partys_incorporation_is_the_governing_law() -> None:
    """The exclusion of a party's incorporation ("formed under the laws of …") does not rule out the
    sentence that has already said which law governs the agreement."""
    law = (
        "19.3 Governing Law. This Agreement shall be governed and construed in accordance with the laws of "
        "the State of Florida; provided, however, that since Servco is a corporation formed under the laws "
        "of the Republic of Poland, the Florida Franchise Act shall not apply to this Agreement."
    )
    schedule = "SCHEDULE 1\n\nFee: $10,000 ---- Governing Law: State of New York ----"
    found = _by_rule(law, schedule)["governing_law"]
    assert _value(found, "law") == "Florida"
    assert "governed and construed" in _quoted(found)


def test_a_partys_incorporation_alone_is_still_no_governing_law() -> None:
    incorporation = (
        "20. Status. Servco is a limited liability company organized and existing under the laws of the "
        "State of Texas and is in good standing."
    )
    found = _by_rule(incorporation)["governing_law"]
    assert _value(found, "law") == "New York"  # the agreement's own clause (its preamble's), not Texas
    assert "organized and existing" not in _quoted(found)


# ------------------------------------------------- session 7: clauses in plain words, informally drafted
def _review_text(*paras: str) -> dict[str, Any]:
    """A short contract of our own words (no preamble fees clause): the rules' findings by rule."""
    text = (
        'CONSULTING AGREEMENT\n\nThis Consulting Agreement is made between Bioco Inc. ("Bioco") and Servco '
        'LLC ("Servco"). Bioco hereby engages Servco to provide consulting services to Bioco.\n\n'
        + "\n\n".join(paras)
        + "\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    return {str(f.proposal.rule): f for f in result.findings}


def test_a_right_to_terminate_on_any_breach_in_plain_words_is_termination_for_cause() -> None:
    """'Bioco shall, in the event of Servco committing any breach of the terms of this agreement, be
    entitled to terminate': a right to terminate for breach, however it is worded — never 'no right to
    terminate for breach'."""
    text = (
        "7. Termination. Bioco shall, in the event of Servco committing any breach of any of the terms and "
        "conditions of this agreement, be entitled to terminate this agreement by giving two (2) weeks' "
        "notice in writing."
    )
    tfc = _by_rule(text)["termination_for_cause"]
    assert _outcome(tfc) != "missing"
    assert "committing any breach" in _quoted(tfc)


def test_termination_with_cause_on_notice_is_for_cause_not_for_convenience() -> None:
    """'may be terminated by either party with cause upon thirty (30) days written notice' is a right to
    terminate for cause; it is no right to walk away without one."""
    text = (
        "7. Term. This Agreement may be terminated by either party with cause upon thirty (30) days written "
        "notice."
    )
    by = _by_rule(text)
    assert "with cause upon thirty" in _quoted(by["termination_for_cause"])
    assert _not_applicable(by, "termination_for_convenience") or "with cause" not in _quoted(
        by["termination_for_convenience"]
    )


def test_with_or_without_cause_is_still_termination_for_convenience() -> None:
    text = (
        "7. Term. Either party may terminate this Agreement with or without cause upon ninety (90) days' "
        "written notice."
    )
    tfc = _by_rule(text)["termination_for_convenience"]
    assert "with or without cause" in _quoted(tfc)


def test_a_termination_for_convenience_alone_is_no_termination_for_cause() -> None:
    text = "7. Term. Bioco may terminate this Agreement for convenience on ninety (90) days' written notice."
    assert _outcome(_by_rule(text)["termination_for_cause"]) == "missing"


def test_what_a_party_pays_or_hands_over_when_one_terminates_is_the_effect_of_termination() -> None:
    """'If Bioco terminates the agreement, then Bioco shall compensate Servco … on a pro-rata basis'; 'In
    case Servco terminates the agreement, it shall hand over the entire project': what happens at the end is
    stated, and the handover is transition help."""
    text = (
        "7. Termination. If Bioco terminates the agreement, then Bioco shall compensate Servco up to the "
        "date "
        "of termination with a fee calculated on a pro-rata basis. In case Servco terminates the "
        "agreement, it "
        "shall handover the entire project and the work done till date to Bioco."
    )
    eot = _by_rule(text)["effect_of_termination"]
    assert _outcome(eot) != "missing"
    assert "terminates the agreement" in _quoted(eot)
    assert _value(eot, "transition") is True


def test_an_information_transfer_on_termination_is_transition_help() -> None:
    text = (
        "7. Termination. Upon termination, Servco agrees to perform the necessary information transfer "
        "required at the time."
    )
    eot = _by_rule(text)["effect_of_termination"]
    assert _value(eot, "transition") is True


def test_payment_due_a_time_after_completion_is_the_payment_term() -> None:
    """'Payment to Servco within 7 days upon completion and handover of the Project': when payment falls
    due is stated, with its days read."""
    payment = _review_text(
        "5. Payment Terms. Payment to Servco within 7 days upon completion and handover of the Project to "
        "Bioco."
    )["payment"]
    assert _outcome(payment) != "missing"
    assert "within 7 days upon completion" in _quoted(payment)
    assert _value(payment, "payment_days") == 7


def test_a_prepaid_fee_with_nothing_more_due_is_the_payment_term() -> None:
    """'A cash pre-payment of US$150,000 … no additional cash payment is due and payable': the contract says
    how it is paid; it is no absence of payment terms."""
    payment = _review_text(
        "2. Compensation. For services rendered, Servco shall receive a cash pre-payment of US$150,000, "
        "which "
        "Servco acknowledges it has received, and no additional cash payment is due and payable under this "
        "Agreement."
    )["payment"]
    assert _outcome(payment) != "missing"
    assert "pre-payment of US$150,000" in _quoted(payment)


def test_postage_prepaid_in_a_notices_clause_is_no_payment_term() -> None:
    payment = _review_text(
        "9. Notices. All notices shall be sent by registered mail, postage prepaid, to the address above."
    )["payment"]
    assert _outcome(payment) == "missing"


def test_a_promise_to_perform_in_a_professional_manner_is_a_warranty() -> None:
    """'Servco agrees to promptly perform all services … in an efficient, professional, trustworthy and
    businesslike manner': a warranty of how the services are performed, however few 'warrants' it has."""
    w = _by_rule(
        "4. Duties. Servco agrees to promptly perform all services required of it hereunder in an efficient, "
        "professional, trustworthy and businesslike manner."
    )["warranties"]
    assert _outcome(w) == "standard"
    assert "businesslike manner" in _quoted(w)
    assert _value(w, "professional_standard") is True


def test_services_performed_in_accordance_with_applicable_regulations_are_a_warranty() -> None:
    w = _by_rule(
        "6. Representations and Warranties. Servco represents and warrants to Bioco as follows:\n\n"
        "(a) Servco shall perform the Services hereunder in accordance with the terms of this Agreement and "
        "applicable regulations, guidelines and licensing requirements."
    )["warranties"]
    assert _outcome(w) != "missing"
    assert "in accordance with the terms of this Agreement and applicable regulations" in _quoted(w)


def test_our_own_promise_to_act_in_a_professional_manner_is_no_warranty_of_the_supplier() -> None:
    w = _by_rule("4. Materials. Bioco shall provide the Materials in a professional and efficient manner.")[
        "warranties"
    ]
    assert _outcome(w) == "missing"


def test_disputes_resolved_by_proceedings_in_a_state_are_the_dispute_clause() -> None:
    """'Any disputes under this Agreement shall be resolved by appropriate proceedings in the state of New
    York': where disputes are heard is said, loosely; never 'no dispute resolution clause'."""
    dr = _by_rule(
        "10. Miscellaneous. Any disputes under this Agreement shall be resolved by appropriate proceedings "
        "in "
        "the state of New York."
    )["dispute_resolution"]
    assert _outcome(dr) != "missing"
    assert "resolved by appropriate proceedings" in _quoted(dr)


def test_a_dispute_left_to_a_law_after_arbitration_fails_is_the_dispute_clause_but_no_forum() -> None:
    """'In case the arbitration proceedings fail, an unresolved dispute … is subject to the binding laws of
    Hong Kong': a dispute clause (badly drafted); the law it names is no forum, so no forum is judged."""
    dr = _by_rule(
        "15. Jurisdiction. In case the arbitration proceedings fail, an unresolved dispute between Servco "
        "and "
        "Bioco is subject to the binding laws of Hong Kong."
    )["dispute_resolution"]
    assert _outcome(dr) not in ("missing", "unacceptable")
    assert "arbitration proceedings fail" in _quoted(dr)


def test_notices_sent_by_overnight_delivery_are_the_notices_clause() -> None:
    notices = _by_rule(
        "12. General. All notices required to be given in writing must be sent by overnight delivery service "
        "to the name and address designated in this Agreement. Notice is deemed effective on the day after "
        "delivery by the overnight carrier."
    )["notices"]
    assert _outcome(notices) == "standard"
    assert "sent by overnight delivery service" in _quoted(notices)
    assert "courier" in set(_value(notices, "methods"))


def test_information_held_in_trust_solely_for_our_benefit_limits_its_use() -> None:
    """'shall be held in trust by Servco solely for Bioco's benefit and use': a limit on what the supplier may
    do with our information; never 'nothing limits what the supplier may do with our data'."""
    use = _by_rule(
        "8. Confidentiality. All information of a confidential nature relating to Bioco which Servco obtains "
        "shall be held in trust by Servco solely for Bioco's benefit and use and shall not be disclosed by "
        "Servco."
    )["customer_data_use"]
    assert _outcome(use) == "standard"
    assert "held in trust by Servco solely for" in _quoted(use)


def test_a_non_solicitation_of_clients_is_no_non_solicitation_of_employees() -> None:
    """'4. Non-solicitation of Clients. Servco shall not … solicit an existing business customer of Bioco':
    a covenant about customers under a heading that names it; no employee non-solicitation."""
    by = _by_rule(
        "4. Non-solicitation of Clients. Servco shall not directly or indirectly solicit an existing "
        "business "
        "customer of Bioco during the term of this Agreement. Further, Servco shall not market similar "
        "products from competing companies."
    )
    assert _not_applicable(by, "non_solicitation")


def test_a_non_solicitation_of_employees_is_still_found() -> None:
    ns = _by_rule(
        "4. Non-solicitation. During the term, neither party shall solicit for employment any employee of "
        "the "
        "other party."
    )["non_solicitation"]
    assert "solicit for employment" in _quoted(ns)


def test_including_but_not_limited_to_is_no_restraint_on_competition() -> None:
    """'Bioco shall advise Servco of any and all promotional activities, including, but not limited to, …
    engagements with other firms providing services similar to the Services': a duty to inform, no
    non-compete; nor is a representation that no other non-competition obligation binds Servco."""
    by = _by_rule(
        "3. Promotion. During the Term, Bioco shall advise Servco of any and all promotional activities, "
        "including, but not limited to, press releases and engagements with other investor relations firms "
        "providing services similar to the Services.",
        "6. Representations. Servco is not under any legal obligation, including any obligation of "
        "confidentiality or non-competition, which prevents Servco from performing this Agreement.",
    )
    assert _not_applicable(by, "non_compete")


def test_a_real_restraint_beside_not_limited_to_is_still_the_non_compete() -> None:
    nc = _by_rule(
        "3. Exclusivity. During the Term, Servco shall not engage in any business similar to the business of "
        "Bioco, including but not limited to investor relations."
    )["non_compete"]
    assert "shall not engage in any business similar" in _quoted(nc)


def test_a_disclaimer_of_endorsement_is_no_warranty_disclaimer() -> None:
    """'may require a disclaimer stating that Servco's participation … does not imply Bioco's endorsement':
    a disclaimer of something else, no disclaimer of warranties, and no warranty clause."""
    w = _by_rule(
        "1. Purpose. Bioco may require that a disclaimer stating that Servco's participation in this "
        "Agreement does not convey or imply Bioco's approval or endorsement of any product of Servco."
    )["warranties"]
    assert "disclaimer stating" not in _quoted(w)


def test_a_disclaimer_of_implied_warranties_is_still_the_warranty_clause() -> None:
    w = _by_rule(
        "5. Warranty. EXCEPT AS SET OUT HEREIN, SERVCO DISCLAIMS ALL IMPLIED WARRANTIES, INCLUDING ANY "
        "WARRANTY OF MERCHANTABILITY."
    )["warranties"]
    assert _outcome(w) != "missing"
    assert "DISCLAIMS ALL IMPLIED WARRANTIES" in _quoted(w)


def test_where_an_arbitration_takes_place_later_in_its_sentence_is_the_venue() -> None:
    """'The arbitration, and any proceedings … incidental to it, shall take place in New York': the forum,
    read though the place stands past the word 'arbitration'."""
    dr = _by_rule(
        "15. Arbitration. Any dispute arising out of this Agreement shall be finally settled by arbitration. "
        "The arbitration, and any proceedings and meetings incidental to or related to the arbitration "
        "process, shall take place in New York, U.S.A."
    )["dispute_resolution"]
    assert _value(dr, "venue") == "New York"
