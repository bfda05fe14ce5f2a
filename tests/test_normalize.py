"""The fold table and offset map: typographic tolerance only, every position mapped back."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citationgate.locate import QuoteIndex
from citationgate.normalize import normalize_quote, normalize_quotes, normalize_text


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("the \u201cSupplier\u201d means", '"Supplier" means'),  # curly double quotes
        ("the Supplier\u2019s obligations", "the Supplier's obligations"),  # curly apostrophe
        ("the \u201eSupplier\u201c means", '"Supplier" means'),  # German low-high quotes
        ("the \u00abSupplier\u00bb means", '"Supplier" means'),  # guillemets
        ("the \u2039Supplier\u203a means", "'Supplier' means"),  # single guillemets
        ("the \u201aSupplier\u201b means", "'Supplier' means"),  # low-9 and reversed-9 quotes
        ("a height of 6\u2032 2\u2033 exactly", "a height of 6' 2\" exactly"),  # primes
        ("pages 10\u201312 inclusive", "pages 10-12 inclusive"),  # en dash
        ("the cap \u2014 as agreed", "the cap - as agreed"),  # em dash
        ("a value of \u22125 degrees", "a value of -5 degrees"),  # minus sign
        ("thirty\u00a0(30) days", "thirty (30) days"),  # non-breaking space
        ("thirty\u202f(30)\u2009days", "thirty (30) days"),  # narrow and thin spaces
        ("thirty\u3000(30) days", "thirty (30) days"),  # ideographic space
        ("non\u00adrefundable fees", "nonrefundable fees"),  # soft hyphen dropped
        ("the Sup\u200bplier shall", "the Supplier shall"),  # zero-width space dropped
        ("the Sup\u2060plier\ufeff shall", "the Supplier shall"),  # word joiner, BOM dropped
        ("the \ufb01nal payment", "the final payment"),  # fi ligature
        ("the \ufb02at fee", "the flat fee"),  # fl ligature
        ("the e\ufb00ective date", "the effective date"),  # ff ligature
        ("the o\ufb03cer shall", "the officer shall"),  # ffi ligature
        ("the ba\ufb04e plate", "the baffle plate"),  # ffl ligature
        ("as follows\u037e the fee", "as follows; the fee"),  # Greek question mark
        ("this Agree-\nment shall", "this Agreement shall"),  # hyphen at a line break inside a word
        ("a non-\ncompete clause", "a non-compete clause"),  # ... and the kind to keep
        ("this Agree-\r\n  ment shall", "this Agree-ment shall"),  # CRLF and indentation
        ("the   Supplier\n\n shall", "the Supplier shall"),  # whitespace runs
        ("the Supplier\tshall", "the Supplier\n  shall"),  # any run matches any run
    ],
    ids=[
        "curly-double",
        "curly-apostrophe",
        "german-quotes",
        "guillemets",
        "single-guillemets",
        "low-9",
        "primes",
        "en-dash",
        "em-dash",
        "minus",
        "nbsp",
        "narrow-thin",
        "ideographic-space",
        "soft-hyphen",
        "zero-width",
        "word-joiner-bom",
        "lig-fi",
        "lig-fl",
        "lig-ff",
        "lig-ffi",
        "lig-ffl",
        "greek-question-mark",
        "linebreak-hyphen-join",
        "linebreak-hyphen-keep",
        "crlf-hyphen",
        "whitespace-runs",
        "any-run",
    ],
)
def test_typographic_variant_locates_and_slices_back(text: str, quote: str) -> None:
    """Typographic variants match, and the offsets slice the document's own characters."""
    index = QuoteIndex(text)
    spans = index.find_exact(quote)
    assert len(spans) == 1
    start, end = spans[0]
    assert not text[start].isspace() and not text[end - 1].isspace()
    # The folded slice is the quote's folded form: the offsets cover exactly the quoted characters.
    assert normalize_quote(text[start:end]).replace("-", "") == normalize_quote(quote).replace("-", "")


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("the Supplier shall", "the supplier shall"),  # capitalisation is not folded
        ("THE SUPPLIER SHALL pay", "The Supplier shall pay"),  # all caps is not "exact"
        ("the area is 20 m\u00b2 in total", "the area is 20 m2 in total"),  # no NFKC: m² is not m2
        ("one \u00bd share of it", "one 1/2 share of it"),  # ½ is not 1/2
        ("the Supplier shall pay", "the Supplier shal pay"),  # a missing letter is not whitespace
    ],
    ids=["lower-case", "all-caps", "superscript", "vulgar-fraction", "missing-letter"],
)
def test_non_typographic_differences_do_not_match(text: str, quote: str) -> None:
    """Only typography is folded: case, NFKC compatibility forms and letters are not."""
    assert QuoteIndex(text).find_exact(quote) == []


def test_ligature_edges_are_not_split() -> None:
    """A match may not start or end inside an expanded ligature (the offsets could not slice it)."""
    text = "the \ufb01nal payment is due"
    index = QuoteIndex(text)
    assert index.find_exact("inal payment") == []
    assert index.find_exact("the f") == []
    assert index.find_exact("final payment") == [(4, 16)]


def test_offset_map_covers_every_position() -> None:
    """Every normalized position maps to a canonical character that folds to it."""
    text = "A\u00a0\u201cfee\u201d \ufb01xed\u00ad here; Agree-\n ment  \U0001f600 end\u037e"
    view = normalize_text(text).a
    assert len(view.pos) == len(view.text) + 1
    assert view.pos[-1] == len(text)
    for i, ch in enumerate(view.text):
        src = text[int(view.pos[i])]
        assert normalize_quote(src) in (ch, "fi") or src.isspace() or ch == " "


def test_astral_characters_keep_their_offsets() -> None:
    """Characters beyond the BMP are one code point each; offsets stay code-point indices."""
    text = "\U0001f600\U0001f600 the Supplier shall pay"
    assert QuoteIndex(text).find_exact("the Supplier shall") == [(3, 21)]


_alphabet = st.sampled_from(list("abcAB ,.;-\n\u00a0\u2019\u201c\u201d\u2013\u00ad\u200b\ufb01\u037e"))


@settings(max_examples=150, deadline=None)
@given(st.text(_alphabet, min_size=0, max_size=120))
def test_quote_normalization_matches_text_normalization(text: str) -> None:
    """The quote path and the (vectorized) text path fold any string identically."""
    assert normalize_text(text).a.text.strip(" ") == normalize_quote(text)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(_alphabet, max_size=40), min_size=8, max_size=20))
def test_batched_quote_normalization_matches_one_by_one(quotes: list[str]) -> None:
    """The vectorized batch path gives each quote exactly its own normalization."""
    assert normalize_quotes(quotes) == [normalize_quote(q) for q in quotes]
