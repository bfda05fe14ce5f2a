"""The shipped locator: weights read once from the package (plain arrays, no pickle), scores in numpy."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ingest.document import Document
from ingest.errors import CitationGateError
from playbooks.locator.features import Block
from playbooks.locator.rules import RuleFeatures
from playbooks.locator.units import cut_units
from playbooks.passages import Passages
from playbooks.scan import Scanner

__all__ = ["WEIGHTS", "LocatedPassage", "Locator", "LocatorError", "Scan", "load_locator"]

#: The weights file shipped in the package (built by `citationgate train locator`).
WEIGHTS = Path(__file__).with_name("weights") / "locator.npz"
FORMAT = 1

FloatArray = npt.NDArray[np.float32]


class LocatorError(CitationGateError):
    """The locator's weights file (or its training data) is missing, unreadable or of another format."""

    exit_code = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class LocatedPassage:
    """A unit of the document the locator ranked for a category: `text[start:end]` is the passage."""

    start: int
    end: int
    score: float  # the category head's probability, 0..1
    rank: int  # 1 = the best passage of the document for the category

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "score": round(self.score, 4), "rank": self.rank}


class Scan:
    """One document's units and their scores for every category (computed once, read many times)."""

    def __init__(self, locator: Locator, units: Sequence[tuple[int, int]], scores: FloatArray) -> None:
        self.locator = locator
        self.units = tuple(units)
        self.scores = scores  # [n_units, n_categories]

    def best(self, category: str) -> float:
        """The highest probability of any unit for `category` (0.0 for an empty document)."""
        col = self.locator.column(category)
        return float(self.scores[:, col].max()) if len(self.units) else 0.0

    def top(self, category: str, *, k: int = 5, min_score: float = 0.0) -> list[LocatedPassage]:
        """The `k` best units for `category`, best first, with their rank in the whole document."""
        if not self.units:
            return []
        col = self.scores[:, self.locator.column(category)]
        order = np.argsort(-col, kind="stable")[:k]
        return [
            LocatedPassage(start=self.units[i][0], end=self.units[i][1], score=float(col[i]), rank=r + 1)
            for r, i in enumerate(order)
            if col[i] >= min_score
        ]

    def at(self, category: str, start: int, end: int) -> LocatedPassage | None:
        """The best-scoring unit overlapping `[start, end)`, with its rank in the document."""
        if not self.units:
            return None
        col = self.scores[:, self.locator.column(category)]
        hits = [i for i, (a, b) in enumerate(self.units) if a < end and start < b]
        if not hits:
            return None
        i = max(hits, key=lambda j: col[j])
        rank = int((col > col[i]).sum()) + 1
        return LocatedPassage(start=self.units[i][0], end=self.units[i][1], score=float(col[i]), rank=rank)


