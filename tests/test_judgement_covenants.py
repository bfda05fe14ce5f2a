"""Who a covenant binds is read from the parties' own names, a definition is never the operative clause,
and a purpose limit on the other side's confidential information is a limit on the use of our data.
A synthetic development agreement written for these tests."""

from __future__ import annotations

from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text

DEVELOPMENT = (
    "\n\n".join(
        [
            "DEVELOPMENT AGREEMENT",
            'This Development Agreement is made between Bioco Inc. ("Bioco") and Labco LLC '
            '("Labco"). Labco shall perform development services for Bioco, and Bioco shall pay Labco '
            "the fees below.",
            '1. Definitions. "Minimum Quantity" means one hundred (100) batches of Product per year.',
            "2. Fees. Bioco shall pay each invoice of Labco within thirty (30) days of receipt of the "
            "invoice.",
            "3. Minimum Purchase. In the event that Bioco does not order the Minimum Quantity in a given "
            "year, Labco may ship the remaining quantity and invoice Bioco for it.",
            "4. Confidentiality. The Receiving Party will use Confidential Information only in connection "
            "with the Work Plan and will not disclose it to any third party.",
            "5. Non-Competition. During the term Bioco will not itself or with third parties engage in the "
            "development of any product competing with the Product.",
            "6. Assignment. Labco may not sell, assign or delegate any rights or obligations under this "
            "Agreement.",
            "7. Governing Law. This Agreement is governed by the laws of the State of New York.",
        ]
    )
    + "\n"
)


def _by_rule() -> dict[str, Any]:
    result = review(document_from_text(DEVELOPMENT), load_playbook("msa-customer"))
    assert result.roles is not None and result.roles.resolved
    return {str(f.proposal.rule): f for f in result.findings}


def test_a_minimum_bound_by_its_consequence_binds_us_and_the_definition_is_not_the_clause() -> None:
    minimum = _by_rule()["minimum_commitment"]
    assert minimum.proposal.details["extracted"]["binds_customer"]["value"] is True
    assert all(" means " not in q.text for q in minimum.verified_quotes)


def test_a_non_compete_on_us_by_name_binds_us() -> None:
    nc = _by_rule()["non_compete"]
    assert nc.proposal.details["extracted"]["binds_customer"]["value"] is True
    assert "binds only the supplier" not in nc.proposal.claim


def test_confidential_information_used_only_for_the_work_plan_limits_the_use_of_our_data() -> None:
    use = _by_rule()["customer_data_use"]
    assert use.proposal.details["outcome"] == "standard"
    assert use.proposal.details["extracted"]["limited_to_services"]["value"] is True


def test_a_flat_ban_on_the_supplier_assigning_is_read() -> None:
    assignment = _by_rule()["assignment"]
    assert assignment.proposal.details["extracted"]["supplier_needs_consent"]["value"] is True
    assert assignment.proposal.details["outcome"] == "standard"


def test_any_other_assignment_requiring_consent_and_an_exclusive_purchase_anywhere_are_read() -> None:
    text = DEVELOPMENT.replace(
        "6. Assignment. Labco may not sell, assign or delegate any rights or obligations under this "
        "Agreement.",
        "6. Assignment. Either party may assign this Agreement to an affiliate. Any other assignment by "
        "the parties requires the prior written consent of the other party.\n\n8. Exclusivity. Labco "
        "hereby appoints Bioco as its exclusive distributor of the Product.\n\n9. Supply. During the "
        "term Bioco will exclusively purchase the Product from Labco.",
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    by_rule = {str(f.proposal.rule): f for f in result.findings}
    assert by_rule["assignment"].proposal.details["extracted"]["supplier_needs_consent"]["value"] is True
    assert by_rule["exclusivity"].proposal.details["extracted"]["binds_customer"]["value"] is True
