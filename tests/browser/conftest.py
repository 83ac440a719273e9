"""The real browser: `streamlit run` against the fake Ollama, driven by Playwright in Chromium.

Fixtures `web_app` (the app's URL) and `browser` (a page that records outside requests and
script dialogs), and `send` to type a question.

A text is waited for with `.first`: while the page is redrawn after a live turn, Streamlit keeps the
streamed copy (with its cursor) until the redraw ends, so for a moment the answer is there twice.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bench.office_pages import settled, wait_for_health
from fakes.ollama import FakeOllama, free_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS", ROOT / "test-artifacts"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-quic",
    "--no-first-run",
    "--disable-sync",
]

try:
    from playwright.sync_api import Dialog, Page, expect, sync_playwright
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("playwright is not installed (pip install -r requirements-dev.txt)", allow_module_level=True)
if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium package")
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install -y chromium)", allow_module_level=True)


@contextmanager
def streamlit_server(
    folder: Path, env: dict[str, str], *options: str, log: Path | None = None, port: int | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`streamlit run streamlit_app.py` in `folder`, with `env` added to this process's, on `port` (else a free
    one), until the block ends: its URL and its process. Its output goes to `log`, if given."""
    port = port or free_port()
    command = [sys.executable, "-m", "streamlit", "run", str(ROOT / "streamlit_app.py"), "--server.port", str(port)]
    with log.open("wb") if log is not None else open(os.devnull, "wb") as output:
        process = subprocess.Popen(
            [*command, "--server.headless", "true", "--browser.gatherUsageStats", "false", *options],
            cwd=folder,
            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1", **env},
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_for_health(url, process)
            yield url, process
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:  # every thread's stack goes to the log (PYTHONFAULTHANDLER)
                    process.send_signal(signal.SIGABRT)
                    process.wait(timeout=30)
                    warnings.warn(f"streamlit on port {port} took over 30 s to stop; its threads: {log}", stacklevel=1)


@pytest.fixture
def web_app(fake_ollama: FakeOllama, isolated: Path) -> Iterator[str]:
    shutil.copytree(ROOT / ".streamlit", isolated / ".streamlit")
    with streamlit_server(isolated, {"ENDPOINT": fake_ollama.url}) as (url, _):
        yield url


@dataclass
class Browser:
    """A page, and what it did that it should not: requests leaving the machine, script dialogs."""

    page: Page
    outside_requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    policy_violations: list[str] = field(default_factory=list)  # what the Content-Security-Policy refused

    def refused(self, console_text: str) -> None:
        if "Content Security Policy" in console_text:
            self.policy_violations.append(console_text)

    def dismiss(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()


@pytest.fixture
def browser(web_app: str) -> Iterator[Browser]:
    yield from _browser(web_app, policy=True)


@pytest.fixture
def browser_without_policy(web_app: str) -> Iterator[Browser]:
    """The page with its Content-Security-Policy ignored: what the Markdown alone lets through is fetched."""
    yield from _browser(web_app, policy=False)


def _browser(web_app: str, policy: bool) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = chromium.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=not policy)
        page = context.new_page()
        seen = Browser(page)
        local = (web_app, "data:", "blob:")
        page.on("request", lambda r: None if r.url.startswith(local) else seen.outside_requests.append(r.url))
        page.on("dialog", lambda dialog: seen.dismiss(dialog))
        page.on(
            "console", lambda m: seen.policy_violations.append(m.text) if "Content Security Policy" in m.text else None
        )
        page.set_default_timeout(30_000)
        expect.set_options(timeout=30_000)  # an assertion's wait too, not only an action's: only a hang fails it
        yield seen
        chromium.close()
        assert seen.policy_violations == [], "the app's own page must work within its Content-Security-Policy"


def send(page: Page, text: str) -> None:
    settled(page)
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(text)
    box.press("Enter")


def told_at_next_click(page: Page) -> None:
    """The page says its user was signed out (a password or role changed) at their next click, or before it: an
    open page looks again every LIVE_SECONDS (`faces.web.live`) and, its user's access changed, is signed out then,
    the button to click going with the page it was on."""
    ended = page.get_by_text("your password or role changed")
    if not ended.is_visible():
        with contextlib.suppress(PlaywrightTimeoutError):  # the page was signed out before the click
            page.get_by_role("button", name="New workspace").click(timeout=5_000)
    expect(ended).to_be_visible()
