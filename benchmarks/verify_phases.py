"""Benchmark: where `verify` of 1,000 quotes on 1 MB spends its CPU, phase by phase, against the regex budget.

    python benchmarks/verify_phases.py             # best of 3 fresh processes per measurement
    python benchmarks/verify_phases.py --repeat 5

`benchmarks/startup.py` measures `citationgate verify` end to end against one whitespace-flexible regex per
quote run in-process (the issue's baseline; goal: verify ≥ 2× faster). This one says what the end-to-end
figure is made of: a fresh process (so every import is counted where it first happens) runs the steps the
command runs — the interpreter and the CLI (the command coerces its options without pydantic, and reads
plainly valid proposals without it: the report says whether it was loaded), the store's imports (on a SQLite
file the standard library's sqlite3: SQLAlchemy is not loaded, and the report says so), the gate's
(rapidfuzz, ahocorasick; no numpy), parsing the proposals, opening the database, reading the 1 MB
contract (sections, fidelity), gating the 1,000 quotes (the normalised index and the fuzzy fallback),
writing the review with its new version, findings and audit chain, and printing the JSON — each
with its CPU seconds (user + system, `time.process_time`), then the same regex baseline as startup.py,
one pass after each child (the best of them), and the budget the goal leaves (baseline ÷ 2). Last, the
same verify again in that warm process through `citationgate.verify` (the library verb; the version is
reused by its hash): what a long-running caller — a pipeline importing the library, an MCP client of
`citationgate mcp` — pays per call after its first.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from gate import make_document, make_quotes  # noqa: E402  (benchmarks/gate.py's generators)
from startup import bytecode_line, child_env, regex_baseline  # noqa: E402  (the same as startup.py)

# The child: the steps of `citationgate verify PROPOSALS --doc DOC --format json --db DB`, timed one by one.
CHILD = r"""
import json, sys, time
t0 = time.process_time()
out = {}
def lap(name):
    global t0
    now = time.process_time(); out[name] = now - t0; t0 = now
out["interpreter (before this line)"] = t0
import citationgate.cli, citationgate.cli.gate; lap("the CLI (Typer, citationgate)")
import citationgate.store; lap("store imports (sqlite3 for a SQLite file)")
import citationgate.gate, citationgate.proposals, ingest.load; lap("gate imports (rapidfuzz, ahocorasick, …)")
from pathlib import Path
from citationgate.gate import gate
from citationgate.proposals import parse_proposals
from citationgate.store import Store
from citationgate.verification import status_counts
from citationgate.versions import read_file
props, doc_path, db = sys.argv[1:4]
proposals = parse_proposals(json.loads(Path(props).read_text()), source="p.json"); lap("parse the proposals")
store = Store.open(db); lap("open the database (schema)")
reading = read_file(store, Path(doc_path)); lap("read the contract (sections, fidelity)")
result = gate(reading.document, proposals); lap("gate 1,000 quotes (index, exact, fuzzy)")
findings = [f.to_dict() for f in result.findings]
record = store.write_review(kind="verify", document=reading.document, version_id=reading.version_id,
                            findings=findings, audit=result.audit,
                            summary={"counts": status_counts(findings)})
lap("write the review (version, findings, audit chain)")
from citationgate.jsontext import pretty
text = pretty({"findings": findings}); lap("print the JSON")
out["SQLAlchemy loaded"] = float("sqlalchemy" in sys.modules)
out["pydantic loaded"] = float("pydantic" in sys.modules)
import citationgate
warm = time.process_time()
citationgate.verify(doc_path, json.loads(Path(props).read_text()), store=store)
out["warm"] = time.process_time() - warm
print(json.dumps(out))
import os
sys.stdout.flush()
os._exit(0)  # as the console script ends a verify (citationgate.cli.run)
"""


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--compile-each-run", action="store_true", help="the children's bytecode as this environment has it"
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        run(args.repeat, child_env(cache, compile_each_run=args.compile_each_run))


def run(repeat: int, env: dict[str, str]) -> None:
    text = make_document(1_000_000, seed=7)
    quotes = make_quotes(text, 1000, seed=8)
    runs: list[dict[str, float]] = []
    totals: list[float] = []
    bases: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        doc = Path(tmp) / "contract.txt"
        doc.write_text(text, encoding="utf-8")
        props = Path(tmp) / "proposals.json"
        items = [
            {"id": f"q{i}", "claim": "benchmark", "citations": [{"quote": q.text}]}
            for i, q in enumerate(quotes)
        ]
        props.write_text(json.dumps({"proposals": items}), encoding="utf-8")
        child = [sys.executable, "-c", CHILD, str(props), str(doc)]
        first = [*child, str(Path(tmp) / "first.db")]  # untimed: writes the bytecode cache, if any
        subprocess.run(first, env=env, capture_output=True, check=True)  # noqa: S603  (our own code)
        for k in range(repeat):
            before = cpu_children()
            done = subprocess.run(  # noqa: S603  (our own interpreter and code)
                [*child, str(Path(tmp) / f"run{k}.db")],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
            loaded = runs[-1].pop("SQLAlchemy loaded")
            pydantic = runs[-1].pop("pydantic loaded")
            totals.append(cpu_children() - before - runs[-1]["warm"])  # the cold verify's process alone
            bases.append(regex_baseline(text, quotes, 1))  # in the same round: the machine's speed drifts

    baseline = min(bases)
    best = min(range(len(runs)), key=lambda i: totals[i])
    phases, total = runs[best], totals[best]
    warm = min(r.pop("warm") for r in runs)
    print(f"verify, phase by phase: 1,000 quotes, {len(text):,} characters, best of {repeat} (CPU s)")
    print(f"  ({bytecode_line(env)})")
    print(
        f"  (a fresh database each run: cold; SQLAlchemy {'loaded' if loaded else 'never loaded'}, "
        f"pydantic {'loaded' if pydantic else 'never loaded'})"
    )
    for name, seconds in phases.items():
        print(f"  {name:<48} {seconds:6.3f}   {seconds / total:5.1%}")
    print(f"  {'the whole process (rusage, exit included)':<48} {total:6.3f}")
    print(f"  {'of which exit (interpreter teardown)':<48} {total - sum(phases.values()):6.3f}")
    print()
    print(f"  {'per-quote regex, in-process (baseline)':<48} {baseline:6.3f}")
    print(
        f"  ratio: {baseline / total:.2f}× the baseline's speed; "
        f"the goal (≥ 2×) leaves {baseline / 2:.3f} CPU-s"
    )
    print(
        f"  warm: the same verify again in that process ({warm:.3f} CPU-s, the version reused by hash — what "
        f"a library caller or an MCP client pays after its first call): {baseline / warm:.2f}× the baseline"
    )
    imports = sum(v for k, v in phases.items() if "imports" in k or "CLI" in k or "interpreter" in k)
    print(
        f"  of which interpreter and imports alone: {imports:.3f} CPU-s "
        f"({imports / (baseline / 2):.0%} of the budget)"
    )


if __name__ == "__main__":
    main()
