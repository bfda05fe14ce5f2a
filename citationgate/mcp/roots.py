"""The folders an MCP server may read: every path an agent names is resolved and checked against them.

A path is resolved (symbolic links followed, `..` collapsed) before the check, so neither
`root/../etc/passwd` nor a link inside a root that points outside it gets through. A relative path is
taken relative to the first root.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ingest.errors import CitationGateError


class OutsideRootsError(CitationGateError):
    """A path outside every folder the server was started with (`--root`): refused, never read."""

    exit_code = 3


@dataclass(frozen=True, slots=True)
class Roots:
    folders: tuple[Path, ...]

    @classmethod
    def of(cls, folders: Sequence[str | Path]) -> Roots:
        """The given folders, resolved; each must exist and be a directory."""
        resolved: list[Path] = []
        for f in folders:
            p = Path(f).expanduser().resolve()
            if not p.is_dir():
                raise OutsideRootsError(f"{f}: --root must be an existing folder")
            resolved.append(p)
        if not resolved:
            raise OutsideRootsError("give at least one --root folder the server may read")
        return cls(tuple(resolved))

    def resolve(self, path: str | Path) -> Path:
        """`path` resolved inside a root, or `OutsideRootsError` naming the roots."""
        p = Path(path).expanduser()
        if not p.is_absolute():
            p = self.folders[0] / p
        real = p.resolve()
        if any(real == root or real.is_relative_to(root) for root in self.folders):
            return real
        allowed = ", ".join(str(r) for r in self.folders)
        raise OutsideRootsError(f"{path}: outside the folders this server may read ({allowed})")
