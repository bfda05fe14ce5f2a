"""`citationgate mcp` (the engine as an MCP server over stdio) and `citationgate schema` (the JSON shapes)."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from citationgate.cli.app import DbOption, app, fail

EXIT_USAGE = 2


class SchemaName(StrEnum):
    proposals = "proposals"
    findings = "findings"
    review = "review"
    verify = "verify"
    reverify = "reverify"
    check_answer = "check-answer"


@app.command("mcp")
def mcp_command(
    root: Annotated[
        list[Path] | None,
        typer.Option(
            "--root",
            metavar="DIR",
            help="A folder the server may read (repeatable); a path outside every root is refused. "
            "Default: the current folder.",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Serve the engine to agents over the Model Context Protocol (stdio).

    Tools: ingest, get_text, ask, verify_quotes, verify, review, reverify, check_answer, findings,
    reviews; resources citationgate://documents/{id}, citationgate://documents/{id}/text and
    citationgate://reviews/{id}. Needs the mcp extra: pip install 'citationgate[mcp]'.
    """
    try:
        from citationgate.mcp import Roots, serve
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith("mcp"):
            raise
        fail("the MCP server needs the mcp extra: pip install 'citationgate[mcp]'", code=EXIT_USAGE)
    roots = Roots.of(root or [Path.cwd()])
    print(
        f"citationgate mcp: serving over stdio; roots: {', '.join(map(str, roots.folders))}", file=sys.stderr
    )
    serve(roots, db=db)


@app.command("schema")
def schema_command(
    name: Annotated[
        SchemaName,
        typer.Argument(help="Which shape: proposals (the input verify takes), findings, review, …"),
    ],
) -> None:
    """Print the JSON Schema of a published shape, generated from the models the code validates with.

    `schema proposals` is what to ask an LLM for; the others describe what the commands print with
    --format json.
    """
    from citationgate.schemas import dumps

    sys.stdout.write(dumps(name.value) + "\n")
