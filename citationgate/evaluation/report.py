"""Running the chosen measurements and rendering their results (terminal table, JSON, Markdown)."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from citationgate.escape import terminal
from citationgate.evaluation.clause_eval import CLAUSE_CATEGORIES
from citationgate.evaluation.data import cuad_records, nli_records

Progress = Callable[[str, int], AbstractContextManager[Callable[[int], None]]]


def _commit() -> str:
    try:
        out = subprocess.run(  # a fixed git invocation, no user input
            ["git", "rev-parse", "--short", "HEAD"],  # noqa: S607
            capture_output=True,
            text=True,
            check=False,
            cwd=Path(__file__).resolve().parent,
        )
    except OSError:
        return "unknown"
    return out.stdout.strip() or "unknown"


def _count(it: Iterator[Any]) -> int:
    return sum(1 for _ in it)


def run_evaluation(
    data_dir: Path,
    *,
    parts: tuple[str, ...],
    limit: int | None,
    progress: Progress,
    cv_dir: Path | None = None,
    skip: int = 0,
) -> dict[str, Any]:
    """Run each requested part over `data_dir`; returns headline figures, details and a text table."""
    headline: dict[str, Any] = {
        "data": str(data_dir),
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "commit": _commit(),
    }
    details: dict[str, Any] = {}
    n_cuad = _count(cuad_records(data_dir, limit=limit)) if {"gate", "clauses", "speed"} & set(parts) else 0
    if "gate" in parts:
        from citationgate.evaluation.gate_eval import evaluate_gate

        with progress("gate on real text", n_cuad) as tick:
            g = evaluate_gate(data_dir, limit=limit, progress=tick).to_dict()
        details["gate"] = g
        headline["gate"] = {
            "location_rate": g["location_rate"],
            "false_verifications": g["false_verifications"],
            "spans": g["spans"],
            "spans_under_minimum": g["spans_under_minimum"],
            "mutations_tried": sum(g["mutations_tried"].values()),
        }
    if "pdf" in parts:
        from citationgate.evaluation.pdf_eval import evaluate_pdfs

        n_pdf = sum(1 for r in cuad_records(data_dir) if r.pdf_path is not None)
        with progress("real PDFs", min(n_pdf, limit or n_pdf)) as tick:
            p = evaluate_pdfs(data_dir, limit=limit, progress=tick).to_dict()
        details["pdf"] = p
        headline["pdf"] = {
            "location_rate": p["location_rate"],
            "files": p["files"],
            "files_at_goal": p["files_at_goal"],
            "withheld": len(p["withheld"]),
            "typeset_files": (p["typeset"] or {}).get("files", 0),
            "typeset_clean_withheld": len((p["typeset"] or {}).get("clean_withheld", [])),
            "typeset_defects": (p["typeset"] or {}).get("defects", 0),
            "typeset_defects_missed": len((p["typeset"] or {}).get("defects_missed", [])),
        }
    if "clauses" in parts or "speed" in parts:
        from citationgate.evaluation.clause_eval import MODES, evaluate_clauses

        n_clauses = _count(cuad_records(data_dir, limit=None if limit is None else skip + limit)) - skip
        with progress("clause presence (CUAD)", max(0, n_clauses)) as tick:
            modes = MODES if "clauses" in parts else ("fused",)
            c = evaluate_clauses(data_dir, limit=limit, skip=skip, progress=tick, modes=modes, cv_dir=cv_dir)
        details["clauses"] = c
        if "clauses" in parts:
            headline["categories"] = c["categories"]
            headline["clauses"] = c["overall"] | {"macro": c["macro"]}
        if "speed" in parts:
            headline["speed"] = c["speed"]
    if "facts" in parts:
        from citationgate.evaluation.facts_eval import evaluate_facts

        n_facts = len(list((data_dir / "facts").glob("*.json")))
        with progress("contract facts", min(n_facts, limit or n_facts)) as tick:
            f = evaluate_facts(data_dir, limit=limit, progress=tick)
        details["facts"] = f
        headline["facts"] = {
            k: f[k] for k in ("accuracy", "right", "total", "contracts", "per_fact", "misses")
        }
    if "answers" in parts:
        from citationgate.evaluation.cuad_answers_eval import evaluate_cuad_answers

        n_all = _count(cuad_records(data_dir, limit=limit))
        with progress("CUAD answers", n_all) as tick:
            a = evaluate_cuad_answers(data_dir, limit=limit, progress=tick)
        details["answers"] = a
        headline["answers"] = a["categories"]
    if "nda" in parts:
        from citationgate.evaluation.nda_eval import evaluate_ndas

        n_nli = _count(nli_records(data_dir, limit=limit))
        with progress("NDAs (ContractNLI)", n_nli) as tick:
            n = evaluate_ndas(data_dir, limit=limit, progress=tick)
        details["nda"] = n
        headline["nda"] = n["headline"]
    return {"headline": headline, "details": details, "table": render_text(headline, details)}


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _typeset_lines(t: dict[str, Any]) -> Iterator[str]:
    """The typeset PDFs' part of the PDF section (#14): clean files withheld, planted defects missed."""
    if "skipped" in t:
        yield f"- typeset PDFs: skipped ({t['skipped']})"
        return
    if not t:
        return
    yield (
        f"- typeset PDFs (two columns, ligatures, hyphenation, running header and footer; real contract "
        f"text): {len(t['clean_withheld'])} of {t['files']} clean files withheld (goal 0); "
        f"{len(t['defects_missed'])} of {t['defects']} planted defects not withheld (goal 0)"
    )
    for f in t["clean_withheld"]:
        yield f"  - withheld {f['id']}: {'; '.join(f['reasons'])}"
    for d in t["defects_missed"]:
        yield f"  - not withheld {d['id']} with {d['defect']} ({d['what']})"


