"""Ask the contract: hybrid clause retrieval that explains why each clause ranked where it did.

Units are the document's own sections (label, offsets, page), cut at the next section of any level so
units never overlap; a section longer than `MAX_UNIT_CHARS` is split at paragraph breaks, and a document
with few or no sections is read as paragraphs. Each unit is indexed with the headings of the sections
that contain it, so "(b)" under "LIMITATION OF LIABILITY" is found by the heading's words.

Ranking:
- keywords: BM25 (bm25s, English stop words, Snowball stemming). The asker's own words score at full
  weight; words added by bridges (playbooks/bridges.yaml: plain and trade phrasings → contract vocabulary)
  score at `BRIDGE_WEIGHT`, so the asker's words always weigh more.
- meaning: a local sentence-embedding model when the `semantic` extra is installed (playbooks.semantic).
- the two rankings are merged by reciprocal rank fusion (they are not on comparable scales);
- a unit whose only job is to define a term is ranked down unless the question asks what a term means.

Every hit carries a confidence (0–100) whose breakdown sums to it, and the reasons it ranked there.
When the meaning-based ranker is unavailable, every confidence loses `NO_SEMANTIC_PENALTY` points and
the breakdown says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import bm25s
import numpy as np
import numpy.typing as npt
import Stemmer
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ingest.document import Document, Section
from playbooks.errors import PlaybookError
from playbooks.semantic import SemanticRanker, load_semantic_ranker

BRIDGES_FILE = Path(__file__).with_name("bridges.yaml")

#: Weight of a bridge's words relative to the asker's own (1.0).
BRIDGE_WEIGHT = 0.5
#: Reciprocal rank fusion constant (Cormack et al. 2009).
RRF_K = 60
#: Confidence points subtracted from every hit when meaning-based ranking is unavailable.
NO_SEMANTIC_PENALTY = 8
#: Score factor for definition units when the question is not definitional.
DEFINITION_FACTOR = 0.35
#: A unit longer than this is split at paragraph breaks.
MAX_UNIT_CHARS = 2000
#: Target size of the pieces a long unit or a paragraph-read document is cut into.
TARGET_UNIT_CHARS = 1200
#: Below this many sections, a document is read as paragraphs.
MIN_SECTIONS = 4

_STEMMER = Stemmer.Stemmer("english")
_WORD = re.compile(r"[A-Za-z0-9]+")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_FILLER = _words("the a an our their my your his her its it this that these those them they we us you i of")
#: Words of asking, not of the subject: dropped from the asker's terms ("how much can we …").
_QUESTION_WORDS = _words(
    "can could would should may might must much many what which who whom whose how when where why "
    "do does did done happen happens happened go goes going get gets deal contract agreement say says "
    "tell allowed able anything something someone thing things"
)
#: Drafting words on nearly every line of a contract: a bridge adding them adds only noise.
_DRAFTING_WORDS = _words("shall will may party parties agreement hereof herein hereunder thereof such")
_DEFINITIONAL = re.compile(
    r"\b(?:what\s+(?:does|do|did)\b.*\bmean|meaning\s+of|definition|defined?|what\s+is\s+meant|"
    r"what\s+counts\s+as|means?\s*\?)",
    re.IGNORECASE,
)
_DEFINES = re.compile(
    r"^\s*(?:\(?[0-9A-Za-z]{1,4}[.)]\s*)*[\"“”'‘’]{1,2}[A-Z][^\"“”\n]{0,80}[\"“”'‘’]{1,2}\s*"
    r"(?:\([^)]*\)\s*)?(?:means|shall mean|has the meaning|have the meaning|refers to|shall refer to|"
    r"shall have the meaning|is defined)\b"
)
_PARA_BREAK = re.compile(r"\n[ \t\u00a0]*\n\s*")
_LINE_BREAK = re.compile(r"\n\s*")
_SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[A-Z(\"“])")


class RetrievalError(PlaybookError):
    """A bridges table that does not load (file, field, what was expected)."""


# ── bridges ────────────────────────────────────────────────────────────────────────────────────


def _stems(text: str) -> list[str]:
    return [str(s) for s in _STEMMER.stemWords([w.lower() for w in _WORD.findall(text)])]


def _content_stems(text: str) -> list[str]:
    return [s for s in _stems(text) if s not in _FILLER]


@dataclass(frozen=True, slots=True, kw_only=True)
class Bridge:
    """Plain phrasings (`when`) that add contract vocabulary (`means`) to a search."""

    name: str
    when: tuple[str, ...]
    means: tuple[str, ...]

    def trigger(self, question: str) -> tuple[str, int, int] | None:
        """The longest `when` phrase found in the question (word by word, stemmed, fillers ignored),
        with the word positions `[i, j)` it covers."""
        q = _content_stems(question)
        best: tuple[str, int, int] | None = None
        for phrase in self.when:
            p = _content_stems(phrase)
            for i in range(len(q) - len(p) + 1):
                if p and q[i : i + len(p)] == p and (best is None or len(p) > best[2] - best[1]):
                    best = (phrase, i, i + len(p))
                    break
        return best


@dataclass(frozen=True, slots=True, kw_only=True)
class FiredBridge:
    """A bridge the question switched on, and the phrase that did it."""

    bridge: Bridge
    trigger: str


class _BridgeSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    when: list[str] = Field(min_length=1)
    means: list[str] = Field(min_length=1)


class _BridgesFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = 1
    bridges: dict[str, _BridgeSpec]


@dataclass(frozen=True, slots=True, kw_only=True)
class Bridges:
    """A bridges table: the shipped one, optionally extended by a playbook's `bridges:` mapping."""

    items: tuple[Bridge, ...] = ()

    @classmethod
    def empty(cls) -> Bridges:
        return cls(items=())

    def fire(self, question: str) -> list[FiredBridge]:
        """The bridges the question switches on. A bridge whose phrase lies inside a longer phrase
        that switched on another ("how much" inside "how much can we claim") stays off."""
        found = [(b, t) for b in self.items if (t := b.trigger(question)) is not None]
        fired = []
        for b, (phrase, i, j) in found:
            inside = any(
                i2 <= i and j <= j2 and (j2 - i2) > (j - i) for b2, (_, i2, j2) in found if b2 is not b
            )
            if not inside:
                fired.append(FiredBridge(bridge=b, trigger=phrase))
        return fired

    def __len__(self) -> int:
        return len(self.items)


