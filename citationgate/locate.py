"""Locating quotes in one document version: exact index, fuzzy fallback, meaning guard, ellipses.

`QuoteIndex(text)` normalizes the canonical text once (`citationgate.normalize`) and answers
`find_exact(quote)` with every occurrence as canonical `[start, end)` offsets. No regex is ever built
from a quote: the quote is normalized with the same fold table and searched as a plain string
(`str.find` for one quote, one Aho-Corasick pass for a batch).

`find_fuzzy(quote)` is the first-verification fallback for long quotes (≥ `FUZZY_MIN_WORDS` words):

1. **candidates** from word shingles with diagonal voting. Every 3-word shingle of the quote that
   occurs in the document (at most `MAX_POSTINGS` times) votes for the diagonal "document word index −
   quote word index"; the best diagonals are where the quote would sit. Where each shingle occurs is
   found by one Aho-Corasick pass over the document for the shingles of all the quotes about to be
   searched (`prepare_fuzzy`; the gate asks for every quote not found verbatim at once), a few tens of
   milliseconds per MB, rather than by indexing every shingle of the document.

   *Why not MinHash LSH (datasketch) here*: measured on a 1 MB contract, an LSH over sliding windows
   took about 4 s to build per document (26 s at 5 MB) and found only about 80 % of spans with one
   word changed — a window's MinHash signature blurs where in the window the quote sits, and a
   banded LSH misses windows whose Jaccard falls just under the band threshold. The plain shingle
   index with diagonal voting builds in milliseconds and found 98 %, with positions exact to the
   word. MinHash is the right tool for comparing many sections or documents to each other
   (aligning versions, finding the same clause across a data room), not for pinpointing one quote.

2. **alignment** inside a small window around each candidate: one word-level Levenshtein alignment
   (rapidfuzz) against the candidate span widened by `EDGE_SLACK` words, document words left
   unaligned at either end trimmed off, then character similarity (`rapidfuzz.fuzz.ratio`) of the
   chosen window against the quote, accepted at ≥ `FUZZY_MIN_SIMILARITY`. Edges are therefore
   always whole words of the document.

3. **the meaning guard**: a fuzzy match is refused when any differing word carries meaning — a
   number, amount, percentage or date, a negation, a modal, and/or, including/excluding, a
   capitalised word (a defined term or a party name), a section or list number — or when the quote
   inserts or drops a run of words (a splice) or runs past the passage at either end (an extension).

Each fuzzy search is bounded by a deadline; past it the outcome is `timeout` (the gate's
`unverifiable`), never a hang.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, compress
from operator import add
from typing import Literal

import ahocorasick_rs
from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from citationgate.normalize import (
    Normalized,
    NormalizedView,
    has_variants,
    normalize_quote,
    normalize_quotes,
    normalize_text,
    quote_variants,
)

Span = tuple[int, int]

#: Batches smaller than this are searched quote by quote with `str.find` on the cached view.
BATCH_MIN = 16
#: Length of the piece of each normalized quote put in the Aho-Corasick automaton. Hits are
#: confirmed with `startswith` on the whole quote, so a short anchor only costs a few extra checks,
#: while the automaton stays small (building it over whole 200-character quotes costs more than the scan).
ANCHOR_CHARS = 32


class QuoteIndex:
    """One normalized index per document version text. Build once, reuse for every quote."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.normalized: Normalized = normalize_text(text)
        self._word_index: _WordIndex | None = None
        self._lowered: str | None = None

    def find_exact(self, quote: str) -> list[Span]:
        """Every occurrence of `quote`, whitespace-flexible and typographic-tolerant, case-sensitive.

        Offsets are canonical `[start, end)`; `text[start]` and `text[end - 1]` are never whitespace.
        Occurrences are reported in order, overlapping ones included.
        """
        if not has_variants(quote):
            return self._find_normalized(normalize_quote(quote))
        variants = quote_variants(quote)
        if len(variants) == 1:
            return self._find_normalized(variants[0])
        return sorted({span for v in variants for span in self._find_normalized(v)})

    def _find_normalized(self, needle: str) -> list[Span]:
        if not needle:
            return []
        found: set[Span] = set()
        for view in self.normalized.views:
            hay = view.text
            i = hay.find(needle)
            while i != -1:
                span = view.to_canonical(i, i + len(needle))
                if span is not None:
                    found.add(span)
                i = hay.find(needle, i + 1)
        return sorted(found)

    def find_exact_many(
        self, quotes: Sequence[str], *, needles: Sequence[str] | None = None
    ) -> list[list[Span]]:
        """`find_exact` for many quotes at once: one Aho-Corasick pass over each cached view.

        1,000 separate `str.find` scans of a 1 MB view cost about 300 ms of CPU; one multi-pattern
        pass (the Rust `aho-corasick` automaton via `ahocorasick_rs`) over the quotes' anchors costs
        about 15 ms (see benchmarks/gate.py; pyahocorasick measured twice as slow here). Each
        quote's anchor is the `ANCHOR_CHARS` characters in its middle — a quote's opening words are
        often boilerplate ("provided that the…") that occurs everywhere, its middle less so — and
        every anchor hit is confirmed against the whole quote. `needles`: the quotes already normalized
        (`normalize_quotes(quotes)`), where the caller has them.
        """
        if needles is None:
            needles = normalize_quotes(quotes)
        if len(needles) < BATCH_MIN:
            return [self.find_exact(q) for q in quotes]
        by_anchor: dict[str, list[tuple[int, int]]] = {}
        found: list[set[Span]] = [set() for _ in needles]
        for i, needle in enumerate(needles):
            if needle and not _utf8(needle):  # the automaton would silently drop it and the rest
                found[i].update(self._find_normalized(needle))
            elif needle:
                offset = max(0, (len(needle) - ANCHOR_CHARS) // 2)
                by_anchor.setdefault(needle[offset : offset + ANCHOR_CHARS], []).append((i, offset))
        if not by_anchor:
            return [sorted(f) for f in found]
        anchors = list(by_anchor)
        automaton = ahocorasick_rs.AhoCorasick(anchors)
        for view in self.normalized.views:
            hay = view.text
            try:
                hits = automaton.find_matches_as_indexes(hay, overlapping=True)
            except UnicodeEncodeError:  # a lone surrogate in the text: search quote by quote
                return [self._find_normalized(n) for n in needles]
            for k, anchor_start, _end in hits:
                for i, offset in by_anchor[anchors[k]]:
                    needle = needles[i]
                    start = anchor_start - offset
                    if start >= 0 and hay.startswith(needle, start):
                        span = view.to_canonical(start, start + len(needle))
                        if span is not None:
                            found[i].add(span)
        for i, quote in enumerate(quotes):  # the rare quote with a hyphen at a line break of its own
            if has_variants(quote):
                for variant in quote_variants(quote)[1:]:
                    found[i].update(self._find_normalized(variant))
        return [sorted(f) for f in found]

    def differs_only_in_case(self, quote: str) -> bool:
        """True if the quote occurs once capitalisation is ignored (said of a failed quote, never a match)."""
        return self.differ_only_in_case([normalize_quote(quote)])[0]

    def differ_only_in_case(self, needles: Sequence[str]) -> list[bool]:
        """`differs_only_in_case` for normalized quotes (`normalize_quotes`): one Aho-Corasick pass over
        the lower-cased view for a batch, rather than one scan of it per quote."""
        lowered = [n.lower() for n in needles]
        if self._lowered is None:
            self._lowered = self.normalized.a.text.lower()
        hay = self._lowered
        wanted = list(dict.fromkeys(n for n in lowered if n and _utf8(n)))  # the automaton drops the rest
        if len(wanted) >= BATCH_MIN:
            try:
                hits = ahocorasick_rs.AhoCorasick(wanted).find_matches_as_indexes(hay, overlapping=True)
            except UnicodeEncodeError:  # a lone surrogate: quote by quote
                pass
            else:
                found = {wanted[k] for k, _start, _end in hits}
                return [n in found if _utf8(n) else n in hay for n in lowered]
        return [bool(n) and n in hay for n in lowered]

    # ── fuzzy fallback ───────────────────────────────────────────────────────────────────────
    def _words(self) -> _WordIndex:
        if self._word_index is None:
            self._word_index = _WordIndex(self.normalized.a)
        return self._word_index

    def prepare_fuzzy(self, needles: Sequence[str]) -> None:
        """Before `find_fuzzy` of several quotes (normalized, `normalize_quote`): where the word shingles of
        all of them occur, found in one pass over the document instead of one pass per quote."""
        quotes = [words for n in needles if len(words := n.split(" ")) >= FUZZY_MIN_WORDS]
        if quotes:
            self._words().prepare(quotes)

    def find_fuzzy(
        self,
        quote: str,
        *,
        min_similarity: float | None = None,
        time_limit: float | None = None,
        needle: str | None = None,
    ) -> FuzzyOutcome:
        """The best near-verbatim match of a long quote, guarded for meaning; see the module docstring.
        `needle`: the quote already normalized (`normalize_quote`), where the caller has it."""
        threshold = FUZZY_MIN_SIMILARITY if min_similarity is None else min_similarity
        limit = FUZZY_TIME_LIMIT_S if time_limit is None else time_limit
        if needle is None:
            needle = normalize_quote(quote)
        qwords = needle.split(" ") if needle else []
        if len(qwords) < FUZZY_MIN_WORDS:
            return FuzzyOutcome(
                kind="none",
                reason=f"too short for a fuzzy search ({len(qwords)} words; at least {FUZZY_MIN_WORDS})",
            )
        words = self._words()  # built once per document, before this quote's clock starts
        words.prepare([qwords])  # where its shingles occur, unless `prepare_fuzzy` found them already
        deadline = time.perf_counter() + limit
        best: tuple[float, int, int, float] | None = None  # (word score, start word, end word, char sim)
        for diagonal in words.diagonals(qwords):
            if time.perf_counter() > deadline:
                return FuzzyOutcome(kind="timeout", reason=f"fuzzy search exceeded {limit * 1000:.0f} ms")
            window = words.align(qwords, diagonal)
            if window is None:
                continue
            score, s, e = words.refine(needle, *window)
            sim = fuzz.ratio(needle, words.slice(s, e)) / 100.0
            if best is None or (sim, score) > (best[3], best[0]):
                best = (score, s, e, sim)
        if best is None:
            return FuzzyOutcome(kind="none", reason="no passage shares enough of the quote's wording")
        _score, s, e, sim = best
        span = words.canonical(s, e)
        if sim < threshold:
            return FuzzyOutcome(
                kind="none",
                reason=f"closest passage is only {sim:.0%} similar (at least {threshold:.0%} needed)",
                similarity=sim,
                span=span,
            )
        problems = meaning_differences(qwords, words.tokens[s:e])
        if problems:
            return FuzzyOutcome(
                kind="guarded",
                reason="a passage is similar, but "
                + "; ".join(problems)
                + " — a fuzzy match never changes what the words mean",
                similarity=sim,
                span=span,
            )
        return FuzzyOutcome(
            kind="match", reason=f"near-verbatim ({sim:.0%} similar)", similarity=sim, span=span
        )

    # ── ellipsis segments ────────────────────────────────────────────────────────────────────
    def find_segments(self, segments: Sequence[str]) -> list[tuple[Span, ...]]:
        """Chains of exact occurrences of `segments`, in order, each segment after the one before.

        For each occurrence of the first segment, every later segment takes its first occurrence
        after the previous one (the tightest chain). The caller checks the chain stays in one section.
        """
        found = self.find_exact_many(segments)
        if not found or any(not f for f in found):
            return []
        chains: list[tuple[Span, ...]] = []
        for first in found[0]:
            chain = [first]
            for occ in found[1:]:
                nxt = next((o for o in occ if o[0] >= chain[-1][1]), None)
                if nxt is None:
                    break
                chain.append(nxt)
            if len(chain) == len(found):
                chains.append(tuple(chain))
        return chains


def _utf8(s: str) -> bool:
    """No lone surrogate: `ahocorasick_rs` takes only such patterns (given one, it silently matches none
    of the patterns after it)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# ── fuzzy search parameters (stated, not tuned per document) ─────────────────────────────────────
#: Fuzzy matching is tried only for quotes of at least this many words: shorter quotes carry too
#: little context for a near match to mean "the same passage".
FUZZY_MIN_WORDS = 8
#: Character similarity (rapidfuzz `fuzz.ratio` / 100) a fuzzy match must reach.
FUZZY_MIN_SIMILARITY = 0.90
#: Per-quote time bound for the fuzzy search; past it the citation is `unverifiable`.
FUZZY_TIME_LIMIT_S = 0.25
#: Words per shingle for the candidate index.
SHINGLE_WORDS = 3
#: A shingle occurring more often than this (boilerplate: "of this Agreement") does not vote.
MAX_POSTINGS = 64
#: Candidate diagonals aligned per quote.
MAX_CANDIDATES = 3
#: The alignment window reaches this many words beyond the diagonal's guess at either end.
EDGE_SLACK = 2
#: At most this share of a quote's words may differ from the passage (at least one word).
MAX_DIFFERING_SHARE = 0.15
#: A run of more inserted or dropped words than this is a splice, not a slip.
MAX_GAP_WORDS = 2
#: Two spellings of one word (rapidfuzz `fuzz.ratio` / 100 of the lower-cased words) at least this
#: alike are a slip ("consequentail", "licence"/"license"); below it they are different words.
SLIP_SIMILARITY = 0.80


@dataclass(frozen=True, slots=True, kw_only=True)
class FuzzyOutcome:
    """What the fuzzy search found: a `match`, a `guarded` near match, `none`, or a `timeout`."""

    kind: Literal["match", "guarded", "none", "timeout"]
    reason: str
    similarity: float = 0.0
    span: Span | None = None  # canonical offsets of the closest passage (match or guarded)


class _WordIndex:
    """Words of a normalized view with their offsets, and where the 3-word shingles asked about occur."""

    def __init__(self, view: NormalizedView) -> None:
        self.view = view
        raw = view.text.split(" ")
        # where each piece starts: the lengths before it, and one space after each
        starts = list(map(add, accumulate(map(len, raw), initial=0), range(len(raw) + 1)))
        self.tokens: list[str] = list(filter(None, raw))
        self.starts: list[int] = (
            starts[: len(raw)] if len(self.tokens) == len(raw) else list(compress(starts, raw))
        )
        #: shingle → the word indices it starts at, when it occurs at most `MAX_POSTINGS` times (else
        #: empty: it does not vote); filled by `prepare`
        self._postings: dict[tuple[str, ...], tuple[int, ...]] = {}
        self._padded: str | None = None  # the view between two spaces: every word has one on each side

    def end(self, i: int) -> int:
        return self.starts[i] + len(self.tokens[i])

    def slice(self, s: int, e: int) -> str:
        return self.view.text[self.starts[s] : self.end(e - 1)]

    def canonical(self, s: int, e: int) -> Span | None:
        return self.view.to_canonical(self.starts[s], self.end(e - 1))

    def prepare(self, quotes: Iterable[list[str]]) -> None:
        """Find where every shingle of these quotes' words occurs that was not looked up before: one
        Aho-Corasick pass over the view for all of them (a shingle `a b c` is the text " a b c ")."""
        wanted = {sh for words in quotes for sh in _shingles(words) if sh not in self._postings}
        patterns: list[str] = []
        for sh in wanted:
            pattern = f" {' '.join(sh)} "
            if "" in sh or not _utf8(pattern):  # no word is empty; the view is UTF-8 unless it is not
                self._postings[sh] = self._by_words(sh) if not _utf8(self.view.text) else ()
            else:
                patterns.append(pattern)
        if not patterns:
            return
        if self._padded is None:
            self._padded = f" {self.view.text} "
        found: dict[int, list[int]] = {}
        try:
            hits = ahocorasick_rs.AhoCorasick(patterns).find_matches_as_indexes(
                self._padded, overlapping=True
            )
        except UnicodeEncodeError:  # a lone surrogate in the view: word by word
            for pattern in patterns:
                sh = tuple(pattern[1:-1].split(" "))
                self._postings[sh] = self._by_words(sh)
            return
        for k, start, _end in hits:
            found.setdefault(k, []).append(start)
        for k, pattern in enumerate(patterns):
            at = found.get(k, ())
            # the match starts at the space before the word: in the view, that is where the word starts
            self._postings[tuple(pattern[1:-1].split(" "))] = (
                tuple(bisect_left(self.starts, a) for a in at) if len(at) <= MAX_POSTINGS else ()
            )

    def _by_words(self, sh: tuple[str, ...]) -> tuple[int, ...]:
        """Where `sh` starts, word by word (a view holding a lone surrogate, which the automaton refuses)."""
        k, t = len(sh), self.tokens
        at = tuple(i for i in range(len(t) - k + 1) if tuple(t[i : i + k]) == sh)
        return at if len(at) <= MAX_POSTINGS else ()

    def diagonals(self, qwords: list[str]) -> list[int]:
        """The best few diagonals (document word index where quote word 0 would sit), by votes."""
        shingles = _shingles(qwords)
        if not shingles or len(self.tokens) < SHINGLE_WORDS:
            return []
        self.prepare([qwords])
        votes: dict[int, int] = {}
        for j, sh in enumerate(shingles):
            for d in self._postings[sh]:
                votes[d - j] = votes.get(d - j, 0) + 1
        # Neighbouring diagonals belong to one candidate (an inserted or dropped word shifts it).
        chosen: list[int] = []
        for d in sorted(votes, key=lambda d: (-votes[d], d)):
            if all(abs(d - c) > EDGE_SLACK for c in chosen):
                chosen.append(d)
                if len(chosen) == MAX_CANDIDATES:
                    break
        return chosen

    def align(self, qwords: list[str], diagonal: int) -> tuple[float, int, int] | None:
        """The window `[s, e)` of document words around `diagonal` most like the quote (word level).

        One word-level alignment of the quote against the diagonal's span widened by `EDGE_SLACK`
        words each side; document words aligned to nothing at either end are trimmed off, so the
        window's edges are whole words of the document.
        """
        n, nq = len(self.tokens), len(qwords)
        lo, hi = max(0, diagonal - EDGE_SLACK), min(n, diagonal + nq + EDGE_SLACK)
        if hi <= lo:
            return None
        qcores = [_core(w) for w in qwords]
        wide = [_core(w) for w in self.tokens[lo:hi]]
        ops = list(Levenshtein.opcodes(qcores, wide))
        first, last = 0, len(ops) - 1
        while first <= last and ops[first].tag == "insert":
            first += 1
        while last >= first and ops[last].tag == "insert":
            last -= 1
        if first > last:
            return None
        a, b = ops[first].dest_start, ops[last].dest_end
        if b <= a:
            return None
        return Levenshtein.normalized_similarity(qcores, wide[a:b]), lo + a, lo + b

    def refine(self, needle: str, score: float, s: int, e: int) -> tuple[float, int, int]:
        """Move the edges of `[s, e)` a word at a time while that makes the window more like the quote.

        Word-level alignment cannot tell a misspelt edge word from a neighbouring word (both cost one
        edit); character similarity can ("wrtiten" is "written", not "force"). Hill-climbing, at
        most `EDGE_SLACK + 1` steps, each edge one word per step.
        """
        n = len(self.tokens)
        best = (fuzz.ratio(needle, self.slice(s, e)), s, e)
        for _ in range(EDGE_SLACK + 1):
            _, s0, e0 = best
            step = best
            for ds in (-1, 0, 1):
                for de in (-1, 0, 1):
                    a, b = s0 + ds, e0 + de
                    if (ds or de) and 0 <= a < b <= n:
                        r = fuzz.ratio(needle, self.slice(a, b))
                        if r > step[0]:
                            step = (r, a, b)
            if step == best:
                break
            best = step
        return score, best[1], best[2]


def _shingles(words: Sequence[str]) -> list[tuple[str, ...]]:
    """The quote's runs of `SHINGLE_WORDS` consecutive words, in order."""
    return list(zip(*(words[i:] for i in range(SHINGLE_WORDS)), strict=False))


# ── the meaning guard ────────────────────────────────────────────────────────────────────────────
def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


NEGATIONS = _wordset(
    "not no never without except unless notwithstanding nor neither none cannot nothing save"
)
MODALS = _wordset("shall must may will should would can could might")
CONNECTIVES = _wordset(
    "and or and/or including include includes included excluding exclude excludes excluded but only solely"
)
#: Words that change quantity, extent, order or time ("any" → "all", "days" → "months").
QUANTIFIERS = _wordset(
    "all any each every some less more greater lesser fewer least most exceed exceeds exceeding "
    "before after prior within later earlier maximum minimum sole exclusive entire first last "
    "day days week weeks month months year years hour hours business calendar"
)
NUMBER_WORDS = _wordset(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety "
    "hundred thousand million billion half quarter double twice second third fourth fifth"
)
#: Words a quote may drop or add without changing what the passage says.
ARTICLES = _wordset("the a an such said this that these those")
_CURRENCY = re.compile(r"[$€£¥₦₹¢%]")
_LIST_LABEL = re.compile(r"^\(?([ivxlcdm]+|[a-z])\)\.?$|^§")
_NEG_PREFIXES = ("non-", "non", "un", "in", "im", "il", "ir", "dis")
_EDGE_PUNCT = ".,;:!?\"'()[]"


def _core(word: str) -> str:
    return word.strip(_EDGE_PUNCT)


def _meaning_of(word: str) -> str | None:
    """Why a differing word carries meaning, or None for a word a fuzzy match may tolerate."""
    core = _core(word)
    low = core.lower()
    if any(ch.isdigit() for ch in word) or _CURRENCY.search(word):
        return "a number, amount, percentage, date or section number"
    if low in NEGATIONS or low.endswith("n't"):
        return "a negation or exception"
    if low in MODALS:
        return "a modal"
    if low in CONNECTIVES:
        return "and/or, including/excluding"
    if low in NUMBER_WORDS or low in QUANTIFIERS:
        return "a quantity, duration or order"
    if _LIST_LABEL.match(word):
        return "a section or list number"
    if any(ch.isupper() for ch in core):
        return "a capitalised word (a defined term, party name or date)"
    return None


def meaning_differences(quote_words: Sequence[str], doc_words: Sequence[str]) -> list[str]:
    """Why the quote and the passage differ in more than a slip (empty when they do not).

    A fuzzy match tolerates slips only: a misspelt word (≥ `SLIP_SIMILARITY` alike, e.g.
    "consequentail"), punctuation, an article dropped or added. It refuses a differing word that
    carries meaning (`_meaning_of`), a different word altogether ("damages" / "losses", "civic centre"
    / "museum"), a negating prefix ("exclusive" / "non-exclusive"), words inserted or dropped at either
    edge (the quote runs past the passage), a run of more than `MAX_GAP_WORDS` inserted or dropped
    words (a splice), or more differing words than `MAX_DIFFERING_SHARE` of the quote.
    """
    problems: list[str] = []
    # Align on the words without edge punctuation ("Agreement," pairs with "Agreement").
    ops = Levenshtein.opcodes([_core(w) for w in quote_words], [_core(w) for w in doc_words])
    changed = [op for op in ops if op.tag != "equal"]
    if not changed:
        return problems
    if ops[0].tag in ("insert", "delete") or ops[-1].tag in ("insert", "delete"):
        problems.append("the quote's edges do not match the passage (an extension or a cut)")
    differing = 0
    for op in changed:
        removed = list(quote_words[op.src_start : op.src_end])
        added = list(doc_words[op.dest_start : op.dest_end])
        width = max(len(removed), len(added))
        differing += width
        if op.tag in ("insert", "delete") and width > MAX_GAP_WORDS:
            problems.append(f"{width} words are inserted or dropped (a splice)")
        for q, d in zip(removed, added, strict=False):
            cq, cd = _core(q).lower(), _core(d).lower()
            if _core(q) == _core(d):
                continue  # punctuation only
            if cq == cd:
                # Capitalisation is never folded: a capital letter marks a defined term or a name.
                problems.append(f"'{_core(q)}' / '{_core(d)}' differ in capitalisation (a defined term?)")
                continue
            meaning = [f"'{w}' differs and is {why}" for w in (q, d) if (why := _meaning_of(w))]
            problems.extend(meaning)
            if meaning:
                continue
            if any(b == p + a for a, b in ((cq, cd), (cd, cq)) for p in _NEG_PREFIXES):
                problems.append(f"'{q}' / '{d}' differ by a negating prefix")
            elif not (cq in ARTICLES and cd in ARTICLES) and fuzz.ratio(cq, cd) < SLIP_SIMILARITY * 100:
                problems.append(f"'{q}' is a different word from the document's '{d}'")
        extra = removed[len(added) :] if len(removed) > len(added) else added[len(removed) :]
        for w in extra:
            if why := _meaning_of(w):
                problems.append(f"'{w}' differs and is {why}")
            elif _core(w) and _core(w).lower() not in ARTICLES:
                problems.append(f"'{w}' is {'dropped from' if w in added else 'added to'} the passage")
    limit = max(1, int(MAX_DIFFERING_SHARE * len(quote_words)))
    if differing > limit:
        problems.append(f"{differing} words differ (at most {limit} for a {len(quote_words)}-word quote)")
    return list(dict.fromkeys(problems))


# ── ellipsis ─────────────────────────────────────────────────────────────────────────────────────
_ELLIPSIS = re.compile(r"\[\s*(?:\.\s*\.\s*\.|…)\s*\]|…|\.\s?\.\s?\.")


def split_ellipsis(quote: str) -> list[str]:
    """The quote's segments around ellipsis marks ("...", "…", "[...]", ". . ."), empty ones dropped."""
    return [seg.strip() for seg in _ELLIPSIS.split(quote) if seg.strip()]


def has_ellipsis(quote: str) -> bool:
    return _ELLIPSIS.search(quote) is not None


__all__ = [
    "CONNECTIVES",
    "FUZZY_MIN_SIMILARITY",
    "FUZZY_MIN_WORDS",
    "FUZZY_TIME_LIMIT_S",
    "MODALS",
    "NEGATIONS",
    "NUMBER_WORDS",
    "QUANTIFIERS",
    "FuzzyOutcome",
    "QuoteIndex",
    "Span",
    "has_ellipsis",
    "meaning_differences",
    "split_ellipsis",
]
