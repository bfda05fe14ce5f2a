"""A custom playbook's patterns run under a time bound: a pattern that backtracks catastrophically in a way
the static check does not see ends `review` with one `Error:` line (exit 4) naming it, and stores nothing.
The built-in playbooks stay on `re`; bounded matching finds exactly what `re` finds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from playbooks import load_playbook
from playbooks.library import BUILTIN_DIR
from playbooks.regex_safety import (
    TIMEOUT_ENV,
    BoundedPattern,
    RegexTimeoutError,
    backtracking_risk,
    bounded,
    bounded_search,
)
from playbooks.schema import parse_playbook
from tests.databases import run_sql

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent

#: overlapping alternation under a repetition: exponential on a line that does not end as it wants, and
#: not the shape the static check refuses (a repetition of varying length inside a repetition)
HOSTILE = r"(?:[a-z]|[a-z ])+$"
LINE = "the supplier shall provide the services for twelve months and the customer shall pay the fees,"


def _custom(tmp_path: Path, pattern: str) -> Path:
    text = (ROOT / "tests" / "playbook_fixtures" / "illustrative.yaml").read_text(encoding="utf-8")
    playbook = tmp_path / "custom.yaml"
    playbook.write_text(text.replace('"shall not exceed"', json.dumps(pattern), 1), encoding="utf-8")
    return playbook


def _contract(tmp_path: Path) -> Path:
    doc = tmp_path / "c.txt"
    doc.write_text(f"1. Term\n{LINE}\n\n2. Fees\n{LINE}\n", encoding="utf-8")
    return doc


def test_the_static_check_misses_this_pattern() -> None:
    assert backtracking_risk(HOSTILE) is None


def test_a_hostile_custom_pattern_ends_review_with_an_error_and_stores_nothing(
    tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A playbook whose evaluation raises after the file was read: exit 4, the pattern and its line named,
    and neither the version nor a review stored; what was stored before is intact."""
    monkeypatch.setenv(TIMEOUT_ENV, "0.1")
    first = tmp_path / "first.txt"
    first.write_text("1. Term\nThis Agreement runs for twelve (12) months.\n", encoding="utf-8")
    assert runner.invoke(app, ["review", str(first)]).exit_code == 0
    before = [run_sql(db_url, f"SELECT count(*) FROM {t}")[0][0] for t in ("document_versions", "reviews")]
    result = runner.invoke(
        app, ["review", str(_contract(tmp_path)), "--playbook", str(_custom(tmp_path, HOSTILE))]
    )
    assert result.exit_code == 4, result.output
    (line,) = result.stderr.splitlines()
    assert line == (
        "Error: custom.yaml: line 14: clauses[0].locate.patterns[0]: regular expression "
        f"{HOSTILE!r} ran past its bound of 0.1 s ({TIMEOUT_ENV}): it backtracks catastrophically on "
        "this contract; bound its repetitions, or make them atomic (?>…) or possessive (*+, ++)"
    )
    after = [run_sql(db_url, f"SELECT count(*) FROM {t}")[0][0] for t in ("document_versions", "reviews")]
    assert after == before
    check = runner.invoke(app, ["audit", "--check"])
    assert check.exit_code == 0, check.output


def test_the_same_pattern_made_possessive_reviews(tmp_path: Path) -> None:
    """The fix the error names works: the atomic form of the same pattern runs at once."""
    fixed = r"(?>[a-z]|[a-z ])++$"
    result = runner.invoke(
        app, ["review", str(_contract(tmp_path)), "--playbook", str(_custom(tmp_path, fixed)), "--no-store"]
    )
    assert result.exit_code == 0, result.output


def test_a_bad_timeout_setting_is_one_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TIMEOUT_ENV, "soon")
    result = runner.invoke(
        app, ["review", str(_contract(tmp_path)), "--playbook", str(_custom(tmp_path, "fees"))]
    )
    assert result.exit_code == 4
    assert result.stderr == f"Error: {TIMEOUT_ENV}='soon': expected a number of seconds between 0 and 3600\n"


def test_builtins_stay_on_re_and_custom_files_are_bounded(tmp_path: Path) -> None:
    shipped = load_playbook("msa-customer")
    assert not shipped.bounded and all(type(p) is re.Pattern for c in shipped.clauses for p in c.patterns)
    custom = load_playbook(str(_custom(tmp_path, "shall not exceed")))
    assert custom.bounded and all(isinstance(p, BoundedPattern) for c in custom.clauses for p in c.patterns)
    bound = custom.bind({"us": "(?:Acme)", "them": "(?:Globex)"})
    assert bound.bounded and all(isinstance(p, BoundedPattern) for c in bound.clauses for p in c.patterns)


def test_a_predicate_pattern_is_bounded_and_checked() -> None:
    with pytest.raises(RegexTimeoutError, match="playbook predicate: regular expression"):
        bounded_search(HOSTILE, LINE * 2)
    assert bounded_search(r"england|wales", "the laws of England")
    text = (ROOT / "tests" / "playbook_fixtures" / "illustrative.yaml").read_text(encoding="utf-8")
    bad = text.replace(
        "        - when: {field: cap_months, lt: 6}",
        r'        - when: {field: cap_base, matches: "(\\w+\\s?)+X$"}',
        1,
    )
    with pytest.raises(Exception, match="cannot backtrack catastrophically"):
        parse_playbook(bad.encode(), source="p.yaml")


_ORACLE_TEXT = (ROOT / "sample_contracts" / "meridian_msa.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("pid", ["msa-customer", "nda-recipient"])
def test_bounded_matching_finds_what_re_finds(pid: str) -> None:
    """Oracle: every pattern of the built-in playbooks, compiled both ways, gives the same spans with
    search (from positions inside the text, with an end) and finditer."""
    path = BUILTIN_DIR / f"{pid}.yaml"
    shipped = parse_playbook(path.read_bytes(), source=str(path), bounded=False)
    patterns = {
        (p.pattern, p.flags): p
        for c in shipped.clauses
        for group in (c.patterns, c.heading_res, c.exclude, c.hints, c.bridges)
        for p in group
    }
    assert len(patterns) > 50
    n = len(_ORACLE_TEXT)
    for rx in patterns.values():
        b = bounded(rx, where="oracle")
        assert [m.span() for m in b.finditer(_ORACLE_TEXT)] == [m.span() for m in rx.finditer(_ORACLE_TEXT)]
        for pos, end in ((0, n), (n // 3, n // 2), (n // 2, n)):
            got, want = b.search(_ORACLE_TEXT, pos, end), rx.search(_ORACLE_TEXT, pos, end)
            assert (got.span() if got else None) == (want.span() if want else None), rx.pattern


@pytest.mark.parametrize("pattern", [r"a*", r"\b", r"x?", r"(?=a)", r"a|", r"ab*"])
def test_finditer_handles_empty_matches_as_re_does(pattern: str) -> None:
    text = "xaabxa ab"
    rx = re.compile(pattern)
    b = bounded(rx, where="oracle")
    assert [m.span() for m in b.finditer(text)] == [m.span() for m in rx.finditer(text)]
    assert b.findall(text) == rx.findall(text)
