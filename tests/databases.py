"""The suite's databases. A private PostgreSQL cluster: `initdb` into a temporary folder, `pg_ctl` on a
unix socket in that folder (no TCP port is opened), one fresh schema per test (creating a database costs
most of a second; a schema costs nothing), stopped at the end of the session.

The server comes from Debian's packages (`.ci/run` installs them); where no `initdb` is found the tests
that need it skip, saying so. `initdb` refuses to run as root, so as root the cluster runs as the
`postgres` system user the package creates (through `runuser`).
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy

PORT = 5432  # only names the socket file inside the private folder; nothing listens on TCP
DATABASE = "citationgate"


def find_bin_dir() -> Path | None:
    """The newest `/usr/lib/postgresql/*/bin` holding `initdb` and `pg_ctl`, else the ones on PATH."""
    versions = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if p.parent.name.isdigit()]
    for c in sorted(versions, key=lambda p: int(p.parent.name), reverse=True):
        if (c / "initdb").is_file() and (c / "pg_ctl").is_file():
            return c
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    return None


def _as_server_user(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", "postgres", "--", *argv]


@dataclass(frozen=True, slots=True)
class Cluster:
    root: Path  # holds data/ and the socket

    @property
    def socket_dir(self) -> str:
        return str(self.root)

    def url(self, schema: str) -> str:
        """A URL whose connections see only `schema` (and say so in pg_stat_activity)."""
        options = f"-csearch_path%3D{schema}%20-capplication_name%3D{schema}"
        return (
            f"postgresql+psycopg://postgres@/{DATABASE}?host={self.socket_dir}&port={PORT}&options={options}"
        )

    def admin_connect(self, dbname: str = DATABASE):  # type: ignore[no-untyped-def]
        import psycopg

        return psycopg.connect(
            host=self.socket_dir, port=PORT, user="postgres", dbname=dbname, autocommit=True
        )


@contextmanager
def running_cluster(bin_dir: Path) -> Iterator[Cluster]:
    """Start a throw-away cluster; stop it and remove its files on exit."""
    root = Path(tempfile.mkdtemp(prefix="cg-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, user="postgres")
    log = root / "server.log"
    initdb = [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8"]
    subprocess.run(
        _as_server_user([*initdb, "--locale=C", "--no-sync"]),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    options = f"-k {root} -c listen_addresses='' -p {PORT} -F -c max_connections=100"
    pg_ctl = str(bin_dir / "pg_ctl")
    subprocess.run(
        _as_server_user([pg_ctl, "-D", str(data), "-l", str(log), "-o", options, "-w", "start"]),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        cluster = Cluster(root=root)
        with cluster.admin_connect("postgres") as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        yield cluster
    finally:
        subprocess.run(
            _as_server_user([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]),
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        shutil.rmtree(root, ignore_errors=True)


_names = itertools.count(1)


@contextmanager
def fresh_database(cluster: Cluster) -> Iterator[str]:
    """A new empty schema in the cluster (the SQLAlchemy URL that uses it); afterwards its connections are
    ended and it is dropped."""
    name = f"t{os.getpid()}_{next(_names)}"
    with cluster.admin_connect() as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield cluster.url(name)
    finally:
        with cluster.admin_connect() as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", [name]
            )
            conn.execute(f"DROP SCHEMA {name} CASCADE")


def run_sql(url: str, statement: str, **params: object) -> list[tuple[object, ...]]:
    """Run one statement straight against the database, as a person with write access would."""
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.begin() as conn:
            result = conn.execute(sqlalchemy.text(statement), params)
            return [tuple(r) for r in result] if result.returns_rows else []
    finally:
        engine.dispose()
