"""Shared fixtures. No test touches a real user database: every test gets its own SQLite file, and tests
that take `db_url` run once on SQLite and once on a fresh database of a private PostgreSQL cluster."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.databases import Cluster, find_bin_dir, fresh_database, running_cluster

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


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A private PostgreSQL server for the whole session (started once), or a skip saying why not."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        pytest.skip("PostgreSQL server not installed (no initdb under /usr/lib/postgresql/*/bin or on PATH)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg not installed (pip install -e '.[dev]')")
    with running_cluster(bin_dir) as cluster:
        yield cluster


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database."""
    with fresh_database(pg_cluster) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, _isolated_db: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The test's database, SQLite and then PostgreSQL: `CITATIONGATE_DB` points at it."""
    url = f"sqlite:///{_isolated_db}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    monkeypatch.setenv("CITATIONGATE_DB", url)
    return url
