"""A plainly valid quote proposal is read without pydantic (`proposals._plain_proposal`); everything else is
validated by the models of `citationgate.schemas`. The direct reading must assume exactly the models'
shape, give the same value wherever it reads one, and leave every invalid proposal to the models (which
word the error)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from citationgate import proposals
from citationgate.errors import ProposalError
from citationgate.proposals import parse_citations, parse_proposals
from citationgate.schemas import CitationIn, QuoteProposalIn
from citationgate.untrusted import MAX_QUOTE_CHARS


def test_the_direct_reading_assumes_the_models_own_shape() -> None:
    """Keys, required keys, types and bounds as the direct reading checks them = the models' JSON Schema."""
    quote = QuoteProposalIn.model_json_schema()
    cite = quote["$defs"]["CitationIn"]
    assert set(quote["properties"]) == proposals.QUOTE_PROPOSAL_KEYS
    assert set(cite["properties"]) == proposals.CITATION_KEYS
    assert set(quote["required"]) == {"id", "claim", "citations"}
    assert set(cite["required"]) == {"quote"}
    assert quote["additionalProperties"] is False and cite["additionalProperties"] is False
    for name in ("id", "claim"):
        assert quote["properties"][name] == {**quote["properties"][name], "type": "string", "minLength": 1}
    for name in ("rule", "severity"):
        assert [t["type"] for t in quote["properties"][name]["anyOf"]] == ["string", "null"]
    assert cite["properties"]["quote"]["type"] == "string"
    assert cite["properties"]["quote"]["maxLength"] == MAX_QUOTE_CHARS
    assert "minLength" not in cite["properties"]["quote"]
    assert [t["type"] for t in cite["properties"]["section"]["anyOf"]] == ["string", "null"]
    for name, low in (("page", 1), ("near", 0)):
        assert cite["properties"][name]["anyOf"] == [{"minimum": low, "type": "integer"}, {"type": "null"}]
    assert QuoteProposalIn.model_config.get("strict") and CitationIn.model_config.get("strict")


def _models(item: Any) -> Any:
    """What the models make of one quote proposal: the Proposal, or None when they reject it."""
    try:
        return proposals._to_proposal(QuoteProposalIn.model_validate(item))
    except ValidationError:
        return None


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([2**63 - 1, 2**63, 2**70, -(2**70)]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.just(""),
    st.text(max_size=6),
    st.sampled_from(["\ud800", "a\udfffb", "\x00", "é", "😀"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner, max_size=2),
    max_leaves=6,
)
QUOTES = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["x" * MAX_QUOTE_CHARS, "x" * (MAX_QUOTE_CHARS + 1), "é" * MAX_QUOTE_CHARS]),
    VALUES,
)
CITATIONS = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "quote": QUOTES,
            "section": st.one_of(st.none(), st.text(max_size=5), VALUES),
            "page": st.one_of(st.none(), st.integers(-2, 5), VALUES),
            "near": st.one_of(st.none(), st.integers(-2, 5), VALUES),
            "other": VALUES,
        },
    ),
    VALUES,
)
PROPOSALS = st.fixed_dictionaries(
    {},
    optional={
        "id": st.one_of(st.text(max_size=4), VALUES),
        "claim": st.one_of(st.text(max_size=4), VALUES),
        "rule": st.one_of(st.none(), st.text(max_size=4), VALUES),
        "severity": st.one_of(st.none(), st.text(max_size=4), VALUES),
        "citations": st.one_of(st.lists(CITATIONS, max_size=3), VALUES),
        "absence": VALUES,
        "extra": VALUES,
    },
)


@settings(max_examples=300, deadline=None)
@given(PROPOSALS)
def test_the_direct_reading_agrees_with_the_models(item: dict[str, Any]) -> None:
    plain = proposals._plain_proposal(item)
    if plain is not None:
        assert plain == _models(item)


@settings(max_examples=300, deadline=None)
@given(CITATIONS)
def test_a_citation_read_directly_is_the_models_citation(item: Any) -> None:
    plain = proposals._plain_citation(item)
    if plain is not None:
        c = CitationIn.model_validate(item)
        assert (plain.quote, plain.section, plain.page, plain.near) == (c.quote, c.section, c.page, c.near)