def _table(
    header: Sequence[str], rows: Sequence[Sequence[str]], *, numeric: Sequence[bool], markdown: bool
) -> Iterator[str]:
    """A table with its header: Markdown for the published page, aligned columns for the terminal."""
    if markdown:
        yield "| " + " | ".join(header) + " |"
        yield "|" + "|".join("---:" if n else "---" for n in numeric) + "|"
        for row in rows:
            yield "| " + " | ".join(row) + " |"
        return
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        out = (c.rjust(w) if n else c.ljust(w) for c, w, n in zip(cells, widths, numeric, strict=True))
        return "  ".join(out).rstrip()

    yield line(header)
    yield line(["-" * w for w in widths])
    for row in rows:
        yield line(row)


def render_text(headline: dict[str, Any], details: dict[str, Any]) -> str:
    return "\n".join(_lines(headline, details, markdown=False))


def _lines(headline: dict[str, Any], details: dict[str, Any], *, markdown: bool) -> Iterator[str]:
    h = "## " if markdown else ""
    if "gate" in headline:
        g = details["gate"]
        counted = g["spans"] - g["spans_under_minimum"]
        yield f"{h}Gate on real text (CUAD expert spans)"
        yield ""
        yield (
            f"- expert spans located at an annotated offset after whitespace reflow and quote swap: "
            f"{g['located']} of {counted} = {_pct(g['location_rate'])} (goal 100 %)"
        )
        yield f"- spans under the 10-character minimum (refused by rule): {g['spans_under_minimum']}"
        yield (
            f"- false verifications of meaning-changing mutations: {g['false_verifications']} of "
            f"{sum(g['mutations_tried'].values())} tried (goal 0)"
        )
        for kind, n in g["false_verifications_by_mutation"].items():
            yield f"  - {kind}: {n} of {g['mutations_tried'].get(kind, 0)}"
        yield ""
    if "pdf" in headline:
        p = details["pdf"]
        yield f"{h}Real PDFs (CUAD originals)"
        yield ""
        yield (
            f"- expert spans located in the PDFs' canonical text: {p['located']} of {p['spans']} = "
            f"{_pct(p['location_rate'])} (goal 99.5 %)"
        )
        yield f"- files at the goal: {p['files_at_goal']} of {p['files']}"
        for w in p["withheld"]:
            yield f"- withheld {w['id']}: {'; '.join(w['reasons'])}"
        for e in p["errors"]:
            yield f"- refused {e['id']}: {e['error']}"
        yield from _typeset_lines(p["typeset"] or {})
        yield ""
        if markdown:
            yield "| file | pages | status | fidelity | spans | located | rate |"
            yield "|---|---:|---|---:|---:|---:|---:|"
            for f in p["per_file"]:
                yield (
                    f"| {f['id']} | {f['pages']} | {f['status']} | {_pct(f['fidelity'])} | {f['spans']} | "
                    f"{f['located']} | {_pct(f['rate'])} |"
                )
            yield ""
    if "categories" in headline:
        c = details["clauses"]
        yield f"{h}Clause presence and absence (CUAD, built-in playbook)"
        yield ""
        o = c["overall"]
        yield (
            f"- contracts: {o['contracts']}; micro precision {_pct(o['precision'])}, "
            f"recall {_pct(o['recall'])}, "
            f"F1 {_pct(o['f1'])}, false-absence rate {_pct(o['false_absence_rate'])}, "
            f"span overlap {_pct(o['span_overlap'])}"
        )
        yield ""
        yield from _table(
            (
                "category",
                "playbook rules",
                "present (experts)",
                "precision",
                "recall",
                "F1",
                "false absence",
                "span overlap",
            ),
            [
                (
                    name,
                    ", ".join(m["rules"]),
                    str(m["expert_present"]),
                    _pct(m["precision"]),
                    _pct(m["recall"]),
                    _pct(m["f1"]),
                    _pct(m["false_absence_rate"]),
                    _pct(m["span_overlap"]),
                )
                for name, m in c["categories"].items()
            ],
            numeric=(False, False, True, True, True, True, True, True),
            markdown=markdown,
        )
        yield ""
        yield from _mode_lines(c, markdown=markdown)
    if "facts" in headline:
        f = details["facts"]
        yield f"{h}What the review concludes (contract facts, labelled by reading each contract)"
        yield ""
        yield (
            f"- {f['contracts']} contracts: {f['right']} of {f['total']} certain facts read right = "
            f"{_pct(f['accuracy'])} (goal 95 %; a fact left undecided counts as not read)"
        )
        yield ""
        yield from _table(
            ("fact", "right", "of", "accuracy"),
            [
                (name, str(m["right"]), str(m["total"]), _pct(m["accuracy"]))
                for name, m in f["per_fact"].items()
            ],
            numeric=(False, True, True, True),
            markdown=markdown,
        )
        yield ""
    if "answers" in headline:
        yield f"{h}Values against CUAD's normalised answers (all shared CUAD contracts with an answer)"
        yield ""
        yield "- a value the review did not read counts as wrong; answers in a form not read are unscored"
        yield ""
        if markdown:
            yield "| category | right | scored | unscored | accuracy |"
            yield "|---|---:|---:|---:|---:|"
        for name, m in headline["answers"].items():
            arow = (name, str(m["right"]), str(m["scored"]), str(m["unscored"]), _pct(m["accuracy"]))
            yield ("| " + " | ".join(arow) + " |") if markdown else "  ".join(arow)
        yield ""
    if "speed" in headline:
        s = headline["speed"]
        yield f"{h}Speed"
        yield ""
        yield (
            f"- {s['contracts']} CUAD contracts reviewed (ingest + playbook + gate) in {s['seconds']:.1f} s: "
            f"{s['contracts_per_second']:.1f} contracts/s"
        )
        yield ""
    if "nda" in headline:
        n = details["nda"]
        yield f"{h}NDAs (ContractNLI)"
        yield ""
        yield from _table(
            (
                "hypothesis",
                "playbook rule",
                "mentioned (experts)",
                "accuracy (mentioned vs not)",
                "precision",
                "recall",
                "evidence overlap",
            ),
            [
                (
                    f"{hyp} {m['short']}",
                    m["rule"],
                    str(m["mentioned"]),
                    _pct(m["accuracy"]),
                    _pct(m["precision"]),
                    _pct(m["recall"]),
                    _pct(m["evidence_overlap"]),
                )
                for hyp, m in n["hypotheses"].items()
            ],
            numeric=(False, False, True, True, True, True, True),
            markdown=markdown,
        )
        yield ""


