"""Properties where they matter: the offset map, and the gate on typographic variants and meaning.

- Every position of every normalized view maps back inside the canonical text, monotonically.
- Any substring of ten or more characters, written in any of its typographic variants (straight or curly
  quotes, any dash, plain or non-breaking spaces, a ligature spelt out), locates at its own offsets.
- A quote with one meaning word changed (a number, a modal, a negation) never verifies, exactly or fuzzily.
"""

from __future__ import annotations

import hashlib
import itertools

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from citationgate.gate import gate
from citationgate.locate import QuoteIndex
from citationgate.normalize import normalize_text
from citationgate.proposals import parse_proposals
from ingest.document import Document

_ALPHABET = st.sampled_from(
    [
        *"abcXYZ019 .,;()\n\t",
        *["\u00a0", "\u2009", "\u2019", "\u2018", "\u201c", "\u201d", "\u2013", "\u2014", "\u2011"],
        *["\u00ad", "\ufb01", "\ufb02", "\u200b", "-\n", "😀", "é", "İ"],
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_ALPHABET, max_size=200).map("".join))
def test_every_normalized_position_maps_back_inside_the_text_monotonically(text: str) -> None:
    for view in normalize_text(text).views:
        pos = view.pos.tolist()
        assert len(pos) == len(view.text) + 1 and pos[-1] == len(text)
        assert all(0 <= p < len(text) for p in pos[:-1])
        assert all(a <= b for a, b in itertools.pairwise(pos))


# words with the typographic characters real contracts carry, and the plain spelling of each
_TYPOGRAPHIC = {
    "\u2019": "'",
    "\u2018": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2013": "-",
    "\u2014": "-",
    "\u2011": "-",
    "\u00a0": " ",
    "\ufb01": "fi",
}
_WORDS = st.sampled_from(
    [
        "Supplier\u2019s",
        "\u201cServices\u201d",
        "non\u2011exclusive",
        "10\u201320",
        "pro\ufb01ts",
        "shall",
        "the",
        "Customer",
        "days",
        "(a)",
        "fee",
        "notice",
    ]
)
_SEPARATORS = st.sampled_from([" ", "\n", "  ", "\u00a0", " \n"])


def _plain(text: str) -> str:
    return "".join(_TYPOGRAPHIC.get(c, c) for c in text)


def _curly(text: str) -> str:
    return text.replace("'", "\u2019").replace("-", "\u2013").replace(" ", "\u00a0")


@settings(max_examples=80, deadline=None)
@given(
    words=st.lists(_WORDS, min_size=4, max_size=40),
    seps=st.lists(_SEPARATORS, min_size=1, max_size=5),
    cut=st.tuples(st.floats(0, 1), st.floats(0, 1)),
    variant=st.sampled_from(["as-is", "plain", "curly"]),
)
def test_any_substring_in_any_typographic_variant_locates_at_its_own_offsets(
    words: list[str], seps: list[str], cut: tuple[float, float], variant: str
) -> None:
    text = "".join(w + seps[i % len(seps)] for i, w in enumerate(words)).rstrip()
    a = int(min(cut) * len(text))
    b = min(len(text), max(a + 10, int(max(cut) * len(text))))
    while a < len(text) and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    sub = text[a:b]
    assume(len(sub) >= 10 and "\ufb01" not in (sub[0], sub[-1]))
    quote = {"as-is": sub, "plain": _plain(sub), "curly": _curly(sub)}[variant]
    assert (a, b) in QuoteIndex(text).find_exact(quote)


_CLAUSE = (
    "The Supplier shall indemnify the Customer against all losses arising from any breach of this "
    "Agreement, and its aggregate liability shall not exceed twelve (12) months of Fees paid in the "
    "twelve months before the claim, provided that the Customer must give notice within 30 days."
)
_CHANGES = [
    ("shall indemnify", "may indemnify"),
    ("shall not exceed", "shall exceed"),
    ("twelve (12) months", "twelve (18) months"),
    ("within 30 days", "within 60 days"),
    ("must give notice", "should give notice"),
    ("the Customer against", "the Supplier against"),
]


def _document(text: str) -> Document:
    return Document(
        name="msa.txt",
        file_type="txt",
        text=text,
        source_sha256=hashlib.sha256(text.encode()).hexdigest(),
    )


@settings(max_examples=40, deadline=None)
@given(
    change=st.sampled_from(_CHANGES),
    start=st.integers(0, 12),
    length=st.integers(14, 30),
    reflow=st.booleans(),
)
def test_one_meaning_word_changed_never_verifies(
    change: tuple[str, str], start: int, length: int, reflow: bool
) -> None:
    """A long quote around one changed number, modal, negation or party is refused, fuzzy or not."""
    old, new = change
    words = _CLAUSE.split()
    at = len(_CLAUSE[: _CLAUSE.index(old)].split())
    lo = max(0, at - start)
    quote = " ".join(words[lo : lo + length])
    assume(old in quote)
    changed = quote.replace(old, new)
    if reflow:
        changed = changed.replace(" ", "\n", 3)
    proposals = parse_proposals(
        {"proposals": [{"id": "p1", "claim": "c", "citations": [{"quote": changed}]}]}, source="t"
    )
    result = gate(_document(_CLAUSE), proposals)
    assert all(c.status != "verified" for f in result.findings for c in f.citations), changed
