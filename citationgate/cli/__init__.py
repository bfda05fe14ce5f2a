"""The `citationgate` command line: the only place that imports Typer.

Each module registers its commands on the one `app`; `main` is the console script. Modules are imported
only when one of their commands runs (`COMMANDS` below), so `citationgate --help` loads no store, reader
or playbook engine, and `citationgate verify` none of the retrieval or playbook machinery. Inside each
module, what a command needs beyond Typer (the store, the gate, the engine, readers, reports, Dask) is
imported by the command function itself, so `COMMAND --help` loads none of it
(`tests/test_cli_grammar.py` checks; `benchmarks/startup.py` measures). A module imported here eagerly
(`from citationgate.cli import x as _x`) registers its commands as before.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys

from citationgate.cli.app import EXIT_BROKEN_PIPE, app, may_end_at_once, quiet_stdout, register_lazy

#: command → (module that registers it, its one-line help as `citationgate --help` lists it), in the order
#: of that listing. `tests/test_cli_grammar.py` checks each line against the command's own help.
COMMANDS: dict[str, tuple[str, str]] = {
    "ingest": (
        "citationgate.cli.ingest",
        "Read a contract into its canonical text, store the version, and print a summary.",
    ),
    "coverage": (
        "citationgate.cli.ingest",
        "List every stored document version: hash, sections found/expected, fidelity, status and why.",
    ),
    "verify": (
        "citationgate.cli.gate",
        "Gate an outside agent's proposals: every quote located verbatim at real offsets, or rejected.",
    ),
    "findings": (
        "citationgate.cli.gate",
        "Print a stored review's findings (`findings REVIEW_ID`), or list reviews (`findings --list`).",
    ),
    "audit": (
        "citationgate.cli.gate",
        "List the audit log (every gate decision), print its head, or check that its hash chain is intact.",
    ),
    "review": (
        "citationgate.cli.review",
        "Review a contract against a playbook: every finding is a verified quote or a disclosed absence.",
    ),
    "reverify": (
        "citationgate.cli.reverify",
        "Re-verify every finding of an earlier review against a new version, exact only.",
    ),
    "diff": (
        "citationgate.cli.reverify",
        "Show what changed between two versions, clause by clause: renumbered, moved, changed (with the "
        "words inserted and deleted), added, deleted.",
    ),
    "ask": (
        "citationgate.cli.ask",
        "Find the clauses that answer a plain-language question, with confidence and reasons.",
    ),
    "check-answer": (
        "citationgate.cli.answers",
        "Check every quoted passage of an answer against the verified record; withhold it if any fails.",
    ),
    "ledger": (
        "citationgate.cli.answers",
        "The claim-support ledger of a review: one row per atomic claim, with its passages, a support "
        "label (supported | partial | unsupported | unverifiable), the words at issue, what to do about it "
        "(keep | narrow | remove | review) and the source's authority.",
    ),
    "eval": (
        "citationgate.cli.evaluate",
        "Measure the engine on real annotated contracts (CUAD, ContractNLI) and print the results.",
    ),
    "mcp": ("citationgate.cli.agents", "Serve the engine to agents over the Model Context Protocol (stdio)."),
    "schema": (
        "citationgate.cli.agents",
        "Print the JSON Schema of a published shape, generated from the models the code validates with.",
    ),
    "batch": (
        "citationgate.cli.batch",
        "Review a data room: every contract under PATH… (folders, files, a .zip, or a .csv/.jsonl manifest "
        "with a 'path' column) on Dask, into one store.",
    ),
    "portfolio": (
        "citationgate.cli.batch",
        "A batch run as a portfolio: one row per contract, one column per clause type (outcome, key value, "
        "its verified quote and pinpoint), counts per outcome, and the contracts withheld or failed "
        "with why.",
    ),
    "families": (
        "citationgate.cli.batch",
        "The same clause across a batch run: per clause type, families of near-identical located wording "
        "(MinHash LSH confirmed by exact Jaccard ≥ --threshold), each with one representative quote and "
        "every member's word diff to it; --documents adds near-duplicate documents (copies, versions, "
        "amendments).",
    ),
    "train": (
        "citationgate.cli.train",
        "Train the models that ship in the package (needs the `train` extra: scikit-learn).",
    ),
    "playbooks": (
        "citationgate.cli.playbooks",
        "List, inspect, validate and test playbooks (the positions a review checks).",
    ),
}
register_lazy(COMMANDS)


def load_all() -> None:
    """Import every command module (for tests and documentation that walk every command)."""
    for module, _help in COMMANDS.values():
        importlib.import_module(module)


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
    finally:
        # The process ends here. What is left (the imported modules, a review's findings, a contract's
        # index) is freed as the interpreter exits; frozen, it is not walked again by the interpreter's
        # own last garbage collections on the way out (~0.05 CPU-s of `verify` on a 1 MB contract).
        gc.freeze()


def run() -> None:
    """The console script `citationgate`: `main`, then — for a command that leaves nothing behind
    (`citationgate.cli.app.end_at_once`: today `verify`) — the process ends as soon as stdout and stderr
    are flushed, with the same exit status, instead of the interpreter freeing every module and object
    on its way out. The output, the exit status and what is stored are the same either way
    (`tests/test_cli_exit.py`); `main` itself always returns through `SystemExit`, for callers in-process."""
    try:
        main()
    except SystemExit as exc:
        code = 0 if exc.code is None else exc.code
        if type(code) is int and may_end_at_once():
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except (OSError, ValueError):
                raise exc from None  # a stream that cannot be flushed: the interpreter's own exit decides
            os._exit(code)
        raise


__all__ = ["COMMANDS", "app", "load_all", "main", "run"]
