"""The quotes a finding cites: the passages that carry the decisive language and every value stated."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ingest.document import Document
from playbooks.engine.context import MAX_QUOTE, MAX_QUOTES, _Context, _heading_only, _Value
from playbooks.outcome import ExtractedValue, QuoteRef


def _quote_range(
    ctx: _Context, start: int, end: int, focus: tuple[int, int] | None = None
) -> QuoteRef | None:
    """A quote of `[start, end)`; a long passage is trimmed to a window that keeps `focus` whole."""
    lo, hi = start, end
    if end - start > MAX_QUOTE:
        fa, fb = focus if focus else (start, start + 1)
        half = max((MAX_QUOTE - (fb - fa)) // 2, 60)
        start = max(lo, fa - half)
        end = min(hi, fb + half)
        while start > lo and not ctx.text[start - 1].isspace():  # snap to word boundaries
            start -= 1
        while end < hi and not ctx.text[end].isspace():
            end += 1
    start = after_label(ctx.doc, start, end)
    while start < end and ctx.text[start].isspace():
        start += 1
    while end > start and ctx.text[end - 1].isspace():
        end -= 1
    if end - start < 10:
        return None
    return QuoteRef(text=ctx.text[start:end], start=start, end=end, section=ctx.section_label(start))


_LABEL_TAIL = re.compile(r"[.):]?[ \t\u00a0]+")


def after_label(doc: Document, start: int, end: int) -> int:
    """Where a quote starting at `start` begins once the clause's own number is left out.

    The number belongs to the pinpoint ("clause 7.3"), not to the quoted words: a renumbered clause
    still says the same thing, and re-verification must find the same words after a redline. A DOCX
    number generated from numbering.xml is skipped the same way as a typed one.
    """
    p = start
    for g in doc.generated:
        if g.start == p and g.kind == "numbering":
            p = g.end
    section = doc.section_at(p)
    if section is not None and section.start == p and doc.text.startswith(section.label, p):
        p += len(section.label)
    if p == start:
        return start
    tail = _LABEL_TAIL.match(doc.text, p)
    p = tail.end() if tail else p
    return p if end - p >= 10 else start


def _quote(ctx: _Context, i: int) -> QuoteRef | None:
    p = ctx.passages.items[i]
    return _quote_range(ctx, p.start, p.end)


def _quotes(
    ctx: _Context,
    anchor: int,
    values: Mapping[str, _Value],
    used: Sequence[str],
    patterns: Sequence[re.Pattern[str]] = (),
) -> tuple[QuoteRef, ...]:
    """The decisive values' passages first, then the anchor passage, then the other values' passages. An
    anchor too long to quote whole is quoted around the first words the clause's `patterns` match in it (a run
    of definitions is quoted at the definition the clause was located by, not at its first line)."""
    items = ctx.passages.items
    a = items[anchor]
    wanted: list[tuple[tuple[int, int], tuple[int, int] | None]] = []
    for name in used:
        v = values.get(name)
        if v is not None:
            wanted.append((v.scope, None if v.inferred else (v.ev.start, v.ev.end)))
    hit = next((m for rx in patterns if (m := rx.search(ctx.text, a.start, a.end))), None)
    own = (hit.start(), hit.end()) if hit is not None and a.end - a.start > MAX_QUOTE else None
    wanted.append(((a.start, a.end), own))
    for name, v in values.items():
        if name not in used and not v.inferred:
            wanted.append((v.scope, (v.ev.start, v.ev.end)))
    ranges: list[tuple[int, int, tuple[int, int] | None]] = []
    wanted = [(_past_heading(ctx, s, e), focus) for (s, e), focus in wanted]
    for (s, e), focus in wanted:
        covering = [r for r in ranges if r[0] <= s and e <= r[1]]
        if covering:
            # a passage too long to quote whole is quoted in windows: a value read from it outside the
            # window already taken gets a window of its own (or takes over a window that has no value)
            r = covering[0]
            if focus is None or r[1] - r[0] <= MAX_QUOTE or any(_close(c[2], focus) for c in covering):
                continue
            if r[2] is None:
                ranges[ranges.index(r)] = (r[0], r[1], focus)
                continue
            if len(ranges) >= MAX_QUOTES:
                break
            ranges.append((s, e, focus))
            continue
        if len(ranges) >= MAX_QUOTES:
            break
        inner = [r for r in ranges if s <= r[0] and r[1] <= e]
        if focus is None:  # a wider passage keeps the decisive value of the one it takes in
            focus = next((r[2] for r in inner if r[2] is not None), None)
        # a wider passage quoted in a window around its own value keeps, as windows of their own, the
        # passages it takes in whose values fall outside that window (a lead-in read with its list)
        kept = [
            r
            for r in inner
            if e - s > MAX_QUOTE and focus is not None and r[2] is not None and not _close(focus, r[2])
        ]
        ranges = [r for r in ranges if r not in inner or r in kept]
        if len(ranges) >= MAX_QUOTES:
            break
        ranges.append((s, e, focus))
    out = [q for s, e, f in sorted(ranges) if (q := _quote_range(ctx, s, e, f)) is not None]
    if not out:  # the anchor is too short to quote on its own: widen to the next passage
        nxt = min(anchor + 1, len(items) - 1)
        q = _quote_range(ctx, a.start, items[nxt].end)
        if q is not None:
            out.append(q)
    return tuple(out)


def _close(a: tuple[int, int] | None, b: tuple[int, int]) -> bool:
    """Whether value span `b` falls inside the window a quote centred on span `a` keeps."""
    return a is not None and min(a[0], b[0]) + MAX_QUOTE // 2 > max(a[1], b[1])


def _past_heading(ctx: _Context, start: int, end: int) -> tuple[int, int]:
    """A passage that is only a heading ("7.3 Noncompetition.") is never quoted alone: it stands for the
    clause under it, so the quote runs on into the clause's first sentence."""
    if not _heading_only(ctx.text[start:end]):
        return start, end
    i = ctx.passages.index_at(start)
    items = ctx.passages.items
    j = i + 1
    while j < len(items) and items[j].start < end:
        j += 1
    if j < len(items) and items[j].start - end < 200:
        return start, items[j].end
    return start, end


def _inside(ev: ExtractedValue, quotes: Sequence[QuoteRef]) -> bool:
    return any(q.start <= ev.start and ev.end <= q.end for q in quotes)


# ---------------------------------------------------------------------------------------------- decide
