"""Clause retrieval: units, bridges and their weighting, rank fusion, the definitional down-rank,
the confidence penalty without meaning-based ranking (the clause-type reading), and the issue's two
plain-language questions."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.document import Document
from ingest.sections import detect_sections
from playbooks.bridges import BridgeError, expand_query, load_bridges
from playbooks.retrieve import (
    NO_SEMANTIC_PENALTY,
    ClauseRetriever,
    is_definitional,
    reciprocal_rank_fusion,
)
from playbooks.units import MAX_UNIT_CHARS, build_units


def make_doc(text: str, name: str = "msa.txt") -> Document:
    """A Document read the way plain-text ingest reads one (sections from the real detector)."""
    return Document(
        name=name,
        file_type="txt",
        text=text,
        source_sha256=hashlib.sha256(text.encode()).hexdigest(),
        sections=tuple(detect_sections(text).sections),
    )


MSA = """MASTER SERVICES AGREEMENT

This Agreement is made between Northwind Ltd ("Customer") and Contoso Ltd ("Supplier").

1. Definitions

1.1 "Affiliate" means any entity that controls, is controlled by or is under common control with a party.

1.2 "Fees" means the charges set out in Schedule 1.

2. Services

2.1 The Supplier shall provide the Services with reasonable skill and care.

2.2 The Customer may assign this Agreement to an Affiliate without consent.

3. Fees and Payment

3.1 The Customer shall pay each invoice within 30 days of receipt.

3.2 Fees may be adjusted annually by no more than CPI.

4. Limitation of Liability

4.1 The aggregate liability of the Supplier shall not exceed the Fees paid in the twelve months
before the claim.

4.2 Neither party is liable for indirect or consequential loss.

5. Term and Termination

5.1 This Agreement starts on the Effective Date and continues for three years.

5.2 Either party may terminate this Agreement for convenience on 90 days' written notice.

6. Governing Law

6.1 This Agreement is governed by the laws of England and Wales.
"""


@pytest.fixture(scope="module")
def msa() -> Document:
    return make_doc(MSA)


# ── the questions ──────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("can they put the price up?", "Fees may be adjusted annually by no more than CPI"),
        ("how much can we claim if it goes wrong?", "aggregate liability of the Supplier shall not exceed"),
        ("can we get out of the deal early?", "terminate this Agreement for convenience"),
        ("which country's law applies to this deal?", "governed by the laws of England"),
    ],
    ids=[
        "price-up-finds-cpi",
        "claim-finds-liability-cap",
        "get-out-finds-convenience",
        "law-finds-governing",
    ],
)
def test_plain_questions_find_contract_vocabulary(msa: Document, question: str, expected: str) -> None:
    """A question sharing no words with the clause finds it first, through a bridge."""
    hits = ClauseRetriever(msa).search(question, top=3)
    assert expected in hits[0].text
    assert any(w.startswith("bridge '") for w in hits[0].why)


def test_hit_text_is_the_documents_own_text(msa: Document) -> None:
    """Every hit's text is the canonical text at its offsets, and ids are unique."""
    hits = ClauseRetriever(msa).search("notice to terminate", top=10)
    for h in hits:
        assert msa.text[h.start : h.end] == h.text
    assert len({h.id for h in hits}) == len(hits)


# ── bridges ────────────────────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("question", "fires", "silent"),
    [
        ("can they put the price up?", {"price-increase"}, set()),
        ("how much can we claim if it goes wrong?", {"liability-cap"}, {"payment"}),
        ("which country's law applies?", {"governing-law"}, set()),
        ("the Supplier shall provide the Services", set(), set()),
    ],
    ids=["price-up", "longer-phrase-wins-over-nested-how-much", "law", "contract-words-fire-nothing"],
)
def test_bridges_fire(question: str, fires: set[str], silent: set[str]) -> None:
    """A bridge fires on its plain phrasing; one nested inside a longer fired phrase stays off."""
    fired = {f.bridge.name for f in load_bridges().fire(question)}
    assert fires <= fired
    assert not (silent & fired)
    if not fires:
        assert fired == set()


