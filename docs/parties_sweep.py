"""The review's footing over every shared text: parties read, contract type, whether *us* resolves.

    python docs/parties_sweep.py [--data ../shared/data] [--save F] [--against F] [--show short|changed|all]

For each text under `cuad/texts` and `contractnli/texts` it runs exactly what `citationgate review` runs
for the footing — `read_parties`, `classify` and `resolve_roles` (role "customer" for CUAD, "recipient" for
ContractNLI) — and prints a summary: how many texts read two or more parties, how many resolve us, and the
contract types read. `--save F` writes one JSON line per text; `--against F` compares with an earlier save
and prints every text whose party list, type or roles changed, so each change can be read (a party list
that gains a non-party is worse than one that stays short). `--show short` lists the texts that read fewer
than two parties, with their opening words, to classify why.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from playbooks.contract_type import classify
from playbooks.parties import read_parties, resolve_roles


def _row(name: str, text: str, role: str) -> dict[str, Any]:
    parties = read_parties(text)
    ctype = classify(text)
    binding = resolve_roles(text, parties, role)
    return {
        "text": name,
        "parties": [[p.defined_as, p.name] for p in parties],
        "type": ctype.type,
        "title": ctype.title,
        "resolved": binding.resolved,
        "us": [p.defined_as for p in binding.us],
        "basis": binding.basis,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--save")
    ap.add_argument("--against")
    ap.add_argument("--show", choices=("short", "changed", "all"), default="changed")
    args = ap.parse_args(argv)
    data = Path(args.data)
    rows = []
    for sub, role in (("cuad", "customer"), ("contractnli", "recipient")):
        folder = data / sub / "texts"
        if not folder.is_dir():
            print(f"Error: {folder} not found (pass --data)", file=sys.stderr)
            return 2
        for path in sorted(folder.glob("*.txt")):
            text = path.read_text(encoding="utf-8", errors="replace")
            row = _row(path.stem, text, role)
            row["head"] = " ".join(text[:300].split())
            rows.append(row)
    two = sum(len(r["parties"]) >= 2 for r in rows)
    resolved = sum(r["resolved"] for r in rows)
    print(f"texts: {len(rows)}; two or more parties read: {two}; us resolved: {resolved}")
    print("types: " + ", ".join(f"{t} {n}" for t, n in Counter(r["type"] for r in rows).most_common()))
    if args.save:
        Path(args.save).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    if args.show == "short":
        for r in rows:
            if len(r["parties"]) < 2:
                print(f"\n{r['text']} {r['parties']}\n  {r['head'][:300]}")
    if args.against:
        before = {}
        for line in Path(args.against).read_text(encoding="utf-8").splitlines():
            b = json.loads(line)
            before[b["text"]] = b
        changed = 0
        for r in rows:
            b = before.get(r["text"])
            if b is None:
                continue
            diffs = [k for k in ("parties", "type", "resolved", "us") if b[k] != r[k]]
            if not diffs:
                continue
            changed += 1
            print(f"\n{r['text']}:")
            for k in diffs:
                print(f"  {k}: {b[k]} -> {r[k]}")
            if "type" in diffs:
                print(f"  title: {r['title']!r}")
        b_two = sum(len(b["parties"]) >= 2 for b in before.values())
        b_res = sum(b["resolved"] for b in before.values())
        print(
            f"\nchanged: {changed}; two or more parties {b_two} -> {two}; us resolved {b_res} -> {resolved}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
