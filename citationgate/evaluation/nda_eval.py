"""NDAs on ContractNLI: is each hypothesis's subject mentioned, and does our quote sit on the evidence?

ContractNLI labels each NDA × hypothesis as Entailment, Contradiction or NotMentioned, with evidence
spans. "Mentioned" is Entailment or Contradiction. We say mentioned when the NDA playbook's mapped rule
surfaced with a verified quote. Accuracy is of mentioned vs not mentioned; precision/recall are of
"mentioned"; evidence overlap is the share of our quotes that overlap an evidence span.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from citationgate.evaluation.clause_eval import When, _present
from citationgate.evaluation.data import nli_records
from citationgate.review import review
from ingest.load import load_document
from playbooks import load_playbook

# ContractNLI hypothesis → the NDA playbook rules that speak to it. Where the hypothesis is narrower
# than the clause, an extracted field says which clauses count: a compelled-disclosure carve-out
# mentions nda-8 only when it asks for notice (or a protective order); a return clause mentions nda-16
# only when it is triggered by the end of the agreement or the deal (a return "on request" alone is
# not); a confidentiality term mentions nda-19 only when it runs after termination. nda-20 (retention
# after return) is its own clause: a plain return clause is not evidence of it.
NLI_MAP: Mapping[str, Sequence[When]] = {
    "nda-1": (When(rule="marking"),),
    "nda-2": (When(rule="ci_definition"),),
    "nda-3": (When(rule="oral_information"),),
    "nda-4": (When(rule="limited_use"),),
    "nda-5": (When(rule="sharing_employees"),),
    "nda-7": (When(rule="sharing_third_parties"),),
    "nda-8": (
        When(rule="compelled_disclosure", field="notice"),
        When(rule="compelled_disclosure", field="cooperate"),
    ),
    "nda-10": (When(rule="agreement_confidential"),),
    "nda-11": (When(rule="reverse_engineering"),),
    "nda-12": (When(rule="independent_development"),),
    "nda-13": (When(rule="third_party_source"),),
    "nda-15": (When(rule="no_licence"),),
    "nda-16": (When(rule="return_or_destroy", field="on_termination"),),
    "nda-17": (When(rule="copies"),),
    "nda-18": (When(rule="non_solicitation"),),
    "nda-19": (When(rule="survival"), When(rule="confidentiality_term", field="after_end")),
    "nda-20": (When(rule="retained_copies"),),
}


def evaluate_ndas(
    data_dir: Path,
    *,
    playbook_ref: str = "nda-recipient",
    mapping: Mapping[str, Sequence[When]] | None = None,
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    mapping = mapping if mapping is not None else NLI_MAP
    playbook = load_playbook(playbook_ref)
    hyps = json.loads((data_dir / "contractnli" / "hypotheses.json").read_text(encoding="utf-8"))
    c = {h: {"tp": 0, "fp": 0, "fn": 0, "tn": 0, "ours": 0, "overlap": 0} for h in mapping}
    errors: list[dict[str, str]] = []
    n = 0
    for rec in nli_records(data_dir, limit=limit):
        try:
            result = review(load_document(rec.text_path), playbook)
        except Exception as exc:  # an evaluation reports every failure and goes on
            errors.append({"id": rec.id, "error": f"{type(exc).__name__}: {exc}"})
            continue
        n += 1
        for hyp, whens in mapping.items():
            ann = rec.annotations.get(hyp)
            if ann is None:
                continue
            mentioned = ann["choice"] in ("Entailment", "Contradiction")
            evidence = [(e["start"], e["end"]) for e in ann.get("evidence", ())]
            ours: list[tuple[int, int]] = []
            said = False
            for w in whens:
                got = _present(result.findings, w)
                if got is not None:
                    said = True
                    ours.extend(got)
            k = ("tp" if mentioned else "fp") if said else ("fn" if mentioned else "tn")
            c[hyp][k] += 1
            for q in ours:
                c[hyp]["ours"] += 1
                c[hyp]["overlap"] += int(any(min(q[1], e[1]) > max(q[0], e[0]) for e in evidence))
        if progress:
            progress(1)
    out: dict[str, Any] = {}
    for hyp, m in c.items():
        total = m["tp"] + m["fp"] + m["fn"] + m["tn"]
        out[hyp] = {
            "short": hyps.get(hyp, {}).get("short_description", ""),
            "rule": ", ".join(sorted({w.rule for w in mapping[hyp]})),
            "mentioned": m["tp"] + m["fn"],
            "accuracy": (m["tp"] + m["tn"]) / total if total else None,
            "precision": m["tp"] / (m["tp"] + m["fp"]) if m["tp"] + m["fp"] else None,
            "recall": m["tp"] / (m["tp"] + m["fn"]) if m["tp"] + m["fn"] else None,
            "evidence_overlap": m["overlap"] / m["ours"] if m["ours"] else None,
        }
    accs = [v["accuracy"] for v in out.values() if v["accuracy"] is not None]
    return {
        "hypotheses": out,
        "errors": errors[:20],
        "headline": {
            "ndas": n,
            "mean_accuracy": sum(accs) / len(accs) if accs else None,
            "hypotheses": {
                h: {k: v[k] for k in ("accuracy", "precision", "recall", "evidence_overlap")}
                for h, v in out.items()
            },
        },
    }
