"""Readings a finding audit found wrong, each as the general pattern behind it (never a document's text)."""

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from citationgate.cli import app
from playbooks.kinds import duration_kind
from playbooks.parties.reading import read_parties
from playbooks.periods import find_durations


def _review(tmp_path: Path, text: str, *extra: str) -> dict[str, Any]:
    path = tmp_path / "contract.txt"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["review", str(path), "--no-store", "--format", "json", *extra])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_a_lower_case_web_name_is_a_partys_defined_term() -> None:
    text = (
        'This Sponsorship Agreement (the "Agreement") is entered into by and between webco.com, inc., '
        'a Delaware corporation ("webco.com"), and Vitamin Stores, Inc., a New Jersey corporation '
        '("Sponsor").\n\n'
        "1. webco.com shall display the Sponsor's banner. Sponsor shall pay webco.com the fees. "
        "webco.com may end the display on notice. Sponsor may audit the display.\n"
    )
    parties = read_parties(text)
    assert [p.defined_as for p in parties] == ["webco.com", "Sponsor"]
    assert parties[0].name == "webco.com, inc."


def test_hours_are_never_read_as_months_or_years() -> None:
    text = "Photo shoots shall not exceed five (5) hours each in duration."
    assert find_durations(text, unit="months") == []
    assert find_durations(text, unit="years") == []
    (h,) = find_durations("notice of forty-eight (48) hours", unit="days")
    assert h.value == 2  # hours still count in days


def test_a_window_from_a_persons_leaving_is_a_look_back() -> None:
    text = (
        "During the Restricted Period, the Seller shall not hire any employee who has left the employ of "
        "the Buyer if such hiring is proposed to occur within one year after the termination of such "
        "employee's employment."
    )
    at = text.index("one year")
    assert duration_kind(text, at, at + len("one year")) == "lookback"
    plain = "The Seller shall not solicit any employee of the Buyer for one year after this Agreement ends."
    at = plain.index("one year")
    assert duration_kind(plain, at, at + len("one year")) is None


POINTER = (
    'SERVICES AGREEMENT\n\nThis Services Agreement is made between Acme Corp ("Customer") and Beta LLC '
    '("Supplier").\n\n1. Services. Supplier shall provide the services to Customer.\n\n'
    "2. Fees. Customer shall pay Supplier the fees within thirty (30) days of invoice.\n\n"
    "9. CONFIDENTIAL INFORMATION\n\nBoth parties shall sign a new Confidentiality and Non-Disclosure "
    "Agreement "
    '(the "New NDA") and both parties shall comply with any terms and conditions stipulated in the New NDA '
    "with respect to any confidential information disclosed by the other party hereunder.\n"
)
OWN_CLAUSE = (
    "9A. Each party shall keep the other's Confidential Information in strict confidence and shall not "
    "disclose it to any third party; on termination each party shall return or destroy all Confidential "
    "Information of the other, and this clause survives termination without limit.\n"
)


def test_a_confidentiality_clause_that_only_points_to_an_nda_is_referenced_not_provided(
    tmp_path: Path,
) -> None:
    found = {f["rule"]: f for f in _review(tmp_path, POINTER)["findings"]}["confidentiality"]
    assert found["outcome"] == "referenced_not_provided"
    (cite,) = found["citations"]
    assert POINTER[cite["start"] : cite["end"]] == cite["quote"] and "New NDA" in cite["quote"]


def test_a_contracts_own_confidentiality_clause_beside_the_pointer_is_judged(tmp_path: Path) -> None:
    found = {f["rule"]: f for f in _review(tmp_path, POINTER + "\n" + OWN_CLAUSE)["findings"]}[
        "confidentiality"
    ]
    assert found["outcome"] != "referenced_not_provided"
    assert any(
        "strict confidence" in c["quote"] or "return or destroy" in c["quote"] for c in found["citations"]
    )


def test_a_window_named_a_period_preceding_is_a_look_back() -> None:
    text = "hire any person who is, or within the six month period preceding such activity was, an employee"
    at = text.index("six month")
    assert duration_kind(text, at, at + len("six month")) == "lookback"
