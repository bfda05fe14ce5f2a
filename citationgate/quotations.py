"""Quotations and citations in prose: where an answer quotes, and what it cites for each quote.

An answer (Markdown or plain text) quotes with straight or curly double quotes, curly single quotes used
as primary quotes (‘…’), and Markdown block quotes (`> …`). Quotes nested inside a passage belong to it;
apostrophes are not quotes; code spans, fenced code and the answer's own definitions in parentheses
(`(the "Supplier")`) are not quotations. Citations are finding ids in square brackets as `review` and
`verify` print them (`[F3]`, `[p1]`, `[F3, F4]`) and clause references ("clause 11.2", "s. 105N",
"§ 11.2", "cl. 4(a)", "Schedule 2"). `attribute` gives each passage the citation a reader would.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from citationgate.ledger import clause_references, split_sentences

Span = tuple[int, int]
CitationSource = Literal["same sentence", "following sentence", "preceding sentence"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Passage:
    """A quoted passage of the answer: `text` as written, at `[start, end)` of the answer."""

    index: int
    text: str
    start: int
    end: int
    kind: Literal["inline", "block"]
    line: int
    outer_start: int  # including the quotation mark or the block's `>` lines
    outer_end: int
    unclosed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "text": self.text,
            "kind": self.kind,
            "line": self.line,
            "start": self.start,
            "end": self.end,
            "unclosed": self.unclosed,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerCitation:
    """A citation written in the answer: finding ids (`kind="finding"`) or clause labels."""

    text: str
    kind: Literal["finding", "clause"]
    refs: tuple[str, ...]
    start: int
    end: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "kind": self.kind,
            "refs": list(self.refs),
            "start": self.start,
            "end": self.end,
        }


# ── finding passages ─────────────────────────────────────────────────────────────────────────────
_FENCE = re.compile(r"(?ms)^[ \t]*(```|~~~).*?(?:^[ \t]*\1[^\n]*$|\Z)")
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_BLOCK_LINE = re.compile(r"(?m)^[ \t]{0,3}>[^\n]*(?:\n|$)")
_BLOCK_PREFIX = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+")
_ATTRIBUTION = re.compile(r"^\s*(?:—|–|--|-|Source:|Ref:|See)\s*", re.I)
_OPEN_DOUBLE = "“„«‟"
_CLOSE_DOUBLE = "”»"
_WRAP = {'"': '"', "“": "”", "„": "“", "«": "»", "‘": "’"}


def blank(text: str, spans: Sequence[Span]) -> str:
    chars = list(text)
    for a, b in spans:
        for i in range(a, b):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def find_passages(answer: str) -> list[Passage]:
    """Every quoted passage of the answer, in order (block quotes and inline quotes)."""
    plain = answer.replace("\r", " ")  # CRLF files: a carriage return is just space here
    code = [m.span() for m in _FENCE.finditer(plain)]
    masked = blank(plain, code)
    code += [m.span() for m in _CODE_SPAN.finditer(masked)]
    masked = blank(plain, code)
    found: list[Passage] = []
    blocks = _block_regions(masked)
    for a, b in blocks:
        p = _block_passage(answer, masked, a, b)
        if p is not None:
            found.append(p)
    masked = blank(masked, blocks)
    found.extend(_inline_passages(answer, masked))
    found.sort(key=lambda p: p.start)
    return [replace(p, index=i) for i, p in enumerate(found, 1)]


def _block_regions(masked: str) -> list[Span]:
    regions: list[Span] = []
    for m in _BLOCK_LINE.finditer(masked):
        a, b = m.span()
        if regions and regions[-1][1] == a:
            regions[-1] = (regions[-1][0], b)
        else:
            regions.append((a, b))
    return regions


def _block_passage(answer: str, masked: str, a: int, b: int) -> Passage | None:
    """The quoted text of a block quote: its lines without `>`, an attribution line and trailing
    citations left out, and quotation marks wrapping the whole of it removed."""
    lines: list[Span] = []
    pos = a
    for line in masked[a:b].splitlines(keepends=True):
        prefix = _BLOCK_PREFIX.match(line)
        s = pos + (prefix.end() if prefix else 0)
        e = pos + len(line.rstrip("\n"))
        pos += len(line)
        if masked[s:e].strip():
            lines.append((s, e))
    while (
        lines
        and _ATTRIBUTION.match(masked[lines[-1][0] : lines[-1][1]])
        and _citation_spans(masked[lines[-1][0] : lines[-1][1]])
    ):
        lines.pop()
    if not lines:
        return None
    s, e = lines[0][0], lines[-1][1]
    # trailing citations written inside the block ("… used. [F2]") are not quoted text
    while True:
        tail = masked[s:e].rstrip()
        e = s + len(tail)
        cites = [c for c in _citation_spans(tail) if c[1] >= len(tail) - 1]
        if not cites:
            break
        cut = cites[-1][0]
        while cut > 0 and tail[cut - 1] in " \t(—–-":
            cut -= 1
        e = s + cut
        if tail[cites[-1][1] :].strip(" )"):
            break
    while s < e and masked[s].isspace():
        s += 1
    while e > s and masked[e - 1].isspace():
        e -= 1
    if s >= e:
        return None
    opener, closer = answer[s], answer[e - 1]
    wrapped = opener in _WRAP and closer == _WRAP[opener]
    if e - s > 2 and (
        wrapped or (opener in '"“„«' and closer in '"”»' and closer not in answer[s + 1 : e - 1])
    ):
        s, e = s + 1, e - 1
    content = "\n".join(answer[max(a0, s) : min(b0, e)] for a0, b0 in lines if max(a0, s) < min(b0, e))
    return Passage(
        index=0,
        text=content,
        start=s,
        end=e,
        kind="block",
        line=answer.count("\n", 0, s) + 1,
        outer_start=a,
        outer_end=b,
    )


def _opening_context(text: str, i: int) -> bool:
    prev = text[i - 1] if i > 0 else " "
    nxt = text[i + 1] if i + 1 < len(text) else " "
    return (prev.isspace() or prev in "([{—–-/:;,*_>" or prev in _OPEN_DOUBLE + '‘"') and not nxt.isspace()


def _closing_context(text: str, i: int) -> bool:
    prev = text[i - 1] if i > 0 else " "
    nxt = text[i + 1] if i + 1 < len(text) else " "
    return not prev.isspace() and (nxt.isspace() or nxt in ".,;:!?)]}*_")


def _inline_passages(answer: str, masked: str) -> list[Passage]:
    out: list[Passage] = []
    stack: list[tuple[str, int]] = []
    n = len(masked)

    def emit(open_pos: int, close_pos: int, *, unclosed: bool = False) -> None:
        s, e = open_pos + 1, close_pos
        while s < e and answer[s].isspace():
            s += 1
        while e > s and answer[e - 1].isspace():
            e -= 1
        if e - s < 1 or _is_definition(masked, open_pos, close_pos + (0 if unclosed else 1)):
            return
        out.append(
            Passage(
                index=0,
                text=answer[s:e],
                start=s,
                end=e,
                kind="inline",
                line=answer.count("\n", 0, s) + 1,
                outer_start=open_pos,
                outer_end=close_pos if unclosed else close_pos + 1,
                unclosed=unclosed,
            )
        )

    i = 0
    while i < n:
        ch = masked[i]
        if ch == "\n" and re.match(r"\n[ \t]*\n", masked[i:]):
            if stack and stack[0][0] != "‘":
                emit(stack[0][1], i, unclosed=True)
            stack = []
        elif ch == "“" and stack and stack[-1][0] == "„":  # „German“ quotes close with “
            _, pos = stack.pop()
            if not stack:
                emit(pos, i)
        elif ch in _OPEN_DOUBLE:
            stack.append((ch, i))
        elif ch in _CLOSE_DOUBLE:
            if stack:
                opener, pos = stack.pop()
                while stack and opener in "‘":  # an unclosed single quote inside: drop it
                    opener, pos = stack.pop()
                if not stack:
                    emit(pos, i)
        elif ch == '"':
            if stack and stack[-1][0] == '"':
                _, pos = stack.pop()
                if not stack:
                    emit(pos, i)
            elif _opening_context(masked, i):
                stack.append(('"', i))
            elif stack and stack[-1][0] in _OPEN_DOUBLE and _closing_context(masked, i):
                _, pos = stack.pop()  # “…" — a curly opener closed by a straight mark
                if not stack:
                    emit(pos, i)
            # otherwise a straight mark closing nothing open (or inside a curly quote): ignored
        elif ch == "‘" and _opening_context(masked, i):
            stack.append(("‘", i))
        elif ch == "’" and stack and stack[-1][0] == "‘":
            nxt = masked[i + 1] if i + 1 < n else " "
            if not nxt.isalpha():
                _, pos = stack.pop()
                if not stack:
                    emit(pos, i)
        i += 1
    if stack and stack[0][0] != "‘":
        emit(stack[0][1], n, unclosed=True)
    return out


def _is_definition(masked: str, a: int, b: int) -> bool:
    """`(the "Supplier")`, `("Services")`, `(each a "Party")`: the answer defining its own term."""
    before = masked[max(0, a - 25) : a]
    after = masked[b : b + 2]
    inner = masked[a + 1 : b - 1]
    return (
        re.search(r"\((?:the|each|each,? an?|an?|together,? the|collectively,? the)?\s*$", before, re.I)
        is not None
        and after.startswith(")")
        and len(inner.split()) <= 5
    )


# ── finding citations ────────────────────────────────────────────────────────────────────────────
_BRACKET = re.compile(r"\[([^\[\]\n]{1,80})\](?!\()")
_ID_SHAPE = re.compile(r"^[A-Za-z]{1,3}[-_]?\d{1,5}(?:\.\d{1,3})?$")


def _citation_spans(text: str, known_ids: frozenset[str] = frozenset()) -> list[Span]:
    return [(c.start, c.end) for c in find_citations(text, known_ids=known_ids)]


def find_citations(text: str, *, known_ids: frozenset[str] = frozenset()) -> list[AnswerCitation]:
    """Finding ids in square brackets (`[F3]`, `[p1]`, `[F3, F4]`) and clause references, in order.

    A bracket counts when every id in it is a known finding id or looks like one (letters then
    digits); `[sic]`, `[emphasis added]` and Markdown links do not.
    """
    out: list[AnswerCitation] = []
    for m in _BRACKET.finditer(text):
        ids = [x.strip() for x in re.split(r"[,;]|\band\b", m.group(1)) if x.strip()]
        ids = [x.lstrip("#") for x in ids]
        if ids and all(x in known_ids or _ID_SHAPE.match(x) for x in ids):
            out.append(
                AnswerCitation(text=m.group(0), kind="finding", refs=tuple(ids), start=m.start(), end=m.end())
            )
    taken = [(c.start, c.end) for c in out]
    for a, b, _kw, labels in clause_references(text):
        if labels and all(b <= x or a >= y for x, y in taken):
            out.append(AnswerCitation(text=text[a:b], kind="clause", refs=labels, start=a, end=b))
    out.sort(key=lambda c: c.start)
    return out


# ── attribution ──────────────────────────────────────────────────────────────────────────────────
_TIGHT_GAP = re.compile(r"^[ \t]*[,(:—–-]?[ \t]*(?:\(?\s*)?$")


def sentence_units(masked: str, passages: Sequence[Passage]) -> list[Span]:
    """Sentences of the answer; a block quote is a unit of its own."""
    blocks = [(p.outer_start, p.outer_end) for p in passages if p.kind == "block"]
    flat = masked.replace("\r", " ")
    for a, b in blocks:
        flat = flat[:a] + "\n\n" + " " * max(0, b - a - 4) + "\n\n" + flat[b:] if b - a >= 4 else flat
    inline = [(p.start, p.end) for p in passages if p.kind == "inline"]
    units = [s for s in split_sentences(flat, opaque=inline) if flat[s[0] : s[1]].strip()]
    units.extend(blocks)
    units.sort()
    return units


def attribute(
    answer: str, passages: Sequence[Passage], citations: Sequence[AnswerCitation]
) -> list[tuple[AnswerCitation | None, CitationSource | None]]:
    """The citation each passage is attributed to, and where it was found."""
    units = sentence_units(answer, passages)

    def unit_of(pos: int) -> int | None:
        for k, (a, b) in enumerate(units):
            if a <= pos < b:
                return k
        return None

    def cites_in(k: int) -> list[AnswerCitation]:
        a, b = units[k]
        return [c for c in citations if a <= c.start < b]

    tight: dict[int, AnswerCitation] = {}
    for p in passages:
        for c in citations:
            if c.start >= p.outer_end and _TIGHT_GAP.match(answer[p.outer_end : c.start]):
                tight[p.index] = c
                break
            if p.kind == "block" and p.end <= c.start < p.outer_end:
                tight[p.index] = c  # a citation inside the block, after the quoted text
                break

    def leading(p: Passage, cs: Sequence[AnswerCitation]) -> AnswerCitation | None:
        """The last citation before the passage in its sentence that is not another passage's own."""
        before = [c for c in cs if c.end <= p.outer_start and c not in tight.values()]
        return before[-1] if before else None

    led: set[int] = set()  # citations that introduce a passage ("clause 5 says …")
    claimed: set[int] = set()  # … and those written right after one
    for p in passages:
        k = unit_of(p.start)
        if k is None:
            continue
        cs = cites_in(k)
        lead = leading(p, cs)
        if p.index in tight:
            claimed.add(id(tight[p.index]))
        elif lead is not None:
            led.add(id(lead))
            claimed.add(id(lead))

    out: list[tuple[AnswerCitation | None, CitationSource | None]] = []
    for p in passages:
        if p.index in tight:
            out.append((tight[p.index], "same sentence"))
            continue
        k = unit_of(p.start)
        if k is None:
            out.append((None, None))
            continue
        cs = cites_in(k)
        lead = leading(p, cs)
        if lead is not None:
            out.append((lead, "same sentence"))
            continue
        later = [c for c in cs if c.start >= p.outer_end and id(c) not in led]
        if later:
            out.append((later[0], "same sentence"))
            continue
        if k + 1 < len(units):
            ncs = cites_in(k + 1)
            free = [c for c in ncs if id(c) not in claimed]
            if free:
                out.append((free[0], "following sentence"))
                continue
        if k > 0:
            pcs = cites_in(k - 1)
            if pcs:
                out.append((pcs[-1], "preceding sentence"))
                continue
        out.append((None, None))
    return out


__all__ = [
    "AnswerCitation",
    "CitationSource",
    "Passage",
    "attribute",
    "blank",
    "find_citations",
    "find_passages",
    "sentence_units",
]
