"""Locating quotes: exact index (against a brute-force oracle), fuzzy fallback, meaning guard, ellipses."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from citationgate.locate import (
    FUZZY_MIN_WORDS,
    QuoteIndex,
    meaning_differences,
    split_ellipsis,
)
from citationgate.normalize import FOLDS

CLAUSE = (
    "11.2 Limitation. The Supplier shall not be liable for any indirect or consequential damages "
    "arising out of or in connection with this Agreement, except for damages caused by gross "
    "negligence or wilful misconduct. The Customer must pay each undisputed invoice within thirty "
    "(30) days of receipt. Liability is capped at \u20a650,000,000 in aggregate for all claims "
    "arising in any contract year. The parties will hold the annual review meeting at the civic "
    "centre on the first business day of each quarter as set out in section 4.2 of this schedule."
)


# ── exact ────────────────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize(
    "quote",
    ["50% (approx", "[a] applies", "a.b*c+d? x", "(x|y) ^$ {2}", "\\d+ and \\s"],
    ids=["open-paren", "brackets", "regex-metachars", "alternation", "backslashes"],
)
def test_regex_hostile_quotes_are_plain_text(quote: str) -> None:
    """A quote is never compiled as a regex: metacharacters are matched literally."""
    text = f"before {quote} after; and {quote.replace(' ', '  ')} again"
    index = QuoteIndex(text)
    spans = index.find_exact(quote)
    assert len(spans) == 2
    assert text[spans[0][0] : spans[0][1]] == quote


def test_every_occurrence_is_reported_overlaps_included() -> None:
    """All occurrences come back in order, overlapping ones too (no first-hit-wins)."""
    text = "abab abab abab abab abab abab"
    assert QuoteIndex(text).find_exact("abab abab") == [(0, 9), (5, 14), (10, 19), (15, 24), (20, 29)]


def test_batched_and_single_searches_agree() -> None:
    """find_exact_many (Aho-Corasick) returns exactly what find_exact returns, quote by quote."""
    index = QuoteIndex(CLAUSE + "\n" + CLAUSE)
    words = CLAUSE.split()
    rng = random.Random(7)
    quotes = []
    for _ in range(60):
        i = rng.randrange(len(words) - 6)
        quotes.append("\n ".join(words[i : i + rng.randint(2, 6)]))
    quotes += ["not in the document at all", "", "the supplier shall"]
    assert index.find_exact_many(quotes) == [index.find_exact(q) for q in quotes]


def _slow_normalize(text: str) -> tuple[str, list[int]]:
    """An obviously-correct reference (no line breaks in its input): fold char by char, collapse runs."""
    out: list[str] = []
    pos: list[int] = []
    for i, ch in enumerate(text):
        rep = FOLDS.get(ch, ch)
        for r in rep:
            if r == " " and out and out[-1] == " ":
                continue
            out.append(r)
            pos.append(i)
    return "".join(out), pos


def _brute_force(text: str, quote: str) -> list[tuple[int, int]]:
    norm, pos = _slow_normalize(text)
    needle = _slow_normalize(quote)[0].strip(" ")
    found = set()
    for i in range(len(norm) - len(needle) + 1):
        if norm[i : i + len(needle)] == needle:
            j = i + len(needle)
            if (i > 0 and pos[i - 1] == pos[i]) or (j < len(norm) and pos[j] == pos[j - 1]):
                continue
            found.add((pos[i], pos[j - 1] + 1))
    return sorted(found)


def test_oracle_planted_spans_in_seeded_random_text() -> None:
    """The fast index agrees with a brute-force scan on planted and absent spans in random text."""
    rng = random.Random(20241130)
    vocab = [
        "the",
        "Fee",
        "fee",
        "shall",
        "not",
        "\u201cSupplier\u201d",
        "pay",
        "\ufb01le",
        "x\u00ady",
        "10\u201312",
    ]
    spaces = [" ", "  ", "\t", "\u00a0", " \u2009"]
    parts = []
    for _ in range(3000):
        parts.append(rng.choice(vocab))
        parts.append(rng.choice(spaces))
    text = "".join(parts)
    quotes = []
    for _ in range(120):
        a = rng.randrange(len(text) - 40)
        span = text[a : a + rng.randint(10, 40)]
        quotes.append(" ".join(span.split()))  # reflowed
    quotes += ["Fee Fee Fee Fee Fee Fee", "shall shall pay not not", '"Supplier" file']
    index = QuoteIndex(text)
    batched = index.find_exact_many(quotes)
    for quote, got in zip(quotes, batched, strict=True):
        expected = _brute_force(text, quote)
        assert got == expected, quote
        assert index.find_exact(quote) == expected


_words = st.lists(st.sampled_from(["the", "Supplier", "shall", "pay", "fee", "not", "30", "(a)", "days"]))


@settings(max_examples=60, deadline=None)
@given(words=_words.filter(lambda w: len(w) > 3), seps=st.lists(st.sampled_from([" ", "\n", "  ", "\u00a0"])))
def test_any_substring_locates_at_its_own_offsets(words: list[str], seps: list[str]) -> None:
    """Any ≥ 10-character substring that starts and ends on a non-space is found at its own offsets."""
    text = "".join(w + (seps[i % len(seps)] if seps else " ") for i, w in enumerate(words))
    index = QuoteIndex(text)
    rng = random.Random(len(text))
    for _ in range(5):
        a = rng.randrange(len(text))
        b = rng.randrange(a, len(text) + 1)
        sub = text[a:b].strip()
        if len(sub) < 10:
            continue
        start = text.index(sub, a)
        assert (start, start + len(sub)) in index.find_exact(sub)


@settings(max_examples=60, deadline=None)
@given(st.text(st.sampled_from(list("qzjkQZJK0123")), min_size=10, max_size=30))
def test_text_absent_from_the_document_never_verifies(quote: str) -> None:
    """Text made of letters the document does not contain is never found, exactly or fuzzily."""
    assume(quote.strip())
    index = QuoteIndex(CLAUSE.replace("q", "").replace("0", ""))
    assert index.find_exact(quote) == []
    assert index.find_fuzzy(quote).kind != "match"


# ── fuzzy and the meaning guard: the seed failures ───────────────────────────────────────────────
@pytest.mark.parametrize(
    "quote",
    [
        # drops a "not"
        "The Supplier shall be liable for any indirect or consequential damages arising out of",
        # softens "must" to "should"
        "The Customer should pay each undisputed invoice within thirty (30) days of receipt.",
        # changes a threshold
        "Liability is capped at \u20a6500,000,000 in aggregate for all claims arising in any contract year.",
        # splices two real fragments
        "The Supplier shall not be liable for any indirect or consequential damages. The Customer must pay",
        # extends a verified passage by a few words
        "The Customer must pay each undisputed invoice within thirty (30) days of receipt, or when asked.",
        # one word and the section number changed
        "hold the annual review meeting at the museum on the first business day of each quarter "
        "as set out in section 4.3 of this schedule.",
        # one word changed, section number kept
        "hold the annual review meeting at the museum on the first business day of each quarter "
        "as set out in section 4.2 of this schedule.",
        # a different word ("losses" for "damages") is not a slip
        "The Supplier shall not be liable for any indirect or consequential losses arising out of",
        # a negating prefix
        "except for damages caused by gross negligence or unwilful misconduct. The Customer must pay",
        # the day count changed in words
        "The Customer must pay each undisputed invoice within thirty (30) months of receipt.",
    ],
    ids=[
        "drops-not",
        "must-to-should",
        "threshold",
        "splice",
        "extension",
        "word-and-section",
        "civic-centre-to-museum",
        "different-word",
        "negating-prefix",
        "days-to-months",
    ],
)
def test_seed_failures_never_fuzzy_match(quote: str) -> None:
    """Each seed failure is neither exact nor an accepted fuzzy match."""
    index = QuoteIndex(CLAUSE)
    assert index.find_exact(quote) == []
    outcome = index.find_fuzzy(quote)
    assert outcome.kind in ("guarded", "none"), outcome


def test_fuzzy_accepts_a_slip_with_word_exact_edges() -> None:
    """A misspelt word in a long quote matches fuzzily, with edges on the document's word boundaries."""
    index = QuoteIndex(CLAUSE)
    quote = "The Supplier shall not be liable for any indirect or consequentail damages arising out of"
    outcome = index.find_fuzzy(quote)
    assert outcome.kind == "match" and outcome.span is not None
    start, end = outcome.span
    assert CLAUSE[start:end] == quote.replace("consequentail", "consequential")
    assert 0.9 <= outcome.similarity < 1.0


