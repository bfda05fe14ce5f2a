"""`ask` in the default install: a question read as clause types reaches the clause the locator reads as
that type even when the question shares none of its words (the clause-type ranking fused with the keywords);
every hit says which ranker placed it; and the question benchmark reads any question file of the same shape
and says which ranker answered."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.document import Document
from ingest.sections import detect_sections
from playbooks.bridges import expand_query, load_bridges
from playbooks.locator.questions import QuestionTypes
from playbooks.retrieve import ClauseRetriever

ROOT = Path(__file__).resolve().parents[1]

CONTRACT = """SERVICES AGREEMENT

This Agreement is made between Northwind Ltd ("Customer") and Contoso Ltd ("Supplier").

1. Services

1.1 The Supplier shall provide the Services described in Schedule 1 with reasonable skill and care.

2. Charges

2.1 The Customer shall pay the Charges within 30 days of receipt of a valid invoice.

3. Records and Audit

3.1 The Supplier shall keep complete and accurate accounts of all Charges and, on reasonable notice, make
them available for examination by the Customer's independent accountants once in each contract year.

4. Insurance

4.1 The Supplier shall maintain with reputable insurers professional indemnity insurance of not less than
£5,000,000 for each claim and public liability insurance of not less than £10,000,000.

5. Staff

5.1 During the Term and for twelve months after it, neither party shall solicit or employ any individual
employed by the other party in the provision of the Services.

6. Source Code

6.1 The Supplier shall deposit the source code of the Software with an independent escrow agent, to be
released to the Customer if the Supplier becomes insolvent or ceases to support the Software.

7. Term

7.1 This Agreement starts on the Effective Date and continues for three years.

8. Governing Law

8.1 This Agreement is governed by the laws of England and Wales.
"""


def make_doc(text: str) -> Document:
    return Document(
        name="services.txt",
        file_type="txt",
        text=text,
        source_sha256=hashlib.sha256(text.encode()).hexdigest(),
        sections=tuple(detect_sections(text).sections),
    )


@pytest.fixture(scope="module")
def contract() -> Document:
    return make_doc(CONTRACT)


@pytest.fixture(autouse=True)
def _meaning_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CITATIONGATE_NO_SEMANTIC", raising=False)  # whatever an earlier test left set


@pytest.mark.parametrize(
    ("question", "clause"),
    [
        ("what cover must they hold?", "professional indemnity insurance"),
        ("could we recruit people from their team?", "neither party shall solicit or employ"),
        ("what if the vendor goes bust?", "deposit the source code"),
    ],
    ids=["insurance", "no-poach", "escrow"],
)
def test_a_question_sharing_no_word_with_the_clause_reaches_it_first(
    contract: Document, question: str, clause: str
) -> None:
    """Keywords cannot find it (no word of the question is in the clause); the clause-type ranking, fused
    with the keywords, puts it first, and the hit says so."""
    r = ClauseRetriever(contract)
    hit = r.search(question, top=3)[0]
    assert clause in hit.text
    own_words = set(expand_query(question, []).user_terms)
    assert not own_words & r._index.term_sets[[u.id for u in r.units].index(hit.id)]
    assert any(w.startswith("ranked by: reciprocal rank fusion of keywords, clause type (×") for w in hit.why)


def test_where_no_passage_is_read_as_the_type_the_fusion_ranks(contract: Document) -> None:
    """Read as a clause type this contract does not have (liquidated damages): nothing is placed ahead of
    the fusion, and the keywords of the question still find their clause."""
    bridges = load_bridges({"liquidated-damages": {"when": ["widget"], "means": ["zzz"]}}, base=False)
    r = ClauseRetriever(contract, bridges=bridges, clause_types=QuestionTypes(None, {}))
    hits = r.search("widget charges invoice?", top=5)
    assert "valid invoice" in hits[0].text
    assert all(any(w.startswith("ranked by: reciprocal rank fusion") for w in h.why) for h in hits)
    assert not any(w.startswith("ranked by: clause type") for h in hits for w in h.why)


def test_the_clause_type_weighs_by_whether_the_locator_sees_that_type_here(contract: Document) -> None:
    """The clause-type ranking counts for more than the keywords where the locator sees a clause of the
    question's type in the document (insurance: section 4) and for less where it sees none (liquidated
    damages: this contract has no such clause, so the locator's order of its passages is noise); each hit
    says the weight it was fused with."""
    bridges = load_bridges(
        {
            "insurance": {"when": ["cover"], "means": ["zzz"]},
            "liquidated-damages": {"when": ["widget"], "means": ["zzz"]},
        },
        base=False,
    )
    r = ClauseRetriever(contract, bridges=bridges, clause_types=QuestionTypes(None, {}))
    assert r.clause_types is not None
    seen = r.clause_types.types("cover?", bridges.fire("cover?"))
    unseen = r.clause_types.types("widget?", bridges.fire("widget?"))
    assert [t.category for t in seen] == ["Insurance"] and [t.category for t in unseen] == [
        "Liquidated Damages"
    ]
    assert r.clause_type_weight(seen) > 2.0 > 1.0 > r.clause_type_weight(unseen) >= 0.5
    hits = r.search("widget charges invoice?", top=3)
    assert "valid invoice" in hits[0].text  # the keywords decide where the type is not seen
    assert any(
        w.startswith("ranked by: reciprocal rank fusion of keywords, clause type (×0.") for w in hits[0].why
    )


@pytest.mark.data
def test_the_question_benchmark_reads_any_question_file(shared_data: Path, tmp_path: Path) -> None:
    """`--questions FILE`: the same shape as the shipped set; each line says which ranker answered."""
    path = tmp_path / "q.yaml"
    path.write_text(
        '- {contract: cuad_000, category: "Governing Law", question: "whose courts and rules apply?"}\n',
        encoding="utf-8",
    )
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ask_questions.py"), "--questions", str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    assert "q.yaml: 1 questions, recall@3" in out
    assert "[Governing Law]" in out
    assert "answered by (right hits of the default):" in out
