"""Benchmark: the playbook engine alone (`run_playbook` with msa-customer) on a generated 50-page MSA.

    python benchmarks/playbook.py [--pages 50] [--repeat 5]

The contract is the one `benchmarks/review.py` builds (the Northwind sample MSA followed by generated
statements of work, ~3,000 characters a page), as plain text. Baseline, measured in the same run: reading
the same file into a Document (`load_document`). The ratio says what locating, extracting and deciding 27
clause types, the cross-clause checks and the drafting checks cost on top of reading the text.
Goal: the engine well under 1 s for a 50-page MSA.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.load import load_document  # noqa: E402
from playbooks import load_playbook, run_playbook  # noqa: E402

GOAL_SECONDS = 1.0


def _make_contract(pages: int, out_dir: Path) -> Path:
    spec = importlib.util.spec_from_file_location("bench_review", ROOT / "benchmarks" / "review.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    _docx, txt = mod.make_contract(pages, out_dir)
    return Path(txt)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    pb = load_playbook("msa-customer")
    with tempfile.TemporaryDirectory() as tmp:
        path = _make_contract(args.pages, Path(tmp))
        ingest_times, engine_times = [], []
        outcomes = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            doc = load_document(path)
            t1 = time.perf_counter()
            outcomes = run_playbook(doc, pb)
            t2 = time.perf_counter()
            ingest_times.append(t1 - t0)
            engine_times.append(t2 - t1)
        base, eng = statistics.median(ingest_times), statistics.median(engine_times)
        print(
            f"{path.name}: {len(doc.text):,} characters, {len(doc.sections)} sections, "
            f"{len(outcomes)} outcomes"
        )
        print(f"  baseline (load_document)          {base * 1000:8.1f} ms")
        print(f"  run_playbook (msa-customer {pb.version})  {eng * 1000:8.1f} ms")
        verdict = "within" if eng < GOAL_SECONDS else "OVER"
        print(f"  ratio engine/baseline {eng / base:.2f}x; {verdict} the {GOAL_SECONDS:.0f} s goal")


if __name__ == "__main__":
    main()
