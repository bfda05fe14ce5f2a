"""Is the passage located *about* the rule? A sentence under another clause's heading is that clause unless it
states the rule's subject, a definition is no operative clause, and where a rule declares the terms its
operative sentence must state (`locate.about`), a sentence stating none of them is not the clause. Both
directions: an off-subject passage is set aside (an honest absence naming it), and a clause that is really
there is still found. Synthetic agreements written for these tests, one behaviour each."""

from __future__ import annotations

from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text

PREAMBLE = (
    "SERVICES AGREEMENT",
    'This Services Agreement is made between Bioco Inc. ("Bioco") and Servco LLC ("Servco"). Servco shall '
    "provide services to Bioco, and Bioco shall pay Servco the fees below.",
    "1. Fees. Bioco shall pay each invoice of Servco within thirty (30) days of receipt.",
    "2. Governing Law. This Agreement is governed by the laws of the State of New York.",
)

FORCE_MAJEURE = (
    "9. Force Majeure. Notwithstanding anything to the contrary elsewhere in this Agreement, neither Party "
    "shall be liable for any failure to comply with its obligations under this Agreement, other than to pay "
    "moneys due, to the extent arising out of any circumstances not within the reasonable control, directly "
    'or indirectly, of the Party affected ("Force Majeure").'
)
SEVERABILITY = (
    "10. Severability. If any provision of this Agreement is held invalid or unenforceable, the validity, "
    "legality and enforceability of the remaining provisions shall not in any way be affected or impaired."
)
AMENDMENT = (
    "11. Amendment. This Agreement may be amended at any time by mutual written agreement of the parties."
)
WAIVER = (
    "12. WAIVER\n\nNeither the inspection by Bioco, nor any payment for or acceptance of all or any part of "
    "the services, shall operate as a waiver of any provision of this Agreement, nor shall any waiver of any "
    "breach be held to be a waiver of any other breach."
)


def _by_rule(*clauses: str) -> dict[str, Any]:
    text = "\n\n".join([*PREAMBLE, *clauses]) + "\n"
    result = review(document_from_text(text), load_playbook("msa-customer"))
    assert result.roles is not None and result.roles.resolved
    return {str(f.proposal.rule): f for f in result.findings}


def _outcome(finding: Any) -> str:
    return str(finding.proposal.details["outcome"])


def _searched(finding: Any) -> str:
    assert finding.proposal.absence is not None
    return " ".join(finding.proposal.absence.searched)


def _quoted(finding: Any) -> str:
    return " ".join(q.text for q in finding.verified_quotes)


def test_a_force_majeure_clause_is_not_the_limitation_of_liability() -> None:
    """'neither Party shall be liable for any failure … beyond its control' under a Force Majeure heading
    limits nothing: no cap is reported absent, and the passage set aside is named with why."""
    lol = _by_rule(FORCE_MAJEURE)["limitation_of_liability"]
    assert _outcome(lol) == "missing"
    searched = _searched(lol)
    assert "considered and not taken" in searched and "force majeure" in searched


def test_a_cap_beside_a_force_majeure_clause_is_still_the_limitation_of_liability() -> None:
    """The other direction: with a real cap elsewhere, the rule reads the cap, not force majeure."""
    cap = (
        "8. General. Servco's aggregate liability under this Agreement shall not exceed the fees paid in the "
        "twelve (12) months preceding the claim."
    )
    lol = _by_rule(cap, FORCE_MAJEURE)["limitation_of_liability"]
    assert _outcome(lol) != "missing"
    assert "shall not exceed" in _quoted(lol) and "reasonable control" not in _quoted(lol)


def test_a_severability_clause_is_not_a_covenant_not_to_sue() -> None:
    """'shall not … be impaired … validity' is severability: no covenant not to sue is found in it."""
    sue = _by_rule(SEVERABILITY).get("covenant_not_to_sue")
    assert sue is None or _outcome(sue) == "not_applicable"


def test_a_no_challenge_promise_under_a_severability_heading_is_still_the_covenant() -> None:
    """A sentence that states the rule's own subject is the clause wherever it sits."""
    promise = (
        "10. Severability. The remaining provisions shall not be impaired. Bioco shall not challenge or "
        "contest the validity of Servco's patents."
    )
    sue = _by_rule(promise)["covenant_not_to_sue"]
    assert _outcome(sue) in ("standard", "fallback")
    assert "challenge" in _quoted(sue)


def test_an_amendment_clause_is_not_the_entire_agreement() -> None:
    ea = _by_rule(AMENDMENT)["entire_agreement"]
    assert _outcome(ea) == "missing"


def test_an_entire_agreement_sentence_under_a_miscellaneous_heading_is_found() -> None:
    misc = (
        "13. Miscellaneous. This Agreement constitutes the entire agreement between the parties and "
        "supersedes all prior agreements. Any amendment must be in writing signed by both parties."
    )
    ea = _by_rule(AMENDMENT, misc)["entire_agreement"]
    assert _outcome(ea) == "standard"
    assert "entire agreement" in _quoted(ea)


