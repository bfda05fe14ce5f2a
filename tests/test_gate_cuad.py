"""The gate on real contracts (CUAD): expert spans, reflowed and re-quoted, verify at their offsets;
mutated spans (a negation inserted, a number changed, a modal swapped) never verify, fuzzy on.

A fast subset: the first `CONTRACTS` contracts by id. Skips cleanly when ../shared/data is absent.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from citationgate.gate import gate
from citationgate.locate import QuoteIndex
from citationgate.model import CitationRequest, CitationStatus, Proposal
from ingest.document import Document

pytestmark = pytest.mark.data

CONTRACTS = 40


@dataclass(frozen=True, slots=True)
class _Contract:
    id: str
    text: str
    spans: list[dict[str, Any]]


def _contracts(data: Path) -> Iterator[_Contract]:
    cuad = data / "cuad"
    records = []
    with (cuad / "annotations.jsonl").open(encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh]
    records.sort(key=lambda r: r["id"])
    for rec in records[:CONTRACTS]:
        text = (cuad / rec["text_file"]).read_text(encoding="utf-8")
        spans = [s for cat in rec["categories"].values() for s in cat["spans"]]
        yield _Contract(id=rec["id"], text=text, spans=spans)


@pytest.fixture(scope="module")
def contracts(shared_data: Path) -> list[_Contract]:
    return list(_contracts(shared_data))


_CURLY = {"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"}


def _requote(quote: str) -> str:
    """Straight quotes become curly and curly ones straight (as an agent's copy often does)."""
    out = []
    opened = False
    for ch in quote:
        if ch in _CURLY:
            out.append(_CURLY[ch])
        elif ch == '"':
            out.append("\u201d" if opened else "\u201c")
            opened = not opened
        elif ch == "'":
            out.append("\u2019")
        else:
            out.append(ch)
    return "".join(out)


def _reflow(quote: str) -> str:
    """Whitespace runs collapsed, as a copy from a rendered page gives them."""
    return " ".join(quote.split())


def _accepted_starts(span: dict[str, Any]) -> set[int]:
    """Annotated starts, moved past any leading whitespace of the expert span."""
    lead = len(span["text"]) - len(span["text"].lstrip())
    return {s + lead for s in [span["start"], *span.get("all_starts", [])]}


def test_every_expert_span_verifies_at_an_annotated_offset(contracts: list[_Contract]) -> None:
    """Reflowed, re-quoted expert spans are located (batched path) at one of their annotated starts."""
    checked = 0
    for contract in contracts:
        index = QuoteIndex(contract.text)
        spans = [s for s in contract.spans if s["text"].strip()]
        quotes = [_requote(_reflow(s["text"])) for s in spans]
        for span, quote, found in zip(spans, quotes, index.find_exact_many(quotes), strict=True):
            starts = {a for a, _ in found}
            assert starts & _accepted_starts(span), (contract.id, span["start"], quote[:80])
            for a, b in found:
                assert not contract.text[a].isspace() and not contract.text[b - 1].isspace()
            checked += 1
    assert checked > 500


def test_expert_spans_pass_the_gate_with_a_near_hint(contracts: list[_Contract]) -> None:
    """Through the whole gate, with the annotated offset as hint, each 10+ character span verifies there."""
    for contract in contracts[:15]:
        doc = Document(name=f"{contract.id}.txt", file_type="txt", text=contract.text, source_sha256="0" * 64)
        spans = [s for s in contract.spans if len(_reflow(s["text"])) >= 10]
        proposals = [
            Proposal(
                id=f"s{i}",
                claim="expert span",
                citations=(CitationRequest(quote=_requote(_reflow(s["text"])), near=s["start"]),),
            )
            for i, s in enumerate(spans)
        ]
        result = gate(doc, proposals, fuzzy=False)
        for span, finding in zip(spans, result.findings, strict=True):
            c = finding.citations[0]
            assert c.status is CitationStatus.VERIFIED, (contract.id, span["start"], c.reason)
            assert c.quote is not None and c.quote.start in _accepted_starts(span)
            assert contract.text[c.quote.start : c.quote.end] == c.quote.text


_MODAL = re.compile(r"\b(shall|will|may|must)\b")
_SWAP = {"shall": "may", "will": "may", "may": "shall", "must": "may"}
_DIGIT = re.compile(r"\d")


def _mutations(quote: str) -> list[tuple[str, str]]:
    out = []
    m = _MODAL.search(quote)
    if m:
        out.append(("negation", quote[: m.end()] + " not" + quote[m.end() :]))
        out.append(("modal", quote[: m.start()] + _SWAP[m.group(1)] + quote[m.end() :]))
    d = _DIGIT.search(quote)
    if d:
        new = str((int(d.group(0)) + 1) % 10)
        out.append(("number", quote[: d.start()] + new + quote[d.end() :]))
    return out


def test_mutated_spans_never_verify(contracts: list[_Contract]) -> None:
    """A negation inserted, a number changed or a modal swapped: never verified, even with fuzzy on."""
    tried = 0
    for contract in contracts:
        doc = Document(name=f"{contract.id}.txt", file_type="txt", text=contract.text, source_sha256="0" * 64)
        index = QuoteIndex(contract.text)
        proposals = []
        for i, span in enumerate(contract.spans):
            quote = _reflow(span["text"])
            if len(quote.split()) < 8:
                continue
            for kind, mutated in _mutations(quote):
                if index.find_exact(mutated):
                    continue  # the mutated wording really is in the contract elsewhere
                proposals.append(
                    Proposal(id=f"{i}-{kind}", claim=kind, citations=(CitationRequest(quote=mutated),))
                )
        result = gate(doc, proposals, fuzzy=True)
        for proposal, finding in zip(proposals, result.findings, strict=True):
            status = finding.citations[0].status
            assert status not in (CitationStatus.VERIFIED, CitationStatus.AMBIGUOUS), (
                contract.id,
                proposal.id,
                proposal.citations[0].quote[:100],
                finding.citations[0].reason,
            )
            tried += 1
    assert tried > 200
