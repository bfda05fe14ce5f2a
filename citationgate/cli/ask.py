"""`citationgate ask FILE "question"`: ranked clauses that say why they ranked there."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from citationgate.cli.app import DbOption, Format, app, emit_json, info
from ingest.errors import CitationGateError, MissingFileError

if TYPE_CHECKING:  # the retriever (bm25s, numpy, wordllama) and the store load when a question is asked
    from ingest.document import Document
    from playbooks.rerank import RerankOutcome
    from playbooks.retrieve import RetrievalHit

EXIT_WITHHELD = 5
EXIT_BAD_RESPONSE = 4


class WithheldError(CitationGateError):
    """The document was not read whole, so nothing is searched in it."""

    exit_code = EXIT_WITHHELD


@app.command()
def ask(
    file: Annotated[
        Path | None, typer.Argument(help="A contract: .pdf, .docx, .txt or .md (omit with --all).")
    ] = None,
    question: Annotated[str, typer.Argument(help='A plain question, e.g. "can they put the price up?"')] = "",
    top: Annotated[int, typer.Option("--top", min=1, help="How many clauses to show.")] = 5,
    fmt: Annotated[Format, typer.Option("--format", help="table or json.")] = Format.table,
    rerank_response: Annotated[
        Path | None,
        typer.Option(
            "--rerank-response",
            help='An outside model\'s reordering: JSON [{"id": "<result id>", "relevance": 0-1}, …]. '
            "Unknown ids are discarded, omitted results appended; anything else is rejected.",
        ),
    ] = None,
    all_docs: Annotated[
        bool, typer.Option("--all", help="Search every ready document in the store instead of FILE.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Find the clauses that answer a plain-language question, with confidence and reasons.

    FILE is ingested (or reused by its hash). With --all, give only the question.
    """
    if all_docs and file is not None and not question:
        question, file = str(file), None  # `ask --all "question"`: the one argument is the question
    if not question.strip():
        raise typer.BadParameter(
            'give a question, e.g. citationgate ask msa.docx "can they put the price up?"'
        )
    from citationgate.store import Store
    from citationgate.versions import ingest_file
    from playbooks.rerank import rerank
    from playbooks.retrieve import ClauseRetriever

    store = Store.open(db)
    documents: list[Document]
    prefixes: list[str] | None = None
    if all_docs:
        if file is not None:
            raise typer.BadParameter("give either FILE or --all, not both")
        versions = store.ready_versions()
        if not versions:
            raise MissingFileError("no ready documents in the store (run `citationgate ingest FILE` first)")
        documents = [v.document for v in versions]
        prefixes = [f"v{v.id}:" for v in versions]
    else:
        if file is None:
            raise typer.BadParameter("give a FILE to ask about (or --all)")
        version, _ = ingest_file(store, file)
        doc = version.document
        if not doc.ready:
            why = "; ".join(doc.reasons) or "not read whole"
            raise WithheldError(f"{doc.name}: withheld ({why}); nothing is searched in it")
        documents = [doc]
    retriever = ClauseRetriever(documents, prefixes=prefixes)
    if retriever.clause_types is None:
        info("note: meaning-based ranking unavailable (not read as clause types); keywords alone")
    hits = retriever.search(question, top=top)

    outcome: RerankOutcome[RetrievalHit] | None = None
    if rerank_response is not None:
        try:
            raw = rerank_response.read_bytes()
        except OSError as exc:
            raise MissingFileError(
                f"{rerank_response}: cannot read the rerank response ({exc.strerror})"
            ) from None
        outcome = rerank(hits, raw, source=rerank_response.name)
        hits = list(outcome.order)
        if outcome.error is not None:
            info(f"Error: {outcome.error}; the original order is kept")
        else:
            for d in outcome.discarded:
                info(f"rerank: discarded '{d}' (not one of the results)")
            if outcome.appended:
                info(f"rerank: appended in original order (not ranked): {', '.join(outcome.appended)}")

    if fmt is Format.json:
        data: dict[str, Any] = {
            "question": question,
            "results": [h.to_dict(with_document=all_docs) for h in hits],
        }
        if outcome is not None:
            data["rerank"] = {
                "applied": outcome.applied,
                "error": outcome.error,
                "discarded": list(outcome.discarded),
                "appended": list(outcome.appended),
            }
        emit_json(data)
    else:
        _print_table(question, hits, all_docs=all_docs)
    if outcome is not None and not outcome.applied:
        raise typer.Exit(EXIT_BAD_RESPONSE)


def _print_table(question: str, hits: list[RetrievalHit], *, all_docs: bool) -> None:
    typer.echo(f"Q: {question}")
    if not hits:
        typer.echo("No clauses found.")
        return
    for n, h in enumerate(hits, start=1):
        page = "n/a" if h.page is None else str(h.page)
        where = f"{h.document}  " if all_docs else ""
        typer.echo("")
        typer.echo(
            f"{n}. [{h.id}] {where}{h.label}  page {page}  chars {h.start}–{h.end}  confidence {h.confidence}"
        )
        # the clause's own text, as it stands in the document (quotation marks are for copied text only)
        shown = h.text if len(h.text) <= 800 else h.text[:800]
        typer.echo(textwrap.indent(shown, "   | ", predicate=lambda _line: True))
        if len(h.text) > 800:
            typer.echo(f"   [{len(h.text) - 800} more characters; --format json has the whole clause]")
        parts = ", ".join(f"{k} {v:+d}" for k, v in h.breakdown.items())
        typer.echo(f"   confidence: {parts}")
        for w in h.why:
            typer.echo(f"   why: {w}")
