"""`citationgate eval`: the real-data measurements on a small, fast subset (the full runs are commands)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from citationgate.cli import app

runner = CliRunner()


def test_eval_headline_json_on_a_subset(shared_data: Path, tmp_path: Path) -> None:
    """Re-typed expert spans all locate; no mutation verifies; every headline figure is there."""
    out = tmp_path / "evaluation.md"
    result = runner.invoke(
        app,
        [
            "eval",
            "gate",
            "pdf",
            "clauses",
            "--data",
            str(shared_data),
            "--limit",
            "4",
            "--format",
            "json",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    headline = json.loads(result.stdout)
    assert headline["gate"]["location_rate"] == 1.0
    assert headline["gate"]["false_verifications"] == 0
    assert headline["gate"]["mutations_tried"] > 100
    assert headline["pdf"]["location_rate"] >= 0.99
    if headline["pdf"]["typeset_files"]:  # 0 where no ligature font is installed (the part says why)
        assert headline["pdf"]["typeset_files"] == 4
        assert headline["pdf"]["typeset_clean_withheld"] == 0
        assert headline["pdf"]["typeset_defects"] == 20 and headline["pdf"]["typeset_defects_missed"] == 0
    for figures in headline["categories"].values():
        assert set(figures) >= {"precision", "recall", "f1", "false_absence_rate", "span_overlap"}
    text = out.read_text(encoding="utf-8")
    assert "do not edit by hand" in text and "| Governing Law |" in text


def test_eval_nda_subset(shared_data: Path) -> None:
    result = runner.invoke(
        app, ["eval", "nda", "--data", str(shared_data), "--limit", "3", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    nda = json.loads(result.stdout)["nda"]
    assert nda["ndas"] == 3 and "nda-8" in nda["hypotheses"]


def test_eval_without_data_is_one_error_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["eval", "gate", "--data", str(tmp_path)])
    assert result.exit_code == 3
    assert result.stderr == (
        f"Error: {tmp_path / 'cuad' / 'annotations.jsonl'}: CUAD annotations not found "
        "(expected the CUAD/ContractNLI layout of shared/data)\n"
    )


def test_eval_rejects_an_unknown_part() -> None:
    result = runner.invoke(app, ["eval", "everything"])
    assert result.exit_code == 2
    assert "unknown part 'everything'" in result.stderr


def test_eval_clauses_skip_measures_a_later_range(shared_data: Path) -> None:
    """`--skip N --limit M` scores contracts N+1 … N+M only, so a setting chosen on one range can be
    measured on another; the headline says how many were left out."""
    result = runner.invoke(
        app,
        ["eval", "clauses", "--data", str(shared_data), "--skip", "3", "--limit", "1", "--format", "json"],
    )
    assert result.exit_code == 0, result.output
    clauses = json.loads(result.stdout)["clauses"]
    assert clauses["contracts"] == 1 and clauses["skipped"] == 3


def test_eval_clauses_where_asked_leaves_out_only_rules_the_contract_type_is_not_asked(
    shared_data: Path,
) -> None:
    """The `where_asked` figures are the fused review's without the decisions whose mapped rule does not
    apply to the contract's type: every other decision is the same, and the ones left out are counted."""
    from citationgate.evaluation.clause_eval import CUAD_MAP, evaluate_clauses
    from playbooks import load_playbook

    typed = {c.id for c in load_playbook("msa-customer").clauses if c.applies_to}
    r = evaluate_clauses(shared_data, limit=4)
    where, every = r["where_asked"], r["categories"]
    left_out = 0
    for category, whens in CUAD_MAP.items():
        a, b = every[category], where["categories"][category]
        if not {w.rule for w in whens} & typed:
            assert a == b, category
        assert b["expert_present"] <= a["expert_present"]
        left_out += a["expert_present"] - b["expert_present"]
    assert left_out == where["not_asked"]["expert_present"]
