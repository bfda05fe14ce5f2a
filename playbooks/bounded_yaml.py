"""YAML for playbooks and bridges, read with limits a hostile file cannot get past.

A few hundred bytes of YAML aliases (`&a [*b, *b, …]` nested ten deep) expand to billions of nodes, and
deep nesting exhausts the parser's recursion. A playbook never needs either: aliases are refused (write
the value out), nesting is limited, and so is the file's size. Each refusal is a YAML error at the line
where it happens, so the playbook error names the file, the line and the limit.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.composer import ComposerError

MAX_YAML_BYTES = 2 * 1024 * 1024
MAX_YAML_DEPTH = 50


class BoundedLoader(yaml.SafeLoader):
    """`yaml.SafeLoader` without aliases and with at most `MAX_YAML_DEPTH` levels of nesting."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            raise ComposerError(
                None, None, "aliases (*name) are not allowed here: write the value out", self._mark()
            )
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise ComposerError(
                    None,
                    None,
                    f"nested deeper than the limit of {MAX_YAML_DEPTH} levels",
                    self._mark(),
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def _mark(self) -> Any:
        return self.peek_event().start_mark  # type: ignore[no-untyped-call]


def too_large(data: bytes | str) -> str | None:
    """Why a YAML file is refused for its size, or None."""
    size = len(data.encode() if isinstance(data, str) else data)
    if size > MAX_YAML_BYTES:
        return f"{size:,} bytes is over the limit of {MAX_YAML_BYTES:,} bytes for a YAML file"
    return None


def load(text: str) -> Any:
    """`yaml.safe_load` within the limits (raises `yaml.YAMLError` subclasses)."""
    if (why := too_large(text)) is not None:
        raise yaml.YAMLError(why)
    loader = BoundedLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()
