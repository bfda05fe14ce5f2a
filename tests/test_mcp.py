"""`citationgate mcp`: the engine over the Model Context Protocol, driven by the SDK's own client.

In-process (`mcp.Client(server)`) for the behaviour, and once over a real stdio subprocess
(`citationgate mcp --root DIR`) the way an agent framework starts it.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed (pip install -e '.[mcp]')")

from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from citationgate.mcp import Roots, build_server

SAMPLES = Path(__file__).resolve().parent.parent / "sample_contracts"
CONTRACT = "northwind_msa.docx"
CAP = "each party’s total aggregate liability arising under or in connection with this Agreement"

TOOLS = {
    "ingest",
    "get_text",
    "ask",
    "verify_quotes",
    "verify",
    "review",
    "reverify",
    "check_answer",
    "findings",
    "reviews",
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "contracts"
    folder.mkdir()
    shutil.copy(SAMPLES / CONTRACT, folder / CONTRACT)
    return folder


def run_client(root: Path, db: Path, body: Callable[[Client], Awaitable[None]]) -> None:
    async def main() -> None:
        async with Client(build_server(Roots.of([root]), db=str(db))) as client:
            await body(client)

    anyio.run(main)


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def call_error(client: Client, tool: str, **arguments: Any) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert "Traceback" not in text
    return text


def test_an_agent_ingests_asks_verifies_and_an_answer_with_one_bad_quote_is_withheld(
    root: Path, db_path: Path
) -> None:
    """The issue's done criterion, end to end through the SDK's client."""

    async def body(client: Client) -> None:
        doc = await call(client, "ingest", path=CONTRACT)
        assert doc["status"] == "ready" and doc["version_id"] >= 1 and doc["sections"]
        asked = await call(client, "ask", version_id=doc["version_id"], question="what is the liability cap?")
        # the cap (7.3) and the exclusion of consequential loss beside it (7.2) are both the liability
        # clause to the locator (CUAD labels both "Cap on Liability"): the agent takes the cap from the two
        top = next(r for r in asked["results"][:2] if CAP in r["text"])
        assert {r["label"] for r in asked["results"][:2]} <= {"7.2", "7.3"}
        text = await call(
            client, "get_text", version_id=doc["version_id"], start=top["start"], end=top["end"]
        )
        assert text["text"] == top["text"]  # offsets index the canonical text

        quotes = await call(
            client,
            "verify_quotes",
            version_id=doc["version_id"],
            quotes=[{"quote": CAP}, {"quote": "each party's total liability is unlimited in every case"}],
        )
        statuses = [q["status"] for q in quotes["quotes"]]
        assert statuses == ["verified", "failed"]
        located = quotes["quotes"][0]
        assert text["text"].find(located["text"]) >= 0 and located["text"] == CAP

        gated = await call(
            client,
            "verify",
            path=CONTRACT,
            proposals=[{"id": "cap", "claim": "Liability is capped.", "citations": [{"quote": CAP}]}],
        )
        (finding,) = gated["findings"]
        assert finding["proposal_id"] == "cap" and finding["status"] == "verified"
        review_id = gated["review"]["id"]

        good = f"The cap: “{CAP}” [{finding['id']}]."
        verdict = await call(client, "check_answer", text=good, review_id=review_id)
        assert verdict["verdict"] == "pass"
        bad = good + f" Also “{CAP} without any limit at all” [{finding['id']}]."
        verdict = await call(client, "check_answer", text=bad, review_id=review_id)
        assert verdict["verdict"] == "withheld" and verdict["failures"] == 1

        stored = await call(client, "findings", review_id=review_id)
        assert stored["findings"][0]["proposal_id"] == "cap"
        listed = await call(client, "reviews")
        assert [r["id"] for r in listed["reviews"]] == [review_id]

    run_client(root, db_path, body)


def test_every_tool_declares_its_input_and_output_schema(root: Path, db_path: Path) -> None:
    async def body(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == TOOLS
        for t in tools.values():
            assert t.input_schema["type"] == "object" and t.description, t.name
            assert t.output_schema is not None and t.output_schema["type"] == "object", t.name
        # the proposals the verify tool takes are the published schema's, hints and all
        item = tools["verify"].input_schema["properties"]["proposals"]["items"]
        shapes = item["anyOf"]
        assert {"citations", "id", "claim"} <= set(shapes[0]["properties"])
        assert "$ref" not in str(tools["verify"].input_schema)

    run_client(root, db_path, body)


@pytest.mark.parametrize(
    "path",
    ["/etc/passwd", "../outside.txt", "link.txt"],
    ids=["absolute path elsewhere", "dot-dot out of the root", "symlink inside pointing out"],
)
def test_a_path_outside_the_roots_is_refused_before_it_is_read(
    root: Path, db_path: Path, tmp_path: Path, path: str
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("1. Secret. The Supplier shall pay everything forever.\n", encoding="utf-8")
    (root / "link.txt").symlink_to(outside)

    async def body(client: Client) -> None:
        for tool, args in [
            ("ingest", {"path": path}),
            ("ask", {"path": path, "question": "who pays?"}),
            ("verify", {"path": path, "proposals": []}),
            ("review", {"path": path}),
        ]:
            message = await call_error(client, tool, **args)
            assert message.startswith(f"Error: {path}: outside the folders this server may read (")

    run_client(root, db_path, body)
    assert not db_path.exists() or b"Secret" not in db_path.read_bytes()


def test_tool_errors_are_our_one_line_error_messages(root: Path, db_path: Path) -> None:
    async def body(client: Client) -> None:
        assert await call_error(client, "findings", review_id=99) == (
            "Error: review 99 is not in the store (see `citationgate findings --list`)"
        )
        message = await call_error(
            client, "verify", path=CONTRACT, proposals=[{"id": "p1", "claim": "c", "citations": [{}]}]
        )
        assert message == "Error: proposals: proposals[0].citations[0].quote: field required"
        assert await call_error(client, "ingest", path="missing.docx") == (
            f"Error: {root / 'missing.docx'}: no such file"
        )
        result = await client.call_tool("findings", {"review_id": 99})
        assert result.structured_content == {
            "error": {
                "message": "Error: review 99 is not in the store (see `citationgate findings --list`)",
                "exit_code": 6,
            }
        }

    run_client(root, db_path, body)


def test_stored_documents_and_reviews_are_resources(root: Path, db_path: Path) -> None:
    async def body(client: Client) -> None:
        doc = await call(client, "ingest", path=CONTRACT)
        vid = doc["version_id"]
        listed = {str(r.uri) for r in (await client.list_resources()).resources}
        assert {"citationgate://documents", "citationgate://reviews"} <= listed
        templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
        assert "citationgate://documents/{version_id}/text" in templates
        text = (await client.read_resource(f"citationgate://documents/{vid}/text")).contents[0]
        got = await call(client, "get_text", version_id=vid)
        assert text.text == got["text"]  # type: ignore[union-attr]
        with pytest.raises(MCPError, match=r"^Error: document version 99 is not in the store"):
            await client.read_resource("citationgate://documents/99/text")

    run_client(root, db_path, body)


def test_the_server_over_a_real_stdio_subprocess(root: Path, db_path: Path) -> None:
    """`citationgate mcp --root DIR` as an agent framework starts it: a child process on stdio."""
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-c",
            "from citationgate.cli import main; main()",
            "mcp",
            "--root",
            str(root),
            "--db",
            str(db_path),
        ],
    )

    async def main() -> None:
        async with Client(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert names == TOOLS
            doc = await call(client, "ingest", path=str(root / CONTRACT))
            quotes = await call(
                client, "verify_quotes", version_id=doc["version_id"], quotes=[{"quote": CAP}]
            )
            assert quotes["quotes"][0]["status"] == "verified"
            refused = await call_error(client, "ingest", path="/etc/hostname")
            assert refused.startswith("Error: /etc/hostname: outside the folders")

    anyio.run(main)


def test_review_then_reverify_the_redline_through_the_server(root: Path, db_path: Path) -> None:
    shutil.copy(SAMPLES / "northwind_msa_redline.docx", root / "redline.docx")

    async def body(client: Client) -> None:
        reviewed = await call(client, "review", path=CONTRACT)
        assert reviewed["review"]["kind"] == "review" and reviewed["findings"]
        assert all(f["status"] in ("verified", "needs_review") for f in reviewed["findings"])
        after = await call(client, "reverify", review_id=reviewed["review"]["id"], new_path="redline.docx")
        assert after["previous_review"] == reviewed["review"]["id"]
        assert sum(after["summary"].values()) == len(reviewed["findings"])
        assert "stale" in after["summary"]
        refused = await call_error(client, "review", path=CONTRACT, playbook="/etc/playbook.yaml")
        assert refused.startswith("Error: /etc/playbook.yaml: outside the folders")

    run_client(root, db_path, body)


def test_the_worked_client_example_runs_its_round_trip(root: Path, db_path: Path) -> None:
    """examples/mcp_client.py (the README's agent example) still does what it says: ingest, ask, verify a
    quote, and a made-up quote withholds the whole answer."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("mcp_client", SAMPLES.parent / "examples" / "mcp_client.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    assert anyio.run(example.main_async, False, root, db_path) == []
