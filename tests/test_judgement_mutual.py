"""A right or duty given to each party is read as mutual, and one given to a single named party as that
party's: "either company may terminate", "both parties", the same right given to each party in the lettered
limbs of one sentence ("terminable (a) by Norvale … or (b) by Kestrix …"); a right to end the contract after a
prolonged force majeure "either party can" exercise. Synthetic texts with invented party names, written for
these tests."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text
from playbooks.parties.holder import BOTH, find_holders, merge_holders
from tests.test_judgement_clauses import _by_rule, _value


def _clauses(*body: str) -> str:
    head = (
        'This Agreement is made between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. ("Kestrix"). '
        "Kestrix shall provide the services to Norvale, and Norvale shall pay Kestrix the fees."
    )
    services = "1. Services. Kestrix shall provide the network services described in Schedule 1."
    tail = "Governing Law. This Agreement is governed by the laws of the State of New York."
    return "\n\n".join(["MASTER SERVICES AGREEMENT", head, services, *body, tail]) + "\n"


# the contract's findings by rule, roles resolved (each text reviewed once)
_findings = lru_cache(maxsize=16)(_by_rule)


def _holders(text: str) -> tuple[str, Any] | None:
    us, them = [re.compile(r"Norvale")], [re.compile(r"Kestrix")]
    return merge_holders(find_holders(text, 0, right=(r"termin(?:at|ab)\w*",), us=us, them=them))


def test_either_company_holds_the_right_jointly() -> None:
    got = _holders("Either company may terminate this Agreement by giving thirty (30) days written notice.")
    assert got is not None and got[0] == BOTH


def test_a_right_given_to_each_party_in_the_limbs_of_one_passive_sentence_is_held_by_both() -> None:
    got = _holders(
        "This Agreement shall be terminable (a) by Norvale (i) at any time in the event that Norvale or "
        "Kestrix receives notice of any claim of a third party arising out of the use of the services or "
        "(ii) upon ninety (90) days' written notice to Kestrix or (b) by Kestrix (i) at any time in the "
        "event that Norvale assigns this Agreement or (ii) upon ninety (90) days' written notice to Norvale."
    )
    assert got is not None and got[0] == BOTH


def test_a_right_given_to_one_named_party_stays_that_partys() -> None:
    got = _holders("This Agreement shall be terminable by Kestrix upon ninety (90) days' written notice.")
    assert got is not None and got[0] == "them"


def test_a_convenience_right_given_to_each_party_in_lettered_limbs_is_mutual() -> None:
    by_rule = _findings(
        _clauses(
            "2. Term. This Agreement shall be terminable (a) by Norvale at any time upon ninety (90) days' "
            "written notice to Kestrix or (b) by Kestrix at any time upon ninety (90) days' written notice "
            "to Norvale."
        )
    )
    t4c = by_rule["termination_for_convenience"]
    assert _value(t4c, "holder") == "either"
    assert t4c.proposal.details["outcome"] == "fallback"  # both may walk away, on 90 days' notice
    assert "holder not found" not in t4c.proposal.claim


def test_termination_on_an_acquisition_is_no_convenience_right_and_either_company_holds_it() -> None:
    by_rule = _findings(
        _clauses(
            "2. Change Of Control. If a majority of the shares of either Kestrix or Norvale, Inc. (except "
            "that Norvale may sell its shares to Norvale.com) are acquired by another company during the "
            "term of this Agreement either company may terminate this Agreement, without liability, by "
            "giving a thirty (30) days written notice to the other party."
        )
    )
    coc = by_rule["change_of_control"]
    assert _value(coc, "customer_may_terminate") is True
    assert _value(coc, "binds_customer") is True  # our own acquisition lets Kestrix terminate too
    assert "not stated" not in coc.proposal.claim
    t4c = by_rule.get("termination_for_convenience")
    assert t4c is None or _value(t4c, "holder") is None  # not "either may walk away without cause"


def test_either_party_can_terminate_after_a_prolonged_force_majeure() -> None:
    by_rule = _findings(
        _clauses(
            "2. Force Majeure. If performance is prevented by any act beyond the reasonable control of a "
            'party (a "force majeure event"), the party so affected shall be excused from such performance. '
            "However, if a force majeure event interferes with the operation of this Agreement for sixty "
            "(60) days or more, either party can terminate this Agreement, without penalty."
        )
    )
    fm = by_rule["force_majeure"]
    assert _value(fm, "termination_right") is True
    assert _value(fm, "terminate_after_days") == 60
    assert fm.proposal.details["outcome"] == "standard"
    assert "no right to terminate" not in fm.proposal.claim


def test_a_termination_right_for_a_period_of_force_majeure_is_read() -> None:
    by_rule = _findings(
        _clauses(
            "2. Force Majeure. The parties will not be liable to each other for any failure or delay in "
            "performance if it is because of flood, fire or any other cause beyond their reasonable control. "
            "However, either party may terminate this Agreement by and upon notice to the other if the other "
            "is unable to perform any of its material obligations for a period of thirty (30) days by reason "
            "of a Force Majeure."
        )
    )
    fm = by_rule["force_majeure"]
    assert _value(fm, "termination_right") is True
    assert _value(fm, "terminate_after_days") == 30
    assert "no right to terminate" not in fm.proposal.claim


# --- the "not read" weak link: a word-level check of what the located clause speaks of ----------------------


def test_a_patterns_words_are_whole_words_never_fragments() -> None:
    from playbooks.engine.decide import _pattern_words

    assert _pattern_words(r"(?:consent|approval|authori[sz]ation|permission)") == {
        "consent",
        "approval",
        "authori",
        "permission",
    }  # never "ation", the fragment after a class
    assert _pattern_words(r"termin(?:ate|ation)\w*") == {"termin"}
    assert _pattern_words(r"terminat\w*[^.]{0,150}(?:continues?|persists?)\s+for") == {
        "terminat",
        "continue",
        "persist",
    }  # a letter the pattern makes optional is left off; a gap starts a new word
    assert _pattern_words(r"{them}\s+may\s+(?:freely\s+)?assign") == {"freely", "assign"}


def test_a_force_majeure_clause_that_only_names_itself_is_no_unread_termination_right() -> None:
    """The words "force majeure" and "continues" are the clause's own, not a right to terminate: the
    verdict that there is none stands."""
    by_rule = _findings(
        _clauses(
            "2. Force Majeure. Each party shall be excused from the performance of its obligations to the "
            "extent that such performance is prevented by force majeure. Such excuse shall be continued so "
            "long as the condition constituting force majeure continues."
        )
    )
    fm = by_rule["force_majeure"]
    assert fm.proposal.details["outcome"] == "fallback"
    assert "not read" not in fm.proposal.claim


# --- the same promise given by each party, in two one-sided sentences --------------------------------------

# no preamble names the parties: who is us cannot be resolved
_TWO_SIDED_UNNAMED = (
    "\n\n".join(
        [
            "SPONSORSHIP AGREEMENT",
            "1. Sponsorship. Brelland will display the marks of Quillon at each event and Quillon will pay "
            "Brelland the sponsorship fee. Brelland will report to Quillon after each event.",
            "2. Marks. Quillon grants Brelland a limited licence to use the marks of Quillon at the events.",
            "3. Non-Disparagement.",
            "3.1 Quillon shall not in any way disparage the events of Brelland or its products.",
            "3.2 Brelland agrees that it shall not in any way disparage the brand of Quillon or its wares.",
            "4. Governing Law. This agreement is governed by the laws of England and Wales.",
        ]
    )
    + "\n"
)


def test_the_same_promise_given_by_each_party_is_mutual_whoever_is_us() -> None:
    result = review(document_from_text(_TWO_SIDED_UNNAMED), load_playbook("msa-customer"))
    assert result.roles is not None and not result.roles.resolved
    nd = {str(f.proposal.rule): f for f in result.findings}["non_disparagement"]
    claim = nd.proposal.claim
    assert nd.proposal.details["outcome"] == "standard"
    assert "only we are bound" not in claim and "who is us is not resolved" not in claim
    assert "of “Quillon” and of “Brelland” alike" in claim
    # both promises are quoted
    quoted = " ".join(q.text for q in nd.verified_quotes)
    assert "Quillon shall not" in quoted and "Brelland agrees" in quoted


def test_a_promise_given_by_one_named_party_only_binds_that_party() -> None:
    by_rule = _findings(
        _clauses(
            "2. No Challenges. Norvale shall not do anything or suffer anything to be done which may "
            "adversely affect any rights of Kestrix in its marks, or which may reduce the value of those "
            "marks, or disparage or detract from the reputation of Kestrix."
        )
    )
    nd = by_rule["non_disparagement"]
    assert _value(nd, "binds_customer") is True
    assert nd.proposal.details["outcome"] == "fallback"  # only we are bound: not "mutual"


def test_each_party_promising_in_its_own_sentence_is_mutual_when_roles_are_resolved() -> None:
    by_rule = _findings(
        _clauses(
            "2. Non-Disparagement. Norvale shall not make any derogatory statements about Kestrix. Kestrix "
            "shall not make any derogatory statements about Norvale."
        )
    )
    nd = by_rule["non_disparagement"]
    assert _value(nd, "binds_customer") is True and _value(nd, "binds_supplier") is True
    assert nd.proposal.details["outcome"] == "standard"


# --- a franchisor's or licensor's rights in its own words -------------------------------------------------


def test_the_supplier_entitled_to_assign_without_our_consent_is_free_to_assign() -> None:
    by_rule = _findings(
        _clauses(
            "2. Assignment. Kestrix shall be entitled to assign, transfer or dispose of any of its rights "
            "under this Agreement, including to an affiliate, without the prior written consent of Norvale. "
            "Norvale shall not be entitled to assign any of its rights under this Agreement without the "
            "prior written consent of Kestrix."
        )
    )
    a = by_rule["assignment"]
    assert _value(a, "supplier_free_to_assign") is True
    assert _value(a, "customer_needs_consent") is True
    assert a.proposal.details["outcome"] == "unacceptable"
    assert "not stated" not in a.proposal.claim


def test_the_supplier_inspecting_the_records_we_keep_is_its_audit_of_us() -> None:
    by_rule = _findings(
        _clauses(
            "2. Audit Rights. Norvale shall keep for one (1) year proper records and books of account "
            "relating to the fees. Once every twelve (12) months, Kestrix through a CPA may inspect and "
            "audit such records to verify reports."
        )
    )
    audit = by_rule["audit_rights"]
    assert _value(audit, "supplier_audits_us") is True
    assert "supplier audits us: yes" in audit.proposal.claim


def test_a_clause_under_a_run_in_heading_of_its_own_is_read() -> None:
    """The heading is split off as a sentence of its own; the right is in the sentences under it."""
    by_rule = _findings(
        _clauses(
            "9. Miscellaneous 9.1 Entire Agreement. This Agreement contains the entire agreement of the "
            "parties. 9.2 Right to inspect. During the Term, Kestrix shall have the right to conduct audits "
            "of Norvale with respect to the services, after providing a written notice of 5 (five) days. "
            "9.3 Waiver. No waiver is effective unless in writing."
        )
    )
    audit = by_rule["audit_rights"]
    assert _value(audit, "supplier_audits_us") is True
    assert "supplier audits us: not stated" not in audit.proposal.claim


def test_our_promise_to_deal_with_no_third_party_is_exclusivity_binding_us() -> None:
    by_rule = _findings(
        _clauses(
            '2. Exclusivity. The licence granted herein shall be exclusive. "Exclusivity" shall mean that '
            "Kestrix shall not grant further licences to third parties in the Territory, and Norvale shall "
            "not enter into any arrangement or agreement with any third parties for operating any similar "
            "centres in the Territory."
        )
    )
    ex = by_rule["exclusivity"]
    assert _value(ex, "binds_customer") is True
    assert ex.proposal.details["outcome"] in ("unacceptable", "needs_review")
    assert "does not bind us" not in ex.proposal.claim


def test_our_obligation_to_set_up_at_least_a_number_is_a_minimum_binding_us() -> None:
    by_rule = _findings(
        _clauses(
            "2. Minimum Commitment. Norvale or its sub-licensees shall be under an obligation to set up at "
            "least 6 (six) service centres during the first Contract Year."
        )
    )
    mc = by_rule["minimum_commitment"]
    assert _value(mc, "binds_customer") is True
    assert mc.proposal.details["outcome"] == "fallback"


# --- deciding what the words do decide (fewer needs_review) ----------------------------------------------


def test_a_right_both_parties_hold_is_decided_whoever_is_us() -> None:
    text = (
        "\n\n".join(
            [
                "INVESTMENT ADVISORY AGREEMENT",
                "1. Services. The adviser will manage the assets of the fund described in Schedule 1.",
                "2. Termination. This Agreement may be terminated without the payment of any penalty by "
                "either party upon sixty (60) days' written notice to the other party.",
                "3. Governing Law. This agreement is governed by the laws of the State of New York.",
            ]
        )
        + "\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    assert result.roles is not None and not result.roles.resolved
    t4c = {str(f.proposal.rule): f for f in result.findings}["termination_for_convenience"]
    assert t4c.proposal.details["outcome"] == "fallback"  # both may walk away, on 60 days' notice
    assert "who is us is not resolved" not in t4c.proposal.claim
    assert "by either party" in t4c.proposal.claim  # the holder's words end with the party, not "by e"


def test_not_assignable_by_either_party_without_consent_needs_the_suppliers_consent() -> None:
    by_rule = _findings(
        _clauses(
            "2. Assignment. The respective rights and obligations of Kestrix and Norvale under this "
            "Agreement will not be assignable by either party without the written consent of the other party."
        )
    )
    a = by_rule["assignment"]
    assert _value(a, "supplier_needs_consent") is True
    assert a.proposal.details["outcome"] == "standard"


def test_a_consent_rule_in_a_conjoined_predicate_is_read() -> None:
    by_rule = _findings(
        _clauses(
            "2. Assignment. Kestrix has unique qualifications to provide the services contemplated herein, "
            "and shall not assign any of its rights or obligations to any other person without Norvale's "
            "written consent."
        )
    )
    assert _value(by_rule["assignment"], "supplier_needs_consent") is True


def test_a_flat_ban_on_assignment_by_either_party_restricts_the_supplier() -> None:
    by_rule = _findings(
        _clauses(
            "2. Successors, Assigns. This Agreement shall be binding upon the Parties and neither Party "
            "shall sell, transfer or assign this Agreement or any part hereunder except that a Party shall "
            "have the right to assign this Agreement in whole to an Affiliated Company."
        )
    )
    assert _value(by_rule["assignment"], "supplier_needs_consent") is True


def test_records_returned_to_a_named_party_and_information_destroyed_are_read() -> None:
    for clause in (
        "2. Confidentiality. Kestrix shall keep confidential all information of Norvale. Upon "
        "termination of this Agreement, Kestrix shall promptly, upon demand, return to Norvale Bank all "
        "such records.",
        "2. Confidentiality. Kestrix shall keep confidential all proprietary information of Norvale. On "
        "the ending of this Agreement any proprietary information shall be destroyed or returned to Norvale.",
    ):
        conf = _findings(_clauses(clause))["confidentiality"]
        assert _value(conf, "return_destroy") is True, clause
        assert "not read" not in conf.proposal.claim


def test_a_red_line_is_not_drawn_from_defaults_alone() -> None:
    """Subcontractors are named, but nothing is said of consent or liability: "the supplier may subcontract
    freely and is not liable" would be read from silence alone, so it is not a red line."""
    by_rule = _findings(
        _clauses(
            "2. Support. On a priority request of Norvale, the service centre will contact the responsible "
            "engineer from Kestrix with its Subcontractor(s) immediately.",
            '3. Definitions. "Subcontractor" means a subcontractor of Kestrix, supplying and supporting '
            "hardware for the services.",
        )
    )
    sub = by_rule["subcontracting"]
    assert sub.proposal.details["outcome"] != "unacceptable"
    if sub.proposal.details["outcome"] == "needs_review":
        assert "rests only on what the clause does not say" in sub.proposal.claim
