"""Constrained reranking: an outside model may reorder candidates, never add or bury one.

The response must be JSON of exactly this shape: `[{"id": "<a candidate id>", "relevance": 0..1}, …]`.
- an id that is not a candidate is discarded (a model cannot introduce a clause, so it cannot
  introduce text);
- candidates the response leaves out are appended after the ranked ones, in their original order
  (a model cannot bury a clause by omitting it);
- any other field, anywhere, rejects the whole response: the type has nowhere for a summary or an
  interpretation to live;
- a response that is not JSON, or not that shape, is rejected with a clear error and the original order
  is kept.

A prompt is a request; this parser is the guarantee.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, RootModel, StrictStr, ValidationError

from playbooks.errors import PlaybookError

T = TypeVar("T")


class RerankError(PlaybookError):
    """A reranker response that is not a JSON list of {"id", "relevance"} objects."""


class RerankItem(BaseModel):
    """One entry of a reranker's answer: a candidate id and a relevance between 0 and 1."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: StrictStr
    relevance: float = Field(ge=0.0, le=1.0, allow_inf_nan=False)


class _Response(RootModel[list[RerankItem]]):
    pass


def parse_rerank_response(
    response: str | bytes | object, *, source: str = "rerank response"
) -> list[RerankItem]:
    """Validate a reranker's answer (JSON text or already-parsed data); raise RerankError naming the path."""
    data: object = response
    if isinstance(response, bytes | str):
        text = response.decode("utf-8", errors="replace") if isinstance(response, bytes) else response
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            got = text.strip()[:40] or "an empty response"
            raise RerankError(
                f"{source}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno}); "
                f'expected a list like [{{"id": "<result id>", "relevance": 0.9}}], got {got!r}'
            ) from None
    try:
        return _Response.model_validate(data).root
    except ValidationError as exc:
        err = exc.errors()[0]
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"])
        what = "field not allowed" if err["type"] == "extra_forbidden" else err["msg"]
        raise RerankError(
            f'{source}: {path or "response"}: {what} (expected a list of {{"id", "relevance"}} objects '
            "and nothing else)"
        ) from None


@dataclass(frozen=True, slots=True, kw_only=True)
class RerankOutcome(Generic[T]):
    """The candidates in their new order, and what the parser did to get there."""

    order: tuple[T, ...]
    applied: bool  # False when the response was rejected and the original order kept
    error: str | None = None
    discarded: tuple[str, ...] = ()  # ids the response invented (not candidates)
    appended: tuple[str, ...] = ()  # candidates the response left out, appended in original order
    relevance: tuple[tuple[str, float], ...] = ()  # (id, relevance) as accepted, in the new order


def rerank(
    candidates: Sequence[T],
    response: str | bytes | object,
    *,
    id_of: Callable[[T], str] = lambda c: str(c.id),  # type: ignore[attr-defined]
    source: str = "rerank response",
) -> RerankOutcome[T]:
    """Reorder `candidates` by a reranker's response; never raises for a bad response.

    Ranked candidates come first, by relevance (highest first; ties keep the response's order), then
    the candidates it omitted in their original order. A rejected response keeps the original order
    and carries the error.
    """
    original = tuple(candidates)
    try:
        items = parse_rerank_response(response, source=source)
    except RerankError as exc:
        return RerankOutcome(order=original, applied=False, error=str(exc))
    by_id = {id_of(c): c for c in original}
    discarded: list[str] = []
    accepted: dict[str, float] = {}
    for item in items:
        if item.id not in by_id:
            discarded.append(item.id)
        elif item.id not in accepted:  # a repeated id keeps its first relevance
            accepted[item.id] = item.relevance
    ranked = sorted(accepted, key=lambda i: -accepted[i])  # stable: ties keep the response's order
    omitted = [id_of(c) for c in original if id_of(c) not in accepted]
    return RerankOutcome(
        order=tuple(by_id[i] for i in ranked + omitted),
        applied=True,
        discarded=tuple(dict.fromkeys(discarded)),
        appended=tuple(omitted),
        relevance=tuple((i, accepted[i]) for i in ranked),
    )