def _parse_bridges(data: object, source: str) -> dict[str, _BridgeSpec]:
    if isinstance(data, Mapping) and "bridges" not in data:
        data = {"bridges": data}
    try:
        return _BridgesFile.model_validate(data).bridges
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise RetrievalError(
            f"{source}: bridges.{where}: {err['msg']} "
            "(expected `bridges: {name: {when: [phrases], means: [phrases]}}`)"
        ) from None


def load_bridges(extra: Mapping[str, Any] | str | Path | None = None, *, base: bool = True) -> Bridges:
    """The shipped bridges (unless `base=False`), extended by `extra`.

    `extra` is a playbook's `bridges:` mapping (`{name: {when: [...], means: [...]}}`, or a whole parsed
    YAML document carrying a `bridges:` key), or the path of a YAML file in that shape. A name already in
    the table is extended with the new phrases; a new name adds a bridge.
    """
    specs: dict[str, tuple[list[str], list[str]]] = {}
    if base:
        for name, spec in _shipped_specs().items():
            specs[name] = (list(spec.when), list(spec.means))
    if extra is not None:
        if isinstance(extra, str | Path):
            path = Path(extra)
            try:
                data = yaml.safe_load(path.read_text(encoding="utf-8"))
            except (OSError, yaml.YAMLError) as exc:
                raise RetrievalError(f"{path.name}: cannot read bridges ({exc})") from None
            source = path.name
        else:
            data, source = extra, "playbook"
        for name, spec in _parse_bridges(data, source).items():
            when, means = specs.setdefault(name, ([], []))
            when.extend(w for w in spec.when if w not in when)
            means.extend(m for m in spec.means if m not in means)
    return Bridges(items=tuple(Bridge(name=n, when=tuple(w), means=tuple(m)) for n, (w, m) in specs.items()))


