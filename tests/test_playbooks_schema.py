"""Loading playbooks: a bad file fails with the file, the line, the field and what was expected."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from playbooks import PlaybookError, list_playbooks, load_playbook, run_tests
from playbooks.library import BUILTIN_DIR

GOOD = """\
schema: citationgate-playbook/1
id: tiny
version: 1.0.0
title: Tiny playbook
our_role: customer
clauses:
  - id: governing_law
    title: Governing law
    required: true
    locate:
      headings: [governing law]
      patterns: ["governed by"]
    extract:
      law: {type: jurisdiction}
    positions:
      standard:
        when: {field: law, in: [New York]}
      otherwise: unacceptable
tests:
  - text: "This Agreement is governed by the laws of the State of New York."
    expect: {governing_law: standard}
"""


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "pb.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_good_playbook_loads_with_its_content_hash(tmp_path: Path) -> None:
    """id, version, role and the sha256 of the file's bytes."""
    p = _write(tmp_path, GOOD)
    pb = load_playbook(p)
    assert (pb.id, pb.version, pb.our_role) == ("tiny", "1.0.0", "customer")
    assert pb.sha256 == hashlib.sha256(p.read_bytes()).hexdigest()
    assert [c.id for c in pb.clauses] == ["governing_law"]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "    required: true\n",
            "    required: true\n    requierd: false\n",
            "pb.yaml: line 10: clauses[0].requierd: unknown field 'requierd' "
            "(expected one of: id, title, required,",
        ),
        (
            "        when: {field: law, in: [New York]}",
            "        when: {field: lwa, in: [New York]}",
            "pb.yaml: line 17: clauses[0].positions.standard.when.field: "
            "unknown field 'lwa' (expected one of: law)",
        ),
        (
            "    required: true\n",
            "    required: maybe\n",
            "pb.yaml: line 9: clauses[0].required: Input should be a valid boolean",
        ),
        (
            "      law: {type: jurisdiction}",
            "      law: {type: jurisdictoin}",
            "pb.yaml: line 14: clauses[0].extract.law.type: Input should be",
        ),
        ("title: Tiny playbook\n", "", "pb.yaml: line 1: title: required field missing"),
        (
            '      patterns: ["governed by"]',
            '      patterns: ["governed (by"]',
            "pb.yaml: line 12: clauses[0].locate.patterns[0]: invalid regular expression 'governed (by'",
        ),
        (
            "        when: {field: law, in: [New York]}",
            "        when: {field: law, in: New York}",
            "pb.yaml: line 17: clauses[0].positions.standard.when.in: 'law in' expects a non-empty list",
        ),
        (
            "    expect: {governing_law: standard}",
            "    expect: {governing_laws: standard}",
            "pb.yaml: line 21: tests[0].expect.governing_laws: unknown clause or check 'governing_laws'",
        ),
        ("version: 1.0.0", "version: one", "pb.yaml: line 3: version: String should match pattern"),
        ("our_role: customer", "our_role: buyer", "pb.yaml: line 5: our_role: Input should be"),
        (
            "      law: {type: jurisdiction}",
            "      law: {type: duration}",
            "pb.yaml: line 14: clauses[0].extract.law.type: a duration needs a unit",
        ),
        (
            "      law: {type: jurisdiction}",
            "      law: {type: set, values: [mystery]}",
            "pb.yaml: line 14: clauses[0].extract.law.values: no cues for value 'mystery'",
        ),
    ],
    ids=[
        "unknown-field",
        "misspelt-predicate-field",
        "wrong-type",
        "bad-enum",
        "missing-field",
        "bad-regex",
        "operand-type",
        "test-unknown-rule",
        "bad-version",
        "bad-role",
        "duration-without-unit",
        "set-without-cues",
    ],
)
def test_bad_playbook_names_file_line_field_and_expectation(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    # every schema error is a PlaybookError (exit code 4) naming file, line, field path and what was expected
    assert old in GOOD
    p = _write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(PlaybookError) as exc:
        load_playbook(p)
    assert str(exc.value).startswith(expected), str(exc.value)
    assert exc.value.exit_code == 4


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("schema: citationgate-playbook/1\nid: [unclosed\n", "pb.yaml: line 3, column 1: invalid YAML"),
        ("", "pb.yaml: the file is empty"),
        ("- just\n- a list\n", "pb.yaml: line 1: expected a mapping"),
        ("key: value\n\tbad: tab\n", "pb.yaml: line 2, column 1: invalid YAML"),
    ],
    ids=["unclosed-flow", "empty", "not-a-mapping", "tab"],
)
def test_bad_yaml_syntax(tmp_path: Path, text: str, expected: str) -> None:
    # YAML that does not parse says where
    with pytest.raises(PlaybookError) as exc:
        load_playbook(_write(tmp_path, text))
    assert str(exc.value).startswith(expected), str(exc.value)


def test_duplicate_clause_id(tmp_path: Path) -> None:
    """Two clauses with one id is an error at the second one."""
    clause = GOOD[GOOD.index("  - id: governing_law") : GOOD.index("tests:")]
    text = GOOD.replace("tests:", clause + "tests:")
    with pytest.raises(
        PlaybookError, match=r"line 19: clauses\[1\]\.id: duplicate clause id 'governing_law'"
    ):
        load_playbook(_write(tmp_path, text))


def test_check_requires_unknown_clause(tmp_path: Path) -> None:
    """A cross-clause check must name clauses that exist."""
    text = GOOD.replace(
        "tests:",
        "checks:\n  - id: c\n    title: C\n    requires: [governing_law, venue]\n"
        "    when: {field: governing_law.law, eq: New York}\n    reason: r\ntests:",
    )
    with pytest.raises(PlaybookError, match=r"checks\[0\]\.requires\[1\]: unknown clause 'venue'"):
        load_playbook(_write(tmp_path, text))


def test_unknown_reference() -> None:
    """Neither a built-in id nor a file."""
    with pytest.raises(
        PlaybookError, match=r"no-such-playbook: no such playbook \(expected a built-in id — "
    ):
        load_playbook("no-such-playbook")


def test_builtins_load() -> None:
    """Every YAML file in playbooks/builtin is a valid playbook, listed by its file name."""
    ids = {pb.id for pb in list_playbooks()}
    assert ids == {p.stem for p in BUILTIN_DIR.glob("*.yaml")}
    assert "msa-customer" in ids


# The illustrative playbook of the team's PLAYBOOKS.md as written there (its cross-clause check, which names
# a clause the excerpt leaves out, removed): the documented shape loads, with built-in cues for its values.
ILLUSTRATIVE = Path(__file__).resolve().parent / "playbook_fixtures" / "illustrative.yaml"


def test_illustrative_playbook_loads_and_its_test_passes() -> None:
    """`mutual` and `consequential_excluded` use built-in bool cues, `unclear` needs none, the test passes."""
    pb = load_playbook(ILLUSTRATIVE)
    assert pb.id == "msa-customer" and pb.version == "1.0.0"
    (result,) = run_tests(pb)
    assert result.passed, result
