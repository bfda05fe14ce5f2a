"""From values to an outcome: positions in order, and the weak links that keep a verdict from being earned."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playbooks.engine.context import DEFAULT_SEVERITY, _Context, _heading_words_in_body, _Region, _Value
from playbooks.predicates import AnyOf, Compare, Predicate, evaluate
from playbooks.schema import MUTUAL_PARTY, CompiledClause, CompiledField, CompiledPosition


def _fields_of(pred: Predicate) -> list[str]:
    if isinstance(pred, Compare):
        return [pred.field]
    if hasattr(pred, "items"):
        return [f for it in pred.items for f in _fields_of(it)]
    return _fields_of(pred.item)


def _fields_read(pred: Predicate, raw: Mapping[str, Any]) -> list[str]:
    """The fields a matched position read: all it names, but a value it requires to be absent that is absent
    ("and the supplier may not assign to its affiliates": nothing says it may) — no reading was made of it."""
    absent = {
        c.field for c in _compares(pred) if c.op == "exists" and c.value is False and raw.get(c.field) is None
    }
    others = {c.field for c in _compares(pred) if not (c.op == "exists" and c.value is False)}
    return [f for f in _fields_of(pred) if f not in absent or f in others]


def _compares(pred: Predicate) -> list[Compare]:
    if isinstance(pred, Compare):
        return [pred]
    if hasattr(pred, "items"):
        return [c for it in pred.items for c in _compares(it)]
    return _compares(pred.item)


def _show(v: Any) -> str:
    if isinstance(v, Mapping) and "amount" in v:
        return f"{v.get('currency', '')} {v['amount']:,}".strip()
    if isinstance(v, list):
        return "none" if not v else ", ".join(map(str, v))
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


#: what the other side is called, by the playbook's role
_OTHER_ROLE = {
    "customer": "supplier",
    "supplier": "customer",
    "licensee": "licensor",
    "licensor": "licensee",
    "recipient": "discloser",
    "discloser": "recipient",
}


def _if_named(named: Sequence[tuple[str, str]], our_role: str) -> str:
    """The condition a reading by the parties' own names holds on: "“Datec” is the supplier"."""
    role = {"us": our_role, "them": _OTHER_ROLE.get(our_role, "other party")}
    said = [f"“{name}” is the {role[side]}" for side, name in sorted(named, key=lambda x: x[0] != "them")]
    return " and ".join(said)


def _describe_values(
    names: Sequence[str],
    values: Mapping[str, _Value],
    *,
    unstated: Sequence[str] = (),
    unread: Sequence[str] = (),
    our_role: str = "customer",
    undecided: bool = False,
    not_read: Mapping[str, str] | None = None,
) -> str:
    """The values a judgement used, each with the words it was read from; a yes/no the clause does not
    state (`unstated`, a weak link of the finding) is said to be not stated, never shown as "no"; a yes/no
    read by the parties' own names while who is us is not resolved says which party it holds of. Where the
    finding decides nothing (`undecided`: needs review), a value defaulted from silence is said to be not
    found, never shown as a reading ("transition: no" beside "the necessary information transfer"); and where
    the clause holds words of such a value the engine could not read (`not_read`: field → its words), it says
    so, with them ("written variation: not read (“no alteration … save by an instrument both sign”)")."""
    parts = []
    not_read = not_read or {}
    for n in dict.fromkeys(names):
        v = values.get(n)
        if v is None:
            continue
        name = n.replace("_", " ")
        if n in not_read and n not in unstated and v.inferred and undecided:
            parts.append(f"{name}: not read (“{_short(not_read[n])}”)")
        elif n in unstated:
            parts.append(f"{name}: not read" if n in not_read else f"{name}: not stated")
        elif n in unread:
            parts.append(f"{name}: not read")
        elif v.mutual and v.ev.value is True:
            parts.append(f"{name}: {_show(v.ev.value)}, of each party alike (“{_short(v.ev.text)}”)")
        elif v.each:
            said = " and of ".join(f"“{who}”" for who in v.each)
            parts.append(f"{name}: {_show(v.ev.value)} of {said} alike (“{_short(v.ev.text)}”)")
        elif v.named:
            cond = _if_named(v.named, our_role)
            parts.append(f"{name}: {_show(v.ev.value)} if {cond} (“{_short(v.ev.text)}”)")
        elif v.inferred and undecided:
            parts.append(f"{name}: not found")
        elif v.inferred:
            parts.append(f"{name}: {_show(v.ev.value)} (no wording found)")
        else:
            parts.append(f"{name}: {_show(v.ev.value)} (“{_short(v.ev.text)}”)")
    return "; ".join(parts)


