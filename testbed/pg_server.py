"""A throwaway PostgreSQL server for the tests and the cluster bench, from Debian's binaries.

``initdb`` and ``pg_ctl`` refuse to run as root, and CI runs as root, so they run as the
``postgres`` user the package creates (``runuser``); as anyone else they run as that user. The
server lives in a fresh temporary folder (world-traversable so that user can reach it), listens
on 127.0.0.1 on a free port, runs with ``fsync=off`` (nothing here must survive a power cut),
and is stopped and removed by :meth:`PgServer.stop`.

``MISTBORN_TEST_DATABASE_URL`` points at an existing server instead (a developer's own); each
test then gets its own database on it.
"""

import asyncio
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

EXISTING = "MISTBORN_TEST_DATABASE_URL"


class PgUnavailable(Exception):
    """No PostgreSQL server could be started here; the message says why."""


def find_bindir() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: Debian's newest, or the ones on PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PgServer:
    """A running server: its admin URL, and where it lives (None for an existing one)."""

    url: str
    directory: Path | None = None
    bindir: Path | None = None
    user_prefix: list[str] = field(default_factory=list)

    def database_url(self, name: str) -> str:
        return self.url.rsplit("/", 1)[0] + "/" + name

    async def create_database(self) -> str:
        """A new empty database on the server; its URL."""
        name = "t_" + uuid.uuid4().hex[:16]
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.database_url(name)

    async def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    def stop(self) -> None:
        if self.directory is None or self.bindir is None:
            return
        subprocess.run(
            [
                *self.user_prefix,
                str(self.bindir / "pg_ctl"),
                "-D",
                str(self.directory / "data"),
                "-m",
                "fast",
                "stop",
            ],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(self.directory, ignore_errors=True)


def missing() -> str | None:
    """Why no server can be started here, or None when one can (or is given)."""
    if os.environ.get(EXISTING) or find_bindir() is not None:
        return None
    return (
        "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH); "
        f"install Debian's postgresql package or set {EXISTING}"
    )


def start_server() -> PgServer:
    """Start a fresh server, or use ``MISTBORN_TEST_DATABASE_URL``; :class:`PgUnavailable` if neither."""
    existing = os.environ.get(EXISTING)
    if existing:
        return PgServer(url=existing)
    bindir = find_bindir()
    if bindir is None:
        raise PgUnavailable(missing() or "no initdb")
    prefix: list[str] = []
    directory = Path(tempfile.mkdtemp(prefix="mistborn-pg-"))
    directory.chmod(0o755)
    if os.geteuid() == 0:
        prefix = ["runuser", "-u", "postgres", "--"]
        shutil.chown(directory, "postgres")
    data = directory / "data"
    try:
        subprocess.run(
            [*prefix, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"],
            check=True,
            capture_output=True,
        )
        for _ in range(5):
            port = free_port()
            options = f"-c listen_addresses=127.0.0.1 -p {port} -k {directory} -c fsync=off"
            options += " -c max_connections=200 -c full_page_writes=off -c synchronous_commit=off"
            started = subprocess.run(
                [
                    *prefix,
                    str(bindir / "pg_ctl"),
                    "-D",
                    str(data),
                    "-o",
                    options,
                    "-l",
                    str(directory / "log"),
                    "-w",
                    "start",
                ],
                check=False,
                capture_output=True,
            )
            if started.returncode == 0:
                return PgServer(
                    url=f"postgresql://postgres@127.0.0.1:{port}/postgres",
                    directory=directory,
                    bindir=bindir,
                    user_prefix=prefix,
                )
    except (OSError, subprocess.CalledProcessError) as error:
        shutil.rmtree(directory, ignore_errors=True)
        raise PgUnavailable(f"PostgreSQL could not start: {error}") from error
    log = (directory / "log").read_text(errors="replace")[-500:] if (directory / "log").exists() else ""
    shutil.rmtree(directory, ignore_errors=True)
    raise PgUnavailable(f"PostgreSQL could not start: {log}")


async def wait_ready(url: str, seconds: float = 10.0) -> None:
    """Wait until the server takes connections."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        try:
            conn = await asyncpg.connect(url)
        except (OSError, asyncpg.PostgresError):
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.1)
        else:
            await conn.close()
            return