def test_expansion_weighs_the_askers_words_more() -> None:
    """The asker's words weigh 1.0, words only a bridge adds weigh less, and a shared word stays 1.0."""
    bridges = load_bridges({"gadget": {"when": ["widget"], "means": ["sprocket", "widget"]}}, base=False)
    fired = bridges.fire("where is the widget clause?")
    q = expand_query("where is the widget clause?", fired)
    assert q.weights["widget"] == 1.0
    assert 0 < q.weights["sprocket"] < 1.0
    assert "sprocket" in q.bridge_terms["gadget"] and "widget" not in q.bridge_terms["gadget"]


def test_own_words_outrank_bridge_words() -> None:
    """Two equal clauses, one with the asker's word and one with the bridged word: the asker's wins."""
    text = (
        "1. Alpha\n\nThe sprocket is blue.\n\n2. Beta\n\nThe widget is blue.\n\n"
        "3. Gamma\n\nNothing.\n\n4. Delta\n\nNone.\n"
    )
    bridges = load_bridges({"gadget": {"when": ["widget"], "means": ["sprocket"]}}, base=False)
    hits = ClauseRetriever(make_doc(text), bridges=bridges).search("widget?", top=2)
    assert "widget" in hits[0].text and "sprocket" in hits[1].text
    assert any("bridge 'gadget' (from 'widget')" in w for w in hits[1].why)


def test_playbook_bridges_extend_the_shipped_table() -> None:
    """A playbook's bridges: same name extends, new name adds; shipped ones stay."""
    base = load_bridges()
    extra = load_bridges(
        {
            "price-increase": {"when": ["dearer"], "means": ["uplift"]},
            "own": {"when": ["x y"], "means": ["z"]},
        }
    )
    names = [b.name for b in extra.items]
    assert len(extra) == len(base) + 1 and "own" in names
    price = next(b for b in extra.items if b.name == "price-increase")
    assert "dearer" in price.when and "uplift" in price.means and "CPI" in price.means


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"b": {"when": ["x"]}}, "playbook: bridges.b.means: Field required"),
        ({"b": {"when": [], "means": ["y"]}}, "playbook: bridges.b.when"),
        ({"b": {"when": ["x"], "means": ["y"], "weight": 2}}, "playbook: bridges.b.weight: Extra inputs"),
    ],
    ids=["missing-means", "empty-when", "unknown-field"],
)
def test_bad_playbook_bridges_are_refused(extra: dict[str, object], message: str) -> None:
    """A malformed bridges mapping fails naming the field and the expected shape."""
    with pytest.raises(BridgeError) as err:
        load_bridges(extra)
    assert message in str(err.value) and "expected" in str(err.value)


def test_bridges_file_path(tmp_path: Path) -> None:
    """A YAML file with a top-level `bridges:` key loads as an extension."""
    p = tmp_path / "mine.yaml"
    p.write_text("bridges:\n  holiday:\n    when: [time off]\n    means: [annual leave]\n")
    assert "holiday" in {b.name for b in load_bridges(p).items}


# ── rank fusion ────────────────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("rankings", "expected"),
    [
        ([["a", "b", "c"], ["b", "a", "c"]], ["a", "b", "c"]),  # a tie: best rank, then first seen
        ([["a", "b"], ["c", "b"]], ["b", "a", "c"]),  # second in both beats first in one
        ([["a", "b", "c"]], ["a", "b", "c"]),  # one ranking passes through
        ([["a"], ["b", "c", "d", "a"]], ["a", "b", "c", "d"]),  # found by both beats found once
        ([[], ["x", "y"]], ["x", "y"]),  # an empty ranking adds nothing
    ],
    ids=["tie", "agreement-wins", "single", "both-beats-one", "empty"],
)
def test_reciprocal_rank_fusion_order(rankings: list[list[str]], expected: list[str]) -> None:
    """RRF merges by Σ 1/(k + rank), not by adding raw scores."""
    assert [i for i, _ in reciprocal_rank_fusion(rankings)] == expected


def test_rrf_scores() -> None:
    """The fused score is exactly Σ 1/(60 + rank)."""
    fused = dict(reciprocal_rank_fusion([["a", "b"], ["b"]]))
    assert math.isclose(fused["b"], 1 / 62 + 1 / 61) and math.isclose(fused["a"], 1 / 61)


