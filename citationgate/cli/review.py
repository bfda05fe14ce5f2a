"""`citationgate review`: ingest (or reuse by hash), run a playbook, gate, store, report."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from citationgate.api import review_run
from citationgate.cli.app import (
    EXIT_GATE,
    DbOption,
    NoStoreOption,
    ReportFormat,
    View,
    ViewOption,
    app,
    check_out_path,
    fail,
    info,
)

if TYPE_CHECKING:  # the reports (python-docx, lxml) and the engine load when a review runs, not for --help
    from citationgate.reports.deliver import Deliverable


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
    fmt: Annotated[
        ReportFormat | None,
        typer.Option(
            "--format",
            help="table, json, md, html, docx (a commented copy of a DOCX), issues-docx or csv. "
            "Default: from --out's extension, else table.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Write the report to this file (its extension picks the format unless --format says "
            "otherwise; a mismatch is an error); print a one-line summary to stderr.",
        ),
    ] = None,
    redline: Annotated[
        Path | None,
        typer.Option(
            "--redline",
            help="Also write a proposed redline of a DOCX: tracked changes to the playbook's model "
            "language for each unacceptable finding, with a comment.",
        ),
    ] = None,
    fail_on: Annotated[
        Severity | None,
        typer.Option("--fail-on", help="Exit 1 if a finding at or above this severity surfaced."),
    ] = None,
    view: ViewOption = View.accepted,
    we: Annotated[
        str | None,
        typer.Option(
            "--we",
            help="Which party is us: its defined term or name (e.g. 'Company'). "
            "Default: inferred from the contract's own words, or left unresolved.",
        ),
    ] = None,
    no_store: NoStoreOption = False,
    db: DbOption = None,
) -> None:
    """Review FILE against a playbook (see `_HELP`)."""
    from citationgate.reports import one_line_summary
    from citationgate.reports.deliver import deliver, resolve_format
    from citationgate.reports.redline import render_redline
    from citationgate.review import severity_at_least

    for path in (out, redline):
        if path is not None:
            check_out_path(path, option="--out" if path is out else "--redline")  # before any work
    chosen = resolve_format(fmt.value if fmt else None, out)
    if redline is not None and redline.suffix.lower() != ".docx":
        raise typer.BadParameter(f"{redline.name}: a redline is a .docx file", param_hint="--redline")
    if redline is not None and file.suffix.lower() != ".docx":
        fail(
            f"{file.name}: a redline needs a DOCX (this is a {file.suffix.lstrip('.').lower()} file)", code=3
        )
    result, reused = review_run(file, playbook=playbook, view=view.value, we=we, store=db, write=not no_store)
    if reused:
        info(f"{result.document.name}: reusing stored version {result.version_id} (same bytes)")
    data = result.to_dict()
    source = file.read_bytes() if chosen == "docx" or redline is not None else None
    deliverable = deliver(chosen, data, document=result.document, source=source)
    emit(deliverable, out, one_line_summary(data))
    if redline is not None and source is not None:
        red = render_redline(data, result.document, source)
        write(redline, red.content)
        info(f"proposed redline → {redline} ({red.note})")
    if fail_on is not None:
        hits = [f for f in result.findings if severity_at_least(f.proposal.severity, fail_on.value)]
        if hits:
            info(f"--fail-on {fail_on.value}: {len(hits)} finding(s) at or above {fail_on.value}")
            raise typer.Exit(EXIT_GATE)


def write(path: Path, content: bytes) -> None:
    try:
        path.write_bytes(content)
    except OSError as exc:
        raise typer.BadParameter(
            f"{path}: cannot write the report ({exc.strerror or exc})", param_hint="--out"
        ) from None


def emit(deliverable: Deliverable, out: Path | None, summary: str) -> None:
    """Write the deliverable to `out` (summary and note on stderr) or print it (text formats only)."""
    if out is not None:
        write(out, deliverable.content)
        note = f" ({deliverable.note})" if deliverable.note else ""
        info(f"{summary} → {out}{note}")
    else:
        sys.stdout.write(deliverable.text)
