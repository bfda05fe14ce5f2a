"""A value belongs to the clause whose subject it measures (the fifth wave's classes of values read from the
wrong clause, found by independent auditors reading real reviews).

A period that measures something other than the agreement's duration — a sell-off after termination, how
long prices hold, a covenant that runs from termination — is not the term; a date that dates another paper
is not the agreement's date; a renewal stated inside a proviso is the renewal; fees payable in advance are
stated wherever the contract states them. Every snippet here was written for this file; none is copied from
a contract, and the names are invented.
"""

from __future__ import annotations

import pytest

from citationgate.review import review
from playbooks import load_playbook
from playbooks.extract import find_dates, find_durations, find_percents
from playbooks.kinds import dates_of_kind, durations_of_kind
from playbooks.library import document_from_text

PREAMBLE = (
    "SERVICES AGREEMENT\n\nThis Agreement is made on May 2, 2016 between Quillon Works Ltd. "
    '("Supplier") and Marrow Fen LLC ("Customer").\n\n'
)


def _extracted(text: str, rule: str) -> dict[str, object]:
    result = review(document_from_text(PREAMBLE + text), load_playbook("msa-customer"))
    f = next(f for f in result.findings if f.proposal.rule == rule)
    return {k: v["value"] for k, v in (f.proposal.details.get("extracted") or {}).items()}


def _terms(text: str) -> list[float]:
    hits = find_durations(text, unit="months")
    return [h.value for h in durations_of_kind(hits, text, 0, "term", "months")]


def _start_dates(text: str) -> list[str]:
    return [h.value for h in dates_of_kind(find_dates(text), text, 0, "start")]


# ----------------------------------------------------------------------------- a period of something else


@pytest.mark.parametrize(
    "text",
    [
        "The tariffs remain valid for the first 12 months.",
        "The Brindle warranty shall be for a period of twelve (12) months.",
        "Licensee's stocking rights shall continue for two (2) years.",
        "The quoted rates are fixed for eighteen (18) months.",
    ],
)
def test_a_period_given_to_another_subject_is_not_the_term(text: str) -> None:
    """The verb gives the period to its subject: prices, a warranty, a party's rights — not the agreement."""
    assert _terms(text) == []


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("It shall be effective on 3 March 2010 and shall have a duration of two years.", 24),
        ("This Agreement (with its Annexes) shall remain in full force and effect for five (5) years.", 60),
        ("This Licence shall remain in effect for ten (10) years.", 120),
        ("The Initial Term is three (3) years.", 36),
        ("This Quillon Services contract shall last 2 years.", 24),
        ("This Agreement is effective on signature, and term of the Cooperation will be four years.", 48),
        ("Subject to the terms hereof the Term shall be 3 years.", 36),
        (
            "Subject to earlier termination, the exclusive licence granted by Quillon to Marrow shall be for "
            "an initial period of 36 months.",
            36,
        ),
        (
            "This Agreement shall start on the Effective Date and, unless the parties agree otherwise, shall "
            "continue for four (4) years.",
            48,
        ),
    ],
)
def test_a_period_given_to_the_agreement_or_its_term_is_the_term(text: str, months: int) -> None:
    assert _terms(text) == [months]


@pytest.mark.parametrize(
    "text",
    [
        "After early termination of this Agreement (other than for breach by Marrow) and continuing for a "
        "period of eighteen (18) months thereafter, Marrow may sell its remaining stock of Widgets.",
        "In the event this Agreement is terminated under clause 9, the defaulting Party shall not offer "
        "similar services for a period of six (6) months.",
        "Upon expiration of this Agreement, Supplier shall keep spare parts for three (3) years.",
        "The defaulting Party shall not compete for a period of six (6) months from the effective date of "
        "termination.",
    ],
)
def test_a_period_in_a_sentence_about_after_the_end_is_not_the_term(text: str) -> None:
    assert _terms(text) == []
    assert _terms("The term of this Agreement is two (2) years. " + text) == [24]


def test_the_term_beside_a_price_validity_sentence_is_the_duration_sentence() -> None:
    """Review level: the term clause states a duration; the next sentence says how long prices hold."""
    text = (
        "7. Term and termination\n\n"
        "It shall be effective on 3 March 2010 and shall have a duration of two years.\n\n"
        "The tariffs remain valid for the first 12 months.\n\n"
        "After this period, Supplier may adjust the tariffs annually.\n"
    )
    assert _extracted(text, "expiration_date").get("term_months") == 24


def test_a_sell_off_after_termination_is_not_read_as_the_term() -> None:
    text = (
        "4. Term. The Initial Term shall end on the date the last Milestone Payment falls due.\n\n"
        "4.3 Transition. After early termination of this Agreement and continuing for a period of eighteen "
        "(18) months thereafter, Customer may sell any Widget in its inventory.\n"
    )
    assert _extracted(text, "expiration_date").get("term_months") is None


