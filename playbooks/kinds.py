"""What a number of days or a date *is*, read from the words around it: typing a value by its context.

A contract sentence often carries several periods: "renews for successive one (1) year terms unless either
party gives sixty (60) days' notice" holds a renewal length and a notice period; "interest on a 360-day
year" holds no payment term at all. A field names the kind it wants (`kind:` in a playbook) and only values
of that kind are read:

- `notice`: an advance-notice period — "sixty (60) days' (prior written) notice", "upon 30 days notice",
  "notice of non-renewal no later than ninety (90) days",
  "at least ninety (90) days before the end of the term", "within 60 days prior to the expiration".
- `period`: the length of something (a term, a renewal, a warranty) — never a notice period nor an
  interest-year convention; "annually", "from year to year", "month-to-month", "half a year" and "the
  third anniversary of" count when no period is written as a number.
- `term`: a period that is not a renewal's length ("renewed for successive one (1) year terms" is not the
  initial term), nor a renewal's cadence ("from year to year"), nor how long representations or other
  obligations survive ("the warranties shall terminate one year from the Closing Date").
- a look-back ("any person employed by Supplier within six (6) months prior to the hiring", "within one year
  after the termination of such employee's employment") is the window a covenant looks back over, never the
  period the covenant lasts: no `period`, `term` or `deadline`.
- `deadline`: a time to do something ("within thirty (30) days of invoice") — never a notice period nor an
  interest-year convention; "due upon receipt" is a deadline of none.
- a period that runs after the term ends ("for three (3) months after the termination date", "during the
  Term and for one (1) year thereafter") is not the `term`.
- dates, `end`: a date a term runs to — never the date it runs from ("from February 1, 2019 through
  January 31, 2024" ends on the second); `start`: never a date it runs to ("effective as of the Effective
  Date and shall expire on December 31, 2006" does not start then).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from playbooks.hits import Hit

__all__ = ["DATE_KINDS", "DURATION_KINDS", "dates_of_kind", "duration_kind", "durations_of_kind"]

DURATION_KINDS = ("notice", "period", "term", "deadline")
DATE_KINDS = ("start", "end")

_NOTICE_AFTER = re.compile(
    r"\s*\)?\s*(?:['’]s?|s['’])?\s*(?:\(\s*\w+\s*\)\s*)?"
    r"(?:(?:prior|advance|previous|written|express|formal|calendar|business|or\s+more|of)\s+){0,4}"
    r"(?:notice|notification|warning)\b"
    r"|\s*\)?\s*(?:['’]s?)?\s*(?:(?:or\s+more|in\s+advance|prior|written|\w+['’]s)\s+){0,2}"
    r"(?:prior(?:\s+to)?|before|in\s+advance\s+of|preceding|ahead\s+of)\s+(?:the\s+)?(?:\w+\s+){0,4}?"
    r"(?:end|expir\w*|renewal|terminat\w*|commencement|anniversary|close|conclusion|lapse)\b",
    re.IGNORECASE,
)
_NOTICE_BEFORE = re.compile(
    r"(?:notice|notif(?:y|ied|ication))\s+(?:in\s+writing\s+)?(?:to\s+the\s+other(?:\s+party)?\s+)?"
    r"(?:of\s+(?:(?:its|their|the)\s+)?(?:non-?renewal|termination|(?:intention|intent|election|desire)\s+not\s+to\s+(?:renew|extend))\s+)?"
    r"(?:of\s+)?(?:at\s+least|not\s+less\s+than|no\s+less\s+than"
    r"|a\s+minimum\s+of|no\s+later\s+than|not\s+later\s+than)?\s*$",
    re.IGNORECASE,
)
_INTEREST_YEAR = re.compile(
    r"^\s*\)?\s*[- ]?days?[- ]+(?:calendar\s+)?year\b"
    r"|^\s*\)?\s*[- ]?days?\s+(?:elapsed|in\s+(?:a|the|such)\s+year)"
    r"|^\s*(?:consisting\s+)?of\s+(?:\w+\s+)?\(?36[056]\)?\s+days\b",
    re.IGNORECASE,
)
_YEAR_OF = re.compile(r"\byear\s+(?:consisting\s+)?of\s+$|\bbasis\s+of\s+(?:a\s+)?$", re.IGNORECASE)

#: "within six (6) months prior to", "during the twelve (12) months preceding", "in the past two years":
#: a window looked back over, not a period running forward
_LOOKBACK_BEFORE = re.compile(
    r"\b(?:within|during|in|over)\s+(?:the\s+)?(?:(?:last|past|preceding|prior|previous|immediately\s+preceding)\s+)$",
    re.IGNORECASE,
)
_LOOKBACK_AFTER = re.compile(
    r"\s*\)?\s*(?:period\s+)?(?:immediately\s+)?(?:prior(?!\s+(?:written\s+)?notice)|preceding|before|previously|earlier)\b",
    re.IGNORECASE,
)
#: "hire any employee who has left … within one year after the termination of such employee's employment": the
#: window counted from a person's leaving, not how long the covenant lasts
_LOOKBACK_LEAVING = re.compile(
    r"\s*\)?\s*(?:after|following|of|from)\s+(?:the\s+)?(?:date\s+of\s+(?:the\s+)?)?(?:termination|cessation|end)"
    r"\s+of\s+(?:such|the|his|her|their|that|any\s+such)\s+(?:\w+\s+){0,2}?"
    r"(?:employee|person|individual|personnel|consultant)(?:['’]s|s['’])?\s+(?:employment|engagement)",
    re.IGNORECASE,
)
_LOOKBACK_OPEN = re.compile(
    r"\b(?:within|during|in|at\s+any\s+time\s+(?:during|in|within))\s+(?:the\s+)?$", re.IGNORECASE
)
#: a sentence on how long representations, warranties or other obligations survive: not the term
_SURVIVAL = re.compile(
    r"\bsurviv\w*|\brepresentations?\s+(?:and|&)\s+warrant\w*|\bwarranties\s+(?:\w+\s+){0,4}(?:shall|will)\s+(?:terminate|expire)",
    re.IGNORECASE,
)
#: a period that runs after the term ends — "for a period of three (3) months after the termination date",
#: "during the Term and for one (1) year thereafter": how long something outlasts the term, not the term
_AFTER_TERM_AFTER = re.compile(
    r"\s*\)?\s*(?:after|following|from|beyond|subsequent\s+to)\s+(?:the\s+|any\s+|such\s+|its\s+)?(?:\w+\s+){0,2}?"
    # "from the effective date of termination", "after the date of such expiry"
    r"(?:(?:date|time)\s+of\s+(?:the\s+|such\s+|any\s+|its\s+)?(?:\w+\s+)?)?"
    r"(?:termination|expiration|expiry|cessation)\b"
    # the end of a period the sentence counts by, not of the agreement: "sixty (60) days after the termination
    # of the preceding full quarter-annual period"
    r"(?!\s+of\s+(?:the\s+|each\s+|any\s+|such\s+)?(?:preceding\s+|relevant\s+|applicable\s+|previous\s+)?"
    r"(?:(?!this\b|agreement|contract|engagement|employment|licen[cs]e)[\w-]+\s+){0,3}?"
    r"(?:period|quarter|month|year|calendar|fiscal)\b)",
    re.IGNORECASE,
)
#: a sentence that opens on the end of the agreement — "After early termination of this Agreement … and for
#: a period of eighteen (18) months thereafter, Licensee may sell", "In the event this Agreement is
#: terminated, … for six (6) months": what happens once the term is over, so its periods are not the term
_AFTER_TERM_OPENING = re.compile(
    r"^\W{0,3}(?:\(?[a-z0-9]{1,4}[.)]\s*)?(?:(?:after|following|upon|on|from\s+and\s+after|subsequent\s+to"
    r"|in\s+the\s+event\s+of|in\s+case\s+of)\s+(?:the\s+|any\s+|such\s+|an?\s+|its\s+)?"
    r"(?:(?:early|expiration\s+or|termination\s+or|final)\s+)?(?:termination|expiration|expiry|cessation)\b"
    r"|(?:in\s+the\s+event|if|when|once|in\s+case)\s+(?:that\s+)?(?:this|the)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:agreement|contract)\s+(?:is\s+|has\s+been\s+|shall\s+be\s+)?(?:terminated|expires|expired|ends)\b)",
    re.IGNORECASE,
)
_AFTER_TERM_BEFORE = re.compile(
    r"\b(?:during|throughout|for)\s+the\s+term(?:\s+of\s+this\s+agreement)?\s*,?\s+and\s+(?:for\s+)?(?:a\s+(?:period|term)\s+of\s+)?"
    r"(?:the\s+)?$",
    re.IGNORECASE,
)
#: a warranty's period, given in the words that give the warranty: "X warrants that for a period of one (1)
#: year from the Effective Date", "the warranty period shall be ninety (90) days" — not the agreement's term
#: (the agreement or its term named after the warranty word gives the period back to the agreement)
_WARRANTED = re.compile(
    r"\b(?:warrant(?:s|ed|y|ies)|guarantee[sd]?)\b(?:(?!\b(?:agreement|contract|term)\b)[^.;])*$",
    re.IGNORECASE,
)
#: "within sixty (60) days from the Effective Date", "within a period of three (3) months following the
#: Renewal Notice": a time by which something is done, not how long the agreement lasts
_WITHIN = re.compile(
    r"\bwithin\s+(?:the\s+)?(?:first\s+|next\s+)?(?:(?:a|the)\s+(?:period|term)\s+of\s+)?$", re.IGNORECASE
)
#: "WHEREAS, the First Supplemental MOU … were effective from October 5, 1999": a recital tells the history,
#: it does not set this agreement's end
_RECITAL = re.compile(r"^\W{0,3}(?:whereas|recitals?)\b", re.IGNORECASE)
_WHEREAS = re.compile(r"\b(?:WHEREAS|Whereas)\b")
#: a verb that gives an end date to its subject: "which Option … shall be exercisable until June 30, 2004",
#: "This Agreement shall expire on", "the Term will end on"
_ENDS_BY = re.compile(
    r"(?:\s+(?:shall|will|must|may|would|is\s+to|are\s+to))(?:\s+not)?(?:\s+(?:also|only|thereafter))?"
    r"\s+(?:be\s+(?:\w+\s+){0,2}?|remain\s+(?:\w+\s+){0,3}?|continue\s+(?:\w+\s+){0,3}?|expire\s+|end\s+|terminate\s+"
    r"|run\s+|last\s+)(?:until|through|on|at|upon)\s+(?:and\s+including\s+)?(?:the\s+)?$",
    re.IGNORECASE,
)
#: … or its verb pairs a start with the end: "Phase I will commence on August 1, 2010 and end on July 31,
#: 2011"
_STARTS_AND_ENDS = re.compile(
    r"(?:\s+(?:shall|will|must|is\s+to|are\s+to))\s+(?:commence|begin|start|run\s+from)\s+(?:on\s+|as\s+of\s+)?"
    r"[^.;]{0,60}?\s+and\s+(?:shall\s+|will\s+)?(?:end|expire|terminate|conclude|continue\s+until)\s+"
    r"(?:on\s+|at\s+)?(?:the\s+)?$",
    re.IGNORECASE,
)
#: the date is the one the Term is named by: "… shall expire on December 31, 2006 (the "Term")"
_NAMES_THE_TERM = re.compile(
    r"\s*\(\s*(?:the\s+|such\s+period,?\s+the\s+)?[\"“](?:[\w-]+\s+){0,2}Term[\"”]", re.I
)
#: the rights this agreement grants, whose end is the agreement's: "The rights granted hereunder shall expire"
_GRANTED_RIGHTS = re.compile(
    r"\b(?:rights?|licen[cs]es?)\s+(?:and\s+licen[cs]es\s+)?granted\s+(?:hereunder|herein|under\s+this|by\s+this)",
    re.I,
)
_MODAL = re.compile(r"\s(?:shall|will|must|may)\b", re.IGNORECASE)
#: "for one (1) year", "for a period of two (2) years": how long something lasts, not a time within which
_SPAN_FOR = re.compile(
    # "at the end of each month during the first twelve months that this agreement is in effect": how long a
    # fee runs
    r"\b(?:for|during|throughout)\s+"
    r"(?:a\s+(?:further\s+)?(?:period|term)\s+of\s+|the\s+(?:first|initial|next|following)\s+)?"
    r"(?:at\s+least\s+|not\s+less\s+than\s+)?$",
    re.IGNORECASE,
)
#: a time to put a default right, not to pay: "fails to cure such non-payment within seven (7) days", "does
#: not remedy the breach within 10 days", "the failure continues for five (5) days after written notice of
#: it" — a cure period beside a payment term is never the days to pay
_CURE_BEFORE = re.compile(
    r"\b(?:(?:un)?cure[ds]?|remed(?:y|ied|ies)|rectif\w*|correct(?:s|ed|ing)?|make\s+good)\b[^.;:]{0,60}$"
    r"|\b(?:failure|default|breach|non-?payment)\s+(?:\w+\s+){0,3}?(?:continues?|remains?|persists?)\s+"
    r"(?:\w+\s+){0,3}?$",
    re.IGNORECASE,
)
#: a time to raise something about an invoice, not to pay it: "Credit requests should be submitted by
#: Distributor within one month after the date of Distributor's invoice", "any dispute must be notified within
#: fifteen (15) days of receipt"
_RAISE_BEFORE = re.compile(
    r"\b(?:requests?|claims?|disputes?|objections?|complaints?|queries|notices?)\b[^.;:]{0,60}?"
    r"\b(?:submitted|made|raised|given|filed|sent|notified|lodged|presented|received)\b[^.;:]{0,40}$",
    re.IGNORECASE,
)
_DEFAULT_NOTICE_AFTER = re.compile(
    r"\s*\)?\s*(?:after|following|of|from)\s+(?:(?:the\s+)?(?:receipt|delivery|date)\s+of\s+)?(?:a\s+|the\s+)?"
    r"(?:written\s+)?(?:notice|demand)\s+(?:\w+\s+){0,3}?(?:of|specifying|describing)\s+(?:\w+\s+){0,2}?"
    r"(?:default|breach|non-?payment|failure|delinquen\w*)",
    re.IGNORECASE,
)
#: "within six (6) weeks of termination", "within 30 days of the expiry of this Agreement": counted from the
#: end of the agreement
_OF_THE_END = re.compile(
    r"\s*\)?\s*of\s+(?:the\s+|any\s+|such\s+|its\s+)?(?:(?:effective\s+)?date\s+of\s+(?:the\s+|such\s+|any\s+)?)?"
    r"(?:early\s+)?(?:termination|expiration|expiry|cessation)\b",
    re.IGNORECASE,
)
_SENTENCE_BREAK = re.compile(r"[.;]\s+(?=[A-Z(\d])")

_MONTHS_PER = {"year": 12, "month": 1, "half a year": 6, "quarter": 3}
_ADVERBIAL = re.compile(
    r"\b(?:(?P<y>annual(?:ly)?|yearly|(?:each|every)\s+(?:calendar\s+)?year|(?:from\s+)?year[- ]to[- ]year)"
    r"|(?P<m>monthly|(?:each|every)\s+month|(?:from\s+)?month[- ]to[- ]month)"
    r"|(?P<h>half\s+a\s+year)|(?P<q>quarterly))\b",
    re.IGNORECASE,
)
_ORDINAL_YEARS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "fifteenth": 15, "twentieth": 20,
}  # fmt: skip
# "5th", and the same split by text extraction: "5t h"
_SUFFIX = r"(?:st|nd|rd|th|s\s?t|n\s?d|r\s?d|t\s?h)"
_ANNIVERSARY = re.compile(
    rf"\b(?:(?P<o>{'|'.join(_ORDINAL_YEARS)})(?:\s*\(\s*\d+\s?{_SUFFIX}\s*\))?|(?P<n>\d+)\s?{_SUFFIX}"
    r"|(?P<w>\w+)\s*(?:\(\s*(?P<wd>\d+)\s*\)\s*)?[- ]?years?)\s+anniversary\b",
    re.IGNORECASE,
)
#: a cadence that is a renewal's length: "annual renewals", "renew automatically from year to year"
_RENEWAL_CADENCE = re.compile(
    r"\b(?:annual|yearly|monthly)\s+(?:automatic\s+)?(?:renewals?|extensions?)\b"
    r"|\b(?:renew\w*|extend\w*)\s+(?:automatically\s+)?(?:on\s+an?\s+|from\s+)?"
    r"(?:annual(?:ly)?|yearly|year[- ]to[- ]year|monthly|month[- ]to[- ]month)\b",
    re.IGNORECASE,
)
_RENEWAL_BEFORE = re.compile(
    r"\b(?:successive|additional|further|consecutive|subsequent|renewal|renew\w*|extend\w*|extension|another)"
    r"\s+(?:(?:term|period)s?\s+of\s+)?(?:\w+\s+){0,2}$",
    re.IGNORECASE,
)
#: "for any one (1) year renewal term", "a two-year extension period", "with an automatic 2 year term
#: extensions": the length of a renewal, named after it
_RENEWAL_AFTER = re.compile(
    r"\s*\)?\s*(?:automatic\s+)?(?:(?:renewal|extension|successive|additional|extended)\s+(?:term|period)s?\b"
    r"|(?:term|period)\s+(?:renewals?|extensions?)\b)",
    re.IGNORECASE,
)
#: the period a renewal runs for, said after its verb: "this Agreement shall automatically renew at the end of
#: the Initial Term on the same terms … for one (1) twelve-month period" (not "unless renewed, continue for
#: three years", where the period is the term's own)
_RENEWS_FOR = re.compile(
    r"\b(?:renew|renews|renewed|extend|extends|extended)\b"
    r"(?:(?!\b(?:continu|remain|commenc|last|run)\w*)[^.;]){0,160}"
    r"\bfor\s+(?:(?:an?|one|the)\s+)?(?:\(\s*\d+\s*\)\s+)?(?:(?:additional|successive|further|subsequent|another)\s+)?$",
    re.IGNORECASE,
)
#: a span after someone's employment ends, named after its length: "the 90-day period following such
#: employment", "the six (6) month period after their engagement ends"
_AFTER_EMPLOYMENT = re.compile(
    r"\s*\)?\s*(?:period\s+)?(?:immediately\s+)?(?:following|after)\s+(?:the\s+(?:end|termination|cessation)\s+of\s+)?"
    r"(?:such|their|his|her|the)\s+(?:person[’']s\s+|employee[’']s\s+|individual[’']s\s+)?"
    r"(?:employment|engagement|departure|resignation)\b",
    re.IGNORECASE,
)
_ON_RECEIPT = re.compile(
    r"\b(?:due|payable)(?:\s+and\s+payable)?\s+(?:immediately\s+)?(?:up)?on\s+(?:the\s+)?(?:receipt|presentation)\b",
    re.IGNORECASE,
)
_FROM_UNIT = {"hours": 1 / 730, "days": 30, "weeks": 30 / 7, "months": 1, "years": 1 / 12}
_START_BEFORE = re.compile(
    r"(?:\bcommenc\w*|\bbegin\w*|\bstart\w*|\bfrom|\beffective|\bdated|\bentered\s+into|\bsince|\bafter)"
    r"\s+(?:(?:on|upon|as\s+of|with|and\s+including|from)\s+)?(?:the\s+|this\s+)?$",
    re.IGNORECASE,
)
_END_BEFORE = re.compile(
    r"(?:\bexpir\w*|\bend\w*|\bterminat\w*|\bconclud\w*|\buntil|\bthrough|\bthru|(?<!\bprior\s)(?<!\bup\s)(?<!\bdue\s)\bto)\s+(?:(?:on|upon|at|as\s+of|and\s+including)\s+)?"
    r"(?:the\s+)?$|\b(?:until|through|expir\w*|end|ends|terminat\w*)\s+(?:on\s+)?the\s+(?:earlier|later|first)\s+(?:to\s+occur\s+)?of\s*[:(]?\s*(?:\(?[a-z0-9]{1,3}\)\s*)?$",
    re.IGNORECASE,
)


def duration_kind(text: str, start: int, end: int) -> str | None:
    """'notice', 'interest_year' or 'lookback' for the duration at `text[start:end]`, by its neighbouring
    words;
    None when it is neither."""
    after = text[end : end + 90]
    before = text[max(0, start - 60) : start]
    if _INTEREST_YEAR.match(after) or _YEAR_OF.search(before):
        return "interest_year"
    if _NOTICE_AFTER.match(after) or _NOTICE_BEFORE.search(before) or _notice_given_prior(text, start, end):
        return "notice"
    if (
        _LOOKBACK_BEFORE.search(before)
        or (_LOOKBACK_OPEN.search(before) and _LOOKBACK_AFTER.match(after))
        or _LOOKBACK_LEAVING.match(after)
    ):
        return "lookback"
    return None


#: "gives notice to the contrary at least sixty (60) days prior thereto", "notifies the other in writing, at
#: least thirty (30) days prior, of its intent": a notice word earlier in the sentence, the period held to a
#: minimum ("at least", "not less than") and given before something ("prior", "in advance")
_NOTICE_EARLIER = re.compile(
    r"\b(?:notice|notif\w*)\b[^.;]{0,120}?(?:at\s+least|not\s+less\s+than|no\s+less\s+than|no\s+fewer\s+than"
    r"|not\s+fewer\s+than|a\s+minimum\s+of|no\s+later\s+than|not\s+later\s+than)\s*$",
    re.IGNORECASE,
)
_PRIOR_AFTER = re.compile(
    r"\s*\)?\s*(?:['’]s?)?\s*(?:(?:or\s+more|calendar|business)\s+)?(?:prior|before|in\s+advance|ahead|beforehand)\b",
    re.IGNORECASE,
)


def _notice_given_prior(text: str, start: int, end: int) -> bool:
    """Is the period at `text[start:end]` how far ahead a notice named earlier in its sentence is given?"""
    if not _PRIOR_AFTER.match(text, end):
        return False
    a = max((m.end() for m in _SENTENCE_BREAK.finditer(text, max(0, start - 200), start)), default=0)
    return bool(_NOTICE_EARLIER.search(text[max(a, start - 200) : start]))


def _in_words(hits: Sequence[Hit], seg: str, base: int, unit: str, *, cadence: bool = True) -> list[Hit]:
    """Periods not written as a number: "annually", "year-to-year" (a cadence: not when `cadence` is False),
    "the third anniversary"."""
    out: list[Hit] = []
    factor = _FROM_UNIT.get(unit)
    if factor is None:
        return out
    for m in _ANNIVERSARY.finditer(seg):
        years: float | None = None
        if m["o"]:
            years = _ORDINAL_YEARS[m["o"].lower()]
        elif m["n"]:
            years = int(m["n"])
        elif m["wd"]:
            years = int(m["wd"])
        elif m["w"]:
            from playbooks.numbers import words_to_number

            years = words_to_number(m["w"]) if not m["w"].isdigit() else int(m["w"])
        if years:
            out.append(Hit(value=_round(years * 12 * factor), start=base + m.start(), end=base + m.end()))
    if out or not cadence:
        return out
    for m in _ADVERBIAL.finditer(seg):
        # beside a number ("a term of two (2) years with automatic annual renewals"), a cadence counts only
        # where it is the renewal's own word
        if hits and not _RENEWAL_CADENCE.search(seg[max(0, m.start() - 30) : m.end() + 30]):
            continue
        months = 12 if m["y"] else 1 if m["m"] else 6 if m["h"] else 3
        out.append(Hit(value=_round(months * factor), start=base + m.start(), end=base + m.end()))
    return out


def _round(v: float) -> float:
    r = round(v, 4)
    return int(r) if float(r).is_integer() else r


def durations_of_kind(hits: Sequence[Hit], seg: str, base: int, kind: str, unit: str) -> list[Hit]:
    """The durations of `hits` (read from `seg`, which starts at document offset `base`) of `kind`."""

    def k(h: Hit) -> str | None:
        return duration_kind(seg, h.start - base, h.end - base)

    if kind == "notice":
        return [h for h in hits if k(h) == "notice"]
    kept = [h for h in hits if k(h) is None]
    if kind == "term":
        kept = [
            h
            for h in kept
            if not _RENEWAL_BEFORE.search(seg[max(0, h.start - base - 50) : h.start - base])
            and not _RENEWAL_AFTER.match(seg, h.end - base)
            and not _SURVIVAL.search(_sentence(seg, h.start - base, h.end - base))
            and not _after_term(seg, h.start - base, h.end - base)
            and not _measures_something_else(seg, h.start - base)
            and not _WITHIN.search(seg[max(0, h.start - base - 30) : h.start - base])
            and not _WARRANTED.search(seg[_sentence_start(seg, h.start - base) : h.start - base])
            and not _AFTER_AN_EVENT.match(seg, h.end - base)
            and not _RENEWS_FOR.search(seg[_sentence_start(seg, h.start - base) : h.start - base])
        ]
    if kind in ("period", "term"):
        # "any senior employee, during the period of employment or the 90-day period following such
        # employment": whom a covenant covers, not how long it lasts
        kept = [h for h in kept if not _AFTER_EMPLOYMENT.match(seg, h.end - base)]
        # "from year to year" is how a term renews, not how long the initial term lasts
        words = _in_words(kept, seg, base, unit, cadence=kind == "period")
        if kind == "term":
            words = [w for w in words if not _SURVIVAL.search(_sentence(seg, w.start - base, w.end - base))]
        kept = sorted([*kept, *(w for w in words if not _overlaps(w, kept))], key=lambda h: h.start)
    if kind == "deadline":
        # a time to pay is counted from an invoice, a delivery, a month's end — not from the end of the
        # agreement ("will pay, within thirty (30) days after the effective date of termination, all amounts
        # owing"); and a span something lasts for ("shall keep for one (1) year proper records") is no
        # deadline
        kept = [
            h
            for h in kept
            if not _after_term(seg, h.start - base, h.end - base)
            and not _OF_THE_END.match(seg, h.end - base)
            and not _SPAN_FOR.search(seg[max(0, h.start - base - 60) : h.start - base])
            and not _CURE_BEFORE.search(seg[max(0, h.start - base - 80) : h.start - base])
            and not _DEFAULT_NOTICE_AFTER.match(seg, h.end - base)
            and not _RAISE_BEFORE.search(seg[max(0, h.start - base - 110) : h.start - base])
        ]
    if kind == "deadline" and not kept:
        kept = [Hit(value=0, start=base + m.start(), end=base + m.end()) for m in _ON_RECEIPT.finditer(seg)]
    return kept


#: a period counted from an event the contract may or may not see, not from its start: "this Agreement will
#: terminate automatically one year after the closing of any sale of the Company" (the term itself "shall
#: continue indefinitely")
_AFTER_AN_EVENT = re.compile(
    r"\s*(?:after|following|from)\s+(?:the\s+)?(?:closing|consummation|completion|occurrence|effective\s+date)\s+of\s+"
    r"(?:any|a|an|such)\s+(?:[\w-]+\s+){0,2}?(?:sale|merger|acquisition|change|transfer|event|disposition|transaction)\b",
    re.IGNORECASE,
)


def _after_term(seg: str, start: int, end: int) -> bool:
    """Does the period at `seg[start:end]` run after the term ends (not the term itself)?"""
    if _AFTER_TERM_AFTER.match(seg, end) or _AFTER_TERM_BEFORE.search(seg[max(0, start - 80) : start]):
        return True
    a = _sentence_start(seg, start)
    return bool(_AFTER_TERM_OPENING.match(seg[a:start]))


#: the verb that gives a period to its subject, just before the period: "The prices remain valid for the
#: first", "the warranty shall be for a period of", "Licensee's rights shall continue for", "shall have a
#: duration of"
_MEASURED_BY = re.compile(
    r"(?:\s+(?:shall|will|must|may|would|do|does|is\s+to|are\s+to))?(?:\s+not)?(?:\s+(?:also|only|thereafter))?"
    r"\s+(?:be|is|are|remain|remains|continue|continues|last|lasts|run|runs|have|has|stay|stays|hold|holds|apply"
    r"|applies|extend|extends)\b"
    r"(?:\s+(?:valid|fixed|firm|effective|binding|unchanged|open|available|exclusive|in\s+place|in\s+(?:full\s+)?"
    r"(?:force|effect)(?:\s+and\s+effect)?))?(?:\s+(?:and|or)\s+(?:\w+\s+){0,3}?)?"
    r"\s*,?\s*(?:for|during|until|through)?\s*(?:(?:a|an|the)\s+(?:initial\s+)?(?:duration|term|period|time)\s+of\s+)?"
    r"(?:the\s+(?:first|initial|next)\s+)?(?:at\s+least\s+|not\s+less\s+than\s+)?$",
    re.IGNORECASE,
)
#: a subject whose period is the agreement's own duration: the agreement (by any of its names), its term, the
#: licence it grants, "it"
_AGREEMENT_SUBJECT = re.compile(
    r"(?:agreements?|contract|term|terms|period|duration|lease|licen[cs]e|arrangement|appointment|engagement"
    r"|employment|relationship|memorandum|mou|addendum|amendment|deed|it|this|which|that)",
    re.IGNORECASE,
)
#: where a subject starts: after a clause boundary or a conjunction ("…, unless the parties agree otherwise,")
_CLAUSE_BOUNDARY = re.compile(r"[,;:()]|\b(?:and|or|but|that|which|if|when|unless|then|thereafter)\b", re.I)
_SUBJECT_DETERMINER = re.compile(
    r"\b(?:the|this|these|such|each|any|all|its|their|his|her|our|your|said|every|no)\s+", re.IGNORECASE
)
#: a noun phrase's head comes before what qualifies it: "the licence granted by X to Y", "the Party in
#: default"
_QUALIFIERS = r"of|in|granted|hereunder|herein|under|by|to|for|from|with|set|as|on|at|between|pursuant"
_POST_MODIFIER = re.compile(rf"\s(?:{_QUALIFIERS})\b", re.I)
_QUALIFIER_BEFORE = re.compile(rf"\b(?:{_QUALIFIERS})\s+$", re.I)


def _subject_head(before_verb: str) -> str | None:
    """The head word of the subject that ends `before_verb` ("The prices" → prices, "the licence granted by
    X to Y" → licence), or None where the subject is left out ("… and shall have") or not found."""
    t = re.sub(r"\s*\([^()]{0,80}\)\s*$", "", before_verb).rstrip()
    bounds = list(_CLAUSE_BOUNDARY.finditer(t))
    a = bounds[-1].end() if bounds else 0
    np = t[a:]
    # the subject opens on its own determiner, not on one inside a qualifier ("term of the Cooperation")
    dets = [d for d in _SUBJECT_DETERMINER.finditer(np) if not _QUALIFIER_BEFORE.search(np[: d.start()])]
    if dets:
        np = np[dets[-1].start() :]
    cut = _POST_MODIFIER.search(np)
    if cut is not None:
        np = np[: cut.start()]
    words = re.findall(r"[\w'’-]+", np)
    if not words:
        return None
    head = re.sub(r"['’]s?$", "", words[-1])
    return head or None


def _measures_something_else(seg: str, start: int) -> bool:
    """Is the period at `seg[start:]` given, by the verb just before it, to a subject that is not the
    agreement or its term ("The prices remain valid for the first 12 months", "the warranty shall be for a
    period of one year")? A subject left out ("… and shall have a duration of two years") or not found
    does not count against the period."""
    a = _sentence_start(seg, start)
    before = seg[a:start]
    m = _MEASURED_BY.search(before)
    if m is None:
        return False
    head = _subject_head(before[: m.start()])
    return head is not None and not _AGREEMENT_SUBJECT.fullmatch(head)


def _sentence_start(seg: str, pos: int) -> int:
    return max((m.end() for m in _SENTENCE_BREAK.finditer(seg, 0, pos)), default=0)


def _sentence(seg: str, start: int, end: int) -> str:
    """The sentence of `seg` around `[start, end)`."""
    a = max((m.end() for m in _SENTENCE_BREAK.finditer(seg, 0, start)), default=0)
    m = _SENTENCE_BREAK.search(seg, end)
    return seg[a : m.start() if m else len(seg)]


def _overlaps(h: Hit, others: Sequence[Hit]) -> bool:
    return any(o.start < h.end and h.start < o.end for o in others)


#: "the Supply Agreement dated April 1, 2017", "that certain letter agreement dated as of": the date of
#: another document named in this one (not "This Agreement, dated as of …")
_OTHER_DOCUMENT = re.compile(
    r"\b(?P<det>this|these|the|that\s+certain|said|an?|its|such|each|any|our|their|prior|original|existing)\s+"
    r"(?:[\w&,'’-]+\s+){0,8}?(?:agreements?|amendments?|letters?|contracts?|licen[cs]es?|leases?|sheets?|memorand\w*"
    r"|plans?|notes?|indentures?|orders?|understandings?|offers?|proposals?|invoices?)"
    r"(?:\s*\([^()]{0,80}\))?"
    # the parties to it named before its date: "the Product Supply Agreement between A and B dated as of"
    r"(?:\s*,?\s+(?:by\s+and\s+)?(?:between|among|amongst)\s+[^.;()]{1,160}?)?"
    r"\s*,?\s+(?:originally\s+)?(?:dated|executed|entered\s+into|made)\s+"
    r"(?:(?:as\s+of|on|effective)\s+)?(?:the\s+)?$",
    re.IGNORECASE,
)

#: the dates another document was amended on: "the agreement dated … between A and B, as amended July 6, 1992
#: and April 8, 1993"
_AMENDED_ON = re.compile(
    r"\b(?:as\s+)?(?:amended|supplemented|restated|modified)\s+(?:on\s+|as\s+of\s+)?"
    r"(?:[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?\s*,?\s*(?:19|20)\d{2}\s*(?:,\s*(?:and\s+)?|and\s+))*$",
    re.IGNORECASE,
)


#: "entered into that certain Separation Agreement as of June 14, 2019": "that certain" names another
#: document, dated with or without a verb before the date
_THAT_CERTAIN = re.compile(
    r"\bthat\s+certain\s+(?:[\w&,'’-]+\s+){0,8}?(?:agreements?|amendments?|letters?|contracts?|licen[cs]es?"
    r"|leases?|memorand\w*|plans?|notes?|indentures?|orders?|understandings?)(?:\s*\([^()]{0,80}\))?\s*,?\s+"
    r"(?:(?:originally\s+)?(?:dated|executed|entered\s+into|made)\s+)?(?:as\s+of|on|effective(?:\s+as\s+of)?)\s+"
    r"(?:the\s+)?$",
    re.IGNORECASE,
)


_DETERMINER = re.compile(
    r"\b(?:this|these|the|that\s+certain|said|an?|its|such|each|any|our|their|prior|original|existing)\s",
    re.IGNORECASE,
)


#: "This Agreement supersedes … the following contract(s): Service Agreement dated November 1, 2015"
_SUPERSEDED = re.compile(
    r"\b(?:supersed|cancel|replac)\w*\b[^.]{0,120}\b(?:dated|of)\s+(?:as\s+of\s+)?$", re.IGNORECASE
)


#: a document that is never this agreement, dated — "confirmed by letter dated", "the Phase 2 Report dated",
#: "the Supplier's proposal dated", "Purchase Order No. 17 dated": its date is its own, with or without a
#: determiner before it
_OTHER_PAPER = re.compile(
    r"\b(?:letters?|documents?|reports?|proposals?|offers?|quotations?|quotes?|tenders?|bids?|invoices?|notices?"
    r"|memorand(?:um|a)|minutes|specifications?|statements?\s+of\s+work|(?:purchase\s+)?orders?|certificates?"
    r"|resolutions?|policy|policies|e-?mails?|faxes|telefax|correspondence|submissions?|studies|study|budgets?"
    r"|plans?|schedules?|exhibits?|annex(?:es)?|appendi(?:x|ces)|term\s+sheets?|letters?\s+of\s+intent|patents?"
    r"|applications?|registrations?|filings?|judg(?:e)?ments?|awards?|decisions?|deeds?|instruments?)"
    r"(?:\s+(?:no\.?|number|ref\.?|reference)\s*[\w./-]+)?(?:\s*\([^()]{0,80}\))?\s*,?\s+"
    r"(?:originally\s+)?(?:dated|issued|sent|signed|submitted)\s+(?:(?:as\s+of|on|effective)\s+)?(?:the\s+)?$",
    re.IGNORECASE,
)
_THIS_PAPER = re.compile(r"\b(?:this|these)\s+(?:[\w&'’-]+\s+){0,4}$", re.IGNORECASE)


#: an agreement the parties "have entered into" before this one, dated after its name: "The Parties have
#: entered into the Cooperation Agreement on September 17, 2008 …"
_ENTERED_BEFORE = re.compile(
    r"\b(?:have|has|had)\s+(?:previously\s+|already\s+)?(?:entered\s+into|executed|signed|concluded)\s+"
    r"(?!this\b)(?:the|that\s+certain|an?|a\s+certain|certain)\s+(?:[\w&,'’-]+\s+){0,8}?"
    r"(?:agreements?|contracts?|licen[cs]es?|leases?|memorand\w*|understandings?)"
    r"(?:\s*\([^()]{0,80}\))?\s*,?\s+(?:dated\s+)?(?:(?:as\s+of|on|effective)\s+)?(?:the\s+)?$",
    re.IGNORECASE,
)


def _of_another_document(before: str) -> bool:
    if (
        _SUPERSEDED.search(before)
        or _THAT_CERTAIN.search(before)
        or _AMENDED_ON.search(before)
        or _ENTERED_BEFORE.search(before)
    ):
        return True
    paper = _OTHER_PAPER.search(before)
    if paper is not None and not _THIS_PAPER.search(before[: paper.start()]):
        return True
    # the noun phrase nearest the date decides: "this Agreement to the contrary, the letter agreement dated"
    for d in reversed(list(_DETERMINER.finditer(before))):
        m = _OTHER_DOCUMENT.match(before, d.start())
        if m is not None:
            return m["det"].lower() not in ("this", "these")
    return False


def dates_of_kind(hits: Sequence[Hit], seg: str, base: int, kind: str) -> list[Hit]:
    """The dates of `hits` of `kind` ('end': not a date the term runs from; 'start': not one it runs to),
    never the date of another document the sentence names ("the Supply Agreement dated April 1, 2017")."""
    rx = _START_BEFORE if kind == "end" else _END_BEFORE
    return [
        h
        for h in hits
        if not rx.search(seg[max(0, h.start - base - 40) : h.start - base])
        and not _of_another_document(seg[max(0, h.start - base - 160) : h.start - base])
        and not (kind == "end" and _ends_something_else(seg, h.start - base))
        and (kind != "end" or _said_to_end(seg, h.start - base))
    ]


#: what names a date as an end without a verb: a label ("Expiration Date: December 31, 2020") or the dash of a
#: range ("January 1, 2020 – December 31, 2022")
_END_LABEL = re.compile(
    r"\b(?:expiration|expiry|end|termination|completion)\s+date\s*(?:is\s+|shall\s+be\s+|[:–—-]\s*)$"
    r"|(?:(?:19|20)\d{2}|\d{1,2}/\d{1,2}/\d{2,4})\s*[–—-]\s*$",
    re.IGNORECASE,
)


def _said_to_end(seg: str, start: int) -> bool:
    """Is the date at `seg[start:]` said to be an end — after "end on", "until", "through", "expire", "to",
    a label or a range's dash, or named the Term's own end ("December 31, 2006 (the "Term")")? A date that
    something else happens on ("The channel is expected to be uploaded on August 1, 2010", a quarter-end
    in a payment schedule) ends nothing."""
    before = seg[max(0, start - 40) : start]
    return bool(
        _END_BEFORE.search(before)
        or _END_LABEL.search(before)
        or _NAMES_THE_TERM.match(seg, _date_end(seg, start))
    )


def _date_end(seg: str, start: int) -> int:
    """Where the date starting at `seg[start]` ends (its year's last digit)."""
    m = re.compile(r"(?:19|20)\d{2}\b|\d{1,2}/\d{2,4}\b").search(seg, start, start + 60)
    return m.end() if m else start


def _ends_something_else(seg: str, start: int) -> bool:
    """Is the date at `seg[start:]` stated in a recital, or given by its verb to a subject that is not the
    agreement or its term ("which Option … shall be exercisable until June 30, 2004")?"""
    a = _sentence_start(seg, start)
    before = seg[a:start]
    if _RECITAL.match(seg, a) or _WHEREAS.search(before):
        return True
    m = _ENDS_BY.search(before) or _STARTS_AND_ENDS.search(before)
    if m is None or _NAMES_THE_TERM.match(seg, _date_end(seg, start)) or _GRANTED_RIGHTS.search(before):
        return False  # "shall expire on December 31, 2006 (the "Term")": the date the Term is named by
    head = _subject_head(before[: m.start()])
    if head is None and (first := _MODAL.search(before, 0, m.start())) is not None:
        # the subject left out ("… shall vest … and shall be exercisable until"): the first verb's subject
        head = _subject_head(before[: first.start()])
    return head is not None and not _AGREEMENT_SUBJECT.fullmatch(head)
