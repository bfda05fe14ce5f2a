"""Real PDFs: the expert spans of a CUAD contract, located in the canonical text of its original PDF.

CUAD's own offsets point into its PDF→TXT conversion, not into our reading of the PDF, so a span counts
as located when the gate's exact (whitespace-flexible, typographic-tolerant) search finds it anywhere in
the PDF's canonical text. Withheld documents are listed with their reasons.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citationgate.evaluation.data import cuad_records
from citationgate.gate import index_for
from citationgate.model import MIN_QUOTE_CHARS
from ingest.errors import CitationGateError
from ingest.load import load_document


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
    return result