@lru_cache(maxsize=1)
def _shipped_specs() -> dict[str, _BridgeSpec]:
    try:
        data = yaml.safe_load(BRIDGES_FILE.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise RetrievalError(f"{BRIDGES_FILE.name}: cannot read the shipped bridges ({exc})") from None
    return _parse_bridges(data, BRIDGES_FILE.name)


@dataclass(frozen=True, slots=True, kw_only=True)
class WeightedQuery:
    """The stemmed search terms with their weights: the asker's words 1.0, bridge words less."""

    user_terms: tuple[str, ...]
    bridge_terms: Mapping[str, tuple[str, ...]]  # bridge name → terms it adds (not already the user's)
    weights: Mapping[str, float]  # term → weight

    @property
    def terms(self) -> tuple[str, ...]:
        return tuple(self.weights)


def expand_query(
    question: str, fired: Sequence[FiredBridge], *, bridge_weight: float = BRIDGE_WEIGHT
) -> WeightedQuery:
    """Stem the question, add each fired bridge's vocabulary, and weigh every term.

    A term the asker used keeps weight 1.0 even when a bridge also adds it; a term only a bridge adds
    weighs `bridge_weight`. Stop words are dropped the way the index drops them.
    """
    stop = _stopwords()
    asking = _question_stems()
    user = tuple(dict.fromkeys(t for t in _stems(question) if t not in stop and t not in asking))
    weights: dict[str, float] = dict.fromkeys(user, 1.0)
    added: dict[str, tuple[str, ...]] = {}
    drafting = _drafting_stems()
    for fb in fired:
        terms = []
        for phrase in fb.bridge.means:
            for t in _stems(phrase):
                if t in stop or t in user or t in drafting:
                    continue
                terms.append(t)
                weights.setdefault(t, bridge_weight)
        added[fb.bridge.name] = tuple(dict.fromkeys(terms))
    return WeightedQuery(user_terms=user, bridge_terms=added, weights=weights)


@lru_cache(maxsize=1)
def _question_stems() -> frozenset[str]:
    return frozenset(str(s) for s in _STEMMER.stemWords(list(_QUESTION_WORDS))) | _QUESTION_WORDS


@lru_cache(maxsize=1)
def _drafting_stems() -> frozenset[str]:
    return frozenset(str(s) for s in _STEMMER.stemWords(list(_DRAFTING_WORDS))) | _DRAFTING_WORDS


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(str(s) for s in _STEMMER.stemWords(list(STOPWORDS_EN))) | frozenset(STOPWORDS_EN)


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


# ── units ──────────────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True, slots=True, kw_only=True)
class Unit:
    """A retrieval unit: a range of the canonical text, its label and the headings above it."""

    id: str
    label: str
    start: int
    end: int
    page: int | None
    kind: str  # "section" | "paragraph"
    definition: bool
    context: str  # headings of the sections that contain it, for the index only


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _split(text: str, start: int, end: int, *, target: int = TARGET_UNIT_CHARS) -> list[tuple[int, int]]:
    """Cut `[start, end)` into pieces of about `target` characters at paragraph, line or sentence breaks.

    Short pieces (a heading line) are joined to the piece that follows them.
    """
    pieces: list[tuple[int, int]] = []
    for pattern in (_PARA_BREAK, _LINE_BREAK, _SENTENCE_END):
        if end - start <= target * 1.5 and pattern is not _PARA_BREAK:
            break
        pieces = []
        pos = start
        for m in pattern.finditer(text, start, end):
            pieces.append((pos, m.start()))
            pos = m.end()
        pieces.append((pos, end))
        pieces = [p for p in (_trim(text, a, b) for a, b in pieces) if p[1] > p[0]]
        if len(pieces) > 1:
            break
    if not pieces:
        pieces = [(start, end)]
    merged: list[tuple[int, int]] = []
    for a, b in pieces:
        if merged and (merged[-1][1] - merged[-1][0] < 150 or b - merged[-1][0] <= target):
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    out: list[tuple[int, int]] = []
    for a, b in merged:
        if b - a > MAX_UNIT_CHARS:
            inner = _split_hard(text, a, b, target=target)
            out.extend(inner)
        else:
            out.append((a, b))
    return out


def _split_hard(text: str, start: int, end: int, *, target: int) -> list[tuple[int, int]]:
    """A long run with no paragraph breaks: cut at sentence ends, else at whitespace near `target`."""
    out: list[tuple[int, int]] = []
    pos = start
    while end - pos > MAX_UNIT_CHARS:
        window_end = pos + target
        cut = None
        for m in _SENTENCE_END.finditer(text, pos + target // 2, min(end, pos + MAX_UNIT_CHARS)):
            cut = m
            if m.start() >= window_end:
                break
        if cut is None:
            ws = text.rfind(" ", pos + target // 2, pos + MAX_UNIT_CHARS)
            if ws <= pos:
                ws = pos + target
            a, b = _trim(text, pos, ws)
            out.append((a, b))
            pos = ws
        else:
            a, b = _trim(text, pos, cut.start())
            out.append((a, b))
            pos = cut.end()
    a, b = _trim(text, pos, end)
    if b > a:
        out.append((a, b))
    return [p for p in out if p[1] > p[0]]


def _is_definition(text: str, start: int, end: int, section: Section | None) -> bool:
    if section is not None and section.kind == "definition" and section.start >= start:
        return True
    return bool(_DEFINES.match(text, start, min(end, start + 300)))


def build_units(document: Document, *, prefix: str = "") -> list[Unit]:
    """Cut a document into non-overlapping retrieval units (sections, else paragraphs)."""
    text = document.text
    sections = sorted(document.sections, key=lambda s: (s.start, s.level))
    use_sections = len(sections) >= MIN_SECTIONS
    raw: list[tuple[int, int, Section | None]] = []
    if use_sections:
        first = sections[0].start
        if text[:first].strip():
            raw.extend((a, b, None) for a, b in _split(text, 0, first))
        for i, s in enumerate(sections):
            nxt = sections[i + 1] if i + 1 < len(sections) else None
            seg_end = nxt.start if nxt is not None else len(text)
            seg_end = max(min(seg_end, len(text)), s.start)
            a, b = _trim(text, s.start, seg_end)
            if b <= a:
                continue
            is_parent_heading = nxt is not None and nxt.level > s.level and b - a < 80
            if is_parent_heading:
                continue  # a heading line only: its words reach its children through their context
            if b - a > MAX_UNIT_CHARS:
                raw.extend((x, y, s) for x, y in _split(text, a, b))
            else:
                raw.append((a, b, s))
    else:
        raw.extend((a, b, None) for a, b in _split(text, 0, len(text)))

    units: list[Unit] = []
    seen: dict[str, int] = {}
    para_no = 0
    for a, b, own in raw:
        containing = (
            [c for c in document.sections if c.start <= a and b <= c.end] if document.sections else []
        )
        containing.sort(key=lambda c: (c.level, -c.start))
        inner = containing[-1] if containing else own
        context = " ".join(h for h in (c.heading for c in containing) if h)
        if inner is not None:
            label = inner.label
            base = _section_path(containing) or label
        else:
            para_no += 1
            label = f"¶{para_no}"
            base = f"p{para_no}"
        n = seen.get(base, 0) + 1
        seen[base] = n
        uid = base if n == 1 else f"{base}~{n}"
        units.append(
            Unit(
                id=f"{prefix}{uid}",
                label=label,
                start=a,
                end=b,
                page=document.page_of(a),
                kind="section" if inner is not None else "paragraph",
                definition=_is_definition(text, a, b, inner),
                context=context,
            )
        )
    return units


def _section_path(containing: Sequence[Section]) -> str:
    """A readable identifier: the innermost decimal/article label plus the lettered labels under it."""
    parts: list[str] = []
    for c in containing:
        label = c.label.replace(" ", "")
        if label.startswith("("):
            parts.append(label)
        else:
            parts = [label]
    return "".join(parts)


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


SemanticOption = SemanticRanker | Literal["auto"] | None


def is_definitional(question: str) -> bool:
    """Does the question ask what a term means ("what does Affiliate mean")?"""
    return bool(_DEFINITIONAL.search(question))


@dataclass(slots=True)
class _Index:
    units: list[Unit]
    texts: list[str]  # verbatim unit texts
    documents: list[str]
    retriever: Any
    term_sets: list[frozenset[str]]
    embeddings: npt.NDArray[np.float32] | None = None
    lowered: list[str] = field(default_factory=list)


class ClauseRetriever:
    """Ranks the clauses of one document (or several) against a plain-language question.

    `bridges`: None for the shipped table, or a `Bridges` (e.g. `load_bridges(extra=playbook_bridges)`,
    or `Bridges.empty()` for keywords alone). `semantic`: "auto" loads the packaged model when the
    extra is installed; None turns meaning-based ranking off; or pass any `SemanticRanker`.
    """

    def __init__(
        self,
        document: Document | Sequence[Document],
        *,
        bridges: Bridges | None = None,
        semantic: SemanticOption = "auto",
        prefixes: Sequence[str] | None = None,
    ) -> None:
        docs = [document] if isinstance(document, Document) else list(document)
        if prefixes is None:
            prefixes = [""] if len(docs) == 1 else [f"{i + 1}:" for i in range(len(docs))]
        self.bridges = load_bridges() if bridges is None else bridges
        self.semantic: SemanticRanker | None = load_semantic_ranker() if semantic == "auto" else semantic
        units: list[Unit] = []
        texts: list[str] = []
        names: list[str] = []
        for doc, prefix in zip(docs, prefixes, strict=True):
            for u in build_units(doc, prefix=prefix):
                units.append(u)
                texts.append(doc.text[u.start : u.end])
                names.append(doc.name)
        index_texts = [f"{u.context}\n{t}" if u.context else t for u, t in zip(units, texts, strict=True)]
        tokens = bm25s.tokenize(
            index_texts or [""], stopwords="en", stemmer=_STEMMER, return_ids=False, show_progress=False
        )
        token_lists = [list(t) for t in tokens]
        retriever = bm25s.BM25()
        retriever.index(token_lists, show_progress=False)
        self._index = _Index(
            units=units,
            texts=texts,
            documents=names,
            retriever=retriever,
            term_sets=[frozenset(t) for t in token_lists],
            lowered=[_fold(t) for t in index_texts],
        )
        self._index_texts = index_texts

    @property
    def units(self) -> list[Unit]:
        return list(self._index.units)

    def _embeddings(self) -> npt.NDArray[np.float32] | None:
        if self.semantic is None:
            return None
        if self._index.embeddings is None:
            self._index.embeddings = self.semantic.embed([t[:2000] for t in self._index_texts])
        return self._index.embeddings

    def keyword_scores(self, query: WeightedQuery) -> npt.NDArray[np.float64]:
        """BM25 score of every unit: Σ over query terms of weight × the term's BM25 contribution."""
        n = len(self._index.units)
        total = np.zeros(n, dtype=np.float64)
        by_weight: dict[float, list[str]] = {}
        for term, w in query.weights.items():
            by_weight.setdefault(w, []).append(term)
        vocab = self._index.retriever.vocab_dict
        for w, terms in by_weight.items():
            known = [t for t in terms if t in vocab]
            if known and n:
                total += w * np.asarray(self._index.retriever.get_scores(known), dtype=np.float64)[:n]
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
        keywords alone (and the penalty applies) even when a semantic ranker is loaded.
        """
        idx = self._index
        n = len(idx.units)
        if n == 0 or top <= 0:
            return []
        fired = (self.bridges if bridges is None else bridges).fire(question)
        query = expand_query(question, fired)
        kw = self.keyword_scores(query)
        definitional = is_definitional(question)
        down = np.array([u.definition and not definitional for u in idx.units])
        kw_adj = np.where(down, kw * DEFINITION_FACTOR, kw)
        order_kw = sorted(range(n), key=lambda i: (-kw_adj[i], i))
        kw_rank = {i: r for r, i in enumerate(order_kw, start=1) if kw_adj[i] > 0}

        emb = self._embeddings() if use_semantic else None
        sem_sim: npt.NDArray[np.float32] | None = None
        sem_rank: dict[int, int] = {}
        semantic = self.semantic if emb is not None else None
        if emb is not None and self.semantic is not None:
            qv = self.semantic.embed([question])[0]
            sem_sim = emb @ qv
            sem_adj = np.where(down, sem_sim - 0.15, sem_sim)
            order_sem = sorted(range(n), key=lambda i: (-sem_adj[i], i))
            sem_rank = {i: r for r, i in enumerate(order_sem, start=1)}
            fused = reciprocal_rank_fusion(
                [[str(i) for i in order_kw if i in kw_rank], [str(i) for i in order_sem]]
            )
            final = [int(i) for i, _ in fused]
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
                    sem=None if sem_sim is None else float(sem_sim[i]),
                    sem_rank=sem_rank.get(i),
                    down=bool(down[i]),
                    definitional=definitional,
                    semantic=semantic,
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
        sem: float | None,
        sem_rank: int | None,
        down: bool,
        definitional: bool,
        semantic: SemanticRanker | None,
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
            phrases = [p for p in fb.bridge.means if _fold(p) in idx.lowered[i]]
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

        if sem is not None and semantic is not None:
            breakdown["meaning"] = round(20 * min(1.0, max(0.0, (sem - 0.15) / 0.45)))
            why.append(f"meaning: rank {sem_rank} (similarity {sem:.2f}, {semantic.name})")
            if kw_rank is not None and sem_rank is not None:
                if kw_rank <= 3 and sem_rank <= 3:
                    breakdown["rankers agree"] = 10
                    why.append("both rankers put it in their top 3")
                elif kw_rank <= 10 and sem_rank <= 10:
                    breakdown["rankers agree"] = 5
                    why.append("both rankers put it in their top 10")
        else:
            breakdown["semantic ranker unavailable"] = -NO_SEMANTIC_PENALTY
            why.append(
                f"meaning-based ranking unavailable (install citationgate[semantic]): "
                f"keywords alone, −{NO_SEMANTIC_PENALTY}"
            )
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


def _fold(text: str) -> str:
    """Lower case, every run of other characters one space: for checking a phrase is present."""
    return " " + " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split()) + " "


def search_documents(
    documents: Iterable[Document], question: str, *, top: int = 5, bridges: Bridges | None = None
) -> list[RetrievalHit]:
    """One-shot search over several documents (unit ids prefixed "1:", "2:", … in the given order)."""
    return ClauseRetriever(list(documents), bridges=bridges).search(question, top=top)
