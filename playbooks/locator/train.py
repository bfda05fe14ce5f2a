"""Training the locator on the shared CUAD contracts (scikit-learn, only here: `pip install '.[train]'`).

Reproducible: a fixed seed, contracts read in id order, folds of whole companies (every contract of one
EDGAR filer — parts, amendments, re-filings — sits in one fold), and the sha256 of the data recorded in
the weights. A unit (see `playbooks.locator.units`) is a positive example of a category when it and an
expert span of that category overlap by at least half of the shorter of the two.

`train_locator(data_dir, out)` runs grouped k-fold cross-validation (the out-of-fold scores choose each
category's presence threshold and give the figures in the weights' metadata), then fits the shipped model
on every contract and writes it as plain arrays. With `cv_dir`, the fold models are written too, so an
evaluation can score each contract with the model that never saw it.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from playbooks.locator.categories import CATEGORIES
from playbooks.locator.model import FORMAT
from playbooks.locator.rules import RuleFeatures
from playbooks.locator.units import cut_units
from playbooks.passages import Passages

__all__ = ["Corpus", "group_of", "load_corpus", "train_locator"]

SEED = 20261201
FOLDS = 5
#: vectorizer and classifier settings (chosen by grouped CV on the shared split; see docs/evaluation.md)
#: (character 3–5-grams were measured too: as good at five times the training time and weight, so left out)
PARAMS: dict[str, Any] = {
    "blocks": [{"name": "word", "kind": "word", "lo": 1, "hi": 3, "min_df": 3, "max_features": 40_000}],
    "alpha": 3e-5,
    "epochs": 15,
    "class_weight": "balanced",
    # each unit also read beside its neighbours: w × (previous + next unit's features), own coefficients
    # (0.5 measured: +0.003 macro F1 over the rules features alone, recall −0.012, twice the weights: off)
    "context": 0.0,
    # the built-in playbook's patterns and headings as features (playbooks.locator.rules), copied in
    "rules": "msa-customer",
    "rule_scale": 0.3,
}
_SUFFIX = re.compile(r"(?:inc|corp|corporation|co|llc|ltd|plc|lp|sa|nv|ag|company|holdings?)+$")


def group_of(title: str) -> str:
    """The filer of a CUAD contract, from its title: `ARMSTRONGFLOORING,INC_01_07_2019-EX-10.2-…` and
    `ArmstrongFlooringInc_20190107_8-K_…` are both `armstrongflooring` (one company, one fold)."""
    head = re.split(r"_|\s-\s", title, maxsplit=1)[0]
    key = re.sub(r"[^a-z0-9]", "", head.lower())
    return _SUFFIX.sub("", key) or key


@dataclass(slots=True)
class Corpus:
    ids: list[str] = field(default_factory=list)  # contract ids, in order
    groups: list[str] = field(default_factory=list)  # filer of each contract
    texts: list[str] = field(default_factory=list)  # unit texts, all contracts
    units: list[tuple[int, int]] = field(default_factory=list)  # unit ranges into their contract's text
    owner: list[int] = field(default_factory=list)  # unit → contract index
    labels: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))
    present: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))
    spans: list[dict[str, list[tuple[int, int]]]] = field(default_factory=list)  # per contract
    files: list[Path] = field(default_factory=list)  # per contract
    rule_rows: npt.NDArray[np.float32] | None = None  # unit × rule features, when asked for
    sha256: str = ""


def _positive(unit: tuple[int, int], spans: Sequence[tuple[int, int]]) -> bool:
    a, b = unit
    for s, e in spans:
        inter = min(b, e) - max(a, s)
        if inter > 0 and inter >= 0.5 * min(b - a, e - s):
            return True
    return False


def load_corpus(
    data_dir: Path, *, categories: Sequence[str] = CATEGORIES, rules: RuleFeatures | None = None
) -> Corpus:
    """The CUAD contracts under `data_dir` (the folder holding `annotations.jsonl` and `texts/`);
    with `rules`, each unit's rule features too."""
    ann = data_dir / "annotations.jsonl"
    if not ann.is_file():
        raise FileNotFoundError(f"{data_dir}: no annotations.jsonl (expected the shared CUAD folder)")
    digest = hashlib.sha256()
    raw = ann.read_bytes()
    digest.update(raw)
    records = sorted(
        (json.loads(line) for line in raw.decode("utf-8").splitlines() if line), key=lambda r: r["id"]
    )
    corpus = Corpus()
    labels: list[list[bool]] = []
    present: list[list[bool]] = []
    rule_rows: list[npt.NDArray[np.float32]] = []
    for rec in records:
        corpus.files.append(data_dir / rec["text_file"])
        data = (data_dir / rec["text_file"]).read_bytes()
        digest.update(data)
        text = data.decode("utf-8")
        k = len(corpus.ids)
        corpus.ids.append(rec["id"])
        corpus.groups.append(group_of(rec["title"]))
        spans = {
            c: [(s["start"], s["end"]) for s in rec["categories"][c]["spans"]]
            for c in categories
            if c in rec["categories"]
        }
        corpus.spans.append(spans)
        present.append([bool(spans.get(c)) for c in categories])
        passages = Passages(text)
        units = cut_units(text, passages.items)
        if rules is not None:
            rule_rows.append(rules.matrix(passages, units))
        for unit in units:
            corpus.units.append(unit)
            corpus.texts.append(text[unit[0] : unit[1]])
            corpus.owner.append(k)
            labels.append([_positive(unit, spans.get(c, ())) for c in categories])
    corpus.labels = np.array(labels, dtype=bool)
    corpus.present = np.array(present, dtype=bool)
    corpus.sha256 = digest.hexdigest()
    if rules is not None:
        corpus.rule_rows = np.vstack(rule_rows) if rule_rows else np.zeros((0, len(rules)), np.float32)
    return corpus


