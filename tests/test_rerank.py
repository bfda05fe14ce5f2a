"""Constrained reranking: an outside model can reorder the candidates, never add, bury or annotate."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playbooks.rerank import RerankError, parse_rerank_response, rerank


@dataclass(frozen=True)
class Cand:
    id: str


CANDS = [Cand("4.1"), Cand("3.2"), Cand("2.1"), Cand("6.1")]


def ids(xs: tuple[Cand, ...]) -> list[str]:
    return [c.id for c in xs]


@pytest.mark.parametrize(
    ("response", "order", "discarded", "appended"),
    [
        (
            [
                {"id": "2.1", "relevance": 0.9},
                {"id": "4.1", "relevance": 0.5},
                {"id": "3.2", "relevance": 0.7},
                {"id": "6.1", "relevance": 0.1},
            ],
            ["2.1", "3.2", "4.1", "6.1"],
            [],
            [],
        ),
        (
            [{"id": "9.9", "relevance": 1.0}, {"id": "6.1", "relevance": 0.8}],
            ["6.1", "4.1", "3.2", "2.1"],
            ["9.9"],
            ["4.1", "3.2", "2.1"],
        ),
        ([{"id": "3.2", "relevance": 0.2}], ["3.2", "4.1", "2.1", "6.1"], [], ["4.1", "2.1", "6.1"]),
        ([], ["4.1", "3.2", "2.1", "6.1"], [], ["4.1", "3.2", "2.1", "6.1"]),
        (
            [
                {"id": "2.1", "relevance": 0.5},
                {"id": "6.1", "relevance": 0.5},
                {"id": "2.1", "relevance": 0.0},
            ],
            ["2.1", "6.1", "4.1", "3.2"],
            [],
            ["4.1", "3.2"],
        ),
    ],
    ids=[
        "full-reorder",
        "invented-id-discarded",
        "omitted-appended-in-order",
        "empty-list",
        "ties-and-repeats",
    ],
)
def test_rerank_orders(
    response: list[dict[str, object]], order: list[str], discarded: list[str], appended: list[str]
) -> None:
    """Known ids by relevance; invented ids dropped; omitted candidates appended in original order."""
    out = rerank(CANDS, json.dumps(response))
    assert out.applied and out.error is None
    assert ids(out.order) == order
    assert list(out.discarded) == discarded and list(out.appended) == appended


@pytest.mark.parametrize(
    ("response", "message"),
    [
        ("The best clause is 4.1.", "not JSON"),
        ("", "not JSON"),
        (
            '[{"id": "4.1", "relevance": 0.9, "summary": "caps liability at fees paid"}]',
            "[0].summary: field not allowed",
        ),
        (
            '{"results": [{"id": "4.1", "relevance": 0.9}], "summary": "x"}',
            "response: Input should be a valid list",
        ),
        ('[{"id": "4.1", "relevance": 1.5}]', "[0].relevance: Input should be less than or equal to 1"),
        ('[{"id": 41, "relevance": 0.5}]', "[0].id: Input should be a valid string"),
        ('[{"id": "4.1"}]', "[0].relevance: Field required"),
        ('[{"id": "4.1", "relevance": NaN}]', "[0].relevance"),
    ],
    ids=[
        "prose",
        "empty",
        "summary-field",
        "wrapped-object",
        "relevance-range",
        "id-not-string",
        "no-relevance",
        "nan",
    ],
)
def test_rejected_responses_keep_the_original_order(response: str, message: str) -> None:
    """Anything but the exact shape is rejected with a clear error, and the original order kept."""
    out = rerank(CANDS, response, source="model.json")
    assert not out.applied
    assert out.error is not None and out.error.startswith("model.json: ") and message in out.error
    assert ids(out.order) == ids(tuple(CANDS))
    with pytest.raises(RerankError):
        parse_rerank_response(response)


def test_parsed_data_is_accepted() -> None:
    """Already-parsed JSON (a list of dicts) is validated the same way."""
    items = parse_rerank_response([{"id": "a", "relevance": 0.5}])
    assert items[0].id == "a" and items[0].relevance == 0.5


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {"id": st.sampled_from(["4.1", "3.2", "2.1", "6.1", "x", "7"]), "relevance": st.floats(0, 1)}
        ),
        max_size=8,
    )
)
def test_rerank_is_a_permutation(response: list[dict[str, object]]) -> None:
    """Whatever a valid response says, the output is exactly the candidates, each once."""
    out = rerank(CANDS, json.dumps(response))
    assert sorted(ids(out.order)) == sorted(ids(tuple(CANDS)))
