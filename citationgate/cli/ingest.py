"""`citationgate ingest` and `citationgate coverage`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from citationgate.cli.app import DbOption, Format, View, ViewOption, app, emit_json

EXIT_WITHHELD = 5


@app.command()
def ingest(
    file: Annotated[Path, typer.Argument(help="A contract: .pdf, .docx, .txt or .md.")],
    view: ViewOption = View.accepted,
    fmt: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
    db: DbOption = None,
) -> None:
    """Read a contract into its canonical text, store the version, and print a summary.

    Exits 0 when the document is ready to review, 5 when it is stored but withheld (the reasons say why).
    """
    from citationgate.store import Store
    from citationgate.versions import ingest_file

    store = Store.open(db)
    version, reused = ingest_file(store, file, view=view.value)
    doc = version.document
    if fmt is Format.json:
        emit_json({"version_id": version.id, "reused": reused, **doc.to_dict()})
    else:
        typer.echo(f"{doc.name}  version {version.id}{' (already stored)' if reused else ''}")
        typer.echo(f"  sha256     {doc.text_sha256}")
        typer.echo(f"  status     {doc.status}")
        for r in doc.reasons:
            typer.echo(f"    withheld: {r}")
        typer.echo(f"  fidelity   {doc.fidelity.value:.2%} ({doc.fidelity.method})")
        expected = "" if doc.sections_expected is None else f" of {doc.sections_expected} expected"
        typer.echo(f"  sections   {len(doc.sections)} found{expected}")
        if doc.pages:
            typer.echo(f"  pages      {len(doc.pages)}")
        typer.echo(f"  characters {len(doc.text)}")
        for n in doc.notes:
            typer.echo(f"  note: {n}")
    if not doc.ready:
        raise typer.Exit(EXIT_WITHHELD)


@app.command()
def coverage(
    fmt: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
    db: DbOption = None,
) -> None:
    """List every stored document version: hash, sections found/expected, fidelity, status and why."""
    from citationgate.store import Store

    rows = Store.open(db).list_versions()
    if fmt is Format.json:
        emit_json({"versions": rows})
        return
    if not rows:
        typer.echo("No documents stored yet. Run `citationgate ingest FILE`.")
        return
    typer.echo(f"{'id':>4}  {'name':<40} {'sha256':<12} {'sections':>10} {'fidelity':>9}  status")
    for r in rows:
        exp = "?" if r["sections_expected"] is None else str(r["sections_expected"])
        typer.echo(
            f"{r['id']:>4}  {r['name'][:40]:<40} {r['text_sha256'][:12]:<12} "
            f"{r['sections_found']:>5}/{exp:<4} {r['fidelity']:>8.2%}  {r['status']}"
        )
        for reason in r["reasons"]:
            typer.echo(f"{'':>6}withheld: {reason}")
