"""Tally a finding audit (docs/audit_protocol.md): one folder holding, per contract, the review JSON
(`NAME.json`, from `citationgate review FILE --format json`) and the auditor's verdicts (`NAME.audit.json`).

    python docs/audit_tally.py FOLDER

Prints, per contract and in all: findings judged, each verdict, the right-or-honest share, wrong findings
shown at `standard` supervision, wrong `unacceptable` findings, and the `needs_review` share on contracts the
playbook fits. Drafting rules are left out, as the protocol allows.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

DRAFTING = {
    "undefined_terms",
    "unused_definitions",
    "unused_terms",
    "dangling_references",
    "cross_references",
    "number_words",
    "placeholders",
}


def tally(folder: Path) -> None:
    total: Counter[str] = Counter()
    wrong_standard = wrong_unacceptable = own_nr = own_all = 0
    for audit_path in sorted(folder.glob("*.audit.json")):
        audit = json.loads(audit_path.read_text(encoding="utf-8"))
        review = json.loads(
            audit_path.with_name(audit_path.name.replace(".audit", "")).read_text(encoding="utf-8")
        )
        by_id = {f["id"]: f for f in review["findings"]}
        counts: Counter[str] = Counter()
        for j in audit["judged"]:
            if j.get("rule") in DRAFTING:
                continue
            counts[j["verdict"]] += 1
            finding = by_id.get(j["id"], {})
            if j["verdict"] == "wrong":
                wrong_standard += finding.get("supervision") == "standard"
                wrong_unacceptable += finding.get("outcome") == "unacceptable"
        judged = [f for f in review["findings"] if f.get("rule") not in DRAFTING]
        asking = sum(f["outcome"] == "needs_review" for f in judged)
        if review.get("fit", {}).get("fits"):
            own_nr, own_all = own_nr + asking, own_all + len(judged)
        n = sum(counts.values())
        ok = counts["right"] + counts["honest_review"]
        here = f"right or honest {ok / n:.1%}, needs_review {asking}/{len(judged)}"
        print(f"{audit['contract']}: judged {n}, {dict(counts)}, {here}")
        total += counts
    n = sum(total.values())
    ok = total["right"] + total["honest_review"]
    share = f"{own_nr}/{own_all} = {own_nr / own_all:.1%}" if own_all else "n/a"
    print(
        f"all: judged {n}, {dict(total)}, right or honest {ok / n:.1%}, wrong at standard {wrong_standard}, "
        f"wrong unacceptable {wrong_unacceptable}, needs_review share on the playbook's own type {share}"
    )


if __name__ == "__main__":
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_dir():
        sys.exit("usage: python docs/audit_tally.py FOLDER")
    tally(Path(sys.argv[1]))
