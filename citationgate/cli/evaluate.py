"""`citationgate eval …`: the engine measured on real annotated contracts.

The data folder is an option (default `../shared/data` beside the checkout), so the same command runs
on any folder in the CUAD/ContractNLI layout. Progress goes to stderr; `--format json` prints only the
headline figures as JSON; `--out` writes the Markdown results table (docs/evaluation.md).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from citationgate.cli.app import Format, app, emit_json, info
from citationgate.evaluation.data import default_data_dir

PARTS = ("gate", "pdf", "clauses", "facts", "answers", "nda", "speed")


@contextmanager
def _progress(label: str, total: int) -> Iterator[Callable[[int], None]]:
    if not sys.stderr.isatty():
        info(f"{label}: {total} documents…")
        yield lambda _n: None
        return
    with typer.progressbar(length=total, label=label, file=sys.stderr) as bar:
        yield bar.update


DataOption = Annotated[
    Path | None,
    typer.Option("--data", help="Data folder in the shared/data layout. Default: ../shared/data."),
]


@app.command("eval")
def evaluate(
    parts: Annotated[
        list[str] | None,
        typer.Argument(help=f"Which measurements: any of {', '.join(PARTS)} (default: all)."),
    ] = None,
    data: DataOption = None,
    limit: Annotated[int | None, typer.Option(help="Only the first N contracts of each set.")] = None,
    skip: Annotated[
        int,
        typer.Option(
            min=0,
            help="Clause part: leave out the first N CUAD contracts (with --limit, contracts N+1 … N+limit), "
            "to measure on contracts a setting was not chosen on.",
        ),
    ] = 0,
    fmt: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
    out: Annotated[Path | None, typer.Option(help="Write the Markdown results table here.")] = None,
    cv_dir: Annotated[
        Path | None,
        typer.Option(
            "--cv-dir",
            help="Locator fold models from `citationgate train locator --cv-dir`: clause figures by "
            "cross-validation (default: the shipped locator, in-sample).",
        ),
    ] = None,
) -> None:
    """Measure the engine on real annotated contracts (CUAD, ContractNLI) and print the results."""
    from citationgate.evaluation.report import run_evaluation, write_markdown

    chosen = tuple(parts or PARTS)
    unknown = [p for p in chosen if p not in PARTS]
    if unknown:
        raise typer.BadParameter(f"unknown part {unknown[0]!r} (expected one of {', '.join(PARTS)})")
    results: dict[str, Any] = run_evaluation(
        data or default_data_dir(),
        parts=chosen,
        limit=limit,
        skip=skip,
        progress=_progress,
        cv_dir=cv_dir,
    )
    if out is not None:
        write_markdown(results, out)
        info(f"wrote {out}")
    if fmt is Format.json:
        emit_json(results["headline"])
    else:
        typer.echo(results["table"])
