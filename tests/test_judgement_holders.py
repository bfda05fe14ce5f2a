"""Who holds a right is read from its grammar: the subject of "may terminate", the party after "may be
terminated by", the party giving "notice of termination"; "either party", "either X or Y" and one side
in one sentence with the other side in another hold it jointly. Synthetic texts written for these tests."""

from __future__ import annotations

import re
from typing import Any

import pytest

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text
from playbooks.parties.holder import BOTH, find_holders, merge_holders
from playbooks.parties.reading import read_parties

US = (re.compile(r"(?:the\s+)?Company"),)
THEM = (re.compile(r"(?:the\s+)?Consultant"),)
TERMINATE = ("terminat\\w*",)
NOT_FOR_CAUSE = (re.compile("breach"), re.compile(r"\bdefault"))


def _side(text: str, *, unless: tuple[re.Pattern[str], ...] = ()) -> str | None:
    hits = find_holders(text, 0, right=TERMINATE, us=US, them=THEM, unless=unless)
    merged = merge_holders(hits)
    return None if merged is None else merged[0]


@pytest.mark.parametrize(
    ("sentence", "side"),
    [
        ("The Company may terminate this Agreement at any time on thirty (30) days' notice.", "us"),
        ("Consultant may, at its option, terminate this Agreement on ninety (90) days' notice.", "them"),
        ("Either party may terminate this Agreement without cause on 30 days' written notice.", BOTH),
        (
            "Without prejudice to the Company's right to summarily terminate, either you or the Company may "
            "terminate by giving six months' notice.",
            BOTH,
        ),
        ("The Company and the Consultant shall each have the right to terminate on 60 days' notice.", BOTH),
        ("This Agreement may be terminated by the Consultant upon sixty (60) days' notice.", "them"),
        (
            "It shall continue until terminated by mutual agreement of the parties or by either party on not "
            "less than 60 days' written notice.",
            BOTH,
        ),
        (
            "(vi) Upon the Consultant giving the Company at least sixty (60) days advance written notice of "
            "termination of this Agreement.",
            "them",
        ),
        (
            "(c) ninety (90) days following the date the Company gives Consultant written notice of "
            "termination for any or no reason.",
            "us",
        ),
    ],
)
def test_the_holder_is_read_from_the_grammar_of_the_right(sentence: str, side: str) -> None:
    assert _side(sentence) == side


def test_a_right_for_breach_is_not_the_right_asked_about() -> None:
    text = "If the Consultant is in breach, the Company may terminate this Agreement on notice."
    assert _side(text, unless=NOT_FOR_CAUSE) is None
    assert _side(text) == "us"


def test_one_side_here_and_the_other_side_there_hold_it_jointly() -> None:
    first = "(vi) Upon the Consultant giving the Company sixty (60) days notice of termination."
    second = "(vi) Upon the Company giving the Consultant sixty (60) days notice of termination."
    hits = [
        *find_holders(first, 0, right=TERMINATE, us=US, them=THEM),
        *find_holders(second, 1000, right=TERMINATE, us=US, them=THEM),
    ]
    merged = merge_holders(hits)
    assert merged is not None and merged[0] == BOTH


def test_a_passive_right_is_not_read_as_the_subject_before_it() -> None:
    text = (
        "Fees are payable to the Company, and this Agreement may be terminated by the Consultant at any time."
    )
    assert _side(text) == "them"


CONSULTANCY = (
    "\n\n".join(
        [
            "CONSULTING AGREEMENT",
            'This Consulting Agreement is made between Acme Holdings Inc. ("Acme") and Jane Roe LLC '
            '("Consultant"). Consultant shall provide consulting services to Acme, and Acme shall pay '
            "Consultant the fees below.",
            "1. Services. Consultant shall perform the services described in the Statement of Work.",
            "2. Fees. Acme shall pay each invoice of Consultant within thirty (30) days of receipt.",
            "3. Termination. This Agreement shall terminate upon the occurrence of any of the following: "
            "(a) the date Acme gives Consultant written notice of termination for any or no reason; or "
            "(b) Consultant may terminate this Agreement by giving ninety (90) days' written notice to Acme.",
            "4. Governing Law. This Agreement is governed by the laws of the State of New York.",
        ]
    )
    + "\n"
)


