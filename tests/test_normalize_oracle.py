"""The normalized views and the fuzzy search's candidates, computed without numpy, against the numpy code
they replace (kept verbatim in `tests/normalize_reference.py`): the same view texts and offset maps, the
same words with the same offsets, the same candidate diagonals — on hostile Hypothesis strings, the sample
contracts, CUAD texts, a contract-sized text of the benchmark's kind, and the gate's findings on its quotes.
And `verify` no longer imports numpy at all."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citationgate import locate
from citationgate.locate import QuoteIndex, _WordIndex
from citationgate.normalize import normalize_quote, normalize_text
from ingest.load import load_document
from tests import normalize_reference as ref

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_contracts"


def assert_same_views(text: str) -> None:
    want, got = ref.normalize_text(text), normalize_text(text)
    assert (want.b is None) == (got.b is None)
    for w, g in zip(want.views, got.views, strict=True):
        assert g.text == w.text
        assert len(g.pos) == len(w.pos) == len(w.text) + 1
        assert [g.pos[i] for i in range(len(g.pos))] == g.pos.tolist() == w.pos.tolist()
        assert g.pos[-1] == len(text)


def assert_same_words(text: str, quotes: list[list[str]]) -> None:
    view = normalize_text(text).a
    want, got = ref._WordIndex(ref.normalize_text(text).a), _WordIndex(view)
    assert got.tokens == want.tokens
    assert got.starts == want.starts.tolist()
    assert [got.end(i) for i in range(len(got.tokens))] == want.ends.tolist()
    got.prepare(quotes)  # one pass for all of them, as the gate asks
    for words in quotes:
        assert got.diagonals(words) == want.diagonals(words), words


# ── hostile strings: every fold (one to one, dropped, expanded), line-break hyphens, astral, surrogates ──
_chars = st.sampled_from(
    [
        *"abcAB ,.;-\n\t\r",
        *"\u00a0\u2009\u2019\u201c\u201d\u2013\u2014\u00ad\u200b\ufeff\ufb01\ufb03\u037e\u2028",
        "\U0001f600",
        "\ud800",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.text(_chars, max_size=80))
def test_views_and_offsets_as_numpy_made_them(text: str) -> None:
    assert_same_views(text)


_pieces = st.sampled_from(
    [
        "Agree",
        "ment",
        "non",
        "the",
        "-",
        "-\n",
        "- \n ",
        " -\n",
        "\n",
        "  ",
        " ",
        "\u00ad",
        "\ufb01",
        "\u2014\n",
        "\u201c",
        "\u00a0",
        "\r\n",
        "\U0001f600",
        "\ud800",
        "x",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_pieces, max_size=30).map("".join))
def test_line_break_hyphens_and_both_views(text: str) -> None:
    """Words broken at a line end ("Agree-⏎ment"), next to dropped and expanded characters: views A and B."""
    assert_same_views(text)


_words = st.sampled_from(["the", "Supplier", "shall", "pay", "of", "this", "Agreement", "-", "x\ud800", "é"])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_words, max_size=60),
    st.sampled_from(["", " ", "  \n"]),
    st.lists(st.lists(_words, max_size=14), max_size=6),
)
def test_words_and_candidates_as_numpy_made_them(
    words: list[str], edge: str, quotes: list[list[str]]
) -> None:
    assert_same_words(edge + " ".join(words) + edge, quotes)


@pytest.mark.parametrize("times", [locate.MAX_POSTINGS, locate.MAX_POSTINGS + 1], ids=["at-most", "more"])
def test_a_shingle_seen_more_than_max_postings_times_does_not_vote(times: int) -> None:
    text = " ".join(["of this Agreement x"] * times + ["the Supplier shall pay"])
    quotes = [["of", "this", "Agreement", "the", "Supplier", "shall", "pay"], ["of", "this", "Agreement"]]
    assert_same_words(text, quotes)
    votes = _WordIndex(normalize_text(text).a).diagonals(quotes[1])
    assert (votes == []) is (times > locate.MAX_POSTINGS)


# ── real texts ────────────────────────────────────────────────────────────────────────────────────────
def _sample_texts() -> Iterator[str]:
    for path in sorted(SAMPLES.iterdir()):
        if path.suffix in (".txt", ".md", ".docx", ".pdf"):
            yield load_document(path).text


def _quotes_of(text: str, every: int = 40, size: int = 12) -> list[list[str]]:
    words = normalize_text(text).a.text.split()
    picked = [words[i : i + size] for i in range(0, max(0, len(words) - size), every)]
    for q in picked[::3]:  # one word changed, as an agent misquotes
        q[size // 2] = q[size // 2] + "s"
    return picked


def test_sample_contracts() -> None:
    texts = list(_sample_texts())
    assert len(texts) >= 4
    for text in texts:
        assert_same_views(text)
        assert_same_words(text, _quotes_of(text))


def test_cuad_texts(shared_data: Path) -> None:
    paths = sorted((shared_data / "cuad" / "texts").glob("*.txt"))[::20]  # 21 of 408, by position only
    if not paths:
        pytest.skip(f"no CUAD texts under {shared_data / 'cuad' / 'texts'}")
    for path in paths:
        text = load_document(path).text
        assert_same_views(text)
        assert_same_words(text, _quotes_of(text, every=400))


def _benchmark_kind(size: int, quotes: int) -> tuple[str, list[str]]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from gate import make_document, make_quotes  # benchmarks/gate.py's generators
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    text = make_document(size, seed=7)
    return text, [q.text for q in make_quotes(text, quotes, seed=8)]


def test_the_gates_findings_on_the_benchmarks_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    """Exact, typographic, one-word-changed and absent quotes: the gate decides each one as it did with
    numpy's candidates (the reference index's diagonals put in place of the new ones)."""
    from citationgate.gate import _CACHE, gate
    from citationgate.model import CitationRequest, Proposal
    from ingest.load import load_bytes

    text, quotes = _benchmark_kind(150_000, 300)
    doc = load_bytes("contract.txt", text.encode())
    proposals = [
        Proposal(id=f"q{i}", claim="c", citations=(CitationRequest(quote=q),)) for i, q in enumerate(quotes)
    ]
    assert_same_words(text, [normalize_quote(q).split(" ") for q in quotes])
    _CACHE.clear()
    got = [f.to_dict() for f in gate(doc, proposals).findings]

    def numpy_diagonals(self: _WordIndex, qwords: list[str]) -> list[int]:
        if not hasattr(self, "_reference"):
            self._reference = ref._WordIndex(ref.normalize_text(self.view.text).a)  # type: ignore[attr-defined]
        return self._reference.diagonals(qwords)  # type: ignore[attr-defined, no-any-return]

    monkeypatch.setattr(_WordIndex, "diagonals", numpy_diagonals)
    _CACHE.clear()
    want = [f.to_dict() for f in gate(doc, proposals).findings]
    _CACHE.clear()
    assert got == want
    assert {f["status"] for f in got} >= {"verified", "needs_review", "rejected"}
    assert any(c.get("match") == "fuzzy" for f in got for c in f.get("citations", []))


def test_a_fuzzy_search_without_prepare_finds_the_same() -> None:
    text, quotes = _benchmark_kind(40_000, 60)
    prepared, alone = QuoteIndex(text), QuoteIndex(text)
    needles = [normalize_quote(q) for q in quotes]
    prepared.prepare_fuzzy(needles)
    for q, n in zip(quotes, needles, strict=True):
        assert prepared.find_fuzzy(q, needle=n, time_limit=60) == alone.find_fuzzy(q, time_limit=60)


def test_verify_imports_no_numpy(tmp_path: Path) -> None:
    """A fresh `verify` with near (fuzzy) and absent quotes: numpy is never imported."""
    text, quotes = _benchmark_kind(30_000, 40)
    doc = tmp_path / "contract.txt"
    doc.write_text(text, encoding="utf-8")
    props = tmp_path / "p.json"
    items = [{"id": f"q{i}", "claim": "c", "citations": [{"quote": q}]} for i, q in enumerate(quotes)]
    props.write_text(json.dumps({"proposals": items}), encoding="utf-8")
    code = (
        "import sys\n"
        "from citationgate.cli import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
        "print(code, 'numpy' in sys.modules, file=sys.stderr)\n"
    )
    args = ["verify", str(props), "--doc", str(doc), "--format", "json", "--db", str(tmp_path / "r.db")]
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.stderr.split()[-2:] == ["0", "False"], done.stderr
    statuses = {f["status"] for f in json.loads(done.stdout)["findings"]}
    assert {"verified", "rejected"} <= statuses
