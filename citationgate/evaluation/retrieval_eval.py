"""Clause retrieval measured on CUAD: plain questions against expert-labelled spans.

For every CUAD category there is one question a business person would ask (written here, not CUAD's own
description text). For each contract where the category is present, the question is put to the
contract and a result counts as found when a returned unit overlaps an expert span (any occurrence of
the span's text). Recall@1 and recall@3 are reported two ways, side by side: keywords alone, and
keywords with bridges (the clause-type ranking of `ask` is measured by `benchmarks/ask_questions.py
--category-questions`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from citationgate.evaluation.data import DataMissingError
from ingest.document import Document
from ingest.load import load_document
from playbooks.retrieve import Bridges, ClauseRetriever, load_bridges

#: One plain-language question per CUAD category.
QUESTIONS: dict[str, str] = {
    "Document Name": "what kind of contract is this?",
    "Parties": "who is this contract between?",
    "Agreement Date": "when was this contract signed?",
    "Effective Date": "when does the deal start?",
    "Expiration Date": "how long does the contract last before it ends?",
    "Renewal Term": "does it renew automatically when the term runs out?",
    "Notice Period to Terminate Renewal": "how much notice do we need to give to stop it renewing?",
    "Governing Law": "which country's law applies to this deal?",
    "Most Favored Nation": "are we guaranteed the best price they give anyone?",
    "Non-Compete": "are we stopped from competing with them?",
    "Exclusivity": "can we work with other suppliers, or only with them?",
    "No-Solicit of Customers": "can they go after our customers?",
    "Competitive Restriction Exception": "are there exceptions that still let us compete?",
    "No-Solicit of Employees": "can they hire our staff?",
    "Non-Disparagement": "are we allowed to say bad things about them in public?",
    "Termination for Convenience": "can we get out of the deal without a reason?",
    "Rofr/Rofo/Rofn": "do they get first dibs if we want to sell or make a deal?",
    "Change of Control": "what happens if the company gets bought?",
    "Anti-Assignment": "can they hand the contract to someone else?",
    "Revenue/Profit Sharing": "do they get a cut of the money we make?",
    "Price Restrictions": "can they put the price up?",
    "Minimum Commitment": "how much do we have to buy at a minimum?",
    "Volume Restriction": "is there a maximum on how much we can use or order?",
    "IP Ownership Assignment": "who owns the work that gets created?",
    "Joint IP Ownership": "do we own anything together with them?",
    "License Grant": "what are we allowed to use of theirs?",
    "Non-Transferable License": "can we pass the license on to someone else?",
    "Affiliate License-Licensor": "can their group companies license things to us too?",
    "Affiliate License-Licensee": "can our subsidiaries use the license as well?",
    "Unlimited/All-You-Can-Eat-License": "can we use it as much as we want with no limits?",
    "Irrevocable or Perpetual License": "is the license forever, or can they take it back?",
    "Source Code Escrow": "do we get the source code if the vendor goes bust?",
    "Post-Termination Services": "what happens after the contract ends?",
    "Audit Rights": "can they check our books?",
    "Uncapped Liability": "is any liability unlimited or excluded from the cap?",
    "Cap on Liability": "how much can we claim if it goes wrong?",
    "Liquidated Damages": "is there a fixed penalty if someone breaks the deal?",
    "Warranty Duration": "how long is the warranty?",
    "Insurance": "what insurance do they have to carry?",
    "Covenant Not to Sue": "have we promised not to sue or challenge their rights?",
    "Third Party Beneficiary": "can outsiders enforce this contract?",
}

#: CUAD categories the built-in services-MSA playbook covers (the goal: recall@3 ≥ 0.9 on these).
PLAYBOOK_CATEGORIES = frozenset(
    {
        "Cap on Liability",
        "Uncapped Liability",
        "IP Ownership Assignment",
        "Expiration Date",
        "Renewal Term",
        "Notice Period to Terminate Renewal",
        "Termination for Convenience",
        "Warranty Duration",
        "Insurance",
        "Anti-Assignment",
        "Change of Control",
        "Governing Law",
        "No-Solicit of Employees",
        "Audit Rights",
    }
)

MODES = ("keywords", "bridges")


#: The same error as every other evaluation's missing data folder (exit code 3).
EvaluationDataError = DataMissingError


def cuad_dir(data_dir: str | Path) -> Path:
    """`data_dir` itself when it holds annotations.jsonl, else its `cuad/` folder."""
    root = Path(data_dir)
    for candidate in (root, root / "cuad"):
        if (candidate / "annotations.jsonl").is_file():
            return candidate
    raise EvaluationDataError(
        f"{root}: CUAD data not found (expected annotations.jsonl in it or in its cuad/ folder)"
    )


def _records(folder: Path) -> Iterator[dict[str, Any]]:
    with (folder / "annotations.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _gold(record: dict[str, Any], category: str) -> list[tuple[int, int]]:
    spans = []
    for s in record["categories"].get(category, {}).get("spans", []):
        length = s["end"] - s["start"]
        for start in s.get("all_starts") or [s["start"]]:
            spans.append((start, start + length))
    return spans


def _overlaps(start: int, end: int, gold: list[tuple[int, int]]) -> bool:
    return any(start < b and a < end for a, b in gold)


def evaluate_retrieval(
    data_dir: str | Path,
    *,
    limit: int | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> dict[str, Any]:
    """Recall@1 and recall@3 per CUAD category, two ways. `progress(done, total, contract_id)`.

    Returns {"contracts", "modes", "categories": [{"category", "question", "playbook", "present",
    "keywords": {"recall@1", "recall@3"} | None, "bridges": …}], "summary": {mode: {"all": …,
    "playbook": …}}}.
    """
    folder = cuad_dir(data_dir)
    records = list(_records(folder))
    if limit is not None:
        records = records[:limit]
    shipped = load_bridges()
    none = Bridges.empty()
    # mode → category → [(found at 1, found in top 3, contract index)]
    hits: dict[str, dict[str, list[tuple[bool, bool, int]]]] = {m: {c: [] for c in QUESTIONS} for m in MODES}
    for n, rec in enumerate(records):
        document: Document = load_document(folder / rec["text_file"])
        retriever = ClauseRetriever(document, bridges=shipped, clause_types=None)
        for category, question in QUESTIONS.items():
            gold = _gold(rec, category)
            if not gold:
                continue
            for mode, bridges in (("keywords", none), ("bridges", shipped)):
                found = retriever.search(question, top=3, bridges=bridges, use_semantic=False)
                at1 = bool(found) and _overlaps(found[0].start, found[0].end, gold)
                at3 = any(_overlaps(h.start, h.end, gold) for h in found[:3])
                hits[mode][category].append((at1, at3, n))
        if progress is not None:
            progress(n + 1, len(records), rec["id"])

    def table(first: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        def recall(rows: list[tuple[bool, bool, int]]) -> dict[str, float] | None:
            rows = [r for r in rows if r[2] < first]
            if not rows:
                return None
            return {
                "recall@1": sum(a for a, _, _ in rows) / len(rows),
                "recall@3": sum(b for _, b, _ in rows) / len(rows),
            }

        categories: list[dict[str, Any]] = []
        for category, question in QUESTIONS.items():
            categories.append(
                {
                    "category": category,
                    "question": question,
                    "playbook": category in PLAYBOOK_CATEGORIES,
                    "present": sum(1 for r in hits["keywords"][category] if r[2] < first),
                    "keywords": recall(hits["keywords"][category]),
                    "bridges": recall(hits["bridges"][category]),
                }
            )

        def macro(mode: str, only_playbook: bool) -> dict[str, float] | None:
            rows = [
                c[mode] for c in categories if c[mode] is not None and (c["playbook"] or not only_playbook)
            ]
            if not rows:
                return None
            return {k: sum(r[k] for r in rows) / len(rows) for k in ("recall@1", "recall@3")}

        summary = {m: {"all": macro(m, False), "playbook": macro(m, True)} for m in MODES}
        return categories, summary

    categories, summary = table(len(records))
    return {
        "contracts": len(records),
        "modes": list(MODES),
        "categories": categories,
        "summary": summary,
    }