def folds_of(corpus: Corpus, *, k: int = FOLDS, seed: int = SEED) -> npt.NDArray[np.int64]:
    """Fold of each contract: whole filers, shuffled with `seed`, dealt to the fold with fewest units."""
    rng = np.random.default_rng(seed)
    groups = sorted(set(corpus.groups))
    rng.shuffle(groups)
    sizes = np.bincount(np.asarray(corpus.owner), minlength=len(corpus.ids))
    load = np.zeros(k)
    fold_of_group: dict[str, int] = {}
    by_group: dict[str, int] = {}
    for i, g in enumerate(corpus.groups):
        by_group[g] = by_group.get(g, 0) + int(sizes[i])
    for g in sorted(groups, key=lambda g: -by_group[g]):  # biggest first, ties in shuffled order
        f = int(np.argmin(load))
        fold_of_group[g] = f
        load[f] += by_group[g]
    return np.array([fold_of_group[g] for g in corpus.groups], dtype=np.int64)


def _vectorizers(params: dict[str, Any]) -> list[tuple[str, Any]]:
    from sklearn.feature_extraction.text import TfidfVectorizer

    return [
        (
            b["name"],
            TfidfVectorizer(
                analyzer=b["kind"], ngram_range=(b["lo"], b["hi"]), min_df=b["min_df"],
                max_features=b["max_features"], sublinear_tf=True, dtype=np.float32,
            ),
        )
        for b in params["blocks"]
    ]  # fmt: skip


def with_context(x: Any, owner: npt.NDArray[np.int64], weight: float) -> Any:
    """`[x | weight · (x of the previous unit + x of the next unit)]`, neighbours within one contract."""
    from scipy import sparse

    n = x.shape[0]
    idx = np.arange(n)
    rows: list[npt.NDArray[np.int64]] = []
    cols: list[npt.NDArray[np.int64]] = []
    for step in (-1, 1):
        other = idx + step
        ok = (other >= 0) & (other < n)
        ok[ok] &= owner[other[ok]] == owner[idx[ok]]
        rows.append(idx[ok])
        cols.append(other[ok])
    r, c = np.concatenate(rows), np.concatenate(cols)
    near = sparse.csr_matrix((np.full(len(r), weight, dtype=np.float32), (r, c)), shape=(n, n))
    return sparse.hstack([x, near @ x]).tocsr()