def test_fuzzy_needs_a_long_quote() -> None:
    """Quotes under FUZZY_MIN_WORDS words are never matched fuzzily."""
    quote = "The Suplier shall not be liable"
    assert len(quote.split()) < FUZZY_MIN_WORDS
    assert QuoteIndex(CLAUSE).find_fuzzy(quote).kind == "none"


def test_fuzzy_search_is_bounded_in_time() -> None:
    """Past its time bound the fuzzy search reports a timeout instead of running on."""
    quote = "The Supplier shall not be liable for any indirect or consequentail damages arising out of"
    outcome = QuoteIndex(CLAUSE).find_fuzzy(quote, time_limit=0.0)
    assert outcome.kind == "timeout"


@pytest.mark.parametrize(
    ("quote_words", "doc_words", "ok"),
    [
        ("the fee is payable on demand", "the fee is payable on demand", True),
        ("the fee is payable on demand", "the fee is payable, on demand", True),
        ("the fee is payable on demand", "the fee is payabel on demand", True),
        ("the fee is payable on demand", "this fee is payable on demand", True),
        ("the fee is payable on demand", "the fee is not payable on demand", False),
        ("the fee is payable on demand", "the fee is payable on 30 demand", False),
        ("the fee shall be payable", "the fee may be payable", False),
        ("fees and costs are payable", "fees or costs are payable", False),
        ("costs including taxes are payable", "costs excluding taxes are payable", False),
        ("the Licensor is paid", "the Licensee is paid", False),
        ("as set out in (a) above", "as set out in (b) above", False),
        ("an exclusive licence is granted", "a non-exclusive licence is granted", False),
        ("the term of this agreement ends", "the term of this Agreement ends", False),
    ],
    ids=[
        "same",
        "punctuation",
        "typo",
        "article",
        "negation",
        "number",
        "modal",
        "and-or",
        "including-excluding",
        "defined-term",
        "list-label",
        "negating-prefix",
        "capitalisation",  # found by `citationgate eval gate`: a lower-cased defined term slipped through
    ],
)
def test_meaning_guard(quote_words: str, doc_words: str, ok: bool) -> None:
    """Slips pass the guard; words that carry meaning never do."""
    problems = meaning_differences(quote_words.split(), doc_words.split())
    assert (not problems) is ok, problems


