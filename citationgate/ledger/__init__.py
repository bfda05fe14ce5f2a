"""The claim-support ledger: each atomic claim checked against the passages it cites.

A passage can be relevant without supporting the claim: "The policy covers employees and contractors"
cited to a passage that names only employees links to the right place, and half of it is unsupported.
So every claim is first split into atomic claims (one supported fragment cannot carry the rest), and
each atomic claim is checked against the union of its cited passages by deterministic rules:

- **values**: every number, amount, duration, percentage and date in the claim appears in the passage
  with the same value, parsed ("three (3) months" = 3 months; "₦50,000,000" ≠ "₦500,000,000");
- **names**: named parties and capitalised defined terms appear in the passage;
- **scope**: words the claim adds — a second noun ("employees *and contractors*"), a universal
  quantifier ("all", "any", "each", "every") — appear in the passage;
- **strength**: negation and modal strength agree ("may" is not "must"); added precision ("exactly",
  "at least", "only") and stronger causal language ("because", "results in") count against the claim
  unless the passage supplies them;
- **vocabulary**: the claim's other content words appear in the passage.

Labels: `supported` (the passage establishes the whole claim), `partial` (only a narrower wording is
established — the row proposes it and keeps the rejected version), `unsupported` (the passage does not
provide it), `unverifiable` (no passage could be inspected, or the rules could not decide and no judge
did). A model-based judge may be plugged in behind `Judge`; it is only asked what the rules could not
decide, and any failure of it stays `unverifiable`, never a pass. The source's authority (the contract
itself, a schedule, a document referenced but not supplied) is recorded separately and never changes
the support label.

The package, by concept: `labels` (what each label means and does), `sentences` (cutting passages,
clause references), `values` (numbers, money, durations, dates), `words` (stems, negation, modals, atomic
claims), `support` (the checks and the judge), `rows` (the ledger's rows).
"""

from __future__ import annotations

from citationgate.ledger.labels import ACTIONS, Support
from citationgate.ledger.rows import (
    CitedPassage,
    LedgerRow,
    authority_of,
    build_ledger,
    finding_passages,
    ledger_rows,
    summarize,
)
from citationgate.ledger.sentences import CLAUSE_REF, clause_references, split_sentences
from citationgate.ledger.support import Judge, JudgeVerdict, Problem, SupportCheck, check_support
from citationgate.ledger.values import Value, extract_values, parse_number, value_present
from citationgate.ledger.words import has_content, split_claims

__all__ = [
    "ACTIONS",
    "CLAUSE_REF",
    "CitedPassage",
    "Judge",
    "JudgeVerdict",
    "LedgerRow",
    "Problem",
    "Support",
    "SupportCheck",
    "Value",
    "authority_of",
    "build_ledger",
    "check_support",
    "clause_references",
    "extract_values",
    "finding_passages",
    "has_content",
    "ledger_rows",
    "parse_number",
    "split_claims",
    "split_sentences",
    "summarize",
    "value_present",
]
