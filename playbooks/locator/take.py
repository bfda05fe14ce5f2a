"""Each head's take bar: how sure the locator must be before its passage becomes a clause the rules missed.

The fusion (`playbooks.locator.fusion`) takes the locator's best passage as the clause when the playbook's
patterns and headings found nothing and the passage's calibrated score (the head's threshold → 0.5) reaches
the take bar. One bar for every head (`fusion.TAKE`, 0.75) treats a head whose finds are right three times in
four like one that is right once in three. The bar is chosen per head by grouped cross-validation instead:
over the contracts the head did not train on **where the rules are silent** (none of the rule's patterns
hits and none of its headings opens a passage — the case the take decides), the lowest calibrated score on
`GRID` from which the locator's finds are right at least `PRECISION` of the time, counted over at least
`SUPPORT` finds; where no score reaches it with that support, the head takes nothing the rules did not
find (`NEVER`); where the data hold too few finds to judge (fewer than `SUPPORT` at the lowest score), the
shared bar stays.

The bars are plain arrays beside the heads' thresholds in the weights (`take_bars`, one per category, on the
calibrated scale); weights without them use the shared bar. `python -m playbooks.locator.take --data DIR
--cv-dir DIR [--weights FILE]` chooses them from the fold models' own scores of the shared contracts (each
contract scored by the fold model that did not train on it; each fold model's bars from the other folds'
contracts, so an evaluation with fold models never judges a contract by a bar its own label helped set) and
writes them into the fold models and, with `--weights`, into the weights trained with them.

**Measured and not shipped** (session 7, docs/locator.md): with the bars in the fold models, the fused
review's macro F1 fell on both ranges (contracts 81–165 0.763 → 0.761, 1–80 0.753 → 0.738): where the rules
are silent the locator's out-of-fold finds are right more often than they are once the engine's own checks
have had their say, and a head that takes nothing loses the finds the rules' words did reach but ruled out.
The shipped weights carry no bars; the command and the run-time path stay for the next measurement.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["GRID", "NEVER", "PRECISION", "SUPPORT", "add_take_bars", "choose_take_bars", "rule_silent"]

#: the calibrated scores a bar may take (the head's threshold is 0.5)
GRID: tuple[float, ...] = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
#: a find the rules did not make must be right at least this often: more often right than wrong
PRECISION = 0.5
#: ... over at least this many out-of-fold finds (fewer: the data cannot tell, the shared bar stays)
SUPPORT = 5
#: the bar of a head whose finds, where the rules are silent, are wrong more often than right at any score
NEVER = 2.0

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]


def calibrated(best: npt.ArrayLike, threshold: npt.ArrayLike) -> FloatArray:
    """`fusion.calibrate` over arrays: 0 → 0, threshold → 0.5, 1 → 1 (piecewise linear)."""
    p = np.asarray(best, dtype=np.float64)
    t = np.clip(np.asarray(threshold, dtype=np.float64), 1e-6, 1 - 1e-6)
    return np.where(p < t, 0.5 * p / t, 0.5 + 0.5 * (p - t) / (1 - t)).astype(np.float32)


def choose_take_bars(
    cal_best: npt.ArrayLike,
    silent: npt.ArrayLike,
    present: npt.ArrayLike,
    *,
    default: float,
    grid: Sequence[float] = GRID,
    precision: float = PRECISION,
    support: int = SUPPORT,
) -> FloatArray:
    """Per category (columns), the take bar from contracts' (rows) best calibrated score `cal_best`, whether
    the rules were silent on the category there (`silent`) and whether the experts mark it (`present`)."""
    cal, quiet, gold = np.asarray(cal_best), np.asarray(silent, dtype=bool), np.asarray(present, dtype=bool)
    bars = np.full(cal.shape[1], default, dtype=np.float32)
    for j in range(cal.shape[1]):
        counts = [(int((quiet[:, j] & (cal[:, j] >= b)).sum()), b) for b in grid]
        if not counts or counts[0][0] < support:
            continue  # too few finds where the rules are silent to judge this head
        bars[j] = NEVER
        for n, b in counts:
            if n < support:
                break
            right = int((quiet[:, j] & (cal[:, j] >= b) & gold[:, j]).sum())
            if right >= precision * n:
                bars[j] = b
                break
    return bars


def rule_silent(
    rule_rows: npt.ArrayLike,
    owner: npt.ArrayLike,
    contracts: int,
    rule_ids: Sequence[str],
    category_of_rule: Mapping[str, str],
    categories: Sequence[str],
) -> BoolArray:
    """`[contracts, categories]`: no unit of the contract has a pattern or heading hit of the category's rule
    (`rule_rows`: the locator's rule features, two columns per rule in `rule_ids` order, one row per unit of
    contract `owner[i]`). A category no rule names is never silent (the rules cannot miss it)."""
    rows, own = np.asarray(rule_rows), np.asarray(owner, dtype=np.int64)
    hit = np.zeros((contracts, len(rule_ids)), dtype=bool)
    if len(rows):
        per_rule = (rows[:, 0::2] != 0) | (rows[:, 1::2] != 0)
        np.logical_or.at(hit, own, per_rule)
    out = np.zeros((contracts, len(categories)), dtype=bool)
    col = {c: j for j, c in enumerate(categories)}
    for k, rid in enumerate(rule_ids):
        c = category_of_rule.get(rid)
        if c in col:
            out[:, col[c]] |= ~hit[:, k]
    return out


def _rewrite(path: Path, bars: FloatArray, note: dict[str, Any]) -> None:
    """`path` (a weights file) with `take_bars` set and how they were chosen in its metadata."""
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(bytes(arrays["meta"]).decode("utf-8")) | {"take_bars": note}
    arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode("utf-8"), dtype=np.uint8)
    arrays["take_bars"] = bars.astype(np.float32)
    np.savez_compressed(path, **arrays)


def add_take_bars(data_dir: Path, cv_dir: Path, weights: Path | None) -> dict[str, Any]:
    """Choose the bars from the fold models' own scores of the shared contracts (each contract scored by the
    fold model that did not train on it) and write them into each fold model (from the other folds'
    contracts) and into `weights` (from all of them)."""
    from playbooks.library import load_playbook
    from playbooks.locator import categories_of
    from playbooks.locator.fusion import TAKE
    from playbooks.locator.model import Locator
    from playbooks.locator.rules import RuleFeatures
    from playbooks.locator.train import load_corpus
    from playbooks.passages import Passages

    fold_of: dict[str, int] = json.loads((cv_dir / "folds.json").read_text(encoding="utf-8"))["fold_of"]
    paths = sorted(cv_dir.glob("fold*.npz"), key=lambda p: int(p.stem[4:]))
    models = []
    for p in paths:
        with np.load(p, allow_pickle=False) as z:
            models.append(Locator(z))
    first = models[0]
    rules = RuleFeatures(first.meta["rules"], scale=first.meta["rule_scale"])
    corpus = load_corpus(data_dir, categories=first.categories, rules=rules)
    n = len(corpus.ids)
    owner = np.asarray(corpus.owner, dtype=np.int64)
    fold = np.array([fold_of[i] for i in corpus.ids], dtype=np.int64)
    cal = np.zeros((n, len(first.categories)), dtype=np.float32)
    for i, path in enumerate(corpus.files):
        loc = models[fold[i]]
        text = path.read_text(encoding="utf-8")
        ps = Passages(text)
        scan = loc.scan_text(text, ps)
        if scan.units:
            cal[i] = calibrated(scan.scores.max(axis=0), loc.thresholds)
    assert corpus.rule_rows is not None
    silent = rule_silent(
        corpus.rule_rows,
        owner,
        n,
        [r["id"] for r in first.meta["rules"]],
        categories_of(load_playbook(first.meta["rules_from"])),
        first.categories,
    )
    note = {"precision": PRECISION, "support": SUPPORT, "grid": list(GRID), "default": TAKE,
            "data_sha256": corpus.sha256, "chosen_on": "fold models' scores, grouped CV"}  # fmt: skip
    report: dict[str, Any] = {}
    for f, p in enumerate(paths):
        other = fold != f
        bars = choose_take_bars(cal[other], silent[other], corpus.present[other], default=TAKE)
        _rewrite(p, bars, note | {"from": "the other folds' contracts"})
        report[p.name] = dict(zip(first.categories, bars.round(2).tolist(), strict=True))
    bars = choose_take_bars(cal, silent, corpus.present, default=TAKE)
    if weights is not None:
        _rewrite(weights, bars, note | {"from": "all contracts"})
    report["all"] = dict(zip(first.categories, bars.round(2).tolist(), strict=True))
    return report


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="the shared CUAD folder")
    ap.add_argument("--cv-dir", type=Path, required=True, help="fold models (`train locator --cv-dir`)")
    ap.add_argument("--weights", type=Path, default=None, help="the weights trained with those folds")
    args = ap.parse_args(argv)
    report = add_take_bars(args.data, args.cv_dir, args.weights)
    sys.stdout.write(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
