"""A right or duty given to each party is read as mutual, and one given to a single named party as that
party's: "either company may terminate", "both parties", the same right given to each party in the lettered
limbs of one sentence ("terminable (a) by Norvale … or (b) by Kestrix …"); a right to end the contract after a
prolonged force majeure "either party can" exercise. Synthetic texts with invented party names, written for
these tests."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text


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