def _fit_heads(x: Any, y: npt.NDArray[np.bool_], params: dict[str, Any], seed: int) -> tuple[Any, Any]:
    """One logistic regression per category (log loss, L2, fitted by SGD with a fixed seed)."""
    from sklearn.linear_model import SGDClassifier

    coef = np.zeros((x.shape[1], y.shape[1]), dtype=np.float32)
    intercept = np.zeros(y.shape[1], dtype=np.float32)
    for j in range(y.shape[1]):
        if not y[:, j].any():
            intercept[j] = -30.0
            continue
        clf = SGDClassifier(
            loss="log_loss", alpha=params["alpha"], class_weight=params["class_weight"],
            max_iter=params["epochs"], tol=None, random_state=seed,
        )  # fmt: skip
        clf.fit(x, y[:, j])
        coef[:, j] = clf.coef_[0]
        intercept[j] = clf.intercept_[0]
    return coef, intercept


def _sigmoid(z: Any) -> Any:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def _contract_max(scores: Any, owner: npt.NDArray[np.int64], n: int) -> Any:
    out = np.zeros((n, scores.shape[1]), dtype=np.float32)
    np.maximum.at(out, owner, scores)
    return out


def _best_threshold(p: Any, y: Any) -> float:
    """The presence threshold (one of the observed contract scores) with the best F1."""
    best: tuple[float, float] = (-1.0, 0.5)
    order = np.argsort(-p, kind="stable")
    ps, ys = p[order], y[order].astype(np.int64)
    tp = np.cumsum(ys)
    k = np.arange(1, len(ps) + 1)
    positives = max(int(ys.sum()), 1)
    f1 = 2 * tp / (k + positives)
    for i in np.flatnonzero((np.r_[ps[1:], -1.0] < ps) & (tp > 0)):  # the last of each run of equal scores
        best = max(best, (float(f1[i]), float(ps[i])))
    return best[1]


def _pack(
    *,
    meta: dict[str, Any],
    vecs: list[tuple[str, Any]],
    coef: Any,
    intercept: Any,
    thresholds: Any,
) -> dict[str, Any]:
    scale = np.maximum(np.abs(coef).max(axis=0), 1e-12) / 127.0
    arrays: dict[str, Any] = {
        "meta": np.frombuffer(json.dumps(meta, sort_keys=True).encode("utf-8"), dtype=np.uint8),
        "coef_q": np.round(coef / scale[None, :]).astype(np.int8),
        "coef_scale": scale.astype(np.float32),
        "intercept": np.asarray(intercept, dtype=np.float32),
        "thresholds": np.asarray(thresholds, dtype=np.float32),
    }
    for name, v in vecs:
        vocab = sorted(v.vocabulary_, key=v.vocabulary_.get)
        arrays[f"{name}_vocab"] = np.frombuffer("\n".join(vocab).encode("utf-8"), dtype=np.uint8)
        arrays[f"{name}_idf"] = v.idf_.astype(np.float32)
    return arrays


def model_version(
    data_sha256: str, params: dict[str, Any], seed: int, rules: Sequence[dict[str, Any]] | None
) -> str:
    """The version a trained locator carries in every review that used it: the data, the settings, the
    seed — and the playbook rules copied into its features, which change with the playbook while the settings
    name it only by id (a retrain after a playbook edit had carried the shipped model's version with other
    weights)."""
    setting = hashlib.sha256(json.dumps(params, sort_keys=True).encode("utf-8")).hexdigest()[:6]
    version = f"cuad-lr-{data_sha256[:8]}-p{setting}"
    if rules is not None:
        ruled = json.dumps(list(rules), sort_keys=True, default=str).encode("utf-8")
        version += f"-r{hashlib.sha256(ruled).hexdigest()[:6]}"
    return f"{version}-s{seed}"