def test_an_agreement_that_continues_indefinitely_runs_until_terminated() -> None:
    text = (
        "2. Term. This Agreement shall be effective from the date first above written and shall continue "
        "indefinitely until terminated by either Party.\n\n"
        "12. Restraint. The Party in default shall not compete for a period of six (6) months from the "
        "effective date of termination.\n"
    )
    values = _extracted(text, "expiration_date")
    assert values.get("until_terminated") is True
    assert values.get("term_months") is None


# ----------------------------------------------------------------------------- another paper's date


@pytest.mark.parametrize(
    "text",
    [
        "the network was upgraded as in the Stage 2 Document dated 12th December 2003 entitled Costs.",
        "Supplier confirmed by letter dated November 30, 2007 that it accepts.",
        "the goods listed in Purchase Order No. 4471 dated January 5, 2010.",
        "as described in the Supplier's proposal dated 4 July 2012.",
    ],
)
def test_a_date_that_dates_another_paper_is_not_the_agreements(text: str) -> None:
    assert _start_dates(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("This Statement of Work dated as of March 3, 2011 is entered into by", "2011-03-03"),
        ("MAINTENANCE AGREEMENT dated as of June 1, 2005 between", "2005-06-01"),
        ("This Agreement is dated 10 October 2000.", "2000-10-10"),
    ],
)
def test_this_papers_own_date_is_still_its_date(text: str, value: str) -> None:
    assert _start_dates(text) == [value]


def test_a_recital_of_another_papers_date_does_not_date_the_agreement() -> None:
    text = (
        "MAINTENANCE AGREEMENT\n\nThis Agreement is made between Quillon Works Ltd. and Marrow Fen LLC.\n\n"
        "1. Background. Marrow Fen confirmed by letter dated November 30, 2007 that it accepts the offer.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    f = next(f for f in result.findings if f.proposal.rule == "agreement_date")
    assert (f.proposal.details.get("extracted") or {}).get("date") is None


# ----------------------------------------------------------------------------- a renewal in a proviso


@pytest.mark.parametrize(
    ("term", "months"),
    [
        (
            "The initial term of this Agreement is five (5) years from the Effective Date; provided, "
            "however, that this Agreement shall automatically renew for successive one (1) year terms "
            "unless either party gives ninety (90) days' notice.",
            12,
        ),
        (
            "The Initial Term shall be four (4) years; provided, however, the Initial Term shall be "
            "subject to automatic successive renewal terms of two (2) years each.",
            24,
        ),
    ],
)
def test_a_renewal_stated_in_a_proviso_is_the_renewal(term: str, months: int) -> None:
    values = _extracted("2. Term. " + term + "\n", "auto_renewal")
    assert values["renewal_months"] == months
    assert values["renews_automatically"] is True


def test_a_proviso_after_a_rule_is_still_its_exception() -> None:
    text = (
        "2. Term. This Agreement shall expire on December 31, 2019; provided, however, that the licences "
        "granted for the Pilot Widgets shall continue in effect until March 31, 2021.\n"
    )
    assert _extracted(text, "expiration_date")["expires_on"] == "2019-12-31"


def test_a_renewal_term_named_after_its_length_is_not_the_initial_term() -> None:
    text = (
        "This Agreement shall be effective until the date that is two (2) years after the date of this "
        "Agreement; provided, however, that the parties may agree a quota for any one (1) year renewal term."
    )
    assert _terms(text) == [24]


# ----------------------------------------------------------------------------- fees payable in advance


def test_fees_payable_in_advance_elsewhere_are_not_no_wording_found() -> None:
    text = (
        "6. Prices. The total price is listed in chapter 6. Support fees are payable semi-annually in "
        "advance.\n\n"
        "6.3 Invoicing. All payments under this contract shall be due and payable 30 days after the invoice "
        "date.\n"
    )
    values = _extracted(text, "payment")
    assert values["payment_days"] == 30
    assert values["upfront"] is True


@pytest.mark.parametrize(
    "other",
    [
        "Customer shall pay travel expenses approved in advance.",
        "If the Widgets are withdrawn, Supplier shall refund any Charges paid in advance for them.",
    ],
)
def test_expenses_approved_in_advance_or_a_refund_are_not_an_upfront_payment(other: str) -> None:
    text = (
        "6. Payment. Customer shall pay each invoice within thirty (30) days of receipt.\n\n9. Other. "
        + other
    )
    assert _extracted(text + "\n", "payment")["upfront"] is False


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("This Agreement shall continue for ten (10) Contract Years, unless terminated earlier.", 120),
        ("This Agreement shall remain in force for five (5) full years.", 60),
    ],
)
def test_a_year_qualified_by_the_contracts_own_word_is_a_year(text: str, months: int) -> None:
    assert _terms(text) == [months]
    assert _extracted("2. Term. " + text + "\n", "expiration_date")["term_months"] == months


# ----------------------------------------------------------------------------- a date given to something else


