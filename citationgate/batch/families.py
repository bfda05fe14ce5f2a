"""Families: the same clause across the room, and documents that are near-copies of each other.

MinHash (datasketch) over word shingles, bucketed by LSH, finds candidate pairs without comparing every
pair; each candidate is then confirmed by the exact Jaccard similarity of the two shingle sets, so a family
never holds a pair LSH merely guessed. Families are the connected groups of confirmed pairs. Each family
has one representative (its most common wording, word for word; otherwise the member closest to all
others) and each member's word diff to it — the deviations a reviewer reads.

`compare_with_exact` measures LSH against exact pairwise Jaccard on a sample: recall of the pairs at or
above the threshold, and the time of each (benchmarks/batch.py prints it).
"""

from __future__ import annotations

import difflib
import itertools
import re
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from citationgate.batch.portfolio import pinpoint
from citationgate.store_runs import DONE, RunStore

__all__ = [
    "clause_families",
    "compare_with_exact",
    "document_families",
    "group",
    "run_document_families",
    "shingles",
    "word_diff",
]

_WORD = re.compile(r"\w+")
NUM_PERM = 128
#: LSH is asked for candidates this much below the threshold, then each is confirmed by exact Jaccard:
#: banding is a soft cut-off (measured: at the threshold itself it missed 1 in 10 pairs just above it).
LSH_SLACK = 0.2


def _lsh_threshold(threshold: float) -> float:
    return max(0.1, threshold - LSH_SLACK)


#: A word diff is computed over at most this many words a side (a clause is far shorter).
MAX_DIFF_WORDS = 3000


def shingles(text: str, *, k: int = 3) -> frozenset[str]:
    """The text's overlapping k-word shingles, lower-cased (a text shorter than k words is one shingle)."""
    words = _WORD.findall(text.lower())
    if len(words) < k:
        return frozenset([" ".join(words)]) if words else frozenset()
    return frozenset(" ".join(words[i : i + k]) for i in range(len(words) - k + 1))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


def _minhashes(sets: Sequence[frozenset[str]]) -> list[Any]:
    from datasketch import MinHash

    return list(MinHash.bulk([[s.encode() for s in x] for x in sets], num_perm=NUM_PERM))


def lsh_pairs(sets: Sequence[frozenset[str]], *, threshold: float) -> set[tuple[int, int]]:
    """Candidate pairs (i < j) whose MinHash signatures share an LSH band at `threshold`."""
    from datasketch import MinHashLSH

    lsh = MinHashLSH(threshold=threshold, num_perm=NUM_PERM)
    pairs: set[tuple[int, int]] = set()
    for i, mh in enumerate(_minhashes(sets)):
        if not sets[i]:
            continue
        for j in lsh.query(mh):
            pairs.add((int(j), i))
        lsh.insert(i, mh)
    return pairs


@dataclass(frozen=True, slots=True, kw_only=True)
class _Groups:
    members: list[list[int]]  # each family's member indices, largest family first
    similarity: dict[tuple[int, int], float]