def _short(s: str, n: int = 80) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def _fill(template: str, values: Mapping[str, _Value]) -> str:
    def sub(m: re.Match[str]) -> str:
        v = values.get(m.group(1))
        if v is None:
            return "(not found)"
        if v.inferred or isinstance(v.ev.value, list | bool):
            return _show(v.ev.value)
        return _short(v.ev.text)

    return re.sub(r"\{([a-z][a-z0-9_.]*)\}", sub, template)


def _sev_get(sev: Mapping[Any, str], outcome: str) -> str | None:
    return sev.get(outcome)


def _severity(clause_sev: Mapping[Any, str], outcome: str) -> str:
    return clause_sev.get(outcome) or DEFAULT_SEVERITY[outcome]


def _not_found(unknown: Sequence[str]) -> str:
    return f"{', '.join(unknown)} not found in the clause"


def _decide(
    positions: Sequence[CompiledPosition],
    raw: Mapping[str, Any],
    otherwise: str,
    say: Callable[[Sequence[str]], str] = _not_found,
    unmatched: str | None = None,
) -> tuple[str, CompiledPosition | None, str, list[str]]:
    """(outcome, deciding position, reason, fields the decision read); `say` words the values no reading
    was made of (the engine's own: what the clause holds of them, see `unread`)."""
    blocked: list[tuple[CompiledPosition, tuple[str, ...]]] = []
    for pos in positions:
        v = evaluate(pos.when, raw)
        fields = _fields_of(pos.when)
        if pos.outcome == "unacceptable":
            if v.result:
                return "unacceptable", pos, f"{pos.reason or 'red line'} [{v.decided_by}]", fields
            if v.result is None:
                blocked.append((pos, v.unknown))
            continue
        if blocked:
            p, unknown = blocked[0]
            why = p.reason or p.when.render()
            return (
                "needs_review",
                p,
                f"could not check the red line '{why}': {say(unknown)}",
                _fields_of(p.when),
            )
        if v.result:
            label = "standard position" if pos.outcome == "standard" else f"fallback {pos.rank}"
            return pos.outcome, pos, f"{pos.reason or label} [{v.decided_by}]", _fields_read(pos.when, raw)
        if v.result is None:
            return (
                "needs_review",
                pos,
                f"{say(v.unknown)}, so the {pos.outcome} position cannot be checked",
                fields,
            )
    if blocked:
        p, unknown = blocked[0]
        return (
            "needs_review",
            p,
            f"could not check the red line '{p.reason or p.when.render()}': {say(unknown)}",
            _fields_of(p.when),
        )
    if not positions:
        return "standard", None, "present", []
    # no position matched: the outcome rests on every value the positions read, so those are quoted
    read = list(dict.fromkeys(f for pos in positions for f in _fields_of(pos.when)))
    return otherwise, None, unmatched or "no position of the playbook matched", read


def _judge(
    clause: CompiledClause, values: Mapping[str, _Value], say: Callable[[Sequence[str]], str] = _not_found
) -> tuple[str, CompiledPosition | None, str, list[str]]:
    """(outcome, deciding position, reason, fields read) from the values read in the clause."""
    raw = {k: v.ev.value for k, v in values.items()}
    if clause.not_applicable_when is not None and evaluate(clause.not_applicable_when, raw).result:
        return (
            "not_applicable",
            None,
            f"not applicable [{clause.not_applicable_when.render()}]",
            _fields_of(clause.not_applicable_when),
        )
    conflicts = [(k, v.conflict) for k, v in values.items() if v.conflict]
    if conflicts:
        k, c = conflicts[0]
        return "needs_review", None, f"unparseable: {k} — {c}", [k]
    positions = clause.model.positions
    return _decide(clause.positions, raw, positions.otherwise, say, positions.unmatched)


