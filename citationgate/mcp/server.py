"""The MCP server: each tool is one library verb (`citationgate.api`), its input and output JSON-Schema'd.

Errors: a tool that fails returns an MCP tool error (`isError: true`) whose text is our one line,
`Error: …` — the CLI's message, never a traceback — and whose structured content is
`{"error": {"message", "exit_code"}}` with the CLI's exit code. (The MCP specification reports a
tool's own failures inside the result, so the calling model sees them and can correct its call;
JSON-RPC errors are for the protocol — an unknown tool, arguments that do not match the input
schema.) A resource that cannot be read is a JSON-RPC error carrying the same `Error: …` message.

Paths: every file an agent names goes through `Roots.resolve` first; a path outside the folders the
server was started with is refused before anything is read.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, ParamSpec, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.types import CallToolResult, TextContent
from pydantic import Field, WithJsonSchema

from citationgate import api
from citationgate.errors import NotFoundError
from citationgate.mcp.roots import Roots
from citationgate.schemas import (
    AbsenceProposalIn,
    AnswerCheckOut,
    AskOut,
    CitationIn,
    FindingsOut,
    IngestOut,
    QuoteProposalIn,
    QuotesOut,
    ReverifyOut,
    ReviewOut,
    ReviewsOut,
    TextOut,
    VerifyOut,
    inline_schema,
)
from citationgate.store import Store
from ingest.errors import CitationGateError

P = ParamSpec("P")
R = TypeVar("R")

EXIT_INTERNAL = 70

INSTRUCTIONS = (
    "CitationGate verifies quotations against a contract's own text. Quotation marks are reserved for "
    "text that was copied: call `verify_quotes` (or `verify`, which records findings) before you put "
    "words from a contract in quotation marks, and `check_answer` on a drafted answer before it is "
    "delivered; if the verdict is 'withheld', do not deliver it — fix the passages it lists. Offsets "
    "are code points into the document version's canonical text, half-open [start, end); `text` in "
    "every result is the document's own words at those offsets."
)

_Path = Annotated[
    str, Field(description="A contract file (.pdf, .docx, .txt or .md) inside a --root folder.")
]
_Proposals = Annotated[
    list[dict[str, Any]],
    WithJsonSchema(inline_schema(list[QuoteProposalIn | AbsenceProposalIn])),
    Field(description="Proposals: claims each quoting the contract (see `citationgate schema proposals`)."),
]


def _error_result(message: str, exit_code: int) -> CallToolResult:
    text = f"Error: {message}"
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content={"error": {"message": text, "exit_code": exit_code}},
        is_error=True,
    )


def _guard(fn: Callable[P, R]) -> Callable[P, R]:
    """Our errors become one `Error: …` tool error; anything else is an internal error, one line too."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except CitationGateError as exc:
            return _error_result(str(exc), exc.exit_code)  # type: ignore[return-value]
        except Exception as exc:  # a bug: reported in one line, never as a traceback
            message = f"internal error ({type(exc).__name__}): {exc} — please report this"
            return _error_result(message, EXIT_INTERNAL)  # type: ignore[return-value]

    return run


def _resource_guard(fn: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except NotFoundError as exc:
            raise ResourceNotFoundError(f"Error: {exc}") from None
        except CitationGateError as exc:
            raise ResourceError(f"Error: {exc}") from None
        except ValueError as exc:
            raise ResourceError(f"Error: {exc}") from None

    return run


def _int(name: str, value: str) -> int:
    if not value.isdigit():
        raise ValueError(f"{name} must be a number, got {value!r}")
    return int(value)


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, default=str)


