"""Why the fused review's clause presence is what it is: rules, locator and fused decisions side by side.

    python docs/locator_breakdown.py --cv-dir DIR [--skip N] [--limit M] [--data ../shared/data] [--save F]

For each CUAD contract of the range (each scored by the fold model of `citationgate train locator --cv-dir
DIR` that never saw it) and each of the 25 clause types `eval clauses` maps, it runs the review with the
rules alone and fused, and the locator alone, exactly as `citationgate eval clauses` decides presence, and
prints (Markdown, for docs/locator.md):

1. where the three disagree and whom the experts side with (rules present / locator not, and the reverse);
2. every wrong fused decision by its cause: no finding because the rule does not apply to the contract's
   type (`applies_to`), present but unconfirmed (a weakly grounded finding the locator reads nowhere: not
   counted present), nothing located (the locator seeing it or not), located but the mapped value not read,
   reported missing; and present where the experts say absent: located by the rules with the locator
   disagreeing or agreeing, a hint-only "may be one" finding, or the locator's own pick.

`--save F` writes the per-contract rows as JSON lines. Slow (two reviews per contract): keep to a range.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from citationgate.evaluation.clause_eval import (
    CLAUSE_CATEGORIES,
    CUAD_MAP,
    _absent,
    _fold_locators,
    _located,
    _present,
)
from citationgate.evaluation.data import cuad_records
from citationgate.model import Evidence
from citationgate.review import review
from ingest.load import load_document
from playbooks import load_playbook
from playbooks.locator import categories_of

CAUSES = (
    "FN rule not for this type",
    "FN present, unconfirmed",
    "FN nothing located, locator sees it",
    "FN nothing located, locator does not",
    "FN located, value not read",
    "FN reported missing",
    "FP rules, locator disagrees",
    "FP rules, locator agrees",
    "FP hint only",
    "FP locator's pick",
)


def _rows(data: Path, cv_dir: Path, skip: int, limit: int) -> list[dict[str, Any]]:
    pb = load_playbook("msa-customer")
    rule_category = categories_of(pb)
    typed = {c.id for c in pb.clauses if c.applies_to}
    fold_of, models = _fold_locators(cv_dir)
    rows: list[dict[str, Any]] = []
    for n, rec in enumerate(cuad_records(data, limit=skip + limit)):
        if n < skip:
            continue
        locator = models[fold_of[rec.id]]
        doc = load_document(rec.text_path)
        scan = locator.scan(doc)
        found = {
            m: list(review(doc, pb, locator=locator if m == "fused" else False).findings)
            for m in ("rules", "fused")
        }
        for cat in CLAUSE_CATEGORIES:
            labels = rec.categories.get(cat)
            if labels is None:
                continue
            whens = CUAD_MAP[cat]
            rules = {w.rule for w in whens}
            row: dict[str, Any] = {"id": rec.id, "cat": cat, "expert": not labels["is_impossible"]}
            for mode, fs in found.items():
                present = any(_present(fs, w) is not None for w in whens)
                mine = [f for f in fs if f.proposal.rule in rules]
                row[mode] = present
                if mode == "fused":
                    row["unconfirmed"] = not present and any(
                        _present(fs, w, unconfirmed=True) is not None for w in whens
                    )
                    row["findings"] = len(mine)
                    row["missing"] = not present and _absent(fs, rules)
                    row["via"] = sorted(
                        {
                            str((f.proposal.details.get("location") or {}).get("via"))
                            for f in mine
                            if f.evidence is Evidence.QUOTE
                        }
                    )
                    row["typed"] = bool(rules & typed)
            row["locator"] = _located(scan, cat, {rule_category.get(w.rule) for w in whens})[0]
            rows.append(row)
        print(f"{n + 1 - skip}/{limit} {rec.id}", file=sys.stderr, flush=True)
    return rows


def _cause(r: dict[str, Any]) -> str | None:
    if r["expert"] and not r["fused"]:
        if r.get("unconfirmed"):
            return CAUSES[1]
        if not r["findings"]:
            if r["typed"]:
                return CAUSES[0]
            return CAUSES[2] if r["locator"] else CAUSES[3]
        return CAUSES[5] if r["missing"] else CAUSES[4]
    if r["fused"] and not r["expert"]:
        via = set(r["via"])
        if "locator" in via:
            return CAUSES[9]
        if via & {"pattern", "heading"}:
            return CAUSES[7] if r["locator"] else CAUSES[6]
        return CAUSES[8]
    return None


def _f1(c: Counter[str], m: str) -> float | None:
    tp, fp, fn = c[f"{m} tp"], c[f"{m} fp"], c[f"{m} fn"]
    if not tp + fp or not tp + fn:
        return None
    p, r = tp / (tp + fp), tp / (tp + fn)
    return 2 * p * r / (p + r) if p + r else 0.0


def report(rows: list[dict[str, Any]]) -> str:
    per: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        for key in (r["cat"], "all"):
            c = per[key]
            e = r["expert"]
            for m in ("rules", "locator", "fused"):
                v = r[m]
                c[f"{m} {'tp' if v and e else 'fp' if v else 'fn' if e else 'tn'}"] += 1
            if r["rules"] != r["locator"]:
                side = "rules+locator-" if r["rules"] else "rules-locator+"
                c[f"{side} {'rules' if r['rules'] == e else 'locator'} right"] += 1
                c[f"{side} fused {'present' if r['fused'] else 'not'}"] += 1
            if (cause := _cause(r)) is not None:
                c[cause] += 1
    ids = len({r["id"] for r in rows})
    out = [f"{ids} contracts, {len(rows)} (contract, clause type) decisions.", ""]
    out += [
        "| clause type | F1 rules · locator · fused | rules present, locator not: experts side with rules · "
        "locator (fused present) | locator present, rules not: rules · locator (fused present) |",
        "|---|---|---|---|",
    ]
    for cat in [*CLAUSE_CATEGORIES, "all"]:
        c = per[cat]
        f1s = " · ".join(
            "–" if (f := _f1(c, m)) is None else f"{100 * f:.0f}" for m in ("rules", "locator", "fused")
        )
        a, b = (
            f"{c[f'{s} rules right']} · {c[f'{s} locator right']} ({c[f'{s} fused present']})"
            for s in ("rules+locator-", "rules-locator+")
        )
        out.append(f"| {'**all (pooled)**' if cat == 'all' else cat} | {f1s} | {a} | {b} |")
    out += ["", "| clause type | " + " | ".join(CAUSES) + " |", "|---|" + "---:|" * len(CAUSES)]
    for cat in [*CLAUSE_CATEGORIES, "all"]:
        c = per[cat]
        out.append(
            f"| {'**all**' if cat == 'all' else cat} | " + " | ".join(str(c[k] or "") for k in CAUSES) + " |"
        )
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cv-dir", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--limit", type=int, default=80)
    ap.add_argument("--save", type=Path)
    ap.add_argument("--rows", type=Path, help="Report rows saved earlier with --save instead of running.")
    a = ap.parse_args()
    if a.rows:
        rows = [json.loads(line) for line in a.rows.read_text(encoding="utf-8").splitlines() if line]
    else:
        rows = _rows(a.data, a.cv_dir, a.skip, a.limit)
    if a.save:
        a.save.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    print(report(rows))


if __name__ == "__main__":
    main()
