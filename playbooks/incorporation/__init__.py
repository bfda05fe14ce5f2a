"""Whether a document incorporates or amends another agreement that is not in the file.

An addendum, amendment, statement of work or order form often leaves its terms to the agreement it belongs
to: "subject to the terms and conditions of the Master Agreement", "the terms of the Distribution Agreement
will apply to all areas not covered by Exhibit B", "in accordance with the termination provisions of the
Supply Agreement". A clause missing from such a document may stand in the agreement it names, which the
engine has not read — so an absence there is not a finding that the contract lacks it.

`incorporations(text)` finds those sentences, each with the agreement it names, its span and, for a
topic-specific reference ("the Governing Law and Dispute Resolution provisions of …"), the topics. "this
Agreement" is the document itself and never counts; a passing mention of another agreement ("the parties'
Nondisclosure Agreement remains in effect") incorporates nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

#: the name of another agreement: capitalised words ending in "Agreement" (never "this Agreement")
_NAME = r"(?P<name>(?:[A-Z][\w&/'’-]*\s+){1,5}Agreement)\b"
_THE = r"\b(?:the|said|such)\s+"
_TERMS = r"(?:terms|terms\s+and\s+conditions|provisions|conditions)"

#: general incorporation: the other agreement's terms govern this document at large
_GENERAL = tuple(
    re.compile(p)
    for p in (
        rf"\bsubject\s+to\s+(?:all\s+(?:of\s+)?)?{_THE}{_TERMS}\s+of\s+{_THE}{_NAME}",
        rf"\b{_TERMS}\s+of\s+{_THE}{_NAME}\s+(?:will|shall)\s+(?:continue\s+to\s+)?(?:apply|govern)\s+"
        r"(?:to\s+)?(?:all|any)\s+(?:areas|matters|issues|terms|subjects)\s+not\s+"
        r"(?:covered|addressed|set\s+out|specified|provided\s+for)",
        rf"\bagrees?\s+to\s+be\s+bound\s+by\s+{_THE}{_TERMS}\s+of\s+{_THE}{_NAME}",
        rf"\b(?:governed\s+by|incorporates?)\s+{_THE}{_TERMS}\s+of\s+{_THE}{_NAME}",
        rf"\b(?:amend|amends|supplement|supplements)\s+{_THE}{_NAME}",
        rf"\b(?:amendment|addendum|supplement)\s+to\s+{_THE}{_NAME}",
    )
)
#: the document's own title says it amends another agreement: "FIRST AMENDMENT TO SAGEBRUSH MANAGEMENT AND
#: MAINTENANCE AGREEMENT", "Amendment No. 2 to Distribution Agreement" (read in its opening only: a recital's
#: "as amended by the Amendment to License Agreement" names a document, it is not this one)
_TITLE_AMENDS = re.compile(
    r"\b(?i:amendment|addendum|supplement)(?:\s+(?i:no\.?|number)\s*\d+)?\s+(?i:to)\s+(?:(?i:the)\s+)?"
    r"(?!(?i:this)\s)(?P<name>(?:[A-Z][\w&/'’-]*\s+){1,6}(?:Agreement|AGREEMENT))\b"
)
#: how far into the document its title and opening sentence stand
_OPENING = 800

#: a topic-specific reference: "in accordance with the termination provisions of the X Agreement"; "the
#: Governing Law and Dispute Resolution provisions of the X Agreement will apply"
_TOPIC = re.compile(
    rf"\b(?:the\s+(?:terms\s+of\s+the\s+)?)(?P<topic>[A-Za-z][A-Za-z ,&-]{{2,80}}?)\s+"
    rf"(?:provisions?|clauses?|sections?|terms)\s+(?:set\s+(?:out|forth)\s+in|of|in|under)\s+{_THE}{_NAME}"
)

#: sections of another agreement incorporated by number, each with its title: "Articles or Sections 8.2
#: (Limitation of Liability), 9 (Indemnification), 12.2 (Force Majeure), … of the License Agreement shall be
#: deemed to be incorporated herein by reference" (read across the section numbers' full stops)
_SECTIONS = re.compile(
    r"\b(?:Articles?|Sections?|Clauses?)(?:\s+(?:or|and|and/or)\s+(?:Articles?|Sections?|Clauses?))?\s+"
    r"(?P<list>(?:\d{1,3}(?:\.\d{1,3})*(?:\s*\([a-z]\))?\s*\([A-Z][^()]{2,80}\)[\s,;]*(?:and\s+)?){2,30})"
    rf"(?:of|in|under)\s+{_THE}{_NAME}[^.]{{0,120}}?\bincorporated\b"
)
_SECTION_TITLE = re.compile(r"\(([A-Z][^()]{2,80})\)")

_SENTENCE = re.compile(r"[^.;\n]+(?:[.;]|$)", re.MULTILINE)
_NOT_TOPIC = {"the", "all", "other", "its", "such", "applicable", "relevant", "same", "said", "any", "those"}


#: how the reason of an absence left open by a general incorporation begins: its quote is the incorporating
#: sentence, not the clause, so an evaluation never counts the clause present on it
INCORPORATED_REASON = "absence not concluded: the document incorporates"


@dataclass(frozen=True, slots=True)
class Incorporation:
    """A sentence that incorporates another agreement: the agreement's name, the sentence's span, and the
    topics it gives over to the agreement (empty for a general incorporation); `listed` where the sentence
    is nothing but a list of the agreement's sections by number and title, incorporated."""

    name: str
    start: int
    end: int
    topics: tuple[str, ...] = ()
    listed: bool = False


