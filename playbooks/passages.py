"""Cutting a contract's text into quotable passages — sentences, list items, headings — with offsets.

A passage is `[start, end)` into the document text with no whitespace at either edge, so
`text[start:end]` is always a tight, verbatim quote. Cuts fall at the end of a sentence (not after
"Inc." or "U.S."), at a blank line, before a numbered line ("10.2", "(a)", "Section 5") and around a
heading line. A passage ending in ":" keeps its list items available through `with_list`.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Passage", "Passages"]

_ABBREV = {
    "inc", "ltd", "co", "corp", "no", "nos", "sec", "secs", "e.g", "i.e", "u.s", "mr", "ms", "mrs", "dr",
    "st", "vs", "v", "etc", "cf", "para", "paras", "art", "arts", "jr", "sr", "n.a", "l.l.c", "l.p", "s.a",
    "b.v", "n.v", "u.k", "u.s.a", "approx", "incl", "dept", "est", "fig", "ref", "cl", "sch", "pty", "a.m",
    "p.m",
}  # fmt: skip
#: "Dec. 8, 2005": a month's abbreviation before a day's number ends no sentence
_MONTH_ABBREV = {"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"}
_DAY_NEXT = re.compile(r"\s+\d{1,2}\b")
#: "this 16 day of August. 2012": a stray full stop between a month and its year ends no sentence
_MONTHS = {
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december",
}  # fmt: skip
_YEAR_NEXT = re.compile(r"\s+(?:19|20)\d{2}\b")
_SENT_END = re.compile(r"[.!?][\"”’')\]]*(?=[ \t\r\n]+[\"“‘(\[]?[A-Z0-9])")
_PARA = re.compile(r"\n[ \t\r]*\n")
_LABEL_LINE = re.compile(
    r"\n(?=[ \t]*(?:\d{1,3}(?:\.\d{1,3})*\.?|\([a-zA-Z0-9]{1,5}\)|[a-z]\.|[A-Z]\.|"
    r"(?:Section|SECTION|Article|ARTICLE|Clause|CLAUSE|Schedule|SCHEDULE|Exhibit|EXHIBIT|Annex|ANNEX)"
    r"\s+\S+)[ \t])"
)
_STRONG_LABEL = re.compile(
    r"[ \t]*(?:\d{1,3}\.\d{1,3}(?:\.\d{1,3})*\.?|\d{1,3}\.|(?:Section|SECTION|Article|ARTICLE)\s+\S+)[ \t]"
)
_REF_TAIL = re.compile(r"\b(?:Sections?|Clauses?|Articles?|and|or|to|of|in|under|with)$", re.IGNORECASE)
_LINE = re.compile(r"(?m)^[ \t]*([^\n]{2,100}?)[ \t\r]*$")
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_LIST_ITEM = re.compile(r"\(?[a-zA-Z0-9]{1,5}[.)]\s|[-•●·*]\s")


_LABEL_START = re.compile(
    r"(?:\d{1,3}(?:\.\d{1,3})*\.?|[IVXLC]+\.|\([a-z0-9]{1,4}\)|(?:ARTICLE|Article|Section|SECTION)\s+\S+)\s*"
)


_NON_SPACE_BEFORE = re.compile(r"(\S)\s*$")
_NON_SPACE_AFTER = re.compile(r"\s*(\S)")


def _mid_sentence(text: str, start: int, end: int) -> bool:
    """Whether a blank-line break falls inside a sentence — a page break in a filed copy ("shall exclusively
    lie in the⏎⏎⏎state and federal courts"): the words before it end in a lower-case letter or a comma and the
    words after it begin in lower case."""
    before = _NON_SPACE_BEFORE.search(text, max(0, start - 40), start)
    after = _NON_SPACE_AFTER.match(text, end)
    if before is None or after is None:
        return False
    b, a = before.group(1), after.group(1)
    return (b == "," or (b.isalpha() and b.islower())) and a.isalpha() and a.islower()


def _heading_like(line: str, before: str) -> bool:
    """A short line that is a heading: all capitals, or a few title-case words without a full stop.

    `before` is the text of the line above: a heading follows a blank line or a finished sentence, or
    carries its own clause number — an all-capitals line inside a paragraph of capitals is not one.
    """
    s = line.strip()
    if not s or s[-1] in ".;:,!?" or len(s) > 100:
        return False
    label = _LABEL_START.match(s)
    body = s[label.end() :] if label else s
    prev = before.rstrip(" \t\r")
    strong = label is not None and _STRONG_LABEL.match(s[: label.end()] + " ") is not None
    if not strong and prev and prev[-1] not in ".;:!?":
        return False
    words = body.split()
    if not words or len(words) > 10:
        return False
    letters = [c for c in body if c.isalpha()]
    if len(letters) < 3:
        return False
    if all(c.isupper() for c in letters):
        return True
    small = ("and", "of", "the", "to", "for", "or", "in", "on")
    return len(words) <= 8 and all(w[0].isupper() or w.lower() in small for w in words if w[0].isalpha())


@dataclass(frozen=True, slots=True, kw_only=True)
class Passage:
    start: int
    end: int
    heading: bool = False


class Passages:
    """The passages of one text, in order, with fast lookup by offset."""

    def __init__(self, text: str, *, furniture: Sequence[tuple[int, int]] = ()) -> None:
        self.text = text
        cuts = {0, len(text)}
        heading_ranges: set[tuple[int, int]] = set()
        skip: set[tuple[int, int]] = set()
        for a, b in furniture:  # page headers and footers: their own passages, never quoted
            cuts.update((a, b))
            skip.add((a, b))
        for m in _PARA.finditer(text):
            if not _mid_sentence(text, m.start(), m.end()):
                cuts.add(m.end())
        for m in _LABEL_LINE.finditer(text):
            prev = text[text.rfind("\n", 0, m.start()) + 1 : m.start()].rstrip()
            label = _STRONG_LABEL.match(text, m.end())
            if label:
                if _REF_TAIL.search(prev):
                    continue  # "Section\n7.3 above": a reference wrapped onto a new line
            elif prev and prev[-1] not in ".;:!?" and not prev.endswith((" and", " or")):
                continue  # "TWELVE\n(12) MONTHS": a wrapped line, not a list item
            cuts.add(m.end())
        for m in _SENT_END.finditer(text):
            w = _WORD_BEFORE.search(text, max(0, m.start() - 12), m.start())
            if w:
                word = w.group(1).lower()
                if word in _ABBREV or (len(word) == 1 and word.isalpha() and text[m.start() - 1].isupper()):
                    continue
                if word in _MONTH_ABBREV and _DAY_NEXT.match(text, m.end()):
                    continue
                if (word in _MONTHS or word in _MONTH_ABBREV) and _YEAR_NEXT.match(text, m.end()):
                    continue
            # "10." at the start of a line is a clause label, not a sentence end
            line_start = text.rfind("\n", 0, m.start()) + 1
            if re.fullmatch(
                r"[ \t]*(?:\d{1,3}(?:\.\d{1,3})*|[A-Za-z]|[IVXLC]+)", text[line_start : m.start()]
            ):
                continue
            cuts.add(m.end())
        for m in _LINE.finditer(text):
            line_start = m.start()
            prev_start = text.rfind("\n", 0, max(line_start - 1, 0)) + 1
            before = text[prev_start:line_start] if line_start > 0 else ""
            if before.strip() == "":
                before = ""
            if _heading_like(m.group(1), before):
                cuts.add(m.start(1))
                cuts.add(m.end(1))
                heading_ranges.add((m.start(1), m.end(1)))
        ordered = sorted(cuts)
        out: list[Passage] = []
        for a, b in itertools.pairwise(ordered):
            s, e = a, b
            while s < e and text[s].isspace():
                s += 1
            while e > s and text[e - 1].isspace():
                e -= 1
            if e - s >= 2:
                inert = (s, e) in heading_ranges or (a, b) in skip or (s, e) in skip
                out.append(Passage(start=s, end=e, heading=inert))
        self.items: tuple[Passage, ...] = tuple(out)
        self._starts = [p.start for p in out]

    def index_at(self, offset: int) -> int:
        """Index of the passage containing (or the last one starting before) `offset`."""
        return max(bisect.bisect_right(self._starts, offset) - 1, 0)

    def within(self, start: int, end: int) -> range:
        """Indices of the passages that start inside `[start, end)`."""
        return range(bisect.bisect_left(self._starts, start), bisect.bisect_left(self._starts, end))

    def with_list(self, i: int, *, limit: int = 12) -> tuple[int, int]:
        """Passage i, extended over the list items that follow it when it ends with ":" (or ";" items)."""
        p = self.items[i]
        end = p.end
        if self.text[p.end - 1] not in ":;—-" and not self.text[p.start : p.end].rstrip().endswith(
            (" and", " or")
        ):
            return p.start, end
        j = i + 1
        while j < len(self.items) and j <= i + limit:
            q = self.items[j]
            if not _LIST_ITEM.match(self.text, q.start) and self.text[end - 1] not in ";:":
                break
            if q.heading:
                break
            end = q.end
            if self.text[q.end - 1] == "." and not self.text[q.start : q.end].rstrip(".").endswith(
                (" and", " or")
            ):
                break
            j += 1
        return p.start, end
