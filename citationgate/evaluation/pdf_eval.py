"""Real PDFs: the expert spans of a CUAD contract, located in the canonical text of its original PDF.

CUAD's own offsets point into its PDF→TXT conversion, not into our reading of the PDF, so a span counts
as located when the gate's exact (whitespace-flexible, typographic-tolerant) search finds it anywhere in
the PDF's canonical text. Withheld documents are listed with their reasons.

Typeset PDFs (`evaluate_typeset`): CUAD contract texts set as two-column typeset PDFs (ligatures,
hyphenation, running header and footer; citationgate/evaluation/typeset.py), generated in a temporary
folder: every clean one should be ready, and every defect planted in one should withhold it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citationgate.evaluation.data import cuad_records
from citationgate.gate import index_for
from citationgate.model import MIN_QUOTE_CHARS
from ingest.errors import CitationGateError
from ingest.load import load_document
from ingest.pdf import check_pdf_readings, read_pdf

#: Generated typeset PDFs, and the sizes (characters of contract text) they cycle through: short ones,
#: and long ones where one dropped paragraph hardly moves the document's total.
TYPESET_FILES = 12
TYPESET_SIZES = (9_000, 30_000, 60_000)


@dataclass
class PdfFile:
    id: str
    pages: int
    status: str
    reasons: list[str]
    fidelity: float
    spans: int
    located: int
    missed: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.located / self.spans if self.spans else 1.0


@dataclass
class PdfEval:
    files: list[PdfFile] = field(default_factory=list)
    errors: list[dict[str, str]] = field(default_factory=list)
    typeset: dict[str, Any] | None = None

    @property
    def location_rate(self) -> float:
        spans = sum(f.spans for f in self.files)
        return sum(f.located for f in self.files) / spans if spans else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": len(self.files),
            "spans": sum(f.spans for f in self.files),
            "located": sum(f.located for f in self.files),
            "location_rate": round(self.location_rate, 6),
            "files_at_goal": sum(1 for f in self.files if f.rate >= 0.995),
            "withheld": [{"id": f.id, "reasons": f.reasons} for f in self.files if f.status != "ready"],
            "errors": self.errors,
            "typeset": self.typeset,
            "per_file": [
                {
                    "id": f.id,
                    "pages": f.pages,
                    "status": f.status,
                    "fidelity": round(f.fidelity, 6),
                    "spans": f.spans,
                    "located": f.located,
                    "rate": round(f.rate, 6),
                    "missed_examples": f.missed[:5],
                }
                for f in self.files
            ],
        }


def evaluate_pdfs(
    data_dir: Path, *, limit: int | None = None, progress: Callable[[int], None] | None = None
) -> PdfEval:
    result = PdfEval()
    records = [r for r in cuad_records(data_dir) if r.pdf_path is not None]
    for rec in records[:limit]:
        assert rec.pdf_path is not None
        try:
            doc = load_document(rec.pdf_path)
        except CitationGateError as exc:
            result.errors.append({"id": rec.id, "error": str(exc)})
            continue
        index = index_for(doc)
        quotes = [
            s["text"].strip()
            for cat in rec.categories.values()
            for s in cat["spans"]
            if len(s["text"].strip()) >= MIN_QUOTE_CHARS
        ]
        found = index.find_exact_many(quotes)
        missed = [q[:100] for q, hits in zip(quotes, found, strict=True) if not hits]
        result.files.append(
            PdfFile(
                id=rec.id,
                pages=len(doc.pages),
                status=doc.status,
                reasons=list(doc.reasons),
                fidelity=doc.fidelity.value,
                spans=len(quotes),
                located=len(quotes) - len(missed),
                missed=missed,
            )
        )
        if progress:
            progress(1)
    result.typeset = evaluate_typeset(data_dir, count=min(TYPESET_FILES, limit or TYPESET_FILES))
    return result


def _cuad_texts(data_dir: Path, count: int) -> list[tuple[str, str]]:
    """(id, text) of the first `count` CUAD contracts long enough for the largest typeset size."""
    out: list[tuple[str, str]] = []
    for rec in cuad_records(data_dir):
        if len(rec.text) >= max(TYPESET_SIZES):
            out.append((rec.id, rec.text))
            if len(out) == count:
                break
    return out


def write_typeset_corpus(data_dir: Path, folder: Path, *, count: int = TYPESET_FILES) -> list[Path] | str:
    """Write `count` typeset PDFs of CUAD contract text into `folder`; or why they cannot be made."""
    try:
        from citationgate.evaluation.typeset import ligature_font, paragraphs_of, typeset_pdf

        font = ligature_font()
    except ImportError as exc:
        return f"fpdf2 is not installed ({exc.name}); pip install -e '.[dev]'"
    if font is None:
        return "no TTF font with ligature glyphs (install fonts-dejavu-core or fonts-liberation)"
    paths: list[Path] = []
    for n, (doc_id, text) in enumerate(_cuad_texts(data_dir, count)):
        size = TYPESET_SIZES[n % len(TYPESET_SIZES)]
        path = folder / f"{doc_id}_typeset.pdf"
        path.write_bytes(typeset_pdf(doc_id.upper(), paragraphs_of(text, size), font))
        paths.append(path)
    return paths


def evaluate_typeset_files(paths: list[Path]) -> dict[str, Any]:
    """Each clean typeset PDF read (should be ready), and each defect planted in it (should withhold)."""
    from citationgate.evaluation.typeset import DEFECTS, plant, without_unicode_map

    files: list[dict[str, Any]] = []
    defects: list[dict[str, Any]] = []
    for path in paths:
        data = path.read_bytes()
        doc = load_document(path)
        files.append(
            {
                "id": path.stem,
                "pages": len(doc.pages),
                "status": doc.status,
                "fidelity": round(doc.fidelity.value, 6),
                "reasons": list(doc.reasons),
            }
        )
        readings = read_pdf(path.name, data)
        for kind in DEFECTS:
            if kind == "glyph-garbage":
                garbled = path.with_name(f"{path.stem}_garbage.pdf")
                garbled.write_bytes(without_unicode_map(data))
                reasons = load_document(garbled).reasons
                garbled.unlink()
                what = "the fonts' /ToUnicode maps removed from the file"
            else:
                planted = plant(kind, data, readings.pages)
                check, _ = check_pdf_readings(planted.pages, readings.second.pages, readings.shapes)
                reasons, what = check.reasons, planted.what
            defects.append(
                {
                    "id": path.stem,
                    "defect": kind,
                    "what": what,
                    "withheld": bool(reasons),
                    "reasons": list(reasons),
                }
            )
    return {
        "files": len(files),
        "clean_withheld": [f for f in files if f["status"] != "ready"],
        "defects": len(defects),
        "defects_missed": [d for d in defects if not d["withheld"]],
        "per_file": files,
        "per_defect": defects,
    }


def evaluate_typeset(data_dir: Path, *, count: int = TYPESET_FILES) -> dict[str, Any]:
    """Clean typeset PDFs of real contract text (should be ready) and planted defects (should withhold)."""
    with tempfile.TemporaryDirectory(prefix="citationgate-typeset-") as tmp:
        paths = write_typeset_corpus(data_dir, Path(tmp), count=count)
        if isinstance(paths, str):
            return {"skipped": paths}
        return evaluate_typeset_files(paths)
