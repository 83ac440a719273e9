"""An office's day, in real Chromium, where its features meet: PostgreSQL, four users (an admin, two engineers, a
viewer), two web processes behind the shipped reverse proxy (`docker/Caddyfile`, run by Caddy), two Ollama servers.
Ann asks and shares; Bob continues from the other process, on the other server; Vic reads and is offered nothing he
may not do; Bob checks the package, Ada approves it, and `main.py verify` recognises the issued PDF; a password
change and a demotion reach open tabs at their next click (or before it); reloads, `?chat=` links and a restarted
web process keep everyone signed in."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from app import start
from bench.office_pages import menu, settled
from fakes.ollama import FakeOllama, Reply, free_port
from fakes.postgres import PostgresServer
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, send, streamlit_server, told_at_next_click

PASSWORD = {"ada": "ada's long passphrase 1", "ann": "ann's long passphrase 2", "bob": "bob's long passphrase 3",
            "vic": "vic's long passphrase 4"}  # fmt: skip
STEEL = ("steel_beam_check", {"designation": "W18X50", "span": "35 ft", "dead_load": "0.45 kip/ft",
                              "live_load": "0.75 kip/ft"})  # fmt: skip
CADDY = shutil.which("caddy")

pytestmark = pytest.mark.postgres


@contextmanager
def caddy(folder: Path, processes: list[str]) -> Iterator[str]:
    """The shipped Caddyfile in front of the web processes, on free ports; its https:// address."""
    if CADDY is None:
        if os.environ.get("CI"):
            raise RuntimeError("caddy is missing: .ci/run installs Debian's caddy package")
        pytest.skip("caddy is not installed (apt-get install -y caddy)")
    https, http = free_port(), free_port()
    env = {**os.environ, "SITE_ADDRESS": f"https://127.0.0.1:{https}", "HTTPS_PORT": str(https),
           "HTTP_PORT": str(http), "WEB_PROCESSES": " ".join(processes), "XDG_DATA_HOME": str(folder / "caddy"),
           "XDG_CONFIG_HOME": str(folder / "caddy")}  # fmt: skip
    with (folder / "caddy.log").open("wb") as log:
        process = subprocess.Popen(
            [CADDY, "run", "--config", str(ROOT / "docker" / "Caddyfile"), "--adapter", "caddyfile"],
            env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            yield f"https://127.0.0.1:{https}"
        finally:
            process.terminate()
            process.wait(timeout=30)


def signed_in(browser: Browser, url: str, name: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, ignore_https_errors=True,
                                  accept_downloads=True)  # fmt: skip
    page = context.new_page()
    page.set_default_timeout(45_000)
    page.goto(url)
    settled(page)
    page.get_by_label("User name").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD[name])
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text(f"Signed in as {name}")).to_be_visible()
    settled(page)
    return context, page


