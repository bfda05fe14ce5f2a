"""Who a duty binds, and what a finding rests on: a restriction or a duty is read from whose promise its
sentence is (the subject of its "shall not", however far the verb stands from its object), never from a
default; a standard position or a fallback that holds only by yes/no values defaulted from the clause's
silence is `needs_review`; a right to terminate "for breach … or for any other reason" is a right to
terminate for any reason; the law of our own seat is no red line against us; an insurance duty on us is not
the supplier's cover. Synthetic texts with invented party names, written for these tests."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text
from tests.test_judgement_clauses import _value

HEAD = (
    'This Agreement is made between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. ("Kestrix"). '
    "Kestrix shall provide the services to Norvale, and Norvale shall pay Kestrix the fees."
)
LAW = "Governing Law. This Agreement is governed by the laws of the State of New York."


def _contract(*body: str, head: str = HEAD, law: str = LAW) -> str:
    return "\n\n".join(["MASTER SERVICES AGREEMENT", head, *body, law]) + "\n"


def _law(place: str) -> str:
    return f"Governing Law. This Agreement is governed by the laws of {place}."


SERVICES = "1. Services. Kestrix shall provide the network services described in Schedule 1."


@lru_cache(maxsize=32)
def _by_rule(text: str) -> dict[str, Any]:
    result = review(document_from_text(text), load_playbook("msa-customer"))
    assert result.roles is not None and result.roles.resolved
    return {str(f.proposal.rule): f for f in result.findings}


def _outcome(finding: Any) -> str:
    return str(finding.proposal.details["outcome"])


def test_a_covenant_not_to_challenge_binds_us_however_far_its_verb_stands_from_its_object() -> None:
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Marks. Norvale shall not, during the period of this Agreement, or at any time thereafter, "
            "challenge the exclusive ownership or registration by Kestrix of the Kestrix Marks.",
        )
    )
    cov = by_rule["covenant_not_to_sue"]
    assert _value(cov, "binds_customer") is True
    assert _outcome(cov) == "fallback"
    assert "binds customer: yes (“Norvale shall”)" in cov.proposal.claim
    assert "not stated" not in cov.proposal.claim


def test_a_restriction_on_the_supplier_alone_is_read_as_not_binding_us() -> None:
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Non-solicitation. Kestrix shall not, during the term of this Agreement and for twelve (12) "
            "months after it ends, directly or indirectly solicit for employment any employee of Norvale.",
        )
    )
    ns = by_rule["non_solicitation"]
    assert _value(ns, "binds_customer") is False
    assert _outcome(ns) == "standard"
    assert "binds customer: no (“Kestrix shall”)" in ns.proposal.claim


def test_a_mutual_restriction_with_a_condition_before_its_subject_binds_us() -> None:
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Non-solicitation. Without the prior written consent of the other Party, a Party shall not at "
            "any time while this Agreement is in force and for a one-year period after its termination "
            "either for itself or on behalf of any other company solicit, induce or cause any employee of "
            "the other Party to leave such employment.",
        )
    )
    assert _value(by_rule["non_solicitation"], "binds_customer") is True


def test_a_duty_to_act_is_not_read_as_a_restraint() -> None:
    """A non-compete's field is read from a promise not to compete, never from "Norvale shall advise"."""
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Non-competition. During the Term, Norvale shall advise Kestrix of any engagement of other "
            "providers offering services that compete with the Services.",
        )
    )
    nc = by_rule.get("non_compete")
    assert nc is None or _value(nc, "binds_customer") is not True
    assert nc is None or _outcome(nc) != "unacceptable"


def test_a_standard_position_resting_only_on_defaults_is_needs_review() -> None:
    """Nothing in the clause says whose change of control it is or who may terminate: "not stated" is no
    reading that our change of control is free."""
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Change of Control. Any change of control shall be notified in writing within ten (10) days.",
        )
    )
    coc = by_rule["change_of_control"]
    assert _outcome(coc) == "needs_review"
    assert "the clause does not state" in coc.proposal.claim
    assert "meets the standard position" not in coc.proposal.claim


