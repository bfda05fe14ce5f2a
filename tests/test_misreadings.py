"""Readings a finding audit found wrong, each as the general pattern behind it (never a document's text)."""

import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from citationgate.cli import app
from playbooks.kinds import duration_kind
from playbooks.parties.reading import read_parties
from playbooks.passages import Passages
from playbooks.periods import find_durations


def _review(tmp_path: Path, text: str, *extra: str) -> dict[str, Any]:
    path = tmp_path / "contract.txt"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["review", str(path), "--no-store", "--format", "json", *extra])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_a_lower_case_web_name_is_a_partys_defined_term() -> None:
    text = (
        'This Sponsorship Agreement (the "Agreement") is entered into by and between webco.com, inc., '
        'a Delaware corporation ("webco.com"), and Vitamin Stores, Inc., a New Jersey corporation '
        '("Sponsor").\n\n'
        "1. webco.com shall display the Sponsor's banner. Sponsor shall pay webco.com the fees. "
        "webco.com may end the display on notice. Sponsor may audit the display.\n"
    )
    parties = read_parties(text)
    assert [p.defined_as for p in parties] == ["webco.com", "Sponsor"]
    assert parties[0].name == "webco.com, inc."


def test_hours_are_never_read_as_months_or_years() -> None:
    text = "Photo shoots shall not exceed five (5) hours each in duration."
    assert find_durations(text, unit="months") == []
    assert find_durations(text, unit="years") == []
    (h,) = find_durations("notice of forty-eight (48) hours", unit="days")
    assert h.value == 2  # hours still count in days


def test_a_window_from_a_persons_leaving_is_a_look_back() -> None:
    text = (
        "During the Restricted Period, the Seller shall not hire any employee who has left the employ of "
        "the Buyer if such hiring is proposed to occur within one year after the termination of such "
        "employee's employment."
    )
    at = text.index("one year")
    assert duration_kind(text, at, at + len("one year")) == "lookback"
    plain = "The Seller shall not solicit any employee of the Buyer for one year after this Agreement ends."
    at = plain.index("one year")
    assert duration_kind(plain, at, at + len("one year")) is None


POINTER = (
    'SERVICES AGREEMENT\n\nThis Services Agreement is made between Acme Corp ("Customer") and Beta LLC '
    '("Supplier").\n\n1. Services. Supplier shall provide the services to Customer.\n\n'
    "2. Fees. Customer shall pay Supplier the fees within thirty (30) days of invoice.\n\n"
    "9. CONFIDENTIAL INFORMATION\n\nBoth parties shall sign a new Confidentiality and Non-Disclosure "
    "Agreement "
    '(the "New NDA") and both parties shall comply with any terms and conditions stipulated in the New NDA '
    "with respect to any confidential information disclosed by the other party hereunder.\n"
)
OWN_CLAUSE = (
    "9A. Each party shall keep the other's Confidential Information in strict confidence and shall not "
    "disclose it to any third party; on termination each party shall return or destroy all Confidential "
    "Information of the other, and this clause survives termination without limit.\n"
)


def test_a_confidentiality_clause_that_only_points_to_an_nda_is_referenced_not_provided(
    tmp_path: Path,
) -> None:
    found = {f["rule"]: f for f in _review(tmp_path, POINTER)["findings"]}["confidentiality"]
    assert found["outcome"] == "referenced_not_provided"
    (cite,) = found["citations"]
    assert POINTER[cite["start"] : cite["end"]] == cite["quote"] and "New NDA" in cite["quote"]


def test_a_contracts_own_confidentiality_clause_beside_the_pointer_is_judged(tmp_path: Path) -> None:
    found = {f["rule"]: f for f in _review(tmp_path, POINTER + "\n" + OWN_CLAUSE)["findings"]}[
        "confidentiality"
    ]
    assert found["outcome"] != "referenced_not_provided"
    assert any(
        "strict confidence" in c["quote"] or "return or destroy" in c["quote"] for c in found["citations"]
    )


def test_a_window_named_a_period_preceding_is_a_look_back() -> None:
    text = "hire any person who is, or within the six month period preceding such activity was, an employee"
    at = text.index("six month")
    assert duration_kind(text, at, at + len("six month")) == "lookback"


