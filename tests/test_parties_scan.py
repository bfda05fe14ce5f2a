"""`playbooks.parties.scan.Text.findall` returns what `re.finditer` returns, trying a pattern only where
one of its leading words begins: the same matches, in order, none overlapping, whatever the case or the
characters case-insensitive matching equates with ASCII letters."""

from __future__ import annotations

import re

import pytest

from playbooks.parties.scan import THE, Text, term_leads, word_starts

TEXT = (
    "The Supplier shall provide the Services to the Customer. THE CUSTOMER shall pay the Supplier the Fees; "
    "fees payable to the Supplier by the Customer are due in thirty days. In consideration of the Fees, "
    "the Supplier shall deliver. the  customer's  obligations; Customers are not the Customer. "
    "The \u212aelvin Corp (\u201c\u212aelvin\u201d) shall pay; the Kelvin shall maintain. "  # the Kelvin sign
    "Mi\u017fsion shall pay; the Mission shall provide. \u0130ndigo shall pay; indigo shall host. "  # ſ, İ
    "paypaypay pay pay to the Customer; the\n  Customer, THE\tCUSTOMER, _pay 1pay within"
)

CASES = [
    # (pattern, flags, leads)
    (r"(?<![A-Za-z])(?:the\s+)?(?:Customer)(?:'s|’s)?(?![a-z])\s+shall\s+pay", re.I, ("customer", "the")),
    (r"(?<![A-Za-z])(?:the\s+)?(?:Customer)(?:'s|’s)?(?![a-z])", re.I, ("customer", "the")),
    (r"(?<![A-Za-z])(?:the\s+)?(?:Customer)(?![a-z])", 0, ("customer", "the")),
    (r"\bpay\s+(?:to\s+)?(?:the\s+)?Customer", re.I, ("pay",)),
    (r"pay", re.I, ("pay",)),  # overlapping places ("paypaypay"): findall never overlaps its matches
    (r"paypay", re.I, ("pay",)),
    (r"\b(?:fees?)\s+(?:\w+\s+){0,2}?payable\s+to\s+the\s+Supplier", re.I, ("fee",)),
    (r"\bin\s+consideration\s+of\s+the\s+Fees,\s*the\s+Supplier\s+shall", re.I, ("in",)),
    (r"(?<![A-Za-z])(?:the\s+)?(?:Kelvin)(?![a-z])\s+shall\s+\w+", re.I, ("kelvin", "the")),
    (r"(?<![A-Za-z])(?:the\s+)?(?:Mission)(?![a-z])\s+shall\s+\w+", re.I, ("mission", "the")),
    (r"(?<![A-Za-z])(?:the\s+)?(?:Indigo)(?![a-z])\s+shall\s+\w+", re.I, ("indigo", "the")),
    (
        r"(?<![A-Za-z])(?:(?i:the)\s+)?(?:CUSTOMER|Customer)(?![a-z])\s+(?i:shall)\s+pay",
        0,
        ("customer", "the"),
    ),
    # "the" and whitespace (a run of it, a line break) before the term; a word start after `\b`
    (r"(?<![A-Za-z])(?:the\s+)?(?:Customer)(?:'s|’s)?(?![a-z])", re.I, ("customer", THE)),
    (r"(?<![A-Za-z])(?:the\s+)?(?:Kelvin)(?![a-z])\s+shall\s+\w+", re.I, ("kelvin", THE)),
    (r"\bpay\s+(?:to\s+)?(?:the\s+)?Customer", re.I, word_starts("pay")),
    (r"\b(?:pay|fees?)\w*", re.I, word_starts("pay", "fee")),  # never inside "paypaypay" past its start
    (r"\bin\s+consideration\s+of\s+the\s+Fees,\s*the\s+Supplier\s+shall", re.I, word_starts("in")),
]


@pytest.mark.parametrize(("rx", "flags", "leads"), CASES)
def test_findall_is_re_finditer(rx: str, flags: int, leads: tuple[str, ...]) -> None:
    want = [m.span() for m in re.finditer(rx, TEXT, flags)]
    scan = Text(TEXT)
    assert [m.span() for m in scan.findall(rx, flags, leads)] == want
    assert [m.span() for m in scan.findall(rx, flags, leads, limit=2)] == want[:2]
    assert [m.span() for m in scan.findall(rx, flags, None)] == want  # unknown leads: run everywhere


def test_the_kelvin_sign_long_s_and_dotted_i_are_found_as_their_letters() -> None:
    # case-insensitive matching equates them with k, s and i: a place-finder that missed them would miss
    # the matches the plain regex finds
    for rx, word in (("kelvin", "kelvin"), ("mission", "mission"), ("indigo", "indigo")):
        want = [m.span() for m in re.finditer(rx, TEXT, re.I)]
        assert len(want) >= 2
        assert [m.span() for m in Text(TEXT).findall(rx, re.I, (word,))] == want


def test_no_leading_word_means_no_match_and_nothing_compiled() -> None:
    scan = Text("Nothing here is paid.")
    assert scan.findall(r"\bdesires\s+to\s+(", re.I, ("desires",)) == []  # not even compiled (invalid)


def test_term_leads() -> None:
    assert term_leads(["Merger Corp", "MERGER"]) == ("merger", "merger")
    assert term_leads(["2TheMart"]) == ("2themart",)
    assert term_leads(["Société Générale"]) == ("soci",)
    assert term_leads(["\u00c9cole"]) is None  # begins with no ASCII letter: matched everywhere


def test_a_contract_types_words_are_counted_as_re_findall_counts_them() -> None:
    from playbooks.contract_type.classify import _BODY_LEADS, _PROFILE

    body = (
        "Confidential  Information and evaluation material; employees, employment, salary, vacation, "
        "benefit plans. The Franchisee and the Franchisor, a joint venture, a collaboration, the Sponsor's "
        "sponsorship; marketing, promotion, co-branding, cobranded. Distributor, reseller, resale; "
        "transport, transportation, shipper; purchase orders, products, shipment; licensee, licensor, "
        "royalties; hosting, servers, uptime; maintenance, support services; outsourcing; develop, "
        "deliverables; consultant, consulting; services, statement of work. Subservices, unsponsored, "
        "nonconfidential information. A non-competition covenant in the restricted territory; Rule 145 under "
        "the Securities Act and the registration statement; the escrow agent; the borrower and the lender."
    ).lower()
    scan = Text(body)
    for kind, (_, words) in _PROFILE.items():
        assert len(scan.findall(words, 0, _BODY_LEADS[kind])) == len(re.findall(words, body)) > 0, kind
