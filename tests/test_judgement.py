"""The judgement's footing: who is who, what kind of contract, and verdicts resting only on what was read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citationgate.cli import app
from citationgate.evaluation.facts_eval import evaluate_facts, read_facts
from citationgate.review import review
from playbooks import load_playbook
from playbooks.contract_type import classify
from playbooks.library import document_from_text
from playbooks.parties import read_parties, resolve_roles

CONSULTING = (
    "\n\n".join(
        [
            "CONSULTING AGREEMENT",
            (
                'This Consulting Agreement ("Agreement") is made as of May 1, 2019 by and '
                "between Driven Co., "
                'Inc. ("Company"), a Nevada corporation, and TruckThat LLC ("Consultant"). '
                "WHEREAS, the Company "
                "desires to retain Consultant to perform consulting services for the Company."
            ),
            (
                "1. Services. Consultant shall provide the consulting services described in Exhibit A to the "
                "Company."
            ),
            (
                "2. Compensation. The Company shall pay Consultant a monthly fee of $5,000 "
                "within thirty (30) "
                "days of invoice."
            ),
            (
                "3. Termination. Each of the Company and the Consultant may terminate this "
                "Agreement at any time "
                "without cause by giving thirty (30) days' written notice to the other party."
            ),
            (
                "4. Return of Materials. Upon termination, Consultant shall promptly deliver to "
                "the Company all "
                "of the Company's materials and Confidential Information."
            ),
            "5. Governing Law. This Agreement shall be governed by the laws of the State of New York.",
            "The Company and the Consultant have signed this Agreement.",
        ]
    )
    + "\n"
)

LICENCE = (
    "\n\n".join(
        [
            "TRADEMARK LICENSE AGREEMENT",
            (
                'This Trademark License Agreement is made between Alpha Marks Inc. ("Licensor") '
                "and Beta Goods "
                'LLC ("Licensee"). Licensor hereby grants Licensee a licence to use the marks. '
                "Licensee shall pay"
                " Licensor a royalty. The Licensor may audit the Licensee's records."
            ),
        ]
    )
    + "\n"
)


def test_parties_are_read_with_their_defined_terms() -> None:
    parties = read_parties(CONSULTING)
    assert [p.defined_as for p in parties] == ["Company", "Consultant"]
    assert parties[0].name.startswith("Driven Co.")
    assert CONSULTING[parties[0].start : parties[0].end] == "Company"


def test_us_is_inferred_from_what_each_party_does_and_the_basis_quotes_it() -> None:
    """The customer is the party that pays and receives the services, whatever it is called."""
    roles = resolve_roles(CONSULTING, read_parties(CONSULTING), "customer")
    assert roles.resolved and roles.via == "contract"
    assert roles.us_terms == ("Company",) and roles.them_terms == ("Consultant",)
    assert "Company shall pay" in roles.basis


def test_we_names_us_and_an_unknown_name_leaves_roles_unresolved() -> None:
    parties = read_parties(CONSULTING)
    named = resolve_roles(CONSULTING, parties, "customer", we="consultant")
    assert named.via == "we" and named.us_terms == ("Consultant",)
    unknown = resolve_roles(CONSULTING, parties, "customer", we="Acme")
    assert not unknown.resolved and "Acme" in unknown.basis and "“Company”" in unknown.basis


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (CONSULTING, "consulting"),
        (LICENCE, "license"),
        ("MASTER SERVICES AGREEMENT\n\nThe Supplier shall provide the Services.", "services"),
        ("DISTRIBUTOR AGREEMENT\n\nSierra appoints Envision as its exclusive distributor.", "distribution"),
        ("SOFTWARE LICENSE AND MAINTENANCE AGREEMENT\n\nLicensor grants a licence.", "license"),
    ],
    ids=["consulting", "trademark-licence", "msa", "distributor", "licence-before-maintenance"],
)
def test_contract_type_from_the_title(text: str, kind: str) -> None:
    assert classify(text).type == kind


def _findings(text: str, *, we: str | None = None) -> dict[str, dict[str, object]]:
    result = review(document_from_text(text), load_playbook("msa-customer"), we=we)
    return {
        str(f.proposal.rule): {"outcome": f.proposal.details.get("outcome"), "finding": f}
        for f in result.findings
    }


def test_each_of_the_parties_may_terminate_binds_both_by_their_defined_terms() -> None:
    """'Each of the Company and the Consultant may terminate' is mutual, not 'only the supplier'."""
    result = review(document_from_text(CONSULTING), load_playbook("msa-customer"))
    tfc = next(f for f in result.findings if f.proposal.rule == "termination_for_convenience")
    assert tfc.proposal.details["extracted"]["holder"]["value"] == "either"
    assert "only the supplier" not in tfc.proposal.claim
    facts = read_facts(result)
    assert sorted(facts["termination_for_convenience"]["parties"]) == ["Company", "Consultant"]
    assert facts["termination_for_convenience"]["notice_days"] == 30


def test_return_of_the_companys_materials_is_a_duty_to_return_our_data() -> None:
    result = review(document_from_text(CONSULTING), load_playbook("msa-customer"))
    assert read_facts(result)["return_of_data_on_termination"] is True


def test_unresolved_roles_keep_role_dependent_rules_from_a_verdict() -> None:
    """Nobody can be bound to 'us' in a bare licence: role-dependent rules say why, never 'no'."""
    result = review(
        document_from_text(LICENCE.replace("Licensee shall pay Licensor a royalty. ", "")),
        load_playbook("msa-customer"),
        we="Nobody",
    )
    assert result.roles is not None and not result.roles.resolved
    for f in result.findings:
        weak = f.proposal.details.get("weak_links") or []
        if any("who is us" in w for w in weak):
            assert f.proposal.details["outcome"] not in ("unacceptable", "standard", "fallback")
            assert f.supervision.value != "standard"


def test_rules_that_do_not_fit_the_contract_type_are_not_applicable_and_the_mismatch_is_stated() -> None:
    result = review(document_from_text(LICENCE), load_playbook("msa-customer"))
    assert result.contract_type is not None and result.contract_type.type == "license"
    assert result.fit["fits"] is False and "licen" in str(result.fit["warning"])
    assert "service_levels" in result.not_applicable
    data = result.to_dict()
    assert data["document"]["type"]["type"] == "license" and data["fit"]["fits"] is False
    assert "fit_warning" in data["summary"]


def test_a_red_line_on_unbound_roles_is_not_drawn() -> None:
    """'Only the supplier may terminate for breach', read with no parties bound (no preamble), is
    needs_review with the reason, not the red line."""
    text = (
        "MASTER SERVICES AGREEMENT\n\n14. Termination\n\nThe Supplier may terminate this Agreement if the "
        "Customer fails to pay within thirty (30) days of notice.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    tfb = next(f for f in result.findings if f.proposal.rule == "termination_for_cause")
    assert tfb.proposal.details["outcome"] == "needs_review"
    assert "who is us is not resolved" in str(tfb.proposal.details["reason"])
    assert tfb.supervision.value != "standard"


def test_review_cli_states_who_is_us_and_takes_we(tmp_path: Path) -> None:
    contract = tmp_path / "consulting.txt"
    contract.write_text(CONSULTING, encoding="utf-8")
    runner = CliRunner()
    table = runner.invoke(app, ["review", str(contract)])
    assert table.exit_code == 0, table.output
    assert "Parties: “Company” is us" in table.output
    js = runner.invoke(app, ["review", str(contract), "--we", "Consultant", "--format", "json"])
    assert js.exit_code == 0, js.output
    data = json.loads(js.stdout)
    assert data["roles"]["via"] == "we" and data["roles"]["us"][0]["defined_as"] == "Consultant"
    assert data["document"]["type"]["type"] == "consulting"


def test_eval_facts_scores_a_data_root_of_the_shared_shape(tmp_path: Path) -> None:
    """Another data root of the same shape works: facts/<id>.json beside cuad/texts/<id>.txt."""
    (tmp_path / "cuad" / "texts").mkdir(parents=True)
    (tmp_path / "facts").mkdir()
    (tmp_path / "cuad" / "texts" / "c1.txt").write_text(CONSULTING, encoding="utf-8")
    facts = {
        "governing_law": {"value": "New York", "quotes": [], "uncertain": False},
        "termination_for_convenience": {
            "value": {"parties": ["Company", "Consultant"], "notice_days": 30},
            "quotes": [],
            "uncertain": False,
        },
        "payment_days": {"value": 30, "quotes": [], "uncertain": False},
        "non_compete": {"value": True, "quotes": [], "uncertain": True},  # uncertain: left out
        "exclusivity": {"value": True, "quotes": [], "uncertain": False},  # the review cannot read this
    }
    (tmp_path / "facts" / "c1.json").write_text(json.dumps({"id": "c1", "facts": facts}), encoding="utf-8")
    out = evaluate_facts(tmp_path)
    assert out["total"] == 4 and out["right"] == 3
    assert out["misses"] == [{"id": "c1", "fact": "exclusivity", "gold": True, "review": False}]
    result = CliRunner().invoke(app, ["eval", "facts", "--data", str(tmp_path), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["facts"]["right"] == 3


def test_eval_facts_without_a_facts_folder_is_one_error_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["eval", "facts", "--data", str(tmp_path)])
    assert result.exit_code == 3
    assert "contract facts not found" in result.output


def test_the_ledger_pass_flags_a_value_the_claim_states_but_its_quotes_do_not_contain() -> None:
    """Our own claim checked like an agent's: "term months: 2" read from "sixty (60) days" is a weak link."""
    from playbooks.outcome import ClauseOutcome, QuoteRef

    text = (
        "MASTER SERVICES AGREEMENT\n\n5. Term. Either party may end this Agreement on sixty (60) days' "
        "notice.\n"
    )
    doc = document_from_text(text)
    start = text.index("Either")
    quote = QuoteRef(text=text[start : text.index("\n", start)], start=start, end=text.index("\n", start))
    outcome = ClauseOutcome(
        rule="expiration_date",
        title="Term",
        outcome="standard",
        severity="info",
        claim="Term meets the standard position — term months: 2 (“sixty (60) days”).",
        quotes=(quote,),
    )
    result = review(doc, load_playbook("msa-customer"), outcomes=[outcome])
    (finding,) = result.findings
    assert finding.proposal.details["ledger"] == {"status": "unsupported", "words": ["2"]}
    assert finding.supervision.value == "elevated"
    assert any("'2'" in w for w in finding.proposal.details["weak_links"])


