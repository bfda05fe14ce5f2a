"""The HTML review as a person sees it: in headless Chromium (Debian's package, driven by Playwright) the
page loads with no console errors and no network requests, clicking a finding scrolls its highlight into
view, the page's text is the canonical text with each highlight at its citation's UTF-16 offsets, and a
hostile contract runs no script. Without Chromium those tests skip with the reason; the markup tests run."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.reports.html import CHROMIUM_FLAGS, CSP, render_html
from ingest.document import Document
from ingest.load import load_document

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_contracts"
CHROMIUM = Path("/usr/bin/chromium")

HOSTILE = (
    "MASTER AGREEMENT\n"
    "1. Liability. <script>window.__pwned=1</script> The Supplier's liability shall not exceed the fees.\n"
    '2. Notices. </textarea><img src=x onerror="window.__pwned=2">'
    ' <a href="javascript:window.__pwned=3">x</a>\n'
    "3. Payment. \u202egnirts desrever\u202c Invoices are payable in 30 days 😀 after receipt.\n"
    '4. Style. <style>body{display:none}</style><iframe src="https://example.com/"></iframe>\n'
)


def _finding(fid: str, severity: str, doc: Document, start: int, end: int, **extra: Any) -> dict[str, Any]:
    f = {
        "id": fid,
        "rule": "limitation_of_liability",
        "title": "Limitation <b>of</b> liability",
        "severity": severity,
        "outcome": "unacceptable",
        "status": "verified",
        "evidence": "quote",
        "claim": "<script>window.__pwned=4</script> claim",
        "guidance": '<img src=x onerror="window.__pwned=5">',
        "model_language": "javascript:window.__pwned=6",
        "citations": [{"status": "verified", "start": start, "end": end, "text": doc.text[start:end]}],
    }
    f.update(extra)
    return f


def hostile_review(tmp_path: Path) -> tuple[Document, dict[str, Any]]:
    path = tmp_path / "hostile.txt"
    path.write_text(HOSTILE, encoding="utf-8")
    doc = load_document(path)
    t = doc.text
    a = t.index("<script>")
    b = t.index("the fees.") + 9
    c = t.index("</textarea>")
    d = t.index("Invoices")
    e = t.index("receipt.") + 8
    findings = [
        _finding("F1", "critical", doc, a, b),
        _finding("F2", "high", doc, a + 10, c + 20),  # overlaps F1
        _finding("F3", "medium", doc, t.index("\u202e"), e),  # bidi override and an emoji inside
        _finding("F4", "low", doc, d, e),
        {
            "id": "F5",
            "rule": "governing_law",
            "title": "Governing law",
            "severity": "high",
            "outcome": "missing",
            "status": "needs_review",
            "evidence": "absence",
            "claim": "No governing law clause.",
            "supervision": "high",
            "citations": [],
            "searched": {
                "requirement": "a governing law clause",
                "searched": ["governed by"],
                "coverage": ["body"],
            },
        },
    ]
    data = {
        "review": {"id": 7, "kind": "review", "playbook": {"id": "pb", "version": "1"}},
        "document": {"name": doc.name},
        "summary": {},
        "findings": findings,
    }
    return doc, data


# ── markup (no browser) ──────────────────────────────────────────────────────────────────────────
def test_markup_is_escaped_and_self_contained(tmp_path: Path) -> None:
    doc, data = hostile_review(tmp_path)
    page = render_html(data, doc)
    assert page.count("<script>") == 1  # ours only
    assert "<script>window" not in page and "<img" not in page and "<iframe" not in page
    assert "</textarea>" not in page and 'href="javascript:' not in page and "<style>body" not in page
    assert "\u202e" not in page and 'data-cp="202E"' in page
    assert f'<meta http-equiv="Content-Security-Policy" content="{CSP}">' in page
    assert "default-src 'none'" in CSP and "'unsafe-inline'" not in CSP
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page)
    assert "Absence findings — not quote-verified" in page and "a governing law clause" in page


def test_pdf_page_markers_and_document_status(tmp_path: Path) -> None:
    doc = load_document(SAMPLES / "harbor_msa.pdf")
    page = render_html({"review": {"id": 1}, "findings": []}, doc)
    assert len(re.findall(r'<span class="page" id="page-\d+"', page)) == len(doc.pages) > 1
    assert "ready" in page and f"{doc.fidelity.value:.2%}" in page


def test_withheld_document_says_why(tmp_path: Path) -> None:
    doc = Document(
        name="w.txt", file_type="txt", text="x", source_sha256="0", status="withheld", reasons=("a <b>",)
    )
    page = render_html({"review": {"id": 1}, "findings": []}, doc)
    assert "Withheld because" in page and "a &lt;b&gt;" in page


def test_reverify_review_shows_old_and_new_text(tmp_path: Path) -> None:
    doc = Document(
        name="v2.txt", file_type="txt", text="The cap is ₦500,000,000 in total.", source_sha256="0"
    )
    finding = {
        "id": "F1",
        "status": "stale",
        "severity": "critical",
        "evidence": "quote",
        "claim": "Cap.",
        "citations": [{"status": "failed", "text": None, "start": None, "end": None}],
        "report_citations": [
            {
                "status": "stale",
                "previous": {"text": "The cap is ₦50,000,000", "section": "7.3"},
                "text": None,
                "became": "The cap is ₦500,000,000",
                "reason": "the amount changed",
            }
        ],
    }
    page = render_html({"review": {"id": 2, "kind": "reverify"}, "findings": [finding]}, doc)
    assert "₦50,000,000" in page and "₦500,000,000" in page and "st-stale" in page


def test_reverify_of_the_sample_redline_renders_through_findings(tmp_path: Path) -> None:
    """`reverify` the sample against its redline, then `findings ID --format html`: each citation's status."""
    assert (
        runner.invoke(app, ["review", str(SAMPLES / "northwind_msa.docx"), "--format", "json"]).exit_code == 0
    )
    rv = runner.invoke(
        app, ["reverify", "1", str(SAMPLES / "northwind_msa_redline.docx"), "--format", "json"]
    )
    assert rv.exit_code in (0, 1), rv.output
    page = runner.invoke(app, ["findings", "2", "--format", "html"])
    assert page.exit_code == 0, page.output
    assert "st-stale" in page.stdout and "<b>Before</b>" in page.stdout


