"""Finding playbooks (built-in ids or paths) and running a playbook's own embedded tests."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from ingest.document import Document, Fidelity
from ingest.sections import detect_sections
from playbooks.engine import run_playbook
from playbooks.errors import PlaybookError
from playbooks.outcome import PlaybookTestResult
from playbooks.schema import Playbook, TestExpectModel, load_playbook_file, parse_playbook

__all__ = ["BUILTIN_DIR", "document_from_text", "list_playbooks", "load_playbook", "run_tests"]

BUILTIN_DIR = Path(__file__).resolve().parent / "builtin"


def _builtin_paths() -> dict[str, Path]:
    return {p.stem: p for p in sorted(BUILTIN_DIR.glob("*.yaml"))}


@lru_cache(maxsize=32)
def _load_cached(path: str, sha: str) -> Playbook:
    return parse_playbook(Path(path).read_bytes(), source=path, bounded=False)  # built-in: trusted, on re


def load_playbook(ref: str | Path) -> Playbook:
    """A built-in playbook by id ("msa-customer") or a playbook YAML file by path."""
    builtins = _builtin_paths()
    if isinstance(ref, str) and ref in builtins:
        path = builtins[ref]
        data = path.read_bytes()
        return _load_cached(str(path), hashlib.sha256(data).hexdigest())
    path = Path(ref)
    if not path.exists():
        known = ", ".join(builtins) or "none"
        raise PlaybookError(
            f"{ref}: no such playbook (expected a built-in id — {known} — or a YAML file path)"
        )
    if path.is_dir():
        raise PlaybookError(f"{ref}: is a directory (expected a playbook YAML file)")
    return load_playbook_file(path)


def list_playbooks() -> list[Playbook]:
    """The built-in playbooks, by id."""
    return [load_playbook(pid) for pid in _builtin_paths()]


def document_from_text(text: str, *, name: str = "playbook-test.txt") -> Document:
    """A ready Document for a few lines of clause text, with its sections detected as ingest would."""
    scan = detect_sections(text)
    return Document(
        name=name,
        file_type="txt",
        text=text,
        source_sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        sections=tuple(scan.sections),
        fidelity=Fidelity(value=1.0, method="identity", detail="playbook test text"),
    )


def run_tests(playbook: Playbook) -> list[PlaybookTestResult]:
    """Run the playbook's embedded `tests:` — each clause text → the outcome it must get."""
    results: list[PlaybookTestResult] = []
    for i, t in enumerate(playbook.model.tests):
        doc = document_from_text(t.text)
        outcomes = run_playbook(doc, playbook)
        for rule, exp in t.expect.items():
            name = t.name or f"test {i + 1}"
            label = f"{name}: {rule}"
            expected = exp.outcome if isinstance(exp, TestExpectModel) else exp
            got = [o for o in outcomes if o.rule == rule]
            got_outcome = got[0].outcome if got else "(no outcome)"
            passed = got_outcome == expected
            detail = got[0].reason if got else "the rule produced no outcome for this text"
            if passed and isinstance(exp, TestExpectModel):
                for field, want in exp.values.items():
                    ev = got[0].extracted.get(field)
                    have = ev.value if ev is not None else None
                    if have != want:
                        passed = False
                        detail = f"{field}: expected {want!r}, got {have!r}"
                        break
            for o in got:
                for q in o.quotes:
                    if doc.text[q.start : q.end] != q.text:
                        passed, detail = False, f"quote does not slice back at {q.start}:{q.end}"
            results.append(
                PlaybookTestResult(
                    name=label, passed=passed, expected=expected, got=got_outcome, detail=detail
                )
            )
    return results
