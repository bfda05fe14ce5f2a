"""Aligning two versions: clauses first (labels aside), then words inside what changed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citationgate.align import align_texts, segment
from ingest.sections import detect_sections

V1 = """MASTER SERVICES AGREEMENT

1. Definitions
1.1 "Services" means the services described in Schedule 1.
8. Liability
8.1 Neither party excludes liability for fraud.
8.2 The Supplier's total liability is capped at ₦50,000,000 in aggregate.
8.3 The Customer shall pay all invoices within 30 days.
9. Term
9.1 This Agreement continues for 24 months.
"""


def _align(old: str, new: str):  # type: ignore[no-untyped-def]
    return align_texts(old, detect_sections(old).sections, new, detect_sections(new).sections)


def _kinds(old: str, new: str) -> list[tuple[str, str | None, str | None]]:
    al = _align(old, new)
    return [
        (c.kind, c.old.section if c.old else None, c.new.section if c.new else None)
        for c in al.changes
        if c.kind != "same"
    ]


@pytest.mark.parametrize(
    ("new", "expected"),
    [
        # nothing changed: nothing to report
        (V1, []),
        # a clause inserted before 8.1 renumbers the rest of article 8: renumbered, not changed
        (
            V1.replace("8.1 Neither", "8.1 Each party bears its own costs.\n8.2 Neither")
            .replace("8.2 The Supplier", "8.3 The Supplier")
            .replace("8.3 The Customer", "8.4 The Customer"),
            [
                ("added", None, "8.1"),
                ("renumbered", "8.1", "8.2"),
                ("renumbered", "8.2", "8.3"),
                ("renumbered", "8.3", "8.4"),
            ],
        ),
        # an amount edited: one changed clause with a word-level replacement
        (V1.replace("₦50,000,000", "₦500,000,000"), [("changed", "8.2", "8.2")]),
        # a clause deleted
        (V1.replace("8.1 Neither party excludes liability for fraud.\n", ""), [("deleted", "8.1", None)]),
        # a clause moved to the end of the document: moved, not deleted and added
        (
            V1.replace("8.1 Neither party excludes liability for fraud.\n", "")
            + "8.1 Neither party excludes liability for fraud.\n",
            [("moved", "8.1", "9.1")],
        ),
    ],
    ids=["identical", "renumbered", "amount", "deleted", "moved"],
)
def test_clause_level_changes(new: str, expected: list[tuple[str, str | None, str | None]]) -> None:
    """Each kind of clause change is reported as that kind (labels are not text)."""
    assert _kinds(V1, new) == expected


def test_word_edits_name_the_changed_words() -> None:
    """Inside a changed clause the edits are words: the amount replaced, 'not' inserted."""
    new = V1.replace("₦50,000,000", "₦500,000,000").replace("shall pay", "shall not pay")
    al = _align(V1, new)
    edits = [e for c in al.changes for e in c.edits]
    assert [(e.op, e.old_text, e.new_text) for e in edits] == [
        ("replace", "₦50,000,000", "₦500,000,000"),
        ("insert", "", "not"),
    ]
    for e in edits:
        assert V1[e.old_start : e.old_end] == e.old_text
        assert new[e.new_start : e.new_end] == e.new_text


def test_typographic_and_whitespace_changes_are_not_edits() -> None:
    """Curly vs straight quotes and re-spacing are the gate's exact-mode tolerance: no change."""
    new = V1.replace("Supplier's", "Supplier’s").replace("capped at", "capped   at")
    assert _kinds(V1, new) == []


def test_map_span_follows_shifted_text() -> None:
    """An old span maps through the alignment to the same words at their new offsets."""
    new = V1.replace("described in Schedule 1", "described in Schedule 1 and Schedule 2")
    q = "pay all invoices within 30 days"
    a = V1.index(q)
    m = _align(V1, new).map_span(a, a + len(q))
    assert m is not None and m.intact
    assert new[m.start : m.end] == q
    assert m.start == new.index(q)


