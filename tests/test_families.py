"""Families: near-identical clause wordings and near-duplicate documents (MinHash LSH + exact Jaccard)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from citationgate.batch.families import compare_with_exact, document_families, group, shingles, word_diff
from citationgate.cli import app
from tests.batch_fixtures import contract_text, run_in_process

runner = CliRunner()

STANDARD = (
    "Neither party shall assign, transfer or deal in any other manner with any of its rights and obligations "
    "under this Agreement without the prior written consent of the other party, such consent not to be "
    "unreasonably withheld or delayed."
)


def test_word_for_word_copies_and_small_deviations_are_one_family_and_the_rest_are_not() -> None:
    texts = [
        STANDARD,
        STANDARD,
        "  ".join(STANDARD.split()),  # the same words, other whitespace
        STANDARD.replace(
            "not to be unreasonably withheld or delayed", "which may be withheld at its discretion"
        ),
        "The Supplier may assign this Agreement to any of its Affiliates without consent.",
    ]
    g = group(texts, threshold=0.6)
    assert sorted(g.members[0]) == [0, 1, 2, 3] and [4] in g.members


def test_word_diff_says_what_changed() -> None:
    other = STANDARD.replace("not to be unreasonably", "never to be")
    assert word_diff(STANDARD, other) == [  # the fewest words: "not" → "never", "unreasonably" dropped
        {"op": "replace", "from": "not", "to": "never"},
        {"op": "delete", "from": "unreasonably", "to": ""},
    ]
    assert word_diff(STANDARD, STANDARD) == []


def test_lsh_finds_the_pairs_exact_jaccard_finds() -> None:
    """Seeded random clauses, some copied with one word changed: LSH recovers the near pairs exactly."""
    rnd = random.Random(7)
    vocab = [f"w{i}" for i in range(400)]
    texts = []
    for _ in range(40):
        words = [rnd.choice(vocab) for _ in range(60)]
        texts.append(" ".join(words))
        copy = list(words)
        copy[rnd.randrange(60)] = "changed"
        texts.append(" ".join(copy))
    m = compare_with_exact(texts, threshold=0.8)
    assert m["true_pairs"] == 40 and m["recall"] == 1.0 and m["lsh_found"] == 40
    assert m["pairs_compared_exactly"] == 80 * 79 // 2


def test_near_duplicate_documents_are_found_and_unrelated_ones_are_not() -> None:
    base = "\n\n".join(contract_text(1) for _ in range(3))
    amended = base.replace("thirty (30) days", "forty-five (45) days")
    docs = [
        {"path": "v1.txt", "text": base},
        {"path": "v2.txt", "text": amended},
        {"path": "other.txt", "text": " ".join(f"word{i}" for i in range(300))},
    ]
    fams = document_families(docs, threshold=0.7)
    assert len(fams) == 1 and sorted(fams[0]["members"]) == ["v1.txt", "v2.txt"]
    assert 0.7 <= fams[0]["pairs"][0]["similarity"] < 1.0


def test_shingles_of_short_text() -> None:
    assert shingles("Governing law") == frozenset(["governing law"])
    assert shingles("") == frozenset()


def test_families_command_groups_a_runs_clauses(tmp_path: Path) -> None:
    room = tmp_path / "room"
    room.mkdir()
    for i in range(3):
        (room / f"msa_{i}.txt").write_text(contract_text(i), encoding="utf-8")
    (room / "deviating.txt").write_text(
        contract_text(9).replace("within thirty (30) days of receipt", "within ninety (90) days of receipt"),
        encoding="utf-8",
    )
    url = f"sqlite:///{tmp_path / 'f.db'}"
    run_id = run_in_process(room, url)
    result = runner.invoke(
        app,
        ["families", str(run_id), "--db", url, "--format", "json", "--rule", "payment", "--threshold", "0.4"],
    )
    assert result.exit_code == 0, result.output
    (payment,) = json.loads(result.stdout)["clauses"]
    (family,) = payment["families"]
    assert family["size"] == 4 and family["identical_to_representative"] == 3
    assert "thirty (30) days" in family["representative"]["quote"]
    (deviant,) = [m for m in family["members"] if not m["identical"]]
    assert deviant["path"].endswith("deviating.txt")
    assert deviant["diff"] == [{"op": "replace", "from": "thirty (30)", "to": "ninety (90)"}]
    table = runner.invoke(app, ["families", str(run_id), "--db", url, "--documents"])
    assert table.exit_code == 0 and "Payment terms: 4 documents, 1 family" in table.stdout
    assert "near-duplicate documents (" in table.stdout  # the four differ only in a name and a number