def test_eval_answers_compares_values_with_cuads_normalised_answers(tmp_path: Path) -> None:
    """A CUAD-shaped root: the governing law and the dates the review reads are scored against the answers."""
    from citationgate.evaluation.cuad_answers_eval import evaluate_cuad_answers

    (tmp_path / "cuad" / "texts").mkdir(parents=True)
    text = (
        "MASTER SERVICES AGREEMENT\n\nThis Agreement is made as of May 1, 2019 between "
        'Alpha Inc. ("Customer") '
        'and Beta LLC ("Supplier").\n\n9. Governing Law. This Agreement shall be governed by the laws of the '
        "State of New York.\n"
    )
    (tmp_path / "cuad" / "texts" / "c1.txt").write_text(text, encoding="utf-8")
    cats = {
        "Governing Law": {"is_impossible": False, "answer": "New York", "spans": []},
        "Agreement Date": {"is_impossible": False, "answer": "5/1/19", "spans": []},
        "Renewal Term": {"is_impossible": False, "answer": "until terminated", "spans": []},
    }
    rec = {"id": "c1", "text_file": "texts/c1.txt", "categories": cats}
    (tmp_path / "cuad" / "annotations.jsonl").write_text(json.dumps(rec) + "\n", encoding="utf-8")
    out = evaluate_cuad_answers(tmp_path)["categories"]
    assert out["Governing Law"] == {"right": 1, "scored": 1, "unscored": 0, "accuracy": 1.0}
    assert out["Agreement Date"]["right"] == 1
    assert out["Renewal Term"]["unscored"] == 1  # an answer in a form the review does not read is not guessed


