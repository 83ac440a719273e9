"""The digital twin of a workspace that stays open is refreshed in the background every SUMMARY_EVERY_TURNS turns
(default 10), through the summary path leaving it takes, without any turn waiting for it; 0 leaves it to leaving."""

from __future__ import annotations

from pathlib import Path

from app import Application
from fakes.ollama import FakeOllama, Gate, Reply, is_summary_request, wait_until
from fakes.replies import chunk, final
from store import ChatHistoryDB
from tests.agent_helpers import make_agent
from tests.protocol_client import running_server

ASK = {"type": "dispatch", "agentID": "assistant"}


def summaries_asked(fake: FakeOllama) -> int:
    return sum(1 for body in fake.chat_requests if is_summary_request(body))


def test_the_summary_is_asked_after_the_10th_turn_of_an_open_session(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.summary_reply = Reply.text("- Level 2 slab: 250 mm, C32/40.")
    fake_ollama.responder = lambda body: Reply.text("Noted.")
    with running_server(fake_ollama.url, isolated) as server:
        client = server.connect()
        first = client.request({**ASK, "id": "q1", "content": "Level 2 slab is 250 mm."})
        session = first[-1]["sessionID"]
        for number in range(2, 10):
            client.request({**ASK, "id": f"q{number}", "sessionID": session, "content": f"Note {number}."})
        assert summaries_asked(fake_ollama) == 0, "nine turns: no summary yet"
        client.request({**ASK, "id": "q10", "sessionID": session, "content": "C32/40 concrete."})
        assert wait_until(lambda: summaries_asked(fake_ollama) == 1, timeout=20), "asked after the 10th turn"

        def summary() -> str:
            (shown,) = client.request({"id": "g", "type": "get-session", "sessionID": session})
            return str(shown["summary"] or "")

        assert wait_until(lambda: "250 mm" in summary(), timeout=20), "written while the session stays open"


async def test_no_turn_waits_for_the_summary_and_0_leaves_it_to_leaving(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    held = Gate()
    fake_ollama.summary_reply = Reply([held, chunk("Summary."), final("stop", 40, 5)])
    fake_ollama.responder = lambda body: Reply.text("Noted.")
    service = Application(ChatHistoryDB(isolated / "a.sqlite"), make_agent(fake_ollama), summary_every_turns=2)
    chat = service.workspaces.create("Open").chat_id
    for number in range(4):  # the summary asked after the 2nd hangs; the 3rd and 4th turns go on regardless
        async for _ in service.turns.ask(f"Note {number}.", chat):
            pass
    assert summaries_asked(fake_ollama) == 1 and service.summaries.is_pending(chat)
    held.gate.set()
    assert service.summaries.wait(20)
    service.close()
    never = Application(ChatHistoryDB(isolated / "b.sqlite"), make_agent(fake_ollama), summary_every_turns=0)
    chat = never.workspaces.create("Open").chat_id
    for number in range(12):
        async for _ in never.turns.ask(f"Note {number}.", chat):
            pass
    assert summaries_asked(fake_ollama) == 1, "SUMMARY_EVERY_TURNS=0: none while the workspace stays open"
    never.close()


async def test_a_summary_that_failed_is_tried_again_after_as_many_turns_not_after_each(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.summary_reply = Reply.http_error(500, "out of memory")
    fake_ollama.responder = lambda body: Reply.text("Noted.")
    service = Application(ChatHistoryDB(isolated / "a.sqlite"), make_agent(fake_ollama), summary_every_turns=3)
    chat = service.workspaces.create("Open").chat_id
    asked = []
    for number in range(7):
        async for _ in service.turns.ask(f"Note {number}.", chat):
            pass
        assert service.summaries.wait(20)
        asked.append(summaries_asked(fake_ollama))
    assert asked == [0, 0, 1, 1, 1, 2, 2], "after the 3rd and the 6th turn only"
    service.close()
