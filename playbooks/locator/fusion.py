"""Fusing the playbook's own location (headings, patterns) with the locator's ranking of passages.

A clause rule that names a category (`locate: {category: …}`) gets two kinds of candidates: the region its
headings and patterns found, and the locator's best passages for the category. The locator's probability
is put on one scale with its cross-validated threshold (`calibrate`: the threshold maps to 0.5), and:

- a rule region keeps its place unless one of the cases below applies. Confidence is always the mean of
  the rules' evidence for the chosen passage (`RULE_EVIDENCE`; 0 where the rules did not point) and the
  locator's calibrated score for it;
- when the rules found nothing and the locator's best passage reaches the head's take bar (`take_bar`: its
  own, chosen by grouped CV where the rules are silent, or the shared `TAKE`), that passage is the clause
  (`via="locator"`), so a clause worded in no pattern's vocabulary is still read;
- when the rules found a passage the locator rates far below its threshold while another passage of the
  document is well over it, the locator's passage is the clause (the rules matched words, not meaning).

- when the rules' region rests on patterns alone and the locator, over a whole contract (at least
  `DOUBT_MIN_UNITS` units), rates that region and every other passage clearly below its threshold
  (calibrated score under `DOUBTED`), the region stays the clause but is marked `doubted`: the words
  matched and the meaning may not have, so a reader must check it (the engine makes that a weak link).
  The fusion never turns a clause the rules located into an absence: a false "this is missing" costs
  a lawyer more than a false alarm, and the locator's silence is not evidence that the words are not
  there. A short text (a single clause, a playbook test) is never doubted: out of context the locator is
  weakest.

A doubted location makes the finding **present: unconfirmed**: the engine quotes the passage and says it
needs review (never a confident present, never a "missing"), naming the locator's best passage. The engine
also doubts (`doubt`) the findings it already calls uncertain — only weaker language of the clause found
(hints), or a passage under the clause's heading whose operative words it could not read — when the locator,
over a whole contract, reads no passage as a clause of the category (`unseen`: every unit under the head's
threshold). `citationgate eval clauses` counts an unconfirmed presence apart from a present one.

The decision is a `Location`, carried on the outcome and into the review's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from playbooks.locator.model import LocatedPassage, Locator, Scan

__all__ = ["RULE_EVIDENCE", "Location", "best_passage", "calibrate", "doubt", "fuse", "take_bar", "unseen"]

#: how much a rules-only location counts on the 0..1 confidence scale, by how it was found
RULE_EVIDENCE = {"heading": 0.8, "pattern": 0.6}
#: calibrated locator score above which a passage is taken when the rules found nothing (the shared bar:
#: weights that carry each head's own bar, chosen by grouped CV in `playbooks.locator.take`, use theirs)
TAKE = 0.75
#: ... above which it replaces a rules region that the locator rates below `DOUBT`
SWITCH = 0.75
DOUBT = 0.25
#: calibrated score under which a pattern-only region is doubted (documents of DOUBT_MIN_UNITS units or more)
DOUBTED = 0.2
DOUBT_MIN_UNITS = 20


def calibrate(p: float, threshold: float) -> float:
    """A probability on the threshold's scale: 0 → 0, threshold → 0.5, 1 → 1 (piecewise linear)."""
    t = min(max(threshold, 1e-6), 1 - 1e-6)
    return 0.5 * p / t if p < t else 0.5 + 0.5 * (p - t) / (1 - t)


