"""Benchmark: what the run-time regex bound costs a review, measured on the built-in playbooks.

    python benchmarks/regex_timeout.py [--pages 50] [--repeat 5]

A custom playbook's patterns run under a time bound (`playbooks/regex_safety.py`: compiled with the
`regex` module as well, every match given `timeout=`); the built-in playbooks are trusted and stay on
`re`. This measures, in the same run, each built-in playbook as shipped (baseline: `re`, the current
engine) against the same YAML loaded the way a custom playbook is (bounded), over the sample contracts
and a generated ~50-page MSA: the whole review (`citationgate.review.review`: parties, type, playbook,
gate), interleaved, median of `--repeat` runs. It also checks that both give the same findings.

The ratio is the price a custom playbook pays for the bound, and what the built-ins would pay if they
were bounded too; it is why they are not.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from citationgate.review import finding_dict, review  # noqa: E402
from ingest.document import Document  # noqa: E402
from ingest.load import load_document  # noqa: E402
from playbooks import load_playbook  # noqa: E402
from playbooks.library import BUILTIN_DIR  # noqa: E402
from playbooks.schema import Playbook, parse_playbook  # noqa: E402


def _generated(pages: int, out_dir: Path) -> Path:
    spec = importlib.util.spec_from_file_location("bench_review", ROOT / "benchmarks" / "review.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    _docx, txt = mod.make_contract(pages, out_dir)
    return Path(txt)


def _findings(doc: Document, pb: Playbook) -> str:
    return json.dumps([finding_dict(f) for f in review(doc, pb).findings], sort_keys=True, default=str)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    samples = ROOT / "sample_contracts"
    with tempfile.TemporaryDirectory() as tmp:
        paths = [
            samples / "northwind_msa.docx",
            samples / "harbor_msa.pdf",
            samples / "meridian_msa.txt",
            _generated(args.pages, Path(tmp)),
        ]
        docs = [load_document(p) for p in paths]
    print(f"{len(docs)} contracts, {sum(len(d.text) for d in docs):,} characters; median of {args.repeat}")
    worst = 0.0
    for pid in ("msa-customer", "nda-recipient"):
        shipped = load_playbook(pid)
        source = BUILTIN_DIR / f"{pid}.yaml"
        as_custom = parse_playbook(source.read_bytes(), source=str(source), bounded=True)
        assert not shipped.bounded and as_custom.bounded
        same = all(_findings(d, shipped) == _findings(d, as_custom) for d in docs)  # also warms both
        wall: dict[bool, list[float]] = {False: [], True: []}
        cpu: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(args.repeat):
            for pb in (shipped, as_custom):
                t0, c0 = time.perf_counter(), time.process_time()
                for d in docs:
                    review(d, pb)
                wall[pb.bounded].append(time.perf_counter() - t0)
                cpu[pb.bounded].append(time.process_time() - c0)
        base, bounded = statistics.median(wall[False]), statistics.median(wall[True])
        base_cpu, bounded_cpu = statistics.median(cpu[False]), statistics.median(cpu[True])
        worst = max(worst, bounded_cpu / base_cpu)
        print(f"{pid} {shipped.version}:                      wall        CPU")
        print(f"  baseline: as shipped (re)              {base * 1000:8.0f} ms {base_cpu * 1000:8.0f} ms")
        print(
            f"  bounded (regex, timeout; as custom)    {bounded * 1000:8.0f} ms {bounded_cpu * 1000:8.0f} ms"
        )
        print(
            f"  ratio bounded/baseline {bounded / base:.2f}x wall, {bounded_cpu / base_cpu:.2f}x CPU; "
            f"same findings: {'yes' if same else 'NO'}"
        )
    print(
        f"worst CPU ratio {worst:.2f}x: the built-in playbooks run on re as before (the bound is for custom "
        "playbooks only), so their review time is unchanged"
    )


if __name__ == "__main__":
    main()
