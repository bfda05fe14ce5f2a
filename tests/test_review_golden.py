"""End-to-end `citationgate review` of the sample contracts against their golden findings.

The goldens (tests/golden/<sample>.json) pin every surfaced finding's rule → outcome, severity, evidence
and gate status, in order. They change only when someone runs `python tests/golden/regenerate.py` after a
deliberate change and commits the diff; a test never rewrites them.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.reports import ABSENCE_DISCLOSURE
from citationgate.store import Store
from ingest.document import Document
from ingest.load import load_document

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_contracts"
GOLDEN = ROOT / "tests" / "golden"
SAMPLE_FILES = ["northwind_msa.docx", "northwind_msa_redline.docx", "harbor_msa.pdf", "meridian_msa.txt"]

runner = CliRunner()


def _review_json(path: Path, *extra: str) -> dict[str, Any]:
    result = runner.invoke(app, ["review", str(path), "--format", "json", *extra])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)  # stdout is nothing but the JSON
    return data


@functools.cache
def _cached_review(sample: str, view: str = "accepted") -> dict[str, Any]:
    """One CLI review per sample and view for the tests that only read its JSON (keeps the suite fast)."""
    return _review_json(SAMPLES / sample, "--view", view)


def _project(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "findings": [
            {k: f[k] for k in ("rule", "outcome", "severity", "evidence", "status")} for f in data["findings"]
        ],
        "not_concluded": [n["rule"] for n in data["summary"].get("not_concluded", [])],
    }


def _assert_spans(doc: Document, data: dict[str, Any]) -> None:
    """Every verified quote and every extracted value slices back to its offsets."""
    assert data["document"]["text_sha256"] == doc.text_sha256
    for f in data["findings"]:
        verified = [c for c in f["citations"] if c["status"] == "verified"]
        if f["evidence"] == "quote":
            assert verified, f"{f['id']} surfaced without a verified quote"
        for c in verified:
            assert doc.text[c["start"] : c["end"]] == c["text"]
        for v in (f.get("extracted") or {}).values():
            assert doc.text[v["start"] : v["end"]] == v["text"]
            assert any(c["start"] <= v["start"] and v["end"] <= c["end"] for c in verified)


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=SAMPLE_FILES)
def test_sample_review_matches_its_golden_and_every_quote_slices_back(sample: str) -> None:
    """Exactly the golden findings, in order; every pinpoint is real."""
    golden = json.loads((GOLDEN / f"{Path(sample).stem}.json").read_text(encoding="utf-8"))
    data = _cached_review(sample, golden["view"])
    assert data["review"]["playbook"]["id"] == golden["playbook"]["id"]
    assert _project(data) == {"findings": golden["findings"], "not_concluded": golden["not_concluded"]}, (
        "review differs from its golden; if the change is deliberate run `python tests/golden/regenerate.py`"
    )
    _assert_spans(load_document(SAMPLES / sample, view=golden["view"]), data)


def _find(data: dict[str, Any], rule: str) -> dict[str, Any]:
    hits = [f for f in data["findings"] if f["rule"] == rule]
    assert len(hits) == 1, f"expected one {rule} finding, got {[f['rule'] for f in data['findings']]}"
    return hits[0]


def _quoted(f: dict[str, Any]) -> str:
    return " ".join(c["text"] for c in f["citations"] if c["status"] == "verified")


def test_northwind_planted_issues_are_found() -> None:
    """Three months' cap; IP indemnity under the cap; DPA referenced by URL only."""
    data = _cached_review("northwind_msa.docx")
    cap = _find(data, "limitation_of_liability")
    assert cap["outcome"] == "unacceptable" and cap["extracted"]["cap_months"]["value"] == 3
    assert "three (3) months" in _quoted(cap)
    ip = _find(data, "ip_indemnity_outside_cap")
    assert ip["outcome"] == "unacceptable"
    assert "indemnify" in _quoted(ip) and "shall not exceed" in _quoted(ip)  # cites both clauses
    dpa = _find(data, "data_protection")
    assert dpa["outcome"] == "referenced_not_provided"
    assert "https://www.northwind-data.example/legal/dpa" in re.sub(r"\s+", "", _quoted(dpa))