def _topics(raw: str) -> tuple[str, ...]:
    parts = re.split(r"\s*(?:,|\band\b|&)\s*", raw)
    out = []
    for p in parts:
        words = [w for w in p.split() if w.lower() not in _NOT_TOPIC]
        if words and len(words) <= 4:
            out.append(" ".join(words).lower())
    return tuple(out)


def _clean(name: str) -> str:
    return " ".join(name.split())


_ANCILLARY = re.compile(
    r"\b(?:amendment|addendum|statement\s+of\s+work|order\s+form|supplement|schedule)\b", re.IGNORECASE
)


def _is_self(text: str, name: str) -> bool:
    """The document's own name: it stands near the top, and no addendum or amendment word comes before it."""
    at = text[:600].lower().find(name.lower())
    return at >= 0 and not _ANCILLARY.search(text, 0, at)


@lru_cache(maxsize=8)
def incorporations(text: str) -> tuple[Incorporation, ...]:
    """Every sentence of `text` that incorporates another agreement, in document order."""
    return tuple(i for i in _incorporations(text) if i.listed or not _is_self(text, i.name))


def _by_section(text: str) -> list[Incorporation]:
    """The sections of another agreement incorporated by number, their titles the topics."""
    out = []
    for m in _SECTIONS.finditer(text):
        titles = (t.strip() for t in _SECTION_TITLE.findall(m.group("list")))
        topics = tuple(dict.fromkeys(p.strip().lower() for t in titles for p in t.split("/") if p.strip()))
        if topics:
            out.append(Incorporation(_clean(m.group("name")), m.start(), m.end(), topics, listed=True))
    return out


def _incorporations(text: str) -> tuple[Incorporation, ...]:
    out: list[Incorporation] = _by_section(text)
    for s in _SENTENCE.finditer(text):
        said = s.group(0)
        a = s.start() + len(said) - len(said.lstrip())
        b = s.end()
        for m in _TOPIC.finditer(said):
            topics = _topics(m.group("topic"))
            if topics and not m.group("name").lower().startswith("this "):
                out.append(Incorporation(_clean(m.group("name")), a, b, topics))
                break
        else:
            rxs = (*_GENERAL, _TITLE_AMENDS) if s.start() < _OPENING else _GENERAL
            for rx in rxs:
                g = rx.search(said)
                if g is not None:
                    out.append(Incorporation(_clean(g.group("name")), a, b))
                    break
    return tuple(sorted(out, key=lambda i: i.start))


def general(text: str) -> tuple[Incorporation, ...]:
    """The sentences that give the document's terms at large to another agreement."""
    return tuple(i for i in incorporations(text) if not i.topics)


def _stem(w: str) -> str:
    return w.lower()[:6]


def for_topic(text: str, title: str, headings: tuple[str, ...] = ()) -> Incorporation | None:
    """The topic-specific reference that gives the clause titled `title` (with its own `headings`) to another
    agreement, if any: each word of one of its topics stands (by its first six letters) among the title's
    words, or one of the headings is all in the topic ("Submission to Jurisdiction" is a clause headed
    "jurisdiction")."""
    have = _words(title)
    heads = [h for h in map(_words, headings) if h]
    for inc in incorporations(text):
        for t in inc.topics:
            need = _words(t)
            if need and (need <= have or any(h <= need for h in heads)):
                return inc
    return None


def _words(name: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"[A-Za-z]+", name) if len(w) > 2}