@pytest.mark.parametrize(
    "sentence",
    [
        "As of January 1, 2015, such insurance shall also have annual aggregate limits of $2,000,000.",
        "Commencing on 20 August 2020, the Quillon Fee shall be increased to $8,500 per month.",
        "The Widget codes shall follow the Quillon Price List in effect as of January 1, 2005.",
    ],
)
def test_a_date_given_to_something_else_does_not_date_the_agreement(sentence: str) -> None:
    text = (
        "SUPPLY AGREEMENT\n\nQuillon Works Ltd. and Marrow Fen LLC agree as follows.\n\n"
        "4. Insurance and fees. " + sentence + "\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    f = next(f for f in result.findings if f.proposal.rule == "agreement_date")
    assert (f.proposal.details.get("extracted") or {}).get("date") is None


@pytest.mark.parametrize(
    ("opening", "value"),
    [
        (
            "This Agreement is made on May 2, 2016 between Quillon Works Ltd. and Marrow Fen LLC.",
            "2016-05-02",
        ),
        ("Dated: 14 March 2019", "2019-03-14"),
        ("June 1, 2005", "2005-06-01"),
        ('Marrow Fen LLC, Bucharest, Romania ("Marrow") as of the 1st day of June, 2004.', "2004-06-01"),
        ("Quillon Works Ltd.   Markham, ON 24 OCT 2011   Place Date", "2011-10-24"),
    ],
)
def test_the_agreements_own_date_still_dates_it(opening: str, value: str) -> None:
    text = "SUPPLY AGREEMENT\n\n" + opening + "\n\n1. Supply. Quillon shall supply Widgets to Marrow Fen.\n"
    result = review(document_from_text(text), load_playbook("msa-customer"))
    f = next(f for f in result.findings if f.proposal.rule == "agreement_date")
    assert (f.proposal.details.get("extracted") or {})["date"]["value"] == value


@pytest.mark.parametrize(
    "clause",
    [
        "This contract shall be for a term of one year commencing on the date first above written.",
        "The term of this Services Agreement shall begin on the date of execution.",
        "This Agreement shall be effective on the date of signed acceptance by Marrow Fen.",
        "This Agreement has been duly executed as of the date first set forth above and shall be effective "
        "simultaneously.",
        "The Agreement shall become effective upon the completion of the execution by both Parties.",
        "The effective date for purposes of this Agreement is the contract date as specified on the "
        "signature page of this Agreement.",
        '"Effective Date" of this Agreement shall mean the date the last party hereto has executed this '
        "Agreement.",
    ],
)
def test_an_agreement_effective_on_signature_in_more_words(clause: str) -> None:
    """It takes effect when it is signed: its effective date is the date it is signed."""
    assert _extracted("3. Effective date. " + clause + "\n", "effective_date")["same_as_signing"] is True


# ----------------------------------------------------------------------------- session 6: whose period it is


def _kind(text: str, kind: str, unit: str) -> list[str]:
    hits = durations_of_kind(find_durations(text, unit=unit), text, 0, kind, unit)
    return [text[h.start : h.end] for h in hits]


@pytest.mark.parametrize(
    "text",
    [
        "Quillon warrants that for a period of one (1) year from the Effective Date, the Widgets will "
        "perform substantially in accordance with the Documentation.",
        "The warranty period shall be twelve (12) months from delivery.",
        "Supplier guarantees the repairs for two (2) years.",
    ],
)
def test_a_warrantys_period_is_not_the_term(text: str) -> None:
    assert _kind(text, "term", "months") == []
    assert _kind(text, "period", "months") != []  # still the warranty's own period


def test_the_agreement_named_after_a_warranty_word_keeps_its_term() -> None:
    text = "Subject to the warranty in clause 5, this Agreement shall continue for three (3) years."
    assert _kind(text, "term", "months") == ["three (3) years"]


def test_a_term_given_in_an_exhibit_is_read_there_not_from_the_warranty() -> None:
    """The term clause points elsewhere; the warranty's "one (1) year from the Effective Date" is no term."""
    text = (
        "4. Warranty. Supplier warrants that for a period of one (1) year from the Effective Date the "
        "Software will perform substantially in accordance with the Documentation.\n\n"
        "12. Term and Termination. This Agreement shall continue for the term set forth in Exhibit B.\n\n"
        "EXHIBIT B\n\n5. Term. This Agreement shall have an initial term of three (3) years.\n"
    )
    assert _extracted(text, "expiration_date")["term_months"] == 36


@pytest.mark.parametrize(
    "text",
    [
        "Upon any termination, the rights of the parties cease except: (a) Marrow will pay, within thirty "
        "(30) days after the effective date of termination, all amounts owing to Quillon.",
        "Marrow shall pay all accrued Fees within six (6) weeks of termination of this Agreement.",
        "Licensee shall keep for one (1) year proper records of all Widgets sold and fees paid.",
        "Marrow shall pay the retainer for a period of twelve (12) months.",
        "Marrow will pay the Consultant $8,333 per month at the end of each month during the first "
        "twelve months that this agreement is in effect.",
        "Credit requests should be submitted by Marrow within one month after the date of Marrow's invoice.",
    ],
)
def test_a_payment_on_termination_or_a_span_is_not_the_payment_term(text: str) -> None:
    assert _kind(text, "deadline", "days") == []


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("Invoices are payable within thirty (30) days of receipt.", "thirty (30) days"),
        (
            "Customer shall pay each invoice forty-five (45) days after the invoice date.",
            "forty-five (45) days",
        ),
        ("All sums are due net sixty (60) days from the end of the month.", "sixty (60) days"),
    ],
)
def test_a_time_to_pay_an_invoice_is_still_the_payment_term(text: str, days: str) -> None:
    assert _kind(text, "deadline", "days") == [days]


