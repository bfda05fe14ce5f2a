"""Question frames: a clause type asked about through a combination of ordinary words. The same word reads
differently in different company ("the most" we pay is a liability cap, "the most" we order a volume limit,
"how long" a product stays free of defects a warranty period, not the contract's term), a frame's `none`
classes tell frames apart that share words, and a single-word trigger colliding with an unrelated word
("fixed" is not "fix it") no longer decides the reading. The ranking follows the reading: a question about a
warranty period reaches the warranty clause, not the term clause its "how long" used to pull towards."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from playbooks.asks import asks_amount, states_amount
from playbooks.bridges import load_bridges
from playbooks.locator.categories import CATEGORIES
from playbooks.locator.questions import FRAMES_FILE, QuestionTypes, load_frames
from playbooks.retrieve import ClauseRetriever
from tests.test_ask_types import make_doc


@pytest.fixture(scope="module")
def reader() -> QuestionTypes:
    """Bridges and frames, no embedding: the reading is decided by the word combinations alone."""
    return QuestionTypes(None, {}, load_frames())


def first_type(reader: QuestionTypes, question: str) -> str | None:
    reading = reader.read(question, load_bridges().fire(question))
    return reading.types[0].category if reading.types else None


@pytest.mark.parametrize(
    ("question", "category"),
    [
        # one quantity word, three clause types: what it is combined with decides
        ("What is the most they would ever owe us for a loss?", "Cap on Liability"),
        ("What is the most we may order in a year?", "Volume Restriction"),
        ("Is there a least amount we must buy every quarter?", "Minimum Commitment"),
        ("Are some harms owed with no upper limit?", "Uncapped Liability"),
        # "how long": a promise about the goods, the contract's own life, what follows its end
        ("How long are the goods promised to stay free of defects?", "Warranty Duration"),
        ("How many years does it run before it stops?", "Expiration Date"),
        ("What support do they still give once it has ended?", "Post-Termination Services"),
        ("From what day does it take effect?", "Effective Date"),
        # the deal changing hands, the deal passed on, the deal walked away from
        ("If a rival firm takes over the supplier, does anything happen?", "Change of Control"),
        ("May they hand the arrangement to another company?", "Anti-Assignment"),
        ("Can we leave at any time, for any reason?", "Termination for Convenience"),
        ("Can we sell our licence to use the software to someone else?", "Non-Transferable License"),
        # "fixed" with a sum and a failure: a pre-agreed payment, not a warranty ("fix it")
        ("Is a fixed fee owed if they deliver late?", "Liquidated Damages"),
        # selling goods in competition is not selling the contract; a bound on a payout is a cap
        ("Could the supplier sell look-alike products in competition with ours?", "Non-Compete"),
        ("Is a payout for breach bounded by the fees?", "Cap on Liability"),
        ("Are some claims not subject to any limit?", "Uncapped Liability"),
        ("Can a successor step into its shoes without our consent?", "Anti-Assignment"),
        ("Will the reseller be prevented from appointing other distributors?", "Exclusivity"),
    ],
)
def test_a_combination_of_ordinary_words_reads_as_its_clause_type(
    reader: QuestionTypes, question: str, category: str
) -> None:
    assert first_type(reader, question) == category


def test_none_tells_two_frames_apart_that_share_words(reader: QuestionTypes) -> None:
    """A ban on competing is a non-compete; the same ban with "still free" asks for its exception."""
    assert first_type(reader, "Are we barred from working with rivals?") == "Non-Compete"
    assert (
        first_type(reader, "Despite the ban on rivals, what are we still free to do?")
        == "Competitive Restriction Exception"
    )
    # a warning before another term is the renewal notice, a further term alone the renewal
    assert first_type(reader, "How early must we warn them to avoid another term?") == (
        "Notice Period to Terminate Renewal"
    )
    assert first_type(reader, "Does it roll over into another year by itself?") == "Renewal Term"


def test_the_more_specific_frame_wins(reader: QuestionTypes) -> None:
    """Owning what is made is IP ownership; owning what both make together is joint ownership (a frame of
    three word classes outweighs one of two)."""
    assert first_type(reader, "Who owns the designs they make for us?") == "IP Ownership Assignment"
    assert first_type(reader, "Who owns what both sides invent together?") == "Joint IP Ownership"
    reading = reader.read("Who owns what both sides invent together?")
    assert reading.types[0].frames[0] == "own+creation+together"  # the most specific first


def test_every_shipped_frame_names_a_clause_type_and_known_word_classes() -> None:
    frames = load_frames()
    assert frames and {f.category for f in frames} <= set(CATEGORIES)
    assert all(f.all for f in frames)


def test_a_frame_naming_an_unknown_word_class_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "frames.yaml"
    path.write_text(
        "classes: {most: [most]}\nframes:\n  - {type: Cap on Liability, all: [most, owe]}\n", encoding="utf-8"
    )
    with pytest.raises(ValueError, match="frame 1: unknown word class 'owe'"):
        load_frames(path)
    path.write_text("classes: {most: [most]}\nframes:\n  - {type: Caps, all: [most]}\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown clause type 'Caps'"):
        load_frames(path)
    assert FRAMES_FILE.is_file()


CONTRACT = """SUPPLY AGREEMENT