# ── definitions ────────────────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("question", "definitional"),
    [
        ("what does Affiliate mean?", True),
        ("what is the definition of Fees", True),
        ("how is Affiliate defined?", True),
        ("can they assign to an Affiliate?", False),
        ("what is the cap?", False),
    ],
    ids=["what-does-mean", "definition-of", "defined", "assign", "what-is-the-cap"],
)
def test_is_definitional(question: str, definitional: bool) -> None:
    """Only questions about what a term means count as definitional."""
    assert is_definitional(question) is definitional


def test_definitions_ranked_down_unless_asked(msa: Document) -> None:
    """A definition loses to the operative clause, except when the question asks what a term means."""
    r = ClauseRetriever(msa)
    operative = r.search("can they assign to an Affiliate?", top=10)
    assert "assign this Agreement to an Affiliate" in operative[0].text
    down = [h for h in operative if '"Affiliate" means' in h.text]  # below the top 3 once read as assignment
    assert down and down[0].breakdown["definition ranked down"] == -15
    meaning = r.search("what does Affiliate mean?", top=3)
    assert '"Affiliate" means' in meaning[0].text
    assert "definition ranked down" not in meaning[0].breakdown


# ── confidence ─────────────────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("types", "use_semantic", "penalised"),
    [(False, True, True), (True, True, False), (True, False, True)],
    ids=["no-clause-types", "clause-types", "clause-types-switched-off"],
)
def test_penalty_exactly_when_meaning_unavailable(
    msa: Document, monkeypatch: pytest.MonkeyPatch, types: bool, use_semantic: bool, penalised: bool
) -> None:
    """−8, named in the breakdown, on every hit exactly when meaning-based ranking (the question read as
    clause types) is not used."""
    monkeypatch.delenv("CITATIONGATE_NO_SEMANTIC", raising=False)
    r = ClauseRetriever(msa, clause_types="auto" if types else None)
    hits = r.search("what is the most we could get back from them?", top=5, use_semantic=use_semantic)
    assert hits
    for h in hits:
        assert (h.breakdown.get("semantic ranker unavailable") == -NO_SEMANTIC_PENALTY) is penalised
        assert ("meaning" in h.breakdown) is not penalised
        assert sum(h.breakdown.values()) == h.confidence and 0 <= h.confidence <= 100