def test_payment_on_termination_alone_states_no_payment_days() -> None:
    text = (
        "6. Fees. Customer shall pay the fees set out in Schedule 1.\n\n"
        "11. Effect of Termination. Upon any termination, all rights and duties of the parties cease except: "
        "(a) Customer will pay, within thirty (30) days after the effective date of termination, all amounts "
        "owing to Supplier for Services completed.\n"
    )
    assert "payment_days" not in _extracted(text, "payment")


# ----------------------------------------------------------------------------- session 6: notice given ahead


@pytest.mark.parametrize(
    ("sentence", "days"),
    [
        (
            "It will renew automatically for one-year terms unless either party gives notice to the contrary "
            "at least 60 days prior thereto.",
            60,
        ),
        (
            "It will be automatically renewed for additional one-year periods unless either party notifies "
            "the other in writing, at least thirty (30) days prior, of its intent not to renew.",
            30,
        ),
        (
            "It shall renew automatically for successive one (1) year terms unless either party gives "
            "written notice of non-renewal not less than ninety (90) days in advance.",
            90,
        ),
    ],
)
def test_a_renewal_notice_given_at_least_n_days_prior_is_the_notice(sentence: str, days: int) -> None:
    values = _extracted("2. Term. The initial term is three (3) years. " + sentence + "\n", "auto_renewal")
    assert values["renews_automatically"] is True
    assert values["notice_days"] == days


@pytest.mark.parametrize(
    "text",
    [
        "Supplier shall not hire any person employed by Customer within six (6) months prior to the hiring.",
        "Each Party shall give notice of any claim; in the period at least 60 days prior, Quillon audits.",
    ],
)
def test_a_lookback_or_a_period_without_a_notice_before_it_is_no_notice(text: str) -> None:
    assert _kind(text, "notice", "days") == []


# ----------------------------------------------------------------------------- session 6: more words


def test_a_breach_that_continues_uncured_n_days_after_notice_has_that_cure_period() -> None:
    text = (
        "9. Termination. Either party may terminate this Agreement if the other party fails to perform any "
        "material obligation and such failure continues uncured thirty (30) days following written notice "
        "thereof.\n"
    )
    assert _extracted(text, "termination_for_cause")["cure_days"] == 30


def test_a_licence_that_continues_perpetually_runs_until_terminated() -> None:
    text = (
        "4. Term. The licence granted hereunder shall continue perpetually unless terminated by either party "
        "on sixty (60) days' written notice.\n"
    )
    assert _extracted(text, "expiration_date")["until_terminated"] is True


# ----------------------------------------------------------------------------- session 6: a value left blank


def _finding(text: str, rule: str) -> tuple[str, str, list[str], dict[str, object]]:
    result = review(document_from_text(PREAMBLE + text), load_playbook("msa-customer"))
    f = next(f for f in result.findings if f.proposal.rule == rule)
    d = f.proposal.details
    quotes = [c.quote.text for c in f.citations if c.quote is not None]
    return d["outcome"], f.proposal.claim, quotes, d.get("extracted") or {}


@pytest.mark.parametrize(
    ("rule", "clause", "blank"),
    [
        (
            "payment",
            "6. Payment. Customer shall pay each invoice within ____ days of receipt. Customer may dispute "
            "any invoice in good faith.",
            "____ days",
        ),
        (
            "payment",
            "6. Payment. Customer shall pay each invoice within _____ (___) days of receipt.",
            "_____ (___) days",
        ),
        (
            "termination_for_cause",
            "9. Termination. Either party may terminate this Agreement if the other party commits a material "
            "breach and fails to cure it within [__] days after written notice.",
            "[__] days",
        ),
        (
            "auto_renewal",
            "2. Term. This Agreement shall renew automatically for successive one (1) year terms unless "
            "either party gives ____ days' written notice of non-renewal.",
            "____ days",
        ),
        (
            "expiration_date",
            "2. Term. This Agreement shall continue for a period of ______ years from the Effective Date.",
            "______ years",
        ),
    ],
)
def test_a_value_left_blank_is_not_stated_and_quoted(rule: str, clause: str, blank: str) -> None:
    """No number is read from a blank: the finding needs review, says the value is left blank, and quotes
    the sentence that leaves it blank."""
    outcome, claim, quotes, extracted = _finding(clause + "\n", rule)
    assert outcome == "needs_review"
    assert f"(“{blank}”) left blank in this copy" in claim
    assert any(blank in q for q in quotes)
    assert all(v["value"] is not None for v in extracted.values())  # the blank is no extracted value


