"""Every command has help and is documented in the README; the README's commands exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from citationgate.cli import app, load_all

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
runner = CliRunner()


def _commands() -> list[list[str]]:
    load_all()  # command modules load lazily; walk them all
    group = typer.main.get_command(app)
    out: list[list[str]] = []
    for name, cmd in group.commands.items():  # type: ignore[attr-defined]
        out.append([name])
        for sub in getattr(cmd, "commands", {}):
            out.append([name, sub])
    return out


COMMANDS = _commands()


@pytest.mark.parametrize("words", COMMANDS, ids=[" ".join(w) for w in COMMANDS])
def test_every_command_has_help_and_is_in_the_readme(words: list[str]) -> None:
    result = runner.invoke(app, [*words, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage" in result.stdout
    command = f"citationgate {' '.join(words)}"
    assert command in README, f"`{command}` is not in README.md"


def test_every_command_the_readme_names_exists() -> None:
    named = set(re.findall(r"citationgate ([a-z][a-z-]+)", README))
    known = {w[0] for w in COMMANDS}
    assert named - known == set()


def test_the_readme_keeps_its_two_fresh_machine_commands() -> None:
    assert "pip install -e . && citationgate review sample_contracts/northwind_msa.docx" in README
    assert "pip install -e '.[dev]' && python -m pytest -q" in README
    assert (ROOT / "sample_contracts" / "northwind_msa.docx").is_file()


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest -q" in ci and "pip install -q -e '.[dev]'" in ci
