"""The `citationgate` command line: the only place that imports Typer.

Each module below registers its commands on the one `app`; `main` is the console script.
"""

from __future__ import annotations

import sys

# The order of these imports is the order of the commands in `citationgate --help`.
# isort: off
from citationgate.cli import ingest as _ingest  # noqa: F401  (registers commands)
from citationgate.cli import gate as _gate  # noqa: F401
from citationgate.cli import review as _review  # noqa: F401
from citationgate.cli import playbooks as _playbooks  # noqa: F401
from citationgate.cli import reverify as _reverify  # noqa: F401
from citationgate.cli import ask as _ask  # noqa: F401
from citationgate.cli import answers as _answers  # noqa: F401
from citationgate.cli import evaluate as _evaluate  # noqa: F401
from citationgate.cli import agents as _agents  # noqa: F401
from citationgate.cli import batch as _batch  # noqa: F401

# isort: on
from citationgate.cli.app import EXIT_BROKEN_PIPE, app, quiet_stdout


def main() -> None:
    try:
        app()  # standalone: always ends in SystemExit
    except SystemExit:
        try:  # a reader that closed stdout before our last buffered write (`| head -1`): quiet, once
            sys.stdout.flush()
        except BrokenPipeError:
            quiet_stdout()
            raise SystemExit(EXIT_BROKEN_PIPE) from None
        raise


__all__ = ["app", "main"]
