"""Recall@3 of `ask` on plain-language questions written without the contracts' vocabulary.

    python benchmarks/ask_questions.py [--questions FILE | --category-questions A:B] [--data ../shared/data]
                                       [--cv-dir DIR] [--top 3] [--quiet]

Questions: a YAML list of `{contract, category, question}` (default benchmarks/ask_questions.yaml, the
development set); each names a shared CUAD contract and the clause type that answers it. A question is
answered when one of the top hits overlaps an expert span of that type. Baseline, measured in the same
run: keywords and bridges alone (BM25 + bridges, no meaning-based ranking). With `--cv-dir` (from
`citationgate train locator --cv-dir`), each contract is ranked by the locator fold model that never saw
it; otherwise by the shipped locator, which trained on these contracts.

`--category-questions A:B`: instead of a file, the one plain question per clause type of `citationgate eval
retrieval` (`citationgate.evaluation.retrieval_eval.QUESTIONS`) put to the shared contracts A..B-1 (sorted
by id) wherever the experts marked that type present: many contracts, a second view of the ranking.

For every question the output says where the first right hit ranked, which ranker answered (the ranking
that placed that hit highest, read from the hit's own `why` lines: keywords, clause type, meaning) and the
clause types the question was read as. The script reads only public names of the retriever, so a copy of
it also measures an older checkout: put it in that checkout's `benchmarks/` and run it there.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.load import load_document  # noqa: E402
from playbooks.locator import Locator, load_locator  # noqa: E402
from playbooks.retrieve import ClauseRetriever  # noqa: E402

_RANK = re.compile(r"^(keywords|clause type|meaning): rank (\d+)")
DEFAULT = "clause types (default)"
BASELINE = "keywords + bridges"


def read_questions(path: Path) -> list[dict[str, str]]:
    """The question file: a YAML list of mappings with `contract`, `category` and `question`."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(raw, list) or not raw:
        raise SystemExit(f"{path}: expected a YAML list of {{contract, category, question}}")
    for n, q in enumerate(raw, start=1):
        if not isinstance(q, dict) or not all(
            isinstance(q.get(k), str) for k in ("contract", "category", "question")
        ):
            raise SystemExit(f"{path}: item {n} needs string `contract`, `category` and `question`")
    return raw


def answered_by(why: Any) -> str:
    """Which ranker placed a hit: "clause type" when the hit was placed ahead of the fusion as a passage
    of the question's clause type (its `ranked by: clause type` line), otherwise the ranking(s) that put it
    highest, read from its `why` lines ("keywords: rank 3 …"; older checkouts have only those)."""
    if any(w.startswith("ranked by: clause type") for w in why):
        return "clause type (placed first)"
    ranks = {m.group(1): int(m.group(2)) for w in why if (m := _RANK.match(w))}
    if not ranks:
        return "none"
    best = min(ranks.values())
    return " + ".join(sorted(k for k, r in ranks.items() if r == best)) + f" (rank {best})"


def category_questions(records: dict[str, Any], span: str) -> list[dict[str, str]]:
    """`eval retrieval`'s question per clause type, over contracts `A:B` where the type is present."""
    from citationgate.evaluation.retrieval_eval import QUESTIONS
    from playbooks.locator import CATEGORIES

    a, _, b = span.partition(":")
    ids = sorted(records)[int(a or 0) : int(b) if b else None]
    return [
        {"contract": cid, "category": cat, "question": question}
        for cid in ids
        for cat, question in QUESTIONS.items()
        if cat in CATEGORIES and records[cid]["categories"].get(cat, {}).get("spans")
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--questions", type=Path, default=ROOT / "benchmarks" / "ask_questions.yaml")
    parser.add_argument("--category-questions", metavar="A:B", default=None)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--cv-dir", type=Path, default=None)
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--quiet", action="store_true", help="Only the summary, not one line per question.")
    args = parser.parse_args()
    records = {}
    for line in (args.data / "cuad" / "annotations.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        records[rec["id"]] = rec
    if args.category_questions is not None:
        questions = category_questions(records, args.category_questions)
        label = f"category questions over contracts {args.category_questions}"
    else:
        questions = read_questions(args.questions)
        label = args.questions.name
    fold_of: dict[str, int] = {}
    if args.cv_dir is not None:
        fold_of = json.loads((args.cv_dir / "folds.json").read_text(encoding="utf-8"))["fold_of"]
    right = {BASELINE: 0, DEFAULT: 0}
    by_ranker: Counter[str] = Counter()
    retrievers: dict[str, dict[str, ClauseRetriever]] = {}  # the current contract's, built once
    for q in questions:
        if q["contract"] not in records:
            raise SystemExit(f"{args.questions}: unknown contract {q['contract']!r}")
        rec = records[q["contract"]]
        spans = [(s["start"], s["end"]) for s in rec["categories"][q["category"]]["spans"]]
        if q["contract"] not in retrievers:
            doc = load_document(args.data / "cuad" / rec["text_file"])
            loc: Locator = (
                load_locator(args.cv_dir / f"fold{fold_of[q['contract']]}.npz") if fold_of else load_locator()
            )
            retrievers = {
                q["contract"]: {
                    BASELINE: ClauseRetriever(doc, semantic=None, clause_types=None, locator=loc),
                    DEFAULT: ClauseRetriever(doc, semantic=None, clause_types="auto", locator=loc),
                }
            }
        for name, r in retrievers[q["contract"]].items():
            hits = r.search(q["question"], top=max(args.top, 10))
            rank = next(
                (n for n, h in enumerate(hits, start=1) if any(h.start < e and s < h.end for s, e in spans)),
                None,
            )
            ok = rank is not None and rank <= args.top
            right[name] += int(ok)
            if name != DEFAULT:
                continue
            how = answered_by(hits[rank - 1].why) if rank is not None else "-"
            if ok:
                by_ranker[how.split(" (")[0]] += 1
            if not args.quiet:
                read_as = ""
                if r.clause_types is not None:
                    read = r.clause_types.types(q["question"], r.bridges.fire(q["question"]))
                    read_as = ", ".join(f"{t.category} {t.weight:.2f}" for t in read)
                print(
                    f"  {'right' if ok else 'missed'}: {q['contract']} [{q['category']}] "
                    f"first right hit {('rank ' + str(rank)) if rank else 'not in top 10'}, by {how}; "
                    f"read as {read_as or 'no clause type'} — {q['question']}"
                )
    n = len(questions)
    how = "fold models (CV)" if fold_of else "the shipped locator (in-sample)"
    print(f"{label}: {n} questions, recall@{args.top}, locator: {how}")
    base = right[BASELINE] / n
    for name, k in right.items():
        print(f"  {name:24s} {k / n:.3f} ({k}/{n})")
    if base:
        print(f"  ratio default/baseline {right[DEFAULT] / n / base:.2f}x")
    print(
        "  answered by (right hits of the default): "
        + ", ".join(f"{k} {v}" for k, v in by_ranker.most_common())
    )


if __name__ == "__main__":
    main()
