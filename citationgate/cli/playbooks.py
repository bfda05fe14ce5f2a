"""`citationgate playbooks list | show | validate | test`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from citationgate.cli.app import EXIT_GATE, Format, app, emit_json, sub_app

if TYPE_CHECKING:  # the playbook engine (pydantic, bm25s, numpy) loads when a command runs, not for --help
    from playbooks import Playbook, PlaybookTestResult
    from playbooks.predicates import Predicate

playbooks_app = sub_app(
    name="playbooks",
    help="List, inspect, validate and test playbooks (the positions a review checks).",
    no_args_is_help=True,
)
app.add_typer(playbooks_app, name="playbooks")

FormatOption = Annotated[Format, typer.Option("--format", help="table or json.")]


def _summary(pb: Playbook) -> dict[str, Any]:
    return {
        "id": pb.id,
        "version": pb.version,
        "title": pb.title,
        "our_role": pb.our_role,
        "sha256": pb.sha256,
        "source": pb.source,
        "clauses": len(pb.clauses),
        "required": sum(1 for c in pb.clauses if c.required),
        "checks": len(pb.checks),
        "document_checks": sorted(pb.model.document_checks),
        "tests": len(pb.model.tests),
    }


@playbooks_app.command("list")
def list_command(fmt: FormatOption = Format.table) -> None:
    """List the built-in playbooks: id, version, title, our role, clause count and content hash."""
    from playbooks import list_playbooks

    pbs = list_playbooks()
    if fmt is Format.json:
        emit_json({"playbooks": [_summary(pb) for pb in pbs]})
        return
    typer.echo(f"{'id':<16} {'version':<8} {'role':<9} {'clauses':>7}  {'sha256':<12}  title")
    for pb in pbs:
        row = f"{pb.id:<16} {pb.version:<8} {pb.our_role:<9} {len(pb.clauses):>7}  {pb.sha256[:12]:<12}"
        typer.echo(f"{row}  {pb.title}")


def _render(pred: Predicate | None) -> str:
    return pred.render() if pred is not None else "-"


@playbooks_app.command("show")
def show_command(
    ref: Annotated[str, typer.Argument(help="A built-in playbook id (e.g. msa-customer) or a YAML file.")],
    fmt: FormatOption = Format.table,
) -> None:
    """Show a playbook: each clause, how it is located, its positions in evaluation order, its checks."""
    from playbooks import load_playbook

    pb = load_playbook(ref)
    if fmt is Format.json:
        emit_json({**_summary(pb), "playbook": pb.model.model_dump(mode="json", by_alias=True)})
        return
    typer.echo(f"{pb.title}")
    typer.echo(f"  id {pb.id}  version {pb.version}  our role {pb.our_role}")
    typer.echo(f"  sha256 {pb.sha256}")
    typer.echo(f"  source {pb.source}")
    if pb.description:
        typer.echo(f"  {pb.description.strip()}")
    for c in pb.clauses:
        m = c.model
        req = "required" if c.required else "optional"
        typer.echo("")
        typer.echo(f"{c.id} — {c.title} ({req})")
        if m.locate.headings:
            typer.echo(f"  headings: {', '.join(m.locate.headings)}")
        if m.extract:
            typer.echo(
                "  extracts: " + ", ".join(f"{name} ({spec.type})" for name, spec in m.extract.items())
            )
        for p in c.positions:
            label = p.outcome if p.outcome != "fallback" else f"fallback {p.rank}"
            approval = f" — approval: {p.approval}" if p.approval else ""
            typer.echo(f"  {label}: {p.when.render()}{approval}")
        typer.echo(f"  otherwise: {m.positions.otherwise}")
        if c.not_applicable_when is not None:
            typer.echo(f"  not applicable when: {_render(c.not_applicable_when)}")
        if m.guidance:
            typer.echo(f"  guidance: {m.guidance}")
    for k in pb.checks:
        typer.echo("")
        typer.echo(f"check {k.id} — {k.title}")
        typer.echo(f"  requires: {', '.join(k.model.requires)}")
        typer.echo(f"  holds when: {k.when.render()}  (else {k.model.fail_outcome})")
    if pb.model.document_checks:
        typer.echo("")
        typer.echo("document checks: " + ", ".join(sorted(pb.model.document_checks)))
    typer.echo(f"embedded tests: {len(pb.model.tests)}")


@playbooks_app.command("validate")
def validate_command(
    path: Annotated[Path, typer.Argument(help="A playbook YAML file.")],
    fmt: FormatOption = Format.table,
) -> None:
    """Check a playbook file against the schema; a bad file names the line, the field and what was expected.

    Exits 0 when it is valid, 4 (with `Error: …`) when it is not.
    """
    from playbooks import load_playbook

    pb = load_playbook(path)
    if fmt is Format.json:
        emit_json({"valid": True, **_summary(pb)})
        return
    typer.echo(
        f"{path}: valid — {pb.id} {pb.version}, {len(pb.clauses)} clauses, {len(pb.checks)} checks, "
        f"{len(pb.model.tests)} tests (sha256 {pb.sha256[:12]})"
    )


def _result_dict(r: PlaybookTestResult) -> dict[str, Any]:
    return r.to_dict()


@playbooks_app.command("test")
def test_command(
    ref: Annotated[
        str | None,
        typer.Argument(help="A built-in playbook id or a YAML file; all built-in playbooks when omitted."),
    ] = None,
    fmt: FormatOption = Format.table,
) -> None:
    """Run a playbook's embedded tests (clause text → expected outcome). Exits 1 if any test fails."""
    from playbooks import list_playbooks, load_playbook, run_tests

    pbs = [load_playbook(ref)] if ref is not None else list_playbooks()
    failed = 0
    report: list[dict[str, Any]] = []
    for pb in pbs:
        results = run_tests(pb)
        bad = [r for r in results if not r.passed]
        failed += len(bad)
        report.append(
            {
                "id": pb.id,
                "version": pb.version,
                "sha256": pb.sha256,
                "passed": len(results) - len(bad),
                "failed": len(bad),
                "results": [_result_dict(r) for r in results],
            }
        )
        if fmt is Format.table:
            for r in results:
                mark = "ok  " if r.passed else "FAIL"
                line = f"{mark} {r.name}: expected {r.expected}, got {r.got}"
                typer.echo(line if r.passed else f"{line} — {r.detail}")
            typer.echo(f"{pb.id} {pb.version}: {len(results) - len(bad)} of {len(results)} tests pass")
    if fmt is Format.json:
        emit_json({"playbooks": report, "failed": failed})
    if failed:
        raise typer.Exit(EXIT_GATE)
