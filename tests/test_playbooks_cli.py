"""`citationgate playbooks list | show | validate | test`: output, JSON shape and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from playbooks import load_playbook

runner = CliRunner()

TINY = """\
schema: citationgate-playbook/1
id: tiny
version: 0.1.0
title: Tiny
our_role: customer
clauses:
  - id: governing_law
    title: Governing law
    required: true
    locate: {headings: [governing law], patterns: ["governed by"]}
    extract: {law: {type: jurisdiction}}
    positions:
      standard: {when: {field: law, in: [New York]}}
      otherwise: unacceptable
tests:
  - name: new york
    text: "This Agreement is governed by the laws of the State of New York."
    expect: {governing_law: standard}
"""


def _tiny(tmp_path: Path, text: str = TINY) -> Path:
    p = tmp_path / "tiny.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_list_table() -> None:
    """The table lists each built-in with its version, role, clause count and hash."""
    result = runner.invoke(app, ["playbooks", "list"])
    assert result.exit_code == 0, result.output
    pb = load_playbook("msa-customer")
    line = next(x for x in result.stdout.splitlines() if x.startswith("msa-customer"))
    assert pb.version in line and pb.sha256[:12] in line and str(len(pb.clauses)) in line


def test_list_json() -> None:
    """JSON: nothing but the document, one entry per built-in playbook."""
    result = runner.invoke(app, ["playbooks", "list", "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    msa = next(p for p in data["playbooks"] if p["id"] == "msa-customer")
    assert msa["sha256"] == load_playbook("msa-customer").sha256
    assert msa["our_role"] == "customer" and msa["clauses"] >= 27 and msa["tests"] > 0


def test_show_lists_positions_in_evaluation_order() -> None:
    """`show` prints each clause's positions, unacceptable before standard, then fallbacks by rank."""
    result = runner.invoke(app, ["playbooks", "show", "msa-customer"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    block = out[out.index("limitation_of_liability —") : out.index("ip_indemnity —")]
    assert (
        block.index("unacceptable: all(cap_months exists, cap_months lt 6)")
        < block.index("standard:")
        < block.index("fallback 1:")
    )
    assert "check ip_indemnity_outside_cap" in out


def test_show_json_round_trips_the_playbook() -> None:
    """`show --format json` carries the whole playbook as loaded, with its hash."""
    result = runner.invoke(app, ["playbooks", "show", "msa-customer", "--format", "json"])
    data = json.loads(result.stdout)
    assert data["sha256"] == load_playbook("msa-customer").sha256
    assert data["playbook"]["schema"] == "citationgate-playbook/1"
    assert data["playbook"]["clauses"][0]["id"] == "limitation_of_liability"


def test_validate_good(tmp_path: Path) -> None:
    """A valid file: one line naming it, exit 0."""
    p = _tiny(tmp_path)
    result = runner.invoke(app, ["playbooks", "validate", str(p)])
    assert result.exit_code == 0
    assert result.stdout.startswith(f"{p}: valid — tiny 0.1.0, 1 clauses, 0 checks, 1 tests")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "expect: {governing_law: standard}",
            "expect: {governing_law: standrad}",
            "Error: tiny.yaml: line 18: tests[0].expect.governing_law: Input should be",
        ),
        (
            "{field: law, in: [New York]}",
            "{field: lwa, in: [New York]}",
            "Error: tiny.yaml: line 13: clauses[0].positions.standard.when.field: "
            "unknown field 'lwa' (expected one of: law)\n",
        ),
        (
            "title: Tiny\n",
            "title: Tiny\ncolour: blue\n",
            "Error: tiny.yaml: line 5: colour: unknown field 'colour'",
        ),
        ("clauses:\n", "clauses: [\n", "Error: tiny.yaml: line 7, column 3: invalid YAML"),
    ],
    ids=["bad-outcome", "misspelt-field", "unknown-top-level-field", "yaml-syntax"],
)
def test_validate_bad(tmp_path: Path, old: str, new: str, message: str) -> None:
    # a bad playbook is one `Error: …` line on stderr naming file, line and field, and exit code 4
    assert old in TINY
    result = runner.invoke(app, ["playbooks", "validate", str(_tiny(tmp_path, TINY.replace(old, new)))])
    assert result.exit_code == 4
    assert result.stdout == ""
    assert result.stderr.startswith(message), result.stderr
    assert "Traceback" not in result.output


def test_validate_missing_file(tmp_path: Path) -> None:
    """A path that does not exist is a playbook error, exit 4."""
    result = runner.invoke(app, ["playbooks", "validate", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 4
    assert "nope.yaml: no such playbook" in result.stderr


def test_test_builtins_pass() -> None:
    """`playbooks test` with no argument runs every built-in playbook's tests; all pass, exit 0."""
    result = runner.invoke(app, ["playbooks", "test"])
    assert result.exit_code == 0, result.output
    pb = load_playbook("msa-customer")
    n = sum(len(t.expect) for t in pb.model.tests)
    assert f"msa-customer {pb.version}: {n} of {n} tests pass" in result.stdout


def test_test_failure_exits_1(tmp_path: Path) -> None:
    """A failing embedded test prints FAIL with the reason and exits 1; JSON reports it too."""
    p = _tiny(
        tmp_path, TINY.replace("expect: {governing_law: standard}", "expect: {governing_law: unacceptable}")
    )
    result = runner.invoke(app, ["playbooks", "test", str(p)])
    assert result.exit_code == 1
    assert "FAIL new york: governing_law: expected unacceptable, got standard" in result.stdout
    result = runner.invoke(app, ["playbooks", "test", str(p), "--format", "json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["failed"] == 1
    assert data["playbooks"][0]["results"][0] == {
        "name": "new york: governing_law",
        "passed": False,
        "expected": "unacceptable",
        "got": "standard",
        "detail": data["playbooks"][0]["results"][0]["detail"],
    }


def test_playbooks_help_documented() -> None:
    """Every playbooks subcommand has help, and the README documents the command."""
    for sub in ("list", "show", "validate", "test"):
        result = runner.invoke(app, ["playbooks", sub, "--help"])
        assert result.exit_code == 0 and "Usage" in result.stdout
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert "citationgate playbooks validate" in readme