def _position_fields(clause: CompiledClause) -> list[str]:
    """The fields the clause's positions are judged by (what a located clause must state)."""
    return list(dict.fromkeys(f for pos in clause.positions for f in _fields_of(pos.when)))


def _reads(values: Mapping[str, _Value], fields: Sequence[str]) -> int:
    """How many of `fields` were read from the contract's words (not defaulted from silence)."""
    return sum(1 for f in fields if (v := values.get(f)) is not None and not v.inferred)


def _silent_everywhere(ctx: _Context, f: CompiledField) -> bool:
    """None of the field's "yes" words occur anywhere in the document, and they name no party."""
    if not f.true_if or any("{us}" in p or "{them}" in p for p in f.spec.true_if):
        return False
    return not any(ctx.scanner.passages_matching(rx) for rx in f.true_if)


#: a redaction mark in a filed copy: "[***]", "[*]", "***", "[REDACTED]"
_REDACTION = re.compile(r"\[\s*\*+\s*\]|\*{3,}|\[\s*redacted\b[^\]\n]{0,60}\]", re.IGNORECASE)
#: how near a value's words a redaction must be to put the value in doubt
_REDACTION_REACH = 80


#: the kinds of value a redaction can stand in for (an amount, a period, a rate, a date)
_REDACTABLE = frozenset({"money", "duration", "percent", "date"})


def _redacted(
    ctx: _Context, clause: CompiledClause, values: Mapping[str, _Value], used: Sequence[str]
) -> str | None:
    """A weak link when words right beside an amount, period, rate or date the judgement used are redacted
    in this copy ("up to a maximum of *** … in any period of 12 calendar months"): what was removed may be
    the value itself."""
    kinds = {f.name: f.spec.type for f in clause.fields}
    for n in dict.fromkeys(used):
        v = values.get(n)
        if v is None or v.inferred or kinds.get(n) not in _REDACTABLE:
            continue
        lo, hi = max(0, v.ev.start - _REDACTION_REACH), min(len(ctx.text), v.ev.end + _REDACTION_REACH)
        m = _REDACTION.search(ctx.text, lo, hi)
        if m:
            return (
                f"words beside {n.replace('_', ' ')} are redacted in this copy (“{m.group(0)}”): what was "
                "removed may change it"
            )
    return None


#: words that bind each party alike: a mutual subject, "neither Party" (which binds both), or a grant "to
#: each other"
_MUTUAL = re.compile(
    MUTUAL_PARTY + r"|\bneither\s+(?:party|of\s+the\s+parties)\b|\bto\s+(?:each\s+other|one\s+another)\b",
    re.IGNORECASE,
)


def _speaks_of_sides(f: CompiledField) -> bool:
    """Whether a field's words name a side ({us} or {them}): its reading depends on who is who."""
    spec = f.spec
    words = [*spec.true_if, *spec.false_if, *(p for ps in spec.cues.values() for p in ps)]
    return spec.type == "holder" or spec.binds is not None or any("{us}" in w or "{them}" in w for w in words)


def _sides_do_not_matter(clause: CompiledClause, values: Mapping[str, _Value], used: Sequence[str]) -> bool:
    """Whether the judgement holds whoever is us: every value it used that depends on the sides was read
    from words that bind each party alike ("Either Party may audit the records of the other Party"), from
    the same words said of each of two parties by its own name, or it is a right both parties hold."""
    sided = [f.name for f in clause.fields if f.name in used and _speaks_of_sides(f)]
    if not sided:
        return False
    fields = {f.name: f for f in clause.fields}
    for n in sided:
        v = values.get(n)
        if v is None or v.inferred:
            return False
        joint = fields[n].spec.type == "holder" and v.ev.value == fields[n].spec.values[0]
        if not (joint or v.each or v.mutual or _MUTUAL.search(v.ev.text)):
            return False
    return True


#: a quantifier that makes the atom before it optional ("s?", "\\w*", "[^.]{0,80}")
_QUANT_OPTIONAL = re.compile(r"\?|\*|\{0,?\d*\}")


