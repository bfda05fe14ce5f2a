"""Shared fixtures. No test touches a real user database: every test gets its own SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
SAMPLES = ROOT / "sample_contracts"


@pytest.fixture(autouse=True)
def _isolated_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "citationgate-test.db"
    monkeypatch.setenv("CITATIONGATE_DB", str(db))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return db


@pytest.fixture
def db_path(_isolated_db: Path) -> Path:
    return _isolated_db


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """`../shared/data` beside the checkout; tests that need it skip with the reason when it is absent."""
    if not (SHARED_DATA / "cuad" / "annotations.jsonl").is_file():
        pytest.skip(
            f"real-contract data not found at {SHARED_DATA} (expected ../shared/data beside the checkout)"
        )
    return SHARED_DATA
