"""Sentences and clause references: how the ledger cuts a passage and finds the clauses it names."""

from __future__ import annotations

import re
from collections.abc import Sequence

from citationgate.ledger.labels import _wordset

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
