"""Several processes on one store, on both backends: a turn cut off by a killed process is stored as stopped, a
workspace's summary is written once, the workspace folder is indexed by one process at a time, and what a dead
process held is free at once."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from agent import AIAgent
from app.application import Application
from app.documents.library import INDEX_CLAIM, DocumentLibrary
from domain.events import AgentError
from fakes.documents import build_document_set
from fakes.ollama import FakeOllama, Gate, Hang, Reply, is_summary_request, wait_until
from history import ChatHistoryDB
from store import is_postgres_url, leases
from store.holders import holder_gone
from store.leases import CUT_OFF
from tests.stores import raw_rows, raw_write, write_transactions

ROOT = Path(__file__).resolve().parents[1]


def history_flags(target: str) -> tuple[list[str], dict[str, str]]:
    """The CLI's flags and environment that open the store at `target`."""
    if is_postgres_url(target):
        return [], {"DATABASE_URL": target}
    return ["--db", target], {}


def test_a_turn_cut_off_by_a_killed_process_is_stored_as_stopped(
    store_target: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    store = ChatHistoryDB(store_target)
    chat = store.create_chat("Tower")
    store.add_to_history(chat, "before", "kept")
    fake_ollama.script(Reply([Hang(60)]))  # the model never answers: the process is killed meanwhile
    flags, env = history_flags(store_target)
    killed = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "--server", fake_ollama.url, *flags, "--workspace", "Tower",
         "--once", "How deep is the transfer beam?"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **env},
    )  # fmt: skip
    assert wait_until(lambda: len(fake_ollama.chat_requests) == 1, timeout=30), "the question never reached the model"
    assert raw_rows(store_target, "SELECT COUNT(*) FROM running_turns") == [(1,)], "stored as it was asked"
    assert [turn.user for turn in store.get_turns(chat)] == ["before"], "a running turn is no turn yet"
    killed.send_signal(signal.SIGKILL)
    killed.communicate(timeout=30)

    assert store.store_cut_off_turns() == 1, "its process is gone: noticed at once on this machine"
    *_, cut = store.get_turns(chat)
    assert (cut.user, cut.assistant, cut.status) == ("How deep is the transfer beam?", "", "stopped")
    assert cut.error == CUT_OFF
    assert store.count_turns(chat) == 2 and raw_rows(store_target, "SELECT COUNT(*) FROM running_turns") == [(0,)]
    assert ChatHistoryDB(store_target).store_cut_off_turns() == 0, "stored once, whoever notices next"


def summary_gate(fake: FakeOllama) -> threading.Event:
    """The first summary request waits for the returned gate; any other is answered at once."""
    gate = threading.Event()
    summaries = [0]

    def answer(body: dict[str, Any]) -> Reply:
        if is_summary_request(body):
            summaries[0] += 1
            if summaries[0] == 1:
                return Reply([Gate(gate, 60), *Reply.text("- Tower: 12 storeys.").steps])
            return Reply.text("- Again.")
        return Reply.text("An answer.")

    fake.responder = answer
    return gate


def test_a_workspace_s_summary_is_written_once_whoever_leaves_it(store_target: str, fake_ollama: FakeOllama) -> None:
    gate = summary_gate(fake_ollama)
    first = Application(ChatHistoryDB(store_target), AIAgent("qwen3:4b", fake_ollama.url, "system"))
    second = Application(ChatHistoryDB(store_target), AIAgent("qwen3:4b", fake_ollama.url, "system"))
    tower = first.workspaces.create("Tower").chat_id
    writer = ChatHistoryDB(store_target)
    for i in range(3):
        writer.add_to_history(tower, f"Storey {i}?", "Yes.")
    assert first.summaries.leave(tower), "queued in the first process"
    assert wait_until(lambda: any(is_summary_request(r) for r in fake_ollama.chat_requests), timeout=30)
    assert asyncio.run(second.summaries.refresh(tower)) is False, "being written by the first: not again"
    gate.set()
    assert first.summaries.wait(30)
    assert [outcome.summarised for outcome in first.summaries.finished()] == [True]
    assert asyncio.run(second.summaries.refresh(tower)) is False, "already covers every turn"
    assert sum(map(is_summary_request, fake_ollama.chat_requests)) == 1
    assert writer.get_context_summary(tower) == "- Tower: 12 storeys."
    first.close()
    second.close()


def test_a_summary_is_stored_with_its_claim_given_up_in_one_transaction(
    store_target: str, fake_ollama: FakeOllama
) -> None:
    fake_ollama.responder = lambda body: Reply.text("- Tower: 12 storeys.")
    store = ChatHistoryDB(store_target)
    service = Application(store, AIAgent("qwen3:4b", fake_ollama.url, "system"))
    tower = service.workspaces.create("Tower").chat_id
    store.add_to_history(tower, "How many storeys?", "Twelve.")
    writes = write_transactions(store)
    assert asyncio.run(service.summaries.refresh(tower))
    assert writes == [False, True], "the claim (not flushed), then the summary with the claim given up"
    assert store.get_context_summary(tower) == "- Tower: 12 storeys."
    other = ChatHistoryDB(store_target)
    assert other.claim(f"summary {tower}"), "given up"
    other.release(f"summary {tower}")
    fake_ollama.responder = lambda body: Reply.http_error(500, "out of memory")
    store.add_to_history(tower, "And the roof?", "Steel.")
    writes.clear()
    with pytest.raises(AgentError):
        asyncio.run(service.summaries.refresh(tower))
    assert writes == [False, False], "the claim, then the claim given up (neither flushed): no summary to store"
    assert store.get_context_summary(tower) == "- Tower: 12 storeys." and other.claim(f"summary {tower}")
    service.close()