def _mode_lines(c: dict[str, Any], *, markdown: bool) -> Iterator[str]:
    """Rules alone, locator alone and fused, side by side (F1 · precision · recall · cited overlap)."""
    modes = c.get("modes") or {}
    if len(modes) < 2:
        return
    loc = c.get("locator") or {}
    how = (
        "each contract scored by the cross-validation fold model that did not train on it"
        if not loc.get("in_sample")
        else "the shipped locator, which trained on these contracts (in-sample: optimistic)"
    )
    yield f"Rules alone, locator alone and fused (locator `{loc.get('version')}`; {how}):"
    yield ""
    for mode, m in modes.items():
        mac = m["macro"]
        yield (
            f"- {mode}: macro over the {len(CLAUSE_CATEGORIES)} clause types F1 {_pct(mac['f1'])}, "
            f"precision {_pct(mac['precision'])}, recall {_pct(mac['recall'])}, "
            f"cited overlap {_pct(mac['cited_overlap'])}"
        )
    where = c.get("where_asked")
    if where:
        mac, n = where["macro"], where["not_asked"]
        yield (
            f"- fused, where the playbook asks (leaving out {n['decisions']} decisions whose rule does not "
            f"apply to the contract's type, {n['expert_present']} of them marked by the experts): macro F1 "
            f"{_pct(mac['f1'])}, precision {_pct(mac['precision'])}, recall {_pct(mac['recall'])}"
        )
    yield ""
    names = list(modes)
    if markdown:
        yield "| category | " + " | ".join(f"{n} F1 · P · R · cited" for n in names) + " |"
        yield "|---|" + "---:|" * len(names)
    for category in next(iter(modes.values()))["categories"]:
        cells = []
        for n in names:
            m = modes[n]["categories"][category]
            cells.append(
                f"{_pct(m['f1'])} · {_pct(m['precision'])} · {_pct(m['recall'])} · {_pct(m['cited_overlap'])}"
            )
        row = (category, *cells)
        yield ("| " + " | ".join(row) + " |") if markdown else "  ".join(row)
    yield ""


