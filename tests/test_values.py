"""Values read by their context: each class of misreading from the judgement audits, on small snippets.

Every snippet here was written for this file; none is copied from a contract.
"""

from __future__ import annotations

import pytest

from citationgate.review import review
from playbooks import load_playbook
from playbooks.extract import find_dates, find_durations, find_jurisdictions
from playbooks.kinds import duration_kind, durations_of_kind
from playbooks.library import document_from_text


def _dates(text: str) -> list[tuple[str, str]]:
    return [(h.value, text[h.start : h.end]) for h in find_dates(text)]


def _of_kind(text: str, kind: str, unit: str = "days") -> list[float]:
    return [h.value for h in durations_of_kind(find_durations(text, unit=unit), text, 0, kind, unit)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("made on the 9t h day of March 2021.", "2021-03-09"),  # ordinal letters split by text extraction
        ("as of the 2n d day of May, 2016.", "2016-05-02"),
        ("entered into this first day of August, 2015 (the", "2015-08-01"),  # an ordinal in words
        ("dated the twenty-third day of June 2011", "2011-06-23"),
        ("effective 3/4/97 (the", "1997-03-04"),  # a two-digit year, month first
        ("the 12th day of Tuesday, October 2021", "2021-10-12"),
    ],
)
def test_dates_in_the_forms_contracts_write_them(text: str, value: str) -> None:
    assert [v for v, _ in _dates(text)] == [value]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("made this ____ day of ________, 2007 (the", "2007"),
        ("made as of the ___ day of April, 2012", "2012-04"),
        ("Dated: September ___, 2010", "2010-09"),
        ("the [ ] day of [ ], 2022", "2022"),
    ],
)
def test_a_date_left_blank_is_read_as_the_parts_it_states(text: str, value: str) -> None:
    """A blank day is not a day: the value keeps only what the text states, in ISO's reduced precision."""
    assert [v for v, _ in _dates(text)] == [value]


def test_a_notice_period_is_not_the_renewal_term_and_the_renewal_term_is_not_a_notice_period() -> None:
    text = (
        "This Agreement renews for successive two (2) year terms unless either party gives forty-five (45) "
        "days' prior written notice of non-renewal."
    )
    assert _of_kind(text, "period", "months") == [24]
    assert _of_kind(text, "notice") == [45]


@pytest.mark.parametrize(
    "text",
    [
        "upon ninety (90) days written notice to the other",
        "at least 60 days before the end of the then-current term",
        "within thirty (30) days prior to the expiration of the Initial Term",
        "by giving notice of not less than 120 days",
    ],
)
def test_advance_notice_is_typed_as_notice(text: str) -> None:
    h = find_durations(text)[0]
    assert duration_kind(text, h.start, h.end) == "notice"


def test_an_interest_year_is_not_a_payment_term() -> None:
    """'A 360-day year' and 'a year of 365 days' are day-count conventions, not days to pay."""
    text = "Invoices are payable within forty (40) days; interest accrues on the basis of a 360-day year."
    assert _of_kind(text, "deadline") == [40]
    assert (
        _of_kind("interest calculated for a year of 365 days and the actual days elapsed", "deadline") == []
    )


def test_thirty_days_is_thirty_days_not_one_month() -> None:
    assert _of_kind("the term is thirty (30) days", "period", "days") == [30]


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("shall renew automatically from year to year unless terminated", 12),
        ("thereafter continues month-to-month until either party terminates", 1),
        ("is extended for an additional period of half a year", 6),
        ("shall expire on the fourth anniversary of the Effective Date", 48),
        ("shall end on the seven (7) year anniversary of the Effective Date", 84),
    ],
)
def test_periods_written_without_a_number(text: str, months: int) -> None:
    assert _of_kind(text, "period", "months") == [months]


def test_a_federal_statute_laid_over_state_law_is_not_the_governing_law() -> None:
    text = (
        "This Agreement is governed by the laws of the State of Oregon, except for matters governed by the "
        "patent laws of the United States and the United States Lanham Act."
    )
    assert [h.value for h in find_jurisdictions(text)] == ["Oregon"]


def test_countries_beyond_the_common_ones_are_jurisdictions() -> None:
    assert [h.value for h in find_jurisdictions("construed under the laws of New Zealand")] == ["New Zealand"]


