"""Gate on real text: expert spans must verify where the experts put them; mutations never verify.

Every CUAD expert span is re-typed the way a proposer would send it — whitespace reflowed, straight and
curly quotes swapped — and must locate at one of its annotated offsets (quotes under the gate's
10-character minimum are counted apart: the gate refuses them by rule). Then each span is mutated the
ways a careless or inventive proposer changes a quote; a mutation "verifies falsely" when the gate
passes it although the mutated words are not in the contract.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citationgate.evaluation.data import CuadRecord, cuad_records, span_starts
from citationgate.gate import gate, index_for
from citationgate.model import MIN_QUOTE_CHARS, CitationRequest, FindingStatus, Proposal
from ingest.document import Document, Fidelity, sha256_text

_WS = re.compile(r"\s+")
_MODAL = re.compile(r"\b(shall|will|may|must|can)\b")
_MODAL_SWAP = {
    "shall": "may",
    "may": "shall",
    "must": "may",
    "will": "may",
    "can": "shall",
    "should": "shall",
}
_NOT = re.compile(r"\bnot\s+")
_DIGITS = re.compile(r"\d+")
_CAPWORD = re.compile(r"(?<=[a-z,;] )([A-Z][a-z]{2,})\b")

MUTATIONS = (
    "negation_inserted",
    "negation_removed",
    "number_changed",
    "modal_swapped",
    "defined_term_lowercased",
    "spliced",
    "extended",
)


def retype(quote: str, rng: random.Random) -> str:
    """The quote as a proposer might paste it: whitespace reflowed, quote marks of the other family."""
    out = _WS.sub(lambda _m: rng.choice((" ", "\n", "  ", " \n ")), quote)
    swap = str.maketrans({'"': "“", "“": '"', "”": '"', "'": "’", "’": "'", "‘": "'"})
    return out.translate(swap)


def mutate(kind: str, quote: str, other: str, rng: random.Random) -> str | None:
    """One meaning-changing edit of `quote`; None when the quote offers nothing to edit that way."""
    if kind == "negation_inserted":
        m = _MODAL.search(quote)
        return quote[: m.end()] + " not" + quote[m.end() :] if m else None
    if kind == "negation_removed":
        m = _NOT.search(quote)
        return quote[: m.start()] + quote[m.end() :] if m else None
    if kind == "number_changed":
        m = _DIGITS.search(quote)
        return quote[: m.end()] + "0" + quote[m.end() :] if m else None
    if kind == "modal_swapped":
        m = _MODAL.search(quote)
        return quote[: m.start()] + _MODAL_SWAP[m.group(1)] + quote[m.end() :] if m else None
    if kind == "defined_term_lowercased":
        m = _CAPWORD.search(quote)
        return quote[: m.start()] + m.group(1).lower() + quote[m.end() :] if m else None
    if kind == "spliced":
        return f"{quote} {other}" if other and len(other.split()) >= 4 else None
    if kind == "extended":
        words = other.split()
        return f"{quote} {' '.join(words[:4])}" if len(words) >= 4 else None
    raise ValueError(kind)


@dataclass
class GateEval:
    spans: int = 0
    short: int = 0  # under the gate's minimum: refused by rule, not counted in the rate
    located: int = 0
    missed: list[dict[str, Any]] = field(default_factory=list)
    mutations_tried: Counter[str] = field(default_factory=Counter)
    false_verifications: Counter[str] = field(default_factory=Counter)
    false_examples: list[dict[str, Any]] = field(default_factory=list)

    @property
    def location_rate(self) -> float:
        counted = self.spans - self.short
        return self.located / counted if counted else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "spans": self.spans,
            "spans_under_minimum": self.short,
            "located": self.located,
            "location_rate": round(self.location_rate, 6),
            "missed_examples": self.missed[:20],
            "mutations_tried": dict(self.mutations_tried),
            "false_verifications": sum(self.false_verifications.values()),
            "false_verifications_by_mutation": {k: self.false_verifications.get(k, 0) for k in MUTATIONS},
            "false_verification_examples": self.false_examples[:20],
        }


def _document(rec: CuadRecord) -> Document:
    return Document(
        name=rec.text_path.name,
        file_type="txt",
        text=rec.text,
        source_sha256=sha256_text(rec.text),
        fidelity=Fidelity(value=1.0, method="identity"),
    )


def evaluate_gate(
    data_dir: Path,
    *,
    limit: int | None = None,
    mutations: bool = True,
    seed: int = 20261130,
    progress: Callable[[int], None] | None = None,
) -> GateEval:
    result = GateEval()
    rng = random.Random(seed)  # noqa: S311 - seeded for repeatable re-typing, not for secrecy
    for rec in cuad_records(data_dir, limit=limit):
        _evaluate_record(rec, result, rng, mutations=mutations)
        if progress:
            progress(1)
    return result


def _words(text: str) -> list[str]:
    return [c for w in text.split() if (c := w.strip(".,;:()\"'“”’").lower())]


def _continues(extension: list[str], following: list[str]) -> bool:
    """The extension words are the passage's real continuation, give or take an article."""
    window = following[: len(extension) + 1]
    return sum(1 for w in extension if w in window) >= len(extension) - 1