def test_a_page_break_inside_a_sentence_does_not_cut_the_passage() -> None:
    text = (
        "9.5 Jurisdiction and venue shall exclusively lie in the\n\n\n\n\nstate and federal courts "
        "situate in Broward County, Florida.\n\n9.6 No party may assign.\n\nTERM\n\nthe heading above "
        "stands alone."
    )
    items = [text[p.start : p.end] for p in Passages(text).items]
    assert items[0].startswith("9.5 ") and items[0].endswith("Broward County, Florida.")
    assert "9.6 No party may assign." in items and "TERM" in items


def test_a_stray_full_stop_between_month_and_year_ends_no_passage() -> None:
    text = 'This Agreement is made and entered into this 16 day of August. 2012 (the "Effective Date").'
    assert [text[p.start : p.end] for p in Passages(text).items] == [text]


def test_parties_listed_after_the_following_parties() -> None:
    text = (
        'THIS ADDENDUM ("Addendum") is made between the following parties: Zebra Tech International, LLC, '
        'with an office at 3 Overlook Point ("Zebra");\n\nAND\n\nScanSource, Inc., a company incorporated in '
        'South Carolina ("ScanSource").\n\nZebra shall sell. ScanSource shall pay Zebra. Zebra may end it.\n'
    )
    assert [p.name for p in read_parties(text)] == ["Zebra Tech International, LLC", "ScanSource, Inc."]


def test_the_forum_beside_the_governing_law_is_the_venue(tmp_path: Path) -> None:
    text = (
        'SERVICES AGREEMENT\n\nThis Agreement is made between Acme Corp ("Customer") and Beta LLC '
        '("Supplier").\n\n1. Supplier shall provide the services. Customer shall pay Supplier the fees.'
        "\n\n8. Disputes. Any "
        "dispute shall be settled by arbitration. Any such arbitration shall be conducted in accordance with "
        "the rules of the American Arbitration Association.\n\n9. This Agreement shall be governed by the "
        "laws of England and Wales. Jurisdiction and venue for any legal proceedings arising out of this "
        "Agreement shall exclusively lie in the courts of England and Wales.\n"
    )
    found = {f["rule"]: f for f in _review(tmp_path, text)["findings"]}["dispute_resolution"]
    venue = found["extracted"]["venue"]
    assert "England" in str(venue["value"]) and text[venue["start"] : venue["end"]] == venue["text"]


def test_a_convenience_limb_beside_a_breach_limb_is_termination_for_convenience(tmp_path: Path) -> None:
    text = (
        'MARKETING AGREEMENT\n\nThis Agreement is made between Acme Corp ("Company") and Beta LLC '
        '("Supplier").\n\n1. Supplier shall provide the marketing services. Company shall pay Supplier '
        "the fees.\n\n"
        '4. Term and Termination. The term of this Agreement (the "Term") will begin on February 1, 1998 and '
        "end on the first anniversary of the date of this Agreement; provided that (a) either party may "
        "terminate this Agreement, effective at any time after the first three months of the Term, by giving "
        "30 days' written notice of termination to the other party, and (b) either party may terminate this "
        "Agreement at any time by giving written notice of termination to the other party, if the other "
        "party commits a material breach of its obligations hereunder that is not cured within 30 days after "
        "notice thereof from the non-breaching party.\n"
    )
    found = {f["rule"]: f for f in _review(tmp_path, text)["findings"]}
    assert "termination_for_convenience" in found  # located, not concluded absent
    cite = found["termination_for_convenience"]["citations"][0]
    assert "either party may terminate" in cite["quote"]


HEAD = (
    'SERVICES AGREEMENT\n\nThis Services Agreement is made between Acme Corp ("Party B") and Beta LLC '
    '("Party A").\n\n1. Services. Party A shall provide the services to Party B.\n\n'
    "2. Fees. Party B shall pay Party A the fees within thirty (30) days of invoice.\n\n"
)


def _finding(tmp_path: Path, text: str, rule: str) -> dict[str, Any]:
    found: dict[str, Any] = {f["rule"]: f for f in _review(tmp_path, text)["findings"]}[rule]
    return found


def test_confidentiality_owed_by_us_alone_is_no_standard_position(tmp_path: Path) -> None:
    text = HEAD + (
        "9. Confidentiality. Party B shall protect and maintain the confidentiality of any and all "
        "confidential data received by Party B from Party A. Upon termination of this Agreement, Party B "
        "shall return the Confidential Information to Party A or destroy it.\n"
    )
    found = _finding(tmp_path, text, "confidentiality")
    assert found["outcome"] == "fallback"
    assert found["claim"].startswith("Confidentiality binds only us")
    bound = found["extracted"]["supplier_bound"]
    assert bound["value"] is False and text[bound["start"] : bound["end"]] == bound["text"]


