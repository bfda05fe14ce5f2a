"""Validation errors in the YAML's own terms: the line, the dotted path and what was expected."""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any

import yaml
from pydantic import BaseModel

from playbooks.bounded_yaml import BoundedLoader, too_large
from playbooks.errors import PlaybookError
from playbooks.schema.models import (
    PlaybookFile,
)

Marks = dict[tuple[str | int, ...], int]


def _compose(text: str, name: str) -> tuple[Any, Marks]:
    if (why := too_large(text)) is not None:
        raise PlaybookError(f"{name}: {why}")
    loader = BoundedLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise PlaybookError(f"{name}: the file is empty (expected a playbook mapping)")
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise PlaybookError(f"{name}: {line}invalid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise PlaybookError(f"{name}: invalid YAML: {exc}") from None
    finally:
        loader.dispose()
    marks: Marks = {(): node.start_mark.line + 1}

    def walk(n: yaml.Node, path: tuple[str | int, ...]) -> None:
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                key = k.value if isinstance(k, yaml.ScalarNode) else str(k.value)
                marks[(*path, key)] = k.start_mark.line + 1
                walk(v, (*path, key))
        elif isinstance(n, yaml.SequenceNode):
            for i, v in enumerate(n.value):
                marks[(*path, i)] = v.start_mark.line + 1
                walk(v, (*path, i))

    walk(node, ())
    return data, marks


def _line(marks: Marks, loc: tuple[str | int, ...]) -> int:
    for n in range(len(loc), -1, -1):
        if loc[:n] in marks:
            return marks[loc[:n]]
    return 1


def _dotted(loc: tuple[str | int, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _model_fields_at(loc: tuple[str | int, ...]) -> list[str] | None:
    """The field names allowed at `loc` (for "unknown field" messages)."""
    tp: Any = PlaybookFile
    for part in loc:
        tp = _unwrap(tp, part)
        if tp is None:
            return None
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [f.alias or n for n, f in tp.model_fields.items()]
    return None


def _unwrap(tp: Any, part: str | int) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(tp):
            got = _unwrap(arg, part)
            if got is not None:
                return got
        return None
    if origin is list and isinstance(part, int):
        return typing.get_args(tp)[0]
    if origin is dict and isinstance(part, str):
        return typing.get_args(tp)[1]
    if isinstance(tp, type) and issubclass(tp, BaseModel) and isinstance(part, str):
        for n, f in tp.model_fields.items():
            if part in (n, f.alias):
                return f.annotation
    return None


_OUTCOME_TAGS = {"literal['standard'", "TestExpectModel"}


def _describe(name: str, marks: Marks, loc: tuple[str | int, ...], err: Mapping[str, Any]) -> str:
    # pydantic adds union-member tags to the path; drop them so the path reads like the YAML
    clean = tuple(
        p
        for p in loc
        if not (isinstance(p, str) and (p.startswith(("literal[", "function-")) or p in _OUTCOME_TAGS))
    )
    line = _line(marks, clean)
    where = _dotted(clean)
    kind = err.get("type", "")
    if kind == "extra_forbidden":
        allowed = _model_fields_at(clean[:-1])
        expected = f" (expected one of: {', '.join(allowed)})" if allowed else ""
        return f"{name}: line {line}: {where}: unknown field '{clean[-1]}'{expected}"
    if kind == "missing":
        return f"{name}: line {line}: {where}: required field missing"
    got = err.get("input")
    got_s = "" if isinstance(got, dict | list) else f", got {got!r}"
    return f"{name}: line {line}: {where}: {err.get('msg', 'invalid value')}{got_s}"
