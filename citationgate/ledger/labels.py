"""The ledger's labels, what it does with each, and the sources it records."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Literal


class Support(StrEnum):
    SUPPORTED = "supported"
    PARTIAL = "partial"
    UNSUPPORTED = "unsupported"
    UNVERIFIABLE = "unverifiable"


#: What the ledger does with each label.
ACTIONS: Mapping[Support, str] = {
    Support.SUPPORTED: "keep",
    Support.PARTIAL: "narrow",
    Support.UNSUPPORTED: "remove",
    Support.UNVERIFIABLE: "review",
}

Authority = Literal["contract", "schedule", "referenced_not_supplied", "playbook", "none"]

#: A claim judged against the playbook's positions, not a statement of what the contract says.
_EVALUATIVE = re.compile(
    r"(?i)\b(?:standard position|fallback(?: position)?|unacceptable|allow-?list|deny-?list|red line|"
    r"our position|playbook|market standard|(?:below|above|within) the [\w\s'’()-]{0,40}"
    r"(?:minimum|maximum|limit|range|threshold))\b"
)

#: The engine's account of what it could not read ("cure days not read: the clause gives “forty-five (45)
#: working days” — the engine could not tell whether that is the cure days"): a statement of the review, not
#: of the contract, which the reader settles by reading the quoted words (so: review, never remove)
_ENGINE_ACCOUNT = re.compile(
    r"(?i)\bthe engine could not\b|\bnot read\b(?!\s+whole)|\bcould not be read from\b"
)

#: A claim whose content words are missing from the passage at least this often is unsupported.
MISSING_UNSUPPORTED = 0.5


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())
