"""The words a document uses to name itself — its parties, its defined terms, its title — and a question
with those words taken out.

A question put to one contract often names the parties and describes the deal ("If the co-hosting
arrangement with Acme goes badly, what's the most one side could pay the other?"). Those words say which
document is meant, not which clause: every clause of that contract is between those parties under that
title. Read as meaning, they pull the question towards whatever clause type their words resemble (an
"escrow" deal read as Source Code Escrow, "Contoso Insurance Ltd" read as insurance), so the question is
read as clause types without them (`playbooks.retrieve`).

- A party's name goes whole once the question names it by one of its distinctive words: "Contoso Insurance"
  loses "Insurance" too, while "what insurance must they hold?" keeps it.
- Other defined terms and the title's words go unless they describe clause types themselves (`keep`: the
  clause-type descriptions and category names): "Term", "Territory" and "License" stay.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = ["OwnWords", "document_words"]

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:['’][A-Za-z]+)?")
# short or common words are never taken out: they carry the question's grammar, not the document's name
_KEEP = frozenset(
    re.findall(
        r"\w+",
        "a an and as at be by co corp corporation company companies for from in inc incorporated is it "
        "limited llc ltd l p lp of on or party parties plc s sa the this to with agreement contract",
    )
)
# where a party's legal name ends: an address, a place of incorporation
_NAME_END = re.compile(r",|\b(?:a|an)\s+(?:[A-Z][a-z]+\s+)?(?:corporation|company)\b|\bhaving\b|\bwhose\b")


def _base(word: str) -> str:
    """Lower case, a possessive dropped ("Apollo's" → "apollo")."""
    return re.sub(r"['’]s$", "", word.lower())


def _words(text: str) -> set[str]:
    return {w for m in _WORD.finditer(text) if len(w := _base(m.group(0))) > 2 and w not in _KEEP}


@dataclass(frozen=True, slots=True)
class OwnWords:
    """A document's names for itself: `names` (each party's name and defined terms, as one set of words)
    and `words` (its other defined terms and its title, clause vocabulary left out)."""

    words: frozenset[str] = frozenset()
    names: tuple[frozenset[str], ...] = ()
    keep: frozenset[str] = field(default=frozenset(), repr=False)

    def taken(self, question: str) -> frozenset[str]:
        """The (lower-cased) words of `question` that name the document."""
        asked = {_base(m.group(0)) for m in _WORD.finditer(question)}
        out = set(self.words & asked)
        for name in self.names:
            if (name - self.keep) & asked:  # named by a distinctive word: the whole name goes
                out |= name & asked
        return frozenset(out)

    def without(self, question: str) -> str:
        """The question without the words that name the document (whitespace closed up); the question
        itself when nothing of it would be left."""
        taken = self.taken(question)
        if not taken:
            return question
        out = " ".join(
            _WORD.sub(lambda m: "" if _base(m.group(0)) in taken else m.group(0), question).split()
        )
        return out if _words(out) else question

    def found(self, question: str) -> tuple[str, ...]:
        """The words `without` takes out, as the question writes them (first occurrence of each)."""
        if self.without(question) == question:
            return ()
        taken = self.taken(question)
        seen: dict[str, str] = {}
        for m in _WORD.finditer(question):
            if (b := _base(m.group(0))) in taken:
                seen.setdefault(b, m.group(0))
        return tuple(seen.values())

    def __or__(self, other: OwnWords) -> OwnWords:
        return OwnWords(self.words | other.words, self.names + other.names, self.keep | other.keep)


def document_words(text: str, *, keep: Iterable[str] = ()) -> OwnWords:
    """The document's parties' names (with their defined terms), its other defined terms and its title;
    `keep` is a clause vocabulary, never taken out of defined terms and titles."""
    from playbooks.contract_type.classify import _title
    from playbooks.drafting import _definitions
    from playbooks.parties import read_parties

    kept = frozenset(_base(w) for w in keep)
    names: list[frozenset[str]] = []
    for party in read_parties(text):
        name = _words(_NAME_END.split(party.name)[0])
        for term in party.terms:
            name |= _words(term)
        if name:
            names.append(frozenset(name))
    found: set[str] = set()
    for term in _definitions(text[:200_000]):
        found |= _words(term)
    found |= _words(_title(text))
    return OwnWords(frozenset(found - kept), tuple(names), kept)
