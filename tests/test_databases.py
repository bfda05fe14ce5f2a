"""The suite's PostgreSQL fixture is a real server: a fresh schema per test, reachable by URL."""

from __future__ import annotations

from tests.databases import run_sql


def test_each_test_gets_an_empty_schema_of_a_real_server(pg_url: str) -> None:
    assert pg_url.startswith("postgresql+psycopg://")
    assert run_sql(pg_url, "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()") == [(0,)]
    (version,) = run_sql(pg_url, "SHOW server_version")[0]
    assert int(str(version).split(".")[0]) >= 12