def test_cli_out_html_and_mismatch(tmp_path: Path) -> None:
    out = tmp_path / "review.html"
    result = runner.invoke(app, ["review", str(SAMPLES / "northwind_msa.docx"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    bad = runner.invoke(
        app, ["review", str(SAMPLES / "northwind_msa.docx"), "--format", "md", "--out", str(out)]
    )
    assert bad.exit_code == 2
    assert bad.stderr == (
        "Error: review.html: the extension .html says html, but --format is md "
        "(name the file review.md, or drop --format)\n"
    )
    stored = runner.invoke(app, ["findings", "1", "--format", "html"])
    assert stored.exit_code == 0 and stored.stdout.startswith("<!DOCTYPE html>")


# ── in Chromium ──────────────────────────────────────────────────────────────────────────────────
@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    if not CHROMIUM.is_file() or shutil.which("chromium") is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium; .ci/run does)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip playwright is not installed")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=list(CHROMIUM_FLAGS)
        )
        yield context
        context.close()


def _open(browser: Any, path: Path) -> tuple[Any, list[str], list[str]]:
    page = browser.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, errors, requests


_PAGE_TEXT = """() => {
  const out = [];
  const walk = (n) => {
    for (const c of n.childNodes) {
      if (c.nodeType === 3) out.push(c.data);
      else if (c.classList && c.classList.contains('bidi'))
        out.push(String.fromCodePoint(parseInt(c.dataset.cp, 16)));
      else walk(c);
    }
  };
  walk(document.getElementById('contract'));
  return out.join('');
}"""


def test_sample_review_in_chromium(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "review.html"
    assert (
        runner.invoke(app, ["review", str(SAMPLES / "northwind_msa.docx"), "--out", str(out)]).exit_code == 0
    )
    page, errors, requests = _open(browser, out)
    assert errors == [] and requests == []
    doc = load_document(SAMPLES / "northwind_msa.docx")
    assert page.evaluate(_PAGE_TEXT) == doc.text
    buttons = page.locator("button.goto")
    assert buttons.count() > 10
    last = buttons.nth(buttons.count() - 1)
    target = last.get_attribute("data-target")
    last.click()
    inview = page.evaluate(
        """(id) => { const r = document.getElementById(id).getBoundingClientRect();
                     const a = document.getElementById('contract').getBoundingClientRect();
                     return r.top >= a.top && r.bottom <= a.bottom; }""",
        target,
    )
    assert inview
    assert page.locator("mark.flash").count() >= 1
    # and back: clicking the highlight scrolls its finding into view and focuses it
    page.locator("mark.flash").first.click()
    assert page.evaluate("document.activeElement.classList.contains('finding')")
    # filters: unticking 'info' hides the info findings and their highlights
    page.locator('input.flt[data-kind="severity"][value="info"]').uncheck()
    assert page.locator("li.finding.sev-info:visible").count() == 0
    page.close()


def test_hostile_contract_runs_no_script_and_offsets_are_utf16(browser: Any, tmp_path: Path) -> None:
    doc, data = hostile_review(tmp_path)
    out = tmp_path / "hostile.html"
    out.write_text(render_html(data, doc), encoding="utf-8")
    page, errors, requests = _open(browser, out)
    page.locator("button.goto").first.click()
    for a in page.locator("a").all():
        a.click()
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert errors == [] and requests == []
    text = page.evaluate(_PAGE_TEXT)
    assert text == doc.text
    offsets = page.evaluate("JSON.parse(document.getElementById('contract').dataset.u16)")
    for f in data["findings"]:
        for i, c in enumerate(f["citations"]):
            s16, e16 = offsets[f"{f['id']}-{i}"]
            assert page.evaluate("([t, s, e]) => t.slice(s, e)", [text, s16, e16]) == c["text"]
    assert page.locator("mark.overlap").count() >= 1
    page.close()
