"""A yes/no finding never says something false about the clause it quotes: where who is us is not
resolved, it says what the words say of each party by its own name ("yes if “Kestrix” is the supplier"),
never "not stated" beside the very words; mutual words decide the field for both sides; approval,
authorisation and permission are consent; an inspection by a party's accountant is that party's audit.
Synthetic texts with invented party names, written for these tests."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text
from tests.test_judgement_clauses import _value

# no preamble names the parties: who is us cannot be resolved
UNNAMED = (
    "\n\n".join(
        [
            "NETWORK OPERATIONS AGREEMENT",
            "1. Services. Kestrix will operate the wide area network of Norvale and Kestrix will report to "
            "Norvale each month on the services.",
            "2. Fees. Norvale will pay the monthly fee invoiced by Kestrix within thirty (30) days.",
            "3. Audit. The Norvale itself may also audit the records of Kestrix relevant to the services "
            "for any reasonable purpose.",
            "4. Termination For Change Of Control. Norvale may terminate this agreement by giving written "
            "notice to Kestrix if there is a change of control of Kestrix.",
            "5. Assignment By Kestrix",
            "Kestrix must not assign this agreement or any right under this agreement unless Kestrix",
            "(a) is not in breach of this agreement;",
            "(b) obtains the prior written consent of the Norvale; and",
            "(c) ensures that the assignee agrees to be bound by this agreement.",
            "6. Governing Law. This agreement is governed by the laws of England and Wales.",
        ]
    )
    + "\n"
)

RESOLVED = (
    "\n\n".join(
        [
            "MASTER SERVICES AGREEMENT",
            'This Agreement is made between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. '
            '("Kestrix"). Kestrix shall provide the services to Norvale, and Norvale shall pay Kestrix '
            "the fees.",
            "1. Services. Kestrix shall provide the network services described in Schedule 1.",
            "2. Fees. Norvale shall pay each invoice of Kestrix within thirty (30) days of receipt.",
            "3. Subcontracting. Kestrix must obtain Norvale's approval for any subcontracts, and Kestrix "
            "remains responsible for the acts and omissions of its subcontractors.",
            "4. Records. Norvale shall keep complete records of its use of the services. Such records will "
            "be available for inspection during normal business hours by an independent certified public "
            "accountant selected by Kestrix, solely to verify the fees paid by Norvale. To the extent such "
            "audit reveals any underpayment by Norvale, Norvale shall pay the shortfall.",
            "5. Governing Law. This Agreement is governed by the laws of the State of New York.",
        ]
    )
    + "\n"
)

MUTUAL_UNNAMED = (
    "\n\n".join(
        [
            "MAINTENANCE AND SUPPORT CONTRACT",
            "1. Support. The support services are described in Annex 1.",
            "2. Assignment. The rights and obligations under this maintenance and support contract may not "
            "be assigned in whole or in part by either party without the prior written consent by the other "
            "party.",
            "3. Governing Law. This contract is governed by the laws of England and Wales.",
        ]
    )
    + "\n"
)


@lru_cache(maxsize=8)
def _findings(text: str) -> tuple[Any, dict[str, Any]]:
    result = review(document_from_text(text), load_playbook("msa-customer"))
    return result, {str(f.proposal.rule): f for f in result.findings}


def test_unresolved_roles_say_what_the_words_say_of_each_party_by_name() -> None:
    result, by_rule = _findings(UNNAMED)
    assert result.roles is not None and not result.roles.resolved
    assignment = by_rule["assignment"]
    claim = assignment.proposal.claim
    assert assignment.proposal.details["outcome"] == "needs_review"
    assert "supplier needs consent: yes if “Kestrix” is the supplier" in claim
    assert "supplier needs consent: not stated" not in claim
    # the lead-in is read with the list its sentence runs on into, and the consent is quoted
    assert any("prior written consent of the Norvale" in q.text for q in assignment.verified_quotes)


def test_unresolved_roles_a_named_audit_right_is_not_not_stated() -> None:
    _, by_rule = _findings(UNNAMED)
    audit = by_rule["audit_rights"]
    claim = audit.proposal.claim
    assert "customer may audit: yes if “Norvale” is the customer" in claim
    assert "customer may audit: not stated" not in claim
    assert audit.proposal.details["outcome"] == "needs_review"  # which party is us is still unknown


def test_unresolved_roles_a_named_change_of_control_termination_right_is_read() -> None:
    _, by_rule = _findings(UNNAMED)
    coc = by_rule["change_of_control"]
    claim = coc.proposal.claim
    assert "customer may terminate: yes if “Norvale” is the customer" in claim
    assert "customer may terminate: not stated" not in claim
    assert coc.proposal.details["outcome"] == "needs_review"


def test_mutual_words_decide_the_field_whoever_is_us() -> None:
    result, by_rule = _findings(MUTUAL_UNNAMED)
    assert result.roles is not None and not result.roles.resolved
    assignment = by_rule["assignment"]
    assert _value(assignment, "supplier_needs_consent") is True
    assert assignment.proposal.details["outcome"] == "standard"
    assert "who is us is not resolved" not in assignment.proposal.claim


def test_approval_is_consent() -> None:
    _, by_rule = _findings(RESOLVED)
    sub = by_rule["subcontracting"]
    assert _value(sub, "consent_required") is True
    assert sub.proposal.details["outcome"] == "standard"


def test_an_inspection_by_their_accountant_is_their_audit_of_us() -> None:
    _, by_rule = _findings(RESOLVED)
    audit = by_rule["audit_rights"]
    assert _value(audit, "supplier_audits_us") is True
    # "such audit reveals any underpayment by Norvale" is not Norvale auditing anyone
    assert _value(audit, "customer_may_audit") is not True
    assert "supplier audits us: yes" in audit.proposal.claim


def _clauses(*body: str) -> str:
    head = (
        'This Agreement is made between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. ("Kestrix"). '
        "Kestrix shall provide the services to Norvale, and Norvale shall pay Kestrix the fees."
    )
    tail = "Governing Law. This Agreement is governed by the laws of the State of New York."
    return "\n\n".join(["MASTER SERVICES AGREEMENT", head, *body, tail]) + "\n"


def test_a_verdict_on_a_yes_no_the_clause_speaks_of_but_the_patterns_miss_is_not_earned() -> None:
    """The force majeure clause speaks of its continuing and of terminating in words no "yes" pattern
    reads: "no right to terminate for a prolonged force majeure" would be a reading of nothing."""
    _, by_rule = _findings(
        _clauses(
            "1. Services. Kestrix shall provide the network services described in Schedule 1.",
            "2. Force Majeure. Neither party is liable for a delay caused by an event beyond its reasonable "
            "control. Where such a delay continues, the parties shall meet, and the arrangements affected "
            "may be brought to an end (terminated) on terms they then agree.",
        )
    )
    fm = by_rule["force_majeure"]
    assert fm.proposal.details["outcome"] == "needs_review"
    assert "termination right: not read" in fm.proposal.claim
    assert "no right to terminate" not in fm.proposal.claim


def test_a_force_majeure_termination_right_of_either_party_is_read() -> None:
    _, by_rule = _findings(
        _clauses(
            "1. Services. Kestrix shall provide the network services described in Schedule 1.",
            "2. Force Majeure. Neither party is liable for a delay caused by a force majeure event. If no "
            "agreement is reached within fifteen (15) days and the force majeure event continues to have a "
            "substantial effect on the performance of this Agreement, either party shall have the right to "
            "terminate this Agreement by written notice.",
        )
    )
    assert _value(by_rule["force_majeure"], "termination_right") is True


def test_copies_to_be_returned_are_a_duty_to_return_confidential_information() -> None:
    _, by_rule = _findings(
        _clauses(
            "1. Services. Kestrix shall provide the network services described in Schedule 1.",
            "2. Confidentiality. Kestrix shall keep confidential all Confidential Information of Norvale. "
            "Any copy, record or memorandum of Confidential Information made by Kestrix shall remain the "
            "property of Norvale and accordingly shall be returned by Kestrix to Norvale on termination.",
        )
    )
    conf = by_rule["confidentiality"]
    assert _value(conf, "return_destroy") is True
    assert "no duty to return" not in conf.proposal.claim


def test_a_merger_excepted_from_consent_for_either_party_leaves_our_change_of_control_free() -> None:
    _, by_rule = _findings(
        _clauses(
            "1. Services. Kestrix shall provide the network services described in Schedule 1.",
            "2. Assignment. Neither party shall assign its rights under this Agreement without the prior "
            "written consent of the other party. Notwithstanding the foregoing, no such consent shall be "
            "required for either party to assign this Agreement in connection with a merger or a sale of "
            "all or substantially all of its assets.",
        )
    )
    coc = by_rule["change_of_control"]
    assert _value(coc, "binds_customer") is False
    # the merger exception gives us no right to terminate: the claim does not say it does
    assert "lets us react" not in coc.proposal.claim


def test_access_to_the_other_sides_books_is_an_audit_right() -> None:
    _, by_rule = _findings(
        _clauses(
            "1. Services. Kestrix shall provide the network services described in Schedule 1.",
            "2. Records and Audit. Kestrix shall keep accurate books and records of all charges under this "
            "Agreement and, upon request from Norvale, shall allow access to those books and records.",
        )
    )
    audit = by_rule["audit_rights"]
    assert _value(audit, "customer_may_audit") is True
    assert audit.proposal.details["outcome"] == "standard"


def test_access_refused_to_others_is_no_audit_right() -> None:
    _, by_rule = _findings(
        _clauses(
            "1. Services. Kestrix shall provide the network services described in Schedule 1.",
            "2. Records. Kestrix shall keep the records of the services confidential and shall not allow "
            "access to them by any third party.",
        )
    )
    audit = by_rule.get("audit_rights")
    assert audit is None or _value(audit, "customer_may_audit") is not True
