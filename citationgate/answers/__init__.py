"""Quotes in a delivered answer, checked against the verified record before anything ships.

A memo, an email or a model's answer is written from verified findings, and quotes grow after they
were checked: a passage gains a clause nobody verified, or a verified passage is carried across to
the wrong section. The rule here: a quoted passage in an answer may be a **shorter part** of a
verified quote, under the citation written against it; it may **never be longer** than one.

`check_answer(answer, findings, document=…)`:

Steps 1–2 live in `citationgate.quotations` (prose: quotes and citations); this module holds the
verified record, resolution and classification.

1. **passages** — every quoted passage: straight and curly double quotes (quotes nested inside a
   passage belong to it), curly single quotes used as primary quotes (‘…’), and Markdown block quotes
   (`> …`). Code spans and fenced code are not prose; a term defined in parentheses — `(the
   "Supplier")` — is the answer's own definition, not a quotation.
2. **citations** — finding ids in square brackets as `review`/`verify` print them (`[F3]`, `[p1]`,
   `[F3, F4]`) and clause references ("clause 11.2", "Section 11.2", "s. 105N", "§ 11.2",
   "cl. 4(a)", "Schedule 2"). Each passage takes the nearest one as a reader would: one written right
   after it, else one earlier in the same sentence, else later in the same sentence, then the
   following sentence (unless it belongs to a passage there), then the preceding sentence.
3. **resolution** — a finding id resolves to that finding's verified quotes; a clause reference to the
   part of the document that section covers (its `Document.sections` range, "105H(3)" narrowed to the
   "(3)" inside "105H"), and so to the verified quotes inside it.
4. **classification** — `verified` (inside a verified quote of that citation), `longer_than_verified`
   (verified words plus words nobody checked), `wrong_citation` (verified, under another citation),
   `read_not_verified` (in the document, inside no verified quote), `nowhere` (not in the document),
   `no_citation` (verified words with no citation near them to resolve against). Words that fail on
   their own (longer, unread, nowhere) are labelled for the words; each failure carries the verified
   text it should have used.
5. **truncation guard** — a passage that stops right before "except", "unless", "provided that",
   "subject to", "notwithstanding", "save that", or starts right after a negation, is flagged:
   accurate words can still be quoted out of context. A flag does not fail the passage.

The verdict is `pass` only if every passage passes; otherwise the whole answer is `withheld`.
Locating uses the gate's own index (`citationgate.locate.QuoteIndex`), so an answer's typography
(curly quotes, dashes, reflowed lines) is tolerated exactly as the gate tolerates it — and nothing more.

The package, by concept: `records`, `record`, `segments`, `check`.
"""

from __future__ import annotations

from citationgate.answers.check import check_answer
from citationgate.answers.record import section_regions
from citationgate.answers.records import (
    EXCEPTIONS,
    NEGATIONS,
    AnswerCheck,
    FindingsError,
    PassageCheck,
    PassageStatus,
    VerifiedText,
    parse_findings,
)
from citationgate.quotations import AnswerCitation, Passage, attribute, find_citations, find_passages

__all__ = [
    "EXCEPTIONS",
    "NEGATIONS",
    "AnswerCheck",
    "AnswerCitation",
    "FindingsError",
    "Passage",
    "PassageCheck",
    "PassageStatus",
    "VerifiedText",
    "attribute",
    "check_answer",
    "find_citations",
    "find_passages",
    "parse_findings",
    "section_regions",
]
