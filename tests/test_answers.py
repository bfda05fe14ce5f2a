"""check-answer: quoted passages found, attributed to their citation, classified against the verified record.

The verified record in these tests is made the real way: a statute-like text file written to tmp_path,
ingested, proposals gated by `gate()`, and the review stored with `Store.write_review` (the `verify`
flow). Nothing here hand-writes a "verified" citation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citationgate.answers import (
    FindingsError,
    PassageStatus,
    attribute,
    check_answer,
    find_citations,
    find_passages,
    parse_findings,
    section_regions,
)
from citationgate.proposals import parse_proposals
from citationgate.store import ReviewRecord, Store
from citationgate.verification import verify_and_store

ACT = """LOCAL AUTHORITIES ACT

105H. Museums
(1) The Authority may establish and maintain museums.
(3) The Authority may charge for admission to any museum it maintains.

105N. Civic centres
(1) The Authority may specify the purposes for which any civic centre, or any part thereof, may be used.
(2) The Authority may fix fees for the use of any facility, and may do so retrospectively where the
Minister approves.
(3) The Supplier shall be liable for all damages except indirect damages.
(4) The Authority shall not be liable for any loss arising from the closure of a facility.
(5) This policy covers all employees of the Authority.
"""

PROPOSALS: dict[str, Any] = {
    "proposals": [
        {
            "id": "p1",
            "claim": "The Authority may specify the purposes for which civic centres may be used.",
            "citations": [
                {
                    "quote": "The Authority may specify the purposes for which any civic centre, "
                    "or any part thereof, may be used."
                }
            ],
        },
        {
            "id": "p2",
            "claim": "The Authority may fix fees for the use of any facility.",
            "citations": [{"quote": "The Authority may fix fees for the use of any facility"}],
        },
        {
            "id": "p3",
            "claim": "The Supplier is liable for damages, except indirect damages.",
            "citations": [{"quote": "The Supplier shall be liable for all damages except indirect damages."}],
        },
        {
            "id": "p4",
            "claim": "The Authority is not liable for losses from closing a facility.",
            "citations": [
                {
                    "quote": "The Authority shall not be liable for any loss arising from the closure "
                    "of a facility."
                }
            ],
        },
    ]
}


def verified_review(tmp_path: Path, text: str = ACT, proposals: dict[str, Any] = PROPOSALS) -> ReviewRecord:
    """Ingest `text`, gate `proposals` against it and store the review — what `verify` does."""
    path = tmp_path / "act.txt"
    path.write_text(text, encoding="utf-8")
    return verify_and_store(Store.open(), path, parse_proposals(proposals)).review


@pytest.fixture
def record(tmp_path: Path) -> ReviewRecord:
    rec = verified_review(tmp_path)
    assert [f["status"] for f in rec.findings] == ["verified"] * 4
    return rec


def check(record: ReviewRecord, answer: str, *, with_document: bool = True) -> list[Any]:
    doc = record.version.document if with_document else None
    return list(check_answer(answer, record.findings, document=doc).passages)


def fid(record: ReviewRecord, proposal: str) -> str:
    return next(f["id"] for f in record.findings if f["proposal_id"] == proposal)


# ── the cases, each exactly ──────────────────────────────────────────────────────────────
def test_quote_grown_past_its_verified_half_is_longer_than_verified(record: ReviewRecord) -> None:
    """Only "…may fix fees for the use of any facility" was verified; the answer adds the second half."""
    f2 = fid(record, "p2")
    answer = (
        f'The Authority "…may fix fees for the use of any facility, and may do so retrospectively" [{f2}].'
    )
    [p] = check(record, answer)
    assert p.status is PassageStatus.LONGER_THAN_VERIFIED
    assert "may do so retrospectively" in p.reason
    assert [s.text for s in p.should_use] == ["may fix fees for the use of any facility"]
    doc = record.version.document
    for s in p.should_use:
        assert s.start is not None and s.end is not None and doc.text[s.start : s.end] == s.text


def test_grown_quote_whose_extra_words_are_nowhere_is_still_longer(tmp_path: Path) -> None:
    """The added words need not be in the document at all: verified text plus unchecked words."""
    text = ACT.replace(", and may do so retrospectively where the Minister approves", "")
    rec = verified_review(tmp_path, text)
    f2 = fid(rec, "p2")
    [p] = check(rec, f'"…may fix fees for the use of any facility, and may do so retrospectively" [{f2}]')
    assert p.status is PassageStatus.LONGER_THAN_VERIFIED
    assert p.should_use[0].text == "may fix fees for the use of any facility"


def test_one_word_changed_under_another_section_is_nowhere(record: ReviewRecord) -> None:
    """civic centre → museum under s. 105H(3): one different word means the words are verified nowhere."""
    answer = 'The Authority may decide the use of "… any museum, or any part thereof …" (s. 105H(3)).'
    [p] = check(record, answer)
    assert p.status is PassageStatus.NOWHERE
    assert p.citation is not None and p.citation.refs == ("105H(3)",)
    assert p.should_use and "any civic centre, or any part thereof" in p.should_use[0].text
    assert p.should_use[0].finding == fid(record, "p1")


CIVIC_ANSWER = (
    'The Authority "may specify the purposes for which any civic centre, or any part thereof, '
    'may be used" ({cite}).'
)


def test_correct_words_under_the_wrong_section_are_wrong_citation(record: ReviewRecord) -> None:
    """The civic-centre words are verified — under s. 105N, not s. 105H(3)."""
    answer = CIVIC_ANSWER.format(cite="s. 105H(3)")
    [p] = check(record, answer)
    assert p.status is PassageStatus.WRONG_CITATION
    assert p.should_use[0].finding == fid(record, "p1")
    assert "105H(3)" in p.reason


def test_the_same_words_under_the_right_section_verify(record: ReviewRecord) -> None:
    """… and under s. 105N (resolved through the document's sections) they pass."""
    answer = CIVIC_ANSWER.format(cite="s. 105N")
    [p] = check(record, answer)
    assert p.status is PassageStatus.VERIFIED, p.reason
    doc = record.version.document
    a, b = p.document_spans[0]
    assert (
        doc.text[a:b]
        == "may specify the purposes for which any civic centre, or any part thereof, may be used"
    )


def test_passage_one_word_longer_than_its_verified_quote(record: ReviewRecord) -> None:
    """One word past the verified quote's end is one word nobody checked."""
    f2 = fid(record, "p2")
    [p] = check(record, f'"The Authority may fix fees for the use of any facility, and" [{f2}]')
    assert p.status is PassageStatus.LONGER_THAN_VERIFIED
    assert "and" in p.reason


def test_the_proposers_own_id_resolves_to_its_finding(record: ReviewRecord) -> None:
    """An agent that wrote proposal p2 may cite [p2]; it resolves to the finding gated from it."""
    [p] = check(record, '"may fix fees for the use of any facility" [p2]')
    assert p.status is PassageStatus.VERIFIED, p.reason


def test_verified_passage_under_the_wrong_finding_id(record: ReviewRecord) -> None:
    """Verified under F1, cited to F2: the words are right, the citation is not."""
    f1, f2 = fid(record, "p1"), fid(record, "p2")
    [p] = check(record, f'"any civic centre, or any part thereof" [{f2}]')
    assert p.status is PassageStatus.WRONG_CITATION
    assert p.should_use[0].finding == f1


def test_quote_with_no_citation_anywhere_near_it(record: ReviewRecord) -> None:
    """Verified words, but nothing to resolve them against: it fails, and says so."""
    answer = (
        "Background first.\n\nThe fees point matters. It says "
        '"may fix fees for the use of any facility" and that is all.\n\nNothing else here.'
    )
    [p] = check(record, answer)
    assert p.status is PassageStatus.NO_CITATION
    assert p.citation is None and "no citation" in p.reason
    assert p.should_use[0].finding == fid(record, "p2")


def test_words_in_the_document_but_never_verified(record: ReviewRecord) -> None:
    """Read, not verified: the document says it, but no verified quote contains it."""
    [p] = check(record, 'The Act says "may establish and maintain museums" (s. 105H).')
    assert p.status is PassageStatus.READ_NOT_VERIFIED
    assert p.document_spans


def test_one_shared_word_does_not_make_a_passage_longer_than_verified(record: ReviewRecord) -> None:
    """A passage that only touches a verified quote's last word is unread text, not a grown quote."""
    [p] = check(record, 'It says "facility, and may do so retrospectively where the" (s. 105N).')
    assert p.status is PassageStatus.READ_NOT_VERIFIED


def test_without_a_document_unread_words_are_nowhere(record: ReviewRecord) -> None:
    """With findings only, words outside every verified quote cannot be told read from invented."""
    result = check_answer('The Act says "may establish and maintain museums" (s. 105H).', record.findings)
    assert result.passages[0].status is PassageStatus.NOWHERE
    assert result.notes


def test_finding_ids_verify_without_a_document(record: ReviewRecord) -> None:
    """[F2] resolves through the findings alone; offsets still point into the document."""
    f2 = fid(record, "p2")
    [p] = check(record, f'"may fix fees for the use of any facility" [{f2}]', with_document=False)
    assert p.status is PassageStatus.VERIFIED
    doc = record.version.document
    m = p.matched[0]
    assert m.start is not None and m.end is not None and doc.text[m.start : m.end] == m.text


def test_verdict_passes_only_if_every_passage_passes(record: ReviewRecord) -> None:
    f2 = fid(record, "p2")
    good = f'"may fix fees for the use of any facility" [{f2}].'
    bad = good + ' Also "the Minister may veto fees" [F9].'
    assert check_answer(good, record.findings, document=record.version.document).verdict == "pass"
    result = check_answer(bad, record.findings, document=record.version.document)
    assert result.verdict == "withheld" and len(result.failures) == 1
    assert "[F9] is not a finding" in result.failures[0].reason


def test_an_answer_without_quotes_passes(record: ReviewRecord) -> None:
    assert check_answer("No quotations here.", record.findings).verdict == "pass"


# ── the truncation guard ─────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize(
    ("quote", "proposal", "flag"),
    [
        # stops right before "except": accurate words, out of context
        ("shall be liable for all damages", "p3", "stops right before 'except'"),
        # starts right after "not": the negation is left behind
        ("be liable for any loss arising from the closure of a facility", "p4", "starts right after 'not'"),
        # the whole clause: nothing left out
        ("The Supplier shall be liable for all damages except indirect damages", "p3", None),
    ],
    ids=["before-except", "after-not", "whole-clause"],
)
def test_truncation_guard(record: ReviewRecord, quote: str, proposal: str, flag: str | None) -> None:
    [p] = check(record, f'"{quote}" [{fid(record, proposal)}]')
    assert p.status is PassageStatus.VERIFIED
    assert (flag in p.flags) if flag else not p.flags