def test_a_right_for_breach_or_for_any_other_reason_is_a_right_for_convenience_too() -> None:
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Termination. Norvale shall, in the event of Kestrix committing any breach of this Agreement "
            "or for any other reason considered as sufficient, be entitled to terminate this Agreement by "
            "giving ninety (90) days' notice in writing. Kestrix may also terminate this Agreement by giving "
            "ninety (90) days' notice in writing to Norvale.",
        )
    )
    tfc = by_rule["termination_for_convenience"]
    assert _value(tfc, "holder") == "either"
    assert "only the supplier" not in tfc.proposal.claim
    assert _outcome(tfc) == "fallback"


def test_a_passive_right_with_a_comma_and_either_of_two_named_parties_is_held_by_both() -> None:
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Early Termination. This Agreement may be terminated, in whole or in part, by either Norvale "
            "or Kestrix for any reason upon ninety (90) days' written notice to the other.",
        )
    )
    tfc = by_rule["termination_for_convenience"]
    assert _value(tfc, "holder") == "either"
    assert _outcome(tfc) == "fallback"


def test_the_next_sentence_of_the_clause_is_read_for_a_yes_no() -> None:
    by_rule = _by_rule(
        _contract(
            SERVICES
            + " Kestrix may not subcontract any part of the services to a third party without the prior "
            "written approval of Norvale. Kestrix will remain fully liable for the acts and omissions of its "
            "approved subcontractors.",
        )
    )
    sub = by_rule["subcontracting"]
    assert _value(sub, "supplier_liable") is True
    assert _outcome(sub) == "standard"


SEATED = (
    'This Agreement is made between Norvale Ltd (hereinafter called the "Norvale"), located at 1 Queen\'s '
    'Road Central, Hong Kong, and Kestrix Systems Inc. ("Kestrix"), a Delaware corporation. Kestrix shall '
    "provide the services to Norvale, and Norvale shall pay Kestrix the fees."
)


def test_the_law_of_our_own_seat_is_no_red_line_against_us() -> None:
    by_rule = _by_rule(_contract(SERVICES, head=SEATED, law=_law("Hong Kong")))
    law = by_rule["governing_law"]
    assert _outcome(law) == "standard"
    assert "our own seat (Hong Kong)" in law.proposal.claim
    assert any("Queen's Road Central, Hong Kong" in q.text for q in law.verified_quotes)


def test_a_law_foreign_to_both_our_seat_and_the_allow_list_stays_a_red_line() -> None:
    by_rule = _by_rule(_contract(SERVICES, head=SEATED, law=_law("Singapore")))
    law = by_rule["governing_law"]
    assert _outcome(law) == "unacceptable"
    assert "our own seat" not in law.proposal.claim


def test_the_law_of_a_state_the_parties_are_qualified_to_do_business_in_is_not_foreign_to_us() -> None:
    """A farmout of Louisiana leases: both parties represent they are qualified to do business there."""
    qualified = (
        "11.2 The Parties hereto represent that they are corporations in good standing under the laws of "
        "the state of their incorporation and are qualified and authorized to do business in the State of "
        "Louisiana."
    )
    law = _by_rule(_contract(SERVICES, qualified, head=SEATED, law=_law("the State of Louisiana")))[
        "governing_law"
    ]
    assert _outcome(law) == "standard"
    assert "our own seat (Louisiana)" in law.proposal.claim
    assert any(
        "qualified and authorized to do business in the State of Louisiana" in q.text
        for q in law.verified_quotes
    )
    # a state only the other party is qualified in is not ours
    theirs = "11.2 Kestrix represents that it is qualified to do business in the State of Louisiana."
    law = _by_rule(_contract(SERVICES, theirs, head=SEATED, law=_law("the State of Louisiana")))[
        "governing_law"
    ]
    assert _outcome(law) == "unacceptable"


def test_the_other_partys_seat_is_not_ours() -> None:
    """Kestrix is the Delaware corporation; Delaware law is on the allow-list anyway, so try its address."""
    head = (
        'This Agreement is made between Norvale Ltd ("Norvale"), located at 5 Fleet Street, London, and '
        'Kestrix Systems Inc. ("Kestrix"), located at 1 Queen\'s Road Central, Hong Kong. Kestrix shall '
        "provide the services to Norvale, and Norvale shall pay Kestrix the fees."
    )
    by_rule = _by_rule(_contract(SERVICES, head=head, law=_law("Hong Kong")))
    assert _outcome(by_rule["governing_law"]) == "unacceptable"