def _extracted(text: str, rule: str) -> dict[str, object]:
    result = review(document_from_text(text), load_playbook("msa-customer"))
    f = next(f for f in result.findings if f.proposal.rule == rule)
    return {k: v["value"] for k, v in (f.proposal.details.get("extracted") or {}).items()}


CONTRACT = (
    "SUPPLY AGREEMENT\n\n"
    'This Supply Agreement (the "Agreement") is entered into on March 3, 2020 and is made effective as of '
    'April 1, 2020 (the "Effective Date") by and between Kestrel Parts Inc. ("Supplier") and Lumen Goods '
    'LLC ("Customer").\n\n'
    "WHEREAS, the parties are parties to a Letter of Intent dated as of January 5, 2019.\n\n"
    "1. Term. This Agreement shall become effective on the Effective Date and shall continue for three (3) "
    "years, terminable by either party on sixty (60) days' prior written notice. Thereafter this Agreement "
    "shall automatically renew for successive one (1) year terms unless either party gives notice of "
    "non-renewal at least ninety (90) days before the end of the then-current term.\n\n"
    "2. Governing Law. This Agreement is governed by the laws of the State of Oregon, except to the extent "
    "governed by the copyright laws of the United States.\n"
)


def test_the_agreement_date_is_the_date_it_was_made_not_the_date_it_takes_effect() -> None:
    assert _extracted(CONTRACT, "agreement_date")["date"] == "2020-03-03"


def test_the_effective_date_is_the_date_the_contract_defines_as_its_effective_date() -> None:
    """'Shall become effective on the Effective Date' states no date: the definition in the preamble does."""
    assert _extracted(CONTRACT, "effective_date")["defined_date"] == "2020-04-01"


def test_term_renewal_and_notice_are_each_read_from_their_own_words() -> None:
    assert _extracted(CONTRACT, "expiration_date")["term_months"] == 36  # not the 60-day notice
    renewal = _extracted(CONTRACT, "auto_renewal")
    assert renewal["renewal_months"] == 12
    assert renewal["notice_days"] == 90


def test_the_governing_law_is_the_states_not_the_federal_overlay() -> None:
    assert _extracted(CONTRACT, "governing_law")["law"] == "Oregon"


def test_an_end_date_is_not_the_date_a_term_runs_from_and_a_start_date_not_the_one_it_runs_to() -> None:
    from playbooks.kinds import dates_of_kind

    text = (
        "valid for four (4) years from March 2, 2018 through March 1, 2022, and shall end as of May 5, 2022"
    )
    assert [h.value for h in dates_of_kind(find_dates(text), text, 0, "end")] == ["2022-03-01", "2022-05-05"]
    text = "effective as of the Effective Date and shall expire on June 30, 2009"
    assert dates_of_kind(find_dates(text), text, 0, "start") == []


def test_notice_of_a_period_after_the_party_is_still_a_notice() -> None:
    text = "either party may end this Agreement by written notice to the other Party of at least 4 months."
    assert _of_kind(text, "notice", "months") == [4]


def test_a_dated_line_in_capitals_is_read_not_skipped_as_a_heading() -> None:
    text = (
        'DATED 14 MARCH 2018\n\nBETWEEN: Kestrel Parts Limited (the "Supplier") and Lumen Goods Limited '
        '(the "Customer").\n\n1. Services. The Supplier shall provide the Services.\n'
    )
    assert _extracted(text, "agreement_date")["date"] == "2018-03-14"


def test_a_blank_agreement_date_is_not_a_dated_agreement() -> None:
    text = (
        "This Agreement is made as of this ____ day of __________, 2009 by and between Kestrel Parts Inc. "
        '("Supplier") and Lumen Goods LLC ("Customer").\n\n'
        "1. Services. The Supplier shall provide the Services.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    f = next(f for f in result.findings if f.proposal.rule == "agreement_date")
    assert f.proposal.details["extracted"]["date"]["value"] == "2009"
    assert f.proposal.details["outcome"] == "needs_review"


def test_a_renewal_length_is_not_the_initial_term() -> None:
    text = (
        "The Agreement may be renewed for successive one (1) year terms; its initial term is four (4) years."
    )
    assert _of_kind(text, "term", "months") == [48]


def test_due_upon_receipt_is_a_deadline_of_no_days() -> None:
    assert _of_kind("Payment is due upon receipt of the invoice.", "deadline") == [0]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("This Agreement is governed by English law.", "England and Wales"),
        ("governed by and construed in accordance with Swiss law", "Switzerland"),
        ("shall be governed by the laws of the PRC", "China"),
        ("governed by the laws of the United States and the State of Georgia", "Georgia"),
    ],
)
def test_a_law_named_by_its_adjective_or_initials_and_a_state_beside_federal_law(
    text: str, value: str
) -> None:
    assert {h.value for h in find_jurisdictions(text)} == {value}