def test_redline_accepted_view_shows_the_negotiated_cap_and_original_view_the_first_draft() -> None:
    """Accepted: twelve months and the IP carve-out; original: exactly the unredlined DOCX's findings."""
    accepted = _cached_review("northwind_msa_redline.docx")
    assert _find(accepted, "limitation_of_liability")["extracted"]["cap_months"]["value"] == 12
    assert _find(accepted, "ip_indemnity_outside_cap")["outcome"] != "unacceptable"
    original = _cached_review("northwind_msa_redline.docx", "original")
    plain = _cached_review("northwind_msa.docx")
    assert _project(original) == _project(plain)


def test_harbor_ten_day_auto_renewal_is_found() -> None:
    """A ten-day non-renewal window is a red line."""
    data = _cached_review("harbor_msa.pdf")
    renewal = _find(data, "auto_renewal")
    assert renewal["outcome"] == "unacceptable" and "ten (10) days" in _quoted(renewal)
    assert all(c["page"] is not None for c in renewal["citations"] if c["status"] == "verified")


def test_meridian_missing_governing_law_is_a_disclosed_absence_in_every_format() -> None:
    """No governing-law clause: absence finding, searched and covered listed, disclosed in md and table."""
    data = _cached_review("meridian_msa.txt")
    law = _find(data, "governing_law")
    assert (law["outcome"], law["evidence"], law["supervision"]) == ("missing", "absence", "high")
    assert law["searched"]["searched"] and "body" in law["searched"]["coverage"]
    md = runner.invoke(app, ["review", str(SAMPLES / "meridian_msa.txt"), "--format", "md"])
    assert md.exit_code == 0 and ABSENCE_DISCLOSURE in md.stdout
    table = runner.invoke(app, ["review", str(SAMPLES / "meridian_msa.txt")])
    assert "ABSENCE — not quote-verified" in table.stdout


@pytest.mark.parametrize(
    ("threshold", "expected_exit"),
    [("critical", None), ("high", None), ("info", 1)],
    ids=["critical", "high", "info"],
)
def test_fail_on_exits_1_when_a_finding_meets_the_severity(threshold: str, expected_exit: int | None) -> None:
    """--fail-on SEVERITY: exit 1 iff a surfaced finding is at or above it (None: computed from the JSON)."""
    order = ["critical", "high", "medium", "low", "info"]
    data = _cached_review("harbor_msa.pdf")
    meets = any(order.index(f["severity"]) <= order.index(threshold) for f in data["findings"])
    result = runner.invoke(app, ["review", str(SAMPLES / "harbor_msa.pdf"), "--fail-on", threshold])
    assert result.exit_code == (expected_exit if expected_exit is not None else int(meets))
    if meets:
        assert f"--fail-on {threshold}:" in result.stderr


def test_fail_on_high_passes_a_contract_with_no_high_findings(tmp_path: Path) -> None:
    """A procurement pipeline passes a contract whose findings are all below the threshold."""
    data = _cached_review("meridian_msa.txt")
    highest = min(
        ["critical", "high", "medium", "low", "info"].index(f["severity"]) for f in data["findings"]
    )
    result = runner.invoke(app, ["review", str(SAMPLES / "meridian_msa.txt"), "--fail-on", "critical"])
    assert result.exit_code == (1 if highest == 0 else 0)


