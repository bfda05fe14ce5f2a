"""The learned clause locator: which passages of a contract are the liability cap, the assignment clause…

One logistic-regression head per clause category (CUAD v1's clause types, `CATEGORIES`) over TF-IDF word
1–3-grams of ~450-character units of the contract. Trained with scikit-learn by
`citationgate train locator --data DIR --out FILE` (`playbooks.locator.train`, the `train` extra); run
with plain numpy from weights that ship in the package (`weights/locator.npz`, plain arrays read with
`numpy.load(allow_pickle=False)`, loaded on first use).

Public API::

    loc = load_locator()               # Locator: .version, .categories, .thresholds
    loc.score(["The Supplier's aggregate liability shall not exceed …"])   # [n_texts, n_categories]
    scan = loc.scan(document)          # an ingest.Document's units, scored once for every category
    scan.top("Cap on Liability", k=3)  # [LocatedPassage(start, end, score, rank), …]
    loc.locate(document, "Cap on Liability")              # the same in one call
    category_of(clause)                # the category a playbook clause names (`locate: {category: …}`)

A playbook rule names the head that backs it with `locate: {category: "Cap on Liability"}`.
"""

from collections.abc import Mapping
from typing import Any

from playbooks.locator.categories import CATEGORIES
from playbooks.locator.model import WEIGHTS, LocatedPassage, Locator, LocatorError, Scan, load_locator

__all__ = [
    "CATEGORIES",
    "WEIGHTS",
    "LocatedPassage",
    "Locator",
    "LocatorError",
    "Scan",
    "categories_of",
    "category_of",
    "load_locator",
]


def category_of(clause: Any) -> str | None:
    """The locator category a compiled playbook clause names in `locate.category`, if any."""
    category: str | None = clause.model.locate.category
    return category


def categories_of(playbook: Any) -> Mapping[str, str]:
    """Rule id → locator category, for every clause of `playbook` that names one."""
    return {c.id: cat for c in playbook.clauses if (cat := category_of(c)) is not None}