def test_an_adjective_without_the_word_law_is_not_a_jurisdiction() -> None:
    assert find_jurisdictions("All notices shall be in the English language.") == []


RENEWALS = (
    "SERVICES AGREEMENT\n\n"
    'This Agreement is made on May 2, 2016 between Kestrel Parts Inc. ("Supplier") and Lumen Goods LLC '
    '("Customer").\n\n'
    "4. Term. {term}\n"
)


@pytest.mark.parametrize(
    ("term", "automatic"),
    [
        (
            "This Agreement begins on the date hereof and shall continue until terminated by either party.",
            False,
        ),
        ("After the first year this Agreement shall be effective month to month until terminated.", True),
        (
            "This Agreement has a term of one year; thereafter it shall automatically continue until "
            "terminated by either party on thirty (30) days' notice.",
            True,
        ),
    ],
    ids=["evergreen-from-the-start", "month-to-month", "continues-after-its-term"],
)
def test_an_agreement_that_runs_until_terminated_from_its_start_does_not_renew(
    term: str, automatic: bool
) -> None:
    assert (
        _extracted(RENEWALS.format(term=term), "auto_renewal").get("renews_automatically", False) is automatic
    )


def test_a_section_that_is_only_its_heading_runs_on_into_its_numbered_sentences() -> None:
    text = (
        'SERVICES AGREEMENT\n\nThis Agreement is made on May 2, 2016 between Kestrel Parts Inc. ("Supplier") '
        'and Lumen Goods LLC ("Customer").\n\n'
        "12. Governing law and jurisdiction\n\n"
        "12.1 This agreement and any dispute arising out of it shall be governed by and construed in "
        "accordance with Oregon law.\n\n"
        "12.2 The courts of Oregon shall have exclusive jurisdiction.\n\n"
        "13. Notices\n\n13.1 Notices shall be in writing.\n"
    )
    assert _extracted(text, "governing_law")["law"] == "Oregon"


