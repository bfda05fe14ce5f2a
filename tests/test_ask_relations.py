"""A question about a relation, not its subject. "Does the licence survive a takeover?" names a licence but
asks about the takeover; "is a set fee owed if they pull out early?" describes an exit but asks for the
pre-agreed sum. A frame that names what the deal is about (`subject: true`) yields to a frame of a relation
asked about it, a frame whose words all lie inside a larger frame of another type is part of that reading,
and a bridge whose words such a frame reads does not vote on its own. Also the everyday phrasings of a few
clause types that had none: being allowed to put someone's name or logo on goods (a licence), questioning that
something belongs to the other side (a promise not to challenge it), a percentage paid per unit (a royalty),
keeping a policy in place (insurance), leaving although nobody is at fault, luring away researchers, who
besides the signatories can count on the deal, how long it stays in force."""

from __future__ import annotations

from pathlib import Path

import pytest

from playbooks.bridges import _content_stems, load_bridges
from playbooks.locator.questions import QuestionTypes, _fired_frames, load_frames
from playbooks.retrieve import ClauseRetriever
from tests import test_ask_frames
from tests.test_ask_frames import first_type
from tests.test_ask_types import make_doc

#: the bridges-and-frames reader, no embedding (test_ask_frames' fixture, shared rather than written again)
reader = test_ask_frames.reader


@pytest.mark.parametrize(
    ("question", "category"),
    [
        # the subject (a licence of software, of a brand, of patents) with a relation asked about it
        ("Would our software licence end if the vendor is acquired?", "Change of Control"),
        ("Does the brand licence roll over into a further term?", "Renewal Term"),
        ("For how many years does the patent licence last before it stops?", "Expiration Date"),
        # a condition inside the sum asked for
        ("If they pull out early, is a set fee owed?", "Liquidated Damages"),
        # a lower price one reads inside "a lower price than anybody else gets": the better-terms promise
        ("If any other customer is offered a lower price, is it passed on to us?", "Most Favored Nation"),
        # a percentage paid for each unit that uses the technology is a royalty, not the licence
        (
            "What percentage must the maker pay for every device that uses the licensed technology?",
            "Revenue/Profit Sharing",
        ),
    ],
)
def test_the_relation_asked_about_outranks_the_subject_named(
    reader: QuestionTypes, question: str, category: str
) -> None:
    assert first_type(reader, question) == category


@pytest.mark.parametrize(
    ("question", "category"),
    [
        ("Which goods may the retailer print the designer's logo and likeness on?", "License Grant"),
        ("What is the publisher permitted to do with the author's characters?", "License Grant"),
        ("Is the reseller allowed to question that the patents belong to the maker?", "Covenant Not to Sue"),
        ("Must the contractor keep a policy in place while on site?", "Insurance"),
        (
            "Once the agency ends, does it still look after the existing policies?",
            "Post-Termination Services",
        ),
        ("Can the buyer drop out although the seller has done nothing wrong?", "Termination for Convenience"),
        ("May the partner tempt away our researchers?", "No-Solicit of Employees"),
        (
            "Apart from the two firms, can anyone else count on the protections here?",
            "Third Party Beneficiary",
        ),
        ("How many years does the arrangement stay in force?", "Expiration Date"),
        ("Is the distributor guaranteed a certain amount however few units it sells?", "Minimum Commitment"),
        ("Does the reseller have to stay out of the same market for a year?", "Non-Compete"),
        ("Can the client leave with notice even though nothing went wrong?", "Termination for Convenience"),
        ("May the licensee let somebody else use the licensed database?", "Non-Transferable License"),
        ("Do the licensor's sister companies also let us use their know-how?", "Affiliate License-Licensor"),
        ("May our subsidiaries use the platform as well?", "Affiliate License-Licensee"),
        ("Which losses aren't subject to the cap?", "Uncapped Liability"),
        (
            "How many weeks before the end must we say we don't want another term?",
            "Notice Period to Terminate Renewal",
        ),
        ("Could the brewer print the festival's logo on its cans?", "License Grant"),
        ("Can we use the app on however many devices we want?", "Unlimited/All-You-Can-Eat-License"),
        ("Could the author's right to adapt the novel be revoked?", "Irrevocable or Perpetual License"),
    ],
)
def test_everyday_phrasings_of_a_clause_type(reader: QuestionTypes, question: str, category: str) -> None:
    assert first_type(reader, question) == category


def test_a_frame_inside_a_larger_one_and_a_subject_frame_do_not_vote(tmp_path: Path) -> None:
    """The rules themselves, on a frames file of their own: the smaller reading inside a larger one of
    another type is dropped, a subject frame yields to a relation frame and stands where it is alone."""
    path = tmp_path / "frames.yaml"
    path.write_text(
        "classes: {exit: [walk away], early: [early], sum: [fee], thing: [licence], sold: [acquired]}\n"
        "frames:\n"
        "  - {type: Termination for Convenience, all: [exit, early]}\n"
        "  - {type: Liquidated Damages, all: [sum, exit, early]}\n"
        "  - {type: License Grant, all: [thing], subject: true}\n"
        "  - {type: Change of Control, all: [sold]}\n",
        encoding="utf-8",
    )
    frames = load_frames(path)

    def fired(question: str) -> list[str]:
        return [f.category for f, _ in _fired_frames(frames, _content_stems(question))]

    assert fired("a fee if they walk away early") == ["Liquidated Damages"]
    assert fired("can they walk away early") == ["Termination for Convenience"]
    assert fired("the licence if they are acquired") == ["Change of Control"]
    assert fired("what does the licence cover") == ["License Grant"]


