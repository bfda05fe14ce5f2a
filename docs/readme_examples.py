"""The README's JSON examples, generated from real runs over the bundled samples — never edited by hand.

    python docs/readme_examples.py            # rewrite every marked block in README.md
    python docs/readme_examples.py --check    # exit 1 if a block is stale (tests/test_readme_examples.py)

A block is marked by the line `<!-- example: NAME (python docs/readme_examples.py) -->` right above its
```json fence. Each example runs the library verb the CLI command runs (the same value `--format json`
prints) in a fresh database, then shortens it for reading: strings past 72 characters and hashes are cut
with "…", long lists keep their first items and a "…", timestamps become "…". When the engine's
conclusions change (the playbook, the gate, re-verification), the check fails until this is re-run: the
README cannot go on showing numbers the sample no longer gives.

The examples show what the default install (`pip install -e .`) prints: nothing here changes the process's
environment. Run it without `CITATIONGATE_NO_SEMANTIC` set (that switch turns the clause types off).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SAMPLE = ROOT / "sample_contracts" / "northwind_msa.docx"
REDLINE = ROOT / "sample_contracts" / "northwind_msa_redline.docx"
PROPOSALS = ROOT / "examples" / "llm_proposals.json"
MARK = re.compile(
    r"^<!-- example: (?P<name>[a-z-]+) \(python docs/readme_examples.py\) -->\n```json\n.*?\n```$",
    re.M | re.S,
)

sys.path.insert(0, str(ROOT))


# ── the examples ────────────────────────────────────────────────────────────────────────────────
def _verify(db: str) -> Any:
    import citationgate

    data = citationgate.verify(SAMPLE, json.loads(PROPOSALS.read_text(encoding="utf-8")), store=db)
    return {**data, "findings": [data["findings"][0], data["findings"][-1]]}


def _review(db: str) -> Any:
    import citationgate

    data = citationgate.review(SAMPLE, store=db)
    return {**data, "findings": [data["findings"][0], "…"]}


def _reverify(db: str) -> Any:
    import citationgate

    first = citationgate.review(SAMPLE, store=db)
    data = citationgate.reverify(first["review"]["id"], REDLINE, store=db)
    stale = next(f for f in data["findings"] if f["status"] == "stale")
    shifted = next(
        f
        for f in data["findings"]
        if f["status"] == "verified" and any(c.get("shift") for c in f["citations"])
    )
    return {**data, "findings": [stale, shifted, "…"]}


def _ask(db: str) -> Any:
    import citationgate.api

    return citationgate.api.ask(SAMPLE, "can they put the price up?", top=1, store=db)


EXAMPLES: dict[str, Callable[[str], Any]] = {
    "verify": _verify,
    "review": _review,
    "reverify": _reverify,
    "ask": _ask,
}


# ── shortening and layout ───────────────────────────────────────────────────────────────────────
_HEX = re.compile(r"^[0-9a-f]{64}$")
_LONG_LISTS = {"citations": 1, "sections": 2, "why": 2, "edits": 1, "occurrences": 1, "segments": 1}


def shorten(value: Any, key: str = "") -> Any:
    if isinstance(value, dict):
        return {k: shorten(v, k) for k, v in value.items()}
    if isinstance(value, list):
        keep = _LONG_LISTS.get(key, 3)
        items = [shorten(v) for v in value[:keep]]
        return [*items, "…"] if len(value) > keep else items
    if isinstance(value, str):
        if key in ("created_at", "at", "hash"):  # "hash": an audit head, which covers the times
            return "…"
        if _HEX.match(value):
            return value[:8] + "…"
        flat = " ".join(value.split()) if key not in ("text", "quote") else value
        return flat if len(flat) <= 72 else flat[:71] + "…"
    return value


def layout(value: Any, indent: int = 0, width: int = 108) -> str:
    """JSON that reads like the hand-written examples did: a container on one line when it fits, else its
    members packed onto as few lines as fit, a member that does not fit on one line opening its own."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= width or not isinstance(value, dict | list) or not value:
        return flat
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            head = f"{json.dumps(k, ensure_ascii=False)}: "
            items.append(head + layout(v, indent + 1 + len(head), width))
        opening, closing = "{", "}"
    else:
        items = [layout(v, indent + 1, width) for v in value]
        opening, closing = "[", "]"
    lines: list[str] = []
    for item in items:
        if lines and "\n" not in item and "\n" not in lines[-1]:
            joined = f"{lines[-1]}, {item}"
            if indent + 1 + len(joined) <= width:
                lines[-1] = joined
                continue
        lines.append(item)
    return opening + (",\n" + " " * (indent + 1)).join(lines) + closing


def render(name: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        data = EXAMPLES[name](str(Path(tmp) / "examples.db"))
    return layout(shorten(data))


def block(name: str, body: str) -> str:
    return f"<!-- example: {name} (python docs/readme_examples.py) -->\n```json\n{body}\n```"


def regenerate(text: str) -> str:
    names = [m.group("name") for m in MARK.finditer(text)]
    rendered = {n: render(n) for n in dict.fromkeys(names)}
    return MARK.sub(lambda m: block(m.group("name"), rendered[m.group("name")]), text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if README.md's examples are stale")
    args = ap.parse_args()
    old = README.read_text(encoding="utf-8")
    new = regenerate(old)
    if args.check:
        if new != old:
            print("README.md's JSON examples are stale: run python docs/readme_examples.py", file=sys.stderr)
            raise SystemExit(1)
        return
    README.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()
