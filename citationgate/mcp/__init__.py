"""`citationgate mcp`: the engine as a Model Context Protocol server over stdio.

A thin adapter over the library's verbs (`citationgate.api`), so an agent gets exactly what the CLI
prints with `--format json`: tools `ingest`, `get_text`, `ask`, `verify_quotes`, `verify`, `review`,
`reverify`, `check_answer`, `findings`, `reviews`; resources for stored documents and reviews. The
server reads files only inside the folders it was started with (`Roots`). Needs the `mcp` extra:
`pip install 'citationgate[mcp]'`.
"""

from citationgate.mcp.roots import OutsideRootsError, Roots
from citationgate.mcp.server import build_server, serve

__all__ = ["OutsideRootsError", "Roots", "build_server", "serve"]