def test_a_bridge_read_inside_a_frame_of_another_type_does_not_vote(reader: QuestionTypes) -> None:
    """ "walk away" switches on the exit-at-will bridge; inside "a set fee owed if they walk away early" the
    words belong to the pre-agreed sum, and the exit is not kept as a second reading."""
    question = "Is a set fee owed if they walk away early?"
    fired = load_bridges().fire(question)
    assert "terminate-convenience" in {fb.bridge.name for fb in fired}
    reading = reader.read(question, fired)
    assert [t.category for t in reading.types] == ["Liquidated Damages"]


LICENCE = """LICENCE AGREEMENT

This Agreement is made between Northwind Ltd ("Licensee") and Contoso Ltd ("Licensor").

1. Licence

1.1 The Licensor grants the Licensee a non-exclusive licence to use the Software in its business.

2. Change of Control

2.1 If the Licensor undergoes a change of control, or is acquired by or merged into any other entity, the
Licensee may terminate this Agreement by written notice within sixty (60) days.

3. Governing Law

3.1 This Agreement is governed by the laws of England and Wales.
"""


def test_the_ranking_follows_the_relation_not_the_subject() -> None:
    """The question names the licence; the passage about the takeover is ranked first."""
    r = ClauseRetriever(make_doc(LICENCE), clause_types=QuestionTypes(None, {}, load_frames()))
    hit = r.search("Does the software licence still hold if the vendor is bought by someone?", top=3)[0]
    assert "change of control" in hit.text


def test_the_owner_named_by_role_is_no_question_of_ownership(reader: QuestionTypes) -> None:
    """ "The owner" alone is as often a party named by its role (a hotel's, a property's, a content owner)
    as the owner of what is made: it reads as no ownership clause; "who owns" still does."""
    assert first_type(reader, "Can the property owner run joint promotions with other hotels?") is None
    assert first_type(reader, "Who owns the designs they make for us?") == "IP Ownership Assignment"


SUPPLY = """SUPPLY AGREEMENT

This Agreement is made between Northwind Ltd ("Buyer") and Contoso Ltd ("Seller").

1. Orders

1.1 The Buyer may place orders at any time; the Seller shall drop-ship the Products to the Buyer's customers.

2. Termination

2.1 Either party may terminate this Agreement for convenience upon ninety (90) days prior written notice.

3. Governing Law

3.1 This Agreement is governed by the laws of England and Wales.
"""


def test_a_reading_through_a_frame_brings_its_clause_types_vocabulary() -> None:
    """No bridge's phrase is in "could the buyer drop out at any time?", the frame reads it as a termination
    for convenience by its words together: the keyword search then looks for that clause's own vocabulary
    (the type's bridge, at the bridges' weight), and the termination clause is ranked first although the
    order clause has more of the question's own words ("buyer", "drop", "any time")."""
    from playbooks.locator.questions import ClauseType
    from playbooks.retrieve import implied_bridges

    table = load_bridges()
    read = ClauseType(
        category="Termination for Convenience", weight=1.0, similarity=0.6, frames=("exit+at_will",)
    )
    (implied,) = implied_bridges([read], [], table)
    assert implied.bridge.name == "terminate-convenience"
    assert implied.trigger == "read as Termination for Convenience"
    # a reading by meaning alone, or a type whose bridge already fired, brings nothing more
    assert implied_bridges([ClauseType(category=read.category, weight=1.0, similarity=0.3)], [], table) == []
    assert implied_bridges([read], [implied], table) == []

    r = ClauseRetriever(make_doc(SUPPLY), clause_types=QuestionTypes(None, {}, load_frames()))
    hit = r.search("Could the buyer drop out at any time?", top=3)[0]
    assert "terminate this Agreement for convenience" in hit.text
    assert any("(from 'read as Termination for Convenience')" in w for w in hit.why)


class _Licence:
    """A stand-in embedding: a question or description naming a licence points one way, all else the other."""

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [[1.0, 0.0] if "licen" in t.lower() else [0.0, 1.0] for t in texts]


def test_a_bridge_for_the_subject_yields_to_a_relation_read() -> None:
    """Where a frame of a relation fires (the licensor sold), the licence bridge no longer adds its vote to
    the licence reading; without the relation it still does."""
    reader = QuestionTypes(
        _Licence(), {"License Grant": ["licence"], "Change of Control": ["takeover"]}, load_frames()
    )

    def licence_bridges(question: str) -> tuple[str, ...]:
        types = reader.read(question, load_bridges().fire(question), k=5).types
        return next(t.bridges for t in types if t.category == "License Grant")

    assert licence_bridges("What happens to the licence if the licensor is sold?") == ()
    assert licence_bridges("What does the licence let us do?") == ("license-grant",)