def test_the_initial_term_is_the_months_between_the_quoted_start_and_end_dates() -> None:
    from citationgate.evaluation.facts_eval import read_facts

    text = (
        'SERVICES AGREEMENT\n\nThis Agreement is entered into on February 1, 2021 (the "Effective Date") '
        'between Kestrel Parts Inc. ("Supplier") and Lumen Goods LLC ("Customer").\n\n'
        "2. Term. This Agreement shall commence on the Effective Date and shall terminate on July 31, 2022, "
        "unless terminated earlier.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    assert read_facts(result)["initial_term_months"] == 18


# ---------------------------------------------------------------------------------------------- audit classes
# Each class below was found by an independent auditor reading real reviews; the snippets are written here.

SERVICES = (
    'SERVICES AGREEMENT\n\nThis Agreement is made on May 2, 2016 between Kestrel Parts Inc. ("Supplier") '
    'and Lumen Goods LLC ("Customer").\n\n'
)


def _finding(text: str, rule: str) -> tuple[str, dict[str, object]]:
    result = review(document_from_text(text), load_playbook("msa-customer"))
    f = next(f for f in result.findings if f.proposal.rule == rule)
    values = {k: v["value"] for k, v in (f.proposal.details.get("extracted") or {}).items()}
    return str(f.proposal.details.get("outcome")), values


def test_a_look_back_window_is_not_how_long_a_covenant_lasts() -> None:
    assert (
        _of_kind("hire any person employed by Supplier within six (6) months prior to the hiring", "period")
        == []
    )
    assert (
        _of_kind("anyone who was an employee during the preceding nine (9) months", "period", "months") == []
    )
    text = SERVICES + (
        "9. Non-Solicitation. For a period of twelve (12) months immediately following the termination of "
        "this "
        "Agreement, Customer shall not (a) solicit any employee of Supplier, or (b) hire any person employed "
        "by Supplier within six (6) months prior to such hiring.\n"
    )
    assert _finding(text, "non_solicitation")[1]["period_months"] == 12


def test_a_period_named_by_a_defined_term_is_read_from_its_definition() -> None:
    text = SERVICES + (
        '1. Definitions. "Restricted Period" shall mean the period of eighteen (18) months from the '
        "Termination Date.\n\n"
        "9. Non-Solicitation. Customer will not during the Restricted Period:\n\n"
        "(a) solicit or entice away any employee of Supplier with whom it dealt in the twelve (12) months "
        "prior to the Termination Date;\n\n(b) disparage Supplier.\n"
    )
    assert _finding(text, "non_solicitation")[1]["period_months"] == 18


def test_how_long_warranties_survive_is_not_the_term() -> None:
    survival = (
        "The representations and warranties of the parties shall terminate one year from the Closing Date."
    )
    assert _of_kind(survival, "term", "months") == []
    assert _of_kind("The term of this Agreement is three (3) years. " + survival, "term", "months") == [36]


def test_a_year_to_year_continuation_is_not_the_initial_term() -> None:
    cadence = "This Agreement shall continue in effect from year to year until terminated by either party."
    assert _of_kind(cadence, "term", "months") == []
    assert _of_kind(cadence, "period", "months") == [12]  # it is how the agreement renews
    text = SERVICES + (
        "3. Term. This Agreement shall continue in effect from year to year until terminated by either party "
        "on "
        "not less than sixty (60) days' written notice.\n"
    )
    _, values = _finding(text, "expiration_date")
    assert values.get("until_terminated") is True and "term_months" not in values


def test_part_of_the_price_payable_on_order_is_not_a_clean_payment_term() -> None:
    text = SERVICES + (
        "6. Payment. Terms of payment will be 1/3 upon placement of order and 2/3 balance net thirty (30) "
        "days. "
        "Customer may withhold any amount disputed in good faith.\n"
    )
    outcome, values = _finding(text, "payment")
    assert values["payment_days"] == 30 and values["upfront"] is True
    assert outcome != "standard"
    clean = text.replace("1/3 upon placement of order and 2/3 balance ", "")
    outcome, values = _finding(clean, "payment")
    assert (outcome, values["payment_days"], values["upfront"]) == ("standard", 30, False)


def test_a_date_written_into_a_blank_is_read_whole() -> None:
    assert _dates("shall be effective as of _Dec. 8, 2005 (hereinafter") == [("2005-12-08", "Dec. 8, 2005")]
    assert _dates("is made and effective as of1 August 2019, by") == [("2019-08-01", "1 August 2019")]
    text = (
        'This Agreement shall be effective as of _Dec. 8, 2005 (hereinafter "Effective Date") between '
        'Kestrel Parts Inc. ("Supplier") and Lumen Goods LLC ("Customer").\n\n1. Services. Supplier shall '
        "provide the "
        "services.\n"
    )
    _, values = _finding(text, "effective_date")
    assert values["date"] == values["defined_date"] == "2005-12-08"


def test_confidentiality_that_lasts_while_the_information_is_not_public_has_no_end_date() -> None:
    text = SERVICES + (
        "8. Confidentiality. Customer shall hold the Confidential Information of Supplier in strict "
        "confidence. This obligation will endure so long as the Confidential Information does not become "
        "part of the public domain. Customer shall return all Confidential Information on termination.\n"
    )
    assert _finding(text, "confidentiality")[1]["indefinite"] is True


def test_a_right_to_terminate_after_a_prolonged_force_majeure_in_its_own_paragraph() -> None:
    text = SERVICES + (
        "14. Force Majeure. Neither party shall be liable for any failure to perform caused by events beyond "
        "its reasonable control, including fire, flood or war.\n\n"
        "If the event of force majeure continues for longer than sixty (60) days, the party not so affected "
        "shall have the right to terminate this Agreement by written notice.\n\n"
        "15. Termination for breach. Either party may terminate this Agreement if the other party's breach "
        "continues for ninety (90) days after notice.\n"
    )
    _, values = _finding(text, "force_majeure")
    assert values["termination_right"] is True and values["terminate_after_days"] == 60
    # a breach clause elsewhere is not read as the force majeure's termination right
    alone = (
        text.split("If the event")[0]
        + "15. Termination for breach."
        + text.split("15. Termination for breach.")[1]
    )
    assert "terminate_after_days" not in _finding(alone, "force_majeure")[1]


# ---------------------------------------------------------------------------------------------- dates, again


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("is entered into as of 12-23-2019 (the", "2019-12-23"),  # month first, with dashes
        ("shall expire upon (b) the last day in February, 2023 (such", "2023-02-28"),
        ("effective as of June , 2010 (the", "2010-06"),  # the blank for the day left out altogether
        ("AGREEMENT made as of  , 2013, between", "2013"),
        ("is made and effective as of [·], 2019 (the", "2019"),
    ],
)
def test_more_forms_contracts_write_dates_in(text: str, value: str) -> None:
    assert [v for v, _ in _dates(text)] == [value]