def test_ellipsis_that_leaves_out_a_negation_is_flagged(record: ReviewRecord) -> None:
    """Segments joined by an ellipsis verify in order; a 'not' in the gap is flagged."""
    [p] = check(record, f'"The Authority shall … be liable for any loss" [{fid(record, "p4")}]')
    assert p.status is PassageStatus.VERIFIED
    assert "the ellipsis leaves out 'not'" in p.flags


@pytest.mark.parametrize(
    ("quote", "flag"),
    [
        # "[M]ay": a bracketed letter is the writer's marked alteration, read as the document's letter
        ("[M]ay fix fees for the use of any facility", None),
        # an unbracketed capital at the start of a quoted fragment passes, flagged
        ("May fix fees for the use of any facility", "first letter capitalised: the document reads 'm'"),
    ],
    ids=["bracketed", "capitalised"],
)
def test_a_capital_first_letter(record: ReviewRecord, quote: str, flag: str | None) -> None:
    [p] = check(record, f'"{quote}" [{fid(record, "p2")}]')
    assert p.status is PassageStatus.VERIFIED, p.reason
    assert (flag in p.flags) if flag else not p.flags


def test_case_inside_a_passage_still_counts(record: ReviewRecord) -> None:
    """Only the first letter is read leniently: "the authority" is not "the Authority"."""
    [p] = check(record, f'"may fix fees for the use of any Facility" [{fid(record, "p2")}]')
    assert p.status is not PassageStatus.VERIFIED


