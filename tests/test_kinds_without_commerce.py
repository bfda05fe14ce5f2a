"""Contracts that buy no services — a covenant not to compete given on a sale, a securities letter, an
escrow — are typed as what they are, and a services playbook's absences that such a contract is not expected
to have are not gaps (`not_expected_in`); a clause the contract does have is still judged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from playbooks import load_playbook
from playbooks.contract_type import classify
from playbooks.errors import PlaybookError

_COVENANT = (
    "NON-COMPETITION AGREEMENT\n\n"
    'This Non-Competition Agreement is made between Alder Holdings Inc. ("Seller") and Birch Industries '
    'LLC ("Buyer").\n\n'
    "1. Covenant. For a period of three (3) years after the Closing, Seller shall not engage in any business "
    "that competes with the Business in the Territory.\n\n"
    "2. Governing Law. This Agreement shall be governed by the laws of the State of Delaware.\n"
)


def _review(tmp_path: Path, text: str) -> dict[str, Any]:
    path = tmp_path / "contract.txt"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["review", str(path), "--no-store", "--format", "json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _finding(review: dict[str, Any], rule: str) -> dict[str, Any]:
    return next(f for f in review["findings"] if f["rule"] == rule)


def test_covenants_securities_letters_and_escrows_are_their_own_kinds() -> None:
    assert classify(_COVENANT).type == "restrictive_covenant"
    affiliate = (
        "AFFILIATE AGREEMENT\n\nThe undersigned may be deemed an affiliate of the Company within the meaning "
        "of Rule 145 under the Securities Act. The undersigned will not sell the shares except in compliance "
        "with Rule 145 and the Securities Act.\n"
    )
    assert classify(affiliate).type == "securities"
    # an affiliate that markets is still a marketing affiliate
    marketing = "MARKETING AFFILIATE AGREEMENT\n\nAffiliate shall promote the products on its web site.\n"
    assert classify(marketing).type == "marketing"
    escrow = "ESCROW AGREEMENT\n\nThe Owner shall deposit the source code with the escrow agent.\n"
    assert classify(escrow).type == "escrow"
    assert classify("SOFTWARE LICENSE AND ESCROW AGREEMENT\n\nLicensor grants a licence.").type == "license"


def test_an_absence_a_covenant_is_not_expected_to_have_is_no_gap(tmp_path: Path) -> None:
    review = _review(tmp_path, _COVENANT)
    assert review["fit"]["fits"] is False
    # not a finding: listed among the rules that do not apply
    assert "limitation_of_liability" in review["summary"]["not_applicable"]
    assert "insurance" in review["summary"]["not_applicable"]
    assert all(f["rule"] != "limitation_of_liability" for f in review["findings"])
    # what every contract is expected to have is still missing where it is absent
    assert _finding(review, "notices")["outcome"] == "missing"


def test_a_clause_a_covenant_does_have_is_still_judged(tmp_path: Path) -> None:
    text = _COVENANT + (
        "\n3. Limitation of Liability. In no event shall Buyer's aggregate liability under this Agreement "
        "exceed One Thousand Dollars ($1,000).\n"
    )
    cap = _finding(_review(tmp_path, text), "limitation_of_liability")
    assert cap["outcome"] != "not_applicable"
    assert any("aggregate liability" in c["text"] for c in cap["citations"])


def test_a_playbook_naming_an_unknown_contract_type_is_refused(tmp_path: Path) -> None:
    source = (Path(__file__).parents[1] / "playbooks/builtin/msa-customer.yaml").read_text(encoding="utf-8")
    bad = source.replace(
        "not_expected_in: [securities, finance, employment, restrictive_covenant]",
        "not_expected_in: [securites]",
        1,
    )
    path = tmp_path / "typo.yaml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(PlaybookError, match="unknown contract type 'securites'"):
        load_playbook(str(path))


def test_the_engine_says_why_the_absence_is_no_gap() -> None:
    from ingest.plain import load_text
    from playbooks.engine import run_playbook

    doc = load_text(Path("covenant.txt"), _COVENANT.encode())
    outcomes = run_playbook(doc, load_playbook("msa-customer"), contract_type="restrictive_covenant")
    cap = next(o for o in outcomes if o.rule == "limitation_of_liability")
    assert (cap.outcome, cap.severity) == ("not_applicable", "info")
    assert (
        cap.claim
        == "No limitation of liability clause found; none is expected in a restrictive covenant contract."
    )
    assert "does not expect one in restrictive covenant contracts" in cap.reason
    # where it is expected (a services contract), the same absence is a gap
    outcomes = run_playbook(doc, load_playbook("msa-customer"), contract_type="services")
    assert next(o for o in outcomes if o.rule == "limitation_of_liability").outcome == "missing"


_MEETING = (
    "The Company shall nominate the Nominees for election at the 2020 Annual Meeting and solicit proxies for "
    "them. During the Standstill Period the Investor shall not solicit proxies or nominate any person. "
)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("COOPERATION AGREEMENT\n\n" + _MEETING * 2, "securities"),
        (
            "COOPERATION AGREEMENT\n\nParty A shall run the game platform and Party B shall supply games.\n",
            "collaboration",
        ),
        (
            "JOINT FILING AGREEMENT\n\nThe undersigned agree to file a joint statement on Schedule 13D.\n",
            "securities",
        ),
        ("REMARKETING AGREEMENT\n\nThe Remarketing Agent shall remarket the tendered Notes.\n", "securities"),
        (
            "INTELLECTUAL PROPERTY AGREEMENT\n\nParent assigns to SpinCo the Transferred Patents.\n",
            "license",
        ),
        (
            "UNCONDITIONAL CAPITAL MAINTENANCE AGREEMENT\n\nParent shall keep up the capital.\n",
            "finance",
        ),
        ("CREDIT AGREEMENT\n\nThe Lender shall make Loans to the Borrower.\n", "finance"),
        (
            "SOFTWARE MAINTENANCE AGREEMENT\n\nThe Supplier shall maintain the Software.\n",
            "maintenance_support",
        ),
        (
            "ENDORSEMENT AGREEMENT\n\nThe Company pays the premiums on the split-dollar policy.\n",
            "employment",
        ),
        ("ENDORSEMENT AGREEMENT\n\nThe Athlete shall endorse the Sponsor's products.\n", "sponsorship"),
    ],
    ids=[
        "shareholder-cooperation",
        "business-cooperation",
        "joint-filing",
        "remarketing",
        "ip-agreement",
        "capital-maintenance",
        "credit",
        "software-maintenance",
        "split-dollar",
        "athlete-endorsement",
    ],
)
def test_titles_that_name_no_service_are_typed_as_what_they_are(text: str, kind: str) -> None:
    assert classify(text).type == kind


def test_staff_who_transfer_with_a_maintained_service_make_no_employment_contract() -> None:
    staff = "The Transferring Employees' employment, salary, vacation and benefit plans transfer to SEV. " * 6
    assert classify("FLEET MAINTENANCE AGREEMENT\n\nSEV shall maintain the Vehicles. " + staff).type == (
        "maintenance_support"
    )
    # the same words under a bare "Service Agreement" with an executive are an employment contract
    assert classify("SERVICE AGREEMENT\n\nThe employment of the Executive. " + staff).type == "employment"


def test_a_keepwell_is_not_expected_to_cap_liability_and_a_licence_holds_no_personal_data(
    tmp_path: Path,
) -> None:
    keepwell = (
        "CAPITAL MAINTENANCE AGREEMENT\n\n"
        'This Agreement is made between Alder Holdings Inc. ("Parent") and Birch Insurance Company '
        '("Company").\n\n'
        "1. Capital. Parent shall cause the Company to have capital of at least the Specified Minimum.\n\n"
        "2. Governing Law. This Agreement shall be governed by the laws of the State of New York.\n"
    )
    review = _review(tmp_path, keepwell)
    assert review["document"]["type"]["type"] == "finance"
    assert "limitation_of_liability" in review["summary"]["not_applicable"]
    assert all(f["rule"] != "force_majeure" for f in review["findings"])
    licence = keepwell.replace("CAPITAL MAINTENANCE AGREEMENT", "PATENT LICENSE AGREEMENT").replace(
        "1. Capital. Parent shall cause the Company to have capital of at least the Specified Minimum.",
        "1. Licence. Parent grants the Company a non-exclusive licence under the Licensed Patents.",
    )
    review = _review(tmp_path, licence)
    assert review["document"]["type"]["type"] == "license"
    assert {"data_protection", "customer_data_use"} <= set(review["summary"]["not_applicable"])
    assert _finding(review, "limitation_of_liability")["outcome"] == "missing"