def test_a_redaction_or_a_filled_in_value_is_not_a_blank() -> None:
    _, claim, _, extracted = _finding(
        "6. Payment. Customer shall pay each invoice within thirty (30) days of receipt; Customer may "
        "dispute any invoice in good faith. Signature: ________________\n",
        "payment",
    )
    assert extracted["payment_days"]["value"] == 30
    assert "left blank" not in claim


# ----------------------------------------------------------------------------- session 6: whose end date


def _end_dates(text: str) -> list[str]:
    return [h.value for h in dates_of_kind(find_dates(text), text, 0, "end")]


@pytest.mark.parametrize(
    "text",
    [
        "THIS WIDGET AGREEMENT is effective on this 21st day of February 2011, by and between Quillon and "
        "Marrow.",
        "WHEREAS, the First Supplement and the Second Supplement were effective from October 5, 1999 and "
        "April 4, 2000 respectively; and",
        "the Widget Plan (hereinafter the Plan); and WHEREAS, the Plan was amended on March 3, 2001; and",
        'Quillon grants Marrow an option (the "Option"), which Option shall vest on the listing of the '
        "Shares and shall be exercisable until June 30, 2004.",
        "Marrow's right to sell its stock of Widgets shall continue until June 30, 2012.",
    ],
)
def test_a_date_that_ends_something_else_or_starts_the_agreement_is_not_its_end(text: str) -> None:
    assert _end_dates(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("This Agreement shall expire on December 31, 2006.", "2006-12-31"),
        (
            "This Agreement, unless terminated earlier, shall remain in full force until June 30, 2012.",
            "2012-06-30",
        ),
        (
            "This Agreement shall commence on the Effective Date and shall continue until May 1, 2015.",
            "2015-05-01",
        ),
        ("The Initial Term will end on June 30, 2010.", "2010-06-30"),
        ("This Agreement shall be in effect until March 18. 2021, unless sooner terminated.", "2021-03-18"),
    ],
)
def test_the_agreements_own_end_date_is_still_its_end(text: str, value: str) -> None:
    assert _end_dates(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "TERM: The rights granted hereunder shall be effective as of the Effective Date and shall expire on "
        'December 31, 2006 (the "Term"); provided that sell-off continues.',
        'The Widget rights shall expire on December 31, 2006 (the "Initial Term").',
    ],
)
def test_the_end_of_the_rights_granted_or_of_the_named_term_is_the_end(text: str) -> None:
    value = "2006-12-31"
    assert _end_dates(text) == [value]


def test_a_time_within_which_something_is_done_is_not_the_term() -> None:
    text = (
        "Either party may terminate if the licence is not granted within sixty (60) days from the Effective "
        "Date. This Agreement shall continue for fifteen (15) years from the Effective Date."
    )
    assert _kind(text, "term", "months") == ["fifteen (15) years"]


# ----------------------------------------------------------------------------- session 6: its own quote


def test_a_value_inside_a_wider_passage_quoted_elsewhere_keeps_its_own_quote() -> None:
    """A lead-in read with its list (one value's scope) takes in the passage another value was read from: the
    wide passage is quoted in a window around its own value, so the other value's passage keeps a window of
    its own — a value the claim states is never left out of the quotes."""
    from playbooks.engine.context import _Context, _Value
    from playbooks.engine.quotes import _inside, _quotes
    from playbooks.outcome import ExtractedValue

    filler = (
        "Franchisee has kept the Widget Shop in good order, to the standards of the manual, and paid all sums"
    )
    text = (
        "2. Successor franchise. Franchisee may obtain a successor franchise if Quillon has not given notice "
        "of its election not to grant one six (6) months prior to the expiration of the term, and if:\n\n"
        + "".join(f"({c}) {filler};\n\n" for c in "abcdefgh")
        + "(i) Franchisee pays the renewal fee.\n"
    )
    ctx = _Context(document_from_text(text))
    items = ctx.passages.items
    first = next(i for i, p in enumerate(items) if "six (6) months" in text[p.start : p.end])
    lead = items[first]
    s, e = text.index("six (6) months"), text.index("six (6) months") + len("six (6) months")
    r = text.index("renewal fee")
    notice = _Value(
        ExtractedValue(value=180, text=text[s:e], start=s, end=e), (lead.start, lead.end), None, False
    )
    renewal = _Value(
        ExtractedValue(value=True, text="renewal", start=r, end=r + 7), (lead.start, len(text)), None, False
    )
    assert len(text) - lead.start > 700 and r - e > 700
    quotes = _quotes(ctx, first, {"notice_days": notice, "renewal": renewal}, ["notice_days"])
    assert _inside(notice.ev, quotes)
    assert _inside(renewal.ev, quotes)


