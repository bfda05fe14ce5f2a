"""Whether the passage located is the clause: another candidate stating its terms, or an honest absence."""

from __future__ import annotations

import re
from collections.abc import Sequence

from playbooks.engine.about import off_subject
from playbooks.engine.context import (
    _Context,
    _excluded,
    _heading_only,
    _heading_words_in_body,
    _passage_hits,
    _Region,
    _Value,
)
from playbooks.engine.decide import _REDACTION, _reads
from playbooks.engine.locate import region_around
from playbooks.engine.reading import _extract_field
from playbooks.locator.fusion import Location
from playbooks.schema import CompiledClause


def _relocate(
    ctx: _Context, clause: CompiledClause, region: _Region, fields: Sequence[str], limit: int = 4
) -> tuple[_Region, dict[str, _Value]] | None:
    """Another candidate passage of the clause that states values the clause is judged by, when the one
    located states none — attorneys' fees are not the payment terms because both say "pay". A candidate is
    the locator's passage over its threshold, or a passage the clause's own patterns hit that the locator
    does not rule out (where the locator sees the clause somewhere in this contract)."""
    excluded = _excluded(ctx, clause)
    hits = _passage_hits(ctx, clause.patterns)
    loc = ctx.locations.get(clause.id)
    t = _threshold(ctx, loc)
    scan = ctx.scan() if t is not None else None
    order: list[tuple[int, str]] = []
    if loc is not None and t is not None:
        order += [(ctx.passages.index_at(c.start), "locator") for c in loc.candidates if c.score >= t]
    for i in sorted(hits, key=lambda i: (-hits[i], i))[:limit]:
        p = ctx.passages.items[i]
        if (
            scan is not None
            and loc is not None
            and loc.category is not None
            and t is not None
            and _sees(loc, t)
        ):
            here = scan.at(loc.category, p.start, p.end)
            if here is None or here.score < 0.5 * t:
                continue
        order.append((i, "pattern"))
    seen = set(region.passages)
    best: tuple[tuple[int, int], _Region, dict[str, _Value]] | None = None
    for i, via in order:
        if i in seen or i in excluded or ctx.passages.items[i].heading or off_subject(ctx, clause, i, hits):
            continue  # not a candidate: a heading, a passage the clause rules out, or another clause's
        cand = region_around(ctx, i, via, excluded, lambda j: hits.get(j, 0) * 2)
        seen.update(cand.passages)
        vals = {f.name: v for f in clause.fields if (v := _extract_field(ctx, cand, f)) is not None}
        # a value read `anywhere` in the contract says nothing of the candidate ("a deposit of …" in another
        # article would make every candidate one that states its terms)
        local = {k: v for k, v in vals.items() if cand.start <= v.scope[0] < cand.end}
        n = (_reads(local, fields), _reads(local, list(local)))
        if n[0] and (best is None or n > best[0]):
            best = (n, cand, vals)
    return (best[1], best[2]) if best else None


def _sees(loc: Location, t: float) -> bool:
    """Whether the locator sees a clause of its category anywhere in this contract (a passage over its
    threshold); where it sees none, its low scores say nothing about the passages the rules found."""
    return any(c.score >= t for c in loc.candidates)


def _unconfirmed(ctx: _Context, clause: CompiledClause, region: _Region) -> str | None:
    """Why the region located is not the clause, when nothing vouches for it: it states none of the clause's
    values, no pattern of the clause hits it (or only a heading word put it there), and the locator neither
    rates it nor sees the clause anywhere else."""
    weights = [region.weights.get(i, 0) for i in region.passages]
    heading_only = region.via == "heading" and not any(weights)
    if heading_only and _redacted_body(ctx, region):
        return None  # "9.4 Limitation of Liability. [***].": the clause is there, its words withheld
    loc = ctx.locations.get(clause.id)
    t = _threshold(ctx, loc)
    sees = loc is not None and t is not None and _sees(loc, t)
    if (
        heading_only
        and clause.patterns
        and not sees
        and not _passage_hits(ctx, clause.patterns)
        and not set(_passage_hits(ctx, clause.hints)) & set(region.passages)
    ):
        return (
            "found by its heading alone; it states none of the terms the clause is judged by, and none of "
            "the clause's wording occurs anywhere in the contract"
        )
    if loc is not None and loc.locator_score is not None and t is not None:
        if clause.model.locate.category_is_part:
            return None  # the locator reads a part of the clause (a warranty's duration): silent on the rest
        vouched = (region.via == "heading" and any(weights)) or max(weights, default=0) >= 4
        if not vouched and not _sees(loc, t) and loc.locator_score < 0.25 * t:
            return (
                f"it states none of the terms the clause is judged by, and the locator rates it "
                f"{loc.locator_score:.2f} against its threshold {t:.2f} for {loc.category}"
            )
        return None
    if heading_only and not _heading_words_in_body(ctx, clause, region):
        return "found by a heading word alone; it states none of the terms the clause is judged by"
    return None


def _redacted_body(ctx: _Context, region: _Region) -> bool:
    """Whether the text under the region's heading is withheld: its first sentence is a redaction mark
    ("[***]") and little else (what follows may be a page's furniture or the filing's legend)."""
    items = ctx.passages.items
    body = [
        i
        for i in region.passages
        if not items[i].heading and not _heading_only(ctx.text[items[i].start : items[i].end])
    ]
    if not body:
        return False
    first = ctx.text[items[body[0]].start : items[body[0]].end]
    if not _REDACTION.search(first):
        return False
    return len(re.findall(r"[A-Za-z]{3,}", _REDACTION.sub(" ", first))) <= 6


def _threshold(ctx: _Context, loc: Location | None) -> float | None:
    """The locator's cross-validated threshold for the category `loc` was scored in (None: no locator)."""
    if loc is None or loc.category is None or (scan := ctx.scan()) is None:
        return None
    return scan.locator.threshold(loc.category)
