"""Reading the evaluation data: CUAD and ContractNLI in the layout described by shared/data/README.md."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ingest.errors import CitationGateError

#: The repository's sibling `shared/data`, where the team keeps the annotated contracts.
_REPO_ROOT = Path(__file__).resolve().parents[2]


class DataMissingError(CitationGateError):
    """The evaluation data folder is absent or not in the CUAD/ContractNLI layout."""

    exit_code = 3


def default_data_dir() -> Path:
    return _REPO_ROOT.parent / "shared" / "data"


@dataclass(frozen=True, slots=True, kw_only=True)
class CuadRecord:
    id: str
    text_path: Path
    text: str
    categories: dict[str, Any]  # name → {is_impossible, answer, spans:[{start,end,text,all_starts?}]}
    pdf_path: Path | None


def _require(path: Path, what: str) -> Path:
    if not path.exists():
        raise DataMissingError(
            f"{path}: {what} not found (expected the CUAD/ContractNLI layout of shared/data)"
        )
    return path


def cuad_records(data_dir: Path, *, limit: int | None = None) -> Iterator[CuadRecord]:
    """Every CUAD contract with its text and expert spans, in file order."""
    cuad = data_dir / "cuad"
    ann = _require(cuad / "annotations.jsonl", "CUAD annotations")
    with ann.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if limit is not None and n >= limit:
                return
            rec = json.loads(line)
            text_path = cuad / rec["text_file"]
            pdf = cuad / "pdf" / f"{rec['id']}.pdf"
            yield CuadRecord(
                id=rec["id"],
                text_path=text_path,
                text=text_path.read_text(encoding="utf-8"),
                categories=rec["categories"],
                pdf_path=pdf if pdf.is_file() else None,
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class NliRecord:
    id: str
    text_path: Path
    text: str
    annotations: dict[str, Any]  # nda-N → {choice, evidence:[{start,end,text}]}


def nli_records(data_dir: Path, *, limit: int | None = None) -> Iterator[NliRecord]:
    nli = data_dir / "contractnli"
    ann = _require(nli / "annotations.jsonl", "ContractNLI annotations")
    with ann.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if limit is not None and n >= limit:
                return
            rec = json.loads(line)
            text_path = nli / rec["text_file"]
            yield NliRecord(
                id=rec["id"],
                text_path=text_path,
                text=text_path.read_text(encoding="utf-8"),
                annotations=rec["annotations"],
            )


def span_starts(span: dict[str, Any]) -> set[int]:
    """Every annotated start of a span (CUAD lists all occurrences of a repeated text)."""
    return {span["start"], *span.get("all_starts", ())}
