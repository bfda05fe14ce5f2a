"""The shipped clause locator: plain-array weights, run-time scores equal to training-time scores,
passages with verbatim offsets, and the features computed exactly as scikit-learn computes them."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from ingest.load import load_document
from playbooks import PlaybookError, load_playbook
from playbooks.locator import CATEGORIES, WEIGHTS, LocatorError, categories_of, load_locator
from playbooks.locator.features import Block, char_wb_ngrams, word_ngrams
from playbooks.locator.units import HARD, cut_units
from playbooks.passages import Passages

CONTRACT = """\
MASTER SERVICES AGREEMENT

1. Services. The Supplier shall provide the services described in each statement of work.

2. Fees. The Customer shall pay the fees within thirty days of the date of each invoice.

3. Limitation of Liability. In no event shall either party's aggregate liability arising out of or
relating to this Agreement exceed the total fees paid by the Customer in the twelve months preceding
the claim. Neither party shall be liable for any indirect, incidental or consequential damages.

4. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the
State of New York, without regard to its conflict of laws principles.

5. Assignment. Neither party may assign this Agreement without the prior written consent of the other
party, which shall not be unreasonably withheld.
"""


def test_weights_are_plain_arrays_small_enough_to_ship() -> None:
    """No pickle: the file loads with allow_pickle=False, and it stays under the 5 MB goal."""
    with np.load(WEIGHTS, allow_pickle=False) as arrays:
        meta = json.loads(bytes(arrays["meta"]).decode("utf-8"))
        assert all(arrays[k].dtype != object for k in arrays.files)
    assert WEIGHTS.stat().st_size < 5_000_000
    assert len(meta["data_sha256"]) == 64 and meta["seed"] == meta["params"].get("seed", meta["seed"])


def test_locator_names_its_version_and_categories() -> None:
    loc = load_locator()
    assert loc.version.startswith("cuad-lr-")
    assert loc.categories == CATEGORIES
    assert loc.thresholds.shape == (len(CATEGORIES),)
    assert load_locator() is loc  # read once, kept


def test_run_time_scores_equal_the_training_time_scores() -> None:
    """Passages scored at training time (scikit-learn's features times the shipped weights) score the
    same in numpy; and rounding the coefficients to int8 moves no probability by more than 0.03."""
    loc = load_locator()
    with np.load(WEIGHTS, allow_pickle=False) as arrays:
        texts = bytes(arrays["probe_texts"]).decode("utf-8").split("\x00")
        expected = arrays["probe_scores"]
        unrounded = arrays["probe_scores_unrounded"]
    got = loc.score(texts)
    assert got.shape == expected.shape == (len(texts), len(CATEGORIES))
    np.testing.assert_allclose(got, expected, atol=1e-5)
    np.testing.assert_allclose(got, unrounded, atol=0.03)


def test_a_whole_contract_scans_as_at_training_time() -> None:
    """One whole training contract, read as `scan` reads it — its units in order (each beside its
    neighbours when the weights read context), with the rule features of the patterns copied into the
    weights — scores in numpy as scikit-learn's features scored it at training time."""
    loc = load_locator()
    with np.load(WEIGHTS, allow_pickle=False) as arrays:
        text = bytes(arrays["probe_seq_text"]).decode("utf-8")
        expected = arrays["probe_seq_scores"]
    assert loc.rules is not None and len(expected) >= 5
    np.testing.assert_allclose(loc.scan_text(text).scores, expected, atol=1e-5)


def test_scores_are_probabilities_and_empty_input_is_empty() -> None:
    loc = load_locator()
    s = loc.score(["", "the", "This Agreement shall be governed by the laws of Delaware."])
    assert s.shape == (3, len(CATEGORIES)) and ((s >= 0) & (s <= 1)).all()
    assert loc.score([]).shape == (0, len(CATEGORIES))


@pytest.mark.parametrize(
    ("category", "words"),
    [
        ("Cap on Liability", "aggregate liability"),
        ("Governing Law", "governed by"),
        ("Anti-Assignment", "may assign"),
    ],
    ids=["liability cap", "governing law", "assignment"],
)
def test_the_best_passage_of_a_category_is_its_clause_quoted_verbatim(
    tmp_path: Path, category: str, words: str
) -> None:
    p = tmp_path / "msa.txt"
    p.write_text(CONTRACT, encoding="utf-8")
    doc = load_document(p)
    top = load_locator().locate(doc, category, k=2)
    assert top[0].rank == 1 and top[0].score >= top[1].score
    quoted = doc.text[top[0].start : top[0].end]
    assert words in quoted and quoted == quoted.strip()


def test_unknown_category_is_a_key_error_naming_it() -> None:
    scan = load_locator().scan_text(CONTRACT)
    with pytest.raises(KeyError, match="Indemnification"):
        scan.top("Indemnification")


def test_a_missing_weights_file_is_a_locator_error(tmp_path: Path) -> None:
    with pytest.raises(LocatorError, match=r"cannot read locator weights"):
        load_locator(tmp_path / "nothing.npz")


def test_units_are_tight_ordered_and_bounded() -> None:
    """Units never overlap, never start or end with whitespace, and never exceed HARD characters."""
    text = CONTRACT + "\n\n" + ("word " * 600) + "\n\nEND."
    units = cut_units(text, Passages(text).items)
    assert units and all(a < b for a, b in units)
    assert all(b1 <= a2 for (_, b1), (a2, _) in itertools.pairwise(units))
    assert all(text[a:b] == text[a:b].strip() and b - a <= HARD for a, b in units)


def test_word_ngrams_follow_scikit_learn() -> None:
    """Lower-cased tokens of two or more word characters, then 2- and 3-grams joined by a space."""
    assert word_ngrams("The Cap: a $5 fee", 1, 2) == ["the", "cap", "fee", "the cap", "cap fee"]


def test_char_wb_ngrams_follow_scikit_learn() -> None:
    """Each word padded by one space; a padded word shorter than n counts once."""
    assert char_wb_ngrams("Ab  c", 3, 4) == [" ab", "ab ", " ab ", " c "]


def test_features_match_scikit_learn_where_it_is_installed() -> None:
    """The oracle: scikit-learn's own analyzers on contract-like text (skipped without the train extra)."""
    text_mod = pytest.importorskip("sklearn.feature_extraction.text")
    for analyzer, ours in (("word", word_ngrams), ("char_wb", char_wb_ngrams)):
        lo, hi = (1, 3) if analyzer == "word" else (3, 5)
        sk = text_mod.TfidfVectorizer(analyzer=analyzer, ngram_range=(lo, hi)).build_analyzer()
        assert sorted(sk(CONTRACT)) == sorted(ours(CONTRACT, lo, hi))


def test_built_in_playbook_clauses_name_known_categories() -> None:
    cats = categories_of(load_playbook("msa-customer"))
    assert cats["limitation_of_liability"] == "Cap on Liability"
    assert cats["assignment"] == "Anti-Assignment"
    assert set(cats.values()) <= set(CATEGORIES)


def test_a_playbook_naming_an_unknown_category_does_not_load(tmp_path: Path) -> None:
    p = tmp_path / "pb.yaml"
    p.write_text(
        "schema: citationgate-playbook/1\nid: t\nversion: 1.0.0\ntitle: T\nour_role: customer\n"
        "clauses:\n  - id: law\n    title: Law\n    locate:\n      category: Governing Lore\n"
        "      patterns: [governed by]\n",
        encoding="utf-8",
    )
    with pytest.raises(PlaybookError, match="unknown locator category 'Governing Lore'"):
        load_playbook(p)


@pytest.mark.parametrize("kind", ["word", "char_wb"])
def test_a_batch_of_texts_has_the_features_each_text_has_alone(kind: str) -> None:
    """The oracle for the vectorised path: `Block.matrix` over many texts gives, row by row, exactly the
    columns and values that `Block.row` gives each text alone (n-grams never cross two texts)."""
    texts = [
        CONTRACT,
        "",
        "Assignment. Neither party may assign",
        "party may assign this Agreement",
        "no vocabulary here: zzqx",
    ]
    if kind == "word":
        block = load_locator().blocks[0]
    else:
        grams = sorted(set(char_wb_ngrams(CONTRACT, 3, 4)))[::3]
        block = Block(
            kind="char_wb", vocab=grams, idf=np.linspace(1, 3, len(grams)).astype(np.float32), lo=3, hi=4
        )
    rows, cols, vals = block.matrix(texts)
    for i, t in enumerate(texts):
        c, v = block.row(t)
        order = np.argsort(c)
        assert rows[rows == i].size == c.size
        np.testing.assert_array_equal(cols[rows == i], c[order])
        np.testing.assert_allclose(vals[rows == i], v[order], rtol=1e-12)


def test_a_locators_version_names_the_playbook_rules_copied_into_its_features() -> None:
    """Two trainings that differ only in the playbook's rules (the settings name the playbook by id) carry
    different versions, so a review says which weights it used; without rule features there is no `r` part."""
    from playbooks.locator.train import model_version

    params = {"rules": "msa-customer", "C": 4.0}
    one = model_version("9e6d5e4c" * 8, params, 7, [{"id": "payment", "patterns": ["pay"]}])
    other = model_version("9e6d5e4c" * 8, params, 7, [{"id": "payment", "patterns": ["pay", "remit"]}])
    assert one != other and one.startswith("cuad-lr-9e6d5e4c-p") and one.endswith("-s7")
    assert "-r" not in model_version("9e6d5e4c" * 8, params, 7, None)