def test_an_office_day_on_postgresql_behind_the_proxy(
    postgres_server: PostgresServer, isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres_server.new_database()
    with FakeOllama() as gpu1, FakeOllama() as gpu2:
        for gpu in (gpu1, gpu2):
            gpu.script(Reply.tool_calls(STEEL), Reply.text("Yes: Mu = 266 kip·ft against φMn = 379."))
            gpu.summary_reply = Reply.text("A W18x50 beam over 35 ft.")
        env = {"AUTH": "accounts", "DATABASE_URL": url, "ENDPOINT": f"{gpu1.url},{gpu2.url}",
               "TRUSTED_PROXIES": "127.0.0.1"}  # fmt: skip
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        base = start(isolated / ".env", {})
        try:
            for name, role in (("ada", "admin"), ("ann", "engineer"), ("bob", "engineer"), ("vic", "viewer")):
                base.accounts.add(name, role, PASSWORD[name])
        finally:
            base.close()
        ports = [free_port(), free_port()]
        with (
            ExitStack() as first,
            streamlit_server(isolated, env, port=ports[1], log=isolated / "web2.log") as (web2, _),
            caddy(isolated, [f"127.0.0.1:{port}" for port in ports]) as front,
            sync_playwright() as playwright,
        ):
            web1, _ = first.enter_context(streamlit_server(isolated, env, port=ports[0], log=isolated / "web1.log"))
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            expect.set_options(timeout=45_000)
            try:
                vic = walk(browser, front, web1, web2, isolated)
                first.close()  # web process 1 stops, and starts again on its port
                with streamlit_server(isolated, env, port=ports[0], log=isolated / "web1-again.log"):
                    vic.goto(f"{web1}/?chat=1")
                    expect(vic.get_by_text("Signed in as vic")).to_be_visible()
                    expect(vic.get_by_text("Yes: Mu = 266 kip·ft").first).to_be_visible()
            finally:
                expect.set_options(timeout=5_000)
                browser.close()
        assert gpu1.chat_requests and gpu2.chat_requests, "the day's turns went to both servers"


def walk(browser: Browser, front: str, web1: str, web2: str, folder: Path) -> Page:
    """The day up to the restart; vic's page, open on web process 1."""
    _, ann = signed_in(browser, front, "ann")  # through the proxy: TLS, WebSockets, a sticky process
    send(ann, "Is a W18x50 OK over 35 ft, 0.45 and 0.75 kip/ft?")
    expect(ann.get_by_text("Yes: Mu = 266 kip·ft").first).to_be_visible()
    base = start(folder / ".env", {})
    try:
        ann_app = base.for_user(base.accounts.user("ann"))
        (chat,) = ann_app.workspaces.recent()
        ann_app.sharing.share(chat.chat_id, "bob", "editor")
        ann_app.sharing.share(chat.chat_id, "vic", "viewer")
    finally:
        base.close()
    chat_id = chat.chat_id
    ann.reload()  # a reload keeps her signed in, through the proxy
    expect(ann.get_by_text("Signed in as ann")).to_be_visible()

    _, bob = signed_in(browser, f"{web2}/?chat={chat_id}", "bob")  # the other process, on the shared store
    expect(bob.get_by_text("Yes: Mu = 266 kip·ft").first).to_be_visible()
    _, vic = signed_in(browser, f"{web1}/?chat={chat_id}", "vic")
    expect(vic.get_by_text("Yes: Mu = 266 kip·ft").first).to_be_visible()
    menu(vic, chat_id)
    for refused in ("Rename…", "Delete…"):
        expect(vic.get_by_role("button", name=refused)).to_have_count(0)
    vic.get_by_role("button", name="Calculation package…").click()
    expect(vic.get_by_role("button", name="Sign off as checked")).to_have_count(0)
    expect(vic.get_by_role("button", name="Save project details")).to_have_count(0)
    vic.keyboard.press("Escape")

    menu(bob, chat_id)  # bob checks what ann prepared
    bob.get_by_role("button", name="Calculation package…").click()
    bob.get_by_role("button", name="Sign off as checked").click()
    expect(bob.get_by_text("Revision A checked by bob").first).to_be_visible()
    _, ada = signed_in(browser, f"{web2}/?chat={chat_id}", "ada")
    menu(ada, chat_id)
    ada.get_by_role("button", name="Calculation package…").click()
    ada.get_by_role("button", name="Approve and issue").click()
    expect(ada.get_by_text("Revision A approved by ada").first).to_be_visible()
    ada.reload()  # a new page: the menu as it opens, signed in still
    menu(ada, chat_id)
    ada.get_by_role("button", name="Calculation package…").click()
    ada.get_by_role("button", name="Revision A as issued (PDF)").wait_for()
    settled(ada)  # a download is made ready by the run that draws its button, and only until the next run
    with ada.expect_download() as download:
        ada.get_by_role("button", name="Revision A as issued (PDF)").click()
    issued = folder / "revision-A.pdf"
    download.value.save_as(issued)
    verified = subprocess.run([sys.executable, str(ROOT / "main.py"), "verify", str(issued)], cwd=folder,
                              capture_output=True, text=True, timeout=60)  # fmt: skip
    assert verified.returncode == 0 and "revision A" in verified.stdout, verified

    bob.reload()
    send(bob, "And with the same loads over 30 ft?")  # he continues it
    expect(bob.get_by_text("And with the same loads over 30 ft?").first).to_be_visible()
    expect(bob.get_by_test_id("stChatMessage")).to_have_count(4)
    base = start(folder / ".env", {})
    try:
        base.accounts.set_password("bob", "bob's other passphrase")
        base.accounts.set_role("ann", "viewer")
    finally:
        base.close()
    for page in (bob, ann):
        told_at_next_click(page)

    settled(ann)
    ann.get_by_label("User name").fill("ann")  # demoted: she signs in again, and reads only
    ann.get_by_label("Password", exact=True).fill(PASSWORD["ann"])
    ann.get_by_role("button", name="Sign in").click()
    expect(ann.get_by_text("Signed in as ann · viewer")).to_be_visible()
    expect(ann.get_by_test_id("stChatInputTextArea")).to_have_count(0)
    vic.goto(f"{web1}/?chat={chat_id}")  # vic's tab, reloaded: still signed in
    expect(vic.get_by_text("Signed in as vic")).to_be_visible()
    return vic
