"""The locator fused into the playbook engine: every located clause says how it was found and how sure the
engine is, with the locator's score, rank and version; absences record the locator's best passages."""

from __future__ import annotations

from pathlib import Path

import pytest

from citationgate.review import review
from ingest.load import load_document
from playbooks import load_playbook, run_playbook
from playbooks.locator import load_locator
from playbooks.locator.fusion import calibrate

CONTRACT = """\
MASTER SERVICES AGREEMENT

1. Services. The Supplier shall provide the services described in each statement of work.

2. Limitation of Liability. In no event shall either party's aggregate liability arising out of or
relating to this Agreement exceed the total fees paid by the Customer in the twelve months preceding
the claim.

3. Governing Law. This Agreement shall be governed by the laws of the State of New York.
"""


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    p = tmp_path_factory.mktemp("fusion") / "msa.txt"
    p.write_text(CONTRACT, encoding="utf-8")
    doc = load_document(p)
    return {"doc": doc, "fused": run_playbook(doc, load_playbook("msa-customer"))}


@pytest.mark.parametrize(
    ("p", "t", "expected"),
    [(0.0, 0.3, 0.0), (0.3, 0.3, 0.5), (1.0, 0.3, 1.0), (0.15, 0.3, 0.25), (0.65, 0.3, 0.75)],
    ids=["zero", "threshold", "one", "half-threshold", "halfway-above"],
)
def test_calibration_puts_the_threshold_at_one_half(p: float, t: float, expected: float) -> None:
    assert calibrate(p, t) == pytest.approx(expected)


def test_a_located_clause_carries_its_location(outcomes: dict[str, object]) -> None:
    """The liability cap is found by its heading; the locator's score and rank for that passage ride along."""
    fused = {o.rule: o for o in outcomes["fused"]}  # type: ignore[attr-defined]
    loc = fused["limitation_of_liability"].location
    assert loc is not None and loc.via in ("heading", "pattern", "locator")
    assert loc.category == "Cap on Liability" and loc.locator == load_locator().version
    assert loc.locator_rank == 1 and loc.locator_score is not None and 0.0 < loc.confidence <= 1.0


def test_an_absence_records_the_locators_best_passages(outcomes: dict[str, object]) -> None:
    """A required clause that is not there: the search names the locator's candidates and their scores."""
    missing = [o for o in outcomes["fused"] if o.outcome == "missing" and o.location is not None]  # type: ignore[attr-defined]
    assert missing
    o = missing[0]
    assert o.searched is not None
    line = next(q for q in o.searched.queries if q.startswith("locator "))
    assert "best passages considered and not taken" in line and "score " in line and "rank 1" in line
    assert o.location.candidates and o.location.via is None


def test_the_review_json_carries_the_location(outcomes: dict[str, object]) -> None:
    doc = outcomes["doc"]
    result = review(doc, load_playbook("msa-customer"), outcomes=outcomes["fused"])  # type: ignore[arg-type]
    cap = next(f for f in result.to_dict()["findings"] if f["rule"] == "limitation_of_liability")
    location = cap["location"]
    assert set(location) >= {"confidence", "via", "locator", "locator_score", "locator_rank", "candidates"}


def test_rules_alone_carry_no_location(tmp_path: Path) -> None:
    p = tmp_path / "msa.txt"
    p.write_text(CONTRACT, encoding="utf-8")
    out = run_playbook(load_document(p), load_playbook("msa-customer"), locator=False)
    assert all(o.location is None for o in out)
