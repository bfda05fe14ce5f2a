"""Tally a finding audit (docs/audit_protocol.md): one folder holding, per contract, the review JSON
(`NAME.json`, from `citationgate review FILE --format json`) and the auditor's verdicts (`NAME.audit.json`),
directly or in the auditors' sub-folders that `docs/audit_prepare.py reviews` writes.

    python docs/audit_tally.py FOLDER
    python docs/audit_tally.py AFTER --paired BEFORE

Prints, per contract and in all: findings judged, each verdict, the right-or-honest share, wrong findings
shown at `standard` supervision, wrong `unacceptable` findings, and the `needs_review` share on contracts the
playbook fits. Drafting rules are left out, as the protocol allows.

`--paired BEFORE` compares two audits of the same contracts made by different auditors before and after a
change. Auditors disagree on some findings that did not change at all, and on a few hundred findings that
disagreement is as large as a wave's movement; so the paired figure keeps the before verdict for every finding
whose rule, outcome, claim and quotes are unchanged and takes the after verdict only for the findings that
changed. It also prints how often the two auditors agreed on the unchanged findings.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

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
    for audit_path in _audits(folder).values():
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


def _audits(folder: Path) -> dict[str, Path]:
    """Each contract's audit file under FOLDER, by contract name."""
    found = sorted(folder.rglob("*.audit.json"))
    return {p.name.removesuffix(".audit.json"): p for p in found}


def _identity(finding: dict[str, Any]) -> tuple[object, ...]:
    quotes = tuple(c.get("quote") for c in finding.get("citations", []))
    return (finding.get("rule"), finding.get("outcome"), finding.get("claim"), quotes)


def _verdicts(audit_path: Path) -> dict[tuple[object, ...], tuple[str, dict[str, Any]]]:
    review = json.loads(audit_path.with_name(audit_path.name.replace(".audit", "")).read_text("utf-8"))
    audit = json.loads(audit_path.read_text(encoding="utf-8"))
    by_id = {f["id"]: f for f in review["findings"]}
    out = {}
    for j in audit["judged"]:
        finding = by_id.get(j["id"])
        if finding is not None and finding.get("rule") not in DRAFTING:
            out[_identity(finding)] = (j["verdict"], finding)
    return out


def paired(after: Path, before: Path) -> None:
    total: Counter[str] = Counter()
    changed: Counter[str] = Counter()
    agree = same = wrong_standard = wrong_unacceptable = 0
    earlier = _audits(before)
    for name, audit_path in _audits(after).items():
        if name not in earlier:
            continue
        old, new = _verdicts(earlier[name]), _verdicts(audit_path)
        for key, (verdict, finding) in new.items():
            if key in old:
                same += 1
                agree += old[key][0] == verdict
                verdict = old[key][0]
            else:
                changed[verdict] += 1
            total[verdict] += 1
            if verdict == "wrong":
                wrong_standard += finding.get("supervision") == "standard"
                wrong_unacceptable += finding.get("outcome") == "unacceptable"
    n = sum(total.values())
    ok = total["right"] + total["honest_review"]
    print(
        f"paired: judged {n}, {dict(total)}, right or honest {ok / n:.1%}, "
        f"wrong at standard {wrong_standard}, wrong unacceptable {wrong_unacceptable}; "
        f"changed findings {sum(changed.values())} {dict(changed)}; "
        f"auditors agreed on {agree}/{same} unchanged findings"
    )


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 3 and args[1] == "--paired" and Path(args[0]).is_dir() and Path(args[2]).is_dir():
        paired(Path(args[0]), Path(args[2]))
    elif len(args) == 1 and Path(args[0]).is_dir():
        tally(Path(args[0]))
    else:
        sys.exit("usage: python docs/audit_tally.py FOLDER [--paired BEFORE]")
