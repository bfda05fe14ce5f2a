"""Many patterns over one text, each tried only where one of its leading words stands.

Reading who pays and who provides runs some thirty patterns per party over the whole contract ("X shall pay",
"paid by X", "services provided by X"); each is specific to the party's defined term, so none is cached,
and the regex engine tries every one at every character of the text — most of a review's time on a long
contract. Yet each pattern can only begin where one of a few words begins: the party's term or "the" before
it, or a fixed word ("pay", "provide", "in consideration"). `Text.findall` returns exactly what
`re.findall` returns — the same matches, in the same order, none overlapping — by trying
`pattern.match(text, i)` only at those places, in order, resuming after each match as `findall` does.
The places are found with `str.find` in a copy of the text lowered letter by letter (the same length, every
character the regex engine's case-insensitive matching equates with an ASCII letter written as that
letter), so they are a superset of where the pattern can match, whatever its flags; `match` at a position
sees the characters before it as `findall` does (lookbehinds, `\\b`). A pattern whose leading words are
not known (`leads` is None) runs as `re.findall` would.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable

__all__ = ["THE", "Text", "term_leads", "term_leads_or_the", "term_rx", "word_starts"]

#: a lead for "the" and whitespace before one of the other leads (a term's "(?:the\s+)?")
THE = "the\\s+"
_BOUNDARY = "\\b"


def word_starts(*words: str) -> tuple[str, ...]:
    """Leads for a pattern that begins `\\b(?:word|…)`: the words, only where a word begins."""
    return tuple(_BOUNDARY + w for w in words)


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # the regex engine's `\\w` for a str pattern


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}
# the leading run of a term that the lowered copy spells the same: ASCII letters and digits
_LEAD = re.compile(r"[a-z0-9]+")


def term_leads(spellings: Iterable[str]) -> tuple[str, ...] | None:
    """The leading words of the spellings of a defined term, lowered ("Merger Corp" → "merger"); None if
    one of them does not begin with an ASCII letter or digit (it is then matched everywhere)."""
    leads = []
    for s in spellings:
        m = _LEAD.match(s.translate(_ASCII_LOWER))
        if not m:
            return None
        leads.append(m.group(0))
    return tuple(leads)


def term_leads_or_the(*spellings: str) -> tuple[str, ...] | None:
    """The leads of a cue that begins with a party's term or "the" before it."""
    leads = term_leads(spellings)
    return None if leads is None else (*leads, THE)


def term_rx(term: str) -> str:
    """A defined term as a pattern, any run of whitespace between its words."""
    return re.escape(term).replace(r"\ ", r"\s+")


class Text:
    """One contract's text, with the places its words begin found once and kept."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._lowered: str | None = None
        self._places: dict[str, list[int]] = {}
        self._starts_of: dict[tuple[str, ...], list[int]] = {}
        self._compiled: dict[tuple[str, int], re.Pattern[str]] = {}
        self._lowerable = True

    @property
    def lowered(self) -> str:
        if self._lowered is None:
            low = self.text.lower()  # ASCII letters lowered; other characters as `str.lower` has them
            like = {} if self.text.isascii() else self._like_ascii()
            if len(low) != len(self.text):  # a capital lowered into two characters ("İ"): letter by letter
                low = self.text.translate({**_ASCII_LOWER, **{ord(ch): ord(x) for ch, x in like.items()}})
            else:
                for ch, x in like.items():
                    low = low.replace(ch.lower(), x)
            self._lowered = low
        return self._lowered

    def _like_ascii(self) -> dict[str, str]:
        """Each character of the text outside ASCII that case-insensitive matching equates with an ASCII
        letter (the Kelvin sign with "k", the long s with "s", a dotted capital I with "i") → that letter;
        one equated with two letters leaves the text not lowerable (its patterns then run everywhere)."""
        out: dict[str, str] = {}
        for ch in set(self.text):
            if ch.isascii():
                continue
            if not re.fullmatch("[a-z]", ch, re.IGNORECASE):
                continue
            like = [x for x in string.ascii_lowercase if re.fullmatch(x, ch, re.IGNORECASE)]
            if len(like) == 1:
                out[ch] = like[0]
            elif like:
                self._lowerable = False
        return out

    def places(self, word: str) -> list[int]:
        """Every index at which `word` (lowered ASCII) begins in the lowered text, overlaps included."""
        found = self._places.get(word)
        if found is None:
            low, found, i = self.lowered, [], -1
            while (i := low.find(word, i + 1)) >= 0:
                found.append(i)
            self._places[word] = found
        return found

    def pattern(self, rx: str, flags: int) -> re.Pattern[str]:
        key = (rx, flags)
        p = self._compiled.get(key)
        if p is None:
            p = self._compiled[key] = re.compile(rx, flags)
        return p

    def findall(
        self, rx: str, flags: int, leads: Iterable[str] | None, *, limit: int | None = None
    ) -> list[re.Match[str]]:
        """What `re.finditer(rx, text, flags)` yields (its first `limit` matches), trying the pattern only
        where one of `leads` begins. Every match of `rx` must begin with one of `leads` (case aside): a word
        (lowered ASCII), a word after `\\b` (`word_starts`), or `THE` ("the" and whitespace before one of
        the other leads, as a term's "(?:the\\s+)?" reads)."""
        if leads is None or not (self.lowered and self._lowerable):
            return self._everywhere(rx, flags, limit)
        places = self._starts(tuple(leads))
        if not places:
            return []  # no leading word: nothing to compile or try
        pattern = self.pattern(rx, flags)
        text, out, resume = self.text, [], 0
        for i in places:
            if i < resume:
                continue
            m = pattern.match(text, i)
            if m is None:
                continue
            if m.end() == m.start():  # an empty match: findall's resumption rules apply; run it plainly
                return self._everywhere(rx, flags, limit)
            out.append(m)
            if limit is not None and len(out) >= limit:
                break
            resume = m.end()
        return out

    def _starts(self, leads: tuple[str, ...]) -> list[int]:
        """Where a pattern with these leads can begin, in order (see `findall`)."""
        found = self._starts_of.get(leads)
        if found is not None:
            return found
        text, places = self.text, set()
        for lead in leads:
            if lead == THE:
                continue
            bounded = lead.startswith(_BOUNDARY)
            for i in self.places(lead[len(_BOUNDARY) :] if bounded else lead):
                # `\b` before a word: the character before is not of the word's kind
                if bounded and i and _is_word(text[i - 1]) == _is_word(text[i]):
                    continue
                places.add(i)
        if THE in leads:
            low = self.lowered
            for k in list(places):
                j = k
                while j > 0 and text[j - 1].isspace():
                    j -= 1
                if j < k and j >= 3 and low[j - 3 : j] == "the":
                    places.add(j - 3)
        found = self._starts_of[leads] = sorted(places)
        return found

    def _everywhere(self, rx: str, flags: int, limit: int | None) -> list[re.Match[str]]:
        out = []
        for m in self.pattern(rx, flags).finditer(self.text):
            out.append(m)
            if limit is not None and len(out) >= limit:
                break
        return out
