"""`citationgate review`: ingest (or reuse by hash), run a playbook, gate, store, report."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from citationgate.api import review_run
from citationgate.cli.app import EXIT_GATE, DbOption, ReportFormat, app, emit_json, info
from citationgate.reports import one_line_summary, render_markdown, render_table
from citationgate.review import severity_at_least


class Severity(StrEnum):
    info = "info"
    low = "low"
    medium = "medium"
    high = "high"
    critical = "critical"


_HELP = (
    "Review a contract against a playbook: every finding is a verified quote or a disclosed absence.\n\n"
    "Ingests FILE (or reuses the stored version with the same bytes), runs the playbook, gates every "
    "proposal and stores the review, its findings and audit entries in one transaction. "
    "Exits 5 when the document is withheld, 1 when --fail-on meets its severity."
)


@app.command(help=_HELP)
def review(
    file: Annotated[Path, typer.Argument(help="The contract to review: .pdf, .docx, .txt or .md.")],
    playbook: Annotated[
        str, typer.Option("--playbook", help="A built-in playbook id or a path to a playbook YAML file.")
    ] = "msa-customer",
    fmt: Annotated[ReportFormat, typer.Option("--format", help="table, json or md.")] = ReportFormat.table,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the report to this file; print a one-line summary to stderr."),
    ] = None,
    fail_on: Annotated[
        Severity | None,
        typer.Option("--fail-on", help="Exit 1 if a finding at or above this severity surfaced."),
    ] = None,
    view: Annotated[
        str, typer.Option(help="Tracked changes in a DOCX: 'accepted' (default) or 'original'.")
    ] = "accepted",
    we: Annotated[
        str | None,
        typer.Option(
            "--we",
            help="Which party is us: its defined term or name (e.g. 'Company'). "
            "Default: inferred from the contract's own words, or left unresolved.",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Review FILE against a playbook (see `_HELP`)."""
    result, reused = review_run(file, playbook=playbook, view=view, we=we, store=db)
    if reused:
        info(f"{result.document.name}: reusing stored version {result.version_id} (same bytes)")
    data = result.to_dict()
    if fmt is ReportFormat.json:
        text = json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n"
    elif fmt is ReportFormat.md:
        text = render_markdown(data)
    else:
        text = render_table(data)
    if out is not None:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise typer.BadParameter(
                f"{out}: cannot write the report ({exc.strerror or exc})", param_hint="--out"
            ) from None
        info(f"{one_line_summary(data)} → {out}")
    elif fmt is ReportFormat.json:
        emit_json(data)
    else:
        typer.echo(text, nl=False)
    if fail_on is not None:
        hits = [f for f in result.findings if severity_at_least(f.proposal.severity, fail_on.value)]
        if hits:
            info(f"--fail-on {fail_on.value}: {len(hits)} finding(s) at or above {fail_on.value}")
            raise typer.Exit(EXIT_GATE)
