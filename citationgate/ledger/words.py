"""Words of a claim: stems, paraphrase groups, negation and modal strength, and atomic claims."""

from __future__ import annotations

import re

import Stemmer

from citationgate.ledger.labels import _wordset
from citationgate.ledger.sentences import clause_references, split_sentences
from citationgate.ledger.values import _MONTHS, _SCALES, _TENS, _UNITS, extract_values

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