def test_a_federal_courts_name_is_not_the_venue() -> None:
    """'United States District Court for the Eastern District of Virginia' sits in Virginia."""
    from playbooks.extract import find_jurisdictions

    text = "the United States District Court for the Eastern District of Virginia"
    assert [h.value for h in find_jurisdictions(text)] == ["Virginia"]


def test_a_partys_name_is_not_cut_at_the_and_inside_england_and_wales() -> None:
    text = (
        "THIS AGREEMENT is made between NORTHWIND DATA LIMITED, a company incorporated in England and Wales "
        'with company number 1234 (the "Supplier"), and CALDER FOODS LIMITED, a company incorporated in '
        'England and Wales (the "Customer"). The Supplier shall provide the Services. The Customer shall pay.'
    )
    assert [(p.defined_as, p.name) for p in read_parties(text)] == [
        ("Supplier", "NORTHWIND DATA LIMITED"),
        ("Customer", "CALDER FOODS LIMITED"),
    ]


def test_a_defined_term_after_referred_to_as_with_a_colon_is_read() -> None:
    text = (
        'This Agreement is made between "Northwind Hosting AG", a company incorporated under the laws of '
        'Switzerland, hereinafter referred to as: "NORTHWIND" and Calder Mobile B.V., a company incorporated '
        'under the laws of the Netherlands, hereinafter referred to as: "Calder". WHEREAS NORTHWIND wishes '
        "to use the network of Calder. NORTHWIND shall pay Calder the fees. Calder shall host NORTHWIND."
    )
    assert [(p.defined_as, p.name) for p in read_parties(text)] == [
        ("NORTHWIND", "Northwind Hosting AG"),
        ("Calder", "Calder Mobile B.V."),
    ]


