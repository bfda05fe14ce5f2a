"""Review → redline → reverify on the bundled samples, the way a lawyer meets it (issue: re-verification)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from citationgate.cli import app
from ingest import load_document
from playbooks import load_playbook, run_playbook

SAMPLES = Path(__file__).resolve().parent.parent / "sample_contracts"
runner = CliRunner()


def test_reverify_the_redlined_sample() -> None:
    """The redline raises the cap, adds a carve-out and deletes non-solicitation: exactly those go stale,
    each naming what changed; the renumbered governing-law clause moves with its new label."""
    reviewed = runner.invoke(app, ["review", str(SAMPLES / "northwind_msa.docx"), "--format", "json"])
    assert reviewed.exit_code == 0, reviewed.output
    review_id = json.loads(reviewed.stdout)["review"]["id"]
    result = runner.invoke(
        app, ["reverify", str(review_id), str(SAMPLES / "northwind_msa_redline.docx"), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    by_rule = {f["rule"]: f for f in report["findings"]}
    stale = sorted(rule for rule, f in by_rule.items() if f["status"] == "stale")
    assert stale == ["ip_indemnity_outside_cap", "limitation_of_liability", "non_solicitation"]
    assert "cap_months" in by_rule["limitation_of_liability"]["reason"]
    became = [c["became"] for c in by_rule["limitation_of_liability"]["citations"] if c["status"] == "stale"]
    assert any("twelve (12)" in b for b in became)  # the report shows what the cap became
    law = by_rule["governing_law"]
    assert law["status"] == "moved"  # renumbered: its clause label changed
    assert [c["section"] for c in law["citations"]] == ["20.1"]
    assert [c["previous"]["section"] for c in law["citations"]] != ["20.1"]
    assert all(f["status"] in ("verified", "moved") for r, f in by_rule.items() if r not in stale)
    # the words and clause of the rest are unchanged: verified with their new offsets, the shift recorded
    # — not "moved" because a paragraph above them came or went
    for f in by_rule.values():
        if f["status"] == "verified":
            c = f["citations"][0]
            assert c["shift"] == c["start"] - c["previous"]["start"]
            assert c["section"] == c["previous"]["section"]
    moved = [r for r, f in by_rule.items() if f["status"] == "moved"]
    assert all(c["section"] != c["previous"]["section"] for r in moved for c in by_rule[r]["citations"]), (
        moved
    )


def test_playbook_quotes_leave_out_the_clause_number(tmp_path: Path) -> None:
    """The number is the pinpoint, not the quoted words — typed (text) or generated (DOCX numbering)."""
    typed = tmp_path / "msa.txt"
    typed.write_text(
        "1. Law\n1.1 This Agreement is governed by the laws of England and Wales.\n", encoding="utf-8"
    )
    for path in (typed, SAMPLES / "northwind_msa.docx"):
        doc = load_document(path)
        law = next(o for o in run_playbook(doc, load_playbook("msa-customer")) if o.rule == "governing_law")
        quote = law.quotes[0]
        assert doc.text[quote.start : quote.end] == quote.text
        assert quote.text.startswith("This Agreement"), quote.text
        assert quote.section is not None
