"""A text, flag, path or choice value is coerced without pydantic (`citationgate.cli.app.PlainParam`), exactly
as Typer's own adapter coerces it: the same value, or the same error word for word, on every parameter of
every command."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer._coercion import build_runtime_param

from citationgate.cli import app, load_all
from citationgate.cli.app import PlainParam, plain_param


def _params() -> list[tuple[str, Any, Any]]:
    """(command path, click command, parameter) for every parameter of every command."""
    load_all()
    root = typer.main.get_command(app)
    out = []

    def walk(cmd: Any, path: str) -> None:
        for p in cmd.params:
            out.append((path, cmd, p))
        for name, sub in getattr(cmd, "commands", {}).items():
            walk(sub, f"{path} {name}".strip())

    ctx = typer.Context(root)
    for name in root.list_commands(ctx):
        walk(root.get_command(ctx, name), name)
    return out


PARAMS = _params()


def _outcome(runtime: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any]:
    try:
        return "value", runtime.coerce(value, param=param, ctx=ctx)
    except Exception as exc:
        return type(exc).__name__, getattr(exc, "message", str(exc))


def test_most_parameters_are_coerced_without_pydantic() -> None:
    plain = [p for _path, _cmd, p in PARAMS if plain_param(p.type_descriptor) is not None]
    assert len(plain) >= 0.6 * len(PARAMS)
    verify = [p for path, _cmd, p in PARAMS if path == "verify" and p.type_descriptor.annotation is not bool]
    assert verify and all(isinstance(p.get_runtime_param(), PlainParam) for p in verify)


def test_plain_coercion_is_typers_own(tmp_path: Path) -> None:
    a_file = tmp_path / "contract.txt"
    a_file.write_text("1. Fees\n")
    values: list[Any] = [
        "table", "json", "TABLE", "Json", "md", "nope", "", " ", "-", "3", "accepted", "head",
        str(a_file), str(tmp_path), str(tmp_path / "missing.txt"), "a\udcffb", "é.txt", "x\x00y",
    ]  # fmt: skip
    compared = 0
    for path, cmd, param in PARAMS:
        plain = plain_param(param.type_descriptor)
        if plain is None:
            continue
        full = build_runtime_param(param.type_descriptor)
        ctx = typer.Context(cmd, info_name=path)
        for value in [*values, param.default]:
            assert _outcome(plain, value, param, ctx) == _outcome(full, value, param, ctx), (
                path,
                param.name,
                value,
            )
            compared += 1
    assert compared > 300


BAD = [
    ["verify", "p.json", "--doc", "d.txt", "--format", "yaml"],
    ["verify", "p.json", "--doc", "d.txt", "--format", "YAML"],
    ["findings", "--format", "pdf", "--list"],
    ["review", "c.txt", "--view", "both"],
    ["audit", "tail"],
    ["schema", "nope"],
    ["verify", "--doc", "d.txt"],
]


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a) for a in BAD])
def test_a_wrong_value_gets_typers_own_message(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    cli_app = importlib.import_module("citationgate.cli.app")  # the module, not the app of that name
    ours = CliRunner().invoke(app, args)
    monkeypatch.setattr(cli_app, "plain_param", lambda descriptor: None)  # Typer's coercion throughout
    typers = CliRunner().invoke(app, args)
    assert ours.exit_code == typers.exit_code == 2
    assert ours.output == typers.output
    assert "Error: " in ours.output


def test_a_fresh_verify_imports_no_pydantic(tmp_path: Path) -> None:
    doc = tmp_path / "contract.txt"
    doc.write_text("1. Fees\n\n1.1 The Customer shall pay each invoice within 30 days of receipt.\n")
    props = tmp_path / "p.json"
    quote = "The Customer shall pay each invoice within 30 days"
    props.write_text(
        json.dumps({"proposals": [{"id": "p1", "claim": "pay", "citations": [{"quote": quote}]}]})
    )
    code = (
        "import sys\n"
        "from citationgate.cli import main\n"
        f"sys.argv = ['citationgate', 'verify', {str(props)!r}, '--doc', {str(doc)!r}, '--format', 'json',"
        f" '--db', {str(tmp_path / 'r.db')!r}]\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
        "print(code, sorted(m for m in ('pydantic', 'sqlalchemy') if m in sys.modules), file=sys.stderr)\n"
        "import gc\nprint(gc.get_freeze_count() > 0, file=sys.stderr)\n"  # frozen for the exit
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert json.loads(done.stdout)["findings"][0]["status"] == "verified"
    assert done.stderr.split() == ["0", "[]", "True"]


@pytest.mark.parametrize("value", ["x.json", "é.json"])
def test_paths_reach_the_command_as_paths(value: str) -> None:
    (_path, _cmd, param), *_ = [
        (p, c, q) for p, c, q in PARAMS if p == "verify" and q.name == "proposals_file"
    ]
    ctx = typer.Context(_cmd, info_name="verify")
    assert param.get_runtime_param().coerce(value, param=param, ctx=ctx) == Path(value)
