"""Untrusted JSON in (an agent's proposals, a findings file): read with stated limits, so a hostile file
costs little and fails with one clear error naming the limit, never a crash.

The limits (documented in the README, "Limits"):
"""

from __future__ import annotations

import json
from pathlib import Path

from ingest.errors import CitationGateError, MissingFileError

MAX_JSON_BYTES = 10 * 1024 * 1024  # a proposals or findings file
MAX_JSON_DEPTH = 64  # nesting of objects and arrays
MAX_PROPOSALS = 5_000  # proposals in one file
MAX_QUOTE_CHARS = 20_000  # one proposed quote (a long clause is a few thousand)

__doc__ += f"""
- a JSON file: at most {MAX_JSON_BYTES:,} bytes, nested at most {MAX_JSON_DEPTH} levels;
- proposals: at most {MAX_PROPOSALS:,} in one file, each quote at most {MAX_QUOTE_CHARS:,} characters.
"""


def read_json_file(path: Path, *, error: type[CitationGateError]) -> object:
    """Decode a JSON file within the limits; every problem is `error` naming the file."""
    name = path.name
    if not path.is_file():
        raise MissingFileError(f"{path}: no such file")
    try:
        size = path.stat().st_size
        if size > MAX_JSON_BYTES:
            raise error(
                f"{name}: {size:,} bytes is over the limit of {MAX_JSON_BYTES:,} bytes for a JSON file"
            )
        raw = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{name}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise MissingFileError(f"{name}: cannot be read ({exc.strerror})") from None
    too_deep = error(f"{name}: nested deeper than the limit of {MAX_JSON_DEPTH} levels")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise error(f"{name}: not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise too_deep from None
    if json_depth(data) > MAX_JSON_DEPTH:
        raise too_deep
    return data


def json_depth(value: object) -> int:
    """How deeply objects and arrays nest in `value` (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if depth <= MAX_JSON_DEPTH:  # past the limit, the answer is already known
            stack.extend((c, depth + 1) for c in children)
    return deepest


def json_type(value: object) -> str:
    """How an error names a decoded JSON value's type: "null", "a boolean", "a number", "a string", …"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
