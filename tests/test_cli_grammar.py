"""One CLI grammar: formats, choices in help, readable usage lines, help as paragraphs, quiet pipes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from citationgate.cli import COMMANDS, app, load_all
from citationgate.evaluation.report import render_text

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_contracts"


def _commands() -> list[tuple[list[str], typer.core.TyperCommand]]:
    load_all()
    group = typer.main.get_command(app)
    out = []
    for name, cmd in group.commands.items():  # type: ignore[attr-defined]
        subs = getattr(cmd, "commands", None)
        if subs:
            out.extend(([name, s], c) for s, c in subs.items())
        else:
            out.append(([name], cmd))
    return out


COMMANDS_WALKED = _commands()
IDS = [" ".join(w) for w, _ in COMMANDS_WALKED]


@pytest.mark.parametrize(("words", "command"), COMMANDS_WALKED, ids=IDS)
def test_every_format_option_offers_table_and_json_and_defaults_to_table(
    words: list[str], command: typer.core.TyperCommand
) -> None:
    """`table` for people (the default), `json` for pipes; document formats only where one is rendered
    (`review`'s default follows its --out file's extension, else table)."""
    fmt = next((p for p in command.params if p.name == "fmt"), None)
    if fmt is None:
        return
    choices = [str(c) for c in fmt.type_descriptor.choices or ()]  # type: ignore[attr-defined]
    assert choices[0] == "table" and "json" in choices, (words, choices)
    assert set(choices) <= {"table", "json", "md", "csv", "html", "docx", "issues-docx", "xlsx"}
    out = next((p for p in command.params if p.name == "out"), None)
    assert str(fmt.default) == "table" or (fmt.default is None and out is not None), (words, fmt.default)


@pytest.mark.parametrize(("words", "command"), COMMANDS_WALKED, ids=IDS)
def test_help_reads_as_words_and_paragraphs(words: list[str], command: typer.core.TyperCommand) -> None:
    result = runner.invoke(app, [*words, "--help"], terminal_width=100)
    assert result.exit_code == 0
    usage = result.stdout.splitlines()[0]
    assert usage.startswith(f"Usage: citationgate {' '.join(words)} [OPTIONS]")
    assert "{" not in usage and "<" not in usage
    for noise in ("<list[", "<str>", "<path>", "<int>", "<bool>"):
        assert noise not in result.stdout, (words, noise)
    # help paragraphs are wrapped to the terminal, never cut where the source had a line break
    assert all(len(line) <= 100 for line in result.stdout.splitlines())


def test_usage_lines_name_the_arguments() -> None:
    def usage(*words: str) -> str:
        return runner.invoke(app, [*words, "--help"]).stdout.splitlines()[0]

    assert usage("reverify") == "Usage: citationgate reverify [OPTIONS] [REVIEW_ID] NEW_FILE"
    assert usage("verify") == "Usage: citationgate verify [OPTIONS] PROPOSALS.json"
    assert usage("diff") == "Usage: citationgate diff [OPTIONS] OLD [NEW]"
    assert usage("schema") == "Usage: citationgate schema [OPTIONS] NAME"


def test_choices_are_listed_in_help() -> None:
    for command in ("ingest", "review"):
        out = runner.invoke(app, [command, "--help"]).stdout
        assert "--view <accepted|original>" in out
        assert "--format <table|json" in out
    assert "--db URL" in runner.invoke(app, ["coverage", "--help"]).stdout


def test_help_text_is_not_markup() -> None:
    """`[mcp]` is an extra's name: it survives into help, joined into its sentence."""
    out = " ".join(runner.invoke(app, ["mcp", "--help"]).stdout.split())
    assert "Needs the mcp extra: pip install 'citationgate[mcp]'." in out


def test_ingest_speaks_table_like_every_command() -> None:
    result = runner.invoke(app, ["ingest", str(SAMPLES / "meridian_msa.txt"), "--format", "text"])
    assert result.exit_code == 2  # `text` was ingest's own word for the table
    assert "sha256" in runner.invoke(app, ["ingest", str(SAMPLES / "meridian_msa.txt")]).stdout