def test_an_anniversary_whose_ordinal_text_extraction_split_is_still_the_term() -> None:
    text = (
        "shall continue in effect until the earlier of (a) the fifth (5t h) anniversary of the Effective Date"
    )
    assert _of_kind(text, "term", "months") == [60]


def test_another_documents_date_is_not_this_agreements() -> None:
    text = (
        'SUPPLY AGREEMENT AMENDMENT\n\nThis First Amendment ("Amendment") to the Supply Agreement dated '
        "April 1, "
        '2017 between Kestrel Parts Inc. ("Supplier") and Lumen Goods LLC ("Customer") (the "Agreement") is '
        "made this 22 day of June 2018.\n\n"
        "1. Prices. The prices in Exhibit D are replaced.\n\n"
        "9. Entire agreement. This Amendment supersedes the term sheet dated as of February 9, 2016 between "
        "the parties.\n"
    )
    assert _extracted(text, "agreement_date")["date"] == "2018-06-22"


def test_the_opening_sentence_dates_the_agreement_past_a_partys_inc() -> None:
    text = (
        "PROMOTION AGREEMENT\n\nTHIS AGREEMENT is entered into by and among KESTREL PARTS, INC. "
        '("Kestrel") and LUMEN GOODS, INC. ("Lumen"), effective as of June 1, 1998.\n\n'
        "1. Services. Kestrel shall promote Lumen's goods.\n\n"
        "IN WITNESS WHEREOF the parties have signed this Agreement.\n\n"
        "Date: December 16, 1998        By: /s/ A. Person\n\n"
        "Date: December 16, 1998        By: /s/ B. Person\n"
    )
    assert _extracted(text, "agreement_date")["date"] == "1998-06-01"


def test_the_date_a_contract_defines_as_its_expiry() -> None:
    text = (
        'SERVICES AGREEMENT\n\nThis Agreement is made on May 2, 2016 between Kestrel Parts Inc. ("Supplier") '
        'and Lumen Goods LLC ("Customer").\n\n'
        '1. Definitions. "Expiration Date" means March 31, 2020.\n\n'
        "3. Term. This Agreement shall commence on October 1, 2019 and continue until the Expiration Date.\n"
    )
    assert _extracted(text, "expiration_date")["defined_date"] == "2020-03-31"


def test_the_rules_cure_period_not_its_exceptions() -> None:
    text = SERVICES + (
        "12. Termination for breach. Either party may terminate this Agreement for material breach by the "
        "other upon written notice. The breaching party will have thirty (30) days from receipt of notice to "
        "cure such breach, except for nonpayment by Customer, which must be cured within seven (7) business "
        "days from receipt of notice.\n"
    )
    assert _finding(text, "termination_for_cause")[1]["cure_days"] == 30


def test_a_force_majeure_clause_that_never_says_force_majeure() -> None:
    text = SERVICES + (
        "14. Delays. Neither party shall be deemed in default if its performance is delayed or becomes "
        "impossible by reason of any act of God, war, fire or flood.\n"
    )
    outcome, _ = _finding(text, "force_majeure")
    assert outcome not in ("missing", "not_applicable")


# ---------------------------------------------------------------------------------------------- anchors


