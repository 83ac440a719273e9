"""Without accounts the web server serves this computer only, unless the setting that names the risk is set."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from faces.web.exposure import is_loopback, refusal
from fakes.ollama import free_port, wait_until

ROOT = Path(__file__).resolve().parents[1]


def streamlit(address: str, port: int, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "streamlit_app.py"), "--server.address", address,
         "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "EMBED_MODEL": "", **env},
    )  # fmt: skip


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def test_another_address_without_accounts_is_refused_with_one_sentence(isolated: Path) -> None:
    server = streamlit("0.0.0.0", free_port())
    _, stderr = server.communicate(timeout=60)
    assert server.returncode == 2
    assert "Refusing to serve 0.0.0.0 without accounts" in stderr and "ALLOW_UNAUTHENTICATED_NETWORK_ACCESS" in stderr


def test_the_risk_accepted_it_serves(isolated: Path) -> None:
    port = free_port()
    server = streamlit("0.0.0.0", port, ALLOW_UNAUTHENTICATED_NETWORK_ACCESS="true")
    try:
        assert wait_until(lambda: answers(port) or server.poll() is not None, timeout=60)
        assert server.poll() is None
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.parametrize(
    ("address", "loopback"),
    [("127.0.0.1", True), ("127.0.0.2", True), ("::1", True), ("localhost", True), ("0.0.0.0", False),
     ("", False), (None, False), ("192.168.1.5", False), ("::", False)],
)  # fmt: skip
def test_what_counts_as_this_computer(address: str | None, loopback: bool) -> None:
    assert is_loopback(address) is loopback
    assert (refusal(address, "none", False) is None) is loopback
    assert refusal(address, "none", True) is None
    assert refusal(address, "accounts", False) is None  # everyone signs in on the page


def test_a_forwarded_address_counts_only_from_a_trusted_proxy() -> None:
    from faces.web.client_address import ClientAddress

    async def inner(scope: object, receive: object, send: object) -> None:  # pragma: no cover - never called
        return None

    nobody = ClientAddress(inner)
    assert nobody.client("203.0.113.9", ["203.0.113.9"]) == "127.0.0.1", "taken from the header by uvicorn: here"
    assert nobody.client("198.51.100.4", ["203.0.113.9"]) == "198.51.100.4", "the peer itself"
    caddy = ClientAddress(inner, trusted="172.18.0.0/16, 10.0.0.5")
    assert caddy.client("172.18.0.5", ["203.0.113.7"]) == "203.0.113.7", "the client the proxy names"
    assert caddy.client("172.18.0.5", ["1.1.1.1", "203.0.113.7"]) == "203.0.113.7", "not what the client claimed"
    assert caddy.client("198.51.100.4", ["1.1.1.1"]) == "198.51.100.4", "an untrusted peer's header is ignored"
    assert caddy.client("::ffff:10.0.0.5", ["203.0.113.8"]) == "203.0.113.8"
