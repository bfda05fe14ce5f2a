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
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any, Literal, Protocol, runtime_checkable

import Stemmer

from ingest.document import Document


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

#: A claim whose content words are missing from the passage at least this often is unsupported.
MISSING_UNSUPPORTED = 0.5


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


# ── sentences ─────────────────────────────────────────────────────────────────────────────────────
_ABBREVIATIONS = _wordset(
    "s ss cl cls no nos art arts para paras sec secs sch reg regs e.g i.e etc vs v mr mrs ms dr st "
    "ltd inc co corp p pp cf approx fig al"
)
_CLOSERS = "\"'”’»)]"
_LINE_BLOCK = re.compile(r"\n[ \t]*(?:[-*+•]\s|\d{1,3}[.)]\s|#{1,6}\s|>|\|)")


def split_sentences(text: str, *, opaque: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """Sentence spans `[start, end)` of `text`, as a reader would split it.

    A sentence ends at `.`, `!` or `?` followed by space and a capital, a digit, a quote or a bracket
    (not after an abbreviation such as "s." or "cl.", nor inside a number like "11.2"), at a blank
    line, and before a line that starts a list item, a heading or a block quote. Nothing inside an
    `opaque` span (a quoted passage) ends a sentence, but a passage that itself ends with a full stop
    ends the sentence at its closing quote mark.
    """
    n = len(text)
    inside = [False] * (n + 1)
    for a, b in opaque:
        for i in range(max(a, 0), min(b, n)):
            inside[i] = True
    cuts: set[int] = set()
    for m in re.finditer(r"\n[ \t]*\n", text):
        if not inside[m.start()]:
            cuts.add(m.start())
    for m in _LINE_BLOCK.finditer(text):
        if not inside[m.start()]:
            cuts.add(m.start())
    for i, ch in enumerate(text):
        if ch not in ".!?" or inside[i]:
            continue
        j = i + 1
        while j < n and text[j] in _CLOSERS:
            j += 1
        if j < n and not text[j].isspace():
            continue
        k = j
        while k < n and text[k] in " \t\n":
            k += 1
        if k < n and not (text[k].isupper() or text[k].isdigit() or text[k] in "\"“‘'([«>#*-"):
            continue
        if ch == "." and _is_abbreviation(text, i):
            continue
        cuts.add(j)
    for _a, b in opaque:
        if 0 < b <= n and text[b - 1] in ".!?":
            j = b
            while j < n and text[j] in _CLOSERS:
                j += 1
            k = j
            while k < n and text[k] in " \t":
                k += 1
            if k >= n or text[k].isupper() or text[k] == "\n":
                cuts.add(j)
    spans = []
    last = 0
    for c in [*sorted(cuts), n]:
        a, b = _trim(text, last, c)
        if a < b:
            spans.append((a, b))
        last = c
    return spans


def _is_abbreviation(text: str, dot: int) -> bool:
    j = dot
    while j > 0 and (text[j - 1].isalpha() or text[j - 1] == "."):
        j -= 1
    word = text[j:dot].lower()
    if not word:
        return False
    if word in _ABBREVIATIONS or (len(word) == 1 and text[j].isupper()):
        return True
    return word == "s" or word.endswith(".e") or word == "e.g"


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


# ── clause references (shared with check-answer) ─────────────────────────────────────────────────
#: A label as contracts and statutes print it: "11.2", "105N", "105H(3)", "4(a)(ii)", "V", "A".
LABEL = r"\d{1,4}[A-Z]{0,2}(?:\.\d{1,4}[A-Z]{0,2})*(?:\([a-zA-Z0-9]{1,6}\))*"
_KEYWORD = (
    r"(?:[Cc]lauses?|CLAUSES?|[Ss]ections?|SECTIONS?|[Ss]ecs?\.|[Ss]s?\.|§§?|[Cc]ls?\.|"
    r"[Pp]aragraphs?|[Pp]aras?\.|[Rr]egulations?|[Rr]egs?\.|[Rr]ules?)"
)
_ANNEX_KEYWORD = (
    r"(?:[Ss]chedules?|SCHEDULES?|[Ee]xhibits?|EXHIBITS?|[Aa]nnex(?:es)?|ANNEX|[Aa]ppendix|APPENDIX"
    r"|[Aa]rticles?|ARTICLES?|[Aa]rts?\.)"
)
_ROMAN_OR_LETTER = r"(?:[IVXLC]{1,6}|[A-Z]{1,2}|\d{1,3})"
CLAUSE_REF = re.compile(
    rf"(?<![\w.])(?P<kw>{_KEYWORD})\s*(?P<labels>{LABEL}(?:\s*(?:,|and|or|&|to|–|-)\s*{LABEL})*)"
    rf"|(?<![\w.])(?P<akw>{_ANNEX_KEYWORD})\s+(?P<alabel>{_ROMAN_OR_LETTER})\b"
)
_LABEL_RE = re.compile(LABEL)


def clause_references(text: str) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """Every clause reference in `text`: `(start, end, keyword, labels)`.

    "clause 11.2" → ("clause", ("11.2",)); "ss. 105H and 105N" → ("ss.", ("105H", "105N"));
    "Schedule 2" → ("Schedule", ("Schedule 2",)). Article references keep their keyword when the
    label is Roman ("Article V" → "Article V").
    """
    out: list[tuple[int, int, str, tuple[str, ...]]] = []
    for m in CLAUSE_REF.finditer(text):
        if m.group("akw"):
            kw = m.group("akw")
            word = re.sub(r"(?i)^(schedule|exhibit|annex|appendix|art).*", r"\1", kw).capitalize()
            word = "Article" if word == "Art" else word
            out.append((m.start(), m.end(), kw, (f"{word} {m.group('alabel')}",)))
            continue
        kw = m.group("kw")
        labels = tuple(_LABEL_RE.findall(m.group("labels")))
        out.append((m.start(), m.end(), kw, labels))
    return out


# ── values: numbers, amounts, durations, percentages, dates ───────────────────────────────────────
_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
_NUMWORD = "|".join(sorted([*_UNITS, *_TENS, *_SCALES], key=len, reverse=True))
_WORDNUM = rf"(?:(?:{_NUMWORD})(?:[\s-]+(?:and\s+)?(?:{_NUMWORD}))*)"
_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
#: A number as drafted: "30", "1,000.50", "thirty", "thirty (30)", "30 (thirty)".
_NUMBER = (
    rf"(?:(?:{_WORDNUM})\s*\(\s*(?:{_DIGITS})\s*\)|(?:{_DIGITS})\s*\(\s*(?:{_WORDNUM})\s*\)"
    rf"|{_DIGITS}|{_WORDNUM})"
)
_CURRENCY = {
    "₦": "NGN", "ngn": "NGN", "naira": "NGN", "n": "NGN",
    "$": "USD", "us$": "USD", "usd": "USD", "dollars": "USD", "dollar": "USD",
    "£": "GBP", "gbp": "GBP", "pounds": "GBP", "sterling": "GBP",
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "¥": "JPY", "jpy": "JPY", "₹": "INR", "inr": "INR", "chf": "CHF", "cad": "CAD", "aud": "AUD",
}  # fmt: skip
_CUR_BEFORE = r"(?:₦|US\$|\$|£|€|¥|₹|NGN|USD|GBP|EUR|JPY|INR|CHF|CAD|AUD|N(?=\d))"
_MULT = r"(?:\s*(?P<mult>million|billion|thousand|bn|m|k)\b)?"
_MONEY = re.compile(
    rf"(?P<cur>{_CUR_BEFORE})\s?(?P<num>{_DIGITS}){_MULT}"
    rf"|(?P<num2>{_DIGITS}){_MULT.replace('mult', 'mult2')}"
    r"\s+(?P<cur2>naira|dollars?|pounds|euros?|NGN|USD|GBP|EUR)\b",
    re.I,
)
_PERCENT = re.compile(rf"(?P<num>{_NUMBER})\s*(?:%|per\s?cent\b|percent\b)", re.I)
_DUR_UNIT = (
    r"(?P<q>business|working|calendar|banking)?\s*"
    r"(?P<unit>days?|weeks?|months?|years?|hours?|minutes?|quarters?)\b"
)
_DURATION = re.compile(rf"(?P<num>{_NUMBER})[\s-]*(?:\(\s*\d+\s*\)\s*)?{_DUR_UNIT}", re.I)
_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december",
)  # fmt: skip
_MONTHS = {m: i for i, m in enumerate(_MONTH_NAMES, 1)}
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_DATE = re.compile(
    rf"(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+day\s+of)?\s+(?P<m1>{_MONTH}),?\s+(?P<y1>\d{{4}})"
    rf"|(?P<m2>{_MONTH})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y2>\d{{4}})"
    rf"|(?P<y3>\d{{4}})-(?P<m3>\d{{2}})-(?P<d3>\d{{2}})"
    rf"|(?P<a4>\d{{1,2}})/(?P<b4>\d{{1,2}})/(?P<y4>\d{{4}})"
)
_PLAIN_NUMBER = re.compile(rf"(?<![\w.,])(?:{_NUMBER})(?![\w])", re.I)