class Locator:
    """One logistic-regression head per clause category over TF-IDF word and character n-grams.

    `score(texts)` → `[n_texts, n_categories]` probabilities; `scan(document)` scores the document's own
    units; `thresholds[c]` is the probability above which category c counts as present (chosen by grouped
    cross-validation at training time).

    With `context` in the weights (a weight w), each unit is also read beside its neighbours: the features
    are the unit's own and w × the sum of the previous and next units' (of the same document), each half
    with its own coefficients. A unit's neighbours exist only in a sequence (`scan`, `sequence=True`); a
    text scored alone has none.
    """

    def __init__(self, arrays: Any) -> None:
        meta = json.loads(bytes(arrays["meta"]).decode("utf-8"))
        if meta.get("format") != FORMAT:
            raise LocatorError(f"locator weights: format {meta.get('format')!r}, expected {FORMAT}")
        self.meta: dict[str, Any] = meta
        self.version: str = meta["version"]
        self.categories: tuple[str, ...] = tuple(meta["categories"])
        self._column = {c: i for i, c in enumerate(self.categories)}
        self.blocks = [
            Block(
                kind=b["kind"],
                vocab=bytes(arrays[f"{b['name']}_vocab"]).decode("utf-8").split("\n"),
                idf=arrays[f"{b['name']}_idf"],
                lo=b["lo"],
                hi=b["hi"],
            )
            for b in meta["blocks"]
        ]
        self._offsets = np.cumsum([0, *(len(b) for b in self.blocks)])
        self.rules = RuleFeatures(meta["rules"], scale=meta["rule_scale"]) if meta.get("rules") else None
        self.context = float(meta.get("context") or 0.0)
        width = int(self._offsets[-1]) + (len(self.rules) if self.rules is not None else 0)
        coef = arrays["coef_q"].astype(np.float32) * arrays["coef_scale"].astype(np.float32)[None, :]
        if coef.shape != (width * (2 if self.context else 1), len(self.categories)):
            raise LocatorError(f"locator weights: coefficient matrix of shape {coef.shape} does not fit")
        # own and context coefficients side by side: one gather reads both
        self.coef: FloatArray = np.hstack([coef[:width], coef[width:]]) if self.context else coef
        self.intercept: FloatArray = arrays["intercept"].astype(np.float32)
        self.thresholds: FloatArray = arrays["thresholds"].astype(np.float32)
        # each head's take bar (`playbooks.locator.take`), on the calibrated scale; absent: the shared bar
        self.take_bars: FloatArray | None = (
            arrays["take_bars"].astype(np.float32) if "take_bars" in arrays else None
        )

    def column(self, category: str) -> int:
        try:
            return self._column[category]
        except KeyError:
            raise KeyError(f"the locator has no head for {category!r}") from None

    def threshold(self, category: str) -> float:
        return float(self.thresholds[self.column(category)])

    def take_bar(self, category: str) -> float | None:
        """The calibrated score from which the fusion takes this head's passage where the rules found
        nothing (chosen by grouped CV, `playbooks.locator.take`); None: weights without bars."""
        return None if self.take_bars is None else float(self.take_bars[self.column(category)])

    def logits(
        self,
        texts: Sequence[str],
        *,
        sequence: bool = False,
        rule_rows: npt.NDArray[np.float32] | None = None,
    ) -> FloatArray:
        """The heads' logits for `texts`; `sequence=True`: the texts are consecutive units of one document;
        `rule_rows`: their rule features (`scan_text` computes them over the whole document; without
        them each text is read as a document of its own)."""
        n, k = len(texts), len(self.categories)
        acc = np.zeros((n, self.coef.shape[1]), dtype=np.float32)
        if self.rules is not None and n:
            rows_r = rule_rows if rule_rows is not None else self._rule_rows_alone(texts)
            acc += rows_r @ self.coef[int(self._offsets[-1]) :]
        for off, block in zip(self._offsets, self.blocks, strict=False):
            rows, cols, vals = block.matrix(texts)
            if not len(rows):
                continue
            contrib = self.coef[cols + off] * vals.astype(np.float32)[:, None]
            starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
            acc[rows[starts]] += np.add.reduceat(contrib, starts, axis=0)
        out = acc[:, :k] + self.intercept[None, :]
        if self.context and sequence and n > 1:
            near = acc[:, k:]
            out[1:] += self.context * near[:-1]
            out[:-1] += self.context * near[1:]
        return out

    def _rule_rows_alone(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Rule features of each text read as a document of its own (one unit: the whole text)."""
        assert self.rules is not None
        rows = [
            self.rules.matrix(Passages(t), [(0, len(t))])
            if t.strip()
            else np.zeros((1, len(self.rules)), dtype=np.float32)
            for t in texts
        ]
        return np.vstack(rows)

    def score(
        self,
        texts: Sequence[str],
        *,
        sequence: bool = False,
        rule_rows: npt.NDArray[np.float32] | None = None,
    ) -> FloatArray:
        """Probabilities `[len(texts), len(categories)]` that each text is a clause of each category
        (`sequence=True`: the texts are consecutive units of one document, read with their neighbours)."""
        z = self.logits(texts, sequence=sequence, rule_rows=rule_rows)
        return (1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))).astype(np.float32)

    def scan_text(
        self, text: str, passages: Passages | None = None, *, scanner: Scanner | None = None
    ) -> Scan:
        """Score the units of `text` (cut from `passages`, or from the text's own passages); `scanner`:
        the engine's pattern scanner over the same passages, so its cached matches are reused."""
        ps = passages if passages is not None else Passages(text)
        units = cut_units(text, ps.items)
        rows = self.rules.matrix(ps, units, scanner) if self.rules is not None else None
        return Scan(self, units, self.score([text[a:b] for a, b in units], sequence=True, rule_rows=rows))

    def scan(self, document: Document) -> Scan:
        """Score the units of an ingested document (page furniture is cut out, as the engine does)."""
        return self.scan_text(
            document.text, Passages(document.text, furniture=[(f.start, f.end) for f in document.furniture])
        )

    def locate(self, document: Document, category: str, *, k: int = 5) -> list[LocatedPassage]:
        """The document's `k` best passages for `category`, with offsets, score and rank."""
        return self.scan(document).top(category, k=k)


_lock = threading.Lock()
_loaded: dict[Path, Locator] = {}


def load_locator(path: Path | None = None) -> Locator:
    """The locator whose weights ship in the package (or those at `path`), read on first use and kept."""
    p = path or WEIGHTS
    with _lock:
        if p not in _loaded:
            try:
                with np.load(p, allow_pickle=False) as arrays:
                    _loaded[p] = Locator(arrays)
            except LocatorError:
                raise
            except (OSError, KeyError, ValueError) as exc:
                raise LocatorError(f"{p}: cannot read locator weights ({exc})") from exc
        return _loaded[p]
