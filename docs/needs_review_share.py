"""How often the review hides behind `needs_review`: the outcome counts over a fixed random sample of
shared CUAD contracts reviewed with msa-customer, counted separately for contracts the playbook fits (its
own type), and how many resolve who is us. The issue's bar: at most one finding in five `needs_review` on
the playbook's own type.

    python docs/needs_review_share.py [N]      # N contracts (default 60), shuffled with seed 7

Drafting rules are left out (they are not judgements). Reads `../shared/data/cuad/texts`.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

from citationgate.review import review
from ingest.load import load_document
from playbooks import load_playbook

DRAFTING = {
    "undefined_terms",
    "unused_definitions",
    "unused_terms",
    "dangling_references",
    "number_words",
    "placeholders",
    "cross_references",
}
TEXTS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "cuad" / "texts"


def main(n: int) -> dict[str, object]:
    files = sorted(TEXTS.glob("*.txt"))
    if not files:
        raise SystemExit(f"Error: no CUAD texts under {TEXTS}")
    random.seed(7)
    random.shuffle(files)
    playbook = load_playbook("msa-customer")
    fit: Counter[str] = Counter()
    every: Counter[str] = Counter()
    resolved: Counter[bool] = Counter()
    for path in files[:n]:
        result = review(load_document(path), playbook)
        fits = bool(result.fit.get("fits")) if result.fit else True
        resolved[bool(result.roles.resolved) if result.roles else False] += 1
        for finding in result.findings:
            if finding.proposal.rule in DRAFTING:
                continue
            outcome = str(finding.proposal.details.get("outcome"))
            every[outcome] += 1
            if fits:
                fit[outcome] += 1

    def share(c: Counter[str]) -> str:
        total = sum(c.values())
        return f"{c['needs_review']}/{total} = {c['needs_review'] / max(total, 1):.1%}"

    return {
        "contracts": min(n, len(files)),
        "needs_review_fit": share(fit),
        "needs_review_all": share(every),
        "roles_resolved": resolved[True],
        "fit_counts": dict(fit),
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 60), indent=2))
