"""Loading a playbook from a YAML file or bytes: bounded, validated, compiled."""

from __future__ import annotations

import hashlib
from pathlib import Path

from pydantic import ValidationError

from playbooks.errors import PlaybookError
from playbooks.schema.compile import (
    _compile,
)
from playbooks.schema.compiled import Playbook
from playbooks.schema.messages import (
    _compose,
    _describe,
)
from playbooks.schema.models import (
    PlaybookFile,
)

# ---------------------------------------------------------------------------------------------- loading


def load_playbook_file(path: Path) -> Playbook:
    """Read and validate a playbook YAML file; any problem is a PlaybookError naming file, line and field."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PlaybookError(
            f"{path}: no such playbook file (expected a YAML file or a built-in id)"
        ) from None
    except OSError as exc:
        raise PlaybookError(f"{path}: cannot read the playbook ({exc.strerror})") from None
    return parse_playbook(data, source=str(path))


def parse_playbook(data: bytes, *, source: str, bounded: bool = True) -> Playbook:
    """A playbook from its YAML bytes. Its patterns run under a time bound (`regex_safety`) unless
    `bounded` is False, which only the built-in playbooks, trusted and measured, are loaded with."""
    name = Path(source).name
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PlaybookError(
            f"{name}: not UTF-8 text (byte {exc.start}); a playbook is a UTF-8 YAML file"
        ) from None
    raw, marks = _compose(text, name)
    if not isinstance(raw, dict):
        raise PlaybookError(
            f"{name}: line 1: expected a mapping with schema, id, version, title, our_role, clauses"
        )
    try:
        model = PlaybookFile.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        raise PlaybookError(_describe(name, marks, loc, err)) from None
    clauses, checks = _compile(model, name, marks, bounded=bounded)
    return Playbook(
        bounded=bounded,
        marks=marks,
        id=model.id,
        version=model.version,
        title=model.title,
        our_role=model.our_role,
        sha256=hashlib.sha256(data).hexdigest(),
        source=source,
        model=model,
        clauses=clauses,
        checks=checks,
    )
