"""From a plain-language question to the clause types it is about.

Three signals, all local: the bridges that fire for the question (playbooks/bridges.yaml: everyday and
trade phrasings; each bridge that names a clause type votes for it); the question frames that fire
(`question_frames.yaml`: a clause type asked about through a combination of ordinary words — "the most"
with "pay" is a liability cap, "the most" with "order" a volume limit, "how long" with "free of faults" a
warranty period — each frame votes for its type, more the more word classes it needs, so the more
specific reading wins); and the meaning of the question against short plain descriptions of each clause
type (`clause_types.yaml`), measured with a light static word-embedding model whose weights ship in its
own wheel (`wordllama`: the package MIT, its weights distilled from LLaMA 2's token embeddings — see
docs/locator.md on their licence; loaded from the installed package with downloads disabled). Without that
package the bridges and frames alone decide.

A reading also says how confident it is (`Reading.confidence`): weak when its best type scores less than one
bridge's vote, or when the types it keeps stand less than `MARGIN` clear of the best type it leaves out (the
question is then as much about a type the reading dropped); the fusion weighs the clause-type ranking by it.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from playbooks.bridges import Bridge, FiredBridge, _content_stems
from playbooks.locator.categories import CATEGORIES

__all__ = [
    "BRIDGE_CATEGORIES",
    "ClauseType",
    "Frame",
    "QuestionTypes",
    "Reading",
    "load_frames",
    "load_question_types",
    "meaning_disabled",
]


def meaning_disabled() -> bool:
    """CITATIONGATE_NO_SEMANTIC=1: the meaning-based ranking is off — the question is not read as clause
    types, `ask` ranks by keywords and bridges alone and every hit shows the penalty."""
    return bool(os.environ.get("CITATIONGATE_NO_SEMANTIC"))


TYPES_FILE = Path(__file__).with_name("clause_types.yaml")
FRAMES_FILE = Path(__file__).with_name("question_frames.yaml")

#: bridge name → the clause type it speaks to (bridges about other things — payment, notices — vote for none)
BRIDGE_CATEGORIES: Mapping[str, str] = {
    "liability-cap": "Cap on Liability",
    "consequential-damages": "Cap on Liability",
    "uncapped-liability": "Uncapped Liability",
    "terminate-convenience": "Termination for Convenience",
    "term-length": "Expiration Date",
    "renewal": "Renewal Term",
    "notice-to-stop-renewal": "Notice Period to Terminate Renewal",
    "start-date": "Effective Date",
    "governing-law": "Governing Law",
    "assignment": "Anti-Assignment",
    "change-of-control": "Change of Control",
    "exclusivity": "Exclusivity",
    "non-compete": "Non-Compete",
    "competition-exception": "Competitive Restriction Exception",
    "no-poach": "No-Solicit of Employees",
    "customer-poach": "No-Solicit of Customers",
    "non-disparagement": "Non-Disparagement",
    "minimum-commitment": "Minimum Commitment",
    "volume-limit": "Volume Restriction",
    "revenue-share": "Revenue/Profit Sharing",
    "most-favored": "Most Favored Nation",
    "price-restriction": "Price Restrictions",
    "price-increase": "Price Restrictions",
    "liquidated-damages": "Liquidated Damages",
    "warranty": "Warranty Duration",
    "insurance": "Insurance",
    "audit": "Audit Rights",
    "ip-ownership": "IP Ownership Assignment",
    "joint-ownership": "Joint IP Ownership",
    "license-grant": "License Grant",
    "license-non-transferable": "Non-Transferable License",
    "license-perpetual": "Irrevocable or Perpetual License",
    "license-unlimited": "Unlimited/All-You-Can-Eat-License",
    "affiliate-license": "Affiliate License-Licensee",
    "after-termination": "Post-Termination Services",
    "covenant-not-to-sue": "Covenant Not to Sue",
    "first-refusal": "Rofr/Rofo/Rofn",
    "third-party-beneficiary": "Third Party Beneficiary",
    "source-code-escrow": "Source Code Escrow",
}
#: a fired bridge counts as this much similarity for its clause type
BRIDGE_VOTE = 0.3
#: a fired frame counts as this much similarity per word class it needs (at least two: a frame of one class
#: is kept for words that name the subject outright, "taken over", "roll over"), so a frame outweighs one
#: bridge and a frame of three classes outweighs one of two
FRAME_VOTE = 0.3
#: clause types within this much similarity of the best one are kept (at most `k`)
MARGIN = 0.08


@dataclass(frozen=True, slots=True, kw_only=True)
class Frame:
    """A clause type asked about through a combination of words: a word of every class in `all`, none of
    any class in `none` (each class a `Bridge` with no `means`, matched like a bridge's `when`)."""

    name: str
    category: str
    all: tuple[Bridge, ...]
    none: tuple[Bridge, ...] = ()
    #: the frame names what the deal is about (a licence of a brand), not a relation asked about it: it
    #: yields to any other frame that fires ("does the content licence survive a takeover?" is about the
    #: takeover)
    subject: bool = False

    @property
    def vote(self) -> float:
        return FRAME_VOTE * max(2, len(self.all))

    def covers(self, stems: Sequence[str]) -> frozenset[int] | None:
        """The question's word positions the frame reads (every class's longest phrase), or None when the
        frame does not fire."""
        found: set[int] = set()
        for c in self.all:
            t = c.trigger(stems)
            if t is None:
                return None
            found.update(range(t[1], t[2]))
        if any(c.trigger(stems) is not None for c in self.none):
            return None
        return frozenset(found)

    def fires(self, stems: Sequence[str]) -> bool:
        return self.covers(stems) is not None


def load_frames(path: Path = FRAMES_FILE) -> tuple[Frame, ...]:
    """The question frames of `path` (`classes:` name → phrases; `frames:` a list of {type, all, none})."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    classes = {
        name: Bridge(name=name, when=tuple(str(p) for p in phrases), means=())
        for name, phrases in raw["classes"].items()
    }
    frames = []
    for n, f in enumerate(raw["frames"], start=1):
        if f["type"] not in CATEGORIES:
            raise ValueError(f"{path.name}: frame {n}: unknown clause type {f['type']!r}")
        unknown = [c for c in (*f["all"], *f.get("none", ())) if c not in classes]
        if unknown:
            raise ValueError(f"{path.name}: frame {n}: unknown word class {unknown[0]!r}")
        frames.append(
            Frame(
                name="+".join(f["all"]),
                category=f["type"],
                all=tuple(classes[c] for c in f["all"]),
                none=tuple(classes[c] for c in f.get("none", ())),
                subject=bool(f.get("subject", False)),
            )
        )
    return tuple(frames)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClauseType:
    category: str
    weight: float  # share of the question's meaning, summing to 1 over the types returned
    similarity: float  # the best similarity of the question to the type's descriptions (plus bridge votes)
    bridges: tuple[str, ...] = ()  # the bridges that voted for it
    frames: tuple[str, ...] = ()  # the question frames that voted for it


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """A question read as clause types, and how confident that reading is (0–1): the lesser of the best
    type's score against one bridge's vote and the kept types' lead over the best type left out against
    `MARGIN` (1 when no type is left out)."""

    types: tuple[ClauseType, ...]
    confidence: float


class QuestionTypes:
    """Maps questions to clause types: `types(question, fired)` → the few most likely, weighted."""

    def __init__(
        self,
        embedder: Any | None,
        descriptions: Mapping[str, Sequence[str]],
        frames: Sequence[Frame] = (),
    ) -> None:
        self.embedder = embedder
        self.frames = tuple(frames)
        self.name = "wordllama l2_supercat_256 (local)" if embedder is not None else "bridges only"
        if self.frames:
            self.name += " + question frames"
        self._rows: list[str] = []
        phrases: list[str] = []
        for cat, lines in descriptions.items():
            for line in lines:
                self._rows.append(cat)
                phrases.append(f"{cat}: {line}")
        #: the words that describe clause types (descriptions, category names): never a document's own name
        frame_words = [p for f in self.frames for c in (*f.all, *f.none) for p in c.when]
        self.vocabulary = frozenset(
            w.lower()
            for text in (*phrases, *CATEGORIES, *frame_words)
            for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", text)
        )
        self._matrix = self._embed(phrases) if embedder is not None else None

    def _embed(self, texts: Sequence[str]) -> Any:
        assert self.embedder is not None
        m = np.asarray(self.embedder.embed(list(texts)), dtype=np.float32)
        norms = np.linalg.norm(m, axis=1, keepdims=True)
        return m / np.maximum(norms, 1e-12)

    def types(self, question: str, fired: Sequence[FiredBridge] = (), *, k: int = 3) -> list[ClauseType]:
        return list(self.read(question, fired, k=k).types)

    def read(self, question: str, fired: Sequence[FiredBridge] = (), *, k: int = 3) -> Reading:
        """The few most likely clause types of the question, weighted, and the reading's confidence."""
        sim: dict[str, float] = {}
        if self._matrix is not None:
            q = self._embed([question])[0]
            for cat, s in zip(self._rows, (self._matrix @ q).tolist(), strict=True):
                sim[cat] = max(sim.get(cat, -1.0), float(s))
        stems = _content_stems(question)
        framed = _fired_frames(self.frames, stems)
        read_words = {i for f, cover in framed for i in cover}
        subjects = {f.category for f in self.frames if f.subject}
        related = {f.category for f, _ in framed if not f.subject}
        votes: dict[str, list[str]] = {}
        for fb in fired:
            voted = BRIDGE_CATEGORIES.get(fb.bridge.name)
            if voted is None:
                continue
            t = fb.bridge.trigger(stems)
            # a bridge whose words a frame of another type reads as part of its combination does not vote:
            # "walk away early" inside "a set amount owed if it walks away early" is no exit at will
            if (
                t is not None
                and set(range(t[1], t[2])) <= read_words
                and all(f.category != voted for f, _ in framed)
            ):
                continue
            # a bridge for what the deal is about yields where a relation asked about it was read
            if voted in subjects and voted not in related and related:
                continue
            votes.setdefault(voted, []).append(fb.bridge.name)
        for cat, names in votes.items():
            sim[cat] = sim.get(cat, 0.0) + BRIDGE_VOTE * len(names)
        by_type: dict[str, list[Frame]] = {}
        for frame, _ in framed:
            by_type.setdefault(frame.category, []).append(frame)
        for cat, fs in by_type.items():  # the type's most specific frame counts, once
            sim[cat] = sim.get(cat, 0.0) + max(f.vote for f in fs)
        if not sim:
            return Reading(types=(), confidence=0.0)
        ranked = sorted(sim.items(), key=lambda kv: -kv[1])
        best = ranked[0][1]
        kept = [(c, s) for c, s in ranked[:k] if s >= best - MARGIN and s > 0]
        if not kept:
            return Reading(types=(), confidence=0.0)
        w = np.exp(np.array([s for _, s in kept]) * 20.0)
        w = w / w.sum()
        lead = (best - ranked[len(kept)][1]) / MARGIN if len(ranked) > len(kept) else 1.0
        return Reading(
            types=tuple(
                ClauseType(
                    category=c,
                    weight=float(x),
                    similarity=s,
                    bridges=tuple(votes.get(c, ())),
                    frames=tuple(f.name for f in sorted(by_type.get(c, ()), key=lambda f: -f.vote)),
                )
                for (c, s), x in zip(kept, w, strict=True)
            ),
            confidence=max(0.0, min(1.0, best / BRIDGE_VOTE, lead)),
        )


def _fired_frames(frames: Sequence[Frame], stems: Sequence[str]) -> list[tuple[Frame, frozenset[int]]]:
    """The frames that fire on the question's stems, with the words each reads, less those another frame
    outranks: a frame whose words all lie inside those of a frame of another type that reads more words, or
    the same words through more classes (the smaller reading is part of the larger), and a `subject` frame
    where a frame of another type that is not one fires too (what the deal is about yields to the relation
    asked about it)."""
    fired = [(f, cover) for f in frames if (cover := f.covers(stems)) is not None]
    kept = [
        (f, cover)
        for f, cover in fired
        if not any(
            g.category != f.category and (cover < other or (cover == other and len(g.all) > len(f.all)))
            for g, other in fired
        )
    ]
    return [
        (f, cover)
        for f, cover in kept
        if not (f.subject and any(g.category != f.category and not g.subject for g, _ in kept))
    ]


def _wordllama() -> Any | None:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        import wordllama
        from wordllama import WordLlama
    except ImportError:
        return None
    finally:  # wordllama calls logging.basicConfig(level=INFO) on import: the host keeps its own logging
        for handler in [h for h in root.handlers if h not in handlers]:
            root.removeHandler(handler)
        root.setLevel(level)
    # the weights ship inside the wheel: load them from the installed package, never from the network
    return WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)


_lock = threading.Lock()
_cache: dict[tuple[bool, bool], QuestionTypes] = {}


def load_question_types(*, embedding: bool = True, frames: bool = True) -> QuestionTypes:
    """The shipped question → clause-type mapper (read once). `embedding=False`: bridges and frames alone;
    `frames=False`: without the question frames."""
    with _lock:
        if (embedding, frames) not in _cache:
            raw = yaml.safe_load(TYPES_FILE.read_text(encoding="utf-8"))
            descriptions = {c: list(raw[c]) for c in CATEGORIES if c in raw}
            embedder = _wordllama() if embedding else None
            _cache[embedding, frames] = QuestionTypes(embedder, descriptions, load_frames() if frames else ())
        return _cache[embedding, frames]