VALID = [
    {"id": "p1", "claim": "c", "citations": [{"quote": "The Supplier shall pay."}]},
    {"id": "p1", "claim": "c", "rule": None, "severity": "high", "citations": []},
    {"id": "p1", "claim": "c", "citations": [{"quote": "q" * 12, "section": "11.2", "page": 1, "near": 0}]},
    {"id": "é", "claim": "😀", "citations": [{"quote": "x" * MAX_QUOTE_CHARS, "section": None}]},
]


@pytest.mark.parametrize("item", VALID, ids=range(len(VALID)))
def test_plainly_valid_proposals_are_read_directly(item: dict[str, Any]) -> None:
    assert proposals._plain_proposal(item) == _models(item) is not None


INVALID = [  # each is left to the models, whose error names the JSON path
    ({"id": "", "claim": "c", "citations": []}, "proposals[0].id: string should have at least 1 character"),
    ({"id": "p", "claim": "c"}, "proposals[0].citations: field required"),
    ({"id": "p", "claim": "c", "citations": [], "x": 1}, "proposals[0].x: unknown field"),
    ({"id": True, "claim": "c", "citations": []}, "proposals[0].id: input should be a valid string"),
    (
        {"id": "p", "claim": "c", "citations": [{"quote": "q", "page": 0}]},
        "citations[0].page: input should be",
    ),
    (
        {"id": "p", "claim": "c", "citations": [{"quote": "q", "page": True}]},
        "citations[0].page: input should",
    ),
    (
        {"id": "p", "claim": "c", "citations": [{"quote": "q", "near": -1}]},
        "citations[0].near: input should be",
    ),
    ({"id": "p", "claim": "c", "citations": [{"quote": "x" * (MAX_QUOTE_CHARS + 1)}]}, "citations[0].quote"),
    ({"id": "p", "claim": "c", "citations": [{"quote": "q", "section": 3}]}, "citations[0].section: input"),
    ({"id": "p", "claim": "c", "citations": [{}]}, "proposals[0].citations[0].quote: field required"),
    ({"id": "p", "claim": "c", "citations": ["q"]}, "proposals[0].citations[0]: input should be"),
]


@pytest.mark.parametrize(("item", "error"), INVALID, ids=range(len(INVALID)))
def test_invalid_proposals_get_the_models_error(item: dict[str, Any], error: str) -> None:
    assert proposals._plain_proposal(item) is None
    with pytest.raises(ProposalError) as got:
        parse_proposals({"proposals": [item]}, source="p.json")
    assert str(got.value).startswith("p.json: ")
    assert error in str(got.value)


def test_duplicate_ids_and_absences_across_both_readings() -> None:
    absence = {"id": "a", "claim": "c", "absence": {"requirement": "law", "searched": ["law"]}}
    plain = {"id": "a", "claim": "c", "citations": [{"quote": "The Supplier shall pay."}]}
    got = parse_proposals({"proposals": [plain, {**absence, "id": "b"}]})
    assert [p.id for p in got] == ["a", "b"] and got[1].absence is not None
    with pytest.raises(
        ProposalError, match=r"proposals\[1\]\.id: duplicate id 'a' \(first used by proposals\[0\]\)"
    ):
        parse_proposals({"proposals": [plain, absence]})


def test_bare_citations_read_directly_or_by_the_model() -> None:
    got = parse_citations([{"quote": "The Supplier shall pay.", "near": 3}, {"quote": "x" * 12, "page": 2}])
    assert [(c.quote, c.near, c.page) for c in got] == [
        ("The Supplier shall pay.", 3, None),
        ("x" * 12, None, 2),
    ]
    with pytest.raises(ProposalError, match=r"^quotes: quotes\[1\]\.page: input should be greater than"):
        parse_citations([{"quote": "fine"}, {"quote": "q", "page": 0}])


def test_reading_plain_proposals_imports_no_pydantic() -> None:
    code = (
        "import json, sys\n"
        "from citationgate.proposals import parse_proposals\n"
        "items = json.loads(sys.stdin.read())\n"
        "print(len(parse_proposals(items)), 'pydantic' in sys.modules)\n"
    )
    data = {
        "proposals": [{"id": f"p{i}", "claim": "c", "citations": [{"quote": "q" * 20}]} for i in range(50)]
    }
    done = subprocess.run(
        [sys.executable, "-c", code], input=json.dumps(data), capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["50", "False"]