# ── block quotes, curly quotes, nesting ──────────────────────────────────────────────────────────
def test_block_quote_takes_the_lead_in_citation(record: ReviewRecord) -> None:
    """A block quote introduced by "Section 105N(1) provides:" is attributed to it."""
    answer = (
        "Section 105N(1) provides:\n\n"
        "> “The Authority may specify the purposes for which any civic centre,\n"
        "> or any part thereof, may be used.”\n"
    )
    [p] = check(record, answer)
    assert p.passage.kind == "block"
    assert p.citation is not None and p.citation_source == "preceding sentence"
    assert p.status is PassageStatus.VERIFIED, p.reason


def test_block_quote_with_attribution_line(record: ReviewRecord) -> None:
    """ "> — [F2]" under a block is its citation, not quoted text."""
    answer = f"> The Authority may fix fees for the use of any facility.\n> — [{fid(record, 'p2')}]\n"
    [p] = check(record, answer)
    assert p.passage.text == "The Authority may fix fees for the use of any facility."
    assert p.status is PassageStatus.VERIFIED, p.reason


def test_block_quote_that_grew_fails(record: ReviewRecord) -> None:
    answer = f"> The Authority may fix fees for the use of any facility at any time. [{fid(record, 'p2')}]\n"
    [p] = check(record, answer)
    assert p.status is PassageStatus.LONGER_THAN_VERIFIED


