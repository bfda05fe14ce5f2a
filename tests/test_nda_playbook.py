"""The built-in NDA playbook (`nda-recipient`): it loads, its tests pass, it reviews NDAs end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from citationgate.model import Evidence
from citationgate.review import ReviewResult, review
from ingest.load import load_document
from playbooks import load_playbook, run_tests

# Two NDAs written for these tests: one a recipient would sign as it is, one a discloser drafted.
FAIR_NDA = """MUTUAL CONFIDENTIALITY AGREEMENT

This Agreement is made between Harbour Lane Robotics Ltd and Quillfeather Analytics Ltd (each a \
"Party") in connection with a possible joint development of warehouse software (the "Purpose").

1. Definitions

1.1 "Confidential Information" means all technical, commercial and financial information disclosed \
by one Party (the "Discloser") to the other Party (the "Recipient") for the Purpose that is marked \
as "Confidential" at the time of disclosure.

1.2 Information disclosed orally shall be Confidential Information only if it is identified as \
confidential at the time of disclosure and summarised in writing within thirty (30) days.

2. Use and Disclosure

2.1 The Recipient shall use the Confidential Information solely for the Purpose.

2.2 The Recipient may disclose Confidential Information to its employees and officers who need to \
know it for the Purpose and who are bound by obligations of confidentiality no less protective than \
this Agreement.

2.3 The Recipient may also disclose Confidential Information to its legal counsel, accountants and \
financial advisers who need to know it for the Purpose.

3. Exclusions

3.1 The obligations in clause 2 do not apply to information that (a) is or becomes publicly \
available through no fault of the Recipient; (b) the Recipient rightfully receives from a third \
party not known by the Recipient to be bound by a duty of confidentiality; or (c) is independently \
developed by the Recipient without use of the Confidential Information.

3.2 If the Recipient is required by law or court order to disclose any Confidential Information, it \
may do so, provided that, to the extent legally permitted, it promptly notifies the Discloser so \
that the Discloser may seek a protective order.

4. Ownership

4.1 All Confidential Information remains the property of the Discloser, and no licence under any \
patent, copyright or other intellectual property right is granted to the Recipient by this \
Agreement.

5. Return of Information

5.1 Upon termination of this Agreement or the written request of the Discloser, the Recipient shall \
within thirty (30) days return or destroy all Confidential Information in its possession.

5.2 Notwithstanding clause 5.1, the Recipient may retain copies of Confidential Information required \
to be retained by applicable law and copies held in automatic back-up systems, which shall remain \
subject to this Agreement.

6. Term

6.1 The obligations of confidentiality in this Agreement shall survive the termination of this \
Agreement for a period of three (3) years following such termination.

7. Remedies

7.1 Each Party acknowledges that damages may not be an adequate remedy for a breach of this \
Agreement and that the other Party may seek injunctive relief.

8. Governing Law

8.1 This Agreement is governed by the laws of England and Wales.
"""

ONE_SIDED_NDA = """CONFIDENTIALITY UNDERTAKING

1. "Confidential Information" means all information disclosed by the Company to the Recipient, \
whether or not marked as confidential.

2. The Recipient shall not use the Confidential Information for any purpose other than evaluating \
the Transaction.

3. The Recipient shall not disclose any Confidential Information to any third party without the \
prior written consent of the Company.

4. The Recipient shall not reverse engineer any samples provided by the Company.

5. For a period of three (3) years after the date of this Undertaking, the Recipient shall not \
solicit or hire any employee of the Company.

6. Upon the written request of the Company, the Recipient shall return all documents containing \
Confidential Information and will not retain any copies of them.

7. The Recipient's obligations under this Undertaking shall continue indefinitely.

8. For each breach of this Undertaking the Recipient shall pay liquidated damages of USD 100,000.

