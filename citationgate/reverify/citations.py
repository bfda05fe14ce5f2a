"""Where each earlier citation is now: through the alignment of the two versions (with the old
document) or by its old label and context (findings alone); exact matches only, stale otherwise."""

from __future__ import annotations

import bisect
import heapq
import re
from collections.abc import Sequence
from typing import Any

from rapidfuzz import fuzz

from citationgate.align import Alignment, WordEdit, tokens, word_opcodes
from citationgate.model import VerifiedQuote
from citationgate.normalize import normalize_quote
from citationgate.reverify.records import (
    COMMON_WORD_UNITS,
    CONTEXT_CHANGED,
    EDITS_SHOWN,
    MOVED,
    RARE_WORDS,
    STALE,
    VERIFIED,
    CitationOutcome,
    OldCitation,
)
from citationgate.reverify.state import _clip, _context_region, _label_at, _Run


def _reverify_citation(run: _Run, c: OldCitation) -> CitationOutcome:
    if run.alignment is not None:
        return _with_alignment(run, run.alignment, c)
    return _without_alignment(run, c)


def _overlapping(occ: Sequence[tuple[int, int]], start: int, end: int) -> tuple[int, int] | None:
    """The occurrence at `[start, end)` exactly, else the overlapping one starting nearest to it."""
    i = bisect.bisect_left(occ, (start, end))
    if i < len(occ) and occ[i] == (start, end):
        return occ[i]
    best = None
    for o in occ:
        overlaps = o[0] < max(end, start + 1) and o[1] > start
        if overlaps and (best is None or abs(o[0] - start) < abs(best[0] - start)):
            best = o
    return best


def _with_alignment(run: _Run, al: Alignment, c: OldCitation) -> CitationOutcome:
    assert c.text is not None and c.start is not None and c.end is not None
    start, end = c.start, c.end
    occ = run.found.get(c.text, [])
    key = (c.start, c.end)
    mapped = run.mapped[key] if key in run.mapped else al.map_span(c.start, c.end)
    if mapped is not None and mapped.identical:
        image: tuple[int, int] | None = (mapped.start, mapped.end)
    elif mapped is not None and mapped.intact:
        image = _overlapping(occ, mapped.start, mapped.end)
    else:
        image = None
    relocated = False
    anchor = image
    if anchor is None and occ:
        taken = _taken(run, al, c, occ)
        free = [o for o in occ if o not in taken]
        if free:
            near = mapped.start if mapped is not None else c.start
            anchor = _choose(run, c, free, near)
            relocated = True
        else:
            where = ", ".join(_where(run, o) for o in occ[:3])
            return _stale(
                run,
                c,
                mapped,
                f"the cited words are no longer in their clause exactly; identical words remain at {where}, "
                "but the previous version already had them there (another clause's copy, not re-anchored)",
            )
    if anchor is None:
        return _stale(run, c, mapped, None)

    vq = VerifiedQuote.at(run.new, anchor[0], anchor[1])
    old_unit = mapped.old_unit if mapped is not None else al.old_unit_at(c.start)
    new_unit = mapped.new_unit if mapped is not None and image is not None else al.new_unit_at(anchor[0])
    assert run.old is not None and run.old_clauses is not None
    rs, re_, label = _context_region(run.old_clauses, old_unit, c.start, c.end)
    ns, ne, _ = _context_region(run.new_clauses, new_unit, anchor[0], anchor[1])
    around = {
        e
        for e in run.edits(al, "old", rs, re_)
        if not (c.start <= e.old_start and e.old_end <= c.end and not _at_edge(e.old_start, e.old_end, c))
    }
    around |= {
        e
        for e in run.edits(al, "new", ns, ne)
        if not (anchor[0] <= e.new_start and e.new_end <= anchor[1] and not _at_new_edge(e, anchor))
    }
    if around:
        edits = sorted(around, key=lambda e: (_distance(e, start, end), e.old_start))[:EDITS_SHOWN]
        clause = f"clause {label}" if label else "the paragraph"
        desc = "; ".join(_describe_near(e, c.start, c.end) for e in edits)
        more = f" (and {len(around) - len(edits)} more)" if len(around) > len(edits) else ""
        reason = (
            f"the quoted words are unchanged, but {clause} around them changed: {desc}{more}; needs review"
        )
        if relocated:
            reason += f" (found at a new place: {_where(run, anchor)})"
        return CitationOutcome(status=CONTEXT_CHANGED, reason=reason, old=c, new=vq, edits=tuple(edits))
    if relocated:
        why = "its paragraph was deleted" if mapped is None else "its old place was edited"
        return CitationOutcome(
            status=MOVED,
            reason=f"the words are no longer where they were ({why}); "
            f"found unchanged at {_where(run, anchor)} and re-anchored",
            old=c,
            new=vq,
        )
    if (c.section or None) != (vq.section or None):
        return CitationOutcome(
            status=MOVED,
            reason=f"renumbered: {c.section or '(no clause)'} → {vq.section or '(no clause)'}; "
            f"re-anchored to [{vq.start}, {vq.end})",
            old=c,
            new=vq,
        )
    if old_unit is not None and al.old_kind.get(old_unit.index) == "moved":
        return CitationOutcome(
            status=MOVED,
            reason=f"its paragraph moved; found unchanged at {_where(run, anchor)} and re-anchored",
            old=c,
            new=vq,
        )
    # The words and their clause are unchanged: verified, whatever happened above them. The shift is
    # recorded (`shift`, and the reason), not reported as a move: a lawyer reads "moved" as "this
    # clause is somewhere else now", which is noise when a paragraph was merely removed above it.
    delta = vq.start - c.start
    at = f"in {vq.section}" if vq.section else "in its paragraph"
    reason = f"unchanged {at}"
    if delta:
        inserted, removed = al.paragraphs_above(c.start, anchor[0])
        parts = []
        if inserted:
            parts.append(f"{inserted} paragraph{'s' if inserted > 1 else ''} inserted")
        if removed:
            parts.append(f"{removed} paragraph{'s' if removed > 1 else ''} removed")
        why = f"{' and '.join(parts)} above it" if parts else "edits earlier in the document"
        reason += (
            f"; offsets shifted by {delta:+d} ({why}): now [{vq.start}, {vq.end}), was [{c.start}, {c.end})"
        )
    return CitationOutcome(status=VERIFIED, reason=reason, old=c, new=vq)


