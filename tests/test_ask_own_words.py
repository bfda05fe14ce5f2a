"""`ask` reads a question as clause types without the words that name the document itself — its parties,
defined terms and title — and weighs the clause-type ranking by how confident that reading is."""

from __future__ import annotations

import hashlib

import pytest

from ingest.document import Document
from ingest.sections import detect_sections
from playbooks.bridges import load_bridges
from playbooks.locator.questions import QuestionTypes, load_question_types
from playbooks.retrieve import CLAUSE_TYPE_CONFIDENCE_FLOOR, ClauseRetriever

# the parties' names hold clause words ("Insurance", "Royalty") and the title another ("Escrow")
CONTRACT = """SOFTWARE HOSTING AND ESCROW AGREEMENT

This Software Hosting and Escrow Agreement (the "Agreement") is made and entered into as of May 1, 2024 by
and between Contoso Insurance Ltd., a Delaware corporation ("Contoso"), and Northwind Royalty Partners LLC,
a Texas limited liability company ("Northwind").

1. Definitions

1.1 "Hosted Platform" means the claims platform hosted by Northwind for Contoso.
1.2 "Term" means the period set out in Section 6.

2. Hosting

2.1 Northwind shall host the Hosted Platform and keep it available 99.5% of each month.

3. Fees

3.1 Contoso shall pay Northwind the fees in Schedule 1 within 30 days of each invoice.

4. Ending the Agreement

4.1 Either party may end this Agreement at any time on 30 days' written notice to the other, without
giving a reason.

5. Cover

5.1 Northwind shall maintain professional indemnity insurance of not less than $5,000,000 for each claim.

6. Duration

6.1 This Agreement continues for three years from its date.

7. Governing Law

7.1 This Agreement is governed by the laws of the State of New York.
"""


@pytest.fixture(scope="module")
def retriever() -> ClauseRetriever:
    doc = Document(
        name="hosting.txt",
        file_type="txt",
        text=CONTRACT,
        source_sha256=hashlib.sha256(CONTRACT.encode()).hexdigest(),
        sections=tuple(detect_sections(CONTRACT).sections),
    )
    return ClauseRetriever(doc, clause_types=load_question_types())


def test_a_question_naming_the_parties_and_the_deal_is_read_without_those_words(
    retriever: ClauseRetriever,
) -> None:
    """Read by meaning and bridges with the parties' names, "Contoso Insurance" makes it a question about
    insurance; read without them (and without the deal's own word "hosting") it is what it asks: walking
    away at will."""
    question = (
        "Can Contoso Insurance walk away from the hosting deal with Northwind Royalty whenever it likes?"
    )
    assert retriever.clause_types is not None
    unframed = load_question_types(frames=False)
    whole = unframed.types(question, retriever.bridges.fire(question))
    assert whole[0].category == "Insurance"
    assert retriever.own_words().without(question) == "Can walk away from the deal with whenever it likes?"
    reading = retriever.read_question(question)
    assert reading.types[0].category == "Termination for Convenience"
    hit = retriever.search(question, top=3)[0]
    assert hit.text.startswith("4.1 Either party may end this Agreement at any time")
    (line,) = [w for w in hit.why if w.startswith("clause type:")]
    assert "'Termination for Convenience'" in line
    assert (
        "without the document's own words 'Contoso', 'Insurance', 'hosting', 'Northwind', 'Royalty'" in line
    )


def test_a_clause_word_stays_unless_the_question_names_the_party_it_belongs_to(
    retriever: ClauseRetriever,
) -> None:
    """ "insurance" alone asks about insurance, though a party's name holds the word; defined terms and
    title words that describe clause types ("Term", "Escrow"; "Platform", a word the question frames read
    with "use" as a licence) stay too, the others go."""
    own = retriever.own_words()
    assert own.without("What insurance must Northwind hold?") == "What insurance must hold?"
    assert retriever.read_question("What insurance must Northwind hold?").types[0].category == "Insurance"
    assert {"hosted", "hosting"} <= own.words
    assert not {"term", "escrow", "software", "platform"} & own.words
    assert own.without("Contoso?") == "Contoso?"  # nothing would be left: the question as asked


def test_the_clause_type_weight_follows_the_confidence_of_the_reading(retriever: ClauseRetriever) -> None:
    """A reading whose kept types stand clear of the rest is confident (1); one tied with a type it left
    out is not (0), and the clause-type ranking then weighs less, down to the floor's share of what the
    locator's sight of the type gives; each hit says the confidence."""
    bridges = load_bridges(
        {
            "insurance": {"when": ["cover"], "means": ["zzz"]},
            "governing-law": {"when": ["widget"], "means": ["zzz"]},
        },
        base=False,
    )
    types = QuestionTypes(None, {})
    clear = types.read("cover?", bridges.fire("cover?"))
    tied = types.read("cover widget?", bridges.fire("cover widget?"), k=1)
    assert [t.category for t in clear.types] == ["Insurance"] and clear.confidence == 1.0
    assert len(tied.types) == 1 and tied.confidence == 0.0
    sure = retriever.clause_type_weight(clear.types, clear.confidence)
    unsure = retriever.clause_type_weight(clear.types, 0.0)
    floor = retriever.clause_type_weight(clear.types, 1.0) - retriever.clause_type_weight([], 1.0)
    assert sure > unsure > 0.5
    assert unsure - retriever.clause_type_weight([], 1.0) == pytest.approx(
        floor * CLAUSE_TYPE_CONFIDENCE_FLOOR
    )
    weak = load_question_types().read("What does section two say?")
    assert 0.0 < weak.confidence < 1.0  # no type scores a bridge's vote and none stands clear
    hit = retriever.search("What does section two say?", top=1)[0]
    assert any(", confidence 0." in w for w in hit.why if w.startswith("clause type:"))
