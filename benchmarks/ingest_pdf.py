"""PDF ingest speed: the full `load_document` (with the pdfium fidelity check) against raw pypdf.

For the 40 CUAD PDFs in ../shared/data/cuad/pdf/, in the same run:
  baseline — `pypdf.PdfReader(path)` and `page.extract_text()` of every page (nothing else);
  ours     — `ingest.load_document(path)`: pypdf text, furniture, sections, the pypdfium2 second reading,
             per-page fidelity, scan and bad-glyph guards.
Prints pages/s for both and the ratio (goal: ours within 2x of raw pypdf), then each document's status,
fidelity and lowest page, and the reasons of any withheld one.

Then the same for typeset PDFs generated in a temporary folder from CUAD contract texts (two columns,
ligatures, hyphenation at line ends, running header and footer: citationgate/evaluation/typeset.py):
the same timing and ratio, each file's status (goal: all ready), and each defect planted in them
(interleaved columns, a dropped and a moved paragraph, a missing page, glyph garbage; goal: all withheld).

Run: python benchmarks/ingest_pdf.py [--repeat N] [--typeset N]
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

import pypdf

from citationgate.evaluation.pdf_eval import TYPESET_FILES, evaluate_typeset_files, write_typeset_corpus
from ingest import Document, load_document

DATA_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
PDF_DIR = DATA_DIR / "cuad" / "pdf"


def _raw_pypdf(path: Path) -> int:
    reader = pypdf.PdfReader(path)
    for page in reader.pages:
        page.extract_text()
    return len(reader.pages)


def _timed(files: list[Path], repeat: int) -> tuple[float, float, int, dict[str, Document]]:
    """Best time of raw pypdf and of load_document over `files`, measured in the same passes."""
    best_raw = best_ours = float("inf")
    pages = 0
    docs: dict[str, Document] = {}
    for _ in range(max(1, repeat)):
        t0 = time.perf_counter()
        pages = sum(_raw_pypdf(f) for f in files)
        t1 = time.perf_counter()
        for f in files:
            docs[f.stem] = load_document(f)
        t2 = time.perf_counter()
        best_raw = min(best_raw, t1 - t0)
        best_ours = min(best_ours, t2 - t1)
    return best_raw, best_ours, pages, docs


def _report(label: str, best_raw: float, best_ours: float, pages: int, docs: dict[str, Document]) -> None:
    print(f"{'file':<18} {'pages':>5} {'status':<9} {'fidelity':>9}  lowest page / reasons")
    for name, doc in docs.items():
        low = doc.fidelity.detail.split(";")[1].strip() if ";" in doc.fidelity.detail else ""
        print(f"{name:<18} {len(doc.pages):>5} {doc.status:<9} {doc.fidelity.value:>9.4%}  {low}")
        for r in doc.reasons:
            print(f"{'':>18} withheld: {r}")
    ready = sum(d.ready for d in docs.values())
    print()
    print(f"{label}: {len(docs)} PDFs, {pages} pages; {ready} ready, {len(docs) - ready} withheld")
    print(f"raw pypdf extract_text : {pages / best_raw:8.1f} pages/s ({best_raw:.2f} s)")
    print(f"load_document (full)   : {pages / best_ours:8.1f} pages/s ({best_ours:.2f} s)")
    ratio = best_ours / best_raw
    print(f"ratio full / raw pypdf : {ratio:.2f}x  (goal <= 2x: {'met' if ratio <= 2 else 'NOT met'})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="timed passes over the corpus (best kept)")
    parser.add_argument(
        "--typeset", type=int, default=TYPESET_FILES, help="typeset PDFs to generate (0: none)"
    )
    args = parser.parse_args()
    files = sorted(PDF_DIR.glob("*.pdf"))
    if not files:
        print(f"skipped: no CUAD PDFs at {PDF_DIR} (expected ../shared/data beside the checkout)")
        return 0
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # the baseline runs pypdf bare; keep it quiet too

    _report("CUAD originals", *_timed(files, args.repeat))
    if args.typeset <= 0:
        return 0
    print()
    with tempfile.TemporaryDirectory(prefix="citationgate-typeset-") as tmp:
        typeset = write_typeset_corpus(DATA_DIR, Path(tmp), count=args.typeset)
        if isinstance(typeset, str):
            print(f"typeset PDFs skipped: {typeset}")
            return 0
        _report("typeset PDFs", *_timed(typeset, args.repeat))
        result = evaluate_typeset_files(typeset)
    print()
    print(
        f"planted defects: {result['defects'] - len(result['defects_missed'])} of "
        f"{result['defects']} withheld"
    )
    for d in result["per_defect"]:
        first = d["reasons"][0] if d["reasons"] else "NOT WITHHELD"
        print(f"  {d['id']:<18} {d['defect']:<20} {first[:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