def _at_edge(a: int, b: int, c: OldCitation) -> bool:
    return a == b and (a == c.start or a == c.end)


def _at_new_edge(e: WordEdit, anchor: tuple[int, int]) -> bool:
    return e.new_start == e.new_end and (e.new_start == anchor[0] or e.new_start == anchor[1])


def _distance(e: WordEdit, start: int, end: int) -> int:
    if e.old_end <= start:
        return start - e.old_end
    if e.old_start >= end:
        return e.old_start - end
    return 0


def _describe_near(e: WordEdit, start: int, end: int) -> str:
    d = e.describe()
    if e.old_end <= start and start - e.old_end <= 1:
        return d + " just before the quote"
    if e.old_start >= end and e.old_start - end <= 1:
        return d + " just after the quote"
    return d + (" before the quote" if e.old_end <= start else " after the quote")


def _taken(run: _Run, al: Alignment, c: OldCitation, occ: Sequence[tuple[int, int]]) -> set[tuple[int, int]]:
    """New occurrences that are the aligned images of the *other* old occurrences of the same words."""
    assert c.text is not None and c.start is not None and c.end is not None
    others = [o for o in c.occurrences if o != (c.start, c.end)]
    if not c.occurrences:
        idx = run.old_index()
        others = [o for o in (idx.find_exact(c.text) if idx else []) if o != (c.start, c.end)]
    taken = set()
    for s, e in others:
        m = al.map_span(s, e)
        if m is not None and m.intact:
            o = _overlapping(occ, m.start, m.end)
            if o is not None:
                taken.add(o)
    return taken


def _choose(run: _Run, c: OldCitation, occ: Sequence[tuple[int, int]], near: int) -> tuple[int, int]:
    """Deterministic choice among identical occurrences: clause label, context, proximity, offset."""
    if len(occ) == 1:
        return occ[0]
    text = run.new.text
    old_ctx = normalize_quote(c.prefix), normalize_quote(c.suffix)

    def score(o: tuple[int, int]) -> tuple[int, float, int, int]:
        vq_section = _label_at(run.new, o[0])
        same = int(c.section is not None and vq_section == c.section)
        pre = normalize_quote(text[max(0, o[0] - len(c.prefix)) : o[0]])
        suf = normalize_quote(text[o[1] : o[1] + len(c.suffix)])
        sim = fuzz.ratio(old_ctx[0], pre) + fuzz.ratio(old_ctx[1], suf)
        return (-same, -sim, abs(o[0] - near), o[0])

    return min(occ, key=score)


def _where(run: _Run, span: tuple[int, int]) -> str:
    label = _label_at(run.new, span[0])
    page = run.new.page_of(span[0])
    parts = [f"clause {label}" if label else "no numbered clause", f"offsets [{span[0]}, {span[1]})"]
    if page is not None:
        parts.append(f"page {page}")
    return ", ".join(parts)


