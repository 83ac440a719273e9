"""A throwaway PostgreSQL server for the tests and the benchmarks: Debian's binaries, a temporary folder, a free port.

PostgreSQL refuses to run as root, and the machines run as root: the cluster then belongs to the
`postgres` user that Debian's packages create, started with `runuser`. It listens on 127.0.0.1
(password logins, as the application makes them) and on a socket in its own folder (the
administrator's logins, by trust). Each `new_database` is owned by a role of its own that is no
superuser, as the README's office server has it.
"""

from __future__ import annotations

import itertools
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Any

BIN = Path(os.environ.get("POSTGRES_BIN", "/usr/lib/postgresql/15/bin"))
SERVICE_USER = "postgres"


def unavailable() -> str | None:
    """Why no throwaway server can be started here (one sentence), or None when it can."""
    if not (BIN / "postgres").exists():
        return f"PostgreSQL's binaries are not at {BIN} (apt-get install postgresql-15)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SERVICE_USER)
        except KeyError:
            return f"running as root, and there is no {SERVICE_USER} user to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return "running as root, and there is no runuser to start PostgreSQL as another user"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -r requirements.txt)"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class PostgresServer:
    """`with PostgresServer() as server: url = server.new_database()`; everything is deleted at the end.

    `durable=False` (the tests) turns off fsync, which only matters if the machine itself crashes;
    the benchmarks keep PostgreSQL's defaults.
    """

    def __init__(self, durable: bool = False) -> None:
        self.durable = durable
        self.folder = Path(tempfile.mkdtemp(prefix="postgres-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self._numbers = itertools.count(1)
        self._as_root = os.geteuid() == 0
        if self._as_root:
            account = pwd.getpwnam(SERVICE_USER)
            os.chown(self.folder, account.pw_uid, account.pw_gid)

    def __enter__(self) -> PostgresServer:
        try:
            self._run(BIN / "initdb", "-D", self.data, "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8",
                      "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync")  # fmt: skip
            self.start()
        except BaseException:
            self.remove()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.remove()

    @property
    def socket_folder(self) -> Path:
        return self.folder

    def start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(BIN / "pg_ctl", "-D", self.data, "-l", self.folder / "log", "-w", "-t", "60", "-o", options, "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (`immediate` is a crash as far as the clients can tell)."""
        self._run(BIN / "pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            subprocess.run(self._command(BIN / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop"),
                           capture_output=True, check=False)  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)

    def admin(self, database: str = "postgres") -> Any:
        """A superuser connection (autocommit) over the server's own socket."""
        import psycopg

        return psycopg.connect(host=str(self.folder), port=self.port, user="postgres", dbname=database, autocommit=True)

    def new_database(self, owner: str | None = None) -> str:
        """A new empty database owned by a new role that is no superuser; its postgresql:// URL (with password)."""
        number = next(self._numbers)
        role, password = owner or f"app{number}", secrets.token_hex(8)
        database = f"history{number}"
        with self.admin() as admin:
            if owner is None:
                admin.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
            else:
                admin.execute(f"ALTER ROLE {role} PASSWORD '{password}'")
            admin.execute(f"CREATE DATABASE {database} OWNER {role} STRATEGY FILE_COPY")
        return self.url(role, password, database)

    def url(self, role: str, password: str, database: str) -> str:
        return f"postgresql://{role}:{password}@127.0.0.1:{self.port}/{database}"

    def drop_database(self, url: str) -> None:
        database = url.rsplit("/", 1)[1]
        with self.admin() as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")

    def _command(self, *arguments: str | Path) -> list[str]:
        command = [str(argument) for argument in arguments]
        return ["runuser", "-u", SERVICE_USER, "--", *command] if self._as_root else command

    def _run(self, *arguments: str | Path) -> None:
        done = subprocess.run(self._command(*arguments), capture_output=True, text=True, check=False)
        if done.returncode != 0:
            log = self.folder / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{arguments[0]} failed ({done.returncode}): {done.stderr.strip()} {tail}")
