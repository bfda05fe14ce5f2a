"""Where the NDA playbook's outcome goes against ContractNLI's own label: for each hypothesis, the label
(Entailment, Contradiction, NotMentioned) of each of the 147 annotated NDAs against the outcome of the rule
`citationgate eval nda` maps to it. A row like "nda-4 Contradiction: standard 9" (use is *not* limited to the
purpose, yet the review says it is) points at a class of misreading to look for — never at one contract.

    python docs/nda_label_direction.py            # the table
    python docs/nda_label_direction.py nda-7 Entailment missing,needs_review   # those NDAs' ids

Reads `../shared/data/contractnli`. Takes about two minutes (one review per NDA).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from citationgate.evaluation.data import nli_records
from citationgate.evaluation.nda_eval import NLI_MAP
from citationgate.review import review
from ingest.load import load_document
from playbooks import load_playbook

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
CHOICES = ("Entailment", "Contradiction", "NotMentioned")


def outcomes() -> list[tuple[str, dict[str, str], dict[str, str]]]:
    """(NDA id, hypothesis → label, rule → outcome) for every annotated NDA."""
    playbook = load_playbook("nda-recipient")
    out = []
    for rec in nli_records(DATA):
        result = review(load_document(rec.text_path), playbook)
        got = {f.proposal.rule: str(f.proposal.details.get("outcome")) for f in result.findings}
        labels = {h: a["choice"] for h, a in rec.annotations.items()}
        out.append((rec.id, labels, got))
    return out


def main(argv: list[str]) -> None:
    rows = outcomes()
    if len(argv) >= 3:
        hyp, choice, wanted = argv[0], argv[1], set(argv[2].split(","))
        rule = NLI_MAP[hyp][0].rule
        for nda, labels, got in rows:
            if labels.get(hyp) == choice and got.get(rule, "absent") in wanted:
                print(nda, got.get(rule, "absent"))
        return
    for hyp, whens in NLI_MAP.items():
        rule = whens[0].rule
        table: Counter[tuple[str, str]] = Counter()
        for _, labels, got in rows:
            if hyp in labels:
                table[(labels[hyp], got.get(rule, "absent"))] += 1
        print(f"{hyp} ({rule})")
        for choice in CHOICES:
            cells = {o: n for (c, o), n in sorted(table.items()) if c == choice}
            print(f"    {choice:<14} {json.dumps(cells)}")


if __name__ == "__main__":
    main(sys.argv[1:])