def _spans(rec: CuadRecord) -> Iterable[dict[str, Any]]:
    for cat in rec.categories.values():
        yield from cat["spans"]


def _evaluate_record(rec: CuadRecord, result: GateEval, rng: random.Random, *, mutations: bool) -> None:
    doc = _document(rec)
    index = index_for(doc)
    spans = list(_spans(rec))
    for span in spans:
        result.spans += 1
        text: str = span["text"]
        stripped = text.strip()
        if len(stripped) < MIN_QUOTE_CHARS:
            result.short += 1
            continue
        lead = len(text) - len(text.lstrip())
        wanted = {s + lead for s in span_starts(span)}
        hits = index.find_exact(retype(stripped, rng))
        if any(start in wanted for start, _ in hits):
            result.located += 1
        else:
            result.missed.append(
                {"id": rec.id, "start": span["start"], "text": stripped[:120], "found": hits[:3]}
            )
    if not mutations:
        return
    proposals: list[Proposal] = []
    long = [s for s in spans if len(s["text"].split()) >= 8]
    for i, span in enumerate(long):
        quote = span["text"].strip()
        other = long[(i + 1 + rng.randrange(max(1, len(long) - 1))) % len(long)]["text"].strip()
        if other == quote:
            other = ""
        following = _words(rec.text[span["end"] : span["end"] + 200])
        for kind in MUTATIONS:
            mutated = mutate(kind, quote, other, rng)
            if mutated is None or index.find_exact(mutated):
                continue  # nothing to mutate, or the mutated words really are in the contract
            if kind in ("extended", "spliced") and _continues(_words(other)[:4], following[:4]):
                continue  # the "other" words are (nearly) what really follows: not an extension at all
            result.mutations_tried[kind] += 1
            proposals.append(
                Proposal(
                    id=f"{kind}:{i}",
                    claim="mutation",
                    citations=(CitationRequest(quote=mutated),),
                    proposer="evaluation",
                    details={"mutation": kind},
                )
            )
    if not proposals:
        return
    gated = gate(doc, proposals, fuzzy=True, actor="evaluation")
    for finding in gated.findings:
        if finding.status is not FindingStatus.REJECTED:
            kind = finding.proposal.details["mutation"]
            result.false_verifications[kind] += 1
            c = finding.citations[0]
            result.false_examples.append(
                {
                    "id": rec.id,
                    "mutation": kind,
                    "quote": finding.proposal.citations[0].quote[:160],
                    "verified_text": (c.quote.text[:160] if c.quote else None),
                    "status": c.status.value,
                }
            )
