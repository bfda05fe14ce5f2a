"""Ask the contract: hybrid clause retrieval that explains why each clause ranked where it did.

Units are the document's own sections (label, offsets, page), cut at the next section of any level so
units never overlap; a section longer than `MAX_UNIT_CHARS` is split at paragraph breaks, and a document
with few or no sections is read as paragraphs. Each unit is indexed with the headings of the sections
that contain it, so "(b)" under "LIMITATION OF LIABILITY" is found by the heading's words.

Ranking:
- keywords: BM25 (bm25s, English stop words, Snowball stemming). The asker's own words score at full
  weight; words added by bridges (playbooks/bridges.yaml: plain and trade phrasings → contract vocabulary)
  score at `BRIDGE_WEIGHT`, so the asker's words always weigh more. A clause type the question was read
  as through a question frame, where none of that type's bridges fired, brings its bridge's vocabulary as
  if it had (`implied_bridges`).
- clause types (the default install): the question is mapped to the clause types it is about
  (playbooks.locator.questions: bridges, question frames and a light packaged word embedding) and each
  unit is ranked by the learned locator's probability that it is a clause of those types (playbooks.locator).
  (A torch sentence-embedding extra was measured beside it and removed: it did not beat this path on two
  question sets; docs/locator.md);
- the rankings are merged by reciprocal rank fusion (they are not on comparable scales), with a small
  constant (`ASK_RRF_K`) so the top of each ranking stays decisive, and the clause-type ranking at twice the
  keywords' weight: a passage the locator reads as the question's type needs only moderate keyword support,
  while a passage both rankings like still comes first. (Putting the locator's passages of the question's
  types ahead of the fusion outright raised recall@3 on the 46 development questions, 0.674 → 0.804, and
  lowered it on 52 held-out questions written by someone else, 0.731 → 0.673 with fold models: it was
  withdrawn; see docs/locator.md). The question is read as clause types without the words that name the
  document's own parties, defined terms and title (playbooks.own_words): they say which contract is
  meant, not which clause;
- a unit whose only job is to define a term is ranked down unless the question asks what a term means.

Every hit carries a confidence (0–100) whose breakdown sums to it, and the reasons it ranked there.
When the meaning-based ranking (the clause-type reading) is unavailable, every confidence loses
`NO_SEMANTIC_PENALTY` points and the breakdown says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

import bm25s
import numpy as np
import numpy.typing as npt

from ingest.document import Document
from playbooks.asks import asks_amount, is_definitional, states_amount
from playbooks.bridges import (
    BRIDGE_WEIGHT,
    STEMMER,
    Bridge,
    BridgeError,
    Bridges,
    FiredBridge,
    WeightedQuery,
    expand_query,
    load_bridges,
)
from playbooks.locator import Locator, Scan, load_locator
from playbooks.locator.questions import (
    BRIDGE_CATEGORIES,
    ClauseType,
    QuestionTypes,
    Reading,
    load_question_types,
    meaning_disabled,
)
from playbooks.own_words import OwnWords, document_words
from playbooks.units import Unit, build_units

#: Reciprocal rank fusion constant (Cormack et al. 2009).
RRF_K = 60
#: The constant `ask` fuses its rankings with: small, so a passage one ranking puts first is not outweighed
#: by one both rank in their twenties (at 60, a passage the locator reads as the question's clause type but
#: BM25 does not rank at all could not reach the top 3). Chosen with CLAUSE_TYPE_WEIGHT on a plateau
#: (weight 2–3, k 5–15) that lifted all four question sets measured (docs/locator.md, session 5).
ASK_RRF_K = 10
#: Weight of the clause-type ranking (question → clause types → the locator's scores of each unit), from
#: `CLAUSE_TYPE_WEIGHT_UNSEEN` when the locator sees no clause of the question's types anywhere in the
#: document (its ranking of the passages is then noise) to `CLAUSE_TYPE_WEIGHT` when its best passage of
#: each type reaches that head's threshold; in between in proportion (best probability / threshold).
#: The part above the unseen weight is scaled by how confident the reading of the question is
#: (`Reading.confidence`), from `CLAUSE_TYPE_CONFIDENCE_FLOOR` for a weak reading to 1 for a clear one.
CLAUSE_TYPE_WEIGHT = 2.5
#: ... and to this when the question's first clause type was read through a question frame (a combination of
#: words that asks about that type, playbooks.locator.questions): such a reading is rarely wrong (the category
#: questions of `eval retrieval`, contracts 200–259: own type first 641 of 641), so its ranking may weigh
#: more. 3.5 on a plateau (3.5–4.5) of the development, fresh, party and category question sets (session 6).
CLAUSE_TYPE_WEIGHT_FRAMED = 3.5
CLAUSE_TYPE_WEIGHT_UNSEEN = 0.5
CLAUSE_TYPE_CONFIDENCE_FLOOR = 0.5
#: Confidence points subtracted from every hit when meaning-based ranking is unavailable.
NO_SEMANTIC_PENALTY = 8
#: Keyword score factor per bridge phrase found whole in a unit (up to three phrases).
PHRASE_BOOST = 0.15
#: Score factor for definition units when the question is not definitional.
DEFINITION_FACTOR = 0.35
#: Clause-type score factor for a unit that states an amount or a bound ("shall not exceed", "$500,000",
#: "not less than") when the question asks for one ("what is the cap?", "the most we could recover"): of two
#: passages the locator reads as the same type (a liability cap and the exclusion of indirect losses beside
#: it), the one that answers "how much" comes first. Small: it reorders near-equals, never a weak passage
#: over a strong one.
AMOUNT_FACTOR = 1.1

# ── rank fusion ────────────────────────────────────────────────────────────────────────────────


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[str]], *, k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[tuple[str, float]]:
    """Merge rankings (best first) by Σ weight / (k + rank), rank counted from 1.

    Ties are broken by the best rank an id reached in any ranking, then by first appearance.
    """
    if weights is None:
        weights = [1.0] * len(rankings)
    score: dict[str, float] = {}
    best: dict[str, int] = {}
    order: dict[str, int] = {}
    for ranking, w in zip(rankings, weights, strict=True):
        for rank, item in enumerate(ranking, start=1):
            score[item] = score.get(item, 0.0) + w / (k + rank)
            best[item] = min(best.get(item, rank), rank)
            order.setdefault(item, len(order))
    return sorted(score.items(), key=lambda kv: (-kv[1], best[kv[0]], order[kv[0]]))


# ── the retriever ──────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True, slots=True, kw_only=True)
class RetrievalHit:
    """One ranked clause: where it is, its verbatim text, a confidence with breakdown, and why."""

    id: str
    label: str
    start: int
    end: int
    page: int | None
    text: str
    confidence: int
    breakdown: Mapping[str, int]
    why: tuple[str, ...]
    document: str = ""
    bridges: tuple[str, ...] = ()  # names of the bridges that fired for the question

    def to_dict(self, *, with_document: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "label": self.label,
            "start": self.start,
            "end": self.end,
            "page": self.page,
            "text": self.text,
            "confidence": self.confidence,
            "breakdown": dict(self.breakdown),
            "why": list(self.why),
        }
        if with_document:
            data["document"] = self.document
        return data


@dataclass(slots=True)
class _Index:
    units: list[Unit]
    texts: list[str]  # verbatim unit texts
    documents: list[str]
    retriever: Any
    term_sets: list[frozenset[str]]
    lowered: list[str] = field(default_factory=list)
    docs: list[Document] = field(default_factory=list)
    doc_of: list[int] = field(default_factory=list)  # unit → index into docs
    type_scores: npt.NDArray[np.float32] | None = None  # unit × locator category (max over its passages)
    own_words: OwnWords | None = None  # the documents' names for themselves (playbooks.own_words)
    amounts: npt.NDArray[np.bool_] | None = None  # unit → does it state an amount or a bound


class ClauseRetriever:
    """Ranks the clauses of one document (or several) against a plain-language question.

    `bridges`: None for the shipped table, or a `Bridges` (e.g. `load_bridges(extra=playbook_bridges)`,
    or `Bridges.empty()` for keywords alone).
    `clause_types`: "auto" ranks by clause type (question → types → the shipped locator), None turns
    that off, or pass a `QuestionTypes`; `locator`: None for the shipped one, or any `Locator`.
    CITATIONGATE_NO_SEMANTIC=1 turns the meaning-based ranking (the clause-type reading) off.
    """

    def __init__(
        self,
        document: Document | Sequence[Document],
        *,
        bridges: Bridges | None = None,
        clause_types: QuestionTypes | Literal["auto"] | None = "auto",
        locator: Locator | None = None,
        prefixes: Sequence[str] | None = None,
    ) -> None:
        docs = [document] if isinstance(document, Document) else list(document)
        if prefixes is None:
            prefixes = [""] if len(docs) == 1 else [f"{i + 1}:" for i in range(len(docs))]
        self.bridges = load_bridges() if bridges is None else bridges
        if clause_types == "auto":
            clause_types = None if meaning_disabled() else load_question_types()
        self.clause_types: QuestionTypes | None = clause_types
        self._locator = locator
        units: list[Unit] = []
        texts: list[str] = []
        names: list[str] = []
        doc_of: list[int] = []
        for d, (doc, prefix) in enumerate(zip(docs, prefixes, strict=True)):
            for u in build_units(doc, prefix=prefix):
                units.append(u)
                texts.append(doc.text[u.start : u.end])
                names.append(doc.name)
                doc_of.append(d)
        index_texts = [f"{u.context}\n{t}" if u.context else t for u, t in zip(units, texts, strict=True)]
        tokens = bm25s.tokenize(
            index_texts or [""], stopwords="en", stemmer=STEMMER, return_ids=False, show_progress=False
        )
        token_lists = [list(t) for t in tokens][: len(units)]
        retriever: bm25s.BM25 | None = None
        if any(token_lists):  # bm25s cannot index a corpus without a single word
            retriever = bm25s.BM25()
            retriever.index(token_lists, show_progress=False)
        self._index = _Index(
            units=units,
            texts=texts,
            documents=names,
            retriever=retriever,
            term_sets=[frozenset(t) for t in token_lists],
            lowered=[_fold(t) for t in index_texts],
            docs=docs,
            doc_of=doc_of,
        )
        self._index_texts = index_texts

    @property
    def units(self) -> list[Unit]:
        return list(self._index.units)

    @property
    def locator(self) -> Locator:
        if self._locator is None:
            self._locator = load_locator()
        return self._locator

    def _type_scores(self) -> npt.NDArray[np.float32]:
        """Each unit's locator probability per category: the best of the locator passages it overlaps."""
        idx = self._index
        if idx.type_scores is None:
            loc = self.locator
            out = np.zeros((len(idx.units), len(loc.categories)), dtype=np.float32)
            scans: dict[int, Scan] = {}
            for i, u in enumerate(idx.units):
                d = idx.doc_of[i]
                if d not in scans:
                    scans[d] = loc.scan(idx.docs[d])
                scan = scans[d]
                rows = [j for j, (a, b) in enumerate(scan.units) if a < u.end and u.start < b]
                if rows:
                    out[i] = scan.scores[rows].max(axis=0)
            idx.type_scores = out
        return idx.type_scores

    def clause_type_weight(self, types: Sequence[ClauseType], confidence: float = 1.0) -> float:
        """The clause-type ranking's weight in the fusion: how far the locator sees a clause of the
        question's types in the document at all (each type's best passage against its head's threshold),
        scaled by how confident the reading of the question is (`Reading.confidence`)."""
        scores = self._type_scores()
        seen = 0.0
        for t in types:
            col = self.locator.column(t.category)
            best = float(scores[:, col].max()) if len(scores) else 0.0
            seen += t.weight * min(1.0, best / max(self.locator.threshold(t.category), 1e-6))
        sure = CLAUSE_TYPE_CONFIDENCE_FLOOR + (1.0 - CLAUSE_TYPE_CONFIDENCE_FLOOR) * confidence
        top = CLAUSE_TYPE_WEIGHT_FRAMED if types and types[0].frames else CLAUSE_TYPE_WEIGHT
        return CLAUSE_TYPE_WEIGHT_UNSEEN + (top - CLAUSE_TYPE_WEIGHT_UNSEEN) * seen * sure

    def own_words(self) -> OwnWords:
        """The words the document(s) name themselves by — parties, defined terms, title — less the words
        that describe clause types (playbooks.own_words)."""
        idx = self._index
        if idx.own_words is None:
            keep = self.clause_types.vocabulary if self.clause_types is not None else frozenset()
            own = OwnWords(keep=frozenset(keep))
            for d in idx.docs:
                own = own | document_words(d.text, keep=keep)
            idx.own_words = own
        return idx.own_words

    def read_question(self, question: str, *, bridges: Bridges | None = None) -> Reading:
        """The question read as clause types, without the words that name this document's own parties,
        defined terms and title (the bridges fire on what is left)."""
        if self.clause_types is None:
            return Reading(types=(), confidence=0.0)
        asked = self.own_words().without(question)
        return self.clause_types.read(asked, (self.bridges if bridges is None else bridges).fire(asked))

    def _amounts(self) -> npt.NDArray[np.bool_]:
        """Which units state an amount or a bound (`states_amount`), computed once."""
        idx = self._index
        if idx.amounts is None:
            idx.amounts = np.array([states_amount(t) for t in idx.texts], dtype=bool)
        return idx.amounts

    def clause_type_scores(self, types: Sequence[ClauseType]) -> npt.NDArray[np.float64]:
        """Σ over the question's clause types of weight × the unit's locator probability for the type."""
        scores = self._type_scores()
        total = np.zeros(len(self._index.units), dtype=np.float64)
        for t in types:
            total += t.weight * scores[:, self.locator.column(t.category)]
        return total

    def keyword_scores(self, query: WeightedQuery) -> npt.NDArray[np.float64]:
        """BM25 score of every unit: Σ over query terms of weight × the term's BM25 contribution."""
        n = len(self._index.units)
        total = np.zeros(n, dtype=np.float64)
        by_weight: dict[float, list[str]] = {}
        for term, w in query.weights.items():
            by_weight.setdefault(w, []).append(term)
        retriever = self._index.retriever
        if retriever is None:
            return total
        for w, terms in by_weight.items():
            known = [t for t in terms if t in retriever.vocab_dict]
            if known and n:
                total += w * np.asarray(retriever.get_scores(known), dtype=np.float64)[:n]
        return total

    def search(
        self,
        question: str,
        *,
        top: int = 5,
        bridges: Bridges | None = None,
        use_semantic: bool = True,
    ) -> list[RetrievalHit]:
        """The `top` units best matching `question`, best first.

        `bridges` overrides the retriever's table for this question; `use_semantic=False` ranks by
        keywords alone (and the penalty applies), without reading the question as clause types.
        """
        idx = self._index
        n = len(idx.units)
        if n == 0 or top <= 0:
            return []
        table = self.bridges if bridges is None else bridges
        fired = table.fire(question)
        reading = (
            self.read_question(question, bridges=bridges)
            if use_semantic and self.clause_types
            else Reading(types=(), confidence=0.0)
        )
        types = list(reading.types)
        fired = [*fired, *implied_bridges(types, fired, table)]
        query = expand_query(question, fired)
        kw = self.keyword_scores(query)
        if fired and PHRASE_BOOST:
            # a bridge phrase found whole ("shall not exceed") is stronger evidence than its words apart
            phrases = [_fold_phrase(p) for fb in fired for p in fb.bridge.means if " " in p.strip()]
            found = np.zeros(n, dtype=np.float64)
            # only units that the largest boost could lift into the top `pool` are checked
            pool = min(n, max(top, 50))
            floor = float(np.partition(kw, n - pool)[n - pool]) / (1.0 + 3.0 * PHRASE_BOOST)
            for j in np.flatnonzero((kw > 0) & (kw >= floor)).tolist():
                found[j] = sum(p in idx.lowered[j] for p in phrases)
            kw = kw * (1.0 + PHRASE_BOOST * np.minimum(found, 3.0))
        definitional = is_definitional(question)
        down = np.array([u.definition and not definitional for u in idx.units])
        kw_adj = np.where(down, kw * DEFINITION_FACTOR, kw)
        order_kw = [int(i) for i in np.argsort(-kw_adj, kind="stable")]
        kw_rank = {i: r for r, i in enumerate(order_kw, start=1) if kw_adj[i] > 0}

        rankings: list[list[str]] = [[str(i) for i in order_kw if i in kw_rank]]
        weights = [1.0]
        set_aside = self.own_words().found(question) if types else ()
        type_sim: npt.NDArray[np.float64] | None = None
        type_rank: dict[int, int] = {}
        type_weight = 0.0
        amounts: npt.NDArray[np.bool_] | None = None
        if types:
            type_sim = self.clause_type_scores(types)
            type_adj = type_sim
            if asks_amount(question):
                amounts = self._amounts()
                type_adj = np.where(amounts, type_sim * AMOUNT_FACTOR, type_sim)
            type_adj = np.where(down, type_adj * DEFINITION_FACTOR, type_adj)
            # equal locator scores (probabilities saturate at 1.0): ordered by the keywords, not by position
            order_type = [int(i) for i in np.lexsort((-kw_adj, -type_adj))]
            type_rank = {i: r for r, i in enumerate(order_type, start=1)}
            rankings.append([str(i) for i in order_type])
            type_weight = self.clause_type_weight(types, reading.confidence)
            weights.append(type_weight)
        if len(rankings) > 1:
            final = [int(i) for i, _ in reciprocal_rank_fusion(rankings, weights=weights, k=ASK_RRF_K)]
        else:
            final = order_kw

        top_kw = float(kw_adj.max()) if n else 0.0
        hits = []
        for i in final[:top]:
            hits.append(
                self._hit(
                    i,
                    question=question,
                    query=query,
                    fired=fired,
                    kw=float(kw_adj[i]),
                    top_kw=top_kw,
                    kw_rank=kw_rank.get(i),
                    down=bool(down[i]),
                    definitional=definitional,
                    types=types,
                    type_score=None if type_sim is None else float(type_sim[i]),
                    type_rank=type_rank.get(i),
                    type_weight=type_weight,
                    amount=amounts is not None and bool(amounts[i]),
                    confidence=reading.confidence,
                    set_aside=set_aside,
                    fused=len(rankings) > 1,
                )
            )
        return hits

    def _hit(
        self,
        i: int,
        *,
        question: str,
        query: WeightedQuery,
        fired: Sequence[FiredBridge],
        kw: float,
        top_kw: float,
        kw_rank: int | None,
        down: bool,
        definitional: bool,
        types: Sequence[ClauseType] = (),
        type_score: float | None = None,
        type_rank: int | None = None,
        type_weight: float = 0.0,
        amount: bool = False,
        confidence: float = 1.0,
        set_aside: Sequence[str] = (),
        fused: bool = False,
    ) -> RetrievalHit:
        idx = self._index
        u = idx.units[i]
        terms = idx.term_sets[i]
        breakdown: dict[str, int] = {}
        why: list[str] = []

        breakdown["keywords"] = round(45 * kw / top_kw) if top_kw > 0 else 0
        user_hit = [t for t in query.user_terms if t in terms]
        coverage = len(user_hit) / len(query.user_terms) if query.user_terms else 0.0
        breakdown["your words found"] = round(20 * coverage)
        if kw_rank is not None:
            shown = ", ".join(f"'{t}'" for t in user_hit) or "none of your words"
            why.append(f"keywords: rank {kw_rank} (BM25); your words found: {shown}")
        else:
            why.append("keywords: no word of the question or its bridges occurs here")

        bridge_points = 0
        for fb in fired:
            phrases = [p for p in fb.bridge.means if _fold_phrase(p) in idx.lowered[i]]
            added = [t for t in query.bridge_terms.get(fb.bridge.name, ()) if t in terms]
            if phrases:
                bridge_points += 5 * len(phrases)
                shown = ", ".join(f"'{p}'" for p in phrases[:4])
                why.append(f"bridge '{fb.bridge.name}' (from '{fb.trigger}'): found {shown}")
            elif added:
                bridge_points += 2
                why.append(
                    f"bridge '{fb.bridge.name}' (from '{fb.trigger}'): found its words "
                    + ", ".join(f"'{t}'" for t in added[:5])
                )
            else:
                why.append(
                    f"bridge '{fb.bridge.name}' (from '{fb.trigger}') fired; none of its terms are here"
                )
        if fired:
            breakdown["bridges"] = min(15, bridge_points)

        meaning_rank: int | None = None
        if type_score is not None and types and self.clause_types is not None:
            points = round(20 * min(1.0, max(0.0, type_score)))
            breakdown["meaning"] = max(breakdown.get("meaning", 0), points)
            named = ", ".join(f"'{t.category}' {t.weight:.2f}" for t in types)
            framed = [f"'{f}'" for t in types for f in t.frames]
            why.append(
                f"clause type: rank {type_rank} (locator {self.locator.version}: {type_score:.2f} for "
                f"{named}; question read by {self.clause_types.name}, confidence {confidence:.2f}"
                + (f", frames {', '.join(framed)}" if framed else "")
                + (
                    f", without the document's own words {', '.join(repr(w) for w in set_aside)})"
                    if set_aside
                    else ")"
                )
            )
            if amount:
                why.append(
                    "states an amount or a bound, and the question asks for one: "
                    f"clause type ×{AMOUNT_FACTOR:g}"
                )
            meaning_rank = type_rank
        if "meaning" in breakdown:
            if kw_rank is not None and meaning_rank is not None and kw >= 0.3 * top_kw:
                if kw_rank <= 3 and meaning_rank <= 3:
                    breakdown["rankers agree"] = 10
                    why.append("both rankers put it in their top 3")
                elif kw_rank <= 10 and meaning_rank <= 10:
                    breakdown["rankers agree"] = 5
                    why.append("both rankers put it in their top 10")
        else:
            breakdown["semantic ranker unavailable"] = -NO_SEMANTIC_PENALTY
            why.append(
                f"meaning-based ranking unavailable (the question is not read as clause types): "
                f"keywords alone, −{NO_SEMANTIC_PENALTY}"
            )
        if fused:
            names = [
                "keywords",
                *([f"clause type (×{type_weight:.1f})"] if types else []),
            ]
            why.append("ranked by: reciprocal rank fusion of " + ", ".join(names))
        else:
            why.append("ranked by: keywords")
        if down:
            breakdown["definition ranked down"] = -15
            why.append("a definition, ranked down: the question does not ask what a term means")
        elif u.definition and definitional:
            why.append("a definition, and the question asks what a term means")
        total = sum(breakdown.values())
        confidence = max(0, min(100, total))
        if confidence != total:
            breakdown["clipped to 0–100"] = confidence - total
        return RetrievalHit(
            id=u.id,
            label=u.label,
            start=u.start,
            end=u.end,
            page=u.page,
            text=idx.texts[i],
            confidence=confidence,
            breakdown=breakdown,
            why=tuple(why),
            document=idx.documents[i],
            bridges=tuple(fb.bridge.name for fb in fired),
        )