def build_server(roots: Roots, *, db: str | None = None) -> MCPServer:
    """An MCP server over the store at `db` (None: the default database) that reads only inside `roots`."""
    from citationgate import __version__

    server: MCPServer = MCPServer(
        name="citationgate",
        title="CitationGate",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",  # stdout is the protocol; stderr carries warnings only
    )
    # bm25s sets its own logger to DEBUG when it is imported (later, at the first `ask`), so under the
    # handler the SDK just installed it would print "Building index from tokens" on stderr: a filter stays
    logging.getLogger("bm25s").addFilter(lambda record: record.levelno >= logging.WARNING)
    store_box: list[Store] = []

    def store() -> Store:
        if not store_box:
            store_box.append(Store.open(db))
        return store_box[0]

    def inside(p: str) -> Path:
        return roots.resolve(p)

    def doc_ref(p: str | None, version_id: int | None) -> str | Path | int:
        if (p is None) == (version_id is None):
            from citationgate.errors import UsageError

            raise UsageError("give exactly one of path or version_id")
        return version_id if version_id is not None else inside(str(p))

    @server.tool()
    @_guard
    def ingest(path: _Path, view: Literal["accepted", "original"] = "accepted") -> IngestOut:
        """Read a contract into its canonical text and store the version (reused when the same bytes were
        stored before). Returns the version id, status (ready, or withheld with the reasons: nothing is
        reviewed against a withheld document) and its sections with offsets. The text itself:
        `get_text`."""
        data = api.ingest(inside(path), view=view, store=store())
        data["characters"] = len(data.pop("text"))
        return IngestOut.model_validate(data)

    @server.tool()
    @_guard
    def get_text(
        version_id: Annotated[int, Field(description="A stored version id (from `ingest`).")],
        start: Annotated[int, Field(ge=0, description="First code point.")] = 0,
        end: Annotated[int | None, Field(description="One past the last code point; omit: the end.")] = None,
    ) -> TextOut:
        """The canonical text of a stored document version in [start, end): the offsets every other tool
        reports index into this text."""
        return TextOut.model_validate(api.get_text(version_id, start, end, store=store()))

    @server.tool()
    @_guard
    def ask(
        question: Annotated[str, Field(description='A plain question, e.g. "can they put the price up?"')],
        path: Annotated[str | None, Field(description="A contract file inside a --root folder.")] = None,
        version_id: Annotated[int | None, Field(description="Or a stored version id.")] = None,
        top: Annotated[int, Field(ge=1, le=50)] = 5,
    ) -> AskOut:
        """The clauses that answer a plain-language question, ranked, each with its offsets, the
        document's own text, a confidence 0-100 and why it ranked there."""
        return AskOut.model_validate(api.ask(doc_ref(path, version_id), question, top=top, store=store()))

    @server.tool()
    @_guard
    def verify_quotes(
        quotes: Annotated[
            list[dict[str, Any]],
            WithJsonSchema(inline_schema(list[CitationIn])),
            Field(description='Quotes with optional hints: [{"quote": "...", "section": "11.2"}, ...]'),
        ],
        path: Annotated[str | None, Field(description="A contract file inside a --root folder.")] = None,
        version_id: Annotated[int | None, Field(description="Or a stored version id.")] = None,
    ) -> QuotesOut:
        """Locate each quote verbatim in the contract: verified (one place: offsets and the document's own
        text), ambiguous (every occurrence; add a section/near hint), failed, rejected (under 10
        characters) or unverifiable. Nothing is stored; use `verify` to record findings."""
        return QuotesOut.model_validate(api.verify_quotes(doc_ref(path, version_id), quotes, store=store()))

    @server.tool()
    @_guard
    def verify(path: _Path, proposals: _Proposals) -> VerifyOut:
        """Gate proposals (claims, each quoting the contract) and store them as a review: a finding
        surfaces only if one of its quotes is in the contract at real offsets. Returns the review id and
        every finding with its proposal_id, status, and the document's own words."""
        return VerifyOut.model_validate(
            api.verify(inside(path), {"proposals": proposals}, store=store(), source="proposals")
        )

    @server.tool()
    @_guard
    def review(
        path: _Path,
        playbook: Annotated[str, Field(description="A built-in playbook id, or a YAML file in a root.")] = (
            "msa-customer"
        ),
        view: Literal["accepted", "original"] = "accepted",
        we: Annotated[
            str | None, Field(description="Which party is us (its defined term or name); default: inferred.")
        ] = None,
    ) -> ReviewOut:
        """Review a contract against a playbook: every finding is a verified quote or a disclosed
        absence. Stored; returns the review id, a summary and the findings."""
        pb: str | Path = playbook
        if playbook.endswith((".yaml", ".yml")) or "/" in playbook:
            pb = roots.resolve(playbook)
        return ReviewOut.model_validate(
            api.review(inside(path), playbook=pb, view=view, we=we, store=store())
        )

    @server.tool()
    @_guard
    def reverify(
        review_id: Annotated[int, Field(description="A stored review (from `review` or `verify`).")],
        new_path: Annotated[str, Field(description="The new version of its document, inside a --root.")],
    ) -> ReverifyOut:
        """Re-verify every finding of a stored review against a new version of the document, exact only:
        verified, moved, context_changed or stale (with what the passage became). Stored as a new review."""
        return ReverifyOut.model_validate(api.reverify(review_id, inside(new_path), store=store()))

    @server.tool()
    @_guard
    def check_answer(
        text: Annotated[str, Field(description="The drafted answer (Markdown or plain text).")],
        review_id: Annotated[int, Field(description="The stored review whose findings it cites.")],
    ) -> AnswerCheckOut:
        """Check every quoted passage of a drafted answer against a review's verified quotes. The verdict
        is 'pass' only if every passage is verified under its citation; otherwise the whole answer is
        'withheld' and each failure says what to quote instead. Recorded in the audit log."""
        return AnswerCheckOut.model_validate(api.check_answer(text, review_id, store=store(), name="answer"))

    @server.tool()
    @_guard
    def findings(review_id: Annotated[int, Field(description="A stored review id.")]) -> FindingsOut:
        """A stored review and its findings, as `findings REVIEW_ID --format json` prints them."""
        return FindingsOut.model_validate(api.findings(review_id, store=store()))

    @server.tool()
    @_guard
    def reviews() -> ReviewsOut:
        """Every stored review: id, kind, document, number of findings, playbook."""
        return ReviewsOut.model_validate(api.list_reviews(store=store()))

    # ── resources ────────────────────────────────────────────────────────────────────────────
    @server.resource("citationgate://documents", mime_type="application/json")
    @_resource_guard
    def documents() -> str:
        """Every stored document version: id, name, hash, status, sections found/expected."""
        return _json({"versions": store().list_versions()})

    @server.resource("citationgate://documents/{version_id}", mime_type="application/json")
    @_resource_guard
    def document(version_id: str) -> str:
        """A stored document version as `ingest --format json` prints it (text included)."""
        vid = _int("version_id", version_id)
        return _json({"version_id": vid, **store().get_version(vid).document.to_dict()})

    @server.resource("citationgate://documents/{version_id}/text", mime_type="text/plain")
    @_resource_guard
    def document_text(version_id: str) -> str:
        """A stored document version's canonical text: the text every offset indexes."""
        return store().get_version(_int("version_id", version_id)).document.text

    @server.resource("citationgate://reviews", mime_type="application/json")
    @_resource_guard
    def reviews_index() -> str:
        """Every stored review."""
        return _json(api.list_reviews(store=store()))

    @server.resource("citationgate://reviews/{review_id}", mime_type="application/json")
    @_resource_guard
    def review_resource(review_id: str) -> str:
        """A stored review and its findings."""
        return _json(api.findings(_int("review_id", review_id), store=store()))

    return server


def serve(roots: Roots, *, db: str | None = None) -> None:
    """Run the server over stdio until the client closes it."""
    build_server(roots, db=db).run("stdio")