def test_map_span_of_an_edited_passage_shows_what_it_became() -> None:
    """A span whose words changed maps onto the edited words, flagged as not intact."""
    new = V1.replace("₦50,000,000", "₦500,000,000")
    q = "total liability is capped at ₦50,000,000"
    a = V1.index(q)
    m = _align(V1, new).map_span(a, a + len(q))
    assert m is not None and not m.intact
    assert new[m.start : m.end] == "total liability is capped at ₦500,000,000"
    assert [(e.old_text, e.new_text) for e in m.edits] == [("₦50,000,000", "₦500,000,000")]


def test_map_span_of_a_deleted_clause_is_none() -> None:
    """A clause deleted outright has no image in the new version."""
    new = V1.replace("8.1 Neither party excludes liability for fraud.\n", "")
    q = "Neither party excludes liability"
    a = V1.index(q)
    assert _align(V1, new).map_span(a, a + len(q)) is None


@pytest.mark.parametrize(
    ("text", "units"),
    [
        # a wrapped text: blank lines separate paragraphs, single line breaks do not
        ("The first paragraph wraps\nonto a second line.\n\nThe second paragraph.\n", 2),
        # one paragraph per line (DOCX-style text): each line is a unit
        ("First paragraph.\nSecond paragraph.\nThird paragraph.\n", 3),
        # clause labels start units; so does each line that ends a sentence
        ("1. Scope\n1.1 The Supplier shall:\n(a) deliver; and\n(b) install.\n1.2 Fees apply.\n", 5),
    ],
    ids=["wrapped", "line-per-paragraph", "clauses"],
)
def test_segmentation(text: str, units: int) -> None:
    """Units are paragraphs and clauses."""
    assert len(segment(text, detect_sections(text).sections)) == units


def test_list_items_belong_to_their_clause() -> None:
    """A list item is its own paragraph (labelled), but its clause is the numbered clause around it."""
    text = "1. Scope\n1.1 The Supplier shall:\n(a) deliver; and\n(b) install.\n1.2 Fees apply.\n"
    units = segment(text, detect_sections(text).sections)
    assert [u.section for u in units] == ["1", "1.1", "1.1", "1.1", "1.2"]
    assert [u.label for u in units] == ["1", "1.1", "(a)", "(b)", "1.2"]


def test_renumbering_keeps_the_key() -> None:
    """A unit's key is its text without its label, so 8.2 and 8.3 with the same words are one key."""
    old = "8. X\n8.1 Y.\n8.2 The same words.\n"
    new = "8. X\n8.1 Y.\n8.2 Z.\n8.3 The same words.\n"
    a = segment(old, detect_sections(old).sections)
    b = segment(new, detect_sections(new).sections)
    assert a[-1].key == b[-1].key == "The same words."
    assert (a[-1].label, b[-1].label) == ("8.2", "8.3")


_WORDS = [
    "the",
    "Supplier",
    "shall",
    "pay",
    "Customer",
    "fees",
    "within",
    "days",
    "of",
    "invoice",
    "not",
    "liable",
    "for",
    "any",
    "loss",
]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_unchanged_words_map_to_themselves(seed: int) -> None:
    """Property: after random word edits elsewhere, every untouched paragraph maps word for word."""
    rng = random.Random(seed)
    paras = [" ".join(rng.choice(_WORDS) for _ in range(rng.randint(5, 25))) + "." for _ in range(12)]
    edited = list(paras)
    touched = set(rng.sample(range(12), 3))
    for k in touched:
        words = edited[k].split()
        words.insert(rng.randrange(1, len(words)), "EDIT")  # strictly inside: the span is broken
        edited[k] = " ".join(words)
    old, new = "\n\n".join(paras), "\n\n".join(edited)
    al = align_texts(old, [], new, [])
    pos = 0
    for k, para in enumerate(paras):
        start = old.index(para, pos)
        pos = start + len(para)
        m = al.map_span(start, start + len(para))
        assert m is not None
        if k not in touched:
            assert m.intact and new[m.start : m.end] == para
        else:
            assert not m.intact
