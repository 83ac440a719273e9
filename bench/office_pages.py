"""An office's web processes on one store, and signed-in pages in Chromium that note when a text first shows.

Shared by the working-together benchmark (`bench/together_bench.py`) and its browser test: `web_process` runs
`streamlit run streamlit_app.py` with the office's settings, `signed_in` opens a signed-in page in a browser context
of its own, and `watch`/`seen_at` time a text's first appearance in the page's own clock (`Date.now()`, the
machine's clock, as `time.time()` is), from a MutationObserver, so that several pages are watched at once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fakes.ollama import free_port
from history import ChatHistoryDB

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
PASSWORD = {"ann": "ann's long passphrase 2", "bob": "bob's long passphrase 3", "vic": "vic's long passphrase 4"}
Page = Any  # playwright's Page, imported only when a browser runs
Browser = Any

# Notes, in the page's clock, when a watched text first shows from now on (a page drawn again keeps its window).
WATCH = """text => {
  window.__seen = window.__seen || {};
  window.__seen[text] = null;
  const look = () => {
    if (window.__seen[text] === null && document.body.innerText.includes(text)) window.__seen[text] = Date.now();
    return window.__seen[text] !== null;
  };
  if (look()) return;
  const observer = new MutationObserver(() => { if (look()) observer.disconnect(); });
  observer.observe(document.body, {childList: true, subtree: true, characterData: true});
}"""
SEEN = "text => window.__seen && window.__seen[text]"


@contextmanager
def web_process(folder: Path, env: dict[str, str], log: Path | None = None) -> Iterator[tuple[str, int]]:
    """`streamlit run streamlit_app.py` in `folder` (with the app's `.streamlit` settings) and `env`, until the
    block ends: its URL and its process id."""
    if not (folder / ".streamlit").exists():
        shutil.copytree(ROOT / ".streamlit", folder / ".streamlit")
    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", str(ROOT / "streamlit_app.py"), "--server.port", str(port)]
    with log.open("wb") if log is not None else open(os.devnull, "wb") as output:
        process = subprocess.Popen(
            command, cwd=folder, env={**os.environ, "PYTHONPATH": str(ROOT), **env}, stdout=output,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            wait_for_health(url, process)
            yield url, process.pid
        finally:
            process.terminate()
            process.wait(timeout=30)


def wait_for_health(url: str, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError("streamlit did not start")


def signed_in(browser: Browser, url: str, name: str, timeout_ms: float = 60_000) -> Page:
    """A new browser context (a person's own browser) with `name` signed in at `url`."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    page.goto(url)
    settled(page, timeout_ms)
    page.get_by_label("User name").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD[name])
    page.get_by_role("button", name="Sign in").click()
    page.get_by_text(f"Signed in as {name}").first.wait_for()
    settled(page, timeout_ms)
    return page


SCRIPT_STATE = "() => document.querySelector(\"[data-testid='stApp']\")?.getAttribute('data-test-script-state')"


def settled(page: Page, timeout_ms: float = 60_000) -> None:
    """Wait until the page's script run has finished drawing it: text typed into a box that run is still
    drawing can be lost when the run redraws it (the live timer's short runs do not). The page is asked every
    100 ms on a timer of its own (a page's animation frames, which a locator's wait polls on, may be throttled
    while another window has the focus); a page that never settles is said with the state it stayed in."""
    from playwright.sync_api import TimeoutError as PageTimeout

    try:
        page.wait_for_function(f"() => ({SCRIPT_STATE})() === 'notRunning'", polling=100, timeout=timeout_ms)
    except PageTimeout:
        state = page.evaluate(SCRIPT_STATE)
        raise TimeoutError(f"the page's script run did not end in {timeout_ms / 1000:.0f} s (state: {state})") from None


def menu(page: Page, chat_id: int) -> None:
    """Open the "⋮" menu of workspace `chat_id`, once the page's run is over."""
    settled(page)
    page.locator(f".st-key-menu-{chat_id} button").first.click()


def session_kept(page: Page, timeout: float = 60) -> None:
    """Wait until the browser keeps the page's sign-in session in its cookie (a frame of the page sends it), so
    that a new tab of the same browser opens signed in."""
    deadline = time.monotonic() + timeout
    while not any(cookie["name"] == "engineering_session" for cookie in page.context.cookies()):
        if time.monotonic() > deadline:
            raise TimeoutError("the browser kept no sign-in session")
        time.sleep(0.1)


def watch(page: Page, text: str) -> None:
    """Note from now on when `text` first shows in `page` (again, for a text watched before: it must not show now)."""
    page.evaluate(WATCH, text)


def seen_at(page: Page, text: str, timeout_ms: float = 60_000) -> float:
    """When `text` first showed in `page` (watched with `watch`), in seconds since 1970: waited for up to
    `timeout_ms` (a guard against a hang, not a target)."""
    return float(page.wait_for_function(SEEN, arg=text, timeout=timeout_ms).json_value()) / 1000


def stored_at(created_at: str | None) -> float:
    """A time the store wrote (UTC, SQLite's format), in seconds since 1970."""
    assert created_at is not None
    return datetime.strptime(created_at[:26], "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC).timestamp()


def send(page: Page, text: str) -> float:
    """Type a question and send it; when it was sent, in seconds since 1970."""
    settled(page)
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(text)
    sent = time.time()
    box.press("Enter")
    return sent


WORKSPACE = "Footbridge"


@dataclass
class Office:
    """The store, its settings, ann's workspace (one calculation, shared with bob as editor) and her "Tower"."""

    folder: Path
    store: str
    chat_id: int
    tower: int
    figures: dict[str, list[float]] = field(default_factory=dict)

    def note(self, name: str, seconds: float) -> None:
        self.figures.setdefault(name, []).append(seconds)

    def db(self) -> ChatHistoryDB:
        return ChatHistoryDB(self.store)