@dataclass(frozen=True, slots=True, kw_only=True)
class Location:
    """How a clause was located, and how sure the engine is that this passage is the clause."""

    confidence: float  # 0..1
    via: str | None  # "heading" | "pattern" | "locator" | None (nothing located)
    category: str | None = None
    locator: str | None = None  # the locator's version
    locator_score: float | None = None  # the category head's probability for the located passage
    locator_rank: int | None = None  # that passage's rank among the document's passages
    candidates: tuple[LocatedPassage, ...] = ()  # the locator's best passages (recorded for absences)
    doubted: bool = False  # present, unconfirmed: the locator reads no such clause anywhere

    def to_dict(self) -> dict[str, Any]:
        return {
            "confidence": round(self.confidence, 3),
            "via": self.via,
            "category": self.category,
            "locator": self.locator,
            "locator_score": None if self.locator_score is None else round(self.locator_score, 4),
            "locator_rank": self.locator_rank,
            "candidates": [c.to_dict() for c in self.candidates],
            "doubted": self.doubted,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """What `fuse` chose: keep the rules' region (or nothing), or take a locator passage instead.
    There is no third choice: a region the rules found is never turned into an absence."""

    take: LocatedPassage | None  # a locator passage that becomes the clause's anchor
    location: Location


def fuse(
    scan: Scan,
    category: str,
    rule_span: tuple[int, int] | None,
    via: str | None,
    *,
    k: int = 3,
    switch: bool = True,
    take: bool = True,
    part: bool = False,
) -> Decision:
    """Decide between the rules' anchor passage `rule_span` (found `via` heading/pattern) and the locator
    (`switch=False`: keep the rules' passage whatever the locator prefers; `take=False`: never take the
    locator's passage where the rules found nothing; `part`: the category is only a part of the clause, so
    the locator reading none never doubts the rules' passage)."""
    loc = scan.locator
    t = loc.threshold(category)
    top = tuple(scan.top(category, k=k))
    best = top[0] if top else None
    best_cal = calibrate(best.score, t) if best else 0.0
    base = Location(confidence=0.0, via=None, category=category, locator=loc.version, candidates=top)
    if rule_span is None or via is None:
        if take and best is not None and best_cal >= take_bar(loc, category):
            return _locators_pick(base, best, best_cal)
        return Decision(take=None, location=base)
    here = scan.at(category, *rule_span)
    here_cal = calibrate(here.score, t) if here else 0.0
    if switch and best is not None and here is not None and here_cal < DOUBT and best_cal >= SWITCH:
        return _locators_pick(base, best, best_cal)
    doubted = (
        not part
        and via == "pattern"
        and len(scan.units) >= DOUBT_MIN_UNITS
        and max(here_cal, best_cal) < DOUBTED
    )
    confidence = (RULE_EVIDENCE.get(via, 0.5) + here_cal) / 2
    return Decision(
        take=None,
        location=replace(
            base,
            confidence=confidence / 2 if doubted else confidence,
            via=via,
            locator_score=here.score if here else None,
            locator_rank=here.rank if here else None,
            doubted=doubted,
        ),
    )


def take_bar(locator: Locator, category: str) -> float:
    """The calibrated score from which `category`'s best passage is taken where the rules found nothing:
    the head's own bar when the weights carry one, else `TAKE`."""
    bar = locator.take_bar(category)
    return TAKE if bar is None else bar


def _locators_pick(base: Location, best: LocatedPassage, best_cal: float) -> Decision:
    """The locator's best passage taken in place of the rules' (its calibrated score halved as confidence)."""
    return Decision(
        take=best,
        location=replace(
            base, confidence=best_cal / 2, via="locator", locator_score=best.score, locator_rank=1
        ),
    )


def unseen(scan: Scan, category: str) -> bool:
    """Whether the locator, over a whole contract (`DOUBT_MIN_UNITS` units or more), reads no passage as a
    clause of `category`: every unit under the head's cross-validated threshold."""
    return len(scan.units) >= DOUBT_MIN_UNITS and scan.best(category) < scan.locator.threshold(category)


#: the share of a head's threshold under which the locator's best passage anywhere in a contract counts as
#: "no such clause": the weaker language a rule's hints find then decides nothing. On the first 240 shared
#: CUAD contracts, of 83 "only weaker language" findings whose locator read the category nowhere, the
#: experts marked the clause in none; 78 of them scored under 0.8 of the threshold (measured in-sample, so
#: the cut is kept well below the threshold)
ABSENT_SHARE = 0.5


def far_below(scan: Scan, category: str) -> bool:
    """Whether the locator reads no clause of `category` anywhere in the contract, with room to spare: its
    best passage scores under ABSENT_SHARE of the head's threshold (see `unseen`)."""
    return unseen(scan, category) and scan.best(category) < ABSENT_SHARE * scan.locator.threshold(category)


def doubt(location: Location) -> Location:
    """`location` marked doubted: its finding is present but unconfirmed."""
    return replace(location, doubted=True, confidence=location.confidence / 2)


def best_passage(scan: Scan, location: Location) -> str:
    """The locator's best passage for the location's category, named for the reader of a doubted finding."""
    if location.category is None or not location.candidates:
        return "the learned locator ranked no passage"
    best = location.candidates[0]
    t = scan.locator.threshold(location.category)
    return (
        f"the learned locator's best passage for {location.category} is characters {best.start}–{best.end}, "
        f"scored {best.score:.2f} against its threshold {t:.2f}"
    )