# ── ellipses ─────────────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize(
    ("quote", "segments"),
    [
        ("a b ... c d", ["a b", "c d"]),
        ("a b \u2026 c d", ["a b", "c d"]),
        ("a b [...] c d", ["a b", "c d"]),
        ("a b [\u2026] c d", ["a b", "c d"]),
        ("a b . . . c d", ["a b", "c d"]),
        ("... a b", ["a b"]),
        ("a b", ["a b"]),
    ],
    ids=["three-dots", "ellipsis-char", "bracketed", "bracketed-char", "spaced-dots", "leading", "none"],
)
def test_split_ellipsis(quote: str, segments: list[str]) -> None:
    """Every common ellipsis mark splits a quote into its segments."""
    assert split_ellipsis(quote) == segments


def test_segments_are_found_in_order() -> None:
    """Segment chains follow document order; out-of-order segments give no chain."""
    index = QuoteIndex(CLAUSE)
    chains = index.find_segments(["The Supplier shall", "liable for any indirect"])
    assert len(chains) == 1
    (a, b), (c, d) = chains[0]
    assert b <= c and CLAUSE[a:b] == "The Supplier shall" and CLAUSE[c:d] == "liable for any indirect"
    assert index.find_segments(["liable for any indirect", "The Supplier shall"]) == []


