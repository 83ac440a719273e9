"""The web app as a user sees it: `streamlit run` against the fake Ollama, timed in headless Chromium.

Each time runs from the user's action (a key press, a click, a page load) to
the moment the text it waits for is on the screen (checked on every animation
frame). Needs Debian's chromium and the `playwright` package (requirements-dev).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from bench.floors import Figure
from bench.harness import Result, single, summarise
from bench.store_bench import workspace_of
from fakes.ollama import FakeOllama, Hang, Pause, Reply, free_port, is_summary_request
from history import ChatHistoryDB

ROOT = Path(__file__).resolve().parents[1]
# The trivial page runs as Streamlit comes, but never opens a browser or sends usage statistics.
FRAMEWORK_DEFAULTS = "[server]\nheadless = true\n\n[browser]\ngatherUsageStats = false\n"
CHROMIUM = "/usr/bin/chromium"
Page = Any  # playwright's Page, imported only when the suite runs


@contextmanager
def web_app(folder: Path, fake: FakeOllama, page: Path = ROOT / "streamlit_app.py") -> Iterator[str]:
    """`streamlit run page` in `folder`: the application's settings, or for another page Streamlit's own."""
    if page == ROOT / "streamlit_app.py":
        shutil.copytree(ROOT / ".streamlit", folder / ".streamlit")
    else:
        (folder / ".streamlit").mkdir()
        (folder / ".streamlit" / "config.toml").write_text(FRAMEWORK_DEFAULTS, encoding="utf-8")
    port = free_port()
    env = {**os.environ, "ENDPOINT": fake.url, "PYTHONPATH": str(ROOT), "CHAT_HISTORY_DB_PATH": "web.sqlite"}
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(page), "--server.port", str(port)],
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=None if os.environ.get("BENCH_DEBUG") else subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


SHOWN = "text => document.body.innerText.includes(text)"
# From the user's action as the page received it (a pointer press, a key press; for a page load,
# the navigation itself) to the frame in which the text is on the screen, both in the page's clock.
MARK_ACTION = """() => {
  window.__actionAt = null;
  const mark = () => { if (window.__actionAt === null) window.__actionAt = performance.now(); };
  document.addEventListener("pointerdown", mark, {capture: true, once: true});
  document.addEventListener("keydown", mark, {capture: true, once: true});
}"""
ELAPSED = """([text, count]) => document.body.innerText.split(text).length > count
  && performance.now() - (window.__actionAt === undefined || window.__actionAt === null ? 0 : window.__actionAt)"""


def until_shown(page: Page, text: str, timeout_ms: float = 30_000) -> None:
    page.wait_for_function(SHOWN, arg=text, polling="raf", timeout=timeout_ms)


def idle(page: Page) -> None:
    """Wait until the page's script run has ended (Streamlit's running indicator is gone)."""
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=stStatusWidget] [data-testid=stStatusWidgetRunningIcon]')",
        polling="raf",
    )
    time.sleep(0.3)


def timed(action: Callable[[], None], page: Page, text: str) -> float:
    """Milliseconds from `action` (as the page saw it) to `text` on the screen."""
    page.evaluate(MARK_ACTION)
    action()
    elapsed = page.wait_for_function(ELAPSED, arg=[text, 1], polling="raf", timeout=30_000).json_value()
    return float(elapsed)


STOPPED = """text => document.body.innerText.includes(text)
  && !Array.from(document.querySelectorAll("button")).some(b => /\\bStop$/.test(b.innerText.trim()))
  && performance.now() - window.__actionAt"""


def stopped(page: Page, partial_answer: str) -> float:
    """Milliseconds from clicking Stop to the page drawn again without it, the partial answer kept."""
    page.evaluate(MARK_ACTION)
    click(page, "Stop")()
    return float(page.wait_for_function(STOPPED, arg=partial_answer, polling="raf", timeout=30_000).json_value())


def loaded(page: Page, url: str, text: str) -> float:
    """Milliseconds from navigating to `url` to `text` on the screen (the page's own clock starts there)."""
    page.goto(url)
    return float(page.wait_for_function(ELAPSED, arg=[text, 1], polling="raf", timeout=30_000).json_value())


def click(page: Page, name: str) -> Callable[[], None]:
    button = page.get_by_role("button", name=name, exact=True).first
    return lambda: button.click()


def send(page: Page, text: str) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(text)
    box.press("Enter")


def respond(body: dict[str, Any]) -> Reply:
    question = body["messages"][-1]["content"]
    if is_summary_request(body):
        return Reply.then("- summary", Hang(5))
    if question.startswith("stop"):
        return Reply.then(f"Partial {question}", Hang(30))
    return Reply.then(f"First words for {question}", Pause(0.5))


def floor(page: Page, url: str, samples: dict[str, list[float]]) -> None:
    """The trivial page: loaded, then its button clicked until the count it writes has changed."""
    page.goto("about:blank")
    samples["floor load"].append(loaded(page, url, "Clicked 0 times"))
    idle(page)
    samples["floor click"].append(timed(click(page, "Click"), page, "Clicked 1 times"))
    idle(page)


def ratios(samples: dict[str, list[float]]) -> list[Result]:
    """The application's medians over the trivial page's click (the same runs, interleaved)."""
    med = {key: statistics.median(values) for key, values in samples.items()}
    rows = [("page load of a 300-turn workspace", "load"), ("open a 300-turn workspace", "open300"),
            ("Stop → stopped on screen", "stop")]  # fmt: skip
    return [single(f"web: {name}, ratio to the trivial page's click", med[key] / med["floor click"], "×",
                   "(reference)", None) for name, key in rows]  # fmt: skip


def measure(page: Page, url: str, ids: dict[int, int], runs: int, trivial: tuple[Page, str]) -> list[Result]:
    keys = ("load", "open300", "open10k", "first", "stop", "switch", "floor load", "floor click")
    samples: dict[str, list[float]] = {key: [] for key in keys}
    for run in range(runs):
        floor(*trivial, samples)
        page.goto("about:blank")
        samples["load"].append(loaded(page, f"{url}/?chat={ids[300]}", "Question 299 about"))
        idle(page)
        for size, key in ((300, "open300"), (10_000, "open10k")):
            click(page, "Other")()
            until_shown(page, "No turns here yet")
            idle(page)
            samples[key].append(timed(click(page, f"Tower {size}"), page, f"Question {size - 1} about"))
            idle(page)
        click(page, "Busy 300")()
        until_shown(page, "Busy 300")
        idle(page)
        question = f"q{run}"
        samples["first"].append(timed(partial(send, page, question), page, f"First words for {question}"))
        idle(page)
        send(page, f"stop {run}")
        until_shown(page, f"Partial stop {run}")
        samples["stop"].append(stopped(page, f"Partial stop {run}"))
        idle(page)
        samples["switch"].append(timed(click(page, "Other"), page, "No turns here yet"))
        idle(page)
    return [
        summarise("web: page load of a 300-turn workspace", samples["load"], "ms", "(reference)", None),
        summarise("web: open a 300-turn workspace (sidebar click)", samples["open300"], "ms", "≤ 500 ms", 500),
        summarise("web: open a 10,000-turn workspace (sidebar click)", samples["open10k"], "ms", "≤ 1,000 ms", 1000),
        summarise("web: send → first chunk on screen, 300 turns", samples["first"], "ms", "≤ 300 ms", 300),
        summarise("web: Stop → stopped on screen", samples["stop"], "ms", "≤ 500 ms", 500),
        summarise("web: switch while the summary takes 5 s", samples["switch"], "ms", "≤ 200 ms", 200),
        summarise(
            "floor: page load of a trivial Streamlit page (Streamlit's settings)",
            samples["floor load"],
            "ms",
            "(reference)",
            None,
        ),
        summarise(
            "floor: a trivial Streamlit page, click → text (Streamlit's settings)",
            samples["floor click"],
            "ms",
            "(reference)",
            None,
        ),
        *ratios(samples),
    ]


def run(quick: bool) -> list[Result]:
    from playwright.sync_api import sync_playwright

    with FakeOllama() as fake, tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        fake.responder = respond
        ids = {size: workspace_of(folder / "web.sqlite", f"Tower {size}", size) for size in (300, 10_000)}
        workspace_of(folder / "web.sqlite", "Busy 300", 300)  # where questions are sent and stopped
        ChatHistoryDB(folder / "web.sqlite").create_chat("Other")
        (folder / "trivial").mkdir()
        with (
            web_app(folder, fake) as url,
            web_app(folder / "trivial", fake, ROOT / "bench" / "trivial_page.py") as trivial_url,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page, trivial = (browser.new_context(viewport={"width": 1280, "height": 900}).new_page() for _ in "ab")
            page.set_default_timeout(30_000)
            trivial.set_default_timeout(30_000)
            try:
                return measure(page, url, ids, 2 if quick else 7, (trivial, trivial_url))
            finally:
                browser.close()


def page_load_figure(quick: bool) -> list[Figure]:
    """A page load of a 300-turn workspace against the trivial page's click, in interleaved rounds, in Chromium."""
    from playwright.sync_api import sync_playwright

    rounds, each = (2, 1) if quick else (5, 3)
    figure = Figure("web page load with 300 turns", "`streamlit run streamlit_app.py`, the page loaded until its "
                    "newest question shows", "a trivial Streamlit page's click (bench/trivial_page.py)", "ms",
                    "ratio", 5.0)  # fmt: skip
    with FakeOllama() as fake, tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        fake.responder = respond
        chat_id = workspace_of(folder / "web.sqlite", "Tower 300", 300)
        (folder / "trivial").mkdir()
        with (
            web_app(folder, fake) as url,
            web_app(folder / "trivial", fake, ROOT / "bench" / "trivial_page.py") as trivial_url,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page, trivial = (browser.new_context(viewport={"width": 1280, "height": 900}).new_page() for _ in "ab")
            framework: list[float] = []
            try:
                for step in range(rounds * each + 1):  # the first of each, unmeasured, warms the servers
                    samples: dict[str, list[float]] = {"floor load": [], "floor click": []}
                    floor(trivial, trivial_url, samples)
                    page.goto("about:blank")
                    load = loaded(page, f"{url}/?chat={chat_id}", "Question 299 about")
                    idle(page)
                    if step:
                        figure.round([load], samples["floor click"])
                        framework.extend(samples["floor load"])
            finally:
                browser.close()
    figure.extra.append(
        single("web page load with 300 turns: the trivial page's own load (the framework's page, no script of ours)",
               statistics.median(framework), "ms", "(reference)", None)
    )  # fmt: skip
    return [_in_rounds(figure, each)]


def _in_rounds(figure: Figure, each: int) -> Figure:
    """The samples taken one by one, grouped `each` to a round."""
    ours, floors = [s for r in figure.ours_rounds for s in r], [s for r in figure.floor_rounds for s in r]
    figure.ours_rounds = [ours[i : i + each] for i in range(0, len(ours), each)]
    figure.floor_rounds = [floors[i : i + each] for i in range(0, len(floors), each)]
    return figure