def test_crlf_answer_reads_like_lf(record: ReviewRecord) -> None:
    """An answer saved with Windows line endings: same passages, same attribution."""
    answer = (
        "Section 105N(1) provides:\r\n\r\n> The Authority may specify the purposes for which any civic "
        "centre,\r\n> or any part thereof, may be used.\r\n\r\nNothing else.\r\n"
    )
    [p] = check(record, answer)
    assert p.passage.kind == "block"
    assert p.status is PassageStatus.VERIFIED, p.reason


def test_curly_quotes_and_reflowed_lines_verify(record: ReviewRecord) -> None:
    """Typography is tolerated exactly as the gate tolerates it."""
    answer = f"It “may fix fees for the\nuse of any facility” [{fid(record, 'p2')}]."
    [p] = check(record, answer)
    assert p.status is PassageStatus.VERIFIED


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # straight double quotes
        ('He said "shall be liable" today.', [("inline", "shall be liable")]),
        # curly double quotes
        ("He said “shall be liable” today.", [("inline", "shall be liable")]),
        # curly single quotes used as primary quotes; the apostrophe inside stays
        ("It reads ‘the Supplier’s fees’ here.", [("inline", "the Supplier’s fees")]),
        # nested quotes belong to the outer passage
        (
            'It says "the term “Fees” means the charges" here.',
            [("inline", "the term “Fees” means the charges")],
        ),
        # mismatched marks, as generated text has them
        ('It says “fees are due" and "costs”.', [("inline", "fees are due"), ("inline", "costs")]),
        # „German“ and «French» quotes
        (
            "Er sagt „Gebühren sind fällig“ und «les frais».",
            [("inline", "Gebühren sind fällig"), ("inline", "les frais")],
        ),
        # an apostrophe is not a quote
        ("The Supplier’s obligations don’t change.", []),
        # the answer defining its own term is not a quotation
        ('Acme Ltd (the "Supplier") agrees.', []),
        # code spans and fenced code are not prose
        ('Run `grep "x y"` then\n```\n"not a quote"\n```\n', []),
        # a block quote, wrapped in quotation marks
        ("> “Fees are due.”\n", [("block", "Fees are due.")]),
        # two passages in one sentence
        ('"one two" and "three four".', [("inline", "one two"), ("inline", "three four")]),
        # an unclosed quote runs to the end of its paragraph
        ('It says "fees are due\n\nNext.', [("inline", "fees are due")]),
    ],
    ids=[
        "straight",
        "curly",
        "single-curly",
        "nested",
        "mismatched",
        "german-french",
        "apostrophes",
        "definition",
        "code",
        "block",
        "two",
        "unclosed",
    ],
)
def test_find_passages(answer: str, expected: list[tuple[str, str]]) -> None:
    got = [(p.kind, p.text) for p in find_passages(answer)]
    assert got == expected
    for p in find_passages(answer):
        if p.kind == "inline":
            assert answer[p.start : p.end] == p.text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see [F3]", [("finding", ("F3",))]),
        ("see [p1]", [("finding", ("p1",))]),
        ("see [F3, F4]", [("finding", ("F3", "F4"))]),
        ("clause 11.2 says", [("clause", ("11.2",))]),
        ("Section 11.2 says", [("clause", ("11.2",))]),
        ("under s. 105N", [("clause", ("105N",))]),
        ("under § 11.2", [("clause", ("11.2",))]),
        ("under cl. 4(a)", [("clause", ("4(a)",))]),
        ("under s. 105H(3)", [("clause", ("105H(3)",))]),
        ("in Schedule 2", [("clause", ("Schedule 2",))]),
        ("[sic] and [emphasis added]", []),
        ("a [link](http://x) here", []),
        ("the terms. 5 days", []),
    ],
    ids=[
        "F3",
        "p1",
        "two-ids",
        "clause",
        "Section",
        "s.",
        "§",
        "cl.",
        "subsection",
        "schedule",
        "editorial",
        "link",
        "no-s.",
    ],
)
def test_find_citations(text: str, expected: list[tuple[str, tuple[str, ...]]]) -> None:
    assert [(c.kind, c.refs) for c in find_citations(text)] == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a citation written right after the passage
        ('"aaa bbb" [F1] and "ccc ddd" [F2].', ["F1", "F2"]),
        # each lead-in citation belongs to the passage it introduces
        ('Clause 4 says "aaa bbb" and clause 5 says "ccc ddd".', ["4", "5"]),
        # one citation at the end of the sentence covers an uncited passage before it
        ('It says "aaa bbb" and "ccc ddd" (clause 5).', ["5", "5"]),
        # the following sentence, when the quote's own sentence has none
        ('It says "aaa bbb". See clause 7.', ["7"]),
        # the preceding sentence, last
        ('Clause 8 is about fees. It says "aaa bbb".', ["8"]),
        # a lead-in citation of the next sentence's passage is not taken by this one
        ('It says "aaa bbb". Clause 9 says "ccc ddd".', [None, "9"]),
    ],
    ids=["tight", "lead-ins", "sentence-end", "following", "preceding", "not-others-lead-in"],
)
def test_attribution_as_a_reader_would(answer: str, expected: list[str | None]) -> None:
    passages = find_passages(answer)
    cites = find_citations(answer)
    got = [c.refs[0] if c else None for c, _src in attribute(answer, passages, cites)]
    assert got == expected


