"""The value a clause states, in the other words contracts use for it (the eighth wave's classes of values
read as "not found" or taken from another clause, found by independent auditors reading real reviews).

A cure period said as a time "to correct" the failure; a written-variation rule said as a ban on oral changes
or as a duly executed document; a date written day-first ("29/3/18"); the date of another agreement named
with its parties before its date ("the Supply Agreement between A and B dated as of …") or the dates it was
amended on; a deposit only where an amount is deposited; a force-majeure threshold in any tense ("is
continuing for … months"); a cure period beside a payment term, never the days to pay. Every snippet here
was written for this file; none is copied from a contract, and the names are invented.
"""

from __future__ import annotations

import pytest

from citationgate.review import review
from playbooks import load_playbook
from playbooks.extract import find_dates, find_durations
from playbooks.kinds import dates_of_kind, durations_of_kind
from playbooks.library import document_from_text

PREAMBLE = (
    "SERVICES AGREEMENT\n\nThis Agreement is made on May 2, 2016 between Quillon Works Ltd. "
    '("Supplier") and Marrow Fen LLC ("Customer").\n\n'
)


def _finding(text: str, rule: str):  # type: ignore[no-untyped-def]
    result = review(document_from_text(PREAMBLE + text), load_playbook("msa-customer"))
    return next(f for f in result.findings if f.proposal.rule == rule)


def _extracted(text: str, rule: str) -> dict[str, object]:
    f = _finding(text, rule)
    return {k: v["value"] for k, v in (f.proposal.details.get("extracted") or {}).items()}


def _start_dates(text: str) -> list[str]:
    return [h.value for h in dates_of_kind(find_dates(text), text, 0, "start")]


# ----------------------------------------------------------------------------- a cure said in other words


@pytest.mark.parametrize(
    ("wording", "days"),
    [
        ("fails to correct that failure within forty-five (45) calendar days after it is told of it", 45),
        ("does not make good the default within twenty (20) days of a written demand", 20),
    ],
)
def test_a_time_to_correct_a_failure_is_the_cure_period(wording: str, days: int) -> None:
    text = (
        "12. Termination for Breach. Either party may terminate this Agreement by written notice if the "
        f"other party breaches any material obligation under it and {wording}."
    )
    assert _extracted(text, "termination_for_cause").get("cure_days") == days


# ----------------------------------------------------------------------------- written variation, other words


ENTIRE = (
    "20. Entire Agreement. This Agreement sets out the entire agreement between the parties about its "
    "subject and supersedes every earlier proposal between them. "
)


@pytest.mark.parametrize(
    "variation",
    [
        "This Agreement may not be altered or amended orally.",
        "Nothing in this Agreement can be modified, varied or changed orally.",
        "No amendments or changes to this Agreement bind either party unless recorded in an instrument "
        "executed by an officer of each of them.",
    ],
)
def test_a_ban_on_oral_changes_or_a_signed_document_is_written_variation(variation: str) -> None:
    assert _extracted(ENTIRE + variation, "entire_agreement").get("written_variation") is True


def test_a_variation_signed_only_by_the_party_bound_is_not_said_to_be_signed_by_both() -> None:
    """Whose signature a change needs is as the clause says: the claim never adds "signed by both"."""
    f = _finding(
        ENTIRE + "No change to this Agreement is effective except by a writing signed by the party against "
        "whom it is to be enforced.",
        "entire_agreement",
    )
    assert f.proposal.details["extracted"]["written_variation"]["value"] is True
    assert "signed by both" not in f.proposal.claim


def test_a_change_made_by_notice_is_still_not_written_variation() -> None:
    text = ENTIRE + "The Supplier may change the hours of support on thirty (30) days' notice."
    assert _extracted(text, "entire_agreement").get("written_variation") is not True


# ----------------------------------------------------------------------------- dates written day-first


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Signed 17/9/21", "2021-09-17"),
        ("Date: 30/06/2015", "2015-06-30"),
        ("executed on 04.11.2019.", "2019-11-04"),
        # a first number that may be a month keeps the US reading
        ("dated 5/6/20", "2020-05-06"),
    ],
)
def test_a_day_first_date_is_read_where_it_cannot_be_month_first(text: str, value: str) -> None:
    assert [h.value for h in find_dates(text)] == [value]