def test_fusion_reports_both_ranks_and_which_ranked_it(
    msa: Document, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read as a clause type, each hit says its keyword rank, its clause-type rank and what ranked it."""
    monkeypatch.delenv("CITATIONGATE_NO_SEMANTIC", raising=False)
    hit = ClauseRetriever(msa).search("which country's law governs this agreement?", top=1)[0]
    assert "England" in hit.text
    assert any(w.startswith("keywords: rank 1") for w in hit.why)
    assert any(w.startswith("clause type: rank 1") for w in hit.why)
    assert hit.why[-1].startswith("ranked by: reciprocal rank fusion of keywords, clause type (×")
    assert hit.breakdown.get("rankers agree") == 10


def test_clause_types_rank_by_meaning_in_the_default_install(
    msa: Document, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No torch: the question is read as clause types and the locator ranks the units; no penalty, and
    the hit says which ranker answered."""
    monkeypatch.delenv("CITATIONGATE_NO_SEMANTIC", raising=False)  # whatever an earlier test left set
    hit = ClauseRetriever(msa).search("what is the most we could get back from them?", top=1)[0]
    assert "aggregate liability" in hit.text
    assert "semantic ranker unavailable" not in hit.breakdown and hit.breakdown["meaning"] > 0
    assert any(w.startswith("clause type: rank") and "'Cap on Liability'" in w for w in hit.why)


def test_question_types_name_the_clause_type_and_the_bridges_that_voted() -> None:
    from playbooks.bridges import load_bridges
    from playbooks.locator.questions import load_question_types

    question = "can we walk away whenever we want?"
    types = load_question_types().types(question, load_bridges().fire(question))
    assert types[0].category == "Termination for Convenience"
    assert "terminate-convenience" in types[0].bridges
    assert abs(sum(t.weight for t in types) - 1.0) < 1e-6


# ── units ──────────────────────────────────────────────────────────────────────────────────────


def test_units_follow_sections(msa: Document) -> None:
    """Sections become units labelled as printed; heading-only parents are context, not units."""
    units = build_units(msa)
    labels = [u.id for u in units]
    assert "3.2" in labels and "4.1" in labels
    assert "4" not in labels  # "4. Limitation of Liability" alone is a heading
    u = next(u for u in units if u.id == "4.1")
    assert "Limitation of Liability" in u.context


def test_few_sections_read_as_paragraphs() -> None:
    """A document with no numbering is cut into paragraphs, each verbatim."""
    text = "\n\n".join(f"Paragraph {i} says something about topic {i} at some length. " * 4 for i in range(8))
    doc = make_doc(text)
    units = build_units(doc)
    assert len(units) > 1 and all(u.kind == "paragraph" and u.label.startswith("¶") for u in units)


def test_long_section_is_split() -> None:
    """A section longer than the unit limit is split, and the pieces keep its label."""
    body = "\n\n".join(f"The Supplier shall do a thing number {i} with care and skill." for i in range(80))
    text = f"1. Scope\n\n{body}\n\n2. Fees\n\nFees.\n\n3. Term\n\nTerm.\n\n4. Law\n\nLaw.\n"
    units = build_units(make_doc(text))
    scope = [u for u in units if u.label == "1"]
    assert len(scope) > 1 and all(u.end - u.start <= MAX_UNIT_CHARS for u in scope)
    assert len({u.id for u in units}) == len(units)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "1. ", "2.1 ", "(a) ", "ARTICLE V ", "Schedule 1 "]),
            st.text(alphabet="abc de\n.", min_size=0, max_size=300),
        ),
        min_size=1,
        max_size=25,
    )
)
def test_units_never_overlap_and_are_verbatim(parts: list[tuple[str, str]]) -> None:
    """Units are disjoint, in order, inside the text, non-empty and trimmed."""
    text = "\n".join(label + body for label, body in parts)
    doc = make_doc(text)
    units = build_units(doc)
    last_end = 0
    for u in units:
        assert last_end <= u.start < u.end <= len(text)
        assert not text[u.start].isspace() and not text[u.end - 1].isspace()
        last_end = u.end


def test_several_documents_prefix_ids() -> None:
    """Searching several documents keeps ids unique by prefix and names each hit's document."""
    a, b = make_doc(MSA, "a.txt"), make_doc(MSA.replace("England and Wales", "Ireland"), "b.txt")
    hits = ClauseRetriever([a, b], prefixes=["v1:", "v2:"]).search("governing law", top=2)
    assert {h.id.split(":")[0] for h in hits} == {"v1", "v2"}
    assert {h.document for h in hits} == {"a.txt", "b.txt"}


def test_empty_document_finds_nothing() -> None:
    """A document with no text yields no hits rather than an error."""
    assert ClauseRetriever(make_doc("   \n")).search("anything?") == []


@pytest.mark.data
def test_cuad_evaluation_runs(shared_data: Path) -> None:
    """The CUAD evaluation runs over a few real contracts and reports every mode."""
    from citationgate.evaluation.retrieval_eval import QUESTIONS, evaluate_retrieval

    result = evaluate_retrieval(shared_data, limit=3)
    assert result["contracts"] == 3 and len(result["categories"]) == len(QUESTIONS)
    law = next(c for c in result["categories"] if c["category"] == "Governing Law")
    assert law["bridges"] is not None and set(result["modes"]) == {"keywords", "bridges"}


def test_semantic_off_switch(msa: Document, monkeypatch: pytest.MonkeyPatch) -> None:
    """CITATIONGATE_NO_SEMANTIC=1 turns the clause-type reading off; the penalty then shows on every hit."""
    monkeypatch.setenv("CITATIONGATE_NO_SEMANTIC", "1")
    retriever = ClauseRetriever(msa)
    assert retriever.clause_types is None
    hits = retriever.search("governing law", top=2)
    assert all(h.breakdown["semantic ranker unavailable"] == -NO_SEMANTIC_PENALTY for h in hits)
