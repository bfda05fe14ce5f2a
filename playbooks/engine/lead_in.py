"""A list item read with the lead-in it hangs from: "The Distributor undertakes … that … it will:" / "(i)
allow the Supplier, on reasonable notice, access to its accounts and records" is the Distributor's promise."""

from __future__ import annotations

import re

from playbooks.engine.context import _Context
from playbooks.extract import Hit, find_bool
from playbooks.passages import _LIST_ITEM
from playbooks.schema import CompiledField

#: a lead-in whose party promises what its list items say: "The Distributor shall:", "The Distributor
#: undertakes and agrees with the Supplier that at all times during the Term it will:"
_LEAD_SUBJECT = re.compile(
    r"^\s*(?:\d+(?:\.\d+)*\.?\s+)?(?:[Tt]he\s+)?([A-Z][\w&’'-]*(?:\s+[A-Z][\w&’'-]*){0,3})\s+"
    r"(?:shall|will|must|agrees|undertakes|covenants)\b[^.;:]{0,200}:$"
)
#: the label a list item opens with: "(i) ", "b. "
_ITEM_LABEL = re.compile(r"\s*\(?[a-zA-Z0-9]{1,5}[.)]\s+")
#: … or a numbered sub-section's: "6.1.3 "
_NUMBERED = re.compile(r"\s*\d{1,3}(?:\.\d{1,3})+\.?\s+")


def _as_lead_ins_sentence(ctx: _Context, i: int) -> tuple[str, int, int] | None:
    """A list item hanging from a lead-in whose party promises it ("The Distributor shall:" … "(i) allow the
    Supplier … access to its accounts"), read as that party's own sentence: ("Distributor shall allow the
    Supplier …", where the item's own words start, how many characters were put before them); None for an
    item whose lead-in names no party before its verb."""
    lead = _lead_in(ctx, i)
    if lead is None:
        return None
    items = ctx.passages.items
    q, p = items[lead], items[i]
    m = _LEAD_SUBJECT.match(ctx.text[q.start : q.end].rstrip())
    if m is None:
        return None
    label = _ITEM_LABEL.match(ctx.text, p.start, p.end)
    body = label.end() if label else p.start
    prefix = f"{' '.join(m.group(1).split())} shall "
    return prefix + ctx.text[body : p.end], body, len(prefix)


def _lead_in_bool(ctx: _Context, i: int, f: CompiledField) -> Hit | None:
    """A yes/no read from a list item as its lead-in's party's own sentence (`_as_lead_ins_sentence`), quoted
    from the item's own words."""
    got = _as_lead_ins_sentence(ctx, i) or _under_lead_in(ctx, i)
    if got is None:
        return None
    seg, body, shift = got
    h = find_bool(seg, 0, true_if=f.true_if, false_if=f.false_if)
    if h is None or h.end - shift <= 0:
        return None
    return Hit(value=h.value, start=body + max(h.start - shift, 0), end=body + h.end - shift)


def _under_lead_in(ctx: _Context, i: int) -> tuple[str, int, int] | None:
    """A list item read after the whole lead-in it completes, where the lead-in names no party ("this
    Agreement shall only be terminated upon occurrence of the following circumstances:" / "6.1.3 Party B
    fails to provide … for more than three consecutive years due to the force majeure event"): (the lead-in
    and the item's own words, where the item's words start, how many characters were put before them)."""
    lead = _lead_in(ctx, i)
    if lead is None:
        return None
    items = ctx.passages.items
    q, p = items[lead], items[i]
    label = _ITEM_LABEL.match(ctx.text, p.start, p.end) or _NUMBERED.match(ctx.text, p.start, p.end)
    body = label.end() if label else p.start
    prefix = " ".join(ctx.text[q.start : q.end].split()) + " "
    return prefix + ctx.text[body : p.end], body, len(prefix)


def _lead_in(ctx: _Context, i: int) -> int | None:
    """The passage ending in ":" that the list item `i` hangs from, if it is one."""
    items = ctx.passages.items
    for j in range(i - 1, max(i - 13, -1), -1):
        q = items[j]
        if ctx.text[q.start : q.end].rstrip().endswith(":"):
            if ctx.passages.with_list(j)[1] >= items[i].end:
                return j
            # a list whose items each end in a full stop ("… if any of the following shall occur:" / "(a) … ."
            # / "(c) The other party materially defaults …"): every passage between is one of its items
            limbs = range(j + 1, i + 1)
            if all(not items[k].heading and _LIST_ITEM.match(ctx.text, items[k].start) for k in limbs):
                return j
            # numbered sub-sections of the lead-in's own section ("6.1 … the following circumstances:" /
            # "6.1.1 …" / "6.1.3 …")
            own = re.match(r"\s*(\d{1,3}(?:\.\d{1,3})*)\.?\s", ctx.text[q.start : q.end])
            sub = re.compile(rf"\s*{re.escape(own.group(1))}\.\d") if own else None
            if sub and all(not items[k].heading and sub.match(ctx.text, items[k].start) for k in limbs):
                return j
            return None
    return None


#: a list item that names no subject of its own: its label, then a verb in lower case ("11.2 only disclose
#: …", "(b) not use …", "4.2.1 treat as confidential …")
_SUBJECTLESS_ITEM = re.compile(
    r"\s*(?:\(?[a-zA-Z0-9]{1,4}\)|[a-zA-Z0-9]{1,4}\.|\d{1,3}(?:\.\d{1,3})+\.?)\s+(?:only\s+|not\s+|also\s+)?[a-z]"
)
#: the party a lead-in's promise is of: its last line's subject, before the verb that carries the promise
#: ("The Disclosing Party confirms that it will –", "The Recipient undertakes to:")
_LEAD_PROMISOR = re.compile(
    r"(?:^|\n)\s*(?:\d+(?:\.\d+)*\.?\s+)?([^\n]{1,80}?)\s+(?:shall|will|must|hereby|agrees?|undertakes?|covenants?"
    r"|confirms?|acknowledges?|warrants?|represents?)\b[^\n]{0,120}(?::|\s[–—-])\s*$"
)


def lead_in_promisor(ctx: _Context, i: int) -> str | None:
    """The words naming whose promise list item `i` is, where the item names no subject of its own and hangs
    from a lead-in that does: "The Disclosing Party confirms that it will –" / "11.1 use …; and" / "11.2 only
    disclose the Receiving Party's Information …" are the Disclosing Party's promises; None otherwise."""
    items = ctx.passages.items
    for j in range(i, max(i - 13, -1), -1):
        q = items[j]
        seg = ctx.text[q.start : q.end].rstrip()
        if j < i and (m := _LEAD_PROMISOR.search(seg)) is not None:
            return m.group(1)
        if q.heading or not _SUBJECTLESS_ITEM.match(seg):
            return None
    return None
