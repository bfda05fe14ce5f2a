"""An agent's round trip through `citationgate mcp`, with the official MCP SDK's own client.

    pip install -e '.[mcp]'
    python examples/mcp_client.py                   # the server in this process (mcp.Client(server))
    python examples/mcp_client.py --stdio           # `citationgate mcp --root DIR` as a child on stdio

Ingest the sample contract, ask it a question, verify a quote the agent took from the answer, gate that
quote as a finding, then check two answers: one whose quotation is the contract's words (it passes) and one
with a quotation the contract does not contain (the whole answer is withheld). Prints one line per step and
exits 1 if any step does not come out as described. Everything goes to a throw-away database.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

SAMPLE = Path(__file__).resolve().parent.parent / "sample_contracts" / "northwind_msa.docx"
QUESTION = "what is the liability cap?"


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    if result.is_error or result.structured_content is None:
        raise SystemExit(f"{tool}: {result.content[0].text if result.content else 'no result'}")  # type: ignore[union-attr]
    return result.structured_content


async def round_trip(client: Client) -> list[str]:
    """The steps; returns what went wrong (nothing, when the gate behaves)."""
    problems: list[str] = []
    doc = await call(client, "ingest", path=SAMPLE.name)
    print(f"ingest: version {doc['version_id']}, {doc['status']}, {len(doc['sections'])} sections")
    asked = await call(client, "ask", version_id=doc["version_id"], question=QUESTION, top=1)
    top = asked["results"][0]
    print(f"ask: {QUESTION!r} → section {top['label']} [{top['start']}, {top['end']})")
    quote = next(s.strip() for s in top["text"].split("\n") if len(s.strip()) > 40)[:120].rsplit(" ", 1)[0]
    located = (await call(client, "verify_quotes", version_id=doc["version_id"], quotes=[{"quote": quote}]))[
        "quotes"
    ][0]
    print(f"verify_quotes: {located['status']} at [{located.get('start')}, {located.get('end')})")
    if located["status"] != "verified":
        problems.append(f"the quote taken from the answer did not verify: {located['status']}")
    gated = await call(
        client,
        "verify",
        path=SAMPLE.name,
        proposals=[{"id": "cap", "claim": "Liability is capped.", "citations": [{"quote": quote}]}],
    )
    finding = gated["findings"][0]
    print(
        f"verify: review {gated['review']['id']}, finding {finding['id']} ({finding['proposal_id']}) "
        f"{finding['status']}"
    )
    good = f"The cap: “{quote}” [{finding['id']}]."
    bad = f"{good} Also “{quote} without any limit at all” [{finding['id']}]."
    for label, answer, want in (("a true answer", good, "pass"), ("one made-up quote", bad, "withheld")):
        verdict = await call(client, "check_answer", text=answer, review_id=gated["review"]["id"])
        print(f"check_answer ({label}): {verdict['verdict']}")
        if verdict["verdict"] != want:
            problems.append(f"check_answer on {label}: {verdict['verdict']}, expected {want}")
    return problems


async def main_async(stdio: bool, root: Path, db: Path) -> list[str]:
    if stdio:
        exe = shutil.which("citationgate", path=str(Path(sys.executable).parent)) or "citationgate"
        target: Any = StdioServerParameters(command=exe, args=["mcp", "--root", str(root), "--db", str(db)])
    else:
        from citationgate.mcp import Roots, build_server

        target = build_server(Roots.of([root]), db=str(db))
    async with Client(target) as client:
        return await round_trip(client)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stdio", action="store_true", help="start `citationgate mcp` as a child process")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "contracts"
        root.mkdir()
        shutil.copy(SAMPLE, root / SAMPLE.name)
        problems = anyio.run(main_async, args.stdio, root, Path(tmp) / "agent.db")
    for p in problems:
        print(f"FAILED: {p}", file=sys.stderr)
    raise SystemExit(1 if problems else 0)


if __name__ == "__main__":
    main()