9. This Undertaking is governed by the laws of the State of Texas.
"""

NOT_APPLICABLE = "not_applicable"

FAIR_EXPECTED = {
    "ci_definition": "standard",
    "marking": "standard",
    "oral_information": "standard",
    "limited_use": "standard",
    "sharing_employees": "standard",
    "sharing_third_parties": "standard",
    "independent_development": "standard",
    "third_party_source": "standard",
    "compelled_disclosure": "standard",
    "no_licence": "standard",
    "return_or_destroy": "standard",
    "retained_copies": "standard",
    "survival": "standard",
    "confidentiality_term": "standard",
    "governing_law": "standard",
    "remedies": "standard",
    "copies": NOT_APPLICABLE,
    "reverse_engineering": NOT_APPLICABLE,
    "non_solicitation": NOT_APPLICABLE,
    "agreement_confidential": NOT_APPLICABLE,
}

ONE_SIDED_EXPECTED = {
    "marking": "fallback",  # protected whether or not marked
    "limited_use": "standard",
    "sharing_employees": "missing",
    "sharing_third_parties": "fallback",  # even our advisers need consent
    "independent_development": "missing",
    "third_party_source": "missing",
    "compelled_disclosure": "missing",
    "reverse_engineering": "standard",
    "non_solicitation": "unacceptable",  # three years
    "return_or_destroy": "fallback",  # return only, no option to destroy
    "retained_copies": "unacceptable",  # no copy may be kept
    "survival": "standard",
    "confidentiality_term": "fallback",  # indefinite
    "remedies": "unacceptable",  # liquidated damages
    "governing_law": "fallback",  # off the allow-list
    "oral_information": NOT_APPLICABLE,
    "no_licence": NOT_APPLICABLE,
}


def _review(tmp_path: Path, text: str) -> tuple[str, ReviewResult]:
    path = tmp_path / "nda.txt"
    path.write_text(text, encoding="utf-8")
    document = load_document(path)
    return document.text, review(document, load_playbook("nda-recipient"))


def _outcomes(result: ReviewResult) -> dict[str, str]:
    got = {f.proposal.rule or "": str(f.proposal.details.get("outcome")) for f in result.findings}
    got.update(dict.fromkeys(result.not_applicable, NOT_APPLICABLE))
    return got


def _assert_quotes_slice_back(text: str, result: ReviewResult) -> None:
    for f in result.findings:
        if f.evidence is Evidence.QUOTE:
            assert f.verified_quotes, f"{f.proposal.rule}: a quote finding with no verified quote"
        for q in f.verified_quotes:
            assert text[q.start : q.end] == q.text, f"{f.proposal.rule}: quote at {q.start}:{q.end}"


def test_nda_playbook_loads_as_recipient() -> None:
    """The built-in loads by id, from the recipient's side, with the clause types the NDA evaluation maps."""
    pb = load_playbook("nda-recipient")
    assert pb.our_role == "recipient"
    ids = {c.id for c in pb.clauses}
    assert set(FAIR_EXPECTED) <= ids


def test_nda_playbook_embedded_tests_pass() -> None:
    """Every embedded test of the playbook passes (what `citationgate playbooks test nda-recipient` runs)."""
    results = run_tests(load_playbook("nda-recipient"))
    assert len(results) >= 40
    failed = [f"{r.name}: expected {r.expected}, got {r.got} ({r.detail})" for r in results if not r.passed]
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize(
    ("text", "expected"),
    [(FAIR_NDA, FAIR_EXPECTED), (ONE_SIDED_NDA, ONE_SIDED_EXPECTED)],
    ids=["fair-mutual-nda", "one-sided-nda"],
)
def test_nda_reviewed_end_to_end(tmp_path: Path, text: str, expected: dict[str, str]) -> None:
    """A hand-written NDA reviewed through the gate gets the playbook outcome for every clause type."""
    doc_text, result = _review(tmp_path, text)
    got = _outcomes(result)
    wrong = {rule: (want, got.get(rule)) for rule, want in expected.items() if got.get(rule) != want}
    assert not wrong, wrong
    _assert_quotes_slice_back(doc_text, result)


def test_nda_values_are_read_from_the_quoted_text(tmp_path: Path) -> None:
    """Decisive values come out of the verified quotes: the term, the notice and the retention bases."""
    _, result = _review(tmp_path, FAIR_NDA)
    by_rule = {f.proposal.rule: f for f in result.findings}

    def value(rule: str, field: str) -> object:
        return by_rule[rule].proposal.details["extracted"][field]["value"]

    assert value("confidentiality_term", "term_years") == 3
    assert value("compelled_disclosure", "notice") == "prompt"
    assert value("retained_copies", "basis") == ["law", "backup"]
    assert value("return_or_destroy", "days") == 30


def test_nli_map_names_only_playbook_rules() -> None:
    """Every ContractNLI hypothesis maps to rules (and fields) the NDA playbook has."""
    nda_eval = pytest.importorskip("citationgate.evaluation.nda_eval")
    pb = load_playbook("nda-recipient")
    fields = {c.id: {f.name for f in c.fields} for c in pb.clauses}
    assert len(nda_eval.NLI_MAP) == 17
    for hyp, whens in nda_eval.NLI_MAP.items():
        for w in whens:
            assert w.rule in fields, f"{hyp}: unknown rule {w.rule}"
            assert w.field is None or w.field in fields[w.rule], f"{hyp}: unknown field {w.field}"


def test_real_ndas_review_and_quotes_slice_back(shared_data: Path) -> None:
    """Five real ContractNLI NDAs review without error and every verified quote slices back."""
    texts = sorted((shared_data / "contractnli" / "texts").glob("*.txt"))[:5]
    if not texts:
        pytest.skip(f"no ContractNLI texts under {shared_data / 'contractnli'}")
    pb = load_playbook("nda-recipient")
    for path in texts:
        document = load_document(path)
        result = review(document, pb)
        assert result.findings, path.name
        _assert_quotes_slice_back(document.text, result)


def test_marketing_is_not_a_word_of_marking() -> None:
    """ "Marketing plans" in a definition says nothing about marking (an NDA was read as requiring it)."""
    clause = load_playbook("nda-recipient").clause("marking")
    assert clause is not None
    field = next(f for f in clause.fields if f.name == "marking_required")
    assert not any(rx.search("marketing plans, pricing and customer lists") for rx in field.true_if)
    assert any(rx.search("information marked as such at the time of disclosure") for rx in field.true_if)
