"""The office stack as `docker-compose.yml` ships it: accounts on, the web processes reached only through the
reverse proxy, which alone may name a client; and its Caddyfile is one Caddy reads (the browser test runs it)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_the_compose_file_runs_accounts_behind_the_proxy_on_postgresql() -> None:
    stack = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = stack["services"]
    webs = [name for name, service in services.items() if "build" in service]
    assert webs == ["app1", "app2"], "two web processes"
    for name in webs:
        settings = services[name]["environment"]
        assert settings["AUTH"] == "accounts" and settings["DATABASE_URL"].startswith("postgresql://")
        assert "ALLOW_UNAUTHENTICATED_NETWORK_ACCESS" not in settings
        assert settings["TRUSTED_PROXIES"] == stack["networks"]["office"]["ipam"]["config"][0]["subnet"]
        assert "ports" not in services[name], "reached through the proxy only"
    assert [name for name, service in services.items() if "ports" in service] == ["caddy"]
    assert services["caddy"]["environment"]["WEB_PROCESSES"] == "app1:8501 app2:8501"


def test_the_caddyfile_is_valid() -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        if os.environ.get("CI"):
            raise RuntimeError("caddy is missing: .ci/run installs Debian's caddy package")
        pytest.skip("caddy is not installed (apt-get install -y caddy)")
    checked = subprocess.run(
        [caddy, "validate", "--config", str(ROOT / "docker" / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert checked.returncode == 0 and "Valid configuration" in checked.stdout + checked.stderr, checked.stderr