_TITLE = "# Evaluation on real contracts"
_OLD_PROVENANCE = re.compile(
    r"^Date (?P<date>.+), commit `(?P<commit>[^`]+)`, data `(?P<data>[^`]+)`\.$", re.M
)


def write_markdown(results: dict[str, Any], out: Path) -> None:
    """Write the Markdown results to `out`. When `out` already holds results, only the sections of the parts
    measured now are replaced (`citationgate eval clauses --out docs/evaluation.md` leaves the gate, PDF and
    NDA sections as they were); every section says when, at which commit and on which data it was measured."""
    headline, details = results["headline"], results["details"]
    data = Path(headline["data"]).name
    measured = f"Measured {headline['date']} at commit `{headline['commit']}`, data `{data}/`."
    new = _sections(list(_lines(headline, details, markdown=True)), measured)
    old = _sections_of(out.read_text(encoding="utf-8")) if out.is_file() else []
    merged = [(t, new.pop(t) if t in new else body) for t, body in old]
    merged += list(new.items())
    lines = [
        _TITLE,
        "",
        "Generated by `citationgate eval --out docs/evaluation.md` — do not edit by hand. A run of some",
        "parts (`citationgate eval clauses --out docs/evaluation.md`) replaces only their sections; each",
        "section says when it was measured.",
        "",
        "Data: CUAD v1, © The Atticus Project, Inc., CC BY 4.0; "
        "ContractNLI, © Hitachi America, Ltd., CC BY 4.0.",
        "",
    ]
    for _, body in merged:
        lines += [*body, ""]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(terminal("\n".join(lines).rstrip() + "\n"), encoding="utf-8")  # as stdout is escaped


def _sections(lines: Sequence[str], measured: str) -> dict[str, list[str]]:
    """The rendered lines cut at their `## ` titles, each section with `measured` under its title."""
    out: dict[str, list[str]] = {}
    title: str | None = None
    for line in lines:
        if line.startswith("## "):
            title = line
            out[title] = [line, "", measured]
        elif title is not None:
            out[title].append(line)
    return {t: _trimmed(body) for t, body in out.items()}


def _sections_of(text: str) -> list[tuple[str, list[str]]]:
    """The sections of a results file written before, in their order; a section without its own
    "Measured …" line (a file written when one date stood for the whole file) gets the file's."""
    m = _OLD_PROVENANCE.search(text.split("\n## ", 1)[0])
    fallback = f"Measured {m['date']} at commit `{m['commit']}`, data `{m['data']}`." if m else None
    out: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("## "):
            out.append((line, [line]))
        elif out:
            out[-1][1].append(line)
    for _, body in out:
        rest = [x for x in body[1:] if x.strip()]
        if fallback and not (rest and rest[0].startswith("Measured ")):
            body[1:1] = ["", fallback]
    return [(t, _trimmed(b)) for t, b in out]


def _trimmed(body: list[str]) -> list[str]:
    while body and not body[-1].strip():
        body.pop()
    return body