def test_a_waiver_clause_that_mentions_an_inspection_is_not_headed_as_audit_rights() -> None:
    """'24. WAIVER' is no audit heading because the sentence under it says 'inspection'."""
    audit = _by_rule(WAIVER)["audit_rights"]
    assert _outcome(audit) == "missing"


def test_a_definition_is_not_the_operative_clause() -> None:
    """A definition that speaks of consequential damages limits nobody's liability."""
    definition = (
        '3. Definitions. "Losses" means all losses, including indirect and consequential damages, suffered '
        "by a party."
    )
    lol = _by_rule(definition)["limitation_of_liability"]
    assert _outcome(lol) == "missing"


def test_a_clause_under_its_own_heading_is_never_set_aside() -> None:
    """The invariant: a clause that is there is not reported absent because its sentence is worded oddly."""
    own = "8. Limitation of Liability. In no event shall Servco be liable for delays in delivery."
    lol = _by_rule(own)["limitation_of_liability"]
    assert _outcome(lol) != "missing"


def test_a_purpose_limit_on_information_named_by_a_pronoun_is_a_limit_on_our_data() -> None:
    """'shall not … use them for its own purposes (otherwise than … to perform its obligations)'."""
    limit = (
        "5. Confidentiality. Each party shall keep the other party's business information confidential "
        "and shall not publish or otherwise disclose them or use them for its own purposes (otherwise than "
        "as may be required to perform its obligations under this Agreement)."
    )
    use = _by_rule(limit)["customer_data_use"]
    assert _outcome(use) == "standard"


def test_data_not_to_be_utilised_for_any_other_purpose_is_a_limit_on_our_data() -> None:
    limit = (
        "5. Data. Bioco Data shall not be utilized by Servco for any purpose other than the performance of "
        "the services and shall not be sold to third parties."
    )
    use = _by_rule(limit)["customer_data_use"]
    assert _outcome(use) == "standard"


def test_our_care_of_the_suppliers_information_is_no_performance_warranty() -> None:
    """'Bioco will treat the tools … with not less than reasonable care' is our duty, not a warranty."""
    care = (
        "4. Tools. Bioco will treat the Servco Tools with the same degree of care that Bioco provides for "
        "similar information belonging to Bioco, but not less than reasonable care."
    )
    warranty = "5. Warranties. Servco represents and warrants that the Servco Tools are free of all liens."
    w = _by_rule(care, warranty)["warranties"]
    assert (w.proposal.details.get("extracted") or {}).get("professional_standard", {}).get(
        "value"
    ) is not True
    assert "reasonable care" not in _quoted(w)


def test_an_independent_contractor_sentence_is_not_the_warranty() -> None:
    """The relationship of the parties is no warranty: the rule reads the sentence that warrants."""
    relation = (
        "3. Relationship. Servco is an independent contractor, and nothing in this Agreement creates a "
        "partnership for a period of thirty (30) days or otherwise."
    )
    warranty = (
        "6. Quality. Servco warrants that it shall perform the services in a professional and workmanlike "
        "manner."
    )
    w = _by_rule(relation, warranty)["warranties"]
    assert "workmanlike" in _quoted(w) and "independent contractor" not in _quoted(w)


def test_a_table_of_contents_line_is_not_the_clause_it_names() -> None:
    """'2. Confidential Information 3 3. Governing Law 4 …' names clauses it does not hold."""
    text = "\n\n".join(
        [
            "SERVICES AGREEMENT",
            "CONTENTS",
            "1. Fees 2 2. Confidential Information 3 3. Governing Law 4 4. Notices 5",
            'This Services Agreement is made between Bioco Inc. ("Bioco") and Servco LLC ("Servco"). Servco '
            "shall provide services to Bioco, and Bioco shall pay Servco the fees below.",
            "1. Fees. Bioco shall pay each invoice of Servco within thirty (30) days of receipt.",
            "2. Confidential Information. Servco shall keep all information of Bioco confidential for "
            "five (5) years and shall return it to Bioco on termination.",
            "3. Governing Law. This Agreement is governed by the laws of the State of New York.",
        ]
    )
    result = review(document_from_text(text + "\n"), load_playbook("msa-customer"))
    conf = {str(f.proposal.rule): f for f in result.findings}["confidentiality"]
    assert "five (5)" in _quoted(conf) and "Governing Law 4" not in _quoted(conf)


def test_a_short_first_line_that_is_a_sentence_is_no_heading() -> None:
    """'Servco shall give prior notice to Bioco' (a hard-wrapped first line) heads no notices clause."""
    outage = "7. Servco shall give prior notice to Bioco\nabout planned outages of the services."
    notices = _by_rule(outage)["notices"]
    assert "headed as this clause" not in str(notices.proposal.claim)


def test_our_own_warranty_is_not_the_suppliers() -> None:
    """'Bioco warrants …' is our promise: the warranty rule reads Servco's, or finds none."""
    ours = "4. Authority. Bioco warrants that it has full power to enter into this Agreement."
    assert _outcome(_by_rule(ours)["warranties"]) == "missing"
    theirs = "5. Quality. Servco warrants that the services will be performed in a workmanlike manner."
    w = _by_rule(ours, theirs)["warranties"]
    assert "workmanlike" in _quoted(w) and "full power" not in _quoted(w)