def _meta(
    version: str, corpus: Corpus, params: dict[str, Any], seed: int, extra: dict[str, Any]
) -> dict[str, Any]:
    import sklearn

    return {
        "format": FORMAT,
        "version": version,
        "categories": list(CATEGORIES),
        "blocks": [{k: b[k] for k in ("name", "kind", "lo", "hi")} for b in params["blocks"]],
        "context": float(params.get("context") or 0.0),
        "data_sha256": corpus.sha256,
        "contracts": len(corpus.ids),
        "units": len(corpus.texts),
        "seed": seed,
        "params": params,
        "trained_with": f"scikit-learn {sklearn.__version__}",
        "data_licence": "CUAD v1, © The Atticus Project, Inc., CC BY 4.0",
    } | extra


def train_locator(
    data_dir: Path,
    out: Path,
    *,
    folds: int = FOLDS,
    seed: int = SEED,
    params: dict[str, Any] | None = None,
    cv_dir: Path | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Cross-validate, fit on everything, write the weights to `out`; return the training report."""
    from scipy import sparse

    params = params or PARAMS
    say = progress or (lambda _m: None)
    t0 = time.perf_counter()
    rules = None
    if params.get("rules"):
        from playbooks.library import load_playbook

        rules = RuleFeatures.of_playbook(load_playbook(params["rules"]), scale=params["rule_scale"])
    corpus = load_corpus(data_dir, rules=rules)
    say(f"{len(corpus.ids)} contracts, {len(corpus.texts)} units ({time.perf_counter() - t0:.0f} s)")
    vecs = _vectorizers(params)
    blocks = [v.fit_transform(corpus.texts) for _, v in vecs]
    if corpus.rule_rows is not None:
        blocks.append(sparse.csr_matrix(corpus.rule_rows))
    x_own = sparse.hstack(blocks).tocsr()
    owner = np.asarray(corpus.owner, dtype=np.int64)
    context = float(params.get("context") or 0.0)
    x = with_context(x_own, owner, context) if context else x_own
    say(f"features {x.shape[1]} ({time.perf_counter() - t0:.0f} s)")
    fold = folds_of(corpus, k=folds, seed=seed)
    unit_fold = fold[owner]
    oof = np.zeros(corpus.labels.shape, dtype=np.float32)
    fold_models: list[tuple[Any, Any]] = []
    for f in range(folds):
        tr = unit_fold != f
        coef, b = _fit_heads(x[tr], corpus.labels[tr], params, seed)
        fold_models.append((coef, b))
        oof[~tr] = _sigmoid(x[~tr] @ coef + b)
        say(f"fold {f + 1}/{folds} ({time.perf_counter() - t0:.0f} s)")
    n = len(corpus.ids)
    pmax = _contract_max(oof, owner, n)
    thresholds = np.array([_best_threshold(pmax[:, j], corpus.present[:, j]) for j in range(len(CATEGORIES))])
    coef, b = _fit_heads(x, corpus.labels, params, seed)
    version = model_version(corpus.sha256, params, seed, rules.spec if rules is not None else None)
    cv = {"folds": folds, "fold_of": dict(zip(corpus.ids, fold.tolist(), strict=True))}
    extra: dict[str, Any] = {"cv": {"folds": folds, "grouping": "filer (company)"}}
    if rules is not None:
        extra |= {"rules": rules.spec, "rule_scale": rules.scale, "rules_from": params["rules"]}
    meta = _meta(version, corpus, params, seed, extra)
    # probes: a few passages and the probabilities scikit-learn gave them, for the run-time equality test
    rng = np.random.default_rng(seed)
    probe_idx = np.sort(
        np.concatenate([rng.choice(np.flatnonzero(corpus.labels.any(axis=1)), 6, replace=False),
                        rng.choice(len(corpus.texts), 4, replace=False)])
    )  # fmt: skip
    arrays = _pack(meta=meta, vecs=vecs, coef=coef, intercept=b, thresholds=thresholds)
    arrays["probe_texts"] = np.frombuffer(
        "\x00".join(corpus.texts[i] for i in probe_idx).encode("utf-8"), dtype=np.uint8
    )
    # scikit-learn's features of the probes (each read alone: no neighbours) times the shipped (int8)
    # weights: run time must match this exactly; and the unrounded weights' scores: what rounding costs
    shipped = arrays["coef_q"].astype(np.float32) * arrays["coef_scale"][None, :]
    own = x_own.shape[1]
    x_probe = x_own[probe_idx].toarray()
    if rules is not None:  # a text read alone is its own document: its rule features are its own
        x_probe[:, own - len(rules) :] = np.vstack(
            [rules.matrix(Passages(t), [(0, len(t))]) for t in (corpus.texts[i] for i in probe_idx)]
        )
    arrays["probe_scores"] = _sigmoid(x_probe @ shipped[:own] + b).astype(np.float32)
    arrays["probe_scores_unrounded"] = _sigmoid(x_probe @ coef[:own] + b).astype(np.float32)
    # and one whole contract's units in order, read with their neighbours as `scan` reads them
    sizes = np.bincount(owner, minlength=n)
    small = int(np.flatnonzero((sizes >= 5) & (sizes <= 30))[0])
    seq = np.flatnonzero(owner == small)
    arrays["probe_seq_text"] = np.frombuffer(corpus.files[small].read_bytes(), dtype=np.uint8)
    arrays["probe_seq_scores"] = _sigmoid(x[seq] @ shipped + b).astype(np.float32)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **arrays)
    if cv_dir is not None:
        cv_dir.mkdir(parents=True, exist_ok=True)
        for f, (fc, fb) in enumerate(fold_models):
            fmeta = meta | {"version": f"{version}-fold{f}", "fold": f}
            tr_ids = np.flatnonzero(fold != f)
            fth = np.array(
                [_best_threshold(pmax[tr_ids, j], corpus.present[tr_ids, j]) for j in range(len(CATEGORIES))]
            )
            np.savez_compressed(
                cv_dir / f"fold{f}.npz", **_pack(meta=fmeta, vecs=vecs, coef=fc, intercept=fb, thresholds=fth)
            )
        (cv_dir / "folds.json").write_text(json.dumps(cv, indent=1, sort_keys=True), encoding="utf-8")
        np.save(cv_dir / "oof_units.npy", oof)
    say(f"done ({time.perf_counter() - t0:.0f} s)")
    return {
        "version": version,
        "data_sha256": corpus.sha256,
        "contracts": n,
        "units": len(corpus.texts),
        "features": int(x.shape[1]),
        "seconds": round(time.perf_counter() - t0, 1),
        "bytes": out.stat().st_size,
        "cv": _cv_report(pmax, corpus, thresholds, fold),
    }


def _cv_report(pmax: Any, corpus: Corpus, thresholds: Any, fold: Any) -> dict[str, Any]:
    """Per category, contract-level presence by out-of-fold scores; each fold's threshold is chosen on
    the other folds' out-of-fold scores, so no contract's own label sets the threshold that judges it."""
    rep: dict[str, Any] = {}
    for j, c in enumerate(CATEGORIES):
        y = corpus.present[:, j]
        pred = np.zeros(len(y), dtype=bool)
        for f in np.unique(fold):
            other = fold != f
            t = _best_threshold(pmax[other, j], y[other])
            pred[fold == f] = pmax[fold == f, j] >= t
        tp, fp, fn = int((pred & y).sum()), int((pred & ~y).sum()), int((~pred & y).sum())
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        rep[c] = {
            "present": int(y.sum()),
            "precision": round(p, 4),
            "recall": round(r, 4),
            "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0,
            "threshold": round(float(thresholds[j]), 3),
        }
    return rep
