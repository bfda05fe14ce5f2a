"""`citationgate.jsontext`: the standard library's JSON text, byte for byte, written by orjson when the value
is plain — checked against `json.dumps` on Hypothesis values (plain or not) and on real outputs: a `verify`
of the benchmark's kind of contract and quotes, a sample contract's review (the goldens' input), and the
audit chain's canonical entries."""

from __future__ import annotations

import enum
import hashlib
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citationgate import jsontext
from citationgate.audit import canonical_json

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_contracts"


def std_pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


def std_canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def outcome(write: Any, value: Any) -> tuple[str, str]:
    """The text written, or the error raised (keys that cannot be sorted: both raise the same)."""
    try:
        return "text", write(value)
    except (TypeError, ValueError) as exc:
        return type(exc).__name__, str(exc)


class Colour(enum.Enum):
    red = "red"


class Kind(enum.StrEnum):
    verified = "verified"


class Level(enum.IntEnum):
    high = 3


_text = st.text(st.characters(codec=None))  # every code point, lone surrogates included
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.floats(min_value=-1e-3, max_value=1e-3)  # around the 1e-4 line orjson spells differently below
    | _text
)
_odd = st.sampled_from([Colour.red, Kind.verified, Level.high, datetime(2026, 12, 1, tzinfo=UTC), b"x"])
_keys = _text | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
_plain_keys = _text


def _values(scalars: st.SearchStrategy[Any], keys: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=5)
            | st.lists(inner, max_size=3).map(tuple)
            | st.dictionaries(keys, inner, max_size=5)
        ),
        max_leaves=20,
    )


@settings(max_examples=250, deadline=None)
@given(_values(_scalars, _plain_keys))
def test_plain_shapes_write_the_standard_librarys_text(value: Any) -> None:
    assert jsontext.pretty(value) == std_pretty(value)
    assert jsontext.canonical(value) == std_canonical(value)


@settings(max_examples=250, deadline=None)
@given(_values(_scalars | _odd, _keys))
def test_anything_else_writes_the_standard_librarys_text_too(value: Any) -> None:
    """Enums, datetimes, bytes left to `default=str`, keys that are not strings, big ints, NaN: the
    standard library writes them (orjson would spell some of them differently), or refuses them as it
    did (keys of different types cannot be sorted)."""
    assert outcome(jsontext.pretty, value) == outcome(std_pretty, value)
    assert outcome(jsontext.canonical, value) == outcome(std_canonical, value)


@pytest.mark.parametrize(
    ("value", "is_plain"),
    [
        ({"a": [1, 2.5, None, True, "é"]}, True),
        ({"score": 1e-05}, False),  # orjson: 0.00001
        ({"score": float("nan")}, False),  # orjson: null
        ({"n": 2**64}, False),  # past orjson's 64 bits
        ({1: "x"}, False),  # the standard library writes the key as "1"
        ({"k": Kind.verified}, False),  # a str subclass
        ({"k": Level.high}, False),  # an int subclass
        ({"at": datetime(2026, 12, 1, tzinfo=UTC)}, False),  # orjson would write ISO with a T
        ({"x": 0.0, "y": -0.0, "z": 1e-4, "w": 1e300}, True),
    ],
    ids=["plain", "tiny-float", "nan", "big-int", "int-key", "str-enum", "int-enum", "datetime", "floats"],
)
def test_what_counts_as_plain(value: Any, is_plain: bool) -> None:
    assert jsontext.plain(value) is is_plain
    assert jsontext.pretty(value) == std_pretty(value)


def test_a_lone_surrogate_is_written_by_the_standard_library() -> None:
    value = {"quote": "a\ud800b"}
    assert jsontext.plain(value)  # the shape is plain; the encoder itself refuses the string
    assert jsontext.pretty(value) == std_pretty(value)
    assert jsontext.canonical(value) == std_canonical(value)


def test_orjson_is_installed() -> None:
    """The fast path is a dependency, not an accident of the environment."""
    assert jsontext.orjson is not None


def _benchmark_verify(tmp_path: Path) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from gate import make_document, make_quotes  # benchmarks/gate.py's generators
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    import citationgate

    text = make_document(60_000, seed=7)
    quotes = make_quotes(text, 120, seed=8)
    doc = tmp_path / "contract.txt"
    doc.write_text(text, encoding="utf-8")
    proposals = [
        {"id": f"q{i}", "claim": "benchmark", "citations": [{"quote": q.text}]} for i, q in enumerate(quotes)
    ]
    return citationgate.verify(doc, {"proposals": proposals}, store=str(tmp_path / "v.db"))


def test_a_verify_of_the_benchmarks_kind_is_plain_and_the_same_text(tmp_path: Path) -> None:
    """The value `verify --format json` prints (exact, typographic, one-word-changed and absent quotes): the
    fast path is taken, and it writes the standard library's text."""
    out = _benchmark_verify(tmp_path)
    statuses = {f["status"] for f in out["findings"]}
    assert {"verified", "rejected"} <= statuses
    assert jsontext.plain(out)
    assert jsontext.pretty(out) == std_pretty(out)


def test_the_audit_chains_canonical_text_is_unchanged(tmp_path: Path) -> None:
    """Every entry the verify wrote is sealed over the standard library's canonical text of its fields."""
    from citationgate.store import Store

    _benchmark_verify(tmp_path)
    entries = Store.open(str(tmp_path / "v.db")).audit_entries()
    assert len(entries) > 200
    for entry in entries:
        fields = {k: v for k, v in entry.items() if k not in ("id", "prev_hash", "hash")}
        assert jsontext.plain(fields)
        assert canonical_json(fields) == std_canonical(fields)
        sealed = f"{entry['prev_hash']}\n{entry['id']}\n{std_canonical(fields)}".encode()
        assert hashlib.sha256(sealed).hexdigest() == entry["hash"]


def test_a_sample_review_is_the_same_text() -> None:
    """A review of a sample contract (what the goldens are cut from) prints the standard library's text."""
    import citationgate

    out = citationgate.review(SAMPLES / "meridian_msa.txt", write=False)
    assert out["findings"]
    assert jsontext.pretty(out) == std_pretty(out)
