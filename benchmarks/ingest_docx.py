"""DOCX ingest speed and completeness: the full `load_document` against python-docx's paragraph join.

Builds a large, realistic numbered contract in a temporary directory (about 80 pages: 24 articles
of automatically numbered clauses "1." / "1.1" / "(a)" / "(i)", definitions, fee tables with merged
cells, content controls, fields, footnotes, a header and footer, and a few tracked changes), then in
the same run times:
  baseline — `"\\n".join(p.text for p in docx.Document(path).paragraphs)` (python-docx);
  ours     — `ingest.load_document(path)`: the body walk, numbering labels, notes, headers, sections,
             the independent w:t reading, fidelity and coverage checks.
Prints both times (best of --repeat), the ratio, and what the baseline misses: its character recall
against our canonical text and how many numbering labels it loses.

Run: python benchmarks/ingest_docx.py [--repeat N] [--articles N]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import docx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest import load_document  # noqa: E402
from ingest.fidelity import docx_char_agreement, docx_coverage_reason  # noqa: E402
from ingest.sections import detect_sections  # noqa: E402
from tests.docx_fixtures import (  # noqa: E402
    abstract_num,
    build_docx,
    cell,
    dele,
    ins,
    lvl,
    num,
    numbering_xml,
    p,
    r,
    table,
)

WORDS = [
    "the",
    "Supplier",
    "shall",
    "provide",
    "Services",
    "in",
    "accordance",
    "with",
    "Good",
    "Industry",
    "Practice",
    "and",
    "the",
    "Specification",
    "Customer",
    "may",
    "terminate",
    "this",
    "Agreement",
    "by",
    "written",
    "notice",
    "if",
    "other",
    "party",
    "commits",
    "material",
    "breach",
    "which",
    "is",
    "irremediable",
    "or",
    "not",
    "remedied",
    "within",
    "thirty",
    "days",
    "liability",
    "indemnify",
    "losses",
    "damages",
    "costs",
    "expenses",
    "confidential",
    "information",
    "intellectual",
    "property",
    "rights",
    "data",
    "protection",
    "applicable",
    "law",
    "subject",
    "to",
    "Clause",
    "reasonable",
    "endeavours",
    "consent",
    "not",
    "unreasonably",
    "withheld",
    "delayed",
    "charges",
    "invoice",
]


def _sentence(rng: random.Random, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def build_contract(path: Path, articles: int, seed: int = 7) -> Path:
    rng = random.Random(seed)
    numbering = numbering_xml(
        abstract_num(
            1,
            lvl(0, "decimal", "%1."),
            lvl(1, "decimal", "%1.%2"),
            lvl(2, "lowerLetter", "(%3)"),
            lvl(3, "lowerRoman", "(%4)"),
        ),
        num(1, 1),
    )
    body = [p("MASTER SERVICES AGREEMENT"), p(_sentence(rng, 30))]
    footnote = 0
    footnotes: dict[int, str] = {}
    for a in range(articles):
        body.append(p(f"Article heading {a + 1}", num=(1, 0)))
        for c in range(7):
            text = _sentence(rng, rng.randint(25, 70))
            extras: list[str] = []
            if c == 0 and a == 0:
                for d in range(12):
                    body.append(p(f"“Term {d}” means {_sentence(rng, 18)}", num=(1, 1)))
                continue
            if rng.random() < 0.15:
                extras.append(ins(" " + _sentence(rng, 8)))
                extras.append(dele(" " + _sentence(rng, 6)))
            if rng.random() < 0.1:
                extras.append(
                    "<w:sdt><w:sdtPr/><w:sdtContent>" + r(" " + _sentence(rng, 5)) + "</w:sdtContent></w:sdt>"
                )
            if rng.random() < 0.1:
                extras.append('<w:fldSimple w:instr=" REF _Ref1 \\r ">' + r(" Clause 3.2") + "</w:fldSimple>")
            if rng.random() < 0.05:
                footnote += 1
                footnotes[footnote] = _sentence(rng, 15)
                extras.append(f'<w:r><w:footnoteReference w:id="{footnote}"/></w:r>')
            body.append(p(text, *extras, num=(1, 1)))
            for _ in range(rng.choice((0, 0, 2, 3))):
                body.append(p(_sentence(rng, rng.randint(15, 40)), num=(1, 2)))
                if rng.random() < 0.3:
                    body.append(p(_sentence(rng, 12), num=(1, 3)))
                    body.append(p(_sentence(rng, 12), num=(1, 3)))
        if a % 4 == 3:
            rows = [["Service", "Charge", "Credit"]]
            rows.append([cell("Managed platform", vmerge="restart"), "GBP 12,500", "5%"])
            rows.append([cell("", vmerge="continue"), "GBP 2,000", "10%"])
            rows.append([cell("Total", span=2), "GBP 14,500"])
            body.append(table(rows))
    return build_docx(
        path,
        "".join(body),
        numbering=numbering,
        footnotes=footnotes or None,
        headers=[p("CONFIDENTIAL")],
        footers=[p("Master Services Agreement – execution version")],
    )


T = TypeVar("T")


def _best(fn: Callable[[], T], repeat: int) -> tuple[float, T]:
    best = float("inf")
    result = fn()
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of each (best kept)")
    parser.add_argument("--articles", type=int, default=50, help="articles in the generated contract")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = build_contract(Path(tmp) / "large_msa.docx", args.articles)
        t_base, joined = _best(
            lambda: "\n".join(par.text for par in docx.Document(str(path)).paragraphs), args.repeat
        )
        t_ours, doc = _best(lambda: load_document(path), args.repeat)
    words = len(doc.text.split())
    print(f"contract: {len(doc.text):,} characters, {words:,} words (~{words / 500:.0f} pages)")
    print(f"python-docx paragraph join : {t_base * 1000:8.1f} ms")
    print(f"citationgate load_document : {t_ours * 1000:8.1f} ms  (with fidelity and coverage checks)")
    print(f"ratio ours / python-docx   : {t_ours / t_base:8.2f}x")
    _, recall, _ = docx_char_agreement(joined, doc.text)
    labels = len(doc.generated)
    found = detect_sections(joined).sections
    print(f"our document: status {doc.status}, fidelity {doc.fidelity.value:.4f},", end="")
    print(f" sections {len(doc.sections)} found of {doc.sections_expected} expected")
    print(f"python-docx join: character recall {recall:.2%} of our canonical text")
    print(f"  numbering labels: {labels} in ours, 0 in its text; its sections: {len(found)}")
    print(f"  lost labels: {labels} of {labels}")
    reason = docx_coverage_reason(found, doc.sections_expected or 0)
    print(f"  coverage check on that reading: {'withheld — ' + reason if reason else 'passes'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