def test_a_start_anchor_in_a_playbook_pattern_is_the_start_of_each_passage() -> None:
    """The scanner searches every passage: `^` (and `\\A`) anchor on the passage, not on the document's first
    character, exactly as they do when a field's cues are read from a passage's text."""
    import re

    from playbooks.passages import Passages
    from playbooks.scan import Scanner

    text = "Preamble sentence one.\n\nWHEREAS the parties wish to agree.\n\nThe parties agree as follows."
    scan = Scanner(Passages(text))
    items = scan.passages.items
    for rx in (
        re.compile(r"^\s*WHEREAS\b"),
        re.compile(r"\A\s*whereas", re.I),
        re.compile(r"(?:^|x)WHEREAS"),
    ):
        found = [text[items[i].start : items[i].end] for i in scan.passages_matching(rx)]
        assert found == ["WHEREAS the parties wish to agree."], rx.pattern
    # unanchored patterns still find their words anywhere in a passage
    assert len(scan.passages_matching(re.compile(r"parties"))) == 2


def test_a_date_on_a_line_of_its_own_after_the_title_dates_the_agreement() -> None:
    text = (
        "SUPPLY AGREEMENT\n\nJune 1, 2005\n\n"
        'This Agreement is between Kestrel Parts Inc. ("Supplier") and Lumen Goods LLC ("Customer").\n\n'
        "1. Services. The Supplier shall provide the Services.\n"
    )
    assert _extracted(text, "agreement_date")["date"] == "2005-06-01"


# ------------------------------------------------------------------------------------------- term and dates
# Classes of misreading found in the misses of `citationgate eval answers`; the snippets are written here.


@pytest.mark.parametrize(
    "text",
    [
        "Each party shall, during the Term and for a period of one (1) year thereafter, keep accurate books.",
        "Supplier shall keep spare parts available for a period of three (3) months after the termination.",
        "Licensee may sell off its stock for six (6) months following the expiration of this Agreement.",
    ],
)
def test_a_period_that_runs_after_the_term_ends_is_not_the_term(text: str) -> None:
    assert _of_kind(text, "term", "months") == []
    assert _of_kind("The term of this Agreement is two (2) years. " + text, "term", "months") == [24]


@pytest.mark.parametrize(
    ("term", "months"),
    [
        ("The term of this Agreement is twenty-four (24) months.", 24),
        ("This Agreement shall come into force on the Effective Date and remain valid for 1 year.", 12),
        ("This Agreement shall remain effective for ten (10) years unless terminated earlier.", 120),
        ("The term of the Licence shall be five (5) years, commencing on the Effective Date.", 60),
        ("The Term shall begin on the Effective Date and shall end fifteen months therefrom.", 15),
        (
            "This Agreement shall remain in full force until one (1) year subsequent to the Effective Date.",
            12,
        ),
        ("The Term means the period terminating on the eighth anniversary of the Effective Date.", 96),
    ],
)
def test_the_term_in_more_of_the_words_contracts_use(term: str, months: int) -> None:
    assert _extracted(SERVICES + "2. Term. " + term + "\n", "expiration_date")["term_months"] == months


def test_a_proviso_is_read_as_an_exception_to_the_rule_it_follows() -> None:
    text = SERVICES + (
        "2. Term. This Agreement shall expire on December 31, 2019; provided, however, that the licences "
        "granted for the Pilot Products shall continue in full force and effect until March 31, 2021.\n"
    )
    assert _extracted(text, "expiration_date")["expires_on"] == "2019-12-31"
    text = SERVICES + (
        "2. Term. The initial term of this Agreement will be ten (10) years from the Effective Date, "
        "provided "
        "that at any time after the 7th anniversary of such date either party may terminate on notice.\n"
    )
    assert _extracted(text, "expiration_date")["term_months"] == 120


@pytest.mark.parametrize(
    "text",
    [
        '"Contract Period" shall mean the period commencing on January 1, 2018 and concluding June 30, 2021.',
        "Expiration Date: June 30, 2021",
    ],
)
def test_an_end_date_concluding_or_given_on_a_label_line(text: str) -> None:
    values = _extracted(SERVICES + "2. Term. " + text + "\n", "expiration_date")
    assert "2021-06-30" in (values.get("expires_on"), values.get("defined_date"))