def test_section_regions_narrow_to_the_subsection(record: ReviewRecord) -> None:
    """ "105H(3)" is the "(3)" inside 105H, not the "(3)" inside 105N."""
    doc = record.version.document
    [(a, b)] = section_regions(doc, "105H(3)")[0]
    assert doc.text[a:b].startswith("(3) The Authority may charge for admission")
    assert "civic centre" not in doc.text[a:b]
    regions, notes = section_regions(doc, "999")
    assert regions == [] and notes


# ── findings JSON input ──────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"findings": "x"}, "expected a list of findings"),
        ([{"status": "verified", "citations": []}], "findings[0].id: Field required"),
        (
            [{"id": "F1", "status": "verified", "citations": [{"status": "verified", "text": "abc"}]}],
            "needs text, start and end",
        ),
        (
            [{"id": "F1", "status": "verified", "citations": [{"status": 3}]}],
            "findings[0].citations[0].status",
        ),
    ],
    ids=["not-a-list", "no-id", "verified-without-offsets", "bad-status-type"],
)
def test_parse_findings_names_the_json_path(data: object, message: str) -> None:
    with pytest.raises(FindingsError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_findings(data)


def test_findings_from_another_version_are_refused(record: ReviewRecord, tmp_path: Path) -> None:
    """Offsets that do not slice back to the same words: the findings belong to another document."""
    (tmp_path / "other").mkdir()
    other = verified_review(
        tmp_path / "other", ACT.replace("LOCAL AUTHORITIES ACT", "LOCAL AUTHORITIES ACT 2024")
    )
    with pytest.raises(FindingsError, match="another document version"):
        check_answer('"x y z"', record.findings, document=other.version.document)


# ── properties ───────────────────────────────────────────────────────────────────────────────────
CIVIC = "The Authority may specify the purposes for which any civic centre, or any part thereof, may be used."
WORDS = CIVIC.rstrip(".").split(" ")


@settings(max_examples=30, deadline=None)
@given(st.integers(0, len(WORDS) - 3), st.integers(3, len(WORDS)))
def test_any_word_span_of_a_verified_quote_verifies(tmp_path_factory: Any, i: int, n: int) -> None:
    """Any run of three or more words of a verified quote, cited to its finding, verifies; one
    invented word added at its end never does."""
    rec = _property_record(tmp_path_factory)
    piece = " ".join(WORDS[i : i + n])
    f1 = fid(rec, "p1")
    [ok] = check(rec, f'"{piece}" [{f1}]')
    assert ok.status is PassageStatus.VERIFIED, (piece, ok.reason)
    [grown] = check(rec, f'"{piece} forthwith" [{f1}]')
    assert grown.status is not PassageStatus.VERIFIED


_PROPERTY_RECORDS: dict[str, ReviewRecord] = {}


def _property_record(tmp_path_factory: Any) -> ReviewRecord:
    # one stored review for all examples (the autouse fixture's database outlives the examples)
    if "r" not in _PROPERTY_RECORDS:
        _PROPERTY_RECORDS["r"] = verified_review(tmp_path_factory.mktemp("prop"))
    return _PROPERTY_RECORDS["r"]


# ── real contracts ───────────────────────────────────────────────────────────────────────────────
@pytest.mark.data
def test_real_contracts_subspans_verify_and_extensions_do_not(shared_data: Path, tmp_path: Path) -> None:
    """On CUAD contracts: an expert span is gated and stored; in an answer, a reflowed run of its
    words cited to the finding verifies, the span plus the document's next words is
    longer_than_verified, and one word changed is not verified anywhere."""
    import json

    checked = 0
    with (shared_data / "cuad" / "annotations.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            text = (shared_data / "cuad" / "texts" / f"{rec['id']}.txt").read_text(encoding="utf-8")
            spans = [
                s
                for cat in ("Governing Law", "Cap On Liability", "Termination For Convenience")
                for s in rec["categories"].get(cat, {}).get("spans", [])
                if s["n_occurrences"] == 1 and len(s["text"].split()) >= 12
            ]
            if not spans:
                continue
            span = spans[0]
            follow = text[span["end"] :].split()[:3]
            if len(follow) < 3:
                continue
            d = tmp_path / rec["id"]
            d.mkdir()
            proposals = {"proposals": [{"id": "p1", "claim": "x", "citations": [{"quote": span["text"]}]}]}
            review = verified_review(d, text, proposals)
            if review.findings[0]["status"] != "verified":
                continue
            f1 = review.findings[0]["id"]
            words = span["text"].split()
            piece = " ".join(words[2:10])
            grown = " ".join([*words, *follow])
            changed = " ".join([*words[2:5], "zzyzx", *words[6:10]])
            answer = f'It says "{piece}" [{f1}]. Also "{grown}" [{f1}]. And "{changed}" [{f1}].'
            result = check_answer(answer, review.findings, document=review.version.document)
            got = [p.status for p in result.passages]
            assert got == [
                PassageStatus.VERIFIED,
                PassageStatus.LONGER_THAN_VERIFIED,
                PassageStatus.NOWHERE,
            ], (rec["id"], [p.reason for p in result.passages])
            checked += 1
            if checked == 5:
                break
    assert checked == 5


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.sampled_from(["fees", "the", "Supplier", "shall", "pay", "30", "days", "(a)", "it's"]),
        min_size=1,
        max_size=12,
    )
)
def test_any_quoted_run_of_words_is_found_whole(words: list[str]) -> None:
    """Whatever words sit between the quotation marks — apostrophes, brackets, numbers — the passage
    found is exactly those words, at offsets that slice back."""
    inner = " ".join(words)
    for left, right in (('"', '"'), ("“", "”")):
        answer = f"Intro: {left}{inner}{right} [F1]."
        [p] = find_passages(answer)
        assert p.text == inner and answer[p.start : p.end] == inner
