"""The Typer application, its shared options, and the one place library errors become `Error: …`.

Exit codes (documented in the README):
  0  success
  1  the gate said no: `--strict` saw a rejection, `--fail-on` met its severity, `check-answer` withheld
  2  usage error (a bad option or argument)
  3  the input file could not be read (missing, unsupported, empty, corrupt, encrypted)
  4  bad proposals, findings or playbook (JSON/YAML that does not match its schema)
  5  the document is withheld (not read whole), so nothing is reviewed against it
  6  database error, or a review/finding/version that is not in the store
  7  the audit chain is broken
  8  batch: Dask could not start, or its scheduler could not be reached
  70 an internal error (a bug): one line, no traceback — please report it
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from ingest.errors import CitationGateError

EXIT_GATE = 1
EXIT_INTERNAL = 70


class _Group(TyperGroup):
    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except CitationGateError as exc:
            fail(str(exc), code=exc.exit_code)
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except Exception as exc:
            if type(exc).__module__.startswith(("typer", "click")):
                raise
            fail(f"internal error ({type(exc).__name__}): {exc} — please report this", code=EXIT_INTERNAL)


app = typer.Typer(
    cls=_Group,
    name="citationgate",
    help="Contract review whose every finding is a quote verified at real character offsets.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,  # locals hold contract text; errors are one line anyway
    add_completion=False,
    rich_markup_mode=None,  # help is plain text: "[mcp]" is an extra's name, not markup
)


def fail(message: str, *, code: int) -> NoReturn:
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


def info(message: str) -> None:
    """Progress and warnings: stderr, so stdout stays clean for results."""
    typer.echo(message, err=True)


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


class Format(StrEnum):
    table = "table"
    json = "json"


class ReportFormat(StrEnum):
    table = "table"
    json = "json"
    md = "md"
    html = "html"
    docx = "docx"
    issues_docx = "issues-docx"
    csv = "csv"


DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="CITATIONGATE_DB",
        help="Database: a path to a SQLite file or any SQLAlchemy URL. "
        "Default: $XDG_DATA_HOME/citationgate/citationgate.db.",
        show_envvar=True,
    ),
]
