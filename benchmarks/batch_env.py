"""Benchmark: the review loop in fresh processes under the environment a Dask worker gets, and without it.

    python benchmarks/batch_env.py [--pdfs | --texts N] [--limit N] [--rounds 2]
                                   [--variants "NAME=VAR=VALUE,VAR=VALUE;NAME=…"] [--json OUT]

Dask's nanny starts every worker process with `distributed.nanny.pre-spawn-environ`
(`MALLOC_TRIM_THRESHOLD_=65536`, `OMP_NUM_THREADS=1`, `MKL_NUM_THREADS=1`, `OPENBLAS_NUM_THREADS=1`) and a
fixed `PYTHONHASHSEED=6640` (distributed ≥ 2024.1, so that hashing agrees across workers); a loop started
from a shell has a random hash seed and glibc's own allocator thresholds. This runs the review command's
code (`api.review_run` into a fresh SQLite store, as `benchmarks/batch.py`'s loop does) over the same
documents in one fresh process per *variant* of that environment, the variants in a rotated order from
round to round, and reports each process's CPU per document (its first document, the warm-up, apart).
Each process starts from this process's environment with those five variables removed, then sets its
variant's. Variants by default: `shell` (none of them: a random seed), `dask` (all five and the seed),
`seed` (`PYTHONHASHSEED=6640` only), `trim` (`MALLOC_TRIM_THRESHOLD_=65536` only), `seed1`/`seed2`
(other fixed seeds). Each process also reports its user and system CPU and minor page faults.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "cuad"
DASK_ENV = {
    "MALLOC_TRIM_THRESHOLD_": "65536",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "PYTHONHASHSEED": "6640",
}
VARIANTS = (
    "shell=;dask="
    + ",".join(f"{k}={v}" for k, v in DASK_ENV.items())
    + ";seed=PYTHONHASHSEED=6640;trim=MALLOC_TRIM_THRESHOLD_=65536"
    + ";seed1=PYTHONHASHSEED=1;seed2=PYTHONHASHSEED=2"
)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def child(files: list[str], db: str) -> None:
    """In the fresh process: review every file as the loop does; one JSON line of measurements."""
    sys.path.insert(0, str(ROOT))
    from citationgate.api import review_run
    from citationgate.store import Store

    store = Store(f"sqlite:///{db}")
    rows = []
    for f in files:
        u0 = resource.getrusage(resource.RUSAGE_SELF)
        w0, c0 = time.perf_counter(), time.thread_time()
        review_run(Path(f), store=store)
        w1, c1 = time.perf_counter(), time.thread_time()
        u1 = resource.getrusage(resource.RUSAGE_SELF)
        rows.append(
            {
                "name": Path(f).name,
                "wall": w1 - w0,
                "thread_cpu": c1 - c0,
                "user": u1.ru_utime - u0.ru_utime,
                "system": u1.ru_stime - u0.ru_stime,
                "minflt": u1.ru_minflt - u0.ru_minflt,
            }
        )
    print(json.dumps({"pid": os.getpid(), "hash_seed": os.environ.get("PYTHONHASHSEED"), "rows": rows}))


def parse_variants(spec: str) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for part in spec.split(";"):
        if not part.strip():
            continue
        name, _, assigns = part.partition("=")
        env = {}
        for a in assigns.split(","):
            if a.strip():
                k, _, v = a.partition("=")
                env[k.strip()] = v.strip()
        out[name.strip()] = env
    return out


def run_process(files: list[Path], env_extra: dict[str, str], db: Path) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in DASK_ENV}
    env.update(env_extra)
    out = subprocess.run(  # noqa: S603 (this script itself, with the listed files)
        [sys.executable, __file__, "--child", str(db), *map(str, files)],
        env=env,
        check=False,
        capture_output=True,
        text=True,
    )
    if out.returncode:
        sys.exit(f"Error: the review process failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def uptime() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[3:], sys.argv[2])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pdfs", action="store_true", help="the shared CUAD PDFs (default: CUAD texts)")
    ap.add_argument("--texts", type=int, default=30)
    ap.add_argument("--limit", type=int, default=0, help="at most this many documents (the first is warm-up)")
    ap.add_argument("--rounds", type=int, default=2, help="processes per variant, in rotated order")
    ap.add_argument("--variants", default=VARIANTS, help="NAME=VAR=VALUE,VAR=VALUE;NAME=… (see above)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    variants = parse_variants(args.variants)
    files = sorted((DATA / "pdf").glob("*.pdf")) if args.pdfs else sorted((DATA / "texts").glob("*.txt"))
    files = files[: args.limit or (None if args.pdfs else args.texts)]
    tmp = Path(tempfile.mkdtemp(prefix="cg-batch-env-"))
    names = list(variants)
    results: dict[str, Any] = {"load_start": uptime(), "variants": variants, "processes": []}
    log(f"[env] {len(files)} documents, variants {', '.join(names)}; {results['load_start']}")
    try:
        for r in range(args.rounds):
            k = r % len(names)
            for name in names[k:] + names[:k]:
                db = tmp / f"{name}-{r}.db"
                got = run_process(files, variants[name], db)
                db.unlink(missing_ok=True)
                rest = got["rows"][1:]
                got.update(variant=name, round=r)
                results["processes"].append(got)
                log(
                    f"[env] round {r} {name:<7} seed {got['hash_seed']}: warm-up "
                    f"{got['rows'][0]['thread_cpu']:.2f} CPU-s, then "
                    f"{statistics.fmean(x['thread_cpu'] for x in rest) * 1000:.0f} ms a document ({uptime()})"
                )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    results["load_end"] = uptime()
    report(results, names)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


def report(r: dict[str, Any], names: list[str]) -> None:
    procs = r["processes"]
    n = len(procs[0]["rows"]) - 1
    print(f"{n} documents after a warm-up one, per fresh process; {r['load_start']} → {r['load_end']}")
    base = {p["round"]: p for p in procs if p["variant"] == names[0]}
    for name in names:
        mine = [p for p in procs if p["variant"] == name]
        per = [statistics.fmean(x["thread_cpu"] for x in p["rows"][1:]) * 1000 for p in mine]
        sysms = [statistics.fmean(x["system"] for x in p["rows"][1:]) * 1000 for p in mine]
        faults = [statistics.fmean(x["minflt"] for x in p["rows"][1:]) for p in mine]
        warm = [p["rows"][0]["thread_cpu"] for p in mine]
        vs = ""
        if name != names[0]:
            ratios = []
            for p in mine:
                b = base.get(p["round"])
                if b:
                    mine_cpu = sum(x["thread_cpu"] for x in p["rows"][1:])
                    ratios.append(mine_cpu / sum(x["thread_cpu"] for x in b["rows"][1:]))
            vs = f"; against {names[0]} in the same round " + ", ".join(f"{x:.3f}×" for x in ratios)
        print(
            f"  {name:<7} CPU ms a document, each process: {', '.join(f'{x:.0f}' for x in per)} "
            f"(system {', '.join(f'{x:.0f}' for x in sysms)}; minor faults "
            f"{', '.join(f'{x:.0f}' for x in faults)}); "
            f"warm-up {', '.join(f'{x:.2f}' for x in warm)} CPU-s{vs}"
        )


if __name__ == "__main__":
    main()
