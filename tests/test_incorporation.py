"""Detection of a document that incorporates another agreement, and its absences made needs_review."""

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.evaluation.clause_eval import When, _present
from citationgate.review import review
from ingest.load import load_document
from playbooks import load_playbook
from playbooks.incorporation import INCORPORATED_REASON, for_topic, general, incorporations
from playbooks.library import document_from_text

ADDENDUM = (
    "AMENDMENT NO. 2\n\nThis Amendment is made between Acme Corp and Beta LLC.\n\n"
    "1. The Parties wish to amend the Reseller Agreement by adding new goods.\n\n"
    "2. All sales of the new goods are subject to the terms and conditions of the Reseller Agreement.\n\n"
    "3. Either Party may end this Amendment in accordance with the termination provisions of the Reseller "
    "Agreement.\n"
)

MSA = (
    'MASTER SERVICES AGREEMENT\n\nThis Master Services Agreement (the "Agreement") is made between Acme '
    "Corp and Beta LLC.\n\n1. Services are subject to the terms of this Agreement.\n\n"
    "2. The parties' earlier Mutual Nondisclosure Agreement remains in effect.\n\n"
    "3. Each Statement of Work is subject to the terms and conditions of the Master Services Agreement.\n"
)


def test_general_and_topic_incorporation_detected() -> None:
    found = incorporations(ADDENDUM)
    assert {i.name for i in found} == {"Reseller Agreement"}
    assert general(ADDENDUM)
    t = for_topic(ADDENDUM, "Termination for cause")
    assert t is not None and "termination provisions" in ADDENDUM[t.start : t.end]
    assert for_topic(ADDENDUM, "Limitation of liability") is None


def test_ordinary_msa_does_not_trip() -> None:
    assert incorporations(MSA) == ()


def _review(tmp_path: Path, text: str, *extra: str) -> Any:
    path = tmp_path / "contract.txt"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(app, ["review", str(path), "--no-store", *extra])


def test_review_names_the_incorporated_agreement_with_its_quote(tmp_path: Path) -> None:
    result = _review(tmp_path, ADDENDUM, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    found = data["document"]["incorporates"]
    assert {i["name"] for i in found} == {"Reseller Agreement"}
    for i in found:  # every quote slices back from the canonical text at its offsets
        assert ADDENDUM[i["start"] : i["end"]] == i["quote"]
    assert any(i["topics"] for i in found)  # the termination reference is topic-specific
    assert data["fit"]["partial"] is True
    assert "Reseller Agreement" in data["summary"]["incorporation_warning"]


def test_text_report_warns_that_the_review_is_partial(tmp_path: Path) -> None:
    result = _review(tmp_path, ADDENDUM)
    assert result.exit_code == 0, result.output
    warning = "Warning: this document incorporates the Reseller Agreement, which is not in this file"
    assert warning in result.stdout


def test_ordinary_msa_review_is_not_partial(tmp_path: Path) -> None:
    result = _review(tmp_path, MSA, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["document"]["incorporates"] == []
    assert data["fit"]["partial"] is False
    assert "incorporation_warning" not in data["summary"]


def _outcomes(tmp_path: Path, text: str) -> dict[str, dict[str, Any]]:
    result = _review(tmp_path, text, "--format", "json")
    assert result.exit_code == 0, result.output
    return {f["rule"]: f for f in json.loads(result.stdout)["findings"]}


def test_a_topic_given_to_the_other_agreement_is_referenced_not_provided(tmp_path: Path) -> None:
    found = _outcomes(tmp_path, ADDENDUM)["termination_for_cause"]
    assert found["outcome"] == "referenced_not_provided"
    assert "Reseller Agreement" in found["claim"]
    (cite,) = found["citations"]
    assert ADDENDUM[cite["start"] : cite["end"]] == cite["quote"]
    assert "termination provisions of the Reseller" in cite["quote"]


def test_an_absence_under_a_general_incorporation_is_left_open(tmp_path: Path) -> None:
    found = _outcomes(tmp_path, ADDENDUM)["limitation_of_liability"]
    assert found["outcome"] == "needs_review"
    assert found["rationale"].startswith(INCORPORATED_REASON)
    assert "Reseller Agreement" in found["citations"][0]["quote"]  # the first incorporating sentence


def test_eval_does_not_count_a_clause_present_on_an_incorporating_sentence(tmp_path: Path) -> None:
    path = tmp_path / "addendum.txt"
    path.write_text(ADDENDUM, encoding="utf-8")
    findings = review(load_document(path), load_playbook("msa-customer")).findings
    left_open = [
        f for f in findings if str(f.proposal.details.get("reason", "")).startswith(INCORPORATED_REASON)
    ]
    assert left_open  # the review leaves absences open …
    for f in left_open:  # … and the clause evaluation never reads them as the clause found
        assert _present(findings, When(rule=f.proposal.rule)) is None


LICENSED_SUPPLY = (
    "SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Dong Pharma Co. and NeuroCo Inc., who are "
    "also parties to a license agreement dated December 1, 2017.\n\n"
    "8. INCORPORATION BY REFERENCE Articles or Sections 8.2 (Limitation of Liability), 9 (Indemnification), "
    "12.2 (Force Majeure), 12.8 (Submission to Jurisdiction/Waiver of Jury Trial) of the License Agreement "
    "shall be deemed to be incorporated herein by reference as it is set forth in this Agreement.\n"
)


def test_sections_incorporated_by_number_give_their_titles_to_the_other_agreement() -> None:
    (inc,) = incorporations(LICENSED_SUPPLY)
    assert inc.name == "License Agreement" and inc.listed
    assert LICENSED_SUPPLY[inc.start : inc.end].startswith("Articles or Sections 8.2")
    assert "submission to jurisdiction" in inc.topics and "waiver of jury trial" in inc.topics
    assert for_topic(LICENSED_SUPPLY, "Limitation of liability") is inc
    # a clause matched by one of its own headings, all of whose words are in a title incorporated
    assert for_topic(LICENSED_SUPPLY, "Disputes and venue", ("jurisdiction",)) is inc
    assert for_topic(LICENSED_SUPPLY, "Payment terms", ("payment",)) is None
    # a list of sections of this agreement itself incorporates nothing
    assert (
        incorporations(LICENSED_SUPPLY.replace("of the License Agreement shall", "of this Agreement shall"))
        == ()
    )


def test_a_clause_located_on_the_list_of_sections_is_referenced_not_provided() -> None:
    result = review(document_from_text(LICENSED_SUPPLY), load_playbook("msa-customer"))
    by_rule = {f.proposal.rule: f for f in result.findings}
    for rule in ("limitation_of_liability", "force_majeure", "dispute_resolution"):
        f = by_rule[rule]
        assert f.proposal.details["outcome"] == "referenced_not_provided", rule
        (q,) = f.verified_quotes
        assert q.text.startswith("Articles or Sections 8.2") and "License Agreement" in q.text
        assert LICENSED_SUPPLY[q.start : q.end] == q.text