def test_an_insurance_duty_on_us_is_not_the_suppliers_cover() -> None:
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Insurance. During the term of this Agreement, Norvale shall obtain and maintain at its "
            "expense Commercial General Liability insurance in an amount of $2,000,000 per occurrence. "
            "Kestrix must be a named additional insured.",
        )
    )
    ins = by_rule["insurance"]
    assert _value(ins, "supplier_insures") is False
    assert "requires us, not the supplier" in ins.proposal.claim
    assert "only one of general liability" not in ins.proposal.claim


def test_the_suppliers_insurance_duty_meets_the_standard() -> None:
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Insurance. Kestrix shall maintain general liability insurance and professional indemnity "
            "insurance, each for not less than $5,000,000 per claim.",
        )
    )
    ins = by_rule["insurance"]
    assert _value(ins, "supplier_insures") is True
    assert _outcome(ins) == "standard"


def test_a_termination_right_on_a_change_of_control_in_a_late_limb_of_one_long_sentence_is_read() -> None:
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Termination. Before expiration of the Term, either Party may terminate this Agreement upon: "
            "(i) any material breach of the Agreement by the other Party, if such breach is not remedied "
            "within ten (10) business days after written notice; (ii) ten (10) business days written notice "
            "to the other Party whenever the notifying Party determines that the continuation of the "
            "Agreement will damage its reputation; or (iii) written notice in the event one Party (a) "
            "becomes or is declared insolvent or bankrupt, (b) makes an assignment for the benefit of "
            "creditors, or (c) is subject to a change of control (whether by merger, stock transfer or "
            "otherwise).",
        )
    )
    coc = by_rule["change_of_control"]
    assert _value(coc, "customer_may_terminate") is True
    assert _value(coc, "binds_customer") is True
    assert "not stated" not in coc.proposal.claim


def test_a_non_exclusive_licence_is_no_exclusive_licence() -> None:
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Licence. Norvale grants Kestrix a non-exclusive, limited, revocable licence during the term "
            "to use the Norvale Marks, solely to identify Kestrix as a provider of Norvale.",
        )
    )
    lic = by_rule["licence_grant"]
    assert _value(lic, "supplier_licence_unlimited") is False  # read from the grant's own words, quoted
    assert "supplier licence unlimited: no (“" in lic.proposal.claim
    assert _outcome(lic) != "unacceptable"


def test_a_right_to_terminate_with_cause_is_no_right_to_walk_away() -> None:
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Termination. This Agreement may be terminated by either party with cause upon thirty (30) "
            "days written notice.",
        )
    )
    tfc = by_rule.get("termination_for_convenience")
    assert tfc is None or _value(tfc, "holder") is None
    assert tfc is None or "holder: either" not in tfc.proposal.claim


def test_a_right_to_terminate_on_a_breach_with_the_modal_split_is_located_and_held() -> None:
    """ "in the event of … any breach …, be entitled to terminate" is a termination for cause: no false
    absence, and the holder is the party before the split modal."""
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Termination. Norvale shall, in the event of Kestrix committing any breach of the terms of "
            "this Agreement, be entitled to terminate this Agreement by giving two (2) weeks' notice in "
            "writing.",
        )
    )
    tfb = by_rule["termination_for_cause"]
    assert _outcome(tfb) != "missing"
    assert _value(tfb, "holder") == "customer"


def test_a_needs_review_says_a_defaulted_value_was_not_found_never_no() -> None:
    by_rule = _by_rule(
        _contract(
            SERVICES,
            "2. Effect of Termination. Upon termination, Kestrix shall perform the necessary information "
            "transfer required at the time.",
        )
    )
    eot = by_rule["effect_of_termination"]
    if _outcome(eot) == "needs_review":
        assert "(no wording found)" not in eot.proposal.claim


def test_the_other_partys_seat_before_ours_is_not_ours() -> None:
    head = (
        'This Agreement is made by and between Kestrix Systems Inc. (hereinafter "Kestrix"), having a place '
        'of business at 1 Queen\'s Road Central, Hong Kong and, Norvale Ltd (hereinafter "Norvale"), a '
        "Texas corporation. Kestrix shall provide the services to Norvale, and Norvale shall pay Kestrix "
        "the fees."
    )
    by_rule = _by_rule(_contract(SERVICES, head=head, law=_law("Hong Kong")))
    assert "our own seat" not in by_rule["governing_law"].proposal.claim
