"""What a question asks for, read from its words — what a term means, an amount or a bound — and whether a
passage states one. `ask` (playbooks.retrieve) ranks by them: a definition unit is ranked down unless the
question is definitional, and a passage that states an amount comes first among near-equals when the
question asks for one."""

from __future__ import annotations

import re

_ASKS_AMOUNT = re.compile(
    r"\b(?:how\s+(?:much|many)|most|maximum|max|minimum|least|cap|capped|ceiling|floor|limit|limited|"
    r"upper\s+limit|up\s+to\s+what|what\s+(?:sum|amount|figure)|at\s+most|no\s+more\s+than)\b",
    re.IGNORECASE,
)
#: ... unless it asks whether there is no bound at all (then the answer names what is left uncapped)
_ASKS_NO_LIMIT = re.compile(
    r"\b(?:no|without(?:\s+an?|\s+any)?)\s+(?:upper\s+)?(?:limit|cap|ceiling)\b|\bunlimited\b|\buncapped\b|"
    r"\bnot\s+(?:capped|limited)\b|\bexclu\w*|\bexcept\w*|\bcarve",
    re.IGNORECASE,
)
_STATES_AMOUNT = re.compile(
    r"[$£€¥]\s?\d|\b\d[\d,.]*\s*(?:%|percent\b|per\s+cent\b|dollars\b|pounds\b|euros?\b|usd\b|gbp\b|eur\b)|"
    r"\b(?:usd|gbp|eur|us\$)\s?\d|\bexceed(?:s|ing)?\b|\bin\s+excess\s+of\b|\bamount\s+equal\s+to\b|"
    r"\blimited\s+to\b|\b(?:no|not)\s+(?:more|less|greater|fewer)\s+than\b|\bat\s+least\b|"
    r"\b(?:minimum|maximum)\s+(?:of|amount|quantity|number|aggregate)\b|\bup\s+to\s+(?:a\s+maximum|\d|\$)",
    re.IGNORECASE,
)

_DEFINITIONAL = re.compile(
    r"\b(?:what\s+(?:does|do|did)\b.*\bmean|meaning\s+of|definition|defined?|what\s+is\s+meant|"
    r"what\s+counts\s+as|means?\s*\?)",
    re.IGNORECASE,
)


def is_definitional(question: str) -> bool:
    """Does the question ask what a term means ("what does Affiliate mean")?"""
    return bool(_DEFINITIONAL.search(question))


def asks_amount(question: str) -> bool:
    """Does the question ask for an amount or a bound ("what is the cap?", "the most we can order"), and
    not whether there is none ("is anything uncapped?")?"""
    return bool(_ASKS_AMOUNT.search(question)) and not _ASKS_NO_LIMIT.search(question)


def states_amount(text: str) -> bool:
    """Does the passage state an amount or a bound (a sum, a percentage, "shall not exceed", "at least")?"""
    return bool(_STATES_AMOUNT.search(text))
