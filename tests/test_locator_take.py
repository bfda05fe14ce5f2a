"""Each head's own take bar: the locator's passage becomes a clause the rules missed when its calibrated
score reaches the bar its head earned by grouped CV (right more often than wrong where the rules are
silent), not one bar for every head."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ingest.load import load_document
from playbooks import load_playbook, run_playbook
from playbooks.locator import Locator, load_locator
from playbooks.locator.fusion import TAKE, calibrate, take_bar
from playbooks.locator.take import NEVER, SUPPORT, _rewrite, calibrated, choose_take_bars, rule_silent
from tests.test_locator_fusion import LONG_SENTENCE, PATTERN_ONLY_CAP, _long_contract

# --- choosing the bars ---------------------------------------------------------------------------------


def _head(scores: list[float], right: list[bool]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One head over contracts where the rules are silent: best calibrated scores and the experts' marks."""
    cal = np.array(scores, dtype=np.float32)[:, None]
    return cal, np.ones_like(cal, dtype=bool), np.array(right, dtype=bool)[:, None]


def test_a_head_right_from_the_threshold_takes_from_the_threshold() -> None:
    cal, silent, gold = _head([0.52, 0.58, 0.63, 0.8, 0.9, 0.95], [True, True, False, True, True, True])
    assert choose_take_bars(cal, silent, gold, default=TAKE)[0] == pytest.approx(0.5)


def test_a_head_takes_from_where_it_turns_right_more_often_than_wrong() -> None:
    # from 0.7 on, 3 of its 6 finds are right; from 0.65 on, 3 of 7
    scores = [0.51, 0.52, 0.55, 0.6, 0.62, 0.66, 0.7, 0.72, 0.8, 0.85, 0.9, 0.99]
    right = [False] * 6 + [False, True, False, False, True, True]
    cal, silent, gold = _head(scores, right)
    assert choose_take_bars(cal, silent, gold, default=TAKE)[0] == pytest.approx(0.7)


def test_a_head_wrong_at_every_score_takes_nothing_the_rules_missed() -> None:
    cal, silent, gold = _head([0.55, 0.6, 0.7, 0.8, 0.9, 0.97], [False, False, True, False, False, False])
    assert choose_take_bars(cal, silent, gold, default=TAKE)[0] == NEVER


def test_too_few_finds_keep_the_shared_bar() -> None:
    cal, silent, gold = _head([0.9] * (SUPPORT - 1) + [0.1, 0.2], [False] * (SUPPORT + 1))
    assert choose_take_bars(cal, silent, gold, default=TAKE)[0] == pytest.approx(TAKE)


def test_only_contracts_where_the_rules_are_silent_count() -> None:
    """The head's finds where the rules already located the clause do not decide when it should take."""
    cal = np.array([[0.9]] * 10, dtype=np.float32)
    gold = np.array([[True]] * 5 + [[False]] * 5)
    silent = np.array([[False]] * 5 + [[True]] * 5)  # right only where the rules found it anyway
    assert choose_take_bars(cal, silent, gold, default=TAKE)[0] == NEVER


def test_calibrated_matches_the_fusions_calibration() -> None:
    p = np.array([0.0, 0.15, 0.3, 0.65, 1.0])
    assert calibrated(p, np.full(5, 0.3)) == pytest.approx([calibrate(x, 0.3) for x in p], abs=1e-6)


def test_rule_silence_per_contract_and_category() -> None:
    """Two rules (pattern and heading columns each), three units of two contracts: contract 0 has a pattern
    hit of rule a, contract 1 a heading hit of rule b; a category no rule names is never silent."""
    rows = np.zeros((3, 4), dtype=np.float32)
    rows[0, 0] = 0.3  # unit 0 (contract 0): a pattern of rule a
    rows[2, 3] = 0.3  # unit 2 (contract 1): a heading of rule b
    out = rule_silent(rows, [0, 0, 1], 2, ["a", "b"], {"a": "A", "b": "B"}, ["A", "B", "C"])
    assert out.tolist() == [[False, True, False], [True, False, False]]


# --- the fusion uses the head's own bar --------------------------------------------------------------


def _zebra_locator(tmp_path: Path, category: str, bars: float | None) -> Path:
    """A real weights file whose `category` head rates a passage with "zebra" at probability 0.6 against a
    threshold of 0.5 (calibrated 0.6: over the threshold, under the shared take bar) and nothing else; with
    `bars`, that head's take bar in the file."""
    loc = load_locator()
    meta = {
        "format": 1,
        "version": "zebra-take-test",
        "categories": list(loc.categories),
        "blocks": [{"name": "word", "kind": "word", "lo": 1, "hi": 1}],
    }
    n = len(loc.categories)
    coef = np.zeros((1, n), dtype=np.int8)
    coef[0, list(loc.categories).index(category)] = 127
    logit = float(np.log(0.6 / 0.4))
    out = tmp_path / f"zebra_{bars}.npz"
    np.savez(
        out,
        meta=np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8),
        word_vocab=np.frombuffer(b"zebra", dtype=np.uint8),
        word_idf=np.ones(1, dtype=np.float32),
        coef_q=coef,
        coef_scale=np.full(n, (10.0 + logit) / 127, dtype=np.float32),
        intercept=np.full(n, -10.0, dtype=np.float32),
        thresholds=np.full(n, 0.5, dtype=np.float32),
    )
    if bars is not None:
        _rewrite(out, np.full(n, bars, dtype=np.float32), {"test": True})
    return out


