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


def _clauses(*body: str) -> str:
    head = (
        'This Agreement is made between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. ("Kestrix"). '
        "Kestrix shall provide the services to Norvale, and Norvale shall pay Kestrix the fees."
    )
    services = "1. Services. Kestrix shall provide the network services described in Schedule 1."
    tail = "Governing Law. This Agreement is governed by the laws of the State of New York."
    return "\n\n".join(["MASTER SERVICES AGREEMENT", head, services, *body, tail]) + "\n"


@lru_cache(maxsize=16)
def _findings(text: str) -> dict[str, Any]:
    result = review(document_from_text(text), load_playbook("msa-customer"))
    assert result.roles is not None and result.roles.resolved
    return {str(f.proposal.rule): f for f in result.findings}


def _extracted(finding: Any, field: str) -> Any:
    v = (finding.proposal.details.get("extracted") or {}).get(field)
    return v.get("value") if isinstance(v, dict) else v


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
    assert _extracted(t4c, "holder") == "either"
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
    assert _extracted(coc, "customer_may_terminate") is True
    assert _extracted(coc, "binds_customer") is True  # our own acquisition lets Kestrix terminate too
    assert "not stated" not in coc.proposal.claim
    t4c = by_rule.get("termination_for_convenience")
    assert t4c is None or _extracted(t4c, "holder") is None  # not "either may walk away without cause"


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
    assert _extracted(fm, "termination_right") is True
    assert _extracted(fm, "terminate_after_days") == 60
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
    assert _extracted(fm, "termination_right") is True
    assert _extracted(fm, "terminate_after_days") == 30
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