# ------------------------------------------------------------------------ session 7: what a value is made of


def _review_finding(text: str, rule: str) -> tuple[str, dict[str, object]]:
    result = review(document_from_text(PREAMBLE + text), load_playbook("msa-customer"))
    f = next(f for f in result.findings if f.proposal.rule == rule)
    values = {k: v["value"] for k, v in (f.proposal.details.get("extracted") or {}).items()}
    return str(f.proposal.details.get("outcome")), values


@pytest.mark.parametrize(
    "text",
    [
        "Year 1 - Due: March 31, 2019 - $40,000 Year 2 - Due: March 31, 2020 - $60,000",
        "a fee of USD 12,500 year on year",
        "£3,000 months of support",
    ],
)
def test_an_amount_of_money_is_never_a_number_of_days(text: str) -> None:
    """ "$40,000 Year 2" is an amount beside a schedule's label: a period is never read from an amount."""
    assert [h.value for h in find_durations(text)] == []


def test_a_schedule_of_due_amounts_states_no_payment_days_and_is_not_absent() -> None:
    """A payment schedule of due dates and amounts gives no days to pay from an invoice: the payment terms are
    found and the days said to be not stated, never 14,600,000 days read from "$40,000 Year"."""
    for clause in (
        "4. FEES\n\nCustomer agrees to pay to Supplier the fee in the amount of $120,000 for this Agreement. "
        "Payments to Supplier shall be payable according to the following schedule: Year 1 - Due: March 31, "
        "2019 - $40,000 Year 2 - Due: March 31, 2020 - $60,000 Final Balance Due: June 30, 2021 - $20,000.\n",
        "4. FEES\n\nPayments to Supplier shall be payable according to the following schedule: Year 1 - Due: "
        "March 31, 2019 - $40,000 Year 2 - Due: March 31, 2020 - $60,000 Final Balance Due: June 30, 2021 - "
        "$20,000.\n",
    ):
        outcome, values = _review_finding(clause, "payment")
        assert outcome == "needs_review"
        assert "payment_days" not in values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a late charge of 1 l/2% per month", 1.5),  # OCR: a letter l for the digit one
        ("a late charge of 1 I/2% per month", 1.5),
        ("interest at 1 1/2% per month", 1.5),
        ("interest at 1-1/2 percent per month", 1.5),
        ("interest at 1½% per month", 1.5),
        ("interest of one and one-half percent (1.5%) per month", 1.5),
        ("interest of one and a half per cent a month", 1.5),
        ("interest of one-half of one percent per month", 0.5),
        ("interest at 3/4% per month", 0.75),
        ("interest at 18% per annum", 18),
        ("ten percent (10%)", 10),
    ],
)
def test_a_percentage_with_a_fraction_is_the_whole_and_the_fraction(text: str, value: float) -> None:
    """ "1 l/2%" is 1½ %, not the "2%" it ends in."""
    assert [h.value for h in find_percents(text)] == [value]


def test_late_interest_of_one_and_a_half_percent_a_month_is_not_above_the_red_line() -> None:
    clause = (
        "4. PAYMENT\n\nCustomer shall pay each invoice within thirty (30) days of receipt. Customer agrees "
        "to "
        "pay a late charge of 1 l/2% per month on the unpaid balance of any overdue invoice.\n"
    )
    outcome, values = _review_finding(clause, "payment")
    assert values["late_interest_percent"] == 1.5
    assert outcome != "unacceptable"


@pytest.mark.parametrize(
    ("clause", "methods"),
    [
        (
            "26. Notice: All written notices shall be deemed given on the day notice is either delivered "
            "personally, or by fax or overnight or certified delivery or deposited in the mail addressed as "
            "specified below: If to Supplier: Address: 12 Elm Row, Springfield Email: Attn: Jo Bloggs\n",
            ["hand", "courier", "post"],
        ),
        (
            "26. Notices. Any notice shall be in writing and delivered by hand to the address below.\n\n"
            "Supplier: 12 Elm Row, Springfield. E-mail: ____________\n",
            ["hand"],
        ),
        (
            "26. Notices. Any notice shall be in writing and delivered by hand or sent by e-mail to the "
            "address below. Email: ops@quillon.example\n",
            ["hand", "email"],
        ),
        (
            "26. Notices. Any notice shall be in writing and sent by email: legal@quillon.example, with a "
            "copy by post.\n",
            ["post", "email"],
        ),
        (
            "26. Notices. Any notice shall be in writing and sent by electronic mail or delivered to the "
            "registered office of the addressee.\n",
            ["email"],
        ),
    ],
)
def test_a_notice_method_is_one_the_clause_permits_not_a_label(clause: str, methods: list[str]) -> None:
    """ "Email:" in the address block is where a party is reached, not a way of giving notice; "mail"
    inside "e-mail" is no post, nor is a "registered office" a registered letter; "delivered personally" is
    by hand."""
    outcome, values = _review_finding(clause, "notices")
    assert outcome == "standard"
    assert values["methods"] == methods


