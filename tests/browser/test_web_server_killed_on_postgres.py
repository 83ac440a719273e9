"""The web server (`streamlit run`) killed with SIGKILL mid-turn on PostgreSQL, again and again, while another
process writes: every answered turn is there afterwards, and each cut-off turn is stored as stopped with its
question. (The protocol server's turn of this is tests/test_postgres_durability.py.)"""

from __future__ import annotations

import shutil
import signal
import subprocess
from contextlib import AbstractContextManager
from functools import partial
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from fakes.ollama import FakeOllama, Hang, Reply, wait_until
from fakes.postgres import PostgresServer
from history import ChatHistoryDB
from store.leases import CUT_OFF
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, send, streamlit_server
from tests.stores import raw_rows
from tests.test_postgres_durability import Writer, was_asked

ROUNDS = 3


def answering(body: dict[str, Any]) -> Reply:
    question = body["messages"][-1]["content"]
    if question.startswith("cut off"):
        return Reply([Hang(60)])  # the web server is killed while it waits for this answer
    return Reply.text(f"Answer to {question}.")


def web_server(folder: Path, ollama: str, url: str) -> AbstractContextManager[tuple[str, subprocess.Popen[bytes]]]:
    return streamlit_server(folder, {"ENDPOINT": ollama, "DATABASE_URL": url, "EMBED_MODEL": ""})


def test_web_servers_killed_mid_turn_lose_no_answered_turn(
    postgres_server: PostgresServer, fake_ollama: FakeOllama, isolated: Path
) -> None:
    shutil.copytree(ROOT / ".streamlit", isolated / ".streamlit")
    url = postgres_server.new_database()
    fake_ollama.responder = answering
    chat = ChatHistoryDB(url).create_chat("Tower")
    writer = Writer(url)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = chromium.new_page()
        page.set_default_timeout(30_000)
        for round_number in range(ROUNDS):
            with web_server(isolated, fake_ollama.url, url) as (address, process):
                page.goto(f"{address}/?chat={chat}")
                send(page, f"kept r{round_number}")
                page.get_by_text(f"Answer to kept r{round_number}.").first.wait_for()
                cut = f"cut off r{round_number}"
                send(page, cut)
                assert wait_until(partial(was_asked, fake_ollama, cut), 30)
                process.send_signal(signal.SIGKILL)
                process.wait(timeout=30)
        chromium.close()
    written_beside = writer.kill()

    store = ChatHistoryDB(url)  # whoever opens the store next notices the last server's cut-off turn
    turns = [(turn.user, turn.assistant, turn.status, turn.error) for turn in store.get_turns(chat)]
    expected = []
    for n in range(ROUNDS):
        expected += [
            (f"kept r{n}", f"Answer to kept r{n}.", "complete", None),
            (f"cut off r{n}", "", "stopped", CUT_OFF),
        ]
    assert turns == expected
    beside = {turn.user for turn in store.get_turns(writer.chat)}
    assert {f"beside {i}" for i in range(written_beside)} <= beside, "a turn the other process acknowledged"
    assert raw_rows(url, "SELECT COUNT(*) FROM running_turns") == [(0,)]
