"""Benchmark: a playbook bound to each contract's parties, with and without the per-process pattern cache.

    python benchmarks/playbook_bind.py [--texts 12] [--repeat 2]

`review` binds `{us}`/`{them}` in the playbook's patterns to the contract's parties (`Playbook.bind`), which
compiles the playbook again. Only the templated patterns change from one contract to the next; the others
are compiled and checked for catastrophic backtracking once per process (`playbooks.schema._regex`).
Baseline, measured in the same run: the same reviews with that cache emptied before each one — what every
review paid before the cache. Reported: CPU seconds per review both ways and the ratio, on the first
`--texts` shared CUAD texts (../shared/data; skipped when absent). Findings are the same both ways (checked).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from citationgate.review import finding_dict, review  # noqa: E402
from ingest.load import load_document  # noqa: E402
from playbooks import load_playbook  # noqa: E402
from playbooks.schema import _regex  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "cuad" / "texts"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--texts", type=int, default=12)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    if not DATA.is_dir():
        sys.exit(f"Error: {DATA} not found (expected ../shared/data beside the checkout)")
    pb = load_playbook("msa-customer")
    docs = [load_document(p) for p in sorted(DATA.glob("*.txt"))[: args.texts]]
    review(docs[0], pb)  # warm: imports, the locator's weights
    load0 = os.getloadavg()
    best: dict[str, float] = {}
    findings: dict[str, list[str]] = {}
    for _ in range(args.repeat):
        for label, clear in (("cache emptied before each review", True), ("cache kept", False)):
            out = []
            c0 = time.process_time()
            for d in docs:
                if clear:
                    _regex.cache_clear()
                out.append(json.dumps([finding_dict(f) for f in review(d, pb).findings], sort_keys=True))
            cpu = time.process_time() - c0
            best[label] = min(best.get(label, float("inf")), cpu)
            findings[label] = out
    assert findings["cache kept"] == findings["cache emptied before each review"], "findings differ"
    base, kept = best["cache emptied before each review"], best["cache kept"]
    n = len(docs)
    print(f"{n} CUAD texts, msa-customer, best of {args.repeat}; load average {load0} → {os.getloadavg()}")
    print(f"  cache emptied before each review  {base / n:.3f} CPU-s per review (the baseline)")
    print(f"  cache kept                        {kept / n:.3f} CPU-s per review")
    print(f"  ratio                             {base / kept:.2f}× less CPU per review; findings identical")


if __name__ == "__main__":
    main()
