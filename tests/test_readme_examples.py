"""The README's JSON examples are what the sample contracts give today (docs/readme_examples.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("readme_examples", ROOT / "docs" / "readme_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_json_example_in_the_readme_is_generated_and_current() -> None:
    """Stale? Run `python docs/readme_examples.py` and read `git diff README.md` before committing."""
    gen = _generator()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    names = [m.group("name") for m in gen.MARK.finditer(readme)]
    assert sorted(names) == sorted(gen.EXAMPLES), "every example is marked in the README, once"
    assert gen.regenerate(readme) == readme, (
        "README.md's JSON examples are stale: python docs/readme_examples.py"
    )


def test_the_shortened_examples_say_where_they_were_cut() -> None:
    gen = _generator()
    assert gen.shorten("x" * 100) == "x" * 71 + "…"
    assert gen.shorten("a" * 64) == "aaaaaaaa…"
    assert gen.shorten({"created_at": "2026-12-01T10:00:00+00:00"}) == {"created_at": "…"}
    assert gen.shorten({"citations": [1, 2]}) == {"citations": [1, "…"]}