@dataclass(frozen=True, slots=True, kw_only=True)
class Value:
    """A value parsed from text: `kind` (money, percent, duration, date, number), its value, its words."""

    kind: str
    value: tuple[Any, ...]
    text: str
    start: int
    end: int

    def describe(self) -> str:
        return self.text


def parse_number(text: str) -> Decimal | None:
    """ "30", "1,000.5", "thirty", "thirty (30)", "twenty-one", "one hundred and twenty" → a Decimal."""
    text = text.strip()
    m = re.search(rf"\(\s*({_DIGITS})\s*\)", text)
    if m:
        return _decimal(m.group(1))
    m = re.fullmatch(rf"({_DIGITS})(?:\s*\(.*\))?", text)
    if m:
        return _decimal(m.group(1))
    total, current = 0, 0
    words = re.split(r"[\s-]+", text.lower())
    if not words or not all(w in _UNITS or w in _TENS or w in _SCALES or w == "and" for w in words):
        return None
    for w in words:
        if w in _UNITS:
            current += _UNITS[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w in _SCALES:
            total += max(current, 1) * _SCALES[w]
            current = 0
    return Decimal(total + current)


def _decimal(s: str) -> Decimal | None:
    try:
        return Decimal(s.replace(",", ""))
    except InvalidOperation:
        return None


_MULTIPLIERS = {"thousand": 10**3, "k": 10**3, "million": 10**6, "m": 10**6, "billion": 10**9, "bn": 10**9}


def extract_values(text: str) -> list[Value]:
    """Every value in `text`, each parsed: dates, amounts, percentages, durations, then bare numbers.

    Clause references ("clause 11.2", "s. 105N") are not values and are skipped.
    """
    taken: list[tuple[int, int]] = [(a, b) for a, b, _kw, _labels in clause_references(text)]
    out: list[Value] = []

    def free(a: int, b: int) -> bool:
        return all(b <= x or a >= y for x, y in taken)

    def add(kind: str, value: tuple[Any, ...], m: re.Match[str]) -> None:
        out.append(Value(kind=kind, value=value, text=m.group(0).strip(), start=m.start(), end=m.end()))
        taken.append((m.start(), m.end()))

    for m in _DATE.finditer(text):
        if not free(m.start(), m.end()):
            continue
        if m.group("y1"):
            key: tuple[Any, ...] = (int(m["y1"]), _MONTHS[m["m1"].lower()], int(m["d1"]))
        elif m.group("y2"):
            key = (int(m["y2"]), _MONTHS[m["m2"].lower()], int(m["d2"]))
        elif m.group("y3"):
            key = (int(m["y3"]), int(m["m3"]), int(m["d3"]))
        else:
            key = ("numeric", int(m["a4"]), int(m["b4"]), int(m["y4"]))
        add("date", key, m)
    for m in _MONEY.finditer(text):
        if not free(m.start(), m.end()):
            continue
        cur = (m.group("cur") or m.group("cur2") or "").lower()
        amount = _decimal(m.group("num") or m.group("num2") or "")
        mult = (m.group("mult") or m.group("mult2") or "").lower()
        if amount is None:
            continue
        amount *= _MULTIPLIERS.get(mult, 1)
        add("money", (_CURRENCY.get(cur, cur.upper()), amount.normalize()), m)
    for m in _PERCENT.finditer(text):
        if free(m.start(), m.end()) and (n := parse_number(m.group("num"))) is not None:
            add("percent", (n.normalize(),), m)
    for m in _DURATION.finditer(text):
        if not free(m.start(), m.end()):
            continue
        n = parse_number(m.group("num"))
        if n is None:
            continue
        unit = m.group("unit").lower().rstrip("s")
        q = (m.group("q") or "").lower()
        if unit == "week":
            unit, n = "day", n * 7
        elif unit == "year":
            unit, n = "month", n * 12
        elif unit == "quarter":
            unit, n = "month", n * 3
        if unit == "day" and q in ("business", "working", "banking"):
            unit = "business day"
        add("duration", (unit, n.normalize()), m)
    for m in _PLAIN_NUMBER.finditer(text):
        if not free(m.start(), m.end()) or m.group(0).strip().lower() in ("one", "zero"):
            continue
        n = parse_number(m.group(0))
        if n is not None:
            add("number", (n.normalize(),), m)
    out.sort(key=lambda v: v.start)
    return out


def _magnitude(v: Value) -> Decimal | None:
    last = v.value[-1]
    return last if isinstance(last, Decimal) else None


def value_present(claim: Value, passage: Sequence[Value]) -> bool:
    """Whether a value a claim states is among the values of its passages (a bare number matches any
    value of that magnitude: "3" is in "three (3) months")."""
    if claim.kind == "number":
        return any(_magnitude(p) == claim.value[0] for p in passage)
    return any(p.kind == claim.kind and p.value == claim.value for p in passage)


# ── words ─────────────────────────────────────────────────────────────────────────────────────────
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_STOP = _wordset(
    """a an the this that these those it its of to in on at by for from with as or and nor but if then than
    so such be is are was were been being has have had do does did done there their they them he she his
    her we our us you your i me my which who whom whose what when where while also any all each every
    some other another both either neither no not never none only same under upon into onto out over
    about between within without after before during until unless except per via thereof therein
    hereof herein hereunder thereunder whereby whether said says state states provide provides
    provided set sets out forth up down shall must may will can should would could might ought
    say says said reads read stating
    clause clauses section sections schedule article paragraph agreement contract"""
)
_NEGATIONS = _wordset("not no never neither nor without cannot none nothing n't")
_UNIVERSAL = _wordset("all any each every whatsoever always entire whole")
_PRECISION = (
    "exactly", "precisely", "at least", "at most", "no more than", "no less than", "not more than",
    "not less than", "more than", "less than", "up to", "maximum", "minimum", "only", "solely",
    "immediately", "strictly", "in full",
)  # fmt: skip
_CAUSAL = (
    "because", "caused", "causes", "causing", "due to", "as a result", "results in", "resulted in",
    "resulting in", "leads to", "led to", "therefore", "consequently", "thereby", "owing to",
    "attributable to", "so that",
)  # fmt: skip
_MODAL_CLASSES: tuple[tuple[str, str], ...] = (
    (r"\b(?:shall|must|will|may|can)\s+not\b|\bcannot\b|\bcan't\b|\bwon't\b|\bshan't\b"
     r"|\bmustn't\b", "prohibition"),
    (r"\bis not required to\b|\bare not required to\b|\bneed not\b|\bis not obliged to\b", "no obligation"),
    (r"\bshall\b|\bmust\b|\bwill\b|\b(?:is|are) (?:required|obliged|obligated|bound) to\b|\b(?:has|have) to\b"
     r"|\bundertakes? to\b|\bagrees? to\b", "obligation"),
    (r"\bmay\b|\bcan\b|\bmight\b|\b(?:is|are) (?:entitled|permitted|allowed|free) to\b"
     r"|\b(?:has|have) the right to\b|\bat (?:its|their) (?:sole )?discretion\b", "permission"),
    (r"\bshould\b|\bought to\b", "recommendation"),
)  # fmt: skip
_CLAUSE_VERBS = _wordset(
    """shall must may will can cannot should would could might is are was were be has have had does do did
    covers cover includes include requires require provides provide permits permit applies apply expires
    expire terminates terminate renews renew pays pay caps cap limits limit excludes exclude survives
    survive governs govern means mean owns own retains retain grants grant allows allow prohibits prohibit
    gives give takes take continues continue remains remain lasts last needs need"""
)


_ADVERBS = _wordset("in any event way case circumstances otherwise directly indirectly")

#: Contract paraphrases the vocabulary check treats as one word (Snowball stems → a shared key).
_PARAPHRASES: tuple[tuple[str, ...], ...] = (
    ("cap", "exceed", "limit", "maximum", "ceil"),
    ("termin", "end", "cancel"),
    ("pay", "paid", "payment", "payabl", "due"),
    ("liabil", "liabl"),
    ("disclos", "reveal"),
    ("notic", "notifi", "notif"),
    ("assign", "transfer"),
    ("indemn", "indemnifi", "indemnif"),
    ("fee", "charg", "price"),
    ("permit", "allow", "entitl"),
    ("oblig", "requir"),
    ("cover", "appli", "applic"),
)
_CANON = {stem: group[0] for group in _PARAPHRASES for stem in group}
_STEMMER = Stemmer.Stemmer("english")


def _canon(stem: str) -> str:
    return _CANON.get(stem, stem)


def _stem(word: str) -> str:
    """The Snowball stem of a word, possessive dropped ("Supplier's" → "supplier")."""
    w = re.sub(r"['’]s?$", "", word.lower().strip("'’-"))
    return str(_STEMMER.stemWord(w))


def _words(text: str) -> list[str]:
    return [m.group(0).strip("'’-") for m in _WORD.finditer(text)]


def _content_stems(text: str) -> list[str]:
    masked = _mask_values(text)
    out = []
    for w in _words(masked):
        lw = w.lower()
        if lw in _STOP or lw in _NEGATIONS or lw in _UNIVERSAL or lw in _MONTHS or len(lw) < 2:
            continue
        if lw in _UNITS or lw in _TENS or lw in _SCALES:
            continue
        out.append(_canon(_stem(w)))
    return list(dict.fromkeys(out))


def has_content(text: str) -> bool:
    """Whether `text` says anything checkable: a content word or a value beyond references."""
    return bool(_content_stems(text)) or bool(extract_values(text))


def _mask_values(text: str) -> str:
    chars = list(text)
    for v in extract_values(text):
        for i in range(v.start, v.end):
            chars[i] = " "
    for a, b, _kw, _labels in clause_references(text):
        for i in range(a, b):
            chars[i] = " "
    return "".join(chars)


def _has_phrase(text: str, phrase: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(phrase)}(?![\w])", text, re.I) is not None


def _modal_classes(text: str) -> dict[str, str]:
    """Modal class → the words that express it ("obligation" → "must")."""
    found: dict[str, str] = {}
    rest = text.lower()
    for pattern, cls in _MODAL_CLASSES:
        for m in re.finditer(pattern, rest):
            found.setdefault(cls, m.group(0))
        rest = re.sub(pattern, " ", rest)
    return found


def _negated_stems(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """(negated words, every word) of one sentence, each as stem → the word as written."""
    negated: dict[str, str] = {}
    tokens = re.findall(r"[A-Za-z][A-Za-z'’-]*|[.,;:()]", text)
    for i, t in enumerate(tokens):
        lt = t.lower()
        if lt in _NEGATIONS or lt.endswith("n't"):
            # the negated word: the first content word after it ("not be liable" → liable,
            # "shall not exceed the fees" → exceed, "no party may assign" → party)
            for u in tokens[i + 1 : i + 4]:
                if u in ".,;:()":
                    break
                lu = u.lower()
                if lu not in _STOP and lu not in _NEGATIONS and lu not in _ADVERBS:
                    negated.setdefault(_stem(u), u)
                    break
    # plain stems, not paraphrase keys: "not exceed" is "capped", so the two must not be one word here
    every = {_stem(t): t for t in reversed(tokens) if t not in ".,;:()"}
    return negated, every


# ── atomic claims ─────────────────────────────────────────────────────────────────────────────────
_CLAUSE_SPLIT = re.compile(
    r"\s*;\s*(?:and\s+|but\s+)?|\s+[—–]\s+|\s+--\s+|,?\s+(?:and|but|whereas|while)\s+(?:also\s+)?"
)


def split_claims(text: str) -> list[str]:
    """Split a claim into atomic claims: by sentence, then at "; " and at "and"/"but" joining clauses.

    A conjunction splits only where both sides have a verb of their own ("may fix fees …, and may do
    so retrospectively" is two claims; "employees and contractors" is one). A right side that starts
    with its verb borrows the left side's subject: "The Authority may do so retrospectively".
    """
    out: list[str] = []
    for a, b in split_sentences(text):
        out.extend(_split_clauses(text[a:b]))
    return [c for c in out if _words(c)]


def _split_clauses(sentence: str) -> list[str]:
    sentence = sentence.strip()
    parts: list[str] = []
    last = 0
    subject = ""
    for m in _CLAUSE_SPLIT.finditer(sentence):
        left = sentence[last : m.start()]
        right = sentence[m.end() :]
        # a semicolon or a spaced dash separates two statements whatever their verbs
        semicolon = (
            bool(re.search(r"[;—–]|--", m.group(0))) and len(_words(left)) >= 3 and len(_words(right)) >= 3
        )
        if not semicolon and (not _has_verb(left) or not _right_is_clause(right)):
            continue
        parts.append(left)
        if not subject:
            subject = _subject_of(left)
        last = m.end()
    if not parts:
        return [sentence.rstrip(" .;")]
    parts.append(sentence[last:])
    out = []
    for i, p in enumerate(parts):
        p = p.strip().rstrip(" .;,")
        if i and subject and _starts_with_verb(p):
            p = f"{subject} {p}"
        if p:
            out.append(p[0].upper() + p[1:])
    return out


def _has_verb(text: str) -> bool:
    return any(w.lower() in _CLAUSE_VERBS for w in _words(text))


def _right_is_clause(right: str) -> bool:
    """The right side of a conjunction has its own verb within a few words, and no other
    conjunction comes first ("England and Wales, and the Supplier shall…" splits at the second)."""
    words = [w.lower() for w in _words(right)[:6]]
    for i, w in enumerate(words[:5]):
        if w in _CLAUSE_VERBS:
            return i + 1 < len(words) or len(words) >= 2
        if w in ("and", "but", "or", "whereas", "while"):
            return False
    return False


def _starts_with_verb(text: str) -> bool:
    words = _words(text)
    return bool(words) and words[0].lower() in _CLAUSE_VERBS


def _subject_of(text: str) -> str:
    words = list(_WORD.finditer(text))
    for m in words:
        if m.group(0).lower() in _CLAUSE_VERBS:
            return text[: m.start()].strip()
    return ""


# ── the checks ───────────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """One reason a claim is not fully supported: which check, the words at issue, and whether
    deleting `remove` from the claim would leave a wording the passage does support."""

    check: str  # value | name | scope | negation | modal | precision | causal | vocabulary
    words: str
    detail: str
    remove: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check, "words": self.words, "detail": self.detail, "remove": self.remove}


@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeVerdict:
    """What a judge says about a claim the rules could not decide."""

    label: Support
    explanation: str


@runtime_checkable
class Judge(Protocol):
    """A model-based judge, asked only what the deterministic rules could not decide.

    Any exception, or a label that is not a `Support`, makes the row `unverifiable` — never a pass.
    """

    name: str

    def judge(self, claim: str, passages: Sequence[str]) -> JudgeVerdict: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class SupportCheck:
    """The outcome of checking one atomic claim against its passages."""

    label: Support
    explanation: str
    problems: tuple[Problem, ...] = ()
    proposed: str | None = None  # the narrower wording, for `partial`
    decided_by: str = "rules"


def check_support(claim: str, passages: Sequence[str], *, judge: Judge | None = None) -> SupportCheck:
    """Check one atomic claim against the union of its cited passages."""
    texts = [p for p in passages if p and p.strip()]
    if not texts:
        return SupportCheck(
            label=Support.UNVERIFIABLE,
            explanation="no verified passage to inspect: the claim cannot be checked against the text",
        )
    passage = "\n".join(texts)
    problems = _problems(claim, passage)
    hard = [p for p in problems if p.remove is None and p.check != "vocabulary"]
    soft = [p for p in problems if p.remove is not None]
    vocab = [p for p in problems if p.check == "vocabulary"]
    if hard:
        return SupportCheck(
            label=Support.UNSUPPORTED, explanation=_explain(hard + soft), problems=tuple(problems)
        )
    narrowed = claim
    for p in soft:
        narrowed = _remove(narrowed, p.remove or "")
    # the vocabulary check is made on the narrowed wording: "contractors" is dealt with by removing it
    missing = _missing_content(narrowed, passage)
    total = max(len(_content_stems(narrowed)), 1)
    if missing and len(missing) / total >= MISSING_UNSUPPORTED:
        words = ", ".join(f"'{w}'" for w in missing)
        vocab_problem = Problem(
            check="vocabulary", words=words, detail=f"the passage does not contain {words}"
        )
        return SupportCheck(
            label=Support.UNSUPPORTED,
            explanation=_explain([*soft, vocab_problem]),
            problems=(*problems, vocab_problem) if not vocab else tuple(problems),
        )
    if missing:
        words = ", ".join(f"'{w}'" for w in missing)
        undecided = Problem(
            check="vocabulary",
            words=words,
            detail=f"the passage does not use {words}; the rules cannot tell whether it says the same",
        )
        if judge is not None:
            return _ask_judge(judge, narrowed if soft else claim, texts, soft, undecided)
        return SupportCheck(
            label=Support.UNVERIFIABLE,
            explanation=_explain([*soft, undecided]) + " (needs a reviewer or a judge)",
            problems=(*soft, undecided),
            proposed=narrowed if soft else None,
        )
    if soft:
        return SupportCheck(
            label=Support.PARTIAL,
            explanation=_explain(soft) + "; narrower: " + "; ".join(f"remove '{p.remove}'" for p in soft),
            problems=tuple(soft),
            proposed=narrowed,
        )
    return SupportCheck(
        label=Support.SUPPORTED,
        explanation="every value, name, scope word and modal in the claim is in the passage",
    )


def _ask_judge(
    judge: Judge, claim: str, passages: Sequence[str], soft: Sequence[Problem], undecided: Problem
) -> SupportCheck:
    name = getattr(judge, "name", type(judge).__name__)
    try:
        verdict = judge.judge(claim, list(passages))
        label = Support(verdict.label)
        explanation = str(verdict.explanation)
    except Exception as exc:  # a judge's failure is never a pass
        return SupportCheck(
            label=Support.UNVERIFIABLE,
            explanation=f"{undecided.detail}; judge {name} failed ({type(exc).__name__}: {exc})",
            problems=(*soft, undecided),
            decided_by=f"judge:{name}",
        )
    if label is Support.SUPPORTED and soft:
        label = Support.PARTIAL
    return SupportCheck(
        label=label,
        explanation=f"judge {name}: {explanation}",
        problems=(*soft, undecided),
        proposed=claim if soft else None,
        decided_by=f"judge:{name}",
    )


def _explain(problems: Iterable[Problem]) -> str:
    return "; ".join(p.detail for p in problems)


def _remove(text: str, words: str) -> str:
    i = text.find(words)
    if i == -1:
        return text
    out = text[:i] + text[i + len(words) :]
    return re.sub(r"\s{2,}", " ", out).strip()


def _missing_content(claim: str, passage: str) -> list[str]:
    have = set(_content_stems(passage))
    out: list[str] = []
    masked = _mask_values(claim)
    starts = {a for a, _b in split_sentences(masked)}
    for m in _WORD.finditer(masked):
        w = m.group(0).strip("'’-")
        lw = w.lower()
        if lw in _STOP or lw in _NEGATIONS or lw in _UNIVERSAL or lw in _MONTHS or len(lw) < 2:
            continue
        if lw in _UNITS or lw in _TENS or lw in _SCALES:
            continue  # numbers are the value check's
        if w[0].isupper() and not _first_word(masked, m.start(), starts):
            continue  # capitalised words are the name check's, except where a sentence starts
        if _canon(_stem(w)) not in have and lw not in out:
            out.append(lw)
    return out


def _best_sentence(claim: str, passage: str) -> str:
    stems = set(_content_stems(claim))
    best, best_score = passage, -1
    for a, b in split_sentences(passage):
        s = passage[a:b]
        score = len(stems & set(_content_stems(s)))
        if score > best_score:
            best, best_score = s, score
    return best


def _problems(claim: str, passage: str) -> list[Problem]:
    problems: list[Problem] = []
    # values
    pvalues = extract_values(passage)
    for v in extract_values(claim):
        if not value_present(v, pvalues):
            same = [p.text for p in pvalues if p.kind == v.kind]
            has = f" (it has {', '.join(repr(s) for s in same)})" if same else ""
            problems.append(
                Problem(check="value", words=v.text, detail=f"'{v.text}' is not in the passage{has}")
            )
    # names and defined terms
    problems.extend(_name_problems(claim, passage))
    # scope: coordinated nouns, universal quantifiers
    problems.extend(_scope_problems(claim, passage, skip={p.words for p in problems}))
    # strength
    sentence = _best_sentence(claim, passage)
    problems.extend(_modal_problems(claim, sentence, passage))
    problems.extend(_negation_problems(claim, sentence))
    for phrase in _PRECISION:
        if _has_phrase(claim, phrase) and not _has_phrase(passage, phrase):
            problems.append(
                Problem(
                    check="precision",
                    words=phrase,
                    detail=f"adds precision the passage does not give: '{phrase}'",
                )
            )
    for phrase in _CAUSAL:
        if _has_phrase(claim, phrase) and not _has_phrase(passage, phrase):
            problems.append(
                Problem(
                    check="causal",
                    words=phrase,
                    detail=f"stronger causal language than the passage: '{phrase}'",
                )
            )
    return problems


_NAME_STOP = _wordset(
    """The A An This That These Those It Its If In On At Under Upon Each Either Neither Both All Any No Not
    Where When While Whereas However Also Only As For To By With Without There Such Our We You Your They
    He She His Her Clause Clauses Section Sections Schedule Article Paragraph Part Para Sub I
    Ltd Limited Inc Incorporated LLC LLP Plc PLC Corp Corporation Co GmbH AG SA BV NV"""
)


def _name_problems(claim: str, passage: str) -> list[Problem]:
    out: list[Problem] = []
    masked = _mask_values(claim)
    sentence_starts = {a for a, _b in split_sentences(masked)}
    for m in re.finditer(r"\b[A-Z][A-Za-z'’-]*", masked):
        word = m.group(0).rstrip("'’-")
        if len(word) < 2 or word in _NAME_STOP or word.lower() in _MONTHS or word.lower() in ("ii", "iii"):
            continue
        if _first_word(masked, m.start(), sentence_starts):
            continue  # a capital because the sentence starts there: the vocabulary check reads it
        if word.isupper() and _acronym_in(word, passage):
            continue  # "IP" for "Intellectual Property"
        base = re.sub(r"['’]s$", "", word)
        if re.search(rf"(?<![\w]){re.escape(base)}(?![\w])", passage):
            continue
        if re.search(rf"(?<![\w]){re.escape(base.upper())}(?![\w])", passage):
            continue  # "SUPPLIER" in an all-capitals clause
        coord = _coordination_containing(claim, m.start(), m.end(), passage)
        if any(p.words == base for p in out):
            continue
        out.append(
            Problem(
                check="name",
                words=base,
                detail=f"names '{base}', which the passage does not",
                remove=coord.strip(" ,") if coord else None,
            )
        )
    return out


def _first_word(text: str, pos: int, sentence_starts: set[int]) -> bool:
    before = text[:pos].rstrip()
    return pos in sentence_starts or not before or before[-1] in ':—–("“'


def _acronym_in(acronym: str, passage: str) -> bool:
    """Whether the passage spells out `acronym` as capitalised words ("IP" ← "Intellectual Property")."""
    letters = acronym.rstrip("s")
    if len(letters) < 2:
        return False
    words = r"\W+".join(rf"{ch}[a-z]+" for ch in letters)
    return re.search(rf"\b{words}\b", passage) is not None


_COORD = re.compile(
    r"(?P<left>(?:[A-Za-z][\w'’-]*\s+){0,1}[A-Za-z][\w'’-]*)"
    r"(?P<conj>\s*,?\s+(?:and|or|and/or)\s+)"
    r"(?P<right>(?:(?:the|its|their|all|any|other)\s+)?[A-Za-z][\w'’-]*)"
)


def _coordination_containing(claim: str, start: int, end: int, passage: str) -> str | None:
    """If claim[start:end] is one conjunct of "X and Y" and the other conjunct is in the passage,
    the text to delete so the claim keeps only the supported conjunct; else None."""
    have = set(_content_stems(passage)) | {w.lower() for w in _words(passage)}
    for m in _COORD.finditer(claim):
        lw = _words(m.group("left"))[-1]
        rw = _words(m.group("right"))[-1]
        ls, rs = m.start("left") + m.group("left").rfind(lw), m.start("right") + m.group("right").rfind(rw)
        if ls <= start < ls + len(lw) and (_canon(_stem(rw)) in have or rw.lower() in have):
            return claim[ls : m.end("conj")]
        if rs <= start < rs + len(rw) and (_canon(_stem(lw)) in have or lw.lower() in have):
            return claim[m.start("conj") : m.end("right")]
    return None


def _scope_problems(claim: str, passage: str, *, skip: set[str]) -> list[Problem]:
    out: list[Problem] = []
    have = set(_content_stems(passage))
    for m in _COORD.finditer(claim):
        lw = _words(m.group("left"))[-1]
        rw = _words(m.group("right"))[-1]
        if lw in skip or rw in skip or lw.lower() in _CLAUSE_VERBS or rw.lower() in _CLAUSE_VERBS:
            continue
        if len(lw) < 2 or len(rw) < 2:
            continue
        if lw.lower() in _STOP or rw.lower() in _STOP:
            continue
        l_in, r_in = _canon(_stem(lw)) in have, _canon(_stem(rw)) in have
        if l_in and not r_in:
            out.append(
                Problem(
                    check="scope",
                    words=rw,
                    detail=f"the passage names '{lw}' but not '{rw}'",
                    remove=claim[m.start("conj") : m.end("right")].strip(" ,"),
                )
            )
        elif r_in and not l_in:
            ls = m.start("left") + m.group("left").rfind(lw)
            out.append(
                Problem(
                    check="scope",
                    words=lw,
                    detail=f"the passage names '{rw}' but not '{lw}'",
                    remove=claim[ls : m.end("conj")].strip(" ,"),
                )
            )
    passage_universal = any(w.lower() in _UNIVERSAL for w in _words(passage))
    if not passage_universal:
        for w in _words(claim):
            if w.lower() in _UNIVERSAL:
                out.append(
                    Problem(
                        check="scope",
                        words=w,
                        detail=f"broadens scope with '{w}', which the passage does not say",
                        remove=w,
                    )
                )
    return out


def _modal_problems(claim: str, sentence: str, passage: str) -> list[Problem]:
    c = _modal_classes(claim)
    if not c:
        return []
    p = _modal_classes(sentence) or _modal_classes(passage)
    if not p:
        return []
    out = []
    for cls, words in c.items():
        if cls not in p:
            said = ", ".join(f"'{w}' ({k})" for k, w in p.items())
            out.append(
                Problem(
                    check="modal",
                    words=words,
                    detail=f"'{words}' ({cls}) but the passage says {said}",
                )
            )
    return out


def _negation_problems(claim: str, sentence: str) -> list[Problem]:
    c_neg, c_all = _negated_stems(claim)
    p_neg, p_all = _negated_stems(sentence)
    out = []
    # a word one side negates that the other states without negation
    for negated, other_all, other_neg, who, other in (
        (p_neg, c_all, c_neg, "the passage", "the claim"),
        (c_neg, p_all, p_neg, "the claim", "the passage"),
    ):
        flipped = [negated[s] for s in negated if s in other_all and s not in other_neg]
        if flipped:
            words = ", ".join(repr(w) for w in flipped)
            out.append(
                Problem(
                    check="negation",
                    words=", ".join(flipped),
                    detail=f"{who} negates {words}; {other} does not",
                )
            )
    return out


# ── the ledger ───────────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True, slots=True, kw_only=True)
class CitedPassage:
    """A verified passage a claim cites: the document's own text at `[start, end)`."""

    finding: str | None
    start: int | None
    end: int | None
    text: str
    section: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "finding": self.finding,
            "start": self.start,
            "end": self.end,
            "section": self.section,
            "text": self.text,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class LedgerRow:
    """One atomic claim, its passages, its support label, and what to do about it."""

    id: str
    claim: str
    source: str  # the finding id or answer sentence the claim came from
    original: str  # the whole claim it was split from
    passages: tuple[CitedPassage, ...]
    support: Support
    explanation: str
    action: str
    authority: Authority
    proposed: str | None = None
    rejected: str | None = None
    problems: tuple[Problem, ...] = ()
    decided_by: str = "rules"
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "claim": self.claim,
            "source": self.source,
            "original": self.original,
            "passages": [p.to_dict() for p in self.passages],
            "support": self.support.value,
            "explanation": self.explanation,
            "action": self.action,
            "proposed": self.proposed,
            "rejected": self.rejected,
            "authority": self.authority,
            "decided_by": self.decided_by,
            "problems": [p.to_dict() for p in self.problems],
            **dict(self.extra),
        }


def ledger_rows(
    claim: str,
    passages: Sequence[CitedPassage],
    *,
    source: str,
    authority: Authority,
    judge: Judge | None = None,
    unverifiable_reason: str | None = None,
) -> list[LedgerRow]:
    """Split `claim` into atomic claims and check each against the union of `passages`."""
    rows = []
    atoms = split_claims(claim) or [claim.strip()]
    for i, atom in enumerate(atoms, 1):
        source_authority = authority
        if unverifiable_reason is not None:
            check = SupportCheck(label=Support.UNVERIFIABLE, explanation=unverifiable_reason)
        elif m := _EVALUATIVE.search(atom):
            source_authority = "playbook"
            check = SupportCheck(
                label=Support.UNVERIFIABLE,
                explanation=(
                    f"a judgement against the playbook ('{m.group(0)}'), not a statement of the "
                    "contract: no passage can establish it"
                ),
            )
        else:
            check = check_support(atom, [p.text for p in passages], judge=judge)
        action = ACTIONS[check.label]
        explanation = check.explanation
        if check.label is Support.UNSUPPORTED:
            explanation += "; removed unless new evidence is verified"
        rows.append(
            LedgerRow(
                id=f"{source}.{i}",
                claim=atom,
                source=source,
                original=claim,
                passages=tuple(passages),
                support=check.label,
                explanation=explanation,
                action=action,
                authority=source_authority,
                proposed=check.proposed,
                rejected=atom if check.label is Support.PARTIAL else None,
                problems=check.problems,
                decided_by=check.decided_by,
            )
        )
    return rows


_ANNEX_LABEL = re.compile(r"(?i)^(schedule|exhibit|annex|appendix|attachment)\b")


def authority_of(finding: Mapping[str, Any], document: Document | None) -> Authority:
    """Where a finding's words come from: the contract body, a schedule/exhibit, or a document the
    contract refers to but that was not supplied. Recorded beside the support label, never in it."""
    if str(finding.get("outcome") or "") == "referenced_not_provided":
        return "referenced_not_supplied"
    verified = [
        c for c in finding.get("citations") or () if isinstance(c, Mapping) and c.get("status") == "verified"
    ]
    if not verified:
        return "none"
    for c in verified:
        if _in_annex(c, document):
            return "schedule"
    return "contract"


def _in_annex(citation: Mapping[str, Any], document: Document | None) -> bool:
    start = citation.get("start")
    if document is not None and isinstance(start, int):
        for s in document.sections:
            if s.start <= start < s.end and (
                s.kind in ("schedule", "exhibit") or _ANNEX_LABEL.match(s.label)
            ):
                return True
        return False
    return bool(_ANNEX_LABEL.match(str(citation.get("section") or "")))


def finding_passages(finding: Mapping[str, Any]) -> list[CitedPassage]:
    """The verified passages of a finding (its citations whose status is `verified`)."""
    out = []
    for c in finding.get("citations") or ():
        if isinstance(c, Mapping) and c.get("status") == "verified" and isinstance(c.get("text"), str):
            out.append(
                CitedPassage(
                    finding=str(finding.get("id")),
                    start=c.get("start"),
                    end=c.get("end"),
                    text=c["text"],
                    section=c.get("section"),
                )
            )
    return out


def build_ledger(
    findings: Sequence[Mapping[str, Any]], *, document: Document | None = None, judge: Judge | None = None
) -> list[LedgerRow]:
    """One row per atomic claim of every finding that surfaced (rejected findings never do)."""
    rows: list[LedgerRow] = []
    for f in findings:
        if f.get("status") == "rejected":
            continue
        fid = str(f.get("id"))
        claim = str(f.get("claim") or "").strip()
        if not claim:
            continue
        passages = finding_passages(f)
        reason = None
        if f.get("evidence") == "absence":
            reason = "absence finding: no passage to inspect (it reports what was searched and not found)"
        elif f.get("outcome") == "referenced_not_provided":
            reason = (
                "the claim is about terms the contract refers to but that were not supplied: "
                "a passage cannot establish what is in them"
            )
        elif not passages:
            reason = "no verified passage: the finding's citations could not be inspected"
        made = ledger_rows(
            claim,
            passages,
            source=fid,
            authority=authority_of(f, document),
            judge=judge,
            unverifiable_reason=reason,
        )
        pid = f.get("proposal_id")
        rows.extend(replace(r, extra={**r.extra, "proposal_id": pid}) for r in made)
    return rows


def summarize(rows: Sequence[LedgerRow]) -> dict[str, int]:
    counts = {s.value: 0 for s in Support}
    for r in rows:
        counts[r.support.value] += 1
    return counts


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
