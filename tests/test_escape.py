"""Every surface escapes what it did not write: the terminal, Markdown and CSV."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.escape import csv_cell, markdown, terminal

runner = CliRunner()

HOSTILE = "\x1b[2J\x1b]0;owned\x07\u202eevil\x9b31m"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[2J", "\\u001b[2J"),  # clear screen
        ("\x1b]0;title\x07", "\\u001b]0;title\\u0007"),  # OSC window title
        ("a\u202eb\u2066c", "a\\u202eb\\u2066c"),  # bidi override and isolate
        ("\x9b31m", "\\u009b31m"),  # C1 CSI
        ("line\nnext\ttab", "line\nnext\ttab"),  # newline and tab are ours to keep
        ("plain ₦50,000,000 “quoted”", "plain ₦50,000,000 “quoted”"),
    ],
    ids=["csi", "osc", "bidi", "c1", "newline-tab", "plain-unicode"],
)
def test_terminal_shows_control_characters_as_visible_escapes(raw: str, shown: str) -> None:
    assert terminal(raw) == shown


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("# Heading", "\\# Heading"),
        ("<script>alert(1)</script>", "&lt;script\\>alert(1)&lt;/script\\>"),
        ("[click](javascript:alert(1))", "\\[click\\](javascript:alert(1))"),
        ("![img](x)", "\\!\\[img\\](x)"),
        ("*bold* _em_ `code` a|b ~~s~~", "\\*bold\\* \\_em\\_ \\`code\\` a\\|b \\~\\~s\\~\\~"),
        ("&lt; entity", "&amp;lt; entity"),
        ("1. not a list", "1\\. not a list"),
        ("- not a bullet", "\\- not a bullet"),
        ("two\nlines", "two lines"),
    ],
    ids=[
        "heading",
        "html",
        "link",
        "image",
        "emphasis-code-table",
        "entity",
        "ordered",
        "bullet",
        "one-line",
    ],
)
def test_markdown_escapes_all_of_it(raw: str, escaped: str) -> None:
    assert markdown(raw) == escaped


@pytest.mark.parametrize("prefix", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_neutralises_formula_prefixes(prefix: str) -> None:
    assert csv_cell(f'{prefix}HYPERLINK("http://x","y")') == f'\'{prefix}HYPERLINK("http://x","y")'
    assert csv_cell("The Supplier shall") == "The Supplier shall"


def _verified(tmp_path: Path, name: str = "msa\x1b[31m.txt") -> tuple[Path, Path, dict[str, object]]:
    doc = tmp_path / name
    doc.write_text(
        f"1. Term\nThe Supplier shall provide the Services {HOSTILE} for twelve (12) months.\n",
        encoding="utf-8",
    )
    props = tmp_path / "p.json"
    quote = f"provide the Services {HOSTILE} for twelve (12) months"
    props.write_text(
        json.dumps(
            {
                "proposals": [
                    {
                        "id": "p1",
                        "claim": '=HYPERLINK("http://evil","x") # <script>x</script> \x1b[2J',
                        "rule": "term\x1b]0;t\x07",
                        "citations": [{"quote": quote}],
                    }
                ]
            }
        )
    )
    out = runner.invoke(app, ["verify", str(props), "--doc", str(doc), "--format", "json"])
    assert out.exit_code == 0, out.output
    return doc, props, json.loads(out.stdout)


def test_no_terminal_escape_reaches_the_terminal(tmp_path: Path) -> None:
    """verify, findings, audit and an error naming a hostile file: nothing raw reaches the screen."""
    doc, props, data = _verified(tmp_path)
    assert data["findings"][0]["citations"][0]["text"].count("\x1b") == 2  # the JSON keeps the data
    for args in (
        ["verify", str(props), "--doc", str(doc)],
        ["findings", "1"],
        ["findings", "1", "--format", "md"],
        ["audit"],
        ["verify", str(props), "--doc", str(tmp_path / "gone\x1b[2J.txt")],
    ):
        result = runner.invoke(app, args)
        for stream in (result.stdout, result.stderr):
            assert (
                "\x1b" not in stream
                and "\u202e" not in stream
                and "\x9b" not in stream
                and "\x07" not in stream
            )
    shown = runner.invoke(app, ["findings", "1"]).stdout
    assert "\\u001b]0;owned\\u0007" in shown and "\\u202eevil" in shown


def test_findings_md_escapes_everything_from_outside(tmp_path: Path) -> None:
    _verified(tmp_path)
    md = runner.invoke(app, ["findings", "1", "--format", "md"]).stdout
    assert "<script>" not in md and "&lt;script\\>" in md
    assert "\n# " not in md.replace("# Review 1", "")  # no heading made of a claim


def test_ledger_csv_and_md_neutralise_hostile_claims(tmp_path: Path) -> None:
    _verified(tmp_path)
    csv_out = runner.invoke(app, ["ledger", "1", "--format", "csv"])
    assert csv_out.exit_code == 0, csv_out.output
    rows = list(csv.DictReader(io.StringIO(csv_out.stdout)))
    assert rows and all(not str(v).startswith(("=", "+", "-", "@")) for r in rows for v in r.values())
    md = runner.invoke(app, ["ledger", "1", "--format", "md"]).stdout
    assert "<script>" not in md


def test_review_out_is_checked_before_anything_is_stored(tmp_path: Path) -> None:
    """`review --out /nonexistent/x.md`: one Error line, exit 2, and no review stored."""
    from citationgate.store import Store

    doc = tmp_path / "c.txt"
    doc.write_text("1. Term\nThis Agreement runs for twelve (12) months.\n", encoding="utf-8")
    result = runner.invoke(app, ["review", str(doc), "--out", str(tmp_path / "nonexistent" / "x.md")])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: --out {tmp_path / 'nonexistent' / 'x.md'}: the folder {tmp_path / 'nonexistent'} "
        "does not exist; nothing was done\n"
    )
    assert Store.open().list_reviews() == [] and Store.open().list_versions() == []
