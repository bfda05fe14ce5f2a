"""Word comments at the exact words: each comment's anchored text is its citation's text, the copy reads
back to the same canonical text, on generated DOCX (runs cut mid-word, numbering, tables, footnotes), on
the bundled sample through the CLI, and on real CUAD text wrapped in a DOCX."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import docx
import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.reports.anchors import anchorable, anchored_text
from citationgate.reports.word_comments import render_word_comments
from citationgate.review import review
from ingest.document import Document
from ingest.load import load_document
from ingest.word import map_docx_body
from playbooks import load_playbook
from tests.docx_fixtures import (
    abstract_num,
    build_docx,
    lvl,
    num,
    numbering_xml,
    p,
    r,
    table,
)

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_contracts"
NUMBERING = numbering_xml(abstract_num(1, lvl(0, "decimal", "%1."), lvl(1, "decimal", "%1.%2")), num(1, 1))


def data_for(doc: Document, spans: list[tuple[int, int]]) -> dict[str, Any]:
    """A review value citing each span (the document's own text at those offsets)."""
    findings = []
    for i, (s, e) in enumerate(spans, 1):
        findings.append(
            {
                "id": f"F{i}",
                "rule": "limitation_of_liability",
                "title": "Limitation of liability",
                "severity": "high",
                "outcome": "unacceptable",
                "status": "verified",
                "evidence": "quote",
                "claim": "The cap is too low.",
                "guidance": "Ask for twelve months.",
                "citations": [{"status": "verified", "start": s, "end": e, "text": doc.text[s:e]}],
            }
        )
    return {
        "review": {"id": 1, "playbook": {"id": "msa-customer", "version": "1.3.1"}},
        "document": {"name": doc.name},
        "summary": {},
        "findings": findings,
    }


def assert_round_trip(doc: Document, written: bytes, data: dict[str, Any], tmp_path: Path) -> int:
    """The copy reads as the same text; every comment's anchored words are its citation's words."""
    out = tmp_path / "reviewed.docx"
    out.write_bytes(written)
    again = load_document(out, view=doc.view)
    assert again.text == doc.text
    assert again.status == doc.status
    word = docx.Document(io.BytesIO(written))
    anchored = anchored_text(again.text, map_docx_body(out.name, written, word.element.body, view=doc.view))
    by_id = {str(c.comment_id): c for c in word.comments}
    assert set(anchored) == set(by_id)
    cites = [(f, c) for f in data["findings"] for c in f["citations"] if c["status"] == "verified"]
    assert len(anchored) == len([c for _f, c in cites if c["end"] <= doc.metadata["body_end"]])
    for cid, text in anchored.items():
        fid = by_id[cid].text.split(" · ", 1)[0]
        expected = {
            doc.text[slice(*anchorable(doc, c["start"], c["end"]))] for f, c in cites if f["id"] == fid
        }
        assert text in expected, (cid, text[:60])
    return len(anchored)


def test_comments_anchor_at_words_cut_across_runs_tables_and_numbering(tmp_path: Path) -> None:
    """Citations starting and ending mid-run, spanning runs and paragraphs, in a table cell, in a numbered
    paragraph (label included or not), overlapping each other, and one in a footnote (not anchored)."""
    body = (
        p("MASTER SERVICES AGREEMENT")
        + p("Limitation", num=(1, 0))
        + p(
            r("Each party's total liability "),
            r("shall not exceed", bold=True),
            r(" the fees paid."),
            num=(1, 1),
        )
        + p("The Supplier shall keep records.", num=(1, 1))
        + table([["Service credits", "5% of monthly fees per hour of downtime"], ["Cap", "three (3) months"]])
        + p(
            r("Nothing in this clause limits liability for fraud."),
            '<w:r><w:footnoteReference w:id="1"/></w:r>',
        )
    )
    path = build_docx(
        tmp_path / "c.docx", body, numbering=NUMBERING, footnotes={1: p("A footnote about caps.")}
    )
    doc = load_document(path)
    assert doc.status == "ready"
    text = doc.text
    cap = text.index("total liability")
    label = text.index("1.1\t")
    spans = [
        (cap, text.index("fees paid.") + 4),  # mid-run to mid-run across a bold run
        (label, text.index("fees paid.") + len("fees paid.")),  # starts at the generated label "1.1"
        (cap + 6, cap + 30),  # overlaps the first
        (text.index("5% of"), text.index("of downtime") + 11),  # inside a table cell
        (text.index("Cap\tthree"), text.index("(3) months") + 10),  # across two cells
        (text.index("keep records."), text.index("Nothing in") + 7),  # across paragraphs and the table
        (text.index("about caps"), text.index("about caps") + 10),  # in the footnote
    ]
    data = data_for(doc, spans)
    result = render_word_comments(data, doc, path.read_bytes())
    assert result.comments == 6
    assert len(result.not_anchored) == 1 and "F7" in result.not_anchored[0]
    assert assert_round_trip(doc, result.data, data, tmp_path) == 6


def test_comment_text_is_authored_by_the_playbook_and_says_severity_claim_guidance(tmp_path: Path) -> None:
    path = build_docx(tmp_path / "c.docx", p("The Supplier's liability shall not exceed the fees paid."))
    doc = load_document(path)
    data = data_for(doc, [(4, 30)])
    word = docx.Document(io.BytesIO(render_word_comments(data, doc, path.read_bytes()).data))
    (comment,) = list(word.comments)
    assert comment.author == "CitationGate · msa-customer@1.3.1"
    assert comment.text.splitlines() == [
        "F1 · HIGH · Limitation of liability — unacceptable",
        "The cap is too low.",
        "Guidance: Ask for twelve months.",
    ]


@pytest.mark.parametrize(
    ("sample", "view"),
    [
        ("northwind_msa.docx", "accepted"),
        ("northwind_msa_redline.docx", "accepted"),  # a contract with tracked changes, in each view
        ("northwind_msa_redline.docx", "original"),
    ],
    ids=["sample", "redline-accepted", "redline-original"],
)
def test_cli_review_docx_of_the_samples_anchors_every_citation(
    sample: str, view: str, tmp_path: Path
) -> None:
    out = tmp_path / "reviewed.docx"
    result = runner.invoke(app, ["review", str(SAMPLES / sample), "--view", view, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Word comments at the cited words" in result.stderr
    data = json.loads(runner.invoke(app, ["findings", "1", "--format", "json"]).stdout)
    doc = load_document(SAMPLES / sample, view=view)
    n = assert_round_trip(doc, out.read_bytes(), data, tmp_path)
    assert n == sum(len([c for c in f["citations"] if c["status"] == "verified"]) for f in data["findings"])


@pytest.mark.data
def test_real_cuad_text_in_a_generated_docx_round_trips(shared_data: Path, tmp_path: Path) -> None:
    """Two CUAD contracts, each line a paragraph cut into runs at random points, reviewed by the
    built-in playbook: every citation's comment holds exactly its words."""
    rng = random.Random(16)
    records = [json.loads(line) for line in (shared_data / "cuad" / "annotations.jsonl").open()][:2]
    pb = load_playbook("msa-customer")
    total = 0
    for rec in records:
        lines = (shared_data / "cuad" / "texts" / f"{rec['id']}.txt").read_text(encoding="utf-8").split("\n")
        word = docx.Document()
        for line in lines:
            para = word.add_paragraph()
            cuts = (
                sorted(rng.sample(range(1, len(line)), min(3, max(len(line) - 1, 0))))
                if len(line) > 1
                else []
            )
            for a, b in zip([0, *cuts], [*cuts, len(line)], strict=True):
                para.add_run(line[a:b]).bold = rng.random() < 0.3
        path = tmp_path / f"{rec['id']}.docx"
        word.save(str(path))
        doc = load_document(path)
        if doc.status != "ready":
            continue
        data = review(doc, pb).to_dict()
        result = render_word_comments(data, doc, path.read_bytes())
        assert not result.not_anchored
        total += assert_round_trip(doc, result.data, data, tmp_path)
    assert total > 0
