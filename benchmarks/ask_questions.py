"""Recall@3 of `ask` on plain-language questions written without the contracts' vocabulary.

    python benchmarks/ask_questions.py [--data ../shared/data] [--cv-dir DIR] [--top 3]

Questions: benchmarks/ask_questions.yaml (each names a shared CUAD contract and the clause type that
answers it). A question is answered when one of the top hits overlaps an expert span of that type.
Baseline, measured in the same run: keywords and bridges alone (BM25 + bridges, no meaning-based
ranking). With `--cv-dir` (from `citationgate train locator --cv-dir`), each contract is ranked by the
locator fold model that never saw it; otherwise by the shipped locator, which trained on these contracts.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.load import load_document  # noqa: E402
from playbooks.locator import Locator, load_locator  # noqa: E402
from playbooks.retrieve import ClauseRetriever  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--cv-dir", type=Path, default=None)
    parser.add_argument("--top", type=int, default=3)
    args = parser.parse_args()
    questions = yaml.safe_load((ROOT / "benchmarks" / "ask_questions.yaml").read_text(encoding="utf-8"))
    records = {}
    for line in (args.data / "cuad" / "annotations.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        records[rec["id"]] = rec
    fold_of: dict[str, int] = {}
    if args.cv_dir is not None:
        fold_of = json.loads((args.cv_dir / "folds.json").read_text(encoding="utf-8"))["fold_of"]
    right = {"keywords + bridges": 0, "clause types (default)": 0}
    for q in questions:
        rec = records[q["contract"]]
        doc = load_document(args.data / "cuad" / rec["text_file"])
        spans = [(s["start"], s["end"]) for s in rec["categories"][q["category"]]["spans"]]
        loc: Locator = (
            load_locator(args.cv_dir / f"fold{fold_of[q['contract']]}.npz") if fold_of else load_locator()
        )
        for name, types in (("keywords + bridges", None), ("clause types (default)", "auto")):
            r = ClauseRetriever(doc, semantic=None, clause_types=types, locator=loc)  # type: ignore[arg-type]
            hits = r.search(q["question"], top=args.top)
            ok = any(h.start < e and s < h.end for h in hits for s, e in spans)
            right[name] += int(ok)
            if name.startswith("clause") and not ok:
                print(f"  missed: {q['contract']} [{q['category']}] {q['question']}")
    n = len(questions)
    how = "fold models (CV)" if fold_of else "the shipped locator (in-sample)"
    print(f"{n} questions, recall@{args.top}, locator: {how}")
    base = right["keywords + bridges"] / n
    for name, k in right.items():
        print(f"  {name:24s} {k / n:.3f} ({k}/{n})")
    print(f"  ratio default/baseline {right['clause types (default)'] / n / base:.2f}x" if base else "")


if __name__ == "__main__":
    main()