def test_capitalisation_change_never_fuzzy_verifies() -> None:
    """ "this agreement" is not "this Agreement": the defined term's capital is never folded, even fuzzily."""
    doc = (
        "The term of this Agreement shall continue for one (1) year following the Launch Date, unless ended."
    )
    index = QuoteIndex(doc)
    quote = (
        "The term of this agreement shall continue for one (1) year following the Launch Date, unless ended."
    )
    assert index.find_exact(quote) == []
    outcome = index.find_fuzzy(quote)
    assert outcome.kind != "match", outcome


@pytest.mark.parametrize(
    ("document", "quote"),
    [
        (
            "a perpetual, non- exclusive, royalty-free licence",
            "a perpetual, non-\nexclusive, royalty-free licence",
        ),
        (
            "a perpetual, non-\nexclusive, royalty-free licence",
            "a perpetual, non- exclusive, royalty-free licence",
        ),
        (
            "a perpetual, non-exclusive, royalty-free licence",
            "a perpetual, non-\nexclusive, royalty-free licence",
        ),
    ],
    ids=["quote-breaks-after-hyphen", "document-breaks-after-hyphen", "document-unbroken"],
)
def test_hyphen_then_whitespace_matches_either_way(document: str, quote: str) -> None:
    """A re-flowed quote may put its line break right after a hyphen; the document may print a space there."""
    index = QuoteIndex(document)
    hits = index.find_exact(quote)
    assert hits, (document, quote)
    assert index.find_exact_many([quote] * 20) == [hits] * 20
    start, end = hits[0]
    assert document[start:end].startswith("a perpetual") and document[start:end].endswith("licence")


# ── capitalisation, asked of many failed quotes at once ─────────────────────────────────────────
def test_case_check_for_a_batch_is_the_check_quote_by_quote() -> None:
    """`differ_only_in_case` (one Aho-Corasick pass for a batch) answers as `differs_only_in_case` does for
    each quote: upper-cased, title-cased and absent quotes, repeats, an empty one, more than a batch."""
    from citationgate.normalize import normalize_quote

    index = QuoteIndex(CLAUSE + "\n" + CLAUSE.upper())
    words = CLAUSE.split()
    quotes = [" ".join(words[i : i + 5]) for i in range(0, len(words) - 5, 3)]
    quotes += [q.title() for q in quotes[:6]] + [q.swapcase() for q in quotes[:6]]
    quotes += ["no such words anywhere in it", "", "   ", quotes[0], "THE SUPPLIER SHALL NOT BE LIABLE"]
    assert len(quotes) > 16
    one_by_one = [index.differs_only_in_case(q) for q in quotes]
    assert index.differ_only_in_case([normalize_quote(q) for q in quotes]) == one_by_one
    assert True in one_by_one and False in one_by_one
    lone = ["\ud800 the supplier", *quotes]  # a lone surrogate: kept out of the automaton, `in` answers
    assert index.differ_only_in_case([normalize_quote(q) for q in lone]) == [False, *one_by_one]


def test_a_quote_with_a_lone_surrogate_does_not_hide_the_others_of_its_batch() -> None:
    """`ahocorasick_rs` given a pattern with a lone surrogate silently matches none after it: such a quote
    is searched on its own, and every other quote of the batch is still found."""
    text = " ".join(f"Clause {i}: the Supplier shall pay amount {i} promptly." for i in range(40))
    index = QuoteIndex(text + " odd \ud800 words here")
    quotes = [f"the Supplier shall pay amount {i} promptly" for i in range(20)]
    for batch in (["odd \ud800 words here", *quotes], [*quotes[:5], "odd \ud800 words", *quotes[5:]]):
        assert index.find_exact_many(batch) == [index.find_exact(q) for q in batch]
        assert all(index.find_exact_many(batch))