CONFIDENTIALITY = (
    "8. Confidentiality. Each party shall keep the other party's Confidential Information confidential "
    "during the Term and thereafter.\n\n"
)


@pytest.mark.parametrize(
    "other",
    [
        "9. Effect of Termination. On termination the licence to use the Supplier Marks ends. All originals "
        "and copies of the Supplier Marks (whether printed or electronic) shall be discarded or destroyed "
        "within five (5) business days.\n",
        "9. Marks. On expiry Customer shall destroy all materials bearing the Quillon Logos.\n",
        "Accepted and Agreed: Execute two (2) copies and return executed copies to:\n\n"
        "9. Indemnity. Each party shall indemnify the other.\n",
    ],
)
def test_a_return_or_destroy_duty_about_something_else_is_no_return_of_information(other: str) -> None:
    """Destroying copies of a party's marks when a trademark licence ends, or returning signed copies of the
    agreement, is no duty to return or destroy confidential information."""
    outcome, values = _review_finding(CONFIDENTIALITY + other, "confidentiality")
    assert values["return_destroy"] is False
    assert outcome != "standard"


@pytest.mark.parametrize(
    "duty",
    [
        "On termination each party shall return or destroy all copies of the other party's Confidential "
        "Information.",
        "All copies of such information shall be destroyed upon request.",
        "On request the Supplier shall return all documents and materials containing Customer Data.",
    ],
)
def test_a_duty_to_return_or_destroy_the_information_is_still_read(duty: str) -> None:
    outcome, values = _review_finding(
        CONFIDENTIALITY.replace("thereafter.", "thereafter. " + duty), "confidentiality"
    )
    assert values["return_destroy"] is True
    assert outcome == "standard"


def _dates(text: str) -> dict[str, object]:
    result = review(document_from_text(text), load_playbook("msa-customer"))
    f = next(f for f in result.findings if f.proposal.rule == "agreement_date")
    return {k: v["value"] for k, v in (f.proposal.details.get("extracted") or {}).items()}


def test_an_amendment_dated_in_its_preamble_keeps_that_date_beside_the_agreement_it_amends() -> None:
    """The preamble says this paper "is made and entered into effective as of" its date and then names the
    agreement it amends "dated" earlier: the other agreement's date excludes only a sentence that has not
    already dated this one — and a lettered recital dating "that certain" other agreement is not its date."""
    text = (
        "AMENDMENT NO. 2 TO SUPPLY AGREEMENT\n\n"
        'This AMENDMENT NO. 2 TO SUPPLY AGREEMENT (this "Amendment") is made and entered into effective as '
        'of October 30, 2019 (the "Effective Date") by and among Quillon Works Ltd., a Delaware corporation '
        '("Quillon"), and Marrow Fen Co., Ltd., a Japanese corporation ("Marrow"), as an amendment to that '
        'certain Supply Agreement dated March 7, 2016 between Quillon and Marrow (the "Supply '
        'Agreement").\n\n'
        "RECITALS\n\n"
        "(A) Quillon and Marrow entered into that certain Side Letter Agreement as of June 14, 2019 pursuant "
        "to which Marrow sold certain assets to Quillon.\n\n"
        "1. Amendment. Section 4 of the Supply Agreement is deleted.\n"
    )
    assert _dates(text)["date"] == "2019-10-30"


@pytest.mark.parametrize(
    "before",
    [
        "entered into that certain Side Letter Agreement as of ",
        "entered into that certain Side Letter Agreement, effective as of ",
        "are parties to that certain Supply Agreement dated ",
    ],
)
def test_that_certain_agreement_names_another_paper(before: str) -> None:
    text = f"(A) Quillon and Marrow {before}June 14, 2019 pursuant to which Marrow sold certain assets."
    assert _start_dates(text) == []


@pytest.mark.parametrize(
    "clause",
    [
        "The Consultant's engagement shall commence on 1 March 2019 and shall continue unless and until "
        "either party gives notice to the other in accordance with clause 9.",
        "This Agreement shall commence on the Effective Date and shall continue until either party "
        "terminates it on ninety (90) days' written notice.",
        "This Agreement shall continue in full force and effect unless and until terminated under clause 9.",
    ],
)
def test_an_agreement_that_continues_until_a_party_gives_notice_runs_until_terminated(clause: str) -> None:
    """No fixed term: "shall continue unless and until either party gives notice" is an open-ended agreement
    — the term is stated (until terminated), and it renews on nobody's silence."""
    outcome, values = _review_finding("2. TERM\n\n" + clause + "\n", "expiration_date")
    assert outcome == "standard"
    assert values["until_terminated"] is True
    _, renewal = _review_finding("2. TERM\n\n" + clause + "\n", "auto_renewal")
    assert renewal.get("renews_automatically") is False


