"""Before a required clause is called absent, the clause retriever is asked too, and says what it saw."""

from __future__ import annotations

from pathlib import Path

from ingest import load_document
from playbooks import load_playbook, run_playbook

CONTRACT = """MASTER SERVICES AGREEMENT

1. Services
1.1 The Supplier shall provide the Services described in each Statement of Work.

2. Fees
2.1 The Customer shall pay each undisputed invoice within thirty (30) days of receipt.

3. Courts
3.1 Each party submits to the exclusive jurisdiction of the courts of London for any dispute.
"""


def test_absence_evidence_names_the_nearest_clauses_the_retriever_considered(tmp_path: Path) -> None:
    path = tmp_path / "msa.txt"
    path.write_text(CONTRACT, encoding="utf-8")
    doc = load_document(path)
    outcomes = {o.rule: o for o in run_playbook(doc, load_playbook("msa-customer"))}
    missing = outcomes["governing_law"]
    assert missing.outcome == "missing"
    assert missing.searched is not None and missing.searched.complete
    retrieval = [q for q in missing.searched.queries if q.startswith("retrieval:")]
    assert len(retrieval) == 1
    assert "nearest clauses considered and not taken" in retrieval[0]
    assert "3.1" in retrieval[0]  # the jurisdiction clause is the nearest thing to a governing-law clause