def implied_bridges(
    types: Sequence[ClauseType], fired: Sequence[FiredBridge], table: Bridges
) -> list[FiredBridge]:
    """The bridges of the clause types a question was read as through a question frame, where none of that
    type's bridges fired: "can the agent call the whole thing off just because it wants to?" is read as a
    termination for convenience by its words together, no single phrase of the bridge's; the keyword search
    then looks for that clause's own vocabulary ("terminate", "for convenience") as if the bridge had fired
    (at the bridges' weight, below the asker's own words)."""
    have = {fb.bridge.name for fb in fired}
    voted = {BRIDGE_CATEGORIES.get(name) for name in have}
    out: list[FiredBridge] = []
    for t in types:
        if not t.frames or t.category in voted:
            continue
        for b in table.items:
            if b.name not in have and BRIDGE_CATEGORIES.get(b.name) == t.category:
                out.append(FiredBridge(bridge=b, trigger=f"read as {t.category}"))
                have.add(b.name)
                break  # the type's first bridge: its own vocabulary, not a neighbour's
    return out


@lru_cache(maxsize=4096)
def _fold_phrase(text: str) -> str:
    return _fold(text)


def _fold(text: str) -> str:
    """Lower case, every run of other characters one space: for checking a phrase is present."""
    return " " + " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split()) + " "


def search_documents(
    documents: Iterable[Document], question: str, *, top: int = 5, bridges: Bridges | None = None
) -> list[RetrievalHit]:
    """One-shot search over several documents (unit ids prefixed "1:", "2:", … in the given order)."""
    return ClauseRetriever(list(documents), bridges=bridges).search(question, top=top)


__all__ = [
    "BRIDGE_WEIGHT",
    "Bridge",
    "BridgeError",
    "Bridges",
    "ClauseRetriever",
    "FiredBridge",
    "RetrievalHit",
    "Unit",
    "WeightedQuery",
    "build_units",
    "expand_query",
    "is_definitional",
    "load_bridges",
    "reciprocal_rank_fusion",
    "search_documents",
]
