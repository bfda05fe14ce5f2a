"""Aligning two versions of a contract: paragraphs and clauses first, then words inside what changed.

Why this shape (and not a character diff): a character-level `difflib` over 50,000 characters took about
70 s here, and character diffs alias — "₦50,000,000" → "₦500,000,000" becomes "insert '0'", which says
nothing a lawyer can read. So:

1. **Units.** Each text is cut into units: a unit starts at every clause label the section detector found
   (list items such as "(a)" stay inside their clause) and at every paragraph break (a blank line; or a
   line break in text that puts one paragraph on each line, as DOCX text does). A unit's *key* is its
   text without its numbering label, typographic folds and whitespace runs normalized exactly as the
   gate's exact mode does (`citationgate.normalize.normalize_quote`). So "8.2 The Supplier…" and
   "8.3 The Supplier…" have the same key: a renumbering is reported as a renumbering, not a text change.
2. **Unit alignment.** The two key sequences are aligned with `rapidfuzz.distance.Indel.opcodes` (a
   longest-common-subsequence diff in C++, bit-parallel; a few thousand units align in milliseconds).
   Units left over on both sides with identical keys are paired as *moved*.
3. **Words.** Inside each run of units that did not align, the words of both sides are aligned with the
   same LCS diff on token lists (each token compared in its normalized form), so a re-flowed PDF
   paragraph or a clause split in two still maps word for word. Runs are small; a pathological run
   over `MAX_BLOCK_TOKENS` words a side is not word-aligned (its units are reported deleted and added).

Short page furniture the reader marked (running headers, "Page 2 of 3") is left out of the units: a
redline that adds a page moves every page break, and that is not a change to any clause.

The result maps any old span to the new text (`Alignment.map_span`) — used by re-verification to find
where a cited passage went and, when it no longer matches, what it became — and lists the changes
clause by clause (`Alignment.changes`) for `citationgate diff`.

The package, by concept: `units`, `tokens`, `alignment`, `pairing`.
"""

from __future__ import annotations

from citationgate.align.alignment import Alignment
from citationgate.align.pairing import align, align_texts
from citationgate.align.tokens import tokens, word_opcodes
from citationgate.align.units import MappedSpan, Unit, UnitChange, WordEdit, segment

__all__ = [
    "Alignment",
    "MappedSpan",
    "Unit",
    "UnitChange",
    "WordEdit",
    "align",
    "align_texts",
    "segment",
    "tokens",
    "word_opcodes",
]