def _stale(run: _Run, c: OldCitation, mapped: Any, why: str | None) -> CitationOutcome:
    became = None
    became_span = None
    edits: tuple[WordEdit, ...] = ()
    if mapped is not None and mapped.end > mapped.start:
        became_span = (mapped.start, mapped.end)
        became = run.new.text[mapped.start : mapped.end]
        edits = tuple(mapped.edits)
    if why is None:
        if mapped is None:
            label = f"clause {c.section}" if c.section else "its paragraph"
            why = f"the cited words are no longer in the document exactly: {label} was deleted"
        elif edits:
            why = "the cited words are no longer in the document exactly: " + "; ".join(
                e.describe() for e in edits[:EDITS_SHOWN]
            )
        else:
            why = "the cited words are no longer in the document exactly"
    if became is not None:
        why += f"; the passage now reads: {_clip(became)!r}"
    return CitationOutcome(
        status=STALE, reason=why, old=c, became=became, became_span=became_span, edits=edits
    )


# ── without the old document ────────────────────────────────────────────────────────────────────
_LABEL_TOKEN = re.compile(
    r"^(?:\(?(?:\d{1,3}(?:\.\d{1,3})*|[a-z]{1,2}|[ivxlc]{1,6}|[A-Z])[.)]?|Section|SECTION|Article|ARTICLE)$"
)


def _context_words(s: str, *, from_end: bool) -> list[str]:
    """Words of a prefix/suffix, line-initial numbering labels dropped, partial edge word dropped."""
    lines = s.split("\n")
    words: list[str] = []
    for ln in lines:
        toks = ln.split()
        k = 0
        while k < len(toks) and _LABEL_TOKEN.match(toks[k]):
            k += 1
        words.extend(t if t.isascii() else normalize_quote(t) for t in toks[k:])
    # the window was cut at a fixed width: its outer word may be partial
    if words and s and not s[0 if from_end else -1].isspace():
        words = words[1:] if from_end else words[:-1]
    return words


_CLAUSE_LINE = re.compile(
    r"^[^\S\n]*(?:\(?(?:\d{1,3}(?:\.\d{1,3})*|[a-z]{1,2}|[ivxlc]{1,6})[.)]|Section\s|ARTICLE\s)"
)


def _within_clause(ctx: str, *, prefix: bool) -> str:
    """The part of a prefix (suffix) inside the quote's own clause: cut at a blank line or a clause label."""
    lines = ctx.split("\n")
    if prefix:
        for k in range(len(lines) - 1, 0, -1):
            if not lines[k].strip() or _CLAUSE_LINE.match(lines[k]):
                # a blank line: the clause starts after it; a label line starts the clause itself
                keep = lines[k + 1 :] if not lines[k].strip() else lines[k:]
                return "\n" + "\n".join(keep)
        return ctx
    for k in range(1, len(lines)):
        if not lines[k].strip() or _CLAUSE_LINE.match(lines[k]):
            return "\n".join(lines[:k]) + "\n"
    return ctx


def _context_differs(old_ctx: str, new_ctx: str, *, prefix: bool) -> bool:
    if old_ctx == new_ctx:
        return False
    a = _context_words(_within_clause(old_ctx, prefix=prefix), from_end=prefix)
    b = _context_words(_within_clause(new_ctx, prefix=prefix), from_end=prefix)
    n = min(len(a), len(b))
    if n == 0:
        return len(a) != len(b) and max(len(a), len(b)) > 1
    return a[-n:] != b[-n:] if prefix else a[:n] != b[:n]