@pytest.mark.parametrize(
    "clause",
    [
        "This Agreement shall enter into force on the date of its signature by both Parties.",
        'This Agreement is effective as of the last date signed below (the "Effective Date").',
        "The Effective Date of this Agreement shall be the later of the dates of the signatures below.",
        "This Agreement shall become effective on the signing date.",
    ],
)
def test_an_agreement_that_takes_effect_on_signature_says_when_it_takes_effect(clause: str) -> None:
    text = SERVICES.replace("is made on May 2, 2016 ", "is made ") + "1. Effective Date. " + clause + "\n"
    assert _extracted(text, "effective_date").get("same_as_signing") is True


@pytest.mark.parametrize(
    ("line", "value"),
    [
        (
            "IN WITNESS WHEREOF, the undersigned execute this Agreement this 14t h day of February 2020.",
            "2020-02-14",
        ),
        ("Date: 4/28/2017", "2017-04-28"),
    ],
)
def test_a_date_given_only_where_the_agreement_is_signed_dates_it(line: str, value: str) -> None:
    text = (
        'SERVICES AGREEMENT\n\nThis Agreement is between Kestrel Parts Inc. ("Supplier") and Lumen Goods LLC '
        '("Customer").\n\n1. Services. The Supplier shall provide the Services.\n\n' + line + "\n"
    )
    assert _extracted(text, "agreement_date")["date"] == value


def test_an_end_date_a_day_either_side_of_the_answer_across_a_month_is_the_same_term() -> None:
    from citationgate.evaluation.cuad_answers_eval import _same_date

    assert _same_date("6/1/21", "2021-05-31") is True
    assert _same_date("6/1/21", "2021-05-30") is False
    assert _same_date("1/1/20", "2019-12-31") is True
    assert _same_date("[]/[]/[]", None) is None  # an answer redacted whole states no date to compare with


def test_a_default_read_from_a_numbered_passage_stands_on_its_quote_and_stays_in_the_finding() -> None:
    """A yes/no the whole contract is silent on is a reading of that silence; it was dropped from the finding
    whenever the passage it defaulted on began with a clause number the quote leaves out."""
    text = SERVICES + (
        "4. TERM AND RENEWAL.\n\n4.1 This Agreement may be extended for an additional one (1) year period by "
        "written agreement of the parties given at least sixty (60) days before the end of the term.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    f = next(f for f in result.findings if f.proposal.rule == "auto_renewal")
    auto = f.proposal.details["extracted"]["renews_automatically"]
    assert auto["value"] is False
    assert any(q.start <= auto["start"] and auto["end"] <= q.end for q in f.verified_quotes)
    assert text[auto["start"] : auto["end"]] == auto["text"]


@pytest.mark.parametrize(
    ("text", "months"),
    [
        (
            "The term shall be two (2) years from the Effective Date with automatic annual renewals.",
            12,
        ),
        (
            "This Agreement is for thirty (30) years and shall automatically renew from year-to-year.",
            12,
        ),
    ],
)
def test_a_renewal_cadence_beside_the_initial_term_is_the_renewal_length(text: str, months: int) -> None:
    assert _extracted(SERVICES + "2. Term. " + text + "\n", "auto_renewal")["renewal_months"] == months


@pytest.mark.parametrize(
    ("clause", "days"),
    [
        (
            "This Agreement shall be automatically renewed for successive one (1) year terms unless either "
            "party gives notice of non-renewal no later than ninety (90) days prior the end of the term.",
            90,
        ),
        (
            "This Agreement shall be subject to an automatic extension for consecutive one (1) year periods, "
            "unless terminated upon thirty (30) days' written notice by either party.",
            30,
        ),
    ],
)
def test_notice_of_non_renewal_named_before_its_period_and_the_notice_that_stops_an_extension(
    clause: str, days: int
) -> None:
    assert _extracted(SERVICES + "2. Term. " + clause + "\n", "auto_renewal")["notice_days"] == days


def test_a_unit_defined_where_it_is_used_is_still_the_unit() -> None:
    """'within five "Business Days" (being any day other than a Saturday …)': five working days, a week."""
    for text in (
        'within five "Business Days" (being any day other than a Saturday)',
        "within five “Business Days”",
    ):
        (h,) = find_durations(text)
        assert h.value == 7 and text[h.start : h.end].startswith("five")