def test_an_english_preambles_unquoted_terms_name_the_parties() -> None:
    text = (
        "THIS AGREEMENT is made on 1 October 2019\n\nBETWEEN: (1) NORTHWIND 2005 LIMITED (registered number "
        "01003653) whose registered office is at 1 High Street, London (the Company) (2) JANE SMITH (the "
        "Executive).\n\nIT IS AGREED as follows: The Company shall employ the Executive. The Executive shall "
        "serve the Company. The Company shall pay the Executive a salary."
    )
    assert [(p.defined_as, p.name) for p in read_parties(text)] == [
        ("Company", "NORTHWIND 2005 LIMITED"),
        ("Executive", "JANE SMITH"),
    ]


def test_a_dashed_and_between_parties_starts_the_second_partys_name() -> None:
    text = (
        'B E T W E E N:\n  NORTHWIND COURIER LTD.    ("Northwind")    - and -    CALDER PARCELS LTD. a '
        'subsidiary of Calder Inc.    ("Calder")\n\nWHEREAS Northwind and Calder wish to cooperate. '
        "Northwind shall deliver. Calder shall collect."
    )
    assert [(p.defined_as, p.name) for p in read_parties(text)] == [
        ("Northwind", "NORTHWIND COURIER LTD."),
        ("Calder", "CALDER PARCELS LTD."),
    ]


def test_a_yes_no_the_clause_does_not_state_is_said_to_be_not_stated_not_shown_as_no() -> None:
    """Roles unbound, an audit clause that speaks of 'either party': the claim may not print
    'customer may audit: no (no wording found)' beside the weak link that says it is not stated."""
    text = (
        'COOPERATION AGREEMENT\n\nThis Agreement is made between Alpha Couriers Ltd. ("Alpha") and Beta '
        'Parcels Ltd. ("Beta"). Alpha and Beta wish to cooperate.\n\n14. Audit\n\n14.1 Either Party may, on '
        "thirty (30) days' notice, audit the records of the other Party relating to the charges under this "
        "Agreement, during normal business hours.\n\n15. Governing Law\n\nThis Agreement is governed by the "
        "laws of Ontario. Alpha shall pay Beta. Beta shall pay Alpha.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    unstated = [
        f
        for f in result.findings
        if "the clause does not state" in " ".join(f.proposal.details.get("weak_links") or [])
    ]
    assert any(f.proposal.rule == "audit_rights" for f in unstated)
    for f in unstated:
        assert "(no wording found)" not in f.proposal.claim
        assert "not stated" in f.proposal.claim


