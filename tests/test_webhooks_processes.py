"""Webhook deliveries across processes, on SQLite and on PostgreSQL: one left pending by a process that was killed
is delivered by the next `serve` on the store, once; several processes on one store never send an event again
to a receiver that answered it 2xx."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from domain.webhooks import WebhookDelivery
from fakes.ollama import FakeOllama, Reply, wait_until
from store import ChatHistoryDB
from tests.protocol_client import running_server
from tests.test_accounts_server import where
from tests.webhook_receiver import Receiver, hooks_file

SECRET = "the receiver's own copy of the secret"
ASK = {"type": "dispatch", "agentID": "assistant"}


def deliveries(target: str) -> list[WebhookDelivery]:
    store = ChatHistoryDB(target)
    try:
        return store.webhook_deliveries()
    finally:
        store.close()


def attempts(target: str) -> int:
    return sum(delivery.attempts for delivery in deliveries(target))


@pytest.mark.slow
def test_a_delivery_outlives_a_killed_process_and_is_delivered_once(
    store_target: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.responder = lambda body: Reply.text("Answered.")
    receiver = Receiver(SECRET, answers=(503, 503, 200))
    env = {"WEBHOOKS_CONFIG": str(hooks_file(isolated, (receiver.url, ["turn.completed"], SECRET))),
           **where(store_target)}  # fmt: skip
    receiver.start()
    with running_server(fake_ollama.url, isolated, env=env) as first:
        done = first.connect().request({**ASK, "id": "r1", "content": "Told before the crash?"})
        assert done[-1]["stopReason"] == "end_turn"
        assert receiver.wait_for(lambda seen: [item.answered for item in seen] == [503, 503])
        receiver.stop()  # unreachable from now on, until the app is back
        first.process.kill()
        first.process.wait(10)
    tried = attempts(store_target)
    with running_server(fake_ollama.url, isolated, env=env):
        assert wait_until(lambda: attempts(store_target) > tried, timeout=90), "the restarted serve takes it up"
        receiver.start()
        assert receiver.wait_for(lambda seen: len(seen) == 3, timeout=90)
        assert wait_until(lambda: deliveries(store_target)[0].state == "delivered")
    seen = receiver.seen()
    assert [item.answered for item in seen] == [503, 503, 200], "delivered once, and never again"
    assert all(item.signed for item in seen) and len({item.event["id"] for item in seen}) == 1


@pytest.mark.slow
def test_several_processes_on_one_store_send_each_event_once(
    store_target: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.responder = lambda body: Reply.text("Answered.")
    receiver = Receiver(SECRET, answers=(503, 503, 200))
    env = {"WEBHOOKS_CONFIG": str(hooks_file(isolated, (receiver.url, ["turn.completed"], SECRET))),
           **where(store_target)}  # fmt: skip
    with (
        running_server(fake_ollama.url, isolated, env=env) as one,
        running_server(fake_ollama.url, isolated, env=env) as other,
    ):
        for number, server in enumerate((one, other, one, other, one, other)):
            server.connect().request({**ASK, "id": f"r{number}", "content": f"Question {number}"})
        assert wait_until(lambda: all(d.attempts for d in deliveries(store_target)), timeout=30), "all refused"
        receiver.start()  # both processes now find every event due
        assert receiver.wait_for(lambda seen: sum(item.answered == 200 for item in seen) == 6, timeout=90)
        assert wait_until(lambda: {d.state for d in deliveries(store_target)} == {"delivered"})
    receiver.stop()
    answers: dict[str, list[int]] = defaultdict(list)
    for item in receiver.seen():
        answers[item.event["id"]].append(item.answered)
    assert len(answers) == 6 and all(item.signed for item in receiver.seen())
    assert all(statuses[-1] == 200 and statuses.count(200) == 1 for statuses in answers.values()), answers