This Agreement is made between Northwind Ltd ("Buyer") and Contoso Ltd ("Seller").

1. Supply

1.1 The Seller shall supply the Products ordered by the Buyer from time to time.

2. Term

2.1 This Agreement starts on the Effective Date and continues for three years, unless terminated earlier.

3. Warranty

3.1 The Seller warrants that the Products will conform to the Specifications and be free from defects in
materials and workmanship for a period of twelve (12) months from delivery.

4. Governing Law

4.1 This Agreement is governed by the laws of England and Wales.
"""


def test_a_question_about_a_warranty_period_reaches_the_warranty_not_the_term() -> None:
    """ "How long" alone switches on the term bridge; "how long" with "stand behind what they sell" is the
    warranty period, and the warranty clause is ranked first."""
    doc = make_doc(CONTRACT)
    r = ClauseRetriever(doc, clause_types=QuestionTypes(None, {}, load_frames()))
    hit = r.search("How long do they stand behind what they sell?", top=3)[0]
    assert "free from defects" in hit.text
    assert any("frames 'duration+quality'" in w for w in hit.why)


LIABILITY = """SERVICES AGREEMENT

This Agreement is made between Northwind Ltd ("Customer") and Contoso Ltd ("Supplier").

1. Services

1.1 The Supplier shall provide the Services with reasonable skill and care.

2. Limitation of Liability

2.1 Neither party shall be liable to the other for any indirect, special or consequential loss, or for any
loss of profits, revenue or goodwill, arising under or in connection with this Agreement.

2.2 Each party's total aggregate liability arising under or in connection with this Agreement shall not
exceed an amount equal to the fees paid by the Customer in the twelve (12) months before the claim.

3. Governing Law

3.1 This Agreement is governed by the laws of England and Wales.
"""


def test_a_question_asking_for_the_cap_gets_the_amount_before_the_excluded_losses() -> None:
    """The exclusion of indirect losses and the cap beside it are both read as a liability cap; the question
    asks how much, so the passage that states the bound comes first, and says why. A question whether
    anything is unbounded is not asking for an amount."""
    doc = make_doc(LIABILITY)
    r = ClauseRetriever(doc, clause_types=QuestionTypes(None, {}, load_frames()))
    for question in ("what is the liability cap?", "what is the most they would ever owe us?"):
        hit = r.search(question, top=3)[0]
        assert "shall not\nexceed an amount" in hit.text, question
        said = "states an amount or a bound, and the question asks for one"
        assert any(w.startswith(said) for w in hit.why)
        # the score shown is the locator's own probability, the factor is said apart
        (line,) = [w for w in hit.why if w.startswith("clause type:")]
        assert 0.0 <= float(re.search(r": (\d+\.\d+) for 'Cap on Liability'", line).group(1)) <= 1.0
    assert asks_amount("What is the most we may order?") and asks_amount("is there a ceiling on fees?")
    assert not asks_amount("Is any liability uncapped?") and not asks_amount("what is excluded from the cap?")
    assert not asks_amount("who owns the work product?")
    assert states_amount("shall not exceed £1,000,000") and states_amount("not less than 500 units")
    assert not states_amount("neither party shall be liable for indirect loss")


def test_a_reading_through_a_frame_weighs_more_in_the_fusion() -> None:
    """The same clause type, read through a frame or by a bridge alone: the frame's reading is the surer
    one, so the clause-type ranking weighs more (up to CLAUSE_TYPE_WEIGHT_FRAMED against
    CLAUSE_TYPE_WEIGHT) where the locator sees that type in the document."""
    from playbooks.locator.questions import ClauseType
    from playbooks.retrieve import CLAUSE_TYPE_WEIGHT, CLAUSE_TYPE_WEIGHT_FRAMED

    r = ClauseRetriever(make_doc(LIABILITY), clause_types=QuestionTypes(None, {}, load_frames()))
    framed = ClauseType(category="Cap on Liability", weight=1.0, similarity=0.9, frames=("limit_top+owe",))
    bridged = ClauseType(category="Cap on Liability", weight=1.0, similarity=0.3, bridges=("liability-cap",))
    assert CLAUSE_TYPE_WEIGHT_FRAMED > CLAUSE_TYPE_WEIGHT
    assert r.clause_type_weight([framed]) == pytest.approx(CLAUSE_TYPE_WEIGHT_FRAMED)
    assert r.clause_type_weight([bridged]) == pytest.approx(CLAUSE_TYPE_WEIGHT)
