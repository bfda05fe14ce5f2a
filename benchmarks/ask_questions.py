"""Recall@3 of `ask` on plain-language questions written without the contracts' vocabulary.

    python benchmarks/ask_questions.py [--questions FILE | --category-questions A:B] [--data ../shared/data]
                                       [--cv-dir DIR] [--top 3] [--oracle] [--quiet]

Questions: a YAML list of `{contract, category, question}` (default benchmarks/ask_questions.yaml, the
development set); each names a shared CUAD contract and the clause type that answers it. A question is
answered when one of the top hits overlaps an expert span of that type. Baseline, measured in the same
run: keywords and bridges alone (BM25 + bridges, no meaning-based ranking). With `--cv-dir` (from
`citationgate train locator --cv-dir`), each contract is ranked by the locator fold model that never saw
it; otherwise by the shipped locator, which trained on these contracts.

`--category-questions A:B`: instead of a file, the one plain question per clause type of `citationgate eval
retrieval` (`citationgate.evaluation.retrieval_eval.QUESTIONS`) put to the shared contracts A..B-1 (sorted
by id) wherever the experts marked that type present: many contracts, a second view of the ranking.

`--oracle`: the question is read as its own clause type every time (weight 1): the ceiling of reading the
question, for the ranking of the passages as it stands. The summary also says how often the question was
read with its own type first, and among the types kept.

For every question the output says where the first right hit ranked, which ranker answered (the ranking
that placed that hit highest, read from the hit's own `why` lines: keywords, clause type, meaning) and the
clause types the question was read as (by the retriever's own reading where it has one: without the words that
name the document itself). The script reads only public names of the retriever, so a copy of
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


def shipped_fire(retrievers: dict[str, dict[str, ClauseRetriever]], q: dict[str, str]) -> Any:
    return retrievers[q["contract"]][DEFAULT].bridges.fire(q["question"])


class Oracle:
    """Reads every question as one given clause type (`--oracle`): the ceiling of reading the question."""

    def __init__(self, category: str, shipped: Any) -> None:
        from playbooks.locator.questions import ClauseType

        self.name = f"oracle ({category})"
        self._types = [ClauseType(category=category, weight=1.0, similarity=1.0)]
        self.shipped = shipped

    def types(self, question: str, fired: Any = (), *, k: int = 3) -> list[Any]:
        return list(self._types)

    def read(self, question: str, fired: Any = (), *, k: int = 3) -> Any:
        from playbooks.locator.questions import Reading

        return Reading(types=tuple(self._types), confidence=1.0)

    @property
    def vocabulary(self) -> Any:
        return self.shipped.vocabulary


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
    parser.add_argument("--oracle", action="store_true", help="Read each question as its own clause type.")
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
    read_first = read_kept = 0
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
                    BASELINE: ClauseRetriever(doc, clause_types=None, locator=loc),
                    DEFAULT: ClauseRetriever(doc, clause_types="auto", locator=loc),
                }
            }
        shipped = retrievers[q["contract"]][DEFAULT].clause_types
        if isinstance(shipped, Oracle):
            shipped = shipped.shipped
        read_types: list[Any] = []
        if shipped is not None:
            default = retrievers[q["contract"]][DEFAULT]
            if hasattr(default, "read_question"):  # read without the document's own words (ask6 on)
                saved, default.clause_types = default.clause_types, shipped
                read_types = list(default.read_question(q["question"]).types)
                default.clause_types = saved
            else:
                read_types = shipped.types(q["question"], shipped_fire(retrievers, q))
            read = [t.category for t in read_types]
            read_first += int(read[:1] == [q["category"]])
            read_kept += int(q["category"] in read)
        for name, r in retrievers[q["contract"]].items():
            if args.oracle and name == DEFAULT:
                r.clause_types = Oracle(q["category"], shipped)  # type: ignore[assignment]
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
                read_as = ", ".join(f"{t.category} {t.weight:.2f}" for t in read_types)
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
    if read_first or read_kept:
        print(f"  read with its own clause type first {read_first}/{n}, among those kept {read_kept}/{n}")
    if args.oracle:
        print("  (--oracle: the default ranked with each question read as its own clause type)")
    if base:
        print(f"  ratio default/baseline {right[DEFAULT] / n / base:.2f}x")
    print(
        "  answered by (right hits of the default): "
        + ", ".join(f"{k} {v}" for k, v in by_ranker.most_common())
    )


if __name__ == "__main__":
    main()
