"""Detection of a document that incorporates another agreement, and its absences made needs_review."""

from playbooks.incorporation import for_topic, general, incorporations

ADDENDUM = (
    "AMENDMENT NO. 2\n\nThis Amendment is made between Acme Corp and Beta LLC.\n\n"
    "1. The Parties wish to amend the Reseller Agreement by adding new goods.\n\n"
    "2. All sales of the new goods are subject to the terms and conditions of the Reseller Agreement.\n\n"
    "3. Either Party may end this Amendment in accordance with the termination provisions of the Reseller "
    "Agreement.\n"
)

MSA = (
    'MASTER SERVICES AGREEMENT\n\nThis Master Services Agreement (the "Agreement") is made between Acme '
    "Corp and Beta LLC.\n\n1. Services are subject to the terms of this Agreement.\n\n"
    "2. The parties' earlier Mutual Nondisclosure Agreement remains in effect.\n\n"
    "3. Each Statement of Work is subject to the terms and conditions of the Master Services Agreement.\n"
)


def test_general_and_topic_incorporation_detected() -> None:
    found = incorporations(ADDENDUM)
    assert {i.name for i in found} == {"Reseller Agreement"}
    assert general(ADDENDUM)
    t = for_topic(ADDENDUM, "Termination for cause")
    assert t is not None and "termination provisions" in ADDENDUM[t.start : t.end]
    assert for_topic(ADDENDUM, "Limitation of liability") is None


def test_ordinary_msa_does_not_trip() -> None:
    assert incorporations(MSA) == ()
