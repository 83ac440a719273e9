"""Nothing leaves the machine, whatever the text says: hostile Markdown in every route text takes to the page.

The model's answer and its thinking, a workspace file the model echoes, the digital-twin summary, the user's own
message and a workspace's name each carry every payload of `tests/hostile_markdown.py`, each pointing at its own
URL on a trap server. Counted: requests the browser made to any origin but the app's, requests the trap server
received, elements in the page that would load something from outside, and what the page's Content-Security-Policy
refused (it would refuse an image the Markdown let through, so the elements are counted as well).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.browser.conftest import Browser, send
from tests.hostile_markdown import document, payloads, read_before_code_payloads

# Every element attribute that makes the browser fetch (links are only followed when clicked, so `a[href]` is not).
OUTSIDE_LOADS = """() => {
  const outside = (url) => url && !url.startsWith(location.origin) && !/^(data|blob|about|javascript):/i.test(url);
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    for (const name of ['src', 'srcset', 'poster', 'data', 'background']) {
      const value = el.getAttribute(name);
      const url = value && new URL(value.split(/[ ,]/)[0], location.href).href;
      if (outside(url)) found.push(`${el.tagName} ${name}=${value}`);
    }
    if (['LINK', 'IMAGE', 'USE'].includes(el.tagName)) {
      const value = el.getAttribute('href') || el.getAttribute('xlink:href');
      if (value && outside(new URL(value, location.href).href)) found.push(`${el.tagName} href=${value}`);
    }
    const style = el.getAttribute('style') || '';
    if (/url\\(/i.test(style)) found.push(`${el.tagName} style=${style}`);
  }
  return found;
}"""


class Trap:
    """A server standing for "outside": it records every request that reaches it."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        trap = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                trap.hits.append(self.path)
                self.send_response(404)
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.host = f"127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(autouse=True)
def room_for_every_payload(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The payloads come to about 20,000 tokens in one turn: a context as large as the fake model's."""
    monkeypatch.setenv("NUM_CTX", "40960")


@pytest.fixture
def trap() -> Iterator[Trap]:
    made = Trap()
    yield made
    made.close()


def test_hostile_markdown_in_every_route_fetches_nothing_from_outside(
    browser: Browser, web_app: str, fake_ollama: FakeOllama, isolated: Path, trap: Trap
) -> None:
    page = browser.page
    file_text = document(trap.host, "file")
    (isolated / "workspace").mkdir(exist_ok=True)
    (isolated / "workspace" / "site-notes.md").write_text(file_text)
    store = ChatHistoryDB(isolated / "chat_history.sqlite")
    chat = store.create_chat(f"Tower ![a](http://{trap.host}/name.png) ![r]\n\n[r]: http://{trap.host}/name2.png")
    store.set_context_summary(chat, document(trap.host, "twin"))
    store.close()
    fake_ollama.script(
        Reply.tool_calls(("read_file", {"path": "site-notes.md"})),
        Reply.text(
            f"{document(trap.host, 'answer')}\n\nThe file says:\n\n{file_text}",
            thinking=document(trap.host, "thinking"),
        ),
    )
    page.goto(f"{web_app}/?chat={chat}")
    send(page, document(trap.host, "user"))
    page.get_by_text("End of the file payloads.").last.wait_for(timeout=60_000)
    page.get_by_role("button", name="Regenerate").wait_for(timeout=60_000)  # the turn is stored and redrawn
    page.get_by_text("Thinking").first.click()
    page.get_by_text("Digital twin").first.click()
    page.get_by_text("End of the twin payloads.").first.wait_for()
    page.get_by_text("End of the thinking payloads.").first.wait_for()
    page.wait_for_timeout(2_000)  # time for anything lazy to load
    routes = ("answer", "file", "twin", "thinking")
    for route in routes:
        assert page.get_by_text(f"Payload {route}-0:").count() >= 1, f"the {route} payloads are on the page"
    assert page.get_by_text("Payload user-0:").count() >= 1
    loads = page.evaluate(OUTSIDE_LOADS)
    tried = len(payloads(trap.host)) * (len(routes) + 1) + 2
    print(f"{tried} payloads tried, {len(browser.outside_requests)} outside requests")  # noqa: T201
    assert loads == [], f"{len(loads)} elements would load from outside: {loads[:5]}"
    assert browser.outside_requests == [], browser.outside_requests[:5]
    assert trap.hits == []
    assert browser.dialogs == []


def test_maths_and_directives_hide_no_image_even_with_the_policy_off(
    browser_without_policy: Browser, web_app: str, fake_ollama: FakeOllama, trap: Trap
) -> None:
    """Forms where CommonMark reads code but Streamlit reads maths or a directive first: with the page's policy
    ignored, only the sanitiser stands between them and the trap server, in the answer and in its thinking."""
    page = browser_without_policy.page
    forms = read_before_code_payloads(trap.host)
    text = "\n\n".join(f"Payload {n}:\n\n{form}" for n, form in forms) + "\n\nEnd of the maths payloads."
    fake_ollama.script(Reply.text(text, thinking=text))
    page.goto(web_app)
    send(page, "Show me the formulas")
    page.get_by_text("End of the maths payloads.").last.wait_for(timeout=60_000)
    page.get_by_role("button", name="Regenerate").wait_for(timeout=60_000)  # the turn is stored and redrawn
    page.get_by_text("Thinking").first.click()
    page.wait_for_timeout(2_000)  # time for anything lazy to load
    loads = page.evaluate(OUTSIDE_LOADS)
    print(f"{len(forms)} forms, policy off, {len(browser_without_policy.outside_requests)} outside requests")  # noqa: T201
    assert loads == [], f"{len(loads)} elements would load from outside: {loads[:5]}"
    assert browser_without_policy.outside_requests == [], browser_without_policy.outside_requests[:5]
    assert trap.hits == []


def test_the_pages_policy_refuses_an_outside_image_even_in_the_page(browser: Browser, web_app: str, trap: Trap) -> None:
    """Defence in depth: an `<img>` put straight into the page (as a renderer bug would) is not fetched."""
    page = browser.page
    page.goto(web_app)
    page.get_by_test_id("stChatInputTextArea").wait_for()
    loaded = page.evaluate(
        """(url) => new Promise((done) => {
            const image = new Image();
            image.onload = () => done(true);
            image.onerror = () => done(false);
            image.src = url;
            document.body.appendChild(image);
        })""",
        f"http://{trap.host}/injected.png",
    )
    page.wait_for_timeout(500)
    assert loaded is False and trap.hits == []
    assert any("img-src" in text for text in browser.policy_violations)
    browser.policy_violations.clear()  # refused as it should be