def test_withheld_document_exits_5_with_the_reason(tmp_path: Path) -> None:
    """A PDF with no text layer is withheld: the review is refused, not run on silence."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 100, 50)
    path = tmp_path / "scanned.pdf"
    pdf.output(str(path))
    result = runner.invoke(app, ["review", str(path)])
    assert result.exit_code == 5
    assert result.stderr.startswith("Error: scanned.pdf: ") and "withheld" in result.stderr
    assert "OCR it first" in result.stderr
    assert result.stdout == ""


def test_review_is_stored_with_its_audit_entries_in_one_write() -> None:
    """One more review, its findings and exactly its audit entries; the chain stays intact."""
    store = Store.open()
    reviews, audit = len(store.list_reviews()), len(store.audit_entries())
    data = _review_json(SAMPLES / "meridian_msa.txt")
    assert len(store.list_reviews()) == reviews + 1
    new_audit = store.audit_entries()[audit:]
    assert new_audit and {e["payload"]["review_id"] for e in new_audit} == {data["review"]["id"]}
    rec = store.get_review(data["review"]["id"])
    assert [f["id"] for f in rec.findings] == [f["id"] for f in data["findings"]]
    assert rec.playbook_sha256 == data["review"]["playbook"]["sha256"]
    assert store.check_audit()[1] is None


def test_second_review_reuses_the_stored_version_by_hash() -> None:
    """Same bytes → same stored version, said on stderr."""
    first = _review_json(SAMPLES / "meridian_msa.txt")
    again = runner.invoke(app, ["review", str(SAMPLES / "meridian_msa.txt"), "--format", "json"])
    assert "reusing stored version" in again.stderr
    assert json.loads(again.stdout)["document"]["version_id"] == first["document"]["version_id"]


def test_out_writes_the_report_and_prints_one_line_to_stderr(tmp_path: Path) -> None:
    """--out: the report in the file, a one-line summary on stderr, nothing on stdout."""
    out = tmp_path / "memo.md"
    result = runner.invoke(
        app, ["review", str(SAMPLES / "northwind_msa.docx"), "--format", "md", "--out", str(out)]
    )
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr.startswith("northwind_msa.docx: review ") and str(out) in result.stderr
    assert out.read_text(encoding="utf-8").startswith("# Contract review: northwind\\_msa.docx")


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["review", "missing.docx"], 3, "Error: missing.docx: no such file\n"),
        (["review", "sample_contracts/README.md", "--playbook", "nope.yaml"], 4, "Error: nope.yaml: "),
    ],
    ids=["missing-file", "missing-playbook"],
)
def test_bad_input_gets_one_clear_error_line(args: list[str], code: int, message: str) -> None:
    """Bad files and bad playbooks: `Error: …` and the documented exit code, no traceback."""
    result = runner.invoke(app, [a.replace("sample_contracts/", f"{SAMPLES}/") for a in args])
    assert result.exit_code == code
    assert result.stderr.startswith(message) and "Traceback" not in result.output


@pytest.mark.data
def test_cuad_contracts_review_without_error_and_quotes_slice_back(shared_data: Path, tmp_path: Path) -> None:
    """Real contracts: the review runs, and every quoted finding slices back to its offsets."""
    rows = [json.loads(line) for line in (shared_data / "cuad" / "annotations.jsonl").open(encoding="utf-8")]
    for row in rows[:: max(1, len(rows) // 3)][:3]:  # three contracts spread over the set, not hand-picked
        src = shared_data / "cuad" / row["text_file"]
        path = tmp_path / f"{row['id']}.txt"
        path.write_bytes(src.read_bytes())
        data = _review_json(path)
        _assert_spans(load_document(path), data)


def test_findings_md_of_a_stored_review_is_the_same_memo() -> None:
    """`citationgate findings REVIEW_ID --format md` prints the memo `review --format md` printed."""
    memo = runner.invoke(app, ["review", str(SAMPLES / "meridian_msa.txt"), "--format", "md"])
    review_id = Store.open().list_reviews()[-1]["id"]
    again = runner.invoke(app, ["findings", str(review_id), "--format", "md"])
    assert again.exit_code == 0 and again.stdout == memo.stdout
