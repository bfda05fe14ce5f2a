"""Who a sentence speaks of when its grammar is not the plain "X shall": a list's lead-in naming every limb's
subject ("Each party: … (d) agrees not to contest …"), two parties joined by "both" ("The Client and the
Designer both agree not to …"), a passive right given "by notice of the terminating Party", a role's word
written before the name it stands for ("and (Client) Pelican Delivers Inc."), and the parties rule quoting the
opening statement rather than a later sentence "between" the two. Synthetic texts with invented names,
written for these tests (shaped on wave-15 audit findings)."""

from __future__ import annotations

import re

from citationgate.review import review
from playbooks import load_playbook
from playbooks.engine.context import _Context
from playbooks.engine.lead_in import lead_in_promisor
from playbooks.library import document_from_text
from playbooks.parties import read_parties
from playbooks.parties.holder import BOTH, find_holders, merge_holders
from tests.test_judgement_clauses import _by_rule, _value

HEAD = (
    'This Services Agreement is made between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. '
    '("Kestrix"). Kestrix shall provide the services to Norvale, and Norvale shall pay Kestrix the fees.'
)
TAIL = "Governing Law. This Agreement is governed by the laws of the State of New York."


def _contract(*body: str) -> str:
    return "\n\n".join(["SERVICES AGREEMENT", HEAD, *body, TAIL]) + "\n"


def test_a_limb_of_a_list_takes_the_subject_its_lead_in_names() -> None:
    text = _contract(
        "5.3 Trademarks. Each party: (a) will not create a composite mark involving a trademark of the other "
        "party; (b) will display notices indicating the ownership of the other party's trademarks; (c) "
        "acknowledges that its use of the other party's trademarks creates no right in it; (d) agrees not to "
        "do anything contesting or impairing the trademark rights of the other party; and (e) agrees to "
        "notify the other party of any unauthorized use."
    )
    cns = _by_rule(text)["covenant_not_to_sue"]
    assert _value(cns, "binds_customer") is True
    got = cns.proposal.details["extracted"]["binds_customer"]
    assert got["text"].startswith("Each party:")  # quoted from the words that name both sides
    assert text[got["start"] : got["end"]] == got["text"]


def test_two_parties_joined_by_both_are_bound_alike() -> None:
    text = _contract(
        "9. Non-Disparagement. Norvale and the Supplier both agree not to post on review websites any "
        "disparaging statements concerning each other or each other's employees."
    )
    nd = _by_rule(text)["non_disparagement"]
    assert _value(nd, "binds_customer") is True
    assert nd.proposal.details.get("outcome") == "standard"  # mutual, not "only we are bound"


def test_one_party_and_its_own_people_are_not_both_sides() -> None:
    text = _contract(
        "9. Non-Disparagement. Kestrix and its Affiliates shall not make any disparaging statement about "
        "Norvale."
    )
    nd = _by_rule(text)["non_disparagement"]
    assert _value(nd, "binds_customer") is not True


def test_a_passive_right_given_by_notice_of_the_terminating_party_is_held_by_both() -> None:
    us, them = [re.compile("Norvale")], [re.compile("Kestrix")]
    seg = (
        "This Agreement may be immediately terminated by notice of the terminating Party upon: (a) the other "
        "Party's material breach of this Agreement which it fails to cure within ten (10) days after notice."
    )
    got = merge_holders(find_holders(seg, 0, right=(r"termin(?:at|ab)\w*",), us=us, them=them))
    assert got is not None and got[0] == BOTH
    assert seg[got[1].start : got[1].end].startswith("may be immediately terminated by notice")


def test_termination_for_cause_beside_termination_without_cause_is_found() -> None:
    text = _contract(
        "11. Termination 11.1 TERMINATION WITHOUT CAUSE Either Party may terminate this Agreement at any "
        "time for any reason upon two weeks written notice to the other Party. 11.2 TERMINATION FOR CAUSE "
        "This "
        "Agreement may be immediately terminated by notice of the terminating Party upon: (a) the other "
        "Party's material breach of this Agreement and failure to cure such default within ten (10) calendar "
        "days after receipt of a notice of default from the terminating Party."
    )
    tfc = _by_rule(text)["termination_for_cause"]
    assert tfc.proposal.details.get("outcome") == "standard"
    assert _value(tfc, "holder") == "either"


def test_a_role_word_written_before_the_name_it_stands_for_is_a_party() -> None:
    text = (
        "SOFTWARE DEVELOPMENT AGREEMENT This Agreement is made December 3rd, 2018 by and between KESTRIX "
        "LLC, a Delaware limited liability company (Developer), and (Client) Norvale Deliveries Inc. for the "
        "performance of software development services.\n\n1. Services. Developer shall develop the software "
        "for Client. Client shall pay Developer the fees. Developer shall deliver the Deliverables to "
        "Client.\n"
    )
    got = [(p.defined_as, p.name) for p in read_parties(text)]
    assert got == [("Developer", "KESTRIX LLC"), ("Client", "Norvale Deliveries Inc.")]


def test_a_parenthesis_inside_a_name_is_not_read_as_a_role_before_a_name() -> None:
    text = (
        'This Agreement is made between Datec (PNG) LTD ("Datec") and the Bank of South Pacific Limited '
        '("BSP"). Datec shall provide the services to BSP. BSP shall pay Datec.\n'
    )
    assert [p.defined_as for p in read_parties(text)] == ["Datec", "BSP"]


def test_the_parties_rule_quotes_the_opening_statement_not_a_later_between() -> None:
    text = _contract(
        "7. Termination. This Agreement may be terminated as follows:\n\n(a) Upon the written agreement of "
        "both parties.\n\n(b) By Kestrix immediately if any agreement between Norvale and Visa (the "
        '"Network") is terminated.'
    )
    result = review(document_from_text(text), load_playbook("msa-customer"))
    parties = next(f for f in result.findings if f.proposal.rule == "parties")
    assert parties.proposal.details.get("outcome") == "standard"
    assert _value(parties, "first_party") == "Norvale Bank Ltd"
    quote = parties.citations[0].quote
    assert quote is not None and parties.citations[0].verified
    assert text[quote.start : quote.end].startswith("This Services Agreement is made between")


def test_an_exclusive_appointment_we_make_is_an_exclusive_right_we_grant() -> None:
    text = _contract(
        "3. Appointment. In return for the exclusive appointment of Kestrix by Norvale to sell its products "
        "in Nevada, Kestrix agrees not to sell any competing products in Nevada."
    )
    ex = _by_rule(text)["exclusivity"]
    assert _value(ex, "we_grant_exclusive") is True


def test_a_numbered_item_under_a_lead_in_ending_in_a_dash_is_that_partys_promise() -> None:
    """'The Disclosing Party confirms that it will –' / '11.1 use …; and' / '11.2 only disclose …'."""
    text = (
        "11 DISCLOSING PARTY'S UNDERTAKING\nThe Disclosing Party confirms that it will –\n"
        "11.1 use the information received from the Receiving Party only for the Purpose; and\n"
        "11.2 only disclose the Receiving Party's Information to its employees who need to know it.\n"
        "12.1 The Receiving Party shall keep the information secret.\n"
    )
    ctx = _Context(document_from_text(text), contract_type=None, roles=None, locator=None)
    items = ctx.passages.items
    said = {text[p.start : p.start + 4]: lead_in_promisor(ctx, i) for i, p in enumerate(items)}
    assert said["11.1"] == "The Disclosing Party"
    assert said["12.1"] is None  # an item with a subject of its own