@pytest.mark.parametrize(
    ("bars", "taken"), [(None, False), (0.55, True), (NEVER, False)], ids=["shared", "own-low", "never"]
)
def test_the_fusion_takes_by_the_heads_own_bar(tmp_path: Path, bars: float | None, taken: bool) -> None:
    """A change-of-control sentence no pattern of the rule reads, rated 0.6 calibrated by its head: under
    the shared bar (0.75) it is not taken; a head whose finds earned a bar of 0.55 takes it; a head whose
    finds are wrong at any score takes nothing."""
    p = _long_contract(tmp_path)
    text = p.read_text(encoding="utf-8").replace(PATTERN_ONLY_CAP.format(n=31), LONG_SENTENCE)
    p.write_text(text, encoding="utf-8")
    doc = load_document(p)
    locator = load_locator(_zebra_locator(tmp_path, "Change of Control", bars))
    scan = locator.scan(doc)
    best = scan.top("Change of Control", k=1)[0]
    assert calibrate(best.score, locator.threshold("Change of Control")) == pytest.approx(0.6, abs=0.01)
    assert take_bar(locator, "Change of Control") == (TAKE if bars is None else pytest.approx(bars))
    cc = {o.rule: o for o in run_playbook(doc, load_playbook("msa-customer"), locator=locator)}[
        "change_of_control"
    ]
    assert (cc.location is not None and cc.location.via == "locator") is taken
    if taken:
        start = doc.text.index("32. Control.")
        assert cc.quotes and all(start <= q.start < q.end <= start + len(LONG_SENTENCE) for q in cc.quotes)
    else:
        assert not cc.quotes


# --- the command writes them --------------------------------------------------------------------------

_GRANT = "The Licensor hereby grants to the Licensee a worldwide licence to use the Software, zebra."
_OTHER = "The parties shall meet each quarter to review the progress of the work and its reports."


def _tiny_cuad(root: Path, n: int = 12) -> Path:
    """A CUAD-layout folder of `n` short contracts of distinct filers; the even ones carry a licence grant
    marked by the experts."""
    (root / "texts").mkdir(parents=True)
    lines = []
    for i in range(n):
        body = [f"AGREEMENT {i}", "", *(f"{k}. Meetings. {_OTHER} {_OTHER} {_OTHER}" for k in range(1, 11))]
        if i % 2 == 0:
            body.append(f"11. Rights. {_GRANT}")
        text = "\n\n".join(body) + "\n"
        (root / "texts" / f"c{i}.txt").write_text(text, encoding="utf-8")
        spans = [{"start": text.index(_GRANT), "end": text.index(_GRANT) + len(_GRANT)}] if i % 2 == 0 else []
        rec = {"id": f"c{i:03d}", "title": f"Filer{i}Inc_2020_EX-10", "text_file": f"texts/c{i}.txt",
               "categories": {"License Grant": {"spans": spans}}}  # fmt: skip
        lines.append(json.dumps(rec))
    (root / "annotations.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def test_the_command_writes_each_heads_bar_into_the_fold_models_and_the_weights(tmp_path: Path) -> None:
    """Trained on a tiny corpus (two folds), then `python -m playbooks.locator.take`: every fold model and the
    weights carry one bar per head and say where it was chosen; the heads' other arrays are untouched."""
    pytest.importorskip("sklearn")
    from playbooks.locator.take import main
    from playbooks.locator.train import PARAMS, train_locator

    data = _tiny_cuad(tmp_path / "cuad")
    params = PARAMS | {"blocks": [PARAMS["blocks"][0] | {"min_df": 1}], "epochs": 5}
    out, cv = tmp_path / "w.npz", tmp_path / "cv"
    train_locator(data, out, folds=2, params=params, cv_dir=cv)
    before = np.load(out, allow_pickle=False)["coef_q"].copy()
    assert load_locator(out).take_bars is None
    assert main(["--data", str(data), "--cv-dir", str(cv), "--weights", str(out)]) == 0
    for path, source in ((out, "all contracts"), (cv / "fold0.npz", "the other folds' contracts")):
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
            loc = Locator(z)
        assert loc.take_bars is not None and len(loc.take_bars) == len(loc.categories)
        assert all(0.5 <= b <= 1.0 or b == NEVER for b in loc.take_bars.tolist())
        assert loc.meta["take_bars"]["from"] == source
        if path == out:
            assert np.array_equal(arrays["coef_q"], before)
