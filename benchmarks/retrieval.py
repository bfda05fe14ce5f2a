"""Clause retrieval speed against bm25s used directly on the same units, measured in the same run.

    python benchmarks/retrieval.py [--data ../shared/data] [--pages 100] [--limit N]

Two corpora: a generated ~100-page contract (seeded), and every CUAD contract in the data folder (skipped
with a message when absent). For each: index build time (ours: units + bridges-ready BM25 index; baseline:
bm25s.tokenize + BM25.index over the same unit texts) and query latency (ours: bridges, weighting,
definitional down-rank, confidence and reasons; baseline: bm25s.retrieve top 5).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bm25s  # noqa: E402

from citationgate.evaluation.retrieval_eval import QUESTIONS, EvaluationDataError, cuad_dir  # noqa: E402
from ingest.document import Document  # noqa: E402
from ingest.load import load_document  # noqa: E402
from ingest.sections import detect_sections  # noqa: E402
from playbooks.bridges import STEMMER  # noqa: E402
from playbooks.retrieve import ClauseRetriever  # noqa: E402
from playbooks.units import build_units  # noqa: E402

_VOCAB = (
    "supplier customer services fees invoice payment liability indemnify confidential information "
    "term terminate notice breach cure days months agreement party affiliate warranty defects "
    "insurance audit records law courts dispute assignment consent subcontract data personal "
    "security change control price increase adjustment deliverables acceptance intellectual "
    "property licence ownership employees solicit "
)
WORDS = tuple(_VOCAB.split(" ")[:-1])
HEADINGS = [
    "Definitions",
    "Services",
    "Fees and Payment",
    "Limitation of Liability",
    "Indemnities",
    "Confidentiality",
    "Data Protection",
    "Term and Termination",
    "Warranties",
    "Insurance",
    "Audit",
    "Assignment",
    "Intellectual Property",
    "Governing Law",
    "Force Majeure",
    "Non-Solicitation",
    "Notices",
    "General",
]


def generated_contract(pages: int, seed: int = 7) -> Document:
    """A numbered contract of about `pages` pages (3,000 characters a page) of seeded clause-like text."""
    rng = random.Random(seed)
    parts = ["MASTER SERVICES AGREEMENT\n\nThis Agreement is made between Supplier Ltd and Customer Ltd.\n"]
    size, n = 0, 0
    while size < pages * 3000:
        n += 1
        parts.append(f"\n{n}. {HEADINGS[(n - 1) % len(HEADINGS)]}\n")
        for m in range(1, rng.randint(3, 9)):
            sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(25, 70)))
            clause = f"\n{n}.{m} The {sentence.capitalize()}.\n"
            parts.append(clause)
            size += len(clause)
    text = "".join(parts)
    return Document(
        name="generated.txt",
        file_type="txt",
        text=text,
        source_sha256=hashlib.sha256(text.encode()).hexdigest(),
        sections=tuple(detect_sections(text).sections),
    )


def baseline_index(texts: list[str]) -> bm25s.BM25:
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=STEMMER, show_progress=False)
    retriever = bm25s.BM25()
    retriever.index(tokens, show_progress=False)
    return retriever


def baseline_query(retriever: bm25s.BM25, question: str, n: int) -> None:
    q = bm25s.tokenize([question], stopwords="en", stemmer=STEMMER, show_progress=False)
    if q.vocab:
        retriever.retrieve(q, k=min(5, n), show_progress=False)


def measure(docs: list[Document], questions: list[str]) -> dict[str, float]:
    """Total build seconds and per-query milliseconds (median), ours and baseline, over `docs`."""
    build_ours = build_base = 0.0
    q_ours: list[float] = []
    q_base: list[float] = []
    for doc in docs:
        t0 = time.perf_counter()
        ours = ClauseRetriever(doc)
        build_ours += time.perf_counter() - t0
        texts = [doc.text[u.start : u.end] for u in build_units(doc)] or [""]
        t0 = time.perf_counter()
        base = baseline_index(texts)
        build_base += time.perf_counter() - t0
        for q in questions:
            t0 = time.perf_counter()
            ours.search(q, top=5)
            q_ours.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            baseline_query(base, q, len(texts))
            q_base.append(time.perf_counter() - t0)
    return {
        "build_ours": build_ours,
        "build_base": build_base,
        "q_ours_ms": statistics.median(q_ours) * 1000,
        "q_base_ms": statistics.median(q_base) * 1000,
        "queries": len(q_ours),
    }


def report(title: str, m: dict[str, float]) -> None:
    print(f"\n{title}")
    print(
        f"  index build   ours {m['build_ours']:8.3f} s   bm25s {m['build_base']:8.3f} s   "
        f"ratio {m['build_ours'] / m['build_base']:.2f}x"
    )
    print(
        f"  query (p50)   ours {m['q_ours_ms']:8.2f} ms  bm25s {m['q_base_ms']:8.2f} ms  "
        f"ratio {m['q_ours_ms'] / m['q_base_ms']:.2f}x   ({int(m['queries'])} queries)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description="Clause retrieval speed vs bm25s directly.")
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--pages", type=int, default=100)
    ap.add_argument("--limit", type=int, default=None, help="only the first N CUAD contracts")
    args = ap.parse_args()
    questions = list(QUESTIONS.values())

    doc = generated_contract(args.pages)
    pages = len(doc.text) / 3000
    units = len(build_units(doc))
    # warm both paths once (imports, stemmer, stop lists) so neither pays first-call costs in the numbers
    measure([generated_contract(2, seed=1)], questions[:3])
    report(
        f"generated contract: {len(doc.text):,} characters (~{pages:.0f} pages), {units} units, "
        f"{len(questions)} questions",
        measure([doc], questions),
    )

    try:
        folder = cuad_dir(args.data)
    except EvaluationDataError as exc:
        print(f"\nCUAD: skipped ({exc})")
        return 0
    files = sorted((folder / "texts").glob("*.txt"))[: args.limit]
    docs = [load_document(f) for f in files]
    if not docs:
        print("\nCUAD: skipped (no contracts selected)")
        return 0
    chars = sum(len(d.text) for d in docs)
    report(
        f"CUAD: {len(docs)} contracts, {chars:,} characters, {len(questions)} questions each",
        measure(docs, questions),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
