"""Re-verification after a redline: every earlier finding checked against the new version, exact only.

Re-verification is stricter than verification: there is no fuzzy fallback. A citation is found again
only if its words are in the new version under the gate's exact mode (`QuoteIndex.find_exact`:
whitespace-flexible and typographic-tolerant, case-sensitive). Where it is not, the citation is
**stale** and the report shows what the passage became — found by aligning the two versions
(`citationgate.align`), for display only, never as a new anchor. ("capped at ₦50,000,000" and
"₦500,000,000" are one character apart; a tolerant matcher would move the finding onto the number that
changed the deal.)

Each citation that was verified in the earlier review gets one status:

- ``verified`` — the words and their clause are unchanged: in the aligned counterpart of their old
  paragraph, under the same clause label. Offsets are updated when edits elsewhere in the document shifted
  them — a paragraph inserted or removed above included — and the shift is recorded (`shift`, and the
  reason says why); the old span is mapped through the alignment, then confirmed exactly: by identity
  where its paragraph is unchanged character for character, else by the index.
- ``moved`` — the identical words, but their clause is not where it was, and the reason says why: the
  clause was renumbered (8.2 → 8.3, the new label is reported), the paragraph itself moved, or the words
  are now only at a new place. Among several identical
  occurrences the choice is deterministic: the aligned image of the old span first; an occurrence that is
  the aligned image of *another* old occurrence (boilerplate the earlier version already had elsewhere)
  is never taken; then the old clause label, then prefix/suffix context similarity, then proximity.
- ``context_changed`` — the words still match exactly but the clause around them changed (a carve-out
  added two sentences later; "not" inserted just before the quote). The clause is the innermost numbered
  clause holding the quote (list items "(a)" belong to their clause), or its paragraph when the clause is
  long or absent. Needs review; never silently kept.
- ``stale`` — the words are no longer in the document exactly.

A finding takes the best of its citations: it stays ``verified`` while at least one citation is
verified, and the reason names the citations that went stale — unless a stale citation held a value
the finding's judgment was parsed from (a playbook finding's ``extracted`` values): then the claim no
longer stands and the finding is ``stale``, naming the value; any ``context_changed`` citation makes
the finding ``context_changed``; all stale makes it ``stale``. Absence findings are re-run: with the
playbook recorded on the earlier review, the playbook's clause is run against the new version and the
finding is ``resolved`` (with its verified quote) if the clause is now there, else ``open``; without a
playbook it stays ``open`` and says why. Findings the earlier review did not verify (rejected) are
carried with their old status and are not re-verified.

Without the old document (``--findings`` mode, from JSON alone) there is no alignment: a citation is
``verified`` under its old clause label with its 40 characters of context unchanged (the shift
recorded), ``moved`` under another label; the context check
compares the 40 characters of prefix and suffix the JSON carries (numbering labels ignored); and what a
stale passage became is the new paragraph that best matches its old words and context.

Every decision is an audit event (one per citation, one per finding), against the new version's hash.

The package, by concept: `records` (the findings read and the outcomes reported), `state` (one run's
versions, alignment and indexes), `citations` (where each citation is now), `engine` (findings and
absences re-verified).
"""

from __future__ import annotations

from citationgate.reverify.engine import reverify
from citationgate.reverify.records import (
    CONTEXT_CHANGED,
    MOVED,
    OPEN,
    RESOLVED,
    STALE,
    VERIFIED,
    CitationOutcome,
    FindingOutcome,
    FindingsError,
    OldCitation,
    PlaybookRef,
    ReverifyResult,
    parse_findings,
)

__all__ = [
    "CONTEXT_CHANGED",
    "MOVED",
    "OPEN",
    "RESOLVED",
    "STALE",
    "VERIFIED",
    "CitationOutcome",
    "FindingOutcome",
    "FindingsError",
    "OldCitation",
    "PlaybookRef",
    "ReverifyResult",
    "parse_findings",
    "reverify",
]