def test_neither_party_may_and_a_passive_by_the_parties_bind_both_sides(tmp_path: Path) -> None:
    for clause in (
        "9. Confidentiality. Neither Party may disclose any confidential information of the other Party "
        "without the prior written consent of the other Party.\n",
        "9. Confidentiality. The terms of this Agreement shall be maintained by the Parties as confidential "
        "during the Term and thereafter.\n",
    ):
        found = _finding(tmp_path, HEAD + clause, "confidentiality")
        assert found["extracted"]["supplier_bound"]["value"] is True, clause
        assert not found["claim"].startswith("Confidentiality binds only us")


def test_a_ban_on_assigning_our_rights_with_their_consent_is_no_consent_the_supplier_needs(
    tmp_path: Path,
) -> None:
    text = HEAD + (
        "11. Assignment. This Agreement and all the rights and obligations of Party B hereunder shall not "
        "be assigned, pledged or sublicensed without the prior written consent of Party A.\n"
    )
    found = _finding(tmp_path, text, "assignment")
    assert found["outcome"] != "standard"
    assert found["extracted"]["customer_needs_consent"]["value"] is True
    assert found["extracted"].get("supplier_needs_consent", {}).get("value") is not True


def test_the_agent_of_a_passive_right_is_the_nearest_by() -> None:
    from playbooks.parties.holder import find_holders

    seg = (
        "If this Agreement is terminated by Service Provider upon a default by Service Recipient, Service "
        "Provider will not refund the prepaid Service Fee."
    )
    us, them = [re.compile(r"\bService\s+Recipient\b")], [re.compile(r"\bService\s+Provider\b")]
    (hit,) = find_holders(seg, 0, right=[r"terminat\w*"], us=us, them=them)
    assert hit.side == "them"
    joined = "This Agreement may be terminated by the Service Provider or by the Service Recipient on notice."
    (hit,) = find_holders(joined, 0, right=[r"terminat\w*"], us=us, them=them)
    assert hit.side == "both"


def test_a_blank_party_in_a_form_is_no_named_party_but_a_redaction_is_no_blank(tmp_path: Path) -> None:
    form = (
        "This Service Agreement is entered into as of [Date] by and between Lumen Consulting Co., Ltd. "
        '("Service Provider") and [•] ("Service Recipient").\n\n1. Service Provider shall provide the '
        "services to Service Recipient. Service Recipient shall pay Service Provider the fees.\n"
    )
    found = _finding(tmp_path, form, "parties")
    assert found["outcome"] == "needs_review"
    assert found["extracted"]["blank_party"]["value"] is True
    assert "the opening statement leaves a party blank" in found["claim"]
    named = form.replace("and [•] (", "and Kestrel Ltd (")
    redacted = named + "\n2. Each party shall [*] and [*] the other.\n"
    assert _finding(tmp_path, redacted, "parties")["outcome"] == "standard"


def test_a_definition_after_a_page_footer_date_is_still_a_definition() -> None:
    from playbooks.engine.context import _DEFINITION

    assert _DEFINITION.match('May 3, 2016 4.4 "Aggregate Consideration" means the amount equal to the sum')
    assert not _DEFINITION.match("May 3, 2016 the Company shall pay the fee.")


def test_a_definition_said_in_so_many_words_is_still_a_definition() -> None:
    from playbooks.engine.context import _DEFINITION

    assert _DEFINITION.match(
        'As used in this letter agreement (this "Agreement"), the term "Evaluation Material" means all of it'
    )
    assert _DEFINITION.match('The term "Effective Date" means the Closing Date.')
    assert not _DEFINITION.match(
        'As used in this Agreement, each party shall keep the "Evaluation Material" secret.'
    )


def test_recitals_close_where_the_parties_agree_to_terms_as_follows() -> None:
    from playbooks.engine.context import recitals_span

    text = (
        "COOPERATION AGREEMENT\n\nWHEREAS\n\n1. Party A runs a travel business.\n\n5. The Parties have "
        "entered into the Cooperation Agreement on September 17, 2008.\n\nThe Parties unanimously agree to "
        "amend and restate the Original Cooperation Agreement, which is amended and restated as "
        "follows:\n\n1. Business Cooperation\n"
    )
    span = recitals_span(text)
    assert span is not None
    assert text[span[0] :].startswith("WHEREAS") and "September 17, 2008" in text[span[0] : span[1]]
    assert "Business Cooperation" not in text[span[0] : span[1]]