def waits_for_the_claim(thread_name: str) -> bool:
    """Whether the thread called `thread_name` is waiting in `app.leases.held` for a claim another store holds."""
    for thread in threading.enumerate():
        if thread.name == thread_name and thread.ident is not None:
            frame = sys._current_frames().get(thread.ident)
            while frame is not None:
                if frame.f_code.co_name == "held":
                    return True
                frame = frame.f_back
    return False


def test_the_workspace_folder_is_indexed_by_one_process_at_a_time(store_target: str, isolated: Path) -> None:
    root = isolated / "workspace"
    build_document_set(root)
    other_process = ChatHistoryDB(store_target)  # as another process's store would
    assert other_process.claim(INDEX_CLAIM)
    docs = DocumentLibrary(ChatHistoryDB(store_target), root, None)
    docs.refresh()
    assert wait_until(lambda: waits_for_the_claim("document-index"), timeout=30), "it did not wait for its turn"
    assert docs.files() == [], "nothing indexed while the other holds the folder"
    other_process.release(INDEX_CLAIM)
    assert docs.wait(60), "indexing did not end once the folder was free"
    assert "indexed" in {file.status for file in docs.files()}


CLAIMER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from history import ChatHistoryDB
store = ChatHistoryDB(sys.argv[2])
print(store.claim("summary 1"), flush=True)
time.sleep(120)
"""


def test_a_claim_is_one_store_s_until_released_or_its_process_ends(store_target: str) -> None:
    mine, theirs = ChatHistoryDB(store_target), ChatHistoryDB(store_target)
    assert mine.claim("summary 1") and mine.claim("summary 1"), "taken, and held again"
    assert not theirs.claim("summary 1")
    mine.release("summary 1")
    assert theirs.claim("summary 1") and not mine.claim("summary 1")
    theirs.release("summary 1")

    holder = subprocess.Popen(
        [sys.executable, "-c", CLAIMER, str(ROOT), store_target], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "True"
    assert not mine.claim("summary 1"), "held by a live process"
    holder.kill()
    holder.communicate(timeout=30)
    assert mine.claim("summary 1"), "its process ended: free at once, not a lease later"


def test_the_store_finishes_the_turn_it_began(store_target: str) -> None:
    store = ChatHistoryDB(store_target)
    chat = store.create_chat("Tower")
    running = store.begin_turn(chat, "How tall?", "qwen3:4b", "A. Engineer")
    assert store.get_turns(chat) == [] and store.count_turns(chat) == 0
    turn_id = store.add_to_history(chat, "How tall?", "45 m.", running_id=running, asked_by="A. Engineer")
    assert [(t.turn_id, t.assistant, t.asked_by) for t in store.get_turns(chat)] == [(turn_id, "45 m.", "A. Engineer")]
    assert raw_rows(store_target, "SELECT COUNT(*) FROM running_turns") == [(0,)]
    assert store.store_cut_off_turns() == 0


def test_a_turn_begun_looks_at_other_processes_only_when_its_workspace_is_taken(
    store_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn begins under the store's write lock. In a free workspace it looks at nobody else's running turns (50
    sessions on two servers had made it a look at 25 a question); in one another store's turn holds, it looks at
    each other process once, however many turns it runs, and a turn whose lease lapsed is stored as stopped and
    gives the workspace up."""
    theirs, mine = ChatHistoryDB(store_target), ChatHistoryDB(store_target)
    towers = [theirs.create_chat(f"Tower {number}") for number in range(5)]
    for chat_id in towers:
        assert theirs.begin_turn(chat_id, "How tall?", "qwen3:4b", "B. Engineer")
    looked: list[str] = []

    def counted(holder: str) -> bool:
        looked.append(holder)
        return holder_gone(holder)

    monkeypatch.setattr(leases, "holder_gone", counted)
    assert mine.begin_turn(mine.create_chat("Bridge"), "How long?", "qwen3:4b", "A. Engineer") is not None
    assert looked == [], "a free workspace: nobody else's turns looked at"
    assert mine.begin_turn(towers[0], "How wide?", "qwen3:4b", "A. Engineer") is None, "theirs runs there"
    assert looked == [theirs.holder], "their process, once"
    assert raw_rows(store_target, "SELECT COUNT(*) FROM running_turns") == [(6,)], "theirs still run: it is alive"

    raw_write(store_target, "UPDATE running_turns SET expires_at = expires_at - 3600 WHERE chat_id = ?", (towers[1],))
    assert mine.begin_turn(towers[1], "How wide?", "qwen3:4b", "A. Engineer") is not None, "a lapsed turn gives way"
    (lapsed,) = mine.get_turns(towers[1])
    assert (lapsed.user, lapsed.status, lapsed.error) == ("How tall?", "stopped", CUT_OFF)
    assert raw_rows(store_target, "SELECT COUNT(*) FROM running_turns") == [(6,)], "the lapsed one, replaced"