def test_a_mutual_subject_says_what_holds_of_each_side() -> None:
    """'A Party shall not … solicit' binds us as well as them, and 'either Party may audit' gives us the
    right: a mutual subject is read as each party, in a clause's locating words and its "yes" words."""
    text = (
        'SERVICES AGREEMENT\n\nThis Agreement is made between Alpha Buyer Inc. ("Alpha") and Beta Works '
        'LLC ("Beta"). Beta shall provide the services to Alpha. Alpha shall pay Beta the fees within thirty '
        "(30) days of invoice.\n\n20.5 Non-solicitation. Without the prior written consent of the other "
        "Party, a Party shall not, during the term and for two (2) years after it, solicit or employ any "
        "employee of the other Party.\n\n21. Audit. Either Party "
        "may, on thirty (30) days' notice, audit the records of the other Party relating to the fees.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"), we="Alpha")
    assert result.roles is not None and result.roles.resolved
    by_rule = {f.proposal.rule: f for f in result.findings}
    solicit = by_rule["non_solicitation"].proposal
    assert solicit.details["extracted"]["binds_customer"]["value"] is True, solicit.claim
    audit = by_rule["audit_rights"].proposal
    assert audit.details["extracted"]["customer_may_audit"]["value"] is True, audit.claim


def test_a_value_beside_a_redaction_is_not_concluded() -> None:
    """A filed copy with the cap's amount removed ("up to a maximum of *** of the fees … in any period of
    12 calendar months"): the twelve months are not a cap of twelve months' fees; no position is concluded."""
    text = (
        'SERVICES AGREEMENT\n\nThis Agreement is made between Alpha Buyer Inc. ("Alpha") and Beta Works '
        'LLC ("Beta"). Beta shall provide the services to Alpha. Alpha shall pay Beta the fees.\n\n12. '
        "Limitation of Liability\n\n12.1 The total liability of either Party for damages shall be limited to "
        "a maximum of *** of the fees for all events in any period of twelve (12) months.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"), we="Alpha")
    cap = next(f for f in result.findings if f.proposal.rule == "limitation_of_liability").proposal
    assert cap.details["outcome"] == "needs_review", cap.claim
    assert any("redacted in this copy" in w for w in cap.details.get("weak_links") or []), cap.details


def test_terms_a_preamble_defines_that_name_no_party_are_not_parties() -> None:
    """A statute, a right granted or a recital's subject defined beside the parties is no party; a numbered
    list of parties still names them."""
    text = (
        'This Endorsement Agreement is made between Alpha Wellness, Inc. ("ALPHA") and Jane Brightwater '
        '("Talent"), under which ALPHA may use the name and likeness of Talent (the "Talent Attributes") '
        'as the Investment Company Act of 1940 (the "Act") allows.\n\nWHEREAS ALPHA sells vitamins.\n\n'
        "ALPHA shall pay Talent the fees. Talent shall appear at two events. ALPHA may use the Talent "
        "Attributes. The Act governs. The Act applies. The Talent Attributes are licensed.\n"
    )
    assert [p.defined_as for p in read_parties(text)] == ["ALPHA", "Talent"]
    listed = (
        'AGREEMENT between:\n1. Northwind Data Corp. ("Northwind"), and\n2. Calder Science Limited a company '
        'registered in England ("Calder").\n\nNorthwind shall host. Calder shall pay. Northwind shall '
        "report. Calder shall audit.\n"
    )
    assert [p.defined_as for p in read_parties(listed)] == ["Northwind", "Calder"]


def test_a_clause_binding_each_party_alike_is_judged_whoever_is_us() -> None:
    """Roles unresolved in a cooperation agreement: 'Either Party may audit the records of the other Party'
    gives a verdict that holds for either side, so who is us is not a weak link of it."""
    text = (
        'COOPERATION AGREEMENT\n\nThis Agreement is made between Alpha Couriers Ltd. ("Alpha") and Beta '
        'Parcels Ltd. ("Beta"). Alpha and Beta wish to cooperate.\n\n14. Audit\n\n14.1 Either Party may '
        "audit the records of the other Party relating to the charges under this Agreement.\n\n15. Governing "
        "Law\n\nThis Agreement is governed by the laws of Ontario. Alpha shall pay Beta. Beta shall pay "
        "Alpha.\n"
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    assert result.roles is not None and not result.roles.resolved
    audit = next(f for f in result.findings if f.proposal.rule == "audit_rights").proposal
    assert audit.details["outcome"] in ("standard", "fallback"), audit.claim
    assert not any("who is us" in w for w in audit.details.get("weak_links") or [])
