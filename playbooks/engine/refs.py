"""The sections a clause names by number, followed to what they are.

"EXCEPT FOR DAMAGES ARISING UNDER SECTIONS 14.A AND 16.A, IN NO EVENT WILL … TOTAL LIABILITY … EXCEED …": the
cap's carve-outs are whatever sections 14.A and 16.A are — here the infringement indemnity ("14. CLAIMS OF
INFRINGEMENT / A. INDEMNIFICATION") and an indemnity for bodily injury and death. A set value read from an
exclusion list (`after: true`) that is only a reference to sections is completed with the values those
sections' headings and opening words carry; the evidence stays the reference itself, in the clause quoted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ingest.document import Document, Section
from playbooks.extract import Hit

__all__ = ["bare_label", "referenced_values"]

#: one section number as a cross-reference writes it: "5.2", "3.06", "14.A", "7(b)", "IV"
_REF = r"\d{1,3}(?:\.\d{1,3}){0,3}(?:\.[A-Z](?![A-Za-z])|\([a-z0-9]{1,3}\))?|[IVX]{1,5}(?![A-Za-z])"
#: a reference to one or more sections: "Sections 14.A and 16.A", "Section 9", "clauses 7(b), 8 or 9"
_REFERENCE = re.compile(
    rf"(?i:sections?|articles?|clauses?|paragraphs?)\s+(?:{_REF})"
    rf"(?:\s*(?:,|(?i:and/or|and|or)|&)\s*(?:(?i:sections?|articles?|clauses?)\s+)?(?:{_REF})){{0,5}}"
)
_ONE = re.compile(_REF)
#: the words that open a reference (a set value's cue that matched only these matched a reference)
_OPENS_REFERENCE = re.compile(r"(?i:sections?|articles?|clauses?|paragraphs?)\b")
#: a word that says what kind of clause a section is, not what it is about: an "Indemnification" section is an
#: IP indemnity only if it speaks of infringement
_KIND_WORD = re.compile(r"indemni\w*$", re.IGNORECASE)
#: how much of a named section is read: its heading and its opening words
_OPENING = 400
#: how many sections one reference is followed to
_FOLLOWED = 4


def bare_label(label: str) -> str:
    """A section's label as a bare number: "Section 3.06" → "3.06", "5.2." → "5.2", "A." → "A"."""
    return re.sub(
        r"^(?:Section|SECTION|Clause|CLAUSE|Paragraph|Article|ARTICLE)\s+", "", label.strip()
    ).rstrip(".")


def _section(doc: Document, ref: str) -> Section | None:
    """The one section `ref` names: "14.A" is sub-section "A" of section 14 (or section 14 itself, where it
    has no such sub-section); None where no section, or more than one, carries the number."""
    ref = ref.rstrip(".")
    sub = ""
    m = re.fullmatch(r"(.+?)(?:\.([A-Z])|\(([a-z0-9]{1,3})\))", ref)
    if m and m.group(1)[:1].isdigit():
        ref, sub = m.group(1), (m.group(2) or m.group(3) or "")
    exact = [s for s in doc.sections if bare_label(s.label) == ref]
    if len(exact) != 1:
        return None
    top = exact[0]
    if sub:
        inner = [
            s
            for s in doc.sections
            if top.start < s.start < top.end
            and s.level > top.level
            and bare_label(s.label).strip("()") == sub
        ]
        if len(inner) == 1:
            return inner[0]
    return top


def referenced_values(
    doc: Document, hit: Hit, cues: Mapping[str, Sequence[re.Pattern[str]]], own: tuple[int, int]
) -> list[Hit]:
    """The set values the sections named at `hit` carry in their headings and opening words ("SECTIONS 14.A
    AND 16.A": ip_indemnity, death_personal_injury), each as a hit on the section's number in the reference;
    [] where the hit is no reference to sections, or they carry none. A section inside `own` (the clause's own
    passage) is not followed."""
    text = doc.text
    if not _OPENS_REFERENCE.match(text, hit.start):
        return []
    m = _REFERENCE.match(text, hit.start)
    if m is None:
        return []
    out: list[Hit] = []
    for r in list(_ONE.finditer(text, m.start(), m.end()))[:_FOLLOWED]:
        sec = _section(doc, r.group())
        if sec is None or own[0] <= sec.start < own[1]:
            continue
        parent = next(
            (s for s in reversed(doc.sections) if s.start < sec.start < s.end and s.level < sec.level), None
        )
        words = " ".join(
            [
                parent.heading if parent is not None else "",
                sec.heading,
                text[sec.start : min(sec.end, sec.start + _OPENING)],
            ]
        )
        for value, pats in cues.items():
            if value == hit.value or any(h.value == value for h in out):
                continue
            if any((c := p.search(words)) is not None and not _KIND_WORD.match(c.group()) for p in pats):
                out.append(Hit(value=value, start=r.start(), end=r.end()))
    return out
