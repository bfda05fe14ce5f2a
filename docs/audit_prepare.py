"""Prepare a finding audit (docs/audit_protocol.md): draw a held-out set, then write each auditor's folder.

    python docs/audit_prepare.py draw --seed N [--cuad 6] [--nda 2] [--data ../shared/data]
    python docs/audit_prepare.py reviews OUT ID... [--per 2] [--data ../shared/data]

`draw` picks shared texts of 12–45 KB that no earlier audit used (`docs/audit_sets.json`), that are not in the
facts set and not among the first CUAD texts `eval clauses` reports on, so that no engineer has read their
audits, facts or clause rows. The same seed gives the same set.

`reviews` runs `citationgate review ID.txt --format json --no-store` (msa-customer for CUAD, nda-recipient
for ContractNLI) exactly as a user would, and writes folders `OUT/r1`, `OUT/r2`, … of `--per` contracts
each: the contract text, its review (`ID.json`), and `PROTOCOL.md`. An auditor with a fresh context gets one
folder and writes `ID.audit.json` beside the review; `python docs/audit_tally.py OUT` then reads them all.
`OUT/COMMIT` records the commit the reviews were made at.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
SMALL, LARGE = 12_000, 45_000


def _used() -> tuple[set[str], int]:
    sets = json.loads((DOCS / "audit_sets.json").read_text(encoding="utf-8"))
    return {i for s in sets["sets"] for i in s["ids"]}, int(sets["first_cuad_excluded"])


def _texts(data: Path, corpus: str) -> list[Path]:
    return sorted((data / corpus / "texts").glob("*.txt"))


def draw(data: Path, seed: int, n_cuad: int, n_nda: int) -> list[str]:
    used, first = _used()
    facts = {p.stem for p in (data / "facts").glob("*.json")}
    cuad = _texts(data, "cuad")
    skip = {p.stem for p in cuad[:first]}

    def fresh(paths: list[Path]) -> list[str]:
        return [
            p.stem for p in paths if p.stem not in used | facts | skip and SMALL <= p.stat().st_size <= LARGE
        ]

    rng = random.Random(seed)  # noqa: S311 — a reproducible draw, not a secret
    return rng.sample(fresh(cuad), n_cuad) + rng.sample(fresh(_texts(data, "contractnli")), n_nda)


def reviews(data: Path, out: Path, ids: list[str], per: int) -> None:
    command = Path(sys.executable).with_name("citationgate")
    git = ["git", "rev-parse", "--short", "HEAD"]
    done = subprocess.run(git, capture_output=True, text=True, cwd=DOCS, check=False)  # noqa: S603
    commit = done.stdout.strip()
    out.mkdir(parents=True, exist_ok=True)
    (out / "COMMIT").write_text(commit + "\n", encoding="utf-8")
    for k, start in enumerate(range(0, len(ids), per), 1):
        folder = out / f"r{k}"
        folder.mkdir(exist_ok=True)
        shutil.copy(DOCS / "audit_protocol.md", folder / "PROTOCOL.md")
        for name in ids[start : start + per]:
            corpus = "contractnli" if name.startswith("cnli_") else "cuad"
            text = folder / f"{name}.txt"
            text.write_text((data / corpus / "texts" / f"{name}.txt").read_text(encoding="utf-8"), "utf-8")
            playbook = "nda-recipient" if corpus == "contractnli" else "msa-customer"
            done = subprocess.run(  # noqa: S603 — our own CLI, on our own copies
                [str(command), "review", str(text), "--playbook", playbook, "--format", "json", "--no-store"],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode not in (0, 1):
                raise SystemExit(f"Error: review of {name} failed: {done.stderr.strip()}")
            (folder / f"{name}.json").write_text(done.stdout, encoding="utf-8")
            print(f"{folder.name}: {name}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DOCS.parent.parent / "shared" / "data")
    sub = parser.add_subparsers(dest="verb", required=True)
    d = sub.add_parser("draw")
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--cuad", type=int, default=6)
    d.add_argument("--nda", type=int, default=2)
    r = sub.add_parser("reviews")
    r.add_argument("out", type=Path)
    r.add_argument("ids", nargs="+")
    r.add_argument("--per", type=int, default=2)
    args = parser.parse_args()
    if not (args.data / "cuad" / "texts").is_dir():
        raise SystemExit(f"Error: no shared data at {args.data} (pass --data)")
    if args.verb == "draw":
        print(" ".join(draw(args.data, args.seed, args.cuad, args.nda)))
    else:
        reviews(args.data, args.out, args.ids, args.per)


if __name__ == "__main__":
    main()