def _pattern_words(pattern: str) -> frozenset[str]:
    """The whole words of a pattern's literal text, each as written from its first letter ("terminat" of
    `terminat\\w*`, "consent", "continue" of `continues?`): a run of letters counts only where a word starts
    in the text the pattern matches, never a fragment after a class or a group ("ation" of
    `authori[sz]ation` or `termin(?:ate|ation)`), and a letter the pattern makes optional is left off."""
    p = pattern.lower()
    words: set[str] = set()
    letterish = False  # whether the text matched just before here can end in a letter
    stack: list[tuple[bool, bool, list[bool]]] = []  # per open group: state at open, lookaround, ends
    before = False  # the state before the last atom (for a quantifier that makes it optional)
    gap = False  # the last atom is a gap between words ("[^.]{0,80}", "\\s*"): the word after it starts anew
    run, run_start = "", False
    i = 0

    def end_run() -> None:
        nonlocal run
        if run and run_start and len(run) >= 5:
            words.add(run)
        run = ""

    while i < len(p):
        c = p[i]
        if c.isalpha() and "a" <= c <= "z":
            if not run:
                run_start = not letterish
            before, letterish, gap = letterish, True, False
            nxt = p[i + 1 : i + 8]
            if _QUANT_OPTIONAL.match(nxt):  # "s?" — the letter is optional: the word ends before it
                end_run()
            else:
                run += c
            i += 1
            continue
        end_run()
        if c == "\\" and i + 1 < len(p):
            before, letterish = letterish, p[i + 1] == "w"
            gap = p[i + 1] in "swb"
            i += 2
        elif c == "[":
            j = i + 1
            negated = p[j : j + 1] == "^"
            while j < len(p) and p[j] != "]":
                j += 2 if p[j] == "\\" else 1
            body = p[i + 1 : j]
            before, letterish = letterish, not negated and bool(re.search(r"[a-z]", re.sub(r"\\.", "", body)))
            gap = negated
            i = j + 1
        elif c == "(":
            gap = False
            look = p.startswith(("(?=", "(?!", "(?<=", "(?<!"), i)
            m = re.match(r"\((?:\?(?:P<\w+>|<=|<!|[=!:]|[a-z]+[:)]))?", p[i:])
            stack.append((letterish, look, []))
            i += len(m.group(0)) if m else 1
        elif c == "|":
            if stack:
                stack[-1][2].append(letterish)
                letterish = stack[-1][0]
            else:
                letterish = False
            i += 1
        elif c == ")":
            gap = False
            if stack:
                at_open, look, ends = stack.pop()
                ends.append(letterish)
                before = at_open
                letterish = at_open if look else any(ends)
            i += 1
        elif q := _QUANT_OPTIONAL.match(p, i):
            letterish = letterish or (before and not gap)
            i = q.end()
            if p[i : i + 1] in ("?", "+"):
                i += 1
        elif c == "{":
            j = p.find("}", i)
            i = j + 1 if j != -1 else i + 1
            if p[i : i + 1] in ("?", "+"):
                i += 1
        elif c == "+":
            i += 1
            if p[i : i + 1] in ("?", "+"):
                i += 1
        else:
            before, letterish, gap = letterish, False, c == " "
            i += 1
    end_run()
    return frozenset(words)


#: words so common in contracts that they say nothing of what a clause is about (by their first five letters)
_COMMON_STEMS = frozenset(
    {
        "infor", "confi", "propr", "agree", "parti", "party", "shall", "perio", "notic", "writt", "withi",
        "after", "follo", "servi", "terms", "month", "weeks", "years", "their", "which", "under", "other",
        "there", "where", "prior", "those", "these", "herei", "hereu", "ident", "cause", "given", "being",
        "about", "wheth",
    }
)  # fmt: skip