def _by_rule(text: str) -> dict[str, Any]:
    result = review(document_from_text(text), load_playbook("msa-customer"))
    assert result.roles is not None and result.roles.resolved
    return {str(f.proposal.rule): f for f in result.findings}


def test_termination_for_convenience_held_by_each_side_in_its_own_limb_is_mutual() -> None:
    tfc = _by_rule(CONSULTANCY)["termination_for_convenience"]
    extracted = tfc.proposal.details["extracted"]
    assert extracted["holder"]["value"] == "either"
    assert extracted["notice_days"]["value"] == 90
    assert tfc.proposal.details["outcome"] == "fallback"


def test_a_defined_term_that_starts_in_lower_case_is_a_party() -> None:
    text = (
        "This Agreement is entered into by and between Centrack International, a Florida corporation "
        '("the Customer"), and i-on interactive, a Florida corporation ("i-on"). i-on will host the site '
        "of the Customer, and the Customer shall pay i-on monthly."
    )
    assert [p.defined_as for p in read_parties(text)] == ["Customer", "i-on"]


LONG_CAP = (
    "\n\n".join(
        [
            "MASTER SERVICES AGREEMENT",
            'This Agreement is made between Buyco Inc. ("Buyco") and Servco LLC ("Servco"). Servco shall '
            "provide the services to Buyco, and Buyco shall pay Servco the fees.",
            "9. LIMITATION OF LIABILITY. (a) IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR ANY SPECIAL, "
            "INDIRECT, INCIDENTAL OR CONSEQUENTIAL DAMAGES ARISING OUT OF THIS AGREEMENT, "
            + "WHETHER IN CONTRACT, TORT OR OTHERWISE, AND WHETHER OR NOT ADVISED OF THE POSSIBILITY, "
            * 6
            + "(b) IN NO EVENT SHALL SERVCO'S AGGREGATE LIABILITY UNDER THIS AGREEMENT EXCEED THE FEES PAID "
            "BY BUYCO IN THE TWELVE (12) MONTHS PRECEDING THE CLAIM.",
            "10. Governing Law. This Agreement is governed by the laws of the State of New York.",
        ]
    )
    + "\n"
)


def test_a_cap_stated_far_into_a_long_clause_is_read_and_quoted() -> None:
    """'In no event shall X's liability exceed …' is a cap; a value read from a passage too long to quote
    whole gets a quote window of its own, so it is shown with its words rather than dropped."""
    cap = _by_rule(LONG_CAP)["limitation_of_liability"]
    extracted = cap.proposal.details["extracted"]
    assert extracted["cap_months"]["value"] == 12
    assert extracted["consequential_excluded"]["value"] is True
    quoted = " ".join(q.text for q in cap.verified_quotes)
    assert "TWELVE (12) MONTHS" in quoted and "CONSEQUENTIAL DAMAGES" in quoted


def test_a_party_defined_in_capitals_is_read_in_title_case_and_paid_by_is_the_customers_sign() -> None:
    from playbooks.parties.roles import resolve_roles

    text = (
        'MAINTENANCE AGREEMENT between Leader Act Ltd ("LEADER") and Softco Inc. ("SOFTCO"). WHEREAS '
        "LEADER was paid by Softco to service and maintain the software; the parties agree that Leader "
        "shall maintain the software for five years and shall be paid by Softco each quarter."
    )
    binding = resolve_roles(text, read_parties(text), "customer")
    assert binding.resolved
    assert [p.defined_as for p in binding.us] == ["SOFTCO"]


def test_a_limb_that_names_no_cause_is_not_a_right_to_terminate_for_cause() -> None:
    text = (
        "This Agreement shall terminate upon: (b) the date the Company gives Consultant written notice of "
        "Termination for Cause; (d) Consultant may terminate this Agreement by giving ninety (90) days' "
        "written notice to the Company."
    )
    cause = (re.compile(r"\bcause\b", re.IGNORECASE), re.compile("breach"))
    hits = find_holders(text, 0, right=TERMINATE, us=US, them=THEM, near=cause)
    merged = merge_holders(hits)
    assert merged is not None and merged[0] == "us"


