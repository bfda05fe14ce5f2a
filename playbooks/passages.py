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
from dataclasses import dataclass

__all__ = ["Passage", "Passages"]

_ABBREV = {
    "inc", "ltd", "co", "corp", "no", "nos", "sec", "secs", "e.g", "i.e", "u.s", "mr", "ms", "mrs", "dr",
    "st", "vs", "v", "etc", "cf", "para", "paras", "art", "arts", "jr", "sr", "n.a", "l.l.c", "l.p", "s.a",
    "b.v", "n.v", "u.k", "u.s.a", "approx", "incl", "dept", "est", "fig", "ref", "cl", "sch", "pty",
}  # fmt: skip
_SENT_END = re.compile(r"[.!?][\"”’')\]]*(?=[ \t\r\n]+[\"“‘(\[]?[A-Z0-9])")
_PARA = re.compile(r"\n[ \t\r]*\n")
_LABEL_LINE = re.compile(
    r"\n(?=[ \t]*(?:\d{1,3}(?:\.\d{1,3})*\.?|\([a-zA-Z0-9]{1,5}\)|[a-z]\.|[A-Z]\.|"
    r"(?:Section|SECTION|Article|ARTICLE|Clause|CLAUSE|Schedule|SCHEDULE|Exhibit|EXHIBIT|Annex|ANNEX)"
    r"\s+\S+)[ \t])"
)
_LINE = re.compile(r"(?m)^[ \t]*([^\n]{2,100}?)[ \t\r]*$")
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_LIST_ITEM = re.compile(r"\(?[a-zA-Z0-9]{1,5}[.)]\s|[-•●·*]\s")


def _heading_like(line: str) -> bool:
    """A short line that is a heading: all capitals, or a few title-case words without a full stop."""
    s = line.strip()
    if not s or s[-1] in ".;:,!?" or len(s) > 100:
        return False
    body = re.sub(
        r"^(?:\d{1,3}(?:\.\d{1,3})*\.?|[IVXLC]+\.|\([a-z0-9]{1,4}\)|(?:ARTICLE|Article|Section|SECTION)\s+\S+)\s*",
        "",
        s,
    )
    letters = [c for c in body if c.isalpha()]
    if len(letters) < 3:
        return False
    if all(c.isupper() for c in letters):
        return True
    words = body.split()
    return len(words) <= 8 and all(
        w[0].isupper() or w.lower() in ("and", "of", "the", "to", "for", "or", "in", "on")
        for w in words
        if w[0].isalpha()
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Passage:
    start: int
    end: int
    heading: bool = False


class Passages:
    """The passages of one text, in order, with fast lookup by offset."""

    def __init__(self, text: str) -> None:
        self.text = text
        cuts = {0, len(text)}
        heading_ranges: set[tuple[int, int]] = set()
        for m in _PARA.finditer(text):
            cuts.add(m.end())
        for m in _LABEL_LINE.finditer(text):
            cuts.add(m.end())
        for m in _SENT_END.finditer(text):
            w = _WORD_BEFORE.search(text, max(0, m.start() - 12), m.start())
            if w:
                word = w.group(1).lower()
                if word in _ABBREV or (len(word) == 1 and word.isalpha() and text[m.start() - 1].isupper()):
                    continue
            # "10." at the start of a line is a clause label, not a sentence end
            line_start = text.rfind("\n", 0, m.start()) + 1
            if re.fullmatch(
                r"[ \t]*(?:\d{1,3}(?:\.\d{1,3})*|[A-Za-z]|[IVXLC]+)", text[line_start : m.start()]
            ):
                continue
            cuts.add(m.end())
        for m in _LINE.finditer(text):
            if _heading_like(m.group(1)):
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
                out.append(Passage(start=s, end=e, heading=(s, e) in heading_ranges))
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
