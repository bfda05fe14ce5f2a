"""The batch's record of one document (`RunStore.write_outcome`), on SQLite and the suite's PostgreSQL.

A document that failed for a reason outside itself (its worker died) is tried again and its record
replaced — outcome rows included — while a settled one is never written twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citationgate.review import finding_dict, review
from citationgate.store import Store
from citationgate.store_runs import DONE, FAILED, RunStore
from ingest.load import load_bytes
from playbooks import load_playbook
from tests.batch_fixtures import contract_text
from tests.databases import fresh_database


@pytest.fixture(params=["sqlite", "postgresql"])
def runs(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunStore]:
    if request.param == "sqlite":
        yield RunStore(Store(f"sqlite:///{tmp_path / 'runs.db'}"))
        return
    with fresh_database(request.getfixturevalue("pg_cluster")) as url:
        yield RunStore(Store(url))


def test_a_transient_failure_is_replaced_by_the_review_and_a_settled_record_is_kept(runs: RunStore) -> None:
    from citationgate.batch.cells import portfolio_cells

    pb = load_playbook("msa-customer")
    ref = {"id": pb.id, "version": pb.version, "sha256": pb.sha256}
    document = load_bytes("msa.txt", contract_text(1).encode())
    result = review(document, pb)
    findings = [finding_dict(f) for f in result.findings]
    cells = portfolio_cells(findings, result.summary)
    common = {"key": "k1", "source_sha256": document.source_sha256, "playbook": ref, "view": "accepted"}
    lost = runs.write_outcome(
        **common, we=None, name="msa.txt", status=FAILED, reason="worker died", transient=True
    )
    assert (lost.status, lost.already, runs.settled(["k1"])) == (FAILED, False, {})
    done = runs.write_outcome(
        **common,
        we=None,
        name="msa.txt",
        status=DONE,
        document=document,
        findings=findings,
        audit=result.audit,
        summary=result.summary,
        cells=cells,
    )
    assert (done.status, done.already, done.reason) == (DONE, False, "")
    assert runs.settled(["k1"]) == {"k1": DONE}
    [record] = runs.documents()
    assert (record["attempts"], record["transient"], record["review_id"]) == (2, False, done.review_id)
    assert runs.cells(["k1"]) == {"k1": cells}
    run = runs.create_run(
        playbook=ref,
        options={},
        entries=[{"path": "msa.txt", "source_sha256": document.source_sha256, "key": "k1"}],
    )
    assert runs.outcome_counts(run) == {rule: {str(c["outcome"]): 1} for rule, c in cells.items()}
    again = runs.write_outcome(
        **common, we=None, name="msa.txt", status=FAILED, reason="late", transient=True
    )
    assert (again.status, again.already, again.review_id) == (DONE, True, done.review_id)
    assert len(runs.store.list_reviews()) == 1 and runs.store.check_audit()[1] is None
