"""A duty or a grant whose subject is mutual binds us and them whoever we are: "shall not otherwise be
transferable without the prior written approval of the other Party" needs the supplier's consent too; "Each
Party (the "Indemnitor") shall indemnify … (c) infringement …" is an IP indemnity by the supplier; "the
parties hereby agree to grant to each other a … licence" is a licence to the supplier — and each is read so
when who is us is not resolved, saying it holds of each party alike. A promise one party makes by its own
name, while who is us is not resolved, is read as holding if that party is the side the rule speaks of, and
the finding says so rather than "not found". Synthetic texts with invented party names, written for these
tests."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from citationgate.review import review
from playbooks import load_playbook
from playbooks.library import document_from_text
from tests.test_judgement_clauses import _value

#: who is us follows from the words: Kestrix provides, Norvale pays
RESOLVED = (
    'This Agreement is made between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. ("Kestrix"). '
    "Kestrix shall provide the services to Norvale, and Norvale shall pay Kestrix the fees."
)
#: nothing says which party is the customer
UNRESOLVED = (
    'This Agreement is made between Norvale Bank Ltd ("Norvale") and Kestrix Systems Inc. ("Kestrix").'
)


COOPERATION = (
    "1. Cooperation. Norvale and Kestrix will cooperate on the joint programme described in Schedule 1."
)


def _contract(head: str, *body: str) -> str:
    first = (
        "1. Services. Kestrix shall provide the network services described in Schedule 1."
        if head == RESOLVED
        else COOPERATION
    )
    law = "Governing Law. This Agreement is governed by the laws of the State of New York."
    return "\n\n".join(["MASTER SERVICES AGREEMENT", head, first, *body, law]) + "\n"


@lru_cache(maxsize=16)
def _reviewed(text: str) -> tuple[bool, dict[str, Any]]:
    result = review(document_from_text(text), load_playbook("msa-customer"))
    assert result.roles is not None
    return result.roles.resolved, {str(f.proposal.rule): f for f in result.findings}


def _finding(head: str, rule: str, *body: str) -> Any:
    resolved, by_rule = _reviewed(_contract(head, *body))
    assert resolved == (head == RESOLVED)
    return by_rule[rule]


def _outcome(finding: Any) -> str:
    return str(finding.proposal.details["outcome"])


TRANSFER = (
    "4. Transfer. Save to a successor to the whole of the business of a party, this Agreement is not "
    "otherwise transferable without the prior written approval of the other Party."
)


def test_an_agreement_not_transferable_without_the_other_partys_approval_needs_the_suppliers_consent() -> (
    None
):
    a = _finding(RESOLVED, "assignment", TRANSFER)
    assert _value(a, "supplier_needs_consent") is True
    assert _value(a, "customer_needs_consent") is True
    assert _outcome(a) == "standard"
    assert "not stated" not in a.proposal.claim


def test_the_other_partys_approval_is_read_whoever_is_us() -> None:
    a = _finding(UNRESOLVED, "assignment", TRANSFER)
    assert _value(a, "supplier_needs_consent") is True
    assert _outcome(a) == "standard"
    assert "who is us is not resolved" not in a.proposal.claim


INDEMNITY = (
    '5. Indemnities. Each Party (the "Indemnitor") shall indemnify, defend and hold harmless the other Party '
    '(the "Indemnitee") and its directors, officers and staff from and against all losses, liabilities, '
    "costs, claims, damages, fines, penalties, judgments and expenses of any kind which arise from any act "
    "or omission of the Indemnitor in performing this Agreement, including without limitation (a) any "
    "negligent conduct of its staff, (b) any breach of its warranties, representations or undertakings under "
    "this Agreement or of any law binding on it, (c) any claim by its own suppliers or subcontractors for "
    "sums owed to them, (d) any misuse of premises or equipment of the Indemnitee, and (e) infringement of "
    "any patent, copyright or trade mark of any third party."
)


def test_a_mutual_indemnity_with_a_defined_term_and_a_long_list_covers_ip_by_the_supplier() -> None:
    ip = _finding(RESOLVED, "ip_indemnity", INDEMNITY)
    assert _value(ip, "by_supplier") is True
    assert _outcome(ip) == "fallback"  # no procure-a-licence or modify remedies: thin, not absent


def test_a_mutual_indemnity_is_read_whoever_is_us() -> None:
    ip = _finding(UNRESOLVED, "ip_indemnity", INDEMNITY)
    assert _value(ip, "by_supplier") is True
    assert _outcome(ip) == "fallback"
    assert "who is us is not resolved" not in ip.proposal.claim


MARKS = (
    "6. Marks. During the Term the parties hereby agree to grant to each other a non-exclusive licence to "
    "use each other's trade marks only to promote the joint programme."
)


def test_a_licence_the_parties_grant_each_other_is_a_licence_to_the_supplier_whoever_is_us() -> None:
    lic = _finding(UNRESOLVED, "licence_grant", MARKS)
    claim = lic.proposal.claim
    assert _value(lic, "licence_to_supplier") is True
    assert _value(lic, "supplier_licence_unlimited") is False  # a non-exclusive licence, said so
    assert "licence to supplier: yes, of each party alike" in claim
    assert "who is us is not resolved" not in claim
    assert "licence to supplier: not stated" not in claim


def test_a_licence_the_parties_grant_each_other_reads_the_same_with_the_roles_resolved() -> None:
    lic = _finding(RESOLVED, "licence_grant", MARKS)
    assert _value(lic, "licence_to_supplier") is True
    assert "of each party alike" in lic.proposal.claim


INSURANCE = (
    "7. Insurance. Throughout the Term, Kestrix shall maintain professional indemnity insurance and public "
    "liability insurance with a reputable insurer for not less than $5,000,000 per claim. Kestrix shall "
    "name Norvale on its insurance certificate."
)


def test_one_partys_insurance_duty_by_its_own_name_is_read_as_holding_if_it_is_the_supplier() -> None:
    ins = _finding(UNRESOLVED, "insurance", INSURANCE)
    claim = ins.proposal.claim
    assert _value(ins, "supplier_insures") is True
    # the clause binds Kestrix; whether Kestrix is the supplier is not known: a review, saying both
    assert _outcome(ins) == "needs_review"
    assert "supplier insures: yes if “Kestrix” is the supplier" in claim
    assert "who is us is not resolved" in claim
    assert "not found" not in claim


def test_one_partys_insurance_duty_with_the_roles_resolved_is_the_suppliers_cover() -> None:
    ins = _finding(RESOLVED, "insurance", INSURANCE)
    assert _value(ins, "supplier_insures") is True
    assert _outcome(ins) == "standard"


def test_a_generic_word_for_a_side_is_no_partys_name() -> None:
    # "the vendor" names no party of this contract: no reading by name, the duty stays unread
    ins = _finding(
        UNRESOLVED,
        "insurance",
        "7. Insurance. The vendor shall maintain professional indemnity insurance and public liability "
        "insurance for not less than $5,000,000 per claim.",
    )
    assert "yes if" not in ins.proposal.claim


# --- a law both parties sit under, with who is us not resolved -------------------------------------------


def _law_finding(head: str) -> Any:
    text = (
        "\n\n".join(
            [
                "MASTER SERVICES AGREEMENT",
                head,
                COOPERATION,
                "2. Governing Law. This Agreement is governed by the laws of Ireland.",
            ]
        )
        + "\n"
    )
    resolved, by_rule = _reviewed(text)
    assert not resolved
    return by_rule["governing_law"]


def test_the_law_of_both_parties_seat_is_ours_whoever_is_us() -> None:
    law = _law_finding(
        'This Agreement is made between Norvale Bank Limited, a company incorporated in Ireland ("Norvale"), '
        'and Kestrix Systems Limited, a company incorporated in Ireland ("Kestrix").'
    )
    assert _outcome(law) == "standard"
    assert "both parties' own seat" in law.proposal.claim


def test_the_law_of_one_partys_seat_stays_a_red_line_while_who_is_us_is_not_resolved() -> None:
    law = _law_finding(
        'This Agreement is made between Norvale Bank Limited, a company incorporated in Ireland ("Norvale"), '
        'and Kestrix Systems Inc., a company incorporated in Singapore ("Kestrix").'
    )
    assert _outcome(law) == "unacceptable"
    assert "own seat" not in law.proposal.claim


# --- a list item promised by its lead-in's party; "neither X nor its Affiliates" ----------------------------


RECORDS = (
    "8. Records. Norvale undertakes that throughout the Term it will:\n\n"
    "(a) keep complete books of account for the programme;\n\n"
    "(b) allow Kestrix, on reasonable notice, access to its books and records relating to the programme "
    "for inspection once in each year;\n\n"
    "(c) report its sales monthly."
)


def test_a_list_item_is_read_as_its_lead_ins_partys_promise_whoever_is_us() -> None:
    audit = _finding(UNRESOLVED, "audit_rights", RECORDS)
    claim = audit.proposal.claim
    # Norvale lets Kestrix in: Kestrix audits Norvale, whichever of them is the customer — said by name
    assert "“Norvale” is the supplier and “Kestrix” is the customer" in claim
    assert "not stated" not in claim
    assert _outcome(audit) == "needs_review"


def test_a_list_item_is_read_as_its_lead_ins_partys_promise_with_the_roles_resolved() -> None:
    audit = _finding(RESOLVED, "audit_rights", RECORDS)
    assert _value(audit, "supplier_audits_us") is True  # Norvale (us) must let Kestrix inspect its books


def test_neither_one_party_nor_its_affiliates_binds_that_party_alone() -> None:
    ns = _finding(
        RESOLVED,
        "non_solicitation",
        "9. Staff. Neither Kestrix nor its Affiliates shall solicit for employment any employee of Norvale "
        "during the Term.",
    )
    assert _value(ns, "binds_customer") is False
    assert "of each party alike" not in ns.proposal.claim


def test_a_promise_of_each_of_several_parties_is_quoted_from_its_each() -> None:
    ns = _finding(
        RESOLVED,
        "non_solicitation",
        "9. Staff. Each of Norvale and Kestrix shall not solicit for employment any employee of the other "
        "during the Term.",
    )
    assert _value(ns, "binds_customer") is True
    assert "of each party alike (“Each of Norvale and Kestrix shall”)" in ns.proposal.claim


# --- our seat from the signing block's address, a city naming its jurisdiction ------------------------------

SIGNED = (
    "The Purchaser: Lotus Garden Holdings Inc. (hereinafter referred to as Party A) and the Provider: "
    "Kestrel Design Studio (hereinafter referred to as Party B) hereby agree as follows."
)


def _signed_law(party_b_city: str) -> Any:
    text = "\n\n".join(
        [
            "DESIGN SERVICES CONTRACT",
            SIGNED,
            "1. Services. Party B shall prepare the design drawings for Party A.",
            "2. Fees. Party A shall remit the fees into the account designated by Party B.",
            "3. Governing Law. This Contract is governed by the laws of Taiwan.",
            "Party A: Lotus Garden Holdings Inc. Address: No. 8, Willow Road, Daan District, Taipei City",
            f"Party B: Kestrel Design Studio Address: No. 2, Harbour Lane, {party_b_city}",
        ]
    )
    result = review(document_from_text(text + "\n"), load_playbook("msa-customer"))
    return result, {str(f.proposal.rule): f for f in result.findings}["governing_law"]


def test_our_seat_is_read_from_the_signing_blocks_address_where_the_preamble_gives_none() -> None:
    result, law = _signed_law("Kowloon, Hong Kong")
    assert result.roles is not None and result.roles.resolved  # Party A pays: Party A is us
    assert _outcome(law) == "standard"
    assert "our own seat (Taiwan)" in law.proposal.claim


def test_a_city_followed_by_another_jurisdiction_is_that_jurisdiction() -> None:
    from playbooks.engine.seat import our_seat

    text = "Party A: Lotus Ltd. Address: 4 King Street, London, Ontario\nParty B: Kestrel Inc. Address: Oslo"
    seat = our_seat(
        "(hereinafter referred to as Party A) and (hereinafter referred to as Party B). " + text,
        {"us": "Party A", "them": "Party B"},
    )
    assert [v.value for v in seat] == ["Ontario"]


def test_a_label_inside_a_sentence_is_no_signing_block() -> None:
    from playbooks.engine.seat import our_seat

    text = (
        "(hereinafter referred to as Party A) and (hereinafter referred to as Party B). The goods are "
        "shipped to Party A: at the following address: 9 Dock Road, Rotterdam, the Netherlands."
    )
    assert our_seat(text, {"us": "Party A", "them": "Party B"}) == ()