@pytest.mark.parametrize(
    "other",
    [
        "The marketing fee is calculated by multiplying 0.025% by the average Transaction amount.",
        "If an audit reveals overdue payments in excess of ten percent (10%) of the payments owed, Customer "
        "shall pay the cost of the audit.",
    ],
)
def test_a_percentage_in_a_fee_formula_or_an_audit_threshold_is_no_late_interest(other: str) -> None:
    """ "late" inside "calculated", or an audit's threshold beside "overdue payments", is no late-payment
    interest rate."""
    clause = "4. PAYMENT\n\nCustomer shall pay each invoice within thirty (30) days of receipt. " + other
    _, values = _review_finding(clause, "payment")
    assert "late_interest_percent" not in values


def test_the_date_of_mailing_of_a_courier_notice_is_no_post() -> None:
    clause = (
        "26. Notices. Notice shall be deemed given upon personal delivery; or if sent by a reputable "
        "overnight courier, one (1) day after the date of mailing.\n"
    )
    _, values = _review_finding(clause, "notices")
    assert values["methods"] == ["hand", "courier"]


# ---------------------------------------------------------- session 7 (lead): working days at calendar length


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("within twenty-five (25) business days", 35),
        ("within 10 working days of receipt", 14),
        ("within seven (7) business days", 10),
        ("five banking days", 7),
        ("within thirty (30) days", 30),
        ("within thirty (30) calendar days", 30),
    ],
)
def test_working_days_count_at_their_calendar_length(text: str, days: int) -> None:
    assert [h.value for h in find_durations(text)] == [days]


def test_twenty_five_business_days_to_pay_is_no_red_line_of_under_30_days() -> None:
    """Twenty-five business days are five weeks: the red line "we must pay in under 30 days" does not fire,
    and the claim still quotes the contract's own words."""
    outcome, claim, quotes, extracted = _finding(
        "6. Payment. Customer shall pay each invoice within twenty-five (25) business days following "
        "receipt; Customer may dispute any invoice in good faith.\n",
        "payment",
    )
    assert outcome != "unacceptable"
    assert extracted["payment_days"]["value"] == 35
    assert "twenty-five (25) business days" in claim
    assert any("twenty-five (25) business days" in q for q in quotes)
    outcome, _, _, extracted = _finding(
        "6. Payment. Customer shall pay each invoice within fifteen (15) business days following receipt.\n",
        "payment",
    )
    assert outcome == "unacceptable"  # three weeks is under thirty days, counted either way
    assert extracted["payment_days"]["value"] == 21


# ----------------------------------------------------------------------------- a renewal's length, a window


@pytest.mark.parametrize(
    ("text", "term"),
    [
        # the renewal named after its length in reverse order: "2 year term extensions"
        ("The Term will be 3 years from Effective Date with an automatic 2 year term extensions.", [36]),
        # the renewal's length after its verb, however far: "shall automatically renew … for one (1) …"
        (
            "The Term is thirty-six (36) months. This Agreement shall automatically renew at the end of the "
            "Initial Term on the same terms for one (1) twelve-month period.",
            [36],
        ),
        # "unless renewed, continue for": the period is the term's own
        ("This Agreement, unless renewed earlier, shall continue for twenty-four (24) months.", [24]),
        # a window to answer is no term
        (
            "The Term is two (2) years. Customer may object within a period of three (3) months following "
            "the notice.",
            [24],
        ),
    ],
)
def test_a_renewals_length_or_a_window_to_answer_is_not_the_term(text: str, term: list[float]) -> None:
    assert _terms(text) == term


def _end_dates(text: str) -> list[str]:
    return [h.value for h in dates_of_kind(find_dates(text), text, 0, "end")]


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("The term shall commence on the Effective Date and end on November 30, 2014.", ["2014-11-30"]),
        ("will end the later of (i) December 15, 1999 or (ii) the launch", ["1999-12-15"]),
        ("Expiration Date: December 31, 2020", ["2020-12-31"]),
        ("for the period January 1, 2020 – December 31, 2022", ["2022-12-31"]),
        # something else happens on the date: it ends nothing
        ("The channel is expected to be uploaded on August 1, 2010.", []),
        ("payable at the first Quarter-end, Sept. 30, 1997", []),
        ("The Parties agree that prior to July 1, 2000, either may propose a renewal.", []),
        # a phase that starts and ends is not the agreement
        ("Phase I will commence on August 1, 2010 and end on July 31, 2011.", []),
        ("The Term will commence on August 1, 2010 and end on July 31, 2014.", ["2014-07-31"]),
    ],
)
def test_an_end_date_is_one_the_words_say_ends_the_term(text: str, ends: list[str]) -> None:
    assert _end_dates(text) == ends