def _topic_words(f: CompiledField, clause: CompiledClause | None = None) -> frozenset[str]:
    """The words a yes/no field's "yes" patterns are made of, the ones most of its patterns share
    ("terminat" of `terminat\\w*` for a right to terminate; "return", "destroy" for returning information),
    each as a whole word of the pattern (the shortest form the patterns write it in). The words of the
    clause's own headings ("force majeure" for a force majeure clause's termination right) are left out where
    two others remain: every such clause uses them, whether or not it states the field."""
    pats = f.spec.true_if
    per = [{w for w in _pattern_words(p) if w[:5] not in _COMMON_STEMS} for p in pats]
    need = max(1, (len(pats) + 1) // 2)
    stems: dict[str, list[str]] = {}
    for ws in per:
        for st in {w[:5] for w in ws}:
            # ties broken by the word itself: a set's order changes from one run to the next
            stems.setdefault(st, []).append(min((w for w in ws if w[:5] == st), key=lambda w: (len(w), w)))
    words = frozenset(min(forms, key=lambda w: (len(w), w)) for forms in stems.values() if len(forms) >= need)
    heads = {
        w[:5] for h in (clause.model.locate.headings if clause is not None else ()) for w in h.lower().split()
    }
    # the words of the clause's own headings are no sign of the field, where two others remain to check
    rest = frozenset(w for w in words if w[:5] not in heads)
    return rest if len(rest) >= 2 else words


def _speaks_of(
    ctx: _Context, region: _Region | None, f: CompiledField, clause: CompiledClause | None
) -> bool:
    """Whether the located clause itself uses the words a field's "yes" is made of, each as the start of a
    word of its text (so its silence on the field is not the contract's: its words say something the patterns
    did not read)."""
    words = _topic_words(f, clause)
    if region is None or not words:
        return False
    items = ctx.passages.items
    body = " ".join(ctx.text[items[i].start : items[i].end] for i in region.passages).lower()
    # two of them: one word alone ("continues", "renew") is as often the clause saying something else
    return sum(1 for w in words if re.search(r"\b" + re.escape(w), body)) >= min(2, len(words))


def _unstated(
    ctx: _Context, clause: CompiledClause, values: Mapping[str, _Value], used: Sequence[str]
) -> list[str]:
    """The yes/no fields a judgement used that were defaulted from the clause's silence, where the silence
    is not the whole contract's (see `_weak_links`)."""
    bools = {f.name: f for f in clause.fields if f.spec.type == "bool"}
    return [
        n
        for n in dict.fromkeys(used)
        if n in bools
        and (v := values.get(n)) is not None
        and v.inferred
        and not _silent_everywhere(ctx, bools[n])
    ]


def _own_seat(
    ctx: _Context, clause: CompiledClause, values: Mapping[str, _Value], pos: CompiledPosition | None
) -> _Value | None:
    """Where a red line is drawn only from jurisdictions (a governing law, a forum) and each is one the
    preamble places us in (`ctx.seat`: our incorporation or address), our seat's words as a value to
    quote; else None. The law of our own seat is no red line against us."""
    if pos is None or not ctx.seat:
        return None
    kinds = {f.name: f.spec.type for f in clause.fields}
    fields = _fields_of(pos.when)
    if not fields or any(kinds.get(n) != "jurisdiction" for n in fields):
        return None
    read = [values[n] for n in fields if n in values and not values[n].inferred]
    if not read:
        return None
    seats = {s.value: s for s in ctx.seat}
    if any(v.ev.value not in seats for v in read):
        return None
    seat = seats[read[0].ev.value]
    return _Value(seat, (seat.start, seat.end), None, False)


def _rests_on_defaults(
    clause: CompiledClause,
    pos: CompiledPosition | None,
    values: Mapping[str, _Value],
    unstated: Sequence[str],
) -> bool:
    """Whether a position holds only by the yes/no values defaulted from the clause's silence (`unstated`):
    every field that settled its condition was defaulted. "binds customer: not stated" is no reading that
    the covenant leaves us free, so a standard position or a fallback drawn from it is not earned."""
    if pos is None or not unstated:
        return False
    raw = {k: v.ev.value for k, v in values.items()}
    deciding = _deciding_fields(pos.when, raw)
    sided = {f.name for f in clause.fields if _speaks_of_sides(f)}
    # a condition that also reads a value from the words ("we may audit: yes" and "they audit us: not
    # stated") stands on it; one settled by an alternative read from nothing does not. Only the values that
    # say who is bound or who may act: a clause that names no indemnity is silent on one by its own words
    return bool(deciding) and all(f in unstated and f in sided for f in deciding)


def _deciding_fields(pred: Predicate, raw: Mapping[str, Any]) -> list[str]:
    """The fields whose values settled a condition that holds: of `any`, the alternative that holds; of
    `all` (or a negation), every field it reads."""
    if isinstance(pred, AnyOf):
        held = next((it for it in pred.items if evaluate(it, raw).result is True), None)
        return _deciding_fields(held, raw) if held is not None else _fields_of(pred)
    return _fields_of(pred)


def _unread(
    ctx: _Context,
    clause: CompiledClause,
    region: _Region,
    values: Mapping[str, _Value],
    pos: CompiledPosition | None,
    unstated: Sequence[str],
) -> list[str]:
    """The yes/no fields an adverse verdict (unacceptable or a fallback) stands on that were defaulted to "no"
    from the whole contract's silence although the located clause itself uses their words ("either Party
    shall have the right to terminate" in a force majeure clause that no "yes" pattern reads): no value the
    position reads was read from words, so the verdict would rest on what the patterns missed. Fields about
    a side are left out (a clause binding one side is silent on the other by its nature)."""
    if pos is None:
        return []
    fields = _fields_of(pos.when)
    if _reads(values, fields):
        return []
    bools = {f.name: f for f in clause.fields if f.spec.type == "bool" and not _speaks_of_sides(f)}
    return [
        n
        for n in dict.fromkeys(fields)
        if n in bools
        and n not in unstated
        and (v := values.get(n)) is not None
        and v.inferred
        and _speaks_of(ctx, region, bools[n], clause)
    ]


@dataclass(frozen=True, slots=True)
class _Links:
    """The links of a judgement that do not hold, each said as a reader would check it (`weak`), and the
    pieces the engine decides with: the yes/no fields defaulted from the clause's silence (`unstated`), a
    redaction beside a value (`redacted`), and whether unresolved roles hold the verdict back
    (`roles_matter`)."""

    weak: tuple[str, ...]
    unstated: tuple[str, ...]
    redacted: str | None
    roles_matter: bool


def _weak_links(
    ctx: _Context,
    clause: CompiledClause,
    region: _Region,
    values: Mapping[str, _Value],
    used: Sequence[str],
    unstated_said: Callable[[Sequence[str]], str] | None = None,
) -> _Links:
    """The links of this judgement that do not hold, each computed once; `unstated_said` words the yes/no
    values defaulted from the clause's silence (by default: the clause does not state them)."""
    weak: list[str] = []
    # a value read of one party by its own name holds only if that party is the side it speaks of
    named = any(v.named for n in used if (v := values.get(n)) is not None)
    roles_matter = bool(
        ctx.roles_unresolved
        and (clause.role_dependent or named)
        and not _sides_do_not_matter(clause, values, used)
    )
    if roles_matter:
        weak.append(f"who is us is not resolved ({ctx.roles_unresolved})")
    redacted = _redacted(ctx, clause, values, used)
    if redacted:
        weak.append(redacted)
    # a yes/no read from silence ("no wording found") is not a reading — unless the silence is the whole
    # contract's: none of the words that would make it "yes" occur anywhere in the document (and the words
    # do not depend on who is who, where a narrow pattern could miss the parties' own names). A list the
    # clause itself gives with none of the values in it (no carve-out listed) is a reading too.
    inferred = _unstated(ctx, clause, values, used)
    if inferred:
        said = ", ".join(n.replace("_", " ") for n in inferred)
        weak.append(unstated_said(inferred) if unstated_said else f"the clause does not state {said}")
    loc = ctx.locations.get(clause.id)
    if loc is not None and loc.doubted and region.via == "pattern":
        weak.append(
            f"the clause was found by its patterns only and the learned locator ({loc.locator}) reads no "
            f"{loc.category} clause anywhere in the document"
        )
    heading_only = region.via == "heading" and not any(region.weights.get(i, 0) for i in region.passages)
    if heading_only and not _heading_words_in_body(ctx, clause, region):
        weak.append("the clause was found by its heading only; none of its operative words occur under it")
    return _Links(weak=tuple(weak), unstated=tuple(inferred), redacted=redacted, roles_matter=roles_matter)
