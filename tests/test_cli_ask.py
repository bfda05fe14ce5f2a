"""`citationgate ask`: output, the JSON shape, --rerank-response, --all, and errors with exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citationgate.cli import app

pytestmark = pytest.mark.usefixtures("db_url")  # each test runs on SQLite and on PostgreSQL

runner = CliRunner()

MSA = """MASTER SERVICES AGREEMENT

1. Definitions

1.1 "Affiliate" means any entity that controls a party.

2. Fees

2.1 The Customer shall pay each invoice within 30 days of receipt.

2.2 Fees may be adjusted annually by no more than CPI.

3. Liability

3.1 The aggregate liability of each party shall not exceed the fees paid in the prior 12 months.

4. Governing Law

4.1 This Agreement is governed by the laws of England.
"""


@pytest.fixture(autouse=True)
def _keywords_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # keywords and bridges alone: the clause-type reading off (and no model load per test)
    monkeypatch.setenv("CITATIONGATE_NO_SEMANTIC", "1")


@pytest.fixture
def msa(tmp_path: Path) -> Path:
    p = tmp_path / "msa.txt"
    p.write_text(MSA, encoding="utf-8")
    return p


def ask_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["ask", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_json_shape(msa: Path) -> None:
    """Exactly the issue's fields; text verbatim at the offsets; the penalty named."""
    data = ask_json(str(msa), "can they put the price up?", "--top", "2")
    assert set(data) == {"question", "results"} and data["question"] == "can they put the price up?"
    results = data["results"]
    assert isinstance(results, list) and len(results) == 2
    first = results[0]
    assert set(first) == {"id", "label", "start", "end", "page", "text", "confidence", "breakdown", "why"}
    assert first["text"] == MSA[first["start"] : first["end"]]
    assert "Fees may be adjusted annually by no more than CPI" in first["text"]
    assert first["id"] == "2.2" and first["page"] is None
    assert first["breakdown"]["semantic ranker unavailable"] == -8
    assert any("price-increase" in w for w in first["why"])


def test_table_output(msa: Path) -> None:
    """The table shows id, label, offsets, page n/a, confidence, breakdown and reasons."""
    result = runner.invoke(app, ["ask", str(msa), "how much can we claim if it goes wrong?", "--top", "1"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "1. [3.1] 3.1  page n/a  chars" in out and "aggregate liability" in out
    assert "semantic ranker unavailable -8" in out and "why: bridge 'liability-cap'" in out


def test_ask_reuses_the_stored_version(msa: Path) -> None:
    """Asking twice ingests once: ids stay stable for the same document version."""
    first = ask_json(str(msa), "governing law")
    second = ask_json(str(msa), "governing law")
    assert [r["id"] for r in first["results"]] == [r["id"] for r in second["results"]]  # type: ignore[index,union-attr]
    cov = json.loads(runner.invoke(app, ["coverage", "--format", "json"]).stdout)
    assert len(cov["versions"]) == 1


def test_rerank_response_reorders(msa: Path, tmp_path: Path) -> None:
    """A valid response reorders; an invented id is discarded; omitted results are appended."""
    base = ask_json(str(msa), "fees", "--top", "3")
    original = [r["id"] for r in base["results"]]  # type: ignore[union-attr,index]
    resp = tmp_path / "rerank.json"
    resp.write_text(json.dumps([{"id": original[2], "relevance": 0.9}, {"id": "99.9", "relevance": 1.0}]))
    result = runner.invoke(
        app, ["ask", str(msa), "fees", "--top", "3", "--rerank-response", str(resp), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [r["id"] for r in data["results"]] == [original[2], original[0], original[1]]
    assert data["rerank"] == {
        "applied": True,
        "error": None,
        "discarded": ["99.9"],
        "appended": [original[0], original[1]],
    }
    assert "discarded '99.9'" in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("the liability clause is best", "not JSON"),
        ('[{"id": "3.1", "relevance": 0.9, "summary": "caps at fees"}]', "[0].summary: field not allowed"),
    ],
    ids=["not-json", "summary-field"],
)
def test_rejected_rerank_response(msa: Path, tmp_path: Path, content: str, message: str) -> None:
    """A rejected response: clear error on stderr, original order on stdout, exit 4."""
    base = ask_json(str(msa), "fees", "--top", "3")
    resp = tmp_path / "rerank.json"
    resp.write_text(content)
    result = runner.invoke(
        app, ["ask", str(msa), "fees", "--top", "3", "--rerank-response", str(resp), "--format", "json"]
    )
    assert result.exit_code == 4
    data = json.loads(result.stdout)
    assert data["results"] == base["results"]
    assert data["rerank"]["applied"] is False
    assert "Error: rerank.json: " in result.stderr and message in result.stderr
    assert "original order is kept" in result.stderr


def test_all_searches_every_ready_document(msa: Path, tmp_path: Path) -> None:
    """--all searches every ready stored document; ids carry the version and results name the document."""
    other = tmp_path / "nda.txt"
    other.write_text(MSA.replace("England", "Scotland"), encoding="utf-8")
    for p in (msa, other):
        assert runner.invoke(app, ["ingest", str(p)]).exit_code == 0
    data = ask_json("--all", "which country's law applies?", "--top", "2")
    results = data["results"]
    assert {r["document"] for r in results} == {"msa.txt", "nda.txt"}  # type: ignore[index,union-attr]
    assert all(str(r["id"]).startswith("v") and ":" in str(r["id"]) for r in results)  # type: ignore[union-attr,index]


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["nope.txt", "q?"], 3, "Error: nope.txt: no such file\n"),
        (
            ["--all", "q?"],
            3,
            "Error: no ready documents in the store (run `citationgate ingest FILE` first)\n",
        ),
        (["{msa}", "   "], 2, "give a question"),
        (["{msa}", "q?", "--top", "0"], 2, "--top"),
    ],
    ids=["missing-file", "empty-store", "blank-question", "bad-top"],
)
def test_errors(msa: Path, args: list[str], code: int, message: str) -> None:
    """Bad input: one clear line and the documented exit code, never a traceback."""
    result = runner.invoke(app, ["ask", *[a.replace("{msa}", str(msa)) for a in args]])
    assert result.exit_code == code
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_the_note_says_keywords_alone_only_when_they_are(msa: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With meaning-based ranking off the note says keywords alone; in the default install the clause-type
    ranking reads the question, so no such note (stdout stays the results either way)."""
    off = runner.invoke(app, ["ask", str(msa), "can they put the price up?", "--format", "json"])
    assert off.exit_code == 0 and "keywords alone" in off.stderr
    monkeypatch.delenv("CITATIONGATE_NO_SEMANTIC")
    on = runner.invoke(app, ["ask", str(msa), "can they put the price up?", "--format", "json"])
    assert on.exit_code == 0, on.output
    assert "keywords alone" not in on.stderr
    why = json.loads(on.stdout)["results"][0]["why"]
    assert any(w.startswith("ranked by: reciprocal rank fusion of keywords") for w in why)