@pytest.mark.parametrize(
    "text", ["See clause 14.2.3 of Schedule 2.", "Item 31/13/2020 is void.", "v. 2.1.2019b"]
)
def test_a_section_number_or_an_impossible_date_is_no_date(text: str) -> None:
    assert find_dates(text) == []


def test_a_day_first_cover_date_dates_the_agreement() -> None:
    text = "Dated 17/9/21\n\nSUPPLY AGREEMENT\n\nbetween Quillon Works Ltd and Marrow Fen LLC\n\n"
    result = review(
        document_from_text(text + "1. The Supplier shall supply the Goods."), load_playbook("msa-customer")
    )
    f = next(f for f in result.findings if f.proposal.rule == "agreement_date")
    assert f.proposal.details["extracted"]["date"]["value"] == "2021-09-17"


# ----------------------------------------------------------------------------- another agreement's dates


@pytest.mark.parametrize(
    "text",
    [
        "and the Tolling Agreement between Harrow Mills Inc and Quillon Works Ltd dated as of June 3, 2011 "
        '(the "Tolling Agreement"); and',
        "under the licence dated March 2, 1997 between the Owner and the Operator, as amended October 9, "
        "1999 and May 1, 2001, and",
        "the Lease, as supplemented on February 4, 2008, remains in force",
    ],
)
def test_the_date_of_another_agreement_named_with_parties_or_amendments_is_not_this_ones(text: str) -> None:
    assert _start_dates(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "This Agreement between Quillon Works and Marrow Fen dated as of June 3, 2011 sets out",
        "This Agreement, by and between Quillon Works and Marrow Fen, dated as of June 3, 2011, sets out",
    ],
)
def test_this_agreement_named_with_its_parties_keeps_its_date(text: str) -> None:
    assert _start_dates(text) == ["2011-06-03"]


# ----------------------------------------------------------------------------- a deposit is of an amount


PAY = "7. Fees. The Customer shall pay each invoice within thirty (30) days of receiving it. "


@pytest.mark.parametrize(
    "other",
    [
        "The Supplier shall arrange the deposit of the escrow materials with the agent.",
        "Fees exclude the costs of permits, surveys and the deposit of drainage bonds.",
    ],
)
def test_a_deposit_of_something_other_than_money_is_no_upfront_payment(other: str) -> None:
    assert _extracted(PAY + other, "payment").get("upfront") is False


@pytest.mark.parametrize(
    "upfront",
    [
        "A deposit of 20% of the price is due with the order.",
        "A set-up fee of $4,000 shall be paid upon signing of this Agreement.",
    ],
)
def test_a_deposit_of_an_amount_or_a_fee_paid_on_signing_is_upfront(upfront: str) -> None:
    assert _extracted(PAY + upfront, "payment").get("upfront") is True


# ----------------------------------------------------------------------------- a force-majeure threshold


def test_a_force_majeure_threshold_in_months_said_as_continuing_is_read() -> None:
    text = (
        "15. Force Majeure. Neither party is liable for a delay caused by events beyond its reasonable "
        "control. Where such an event has occurred and is continuing for a period of at least four (4) "
        "months, either party may terminate this Agreement upon fifteen (15) days' notice."
    )
    assert _extracted(text, "force_majeure").get("terminate_after_days") == 120


# ------------------------------------------------------------------------- a cure period is no time to pay


@pytest.mark.parametrize(
    "cure",
    [
        "If the Customer fails to remedy a late payment within seven (7) days of notice, the Supplier may "
        "suspend.",
        "The Supplier may suspend if payment is not made within ten (10) days after written notice of the "
        "non-payment.",
        "Where the default continues for five (5) days, interest runs on the amount.",
    ],
)
def test_a_cure_period_beside_the_payment_term_is_not_the_days_to_pay(cure: str) -> None:
    text = "7. Fees. Invoices are payable within forty-five (45) days of receipt. " + cure
    hits = find_durations(text)
    assert [h.value for h in durations_of_kind(hits, text, 0, "deadline", "days")] == [45]
