"""`citationgate batch`: a data room reviewed on Dask into one store, resumable."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from citationgate.cli.app import DbOption, Format, app, emit_json, info
from citationgate.escape import terminal

if TYPE_CHECKING:  # Dask, the engine and the store load when a command runs, not for --help
    from citationgate.batch import Progress

_HELP = (
    "Review a data room: every contract under PATH… (folders, files, a .zip, or a .csv/.jsonl manifest "
    "with a 'path' column) on Dask, into one store.\n\n"
    "Each distinct document (by content hash) is reviewed once, however many times it is listed, in one "
    "transaction; a rerun skips what is done and --resume RUN_ID continues a run whose driver died. A "
    "document that is corrupt, encrypted, empty or withheld is recorded with its reason; the run goes on. "
    "Progress goes to stderr; with --format json stdout is the run summary only. Exits 8 when Dask cannot "
    "start or its scheduler cannot be reached."
)


@app.command(help=_HELP)
def batch(
    paths: Annotated[
        list[Path] | None, typer.Argument(help="Folders (recursive), files, .zip files or manifests.")
    ] = None,
    playbook: Annotated[
        str, typer.Option("--playbook", help="A built-in playbook id or a path to a playbook YAML file.")
    ] = "msa-customer",
    we: Annotated[
        str | None,
        typer.Option("--we", help="Which party is us (a name or defined term); part of each review's key."),
    ] = None,
    db: DbOption = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler", help="A Dask scheduler address (tcp://host:8786); default: a local cluster."
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, help="Local worker processes (default: one per core).")
    ] = None,
    resume: Annotated[
        int | None,
        typer.Option("--resume", min=1, help="Continue run RUN_ID (its PATHs and options are stored)."),
    ] = None,
    view: Annotated[
        str, typer.Option(help="Tracked changes in a DOCX: 'accepted' (default) or 'original'.")
    ] = "accepted",
    fmt: Annotated[
        Format, typer.Option("--format", help="table or json (the run summary only).")
    ] = Format.table,
) -> None:
    """Review a data room (see `_HELP`)."""
    from citationgate.batch import run_batch

    if resume is not None and paths:
        raise typer.BadParameter("give either PATH… or --resume RUN_ID, not both", param_hint="--resume")
    if resume is None and not paths:
        raise typer.BadParameter("give at least one PATH (or --resume RUN_ID)", param_hint="PATH")
    with _ProgressBar() as bar:
        summary = run_batch(
            list(paths or ()),
            playbook=playbook,
            db=db,
            scheduler=scheduler,
            workers=workers,
            resume=resume,
            we=we,
            view=view,
            progress=bar.update,
        )
    if fmt is Format.json:
        emit_json(summary)
        return
    for line in summary_lines(summary):
        typer.echo(line)


def summary_lines(s: dict[str, Any]) -> list[str]:
    lines = [
        f"run {s['run']}: {s['entries']} entries, {s['documents']} distinct documents — "
        f"{s['done']} done, {s['withheld']} withheld, {s['failed']} failed"
        + (f", {s['pending']} pending" if s["pending"] else ""),
        f"reviewed now {s['reviewed_now']}, already done {s['skipped_already_done']}, "
        f"{s['seconds']:.1f} s ({s['documents_per_second'] or 0:.2f} documents/s)",
    ]
    for p in s["not_done"]:
        lines.append(f"  {p['status']:<8} {p['path']}: {p['reason']}")
    lines.append(f"portfolio: citationgate portfolio {s['run']}")
    return lines


class _ProgressBar:
    """A rich progress bar on stderr: done / failed / withheld, rate and time left."""

    def __enter__(self) -> _ProgressBar:
        self._bar: Any = None
        self._first: tuple[float, int] | None = None
        return self

    def _start(self) -> None:
        """Started by the first report, so an error before the run starts is the only line on stderr."""
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as RichProgress

        self._bar = RichProgress(
            TextColumn("reviewing"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(
                "done {task.fields[done]} · failed {task.fields[failed]} · withheld {task.fields[withheld]}"
            ),
            TextColumn("· {task.fields[rate]}/s"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            # it changes only when a chunk of documents finishes: redrawn once a second, not rich's ten
            # times (1.6 % of a core on a terminal, taken from the workers when they fill the machine)
            refresh_per_second=1,
        )
        self._bar.__enter__()
        self._task = self._bar.add_task("batch", total=None, done=0, failed=0, withheld=0, rate="0.0")

    def update(self, p: Progress) -> None:
        import time

        if self._bar is None:
            self._start()
        now = time.perf_counter()
        if self._first is None:
            self._first = (now, p.finished)
        t0, f0 = self._first
        rate = (p.finished - f0) / (now - t0) if now > t0 else 0.0
        self._bar.update(
            self._task,
            total=p.total,
            completed=p.finished,
            done=p.done,
            failed=p.failed,
            withheld=p.withheld,
            rate=f"{rate:.1f}",
        )

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)


class PortfolioFormat(StrEnum):
    table = "table"
    csv = "csv"
    xlsx = "xlsx"
    html = "html"
    json = "json"


_PORTFOLIO_HELP = (
    "A batch run as a portfolio: one row per contract, one column per clause type (outcome, key value, "
    "its verified quote and pinpoint), counts per outcome, and the contracts withheld or failed with why.\n\n"
    "--where CLAUSE=OUTCOME (or CLAUSE!=OUTCOME; repeatable, all must hold) keeps the contracts that "
    "match, e.g. --where assignment=unacceptable. xlsx needs --out."
)


@app.command("portfolio", help=_PORTFOLIO_HELP)
def portfolio_command(
    run_id: Annotated[
        int, typer.Argument(help="The batch run (its id is in `citationgate batch`'s summary).")
    ],
    fmt: Annotated[
        PortfolioFormat, typer.Option("--format", help="table, csv, xlsx, html or json.")
    ] = PortfolioFormat.table,
    where: Annotated[
        list[str] | None, typer.Option("--where", help="CLAUSE=OUTCOME or CLAUSE!=OUTCOME (repeatable).")
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write to this file instead of stdout.")] = None,
    db: DbOption = None,
) -> None:
    """A batch run as a portfolio (see `_PORTFOLIO_HELP`)."""
    from citationgate.batch.portfolio import parse_where, portfolio
    from citationgate.batch.render import render_csv, render_html, render_json, render_table, render_xlsx
    from citationgate.store import Store
    from citationgate.store_runs import RunStore

    filters = [parse_where(w) for w in where or ()]
    p = portfolio(RunStore(Store.open(db)), run_id, where=filters)
    if fmt is PortfolioFormat.xlsx:
        if out is None:
            raise typer.BadParameter("xlsx is a binary file: give --out FILE.xlsx", param_hint="--out")
        data: bytes | str = render_xlsx(p)
    elif fmt is PortfolioFormat.csv:
        data = render_csv(p)
    elif fmt is PortfolioFormat.html:
        data = render_html(p)
    elif fmt is PortfolioFormat.json:
        data = render_json(p)
    else:
        data = render_table(p)
    if out is None:
        typer.echo(data, nl=False)
        return
    try:
        if isinstance(data, bytes):
            out.write_bytes(data)
        else:  # escaped as stdout is (a file is read with cat too); HTML is escaped as HTML by its renderer
            out.write_text(data if fmt is PortfolioFormat.html else terminal(data), encoding="utf-8")
    except OSError as exc:
        raise typer.BadParameter(f"{out}: cannot write ({exc.strerror or exc})", param_hint="--out") from None
    info(f"portfolio of run {run_id}: {p['contracts']} contract(s) → {out}")


_FAMILIES_HELP = (
    "The same clause across a batch run: per clause type, families of near-identical located wording "
    "(MinHash LSH confirmed by exact Jaccard ≥ --threshold), each with one representative quote and every "
    "member's word diff to it; --documents adds near-duplicate documents (copies, versions, amendments)."
)


@app.command("families", help=_FAMILIES_HELP)
def families_command(
    run_id: Annotated[int, typer.Argument(help="The batch run.")],
    threshold: Annotated[
        float, typer.Option("--threshold", min=0.1, max=1.0, help="Jaccard similarity of word 3-grams.")
    ] = 0.8,
    rule: Annotated[str | None, typer.Option("--rule", help="Only this clause type (its id).")] = None,
    documents: Annotated[bool, typer.Option("--documents", help="Also near-duplicate documents.")] = False,
    fmt: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
    db: DbOption = None,
) -> None:
    """Clause families of a batch run (see `_FAMILIES_HELP`)."""
    from citationgate.batch.families import clause_families, run_document_families
    from citationgate.store import Store
    from citationgate.store_runs import RunStore

    runs = RunStore(Store.open(db))
    result = clause_families(runs, run_id, threshold=threshold, rule=rule)
    if documents:
        result["documents"] = run_document_families(runs, run_id, threshold=threshold)
    if fmt is Format.json:
        emit_json(result)
        return
    for c in result["clauses"]:
        n_fam = len(c["families"])
        typer.echo(
            f"{c['title']}: {c['documents']} documents, {n_fam} famil{'y' if n_fam == 1 else 'ies'}, "
            f"{c['singletons']} unlike any other"
        )
        for i, f in enumerate(c["families"], start=1):
            rep = f["representative"]
            quote = " ".join(rep["quote"].split())
            quote = quote if len(quote) <= 150 else quote[:147] + "…"
            typer.echo(
                f"  family {i}: {f['size']} documents, {f['identical_to_representative']} word for word — "
                f"“{quote}” ({rep['path']} {rep['pinpoint']})"
            )
            for m in f["members"]:
                if m["identical"]:
                    continue
                changes = "; ".join(_change(d) for d in m["diff"][:4]) + (" …" if len(m["diff"]) > 4 else "")
                typer.echo(f"    {m['similarity']:.2f} {m['path']}: {changes}")
    for d in result.get("documents", []):
        pairs = ", ".join(f"{p['a']} ~ {p['b']} ({p['similarity']:.2f})" for p in d["pairs"][:5])
        typer.echo(f"near-duplicate documents ({d['size']}): {pairs}")


def _change(d: dict[str, str]) -> str:
    if d["op"] == "delete":
        return f"−“{d['from']}”"
    if d["op"] == "insert":
        return f"+“{d['to']}”"
    return f"“{d['from']}” → “{d['to']}”"
