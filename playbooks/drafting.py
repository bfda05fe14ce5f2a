"""Document-wide drafting checks that are fully verifiable from the text itself.

- `placeholders`: "[●]", "[•]", "[insert …]", "[TBD]" left in the text.
- `number_words`: a number in words that disagrees with its digits ("thirty (60) days").
- `cross_references`: "Section 14.3" where the document has no section 14.3.
- `undefined_terms`: a capitalised term used as a defined term but never defined.
- `unused_terms`: a term defined but never used.

Each problem is one `ClauseOutcome` quoting the passage where it occurs.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ingest.document import Document
from ingest.sections import roman_to_int
from playbooks.extract import US_STATES, number_conflicts
from playbooks.outcome import ClauseOutcome, QuoteRef
from playbooks.parties import read_parties
from playbooks.passages import Passages

__all__ = ["CHECK_TITLES", "drafting_outcomes"]

CHECK_TITLES = {
    "placeholders": "Placeholder left in the draft",
    "number_words": "Number in words disagrees with its digits",
    "cross_references": "Cross-reference to a section that does not exist",
    "undefined_terms": "Capitalised term used but never defined",
    "unused_terms": "Defined term never used",
}
_GUIDANCE = {
    "placeholders": "Complete or delete every placeholder before signature; a blank term is not agreed.",
    "number_words": "Make the words and the digits agree; courts differ on which one prevails.",
    "cross_references": "Fix the reference: the clause it points to is not in this document.",
    "undefined_terms": "Define the term or use plain words; an undefined capitalised term invites dispute.",
    "unused_terms": "Delete the definition or use the term; unused definitions suggest a clause was removed.",
}

_PLACEHOLDER = re.compile(
    r"\[\s*(?:[●•·◼■□…]+|\.{2,}|_{2,}|x{2,}|insert\b[^\]\n]{0,60}|tbd|tbc|to\s+be\s+(?:confirmed|determined|agreed)"
    r"|date|name|amount|address|number|party|company|client|customer|supplier|vendor|●[^\]\n]{0,40})\s*\]",
    re.IGNORECASE,
)
_XREF = re.compile(
    r"\b(?P<kind>Sections?|SECTIONS?|Clauses?|CLAUSES?|Articles?|ARTICLES?)\s+(?P<num>\d{1,3}(?:\.\d{1,3})*|[IVXLC]{1,6})\b"
    r"(?P<sub>(?:\([a-zA-Z0-9]{1,4}\))*)"
)
_XREF_ELSEWHERE = re.compile(
    r"\s*(?:of|in|to|under)\s+(?:the\s+)?"
    r"(?:[A-Z][A-Za-z.&]*|this\s+(?:Schedule|Exhibit|Annex|Appendix|Attachment|SOW|Statement))"
)
_STATUTE_NEAR = re.compile(
    r"\b(?:Code|Act|U\.S\.C|C\.F\.R|Regulations?|Rules?\s+\d|Directive|Bankruptcy|Securities|Treasury|Statute)\b"
)
_DEF_MEANS = re.compile(
    r"[\"“]([A-Z][A-Za-z0-9\-’'&/ ]{0,60}?)[\"”]\s*(?:\([^)]{0,40}\)\s*)?,?\s*"
    # '"Confidential Information" of a party shall mean'
    r"(?:(?:of|for|by)\s+(?:a|an|any|each|the|either|such)\s+[a-z]+\s*,?\s*)?"
    r"(?:means|shall\s+mean|(?:has|have|shall\s+have)\s+the\s+meaning|refers\s+to|includes)\b"
)
_DEF_PAREN = re.compile(
    # '(the "Effective Date")', '(the initial "Services Term")'
    r"\((?:[^()\"“”]{0,40}?\b(?:the|each|a|an|as|hereinafter(?:\s+referred\s+to\s+as)?|collectively|together)\s+"
    r"(?:[a-z]+\s+){0,2}?)?"
    r"(?:[\"“]([A-Z][A-Za-z0-9\-’'&/ ]{0,60}?)[\"”])"
    r"(?:\s*(?:or|and)\s+[\"“]([A-Z][A-Za-z0-9\-’'&/ ]{0,60}?)[\"”])?\s*\)"
)
_CANDIDATE = re.compile(r"(?<=[a-z,] )([A-Z][a-z]{2,}(?: (?:of |and )?[A-Z][a-z]{2,}){0,3})\b")
_PART_OF_NAME = re.compile(r"[A-Z][\w’'\-]*\s+(?:(?:of|and|the|for)\s+)?$")
_STOP = {
    "This", "The", "Such", "Each", "Any", "All", "Agreement", "Section", "Sections", "Clause", "Article",
    "Schedule", "Exhibit", "Annex", "Appendix", "Party", "Parties",
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December", "Monday", "Tuesday", "Wednesday",
    "Thursday", "Friday", "Saturday", "Sunday", "State", "States", "United", "Court", "Courts", "Inc", "Ltd",
    "Limited", "Company", "Corporation", "Part", "Parts", "Schedules", "Exhibits", "Annexes", "Appendices",
    "Clauses", "Articles", "Paragraph", "Paragraphs", "Recital", "Recitals", "Page", "Day", "Days",
    "Subparagraph", "Subparagraphs", "Subsection", "Subsections", "Subclause", "Subclauses",
    "Act", "Code", "Rule", "Rules", "Form", "Suite", "Street", "Avenue", "Road", "Floor", "Building",
    "Regulation", "Directive", "Commission", "Internet",
    "English", "Dollars", "Chapter", "Exchange", "Securities", "Federal", "Government", "Parliament",
}  # fmt: skip
_PROPER = set(US_STATES) | {
    "New York",
    "England",
    "Wales",
    "United States",
    "United Kingdom",
    "European Union",
}


def _quote(doc: Document, passages: Passages, start: int, end: int) -> QuoteRef | None:
    p = passages.items[passages.index_at(start)] if passages.items else None
    a, b = (p.start, p.end) if p is not None and p.start <= start and end <= p.end else (start, end)
    if b - a > 500:  # a window of the passage around the problem
        a = max(a, start - 200)
        b = min(b, end + 200)
        while a > 0 and not doc.text[a - 1].isspace() and a > start - 260:
            a -= 1
        while b < len(doc.text) and not doc.text[b].isspace() and b < end + 260:
            b += 1
    while a < b and doc.text[a].isspace():
        a += 1
    while b > a and doc.text[b - 1].isspace():
        b -= 1
    if b - a < 10:
        a, b = max(0, start - 20), min(len(doc.text), end + 20)
        while a < b and doc.text[a].isspace():
            a += 1
        while b > a and doc.text[b - 1].isspace():
            b -= 1
    if b - a < 10:
        return None
    s = doc.section_at(a)
    return QuoteRef(text=doc.text[a:b], start=a, end=b, section=s.label if s else None)


def _outcome(
    name: str, setting: Any, claim: str, quote: QuoteRef | None, reason: str
) -> ClauseOutcome | None:
    if quote is None:
        return None  # nothing quotable (under 10 characters of text): a drafting finding needs its quote
    return ClauseOutcome(
        rule=name,
        title=CHECK_TITLES[name],
        outcome=setting.outcome,
        severity=setting.severity,
        claim=claim,
        quotes=(quote,) if quote else (),
        guidance=_GUIDANCE[name],
        reason=reason,
    )


_LINE_LABEL = re.compile(
    r"(?m)^[ \t]*(?:(?:Section|SECTION|Clause|CLAUSE|Article|ARTICLE)[ \t]+)?"
    r"(\d{1,3}(?:\.\d{1,3})*)\.?(?:[ \t]|$)"
)


# a label inside a flattened line: "… as follows. 4.1 Term. This …" (a number, then a capitalised word)
_INLINE_LABEL = re.compile(
    r"(?<![\w.,$£€])(?<!Section )(?<!Sections )(?<!Clause )(?<!Clauses )(?<!Article )"
    r"(?<!and )(?<!or )(?<!to )"
    r"(\d{1,3}(?:\.\d{1,3})*)\.?[ \t]+(?=[A-Z(\"“][a-zA-Z])"
)
_ARTICLE_HEAD = re.compile(
    r"\b(?:ARTICLE|Article|SECTION)\s+(\d{1,3}|[IVXLC]{1,6})\b\.?\s*[-–—:]?\s*[A-Z]{2,}"
)


def _section_numbers(doc: Document) -> set[str]:
    """Section numbers the document has: its detected sections, any number that starts a line or opens
    a clause inside a flattened line, and article headings."""
    nums: set[str] = set()
    for rx in (_LINE_LABEL, _INLINE_LABEL):
        nums.update(".".join(str(int(x)) for x in m.group(1).split(".")) for m in rx.finditer(doc.text))
    for m in _ARTICLE_HEAD.finditer(doc.text):
        raw = m.group(1)
        n = roman_to_int(raw) if raw[0] in "IVXLC" else int(raw)
        if n is not None:
            nums.add(str(n))
    for s in doc.sections:
        label = re.sub(r"^(?:Section|SECTION|Article|ARTICLE|Clause|CLAUSE)\s+", "", s.label).rstrip(".")
        if re.fullmatch(r"\d{1,3}(?:\.\d{1,3})*", label):
            nums.add(".".join(str(int(x)) for x in label.split(".")))
        elif (n := roman_to_int(label)) is not None and s.kind == "article":
            nums.add(str(n))
    return nums


# unquoted definitions: "1.23 Field means …" at the start of a line, "(the Effective Date)"
_DEF_BARE = re.compile(
    # at a line's start, or after a sentence where a filing's definitions run on in one line ("… Territory.
    # Products shall mean the Company's kiosk …")
    r"(?m)(?:^[ \t]*|(?<=[.;:][ \t])|(?<=[.;:][ \t]{2}))(?:\(?[\dA-Za-z]{1,3}(?:\.\d{1,3})*[.)]?[ \t]+)?"
    r"([A-Z][A-Za-z0-9\-’'&/]*(?: [A-Z][A-Za-z0-9\-’'&/]*){0,5})"
    r"[ \t]+(?:means|shall\s+mean|has\s+the\s+meaning|shall\s+have\s+the\s+meaning)\b"
)
_DEF_PAREN_BARE = re.compile(
    r"\((?:(?:collectively|collective|together|individually|jointly|hereinafter)[,\s]+(?:the\s+)?"
    r"|(?:the|each\s+an?|an?)\s+)"
    r"([A-Z][a-z]+(?: [A-Z][a-z]+){0,4})\s*\)"
)  # "(the Effective Date)", "(collectively, Specifications)": a filing that lost its quotation marks


def _definitions(text: str) -> dict[str, list[tuple[int, int]]]:
    defs: dict[str, list[tuple[int, int]]] = {}
    for rx in (_DEF_MEANS, _DEF_PAREN, _DEF_BARE, _DEF_PAREN_BARE):
        for m in rx.finditer(text):
            for g in range(1, (m.lastindex or 1) + 1):
                term = m.group(g)
                if term and len(term) <= 60:
                    defs.setdefault(term.strip(), []).append((m.start(g), m.end(g)))
    return defs


def _add(out: list[ClauseOutcome], o: ClauseOutcome | None) -> None:
    if o is not None:
        out.append(o)


def drafting_outcomes(doc: Document, passages: Passages, settings: Mapping[Any, Any]) -> list[ClauseOutcome]:
    """Run the drafting checks named in `settings` (a playbook's `document_checks`)."""
    text = doc.text
    out: list[ClauseOutcome] = []
    if (s := settings.get("placeholders")) is not None:
        for m in list(_PLACEHOLDER.finditer(text))[: s.limit]:
            q = _quote(doc, passages, m.start(), m.end())
            _add(
                out,
                _outcome(
                    "placeholders",
                    s,
                    f"A placeholder “{m.group()}” is left in the text.",
                    q,
                    f"placeholder {m.group()!r} at {m.start()}",
                ),
            )
    if (s := settings.get("number_words")) is not None:
        for c in number_conflicts(text)[: s.limit]:
            q = _quote(doc, passages, c.start, c.end)
            said = " ".join(text[c.start : c.end].split())
            claim = f"“{said}”: the words say {c.words:g} but the digits say {c.digits:g}."
            _add(out, _outcome("number_words", s, claim, q, f"words {c.words:g} ≠ digits {c.digits:g}"))
    if (s := settings.get("cross_references")) is not None:
        nums = _section_numbers(doc)
        if len(nums) >= 3:
            seen: set[str] = set()
            n_found = 0
            for m in _XREF.finditer(text):
                raw = m["num"]
                roman = roman_to_int(raw) if raw[0] in "IVXLC" else None
                if raw[0] in "IVXLC" and roman is None:
                    continue  # not a well-formed roman numeral ("IIV"): not a reference we can check
                num = str(roman) if roman is not None else ".".join(str(int(x)) for x in raw.split("."))
                if num in nums or any(n.startswith(num + ".") for n in nums) or num in seen:
                    continue
                if _XREF_ELSEWHERE.match(text, m.end()) or text[m.end() : m.end() + 1].isalpha():
                    continue
                if "." not in num and int(num) > 60:
                    continue  # "Section 365(n)", "Section 409A": a statute, not a clause of this document
                if _STATUTE_NEAR.search(text, max(0, m.start() - 60), min(len(text), m.end() + 80)):
                    continue
                seen.add(num)
                q = _quote(doc, passages, m.start(), m.end())
                claim = f"“{m.group()}” is referred to, but the document has no section {num}."
                _add(out, _outcome("cross_references", s, claim, q, f"no section labelled {num}"))
                n_found += 1
                if n_found >= s.limit:
                    break
    need_terms = settings.get("undefined_terms") is not None or settings.get("unused_terms") is not None
    if need_terms:
        defs = _definitions(text)
        lower = text.lower()
        if (s := settings.get("unused_terms")) is not None:
            n_found = 0
            for term, places in defs.items():
                uses = lower.count(term.lower())
                if term.endswith("s") and len(term) > 4:
                    # "House Accounts" defined, "a House Account" used: the singular is a use of the term
                    uses = max(uses, lower.count(term[:-1].lower()))
                if uses <= len(places):
                    a, b = places[0]
                    q = _quote(doc, passages, a, b)
                    _add(
                        out,
                        _outcome(
                            "unused_terms",
                            s,
                            f"“{term}” is defined but never used.",
                            q,
                            f"{uses} occurrence(s), all definitions",
                        ),
                    )
                    n_found += 1
                    if n_found >= s.limit:
                        break
        if (s := settings.get("undefined_terms")) is not None and len(defs) >= 5:
            out.extend(_undefined(doc, passages, defs, s))
    return out


def _undefined(doc: Document, passages: Passages, defs: Mapping[str, Any], s: Any) -> list[ClauseOutcome]:
    text = doc.text
    # the parties' own terms, however the preamble defines them ("(Developer )", "and (Client) Pelican …")
    base = {d.lower() for d in defs} | {t.lower() for p in read_parties(text) for t in p.terms}
    defined = base | {d.rstrip("s") for d in base} | {d + "s" for d in base}
    lower_words = set(re.findall(r"\b[a-z]{3,}\b", text))
    counts: Counter[str] = Counter()
    first: dict[str, tuple[int, int]] = {}
    for m in _CANDIDATE.finditer(text):
        phrase = m.group(1)
        if _PART_OF_NAME.search(text, max(0, m.start(1) - 40), m.start(1)):
            continue  # "Business Days", "Statement of Work": the tail of a longer capitalised name
        counts[phrase] += 1
        first.setdefault(phrase, (m.start(1), m.end(1)))
    out: list[ClauseOutcome] = []
    for phrase, n in counts.most_common():
        if n < 3 or len(out) >= s.limit:
            break
        words = [w for w in phrase.split() if w not in ("of", "and")]
        low = phrase.lower()
        if low in defined or phrase in _PROPER or any(w in _STOP for w in words):
            continue
        if any(d in low for d in defined if len(d) > 3):
            continue
        if len(words) == 1 and n < 5:
            continue  # a single capitalised word needs many uses before it reads as a defined term
        if not all(w.lower() in lower_words for w in words):
            continue
        a, b = first[phrase]
        q = _quote(doc, passages, a, b)
        _add(
            out,
            _outcome(
                "undefined_terms",
                s,
                f"“{phrase}” is capitalised as a defined term ({n} uses) but is never defined.",
                q,
                f"{n} capitalised uses; no definition found",
            ),
        )
    return out