@pytest.mark.parametrize(
    "args",
    [
        ["findings", "--list"],
        ["audit"],
        ["diff", str(SAMPLES / "meridian_msa.txt"), str(SAMPLES / "meridian_msa.txt")],
    ],
    ids=["findings --list", "audit", "diff"],
)
def test_a_closed_stdout_ends_quietly_with_the_conventional_status(args: list[str], db_path: Path) -> None:
    """`citationgate audit | head` once printed `Error: internal error (BrokenPipeError)` and exit 70.
    (Every command prints something, even to an empty store, so the first write meets the closed pipe.)"""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first write: `| head -0`
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from citationgate.cli import main; main()", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            env={**os.environ, "CITATIONGATE_DB": str(db_path)},
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert done.stderr.decode() == ""
    assert done.returncode == 141  # 128 + SIGPIPE, as `yes | head` reports


def test_eval_tables_have_headers() -> None:
    headline = {"facts": {}}
    details = {
        "facts": {
            "contracts": 2,
            "right": 3,
            "total": 4,
            "accuracy": 0.75,
            "per_fact": {
                "governing_law": {"right": 2, "total": 2, "accuracy": 1.0},
                "parties": {"right": 1, "total": 2, "accuracy": 0.5},
            },
        }
    }
    lines = render_text(headline, details).splitlines()
    i = lines.index("fact           right  of  accuracy")
    assert lines[i + 1] == "-------------  -----  --  --------"
    assert lines[i + 2] == "governing_law      2   2    100.0%"


def test_the_lazy_listing_is_each_commands_own_help() -> None:
    """`citationgate --help` lists commands from a registry (their modules load only when used); each
    line is the command's own first paragraph, so the listing cannot drift from the help."""
    from typer._click.utils import make_default_short_help

    load_all()
    group = typer.main.get_command(app)
    for name, (_module, short) in COMMANDS.items():
        command = group.get_command(None, name)  # type: ignore[attr-defined, arg-type]
        assert command is not None, name
        assert short == make_default_short_help(command.help or "", 10_000), name
    listed = [w[0] for w, _ in COMMANDS_WALKED]
    assert [n for n in COMMANDS if n != "playbooks"] == [n for n in dict.fromkeys(listed) if n in COMMANDS][
        :-1
    ]


def test_help_imports_no_command_module() -> None:
    """`citationgate --help` needs Typer and the registry only: no store, reader or playbook engine."""
    code = textwrap.dedent(
        """
        import sys
        from citationgate.cli import main
        sys.argv = ["citationgate", "--help"]
        try:
            main()
        except SystemExit:
            pass
        heavy = {"sqlalchemy", "sqlmodel", "numpy", "pydantic", "playbooks", "pypdf", "docx", "lxml"}
        heavy |= {"bm25s", "rapidfuzz", "mcp"}
        print(sorted({m.split(".")[0] for m in sys.modules} & heavy), file=sys.stderr)
        cli = [m for m in sys.modules if m.startswith("citationgate.cli.") and m != "citationgate.cli.app"]
        print(sorted(cli), file=sys.stderr)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert "Commands:" in done.stdout
    assert done.stderr.split() == ["[]", "[]"]


def test_each_command_module_imports_only_what_its_command_runs() -> None:
    """Every command's module loads without the store, the gate, the playbook engine, the readers or
    Dask: those are imported by the command that uses them, so `citationgate audit --help` (and every
    other COMMAND --help) pays for Typer alone, and `findings` never loads the gate."""
    code = textwrap.dedent(
        """
        import sys
        from citationgate.cli import load_all
        load_all()
        heavy = {"sqlalchemy", "sqlmodel", "numpy", "pydantic", "playbooks", "pypdf", "pypdfium2", "docx"}
        heavy |= {"lxml", "bm25s", "rapidfuzz", "mcp", "dask", "distributed", "rich", "yaml", "wordllama"}
        print(sorted({m.split(".")[0] for m in sys.modules} & heavy))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]"]


def test_ask_leaves_stderr_to_our_own_lines(tmp_path: Path) -> None:
    """wordllama calls logging.basicConfig(level=INFO) when imported and bm25s logs at DEBUG: neither
    may reach the user's stderr ("DEBUG:bm25s:Building index from tokens" at every `ask`)."""
    contract = tmp_path / "c.txt"
    contract.write_text("1. Fees\n\n1.1 The Customer shall pay each invoice within 30 days.\n")
    env = {k: v for k, v in os.environ.items() if k != "CITATIONGATE_NO_SEMANTIC"}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from citationgate.cli import main; main()",
            "ask",
            str(contract),
            "when do we pay?",
            "--format",
            "json",
            "--db",
            str(tmp_path / "a.db"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["results"]
    assert not [line for line in done.stderr.splitlines() if "DEBUG" in line or line.startswith("INFO")]