def _without_alignment(run: _Run, c: OldCitation) -> CitationOutcome:
    assert c.text is not None and c.start is not None and c.end is not None
    occ = run.found.get(c.text, [])
    if run.new.text[c.start : c.end] == c.text:  # the same words at the same offsets
        anchor = (c.start, c.end)
    elif not occ:
        return _stale_unaligned(run, c)
    else:
        in_clause = [o for o in occ if c.section is not None and _label_at(run.new, o[0]) == c.section]
        k = len(c.occurrences)
        if in_clause:
            anchor = _choose(run, c, in_clause, c.start)
        elif k > 1 and len(occ) < k:
            where = ", ".join(_where(run, o) for o in occ[:3])
            return _stale_unaligned(
                run,
                c,
                f"the cited words are no longer in {c.section or 'their clause'}; identical words remain at "
                f"{where}, but the previous version had {k} copies and now has {len(occ)} "
                "(another clause's copy, not re-anchored)",
            )
        else:
            anchor = _choose(run, c, occ, c.start)
    vq = VerifiedQuote.at(run.new, anchor[0], anchor[1])
    text = run.new.text
    pre = text[max(0, anchor[0] - len(c.prefix)) : anchor[0]]
    suf = text[anchor[1] : anchor[1] + len(c.suffix)]
    where = _where(run, anchor)
    changed = []
    if _context_differs(c.prefix, pre, prefix=True):
        changed.append(f"before it, {_clip(c.prefix.strip(), 40)!r} now reads {_clip(pre.strip(), 40)!r}")
    if _context_differs(c.suffix, suf, prefix=False):
        changed.append(f"after it, {_clip(c.suffix.strip(), 40)!r} now reads {_clip(suf.strip(), 40)!r}")
    if changed:
        return CitationOutcome(
            status=CONTEXT_CHANGED,
            reason="the quoted words are unchanged, but the text around them changed: "
            + "; ".join(changed)
            + f"; needs review (at {where})",
            old=c,
            new=vq,
        )
    if anchor == (c.start, c.end) and (c.section or None) == (vq.section or None):
        return CitationOutcome(status=VERIFIED, reason="unchanged at the same offsets", old=c, new=vq)
    if (c.section or None) == (vq.section or None):
        # same words, same clause label, same context: only the offsets shifted
        return CitationOutcome(
            status=VERIFIED,
            reason=f"unchanged in {vq.section or 'its paragraph'}; "
            f"offsets shifted by {anchor[0] - c.start:+d}: now {where}",
            old=c,
            new=vq,
        )
    reason = f"now in {vq.section or 'no numbered clause'} (was {c.section or 'no numbered clause'})"
    return CitationOutcome(status=MOVED, reason=f"{reason}; re-anchored to {where}", old=c, new=vq)


def _stale_unaligned(run: _Run, c: OldCitation, why: str | None = None) -> CitationOutcome:
    """Stale without the old document: what the passage became is the best-matching new paragraph."""
    assert c.text is not None
    reason = why or "the cited words are no longer in the document exactly"
    span = _became_unaligned(run, c)
    if span is None:
        return CitationOutcome(status=STALE, reason=reason + "; no similar passage found", old=c)
    became = run.new.text[span[0] : span[1]]
    return CitationOutcome(
        status=STALE,
        reason=reason + f"; the passage now reads: {_clip(became)!r}",
        old=c,
        became=became,
        became_span=span,
    )


def _became_unaligned(run: _Run, c: OldCitation) -> tuple[int, int] | None:
    assert c.text is not None
    units = run.new_units()
    if not units:
        return None
    text = run.new.text
    pseudo = c.prefix + c.text + c.suffix
    q0, q1 = len(c.prefix), len(c.prefix) + len(c.text)
    qt = tokens(pseudo, 0, len(pseudo))
    candidates = set(run.units_of_section().get(c.section, ())) if c.section is not None else set()
    # the paragraphs sharing most of the quote's distinct words (an inverted index, built once)
    words = run.word_index()
    quoted = {k for k, s, e in zip(qt.keys, qt.starts, qt.ends, strict=True) if s >= q0 and e <= q1}
    # the rarest of the quote's words say most about where it went ("the" is everywhere)
    ranked = sorted((w for w in quoted if w in words), key=lambda w: (len(words[w]), w))
    rare = [w for w in ranked[:RARE_WORDS] if len(words[w]) <= COMMON_WORD_UNITS] or ranked[:2]
    shared: dict[int, int] = {}
    for w in rare:
        for ui in words[w]:
            shared[ui] = shared.get(ui, 0) + 1
    # paragraphs of the old clause that share a rare word, and the three that share the most
    candidates = {ui for ui in candidates if ui in shared}
    candidates.update(heapq.nsmallest(3, shared, key=lambda ui: (-shared[ui], ui)))
    inside = [k for k, (s, e) in enumerate(zip(qt.starts, qt.ends, strict=True)) if s >= q0 and e <= q1]
    if not inside:
        return None
    best: tuple[int, int, int, int] | None = None  # (-equal, index, start, end)
    for ui in sorted(candidates):
        u = units[ui]
        ut = tokens(text, u.body_start, u.end)
        if not ut.keys:
            continue
        ops = word_opcodes(qt.keys, ut.keys)
        equal = 0
        first: int | None = None
        last: int | None = None
        for tag, i1, i2, j1, j2 in ops:
            lo, hi = max(i1, inside[0]), min(i2, inside[-1] + 1)
            if lo >= hi:
                continue
            if tag == "equal":
                equal += hi - lo
                a, b = j1 + (lo - i1), j1 + (hi - i1)
            else:
                a, b = j1, j2
            if b > a:
                first = a if first is None else min(first, a)
                last = b - 1 if last is None else max(last, b - 1)
        if first is None or last is None or equal == 0:
            continue
        cand = (-equal, ui, ut.starts[first], ut.ends[last])
        if best is None or cand < best:
            best = cand
    if best is None:
        return None
    return best[2], best[3]


# ── absence findings ────────────────────────────────────────────────────────────────────────────