def group(texts: Sequence[str], *, threshold: float = 0.8, k: int = 3) -> _Groups:
    """Families of near-identical texts: LSH candidates confirmed by exact Jaccard ≥ threshold."""
    sets = [shingles(t, k=k) for t in texts]
    parent = list(range(len(texts)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    sim: dict[tuple[int, int], float] = {}
    for i, j in lsh_pairs(sets, threshold=_lsh_threshold(threshold)):
        s = jaccard(sets[i], sets[j])
        if s >= threshold:
            sim[(i, j)] = s
            parent[find(i)] = find(j)
    comps: dict[int, list[int]] = {}
    for i in range(len(texts)):
        comps.setdefault(find(i), []).append(i)
    members = sorted(comps.values(), key=lambda m: (-len(m), m[0]))
    return _Groups(members=members, similarity=sim)


def word_diff(base: str, other: str) -> list[dict[str, str]]:
    """What `other` changes in `base`, word by word: a list of {"op": delete|insert|replace, …}."""
    a, b = base.split()[:MAX_DIFF_WORDS], other.split()[:MAX_DIFF_WORDS]
    out: list[dict[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        out.append({"op": op, "from": " ".join(a[i1:i2]), "to": " ".join(b[j1:j2])})
    return out


def _normal(text: str) -> str:
    return " ".join(text.split())


def _family(
    idx: list[int],
    items: Sequence[Mapping[str, Any]],
    texts: Sequence[str],
    sim: Mapping[tuple[int, int], float],
) -> dict[str, Any]:
    exact = Counter(_normal(texts[i]) for i in idx)
    top, count = exact.most_common(1)[0]
    if count > 1 or len(idx) <= 2:
        rep = next(i for i in idx if _normal(texts[i]) == top)
    else:  # the member most similar to all the others
        rep = max(idx, key=lambda i: sum(sim.get((min(i, j), max(i, j)), 0.0) for j in idx if j != i))
    rep_set = shingles(texts[rep])
    members = []
    for i in idx:
        same = _normal(texts[i]) == _normal(texts[rep])
        members.append(
            {
                **{k: v for k, v in items[i].items() if k != "text"},
                "identical": same,
                "similarity": 1.0 if same else round(jaccard(rep_set, shingles(texts[i])), 3),
                "diff": [] if same else word_diff(texts[rep], texts[i]),
            }
        )
    members.sort(key=lambda m: (not m["identical"], -m["similarity"], str(m.get("path"))))
    return {
        "size": len(idx),
        "identical_to_representative": sum(1 for m in members if m["identical"]),
        "representative": {**{k: v for k, v in items[rep].items() if k != "text"}, "quote": texts[rep]},
        "members": members,
    }


def clause_families(
    runs: RunStore, run_id: int, *, threshold: float = 0.8, rule: str | None = None
) -> dict[str, Any]:
    """Per clause type, the families of its located wording across the run's distinct documents."""
    entries = [e for e in runs.entries(run_id, cells=True) if e["status"] == DONE]
    by_key: dict[str, dict[str, Any]] = {}
    for e in entries:
        by_key.setdefault(e["key"], {"paths": [], "cells": e["cells"], "review_id": e["review_id"]})
        by_key[e["key"]]["paths"].append(e["path"])
    rules: dict[str, str] = {}
    for d in by_key.values():
        for r, cell in d["cells"].items():
            if cell.get("quote") and (rule is None or r == rule):
                rules.setdefault(r, str(cell.get("title") or r))
    out = []
    for r, title in rules.items():
        items: list[dict[str, Any]] = []
        texts: list[str] = []
        for d in by_key.values():
            cell = d["cells"].get(r) or {}
            q = cell.get("quote")
            if not q:
                continue
            items.append(
                {
                    "path": d["paths"][0],
                    "paths": d["paths"],
                    "review_id": d["review_id"],
                    "pinpoint": pinpoint(q),
                }
            )
            texts.append(str(q["text"]))
        g = group(texts, threshold=threshold)
        families = [_family(m, items, texts, g.similarity) for m in g.members if len(m) > 1]
        out.append(
            {
                "rule": r,
                "title": title,
                "documents": len(texts),
                "families": families,
                "singletons": sum(1 for m in g.members if len(m) == 1),
            }
        )
    return {"run": run_id, "threshold": threshold, "clauses": out}


def document_families(
    docs: Sequence[Mapping[str, Any]], *, threshold: float = 0.8, k: int = 5
) -> list[dict[str, Any]]:
    """Near-duplicate documents (versions, amendments, copies): each family with its members' similarity.

    Each doc is `{"path": …, "text": …}` plus anything to carry along. No diff here: documents are long.
    """
    texts = [str(d["text"]) for d in docs]
    g = group(texts, threshold=threshold, k=k)
    out = []
    for m in g.members:
        if len(m) < 2:
            continue
        pairs = [
            {"a": docs[i]["path"], "b": docs[j]["path"], "similarity": round(g.similarity[(i, j)], 3)}
            for i, j in itertools.combinations(sorted(m), 2)
            if (i, j) in g.similarity
        ]
        out.append({"size": len(m), "members": [docs[i]["path"] for i in m], "pairs": pairs})
    return out


def run_document_families(runs: RunStore, run_id: int, *, threshold: float = 0.8) -> list[dict[str, Any]]:
    """`document_families` over the distinct documents a run reviewed (their text read from the store)."""
    seen: dict[str, dict[str, Any]] = {}
    for e in runs.entries(run_id):
        if e["status"] == DONE and e["key"] not in seen:
            text = runs.store.get_review(e["review_id"]).version.document.text
            seen[e["key"]] = {"path": e["path"], "text": text}
    return document_families(list(seen.values()), threshold=threshold)


def compare_with_exact(texts: Sequence[str], *, threshold: float = 0.8, k: int = 3) -> dict[str, Any]:
    """LSH against exact pairwise Jaccard on `texts`: recall of the pairs at or above `threshold`; time."""
    sets = [shingles(t, k=k) for t in texts]
    t0 = time.perf_counter()
    exact = {
        (i, j)
        for i, j in itertools.combinations(range(len(sets)), 2)
        if sets[i] and sets[j] and jaccard(sets[i], sets[j]) >= threshold
    }
    exact_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    candidates = lsh_pairs(sets, threshold=_lsh_threshold(threshold))
    confirmed = {p for p in candidates if jaccard(sets[p[0]], sets[p[1]]) >= threshold}
    lsh_s = time.perf_counter() - t0
    return {
        "texts": len(texts),
        "threshold": threshold,
        "lsh_threshold": _lsh_threshold(threshold),
        "pairs_compared_exactly": len(sets) * (len(sets) - 1) // 2,
        "true_pairs": len(exact),
        "lsh_candidates": len(candidates),
        "lsh_found": len(confirmed & exact),
        "recall": round(len(confirmed & exact) / len(exact), 4) if exact else None,
        "exact_seconds": round(exact_s, 4),
        "lsh_seconds": round(lsh_s, 4),
    }