def test_a_hard_wrapped_sentence_is_one_right() -> None:
    text = (
        "12.2  Either party may terminate this Agreement with immediate effect by\n"
        "      giving written notice to the other party if the other party commits a\n"
        "      material breach of this Agreement."
    )
    hits = find_holders(text, 0, right=TERMINATE, us=US, them=THEM, near=(re.compile("breach"),))
    merged = merge_holders(hits)
    assert merged is not None and merged[0] == BOTH


def test_the_limbs_of_a_passive_lead_in_name_who_may_do_it() -> None:
    """ "may be terminated as follows: a. by mutual agreement; b. by either Party, if the other Party is in
    material breach …; c. by the Company, if …": each limb's agent holds the right its own words give."""
    lead_in = "18.1 This Agreement may be terminated as follows:"
    listed = (
        lead_in
        + "\n\n  a. by mutual agreement of the Parties; or\n\n  b. by either Party, with immediate effect, "
        "if the other Party is in material breach of this Agreement and does not remedy it within sixty (60) "
        "days of notice; or\n\n  c. by the Company, on ninety (90) days' notice, for its convenience."
    )
    breach = (re.compile(r"\bbreach"),)
    others: list[Any] = []
    hits = find_holders(
        lead_in, 0, right=TERMINATE, us=US, them=THEM, near=breach, listed=listed, others=others
    )
    merged = merge_holders(hits)
    assert merged is not None and merged[0] == BOTH
    assert listed[merged[1].start : merged[1].end] == "by either Party"
    # for convenience: the limb for breach is a right of another kind; the Company's limb holds it
    others = []
    hits = find_holders(
        lead_in, 0, right=TERMINATE, us=US, them=THEM, unless=breach, listed=listed, others=others
    )
    merged = merge_holders(hits)
    assert merged is not None and merged[0] == "us"
    assert any(o.other == "breach" for o in others)


@pytest.mark.parametrize(
    ("sentence", "side"),
    [
        (
            "If either party defaults in the performance of any material provision of this "
            "Agreement, then the "
            "non-defaulting party may give written notice to the defaulting party that if the default is not "
            "cured within thirty (30) days the Agreement will be terminated.",
            BOTH,
        ),
        (
            "If either party be in default with respect to any of the terms of this Agreement, and "
            "if it fails "
            "to correct such default within ten (10) business days following written notice thereof from the "
            "other, the party serving such notice may, without prejudice to any other right or remedy, defer "
            "further performance hereunder until such default be remedied or terminate this Agreement by "
            "written notice to the other.",
            BOTH,
        ),
        (
            "The Company may give written notice to the Consultant that this Agreement shall be "
            "terminated if "
            "the Consultant fails to deliver the report.",
            "us",
        ),
    ],
)
def test_a_right_exercised_by_notice_or_as_one_remedy_of_several_has_a_holder(
    sentence: str, side: str
) -> None:
    assert _side(sentence) == side


def test_a_title_abbreviation_does_not_end_the_rights_sentence() -> None:
    """ "Dr." is no full stop: the breach after it is still the right's own ground."""
    hits = find_holders(
        "Notwithstanding the foregoing, the Company may immediately terminate the Services Term "
        "without notice "
        "should Dr. Murray be in breach of this Agreement.",
        0,
        right=TERMINATE,
        us=US,
        them=THEM,
        near=NOT_FOR_CAUSE,
    )
    assert [h.side for h in hits] == ["us"]


def test_a_passive_rights_limbs_after_semicolons_each_name_their_holder() -> None:
    """"… terminable by the Consultant in the event of a claim; by the Company or the Consultant upon sixty
    (60) days' written notice; or by the Company …": the second limb is held by both."""
    text = (
        "This Agreement shall be terminable by the Consultant at any time in the event that it receives "
        "notice of a claim; by the Company or the Consultant upon sixty (60) days' written notice to the "
        "other party; "
        "or by the Company at any time in the event of a breach."
    )
    hits = find_holders(text, 0, right=("termin(?:at|ab)\\w*",), us=US, them=THEM, unless=NOT_FOR_CAUSE)
    assert [h.side for h in hits] == ["them", BOTH]
    assert text[hits[1].start : hits[1].end].startswith(" by the Company or the Consultant upon sixty")
