"""Bridges: from the words people ask in to the words contracts are written in.

The table ships as playbooks/bridges.yaml; a playbook may extend it with a `bridges:` mapping of the same
shape (`{name: {when: [plain phrases], means: [contract vocabulary]}}`). A question switches a bridge on
when one of its `when` phrases occurs in it (word by word, stemmed, filler words ignored); the bridge's
`means` vocabulary is then added to the keyword search at a lower weight than the asker's own words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import Stemmer
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from playbooks import bounded_yaml
from playbooks.errors import PlaybookError

BRIDGES_FILE = Path(__file__).with_name("bridges.yaml")

#: Weight of a bridge's words relative to the asker's own (1.0).
BRIDGE_WEIGHT = 0.7

STEMMER = Stemmer.Stemmer("english")
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


class BridgeError(PlaybookError):
    """A bridges table that does not load (file, field, what was expected)."""


def _stems(text: str) -> list[str]:
    return [str(s) for s in STEMMER.stemWords([w.lower() for w in _WORD.findall(text)])]


@lru_cache(maxsize=8192)
def _phrase_stems(phrase: str) -> tuple[str, ...]:
    """A bridge phrase's content stems, computed once."""
    return tuple(_content_stems(phrase))


def _content_stems(text: str) -> list[str]:
    return [s for s in _stems(text) if s not in _FILLER]


@dataclass(frozen=True, slots=True, kw_only=True)
class Bridge:
    """Plain phrasings (`when`) that add contract vocabulary (`means`) to a search."""

    name: str
    when: tuple[str, ...]
    means: tuple[str, ...]

    def trigger(self, question: str | Sequence[str]) -> tuple[str, int, int] | None:
        """The longest `when` phrase found in the question (word by word, stemmed, fillers ignored),
        with the word positions `[i, j)` it covers. `question` may be given already stemmed."""
        q = _content_stems(question) if isinstance(question, str) else list(question)
        present = set(q)
        best: tuple[str, int, int] | None = None
        for phrase in self.when:
            p = _phrase_stems(phrase)
            if not p or not present.issuperset(p):
                continue
            for i in range(len(q) - len(p) + 1):
                if p and tuple(q[i : i + len(p)]) == p and (best is None or len(p) > best[2] - best[1]):
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
        stems = _content_stems(question)
        found = [(b, t) for b in self.items if (t := b.trigger(stems)) is not None]
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
        raise BridgeError(
            f"{source}: {where}: {err['msg']} "
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
                data = bounded_yaml.load(path.read_text(encoding="utf-8"))
            except (OSError, yaml.YAMLError) as exc:
                raise BridgeError(f"{path.name}: cannot read bridges ({exc})") from None
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
        data = bounded_yaml.load(BRIDGES_FILE.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise BridgeError(f"{BRIDGES_FILE.name}: cannot read the shipped bridges ({exc})") from None
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
    return frozenset(str(s) for s in STEMMER.stemWords(list(_QUESTION_WORDS))) | _QUESTION_WORDS


@lru_cache(maxsize=1)
def _drafting_stems() -> frozenset[str]:
    return frozenset(str(s) for s in STEMMER.stemWords(list(_DRAFTING_WORDS))) | _DRAFTING_WORDS


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(str(s) for s in STEMMER.stemWords(list(STOPWORDS_EN))) | frozenset(STOPWORDS_EN)
