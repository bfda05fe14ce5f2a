"""Each quoted segment of an answer classified against the record (verified, extended, outside the
cited clause, or unverified), and the truncation guard."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz

from citationgate.answers.record import (
    CLOSEST_MIN_SCORE,
    WHOLE_QUOTE_CHARS,
    _Corpus,
    _Resolved,
    _Verified,
)
from citationgate.answers.records import (
    EXCEPTIONS,
    NEGATIONS,
    PassageStatus,
    Span,
    VerifiedText,
)
from citationgate.model import MIN_QUOTE_CHARS

# ── classification ───────────────────────────────────────────────────────────────────────────────
_EDGE_ELLIPSIS = re.compile(
    r"^\s*(?:\[\s*(?:\.\s*){3}\]|\[…\]|…|(?:\.\s?){3})\s*|\s*(?:\[\s*(?:\.\s*){3}\]|\[…\]|…|(?:\.\s?){3})\s*$"
)
_EDGE_PUNCT = ".,;:"


def _core(text: str) -> str:
    """The passage without ellipses at its edges, and without the full stop or comma a writer puts
    inside closing quotation marks."""
    prev = None
    while prev != text:
        prev = text
        text = _EDGE_ELLIPSIS.sub("", text).strip()
        text = text.rstrip(_EDGE_PUNCT).strip()
    return text


_SWAP_NESTED = str.maketrans("'‘’\"“”", "\"“”'‘’")


_BRACKETED_LETTER = re.compile(r"\[([A-Za-z])\]")


def _variants(segment: str) -> list[tuple[str, str | None]]:
    """The segment as written, then the readings a careful writer's conventions allow, each with the
    flag it earns: nested quotes swapped ('…' ↔ "…"); a bracketed letter ("[T]he") read as the
    document's letter in either case; an unbracketed capital first letter read in lower case
    (flagged — the document's word starts in lower case)."""
    base = _BRACKETED_LETTER.sub(r"\1", segment)
    out: list[tuple[str, str | None]] = [(base, None)]
    if base != segment:
        swapped_case = _BRACKETED_LETTER.sub(lambda m: m.group(1).swapcase(), segment)
        out.append((swapped_case, None))
    for text, note in list(out):
        swapped = text.translate(_SWAP_NESTED)
        if swapped != text:
            out.append((swapped, note))
    if segment[:1].isupper() and not segment.startswith("["):
        lowered = segment[0].lower() + segment[1:]
        out.append((lowered, f"first letter capitalised: the document reads '{segment[0].lower()}'"))
    return out


def _locate_noted(corpus: _Corpus, segment: str) -> tuple[list[Span], str | None]:
    for text, note in _variants(segment):
        found = corpus.index.find_exact(text)
        if found:
            return found, note
    return [], None


def _locate(corpus: _Corpus, segment: str) -> list[Span]:
    return _locate_noted(corpus, segment)[0]


@dataclass(slots=True)
class _SegmentOutcome:
    status: PassageStatus
    occurrence: Span | None = None
    span: _Verified | None = None
    matched: list[VerifiedText] = field(default_factory=list)
    should_use: list[VerifiedText] = field(default_factory=list)
    detail: str = ""
    doc_spans: list[Span] = field(default_factory=list)
    note: str | None = None


def _inside(o: Span, v: _Verified) -> bool:
    return v.start <= o[0] and o[1] <= v.end


def _in_regions(o: Span, regions: tuple[Span, ...] | None) -> bool:
    return regions is None or any(a <= o[0] and o[1] <= b for a, b in regions)


def _classify_segment(corpus: _Corpus, segment: str, resolved: _Resolved, cited: bool) -> _SegmentOutcome:
    occ, note = _locate_noted(corpus, segment)
    outcome = _classify_located(corpus, segment, resolved, cited, occ)
    if outcome.occurrence is not None or outcome.doc_spans:
        outcome.note = note
    return outcome


def _classify_located(
    corpus: _Corpus, segment: str, resolved: _Resolved, cited: bool, occ: list[Span]
) -> _SegmentOutcome:
    spans = corpus.spans
    allowed = set(resolved.spans)
    for o in occ:
        for i in allowed:
            v = spans[i]
            if _inside(o, v) and _in_regions(o, resolved.regions):
                return _SegmentOutcome(
                    status=PassageStatus.VERIFIED,
                    occurrence=o,
                    span=v,
                    matched=[corpus.verified_text(v, *o)],
                    doc_spans=[corpus.doc_span(v, *o)],
                )
    inside = [(o, v) for o in occ for v in spans if _inside(o, v)]
    if inside:
        o, v = inside[0]
        others = list(dict.fromkeys(corpus.verified_text(w, *p) for p, w in inside))
        return _SegmentOutcome(
            status=PassageStatus.WRONG_CITATION if cited else PassageStatus.NO_CITATION,
            occurrence=o,
            span=v,
            should_use=others,
            doc_spans=[corpus.doc_span(v, *o)],
        )
    # verified text inside the passage: at least MIN_QUOTE_CHARS of it (one shared word proves nothing)
    overlap = [(o, v) for o in occ for v in spans if min(o[1], v.end) - max(o[0], v.start) >= MIN_QUOTE_CHARS]
    if overlap:
        o, v = max(overlap, key=lambda ov: min(ov[0][1], ov[1].end) - max(ov[0][0], ov[1].start))
        part = corpus.verified_text(v, *o)
        extra = _unverified_words(corpus.text, o, v)
        return _SegmentOutcome(
            status=PassageStatus.LONGER_THAN_VERIFIED,
            occurrence=o,
            span=v,
            should_use=[part],
            detail=f"{extra} was never verified",
            doc_spans=[o],
        )
    ext = _extension(corpus, segment)
    if ext is not None:
        v, part, extra = ext
        return _SegmentOutcome(
            status=PassageStatus.LONGER_THAN_VERIFIED,
            span=v,
            should_use=[part],
            detail=f"the verified quote of [{v.finding}] {extra} was never verified",
        )
    if occ and corpus.document is not None:
        return _SegmentOutcome(
            status=PassageStatus.READ_NOT_VERIFIED,
            occurrence=occ[0],
            should_use=_closest(corpus, segment, resolved),
            doc_spans=list(occ),
        )
    return _SegmentOutcome(status=PassageStatus.NOWHERE, should_use=_closest(corpus, segment, resolved))


def _unverified_words(text: str, o: Span, v: _Verified) -> str:
    parts = []
    if o[0] < v.start:
        parts.append(f"'{_clip(text[o[0] : v.start])}' before it")
    if o[1] > v.end:
        parts.append(f"'{_clip(text[v.end : o[1]])}' after it")
    return f"the passage runs past the verified quote of [{v.finding}]: " + " and ".join(parts)


def _clip(s: str, n: int = 60) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def _word_cuts(segment: str) -> tuple[list[int], list[int]]:
    ends = [m.end() for m in re.finditer(r"\w+", segment)]
    starts = [m.start() for m in re.finditer(r"\w+", segment)]
    return ends, starts


def _extension(corpus: _Corpus, segment: str) -> tuple[_Verified, VerifiedText, str] | None:
    """The segment as a verified quote with words added at either end: its longest prefix that lies
    in a verified quote and reaches that quote's end, or its longest suffix from a quote's start."""
    ends, starts = _word_cuts(segment)

    def inside_any(piece: str) -> list[tuple[Span, _Verified]]:
        if len(piece.strip()) < MIN_QUOTE_CHARS:
            return []
        return [(o, v) for o in _locate(corpus, piece) for v in corpus.spans if _inside(o, v)]

    # prefixes: longer is a larger cut; search the largest cut whose prefix is inside a verified quote
    best_p = _search(ends[:-1], lambda k: inside_any(segment[:k]), largest=True)
    if best_p is not None:
        k, hits = best_p
        for o, v in hits:
            if not corpus.text[o[1] : v.end].strip(" \t\n.,;:"):
                return (
                    v,
                    corpus.verified_text(v, *o),
                    f"ends at '{_clip(segment[:k][-40:])}'; '{_clip(segment[k:])}'",
                )
    best_s = _search(starts[1:], lambda k: inside_any(segment[k:]), largest=False)
    if best_s is not None:
        k, hits = best_s
        for o, v in hits:
            if not corpus.text[v.start : o[0]].strip(" \t\n.,;:"):
                return (
                    v,
                    corpus.verified_text(v, *o),
                    f"starts at '{_clip(segment[k:][:40])}'; '{_clip(segment[:k])}'",
                )
    return None


def _search(cuts: list[int], found: Any, *, largest: bool) -> tuple[int, Any] | None:
    """Binary search over monotone cuts: the largest (or smallest) cut whose piece is found."""
    lo, hi, best = 0, len(cuts) - 1, None
    while lo <= hi:
        mid = (lo + hi) // 2
        hits = found(cuts[mid])
        if hits:
            best = (cuts[mid], hits)
            if largest:
                lo = mid + 1
            else:
                hi = mid - 1
        elif largest:
            hi = mid - 1
        else:
            lo = mid + 1
    return best


def _closest(corpus: _Corpus, segment: str, resolved: _Resolved) -> list[VerifiedText]:
    """The verified text nearest to a passage that is not verified: under its citation first.

    A verified quote up to `WHOLE_QUOTE_CHARS` long is offered whole (what the writer could have
    copied); a longer one is cut to the part that aligns with the passage, widened to whole words.
    """
    pools = [[corpus.spans[i] for i in resolved.spans], corpus.spans]
    for pool in pools:
        best: tuple[float, VerifiedText] | None = None
        for v in pool:
            al = fuzz.partial_ratio_alignment(segment, v.text, score_cutoff=CLOSEST_MIN_SCORE)
            if al is None:
                continue
            if len(v.text) > WHOLE_QUOTE_CHARS and len(segment) <= len(v.text):
                a, b = _widen_to_sentence(corpus.text, v.start + al.dest_start, v.start + al.dest_end, v)
            else:
                a, b = v.start, v.end
            vt = corpus.verified_text(v, a, b)
            if best is None or al.score > best[0]:
                best = (al.score, vt)
        if best is not None:
            return [best[1]]
    return []


def _widen_to_sentence(text: str, a: int, b: int, v: _Verified) -> Span:
    """Widen `[a, b)` to the sentence (or `;`-separated part, or list item) of the verified quote it
    falls in, so a suggestion never starts after a "neither" or stops before an "except"."""
    while a > v.start and not (text[a - 1] in ";\n" or (text[a - 1] == "." and text[a].isspace())):
        a -= 1
    while b < v.end and text[b - 1] not in ";.\n":
        b += 1
    return a, b


# ── the truncation guard ─────────────────────────────────────────────────────────────────────────
def _guard(corpus: _Corpus, o: Span, v: _Verified | None) -> list[str]:
    """Flags for a located passage that stops before an exception or starts after a negation."""
    text = corpus.text
    lo = 0 if corpus.document is not None or v is None else v.start
    hi = len(text) if corpus.document is not None or v is None else v.end
    flags = []
    after = text[o[1] : min(hi, o[1] + 60)]
    after = re.sub(r"^[\s,;:()\-—–]+", "", after).lower()
    for w in EXCEPTIONS:
        if re.match(rf"{re.escape(w)}\b", after):
            flags.append(f"stops right before '{w}'")
            break
    before = text[max(lo, o[0] - 40) : o[0]]
    before = re.split(r"[.;:]", before)[-1]
    words = re.findall(r"[A-Za-z']+", before.lower())[-2:]
    for w in reversed(words):
        if w in NEGATIONS or w.endswith("n't"):
            flags.append(f"starts right after '{w}'")
            break
    return flags


def _gap_flags(text: str, a: int, b: int) -> list[str]:
    gap = text[a:b].lower()
    hits = [w for w in (*NEGATIONS, *EXCEPTIONS) if re.search(rf"\b{re.escape(w)}\b", gap)]
    return [f"the ellipsis leaves out '{hits[0]}'"] if hits else []
