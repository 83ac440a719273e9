"""Several Ollama servers (ENDPOINT lists them): each a real fake on its own port, the real client between."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import Any

from agent import AIAgent
from domain.events import ErrorEvent, TextDelta, WaitingForServer
from engine.embeddings import Embedder
from engine.server_pool import DOWN_SECONDS, ServerPool
from fakes.ollama import Drop, FakeOllama, Gate, Reply, is_summary_request
from fakes.replies import chunk, final
from tests.agent_helpers import completed, of_type, run


class Clock:
    """The pool's clock, moved on by the test: a server's rest ends when the test says, not after a sleep."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def agent_on(*fakes: FakeOllama, cap: int | None = None, clock: Clock | None = None) -> AIAgent:
    pool = ServerPool([fake.url for fake in fakes], cap, clock=clock or Clock())
    return AIAgent("qwen3:4b", pool.urls, "You are an engineering assistant.", pool=pool)


def held(gate: Gate, before: str = "Still ", after: str = "writing.") -> Reply:
    """An answer that streams its first words, then waits for the test to open `gate`."""
    return Reply([chunk(content=before), gate, chunk(content=after), final("stop", 42, 3)])


def port_of(fake: FakeOllama) -> int:
    return int(fake.url.rsplit(":", 1)[1])


async def test_a_turn_goes_to_a_server_that_has_its_model() -> None:
    with FakeOllama(models=["llama3.2:3b"]) as other, FakeOllama(models=["qwen3:4b"]) as has_it:
        has_it.script(Reply.text("From the server that has qwen3."))
        events = await run(agent_on(other, has_it), "Hi")
    assert completed(events).content == "From the server that has qwen3." and not of_type(events, ErrorEvent)
    assert other.chat_requests == [] and len(has_it.chat_requests) == 1


async def test_a_turn_goes_to_the_server_with_the_fewest_turns_in_flight() -> None:
    gate = Gate()
    with FakeOllama() as first, FakeOllama() as second:
        first.script(held(gate))
        second.script(Reply.text("Answered at once."))
        agent = agent_on(first, second, cap=2)
        async with aclosing(agent.stream(agent.request("A long one"))) as long_turn:
            assert isinstance(await anext(long_turn), TextDelta), "the long turn is in flight on the first server"
            events = await run(agent, "A short one")
            gate.gate.set()
            rest = [event async for event in long_turn]
    assert completed(events).content == "Answered at once."
    assert completed(rest).content == "Still writing."
    assert len(first.chat_requests) == 1 and len(second.chat_requests) == 1


async def test_a_server_that_stops_is_skipped_named_and_used_again_once_it_is_back() -> None:
    clock = Clock()
    with FakeOllama() as first, FakeOllama() as second, FakeOllama(models=["llama3.2:3b"]) as third:
        agent = agent_on(first, second, third, clock=clock)
        first.close()
        second.script(Reply.text("From the second."), Reply.text("Still the second."))
        assert completed(await run(agent, "One")).content == "From the second."
        status = await agent.server_status(5.0)
        assert status.note == f"2 of 3 Ollama servers reachable; {first.url} is not answering"
        assert status.models == ("llama3.2:3b", "qwen3:4b") and status.error is None
        with FakeOllama(port=port_of(first)) as back:
            back.script(Reply.text("From the first, back again."))
            clock.now += DOWN_SECONDS / 2
            assert completed(await run(agent, "Two")).content == "Still the second.", "resting: not asked yet"
            clock.now += DOWN_SECONDS
            assert completed(await run(agent, "Three")).content == "From the first, back again."
            assert (await agent.server_status(5.0)).note == "all 3 Ollama servers reachable"
    assert len(second.chat_requests) == 2 and len(back.chat_requests) == 1


async def test_a_server_that_fails_before_any_text_leaves_the_turn_to_another() -> None:
    with FakeOllama() as failing, FakeOllama() as working:
        failing.script(Reply.http_error(503, "the server is overloaded"))
        working.script(Reply.text("Answered by the other server."))
        agent = agent_on(failing, working)
        events = await run(agent, "Hi")
    assert completed(events).content == "Answered by the other server." and not of_type(events, ErrorEvent)
    assert len(failing.chat_requests) == 1 and len(working.chat_requests) == 1
    assert [server.answering for server in agent.pool.health()] == [False, True], "the failed one rests"


async def test_once_text_has_streamed_a_failure_is_not_tried_again_elsewhere() -> None:
    with FakeOllama() as failing, FakeOllama() as other:
        failing.script(Reply.then("Half an ans", Drop()))
        other.script(Reply.text("A second answer the user would see beside the first."))
        events = await run(agent_on(failing, other), "Hi")
    (error,) = of_type(events, ErrorEvent)
    assert "broke off in the middle of the answer" in error.message and failing.url in error.message
    assert completed(events).content == "Half an ans" and other.chat_requests == []


async def test_a_model_on_no_server_that_answers_is_one_sentence_naming_the_servers_tried() -> None:
    with FakeOllama(models=["llama3.2:3b"]) as a, FakeOllama(models=["llama3.2:3b"]) as b, FakeOllama() as c:
        c.close()
        events = await run(agent_on(a, b, c), "Hi")
    (error,) = of_type(events, ErrorEvent)
    assert error.code == "MODEL_NOT_FOUND" and not error.recoverable
    assert error.message == (
        f"The model qwen3:4b is on none of the Ollama servers that answer (tried {a.url}, {b.url}; {c.url} is "
        "not answering). Pulled there: llama3.2:3b. Run `ollama pull qwen3:4b` on one of them, or choose another "
        "model."
    )
    assert a.chat_requests == [] and b.chat_requests == []


def answer_each(*fakes: FakeOllama) -> None:
    """Once the script is used up, each fake answers any question with its own words."""
    for fake in fakes:
        fake.responder = lambda body: Reply.text(f"Answer to {body['messages'][-1]['content']}.")


async def drain(turn: AsyncIterator[Any]) -> list[Any]:
    return [event async for event in turn]


async def test_with_every_server_busy_a_turn_waits_in_line_and_says_how_many_are_ahead() -> None:
    gate = Gate()
    with FakeOllama() as first, FakeOllama() as second:
        first.script(held(gate))
        second.script(held(gate, "Also ", "writing."))
        answer_each(first, second)
        agent = agent_on(first, second, cap=1)
        async with (
            aclosing(agent.stream(agent.request("One"))) as one,
            aclosing(agent.stream(agent.request("Two"))) as two,
            aclosing(agent.stream(agent.request("Three"))) as three,
            aclosing(agent.stream(agent.request("Four"))) as four,
        ):
            assert isinstance(await anext(one), TextDelta) and isinstance(await anext(two), TextDelta)
            third, fourth = await anext(three), await anext(four)
            gate.gate.set()
            rest = await asyncio.gather(*(drain(turn) for turn in (one, two, three, four)))
    assert isinstance(third, WaitingForServer) and (third.position, third.ahead, third.servers) == (1, 0, 2)
    assert third.message == (
        "All 2 Ollama servers with qwen3:4b are busy, 1 turns each (MAX_TURNS_PER_SERVER): waiting in line, "
        "yours is next."
    )
    assert isinstance(fourth, WaitingForServer) and (fourth.position, fourth.ahead) == (2, 1)
    assert fourth.message.endswith("waiting in line, 1 turn ahead of yours.")
    contents = [completed(events).content for events in rest]
    assert contents == ["Still writing.", "Also writing.", "Answer to Three.", "Answer to Four."]
    said = [[event.position for event in of_type(events, WaitingForServer)] for events in rest[2:]]
    assert said[0] == [0] and said[1][-1] == 0, "each wait ends with a word that it is over"
    assert not of_type([event for events in rest for event in events], ErrorEvent)
    # one turn at a time on each server is what the waits above show; which server frees first is the machine's
    assert len(first.chat_requests) + len(second.chat_requests) == 4, "each turn asked once"
    assert first.chat_requests and second.chat_requests, "both servers answered"


async def test_a_turn_in_line_is_not_overtaken_by_one_that_comes_later() -> None:
    gate = Gate()
    with FakeOllama() as fake:
        fake.script(held(gate))
        answer_each(fake)
        agent = agent_on(fake, cap=1)
        async with (
            aclosing(agent.stream(agent.request("One"))) as one,
            aclosing(agent.stream(agent.request("Two"))) as two,
            aclosing(agent.stream(agent.request("Three"))) as three,
        ):
            assert isinstance(await anext(one), TextDelta)
            assert isinstance(await anext(two), WaitingForServer)
            gate.gate.set()
            await drain(one)  # the server is free now, before the turn in line has looked
            late = await anext(three)
            rest = await asyncio.gather(drain(two), drain(three))
    assert isinstance(late, WaitingForServer) and late.position == 2, "the later turn queues behind the earlier"
    assert [completed(events).content for events in rest] == ["Answer to Two.", "Answer to Three."]
    assert [body["messages"][-1]["content"] for body in fake.chat_requests] == ["One", "Two", "Three"]


async def test_a_summary_waiting_in_line_lets_a_turn_that_comes_later_go_first() -> None:
    """Nobody waits for a summary (it is written after a client leaves): the turns in line go before it."""
    gate = Gate()
    with FakeOllama() as fake:
        fake.script(held(gate))
        answer_each(fake)
        agent = agent_on(fake, cap=1)
        async with aclosing(agent.stream(agent.request("One"))) as one:
            assert isinstance(await anext(one), TextDelta)  # the only place is taken
            summary = asyncio.create_task(agent.summarize_history([("How tall?", "45 m.")]))
            while not agent.pool._line:  # noqa: SLF001 - until the summary waits in line
                await asyncio.sleep(0.01)
            two = agent.stream(agent.request("Two"))
            waiting = await anext(two)
            gate.gate.set()
            await drain(one)
            rest = await drain(two)
            await summary
    assert isinstance(waiting, WaitingForServer) and waiting.position == 1, "the summary is not ahead of it"
    assert completed(rest).content == "Answer to Two."
    asked = [body["messages"][-1]["content"] for body in fake.chat_requests]
    assert asked[:2] == ["One", "Two"] and len(asked) == 3, asked


async def test_summaries_leave_a_place_for_a_question_asked_meanwhile() -> None:
    """Two tabs left their workspaces at once (each tab its own agent, the process's one pool): their summaries take
    one of the server's two places, not both, so that a question asked while they are written does not wait."""
    gate = Gate()
    with FakeOllama() as fake:
        fake.responder = lambda body: (
            held(gate, "- Summary", " written.")
            if is_summary_request(body)
            else Reply.text(f"Answer to {body['messages'][-1]['content']}")
        )
        pool = ServerPool([fake.url], 2, clock=Clock())
        tab_a, tab_b = (AIAgent("qwen3:4b", pool.urls, "You are an engineering assistant.", pool=pool) for _ in "ab")
        first = asyncio.create_task(tab_a.summarize_history([("How tall is A?", "45 m.")]))
        second = asyncio.create_task(tab_b.summarize_history([("How tall is B?", "30 m.")]))
        for _ in range(500):  # until one summary is being written, and the other waits in line or is written too
            if fake.chat_requests and (pool._line or len(fake.chat_requests) == 2):  # noqa: SLF001
                break
            await asyncio.sleep(0.01)
        summaries_sent = len(fake.chat_requests)
        events = await run(tab_a, "What span?")
        gate.gate.set()
        summaries = await asyncio.gather(first, second)
    assert summaries_sent == 1, "the second summary waits for the first"
    assert completed(events).content == "Answer to What span?" and not of_type(events, WaitingForServer)
    assert list(summaries) == ["- Summary written.", "- Summary written."]
    asked = [is_summary_request(body) for body in fake.chat_requests]
    assert asked == [True, False, True], "the second summary was asked after the question"


async def test_one_server_behaves_as_before_and_says_nothing_of_a_line_below_its_cap() -> None:
    gate = Gate()
    with FakeOllama() as fake:
        fake.script(held(gate), Reply.text("Beside it."))
        agent = agent_on(fake, cap=2)
        async with aclosing(agent.stream(agent.request("One"))) as one:
            assert isinstance(await anext(one), TextDelta)
            beside = await run(agent, "Two")
            gate.gate.set()
            rest = [event async for event in one]
    assert completed(beside).content == "Beside it." and completed(rest).content == "Still writing."
    assert not of_type(beside + rest, WaitingForServer)
    assert not [path for path, _, _ in fake.requests if path == "/api/tags"], "one server: nothing to choose"


async def test_the_models_of_every_server_that_answers_are_listed_together() -> None:
    with (
        FakeOllama(models=["qwen3:4b", "nomic-embed-text:latest"]) as a,
        FakeOllama(models=["llama3.2:3b", "qwen3:4b"]) as b,
        FakeOllama(models=["gemma3:4b"]) as c,
    ):
        c.close()
        agent = agent_on(a, b, c)
        assert await agent.list_models() == ["llama3.2:3b", "qwen3:4b"]
    assert [server.answering for server in agent.pool.health()] == [True, True, False]


async def test_a_summary_is_written_on_a_server_that_has_its_model() -> None:
    with FakeOllama(models=["llama3.2:3b"]) as other, FakeOllama() as has_it:
        has_it.script(Reply.text("- A 45 m tower."))
        summary = await agent_on(other, has_it).summarize_history([("How tall?", "45 m.")])
    assert summary == "- A 45 m tower." and other.chat_requests == [] and len(has_it.chat_requests) == 1


def test_embeddings_go_to_a_server_that_answers_and_has_the_embedding_model() -> None:
    with FakeOllama() as lacking, FakeOllama(models=["nomic-embed-text:latest"]) as has_it, FakeOllama() as down:
        down.close()
        pool = ServerPool([down.url, lacking.url, has_it.url])
        vectors = Embedder(pool, "nomic-embed-text:latest").embed(["a steel beam", "a concrete slab"])
    assert len(vectors) == 2 and all(len(vector) == 4 * has_it.embed_dimensions for vector in vectors)
    asked = [(fake.url, path) for fake in (lacking, has_it) for path, _, _ in fake.requests if path == "/api/embed"]
    assert asked == [(lacking.url, "/api/embed"), (has_it.url, "/api/embed")]
    assert [server.answering for server in pool.health()] == [False, True, True]


async def test_turns_one_after_another_take_the_servers_in_turn() -> None:
    with FakeOllama() as first, FakeOllama() as second:
        first.script(*[Reply.text("First.")] * 3)
        second.script(*[Reply.text("Second.")] * 3)
        agent = agent_on(first, second, cap=2)
        for number in range(4):
            await run(agent, f"Question {number}")
    assert len(first.chat_requests) == 2 and len(second.chat_requests) == 2


async def test_two_processes_on_one_store_send_their_turns_where_fewest_run(store_target: str) -> None:
    """Each process counts only its own turns in flight; the store's running turns tell it the others'."""
    from app import Application
    from store import ChatHistoryDB

    gate = Gate()
    with FakeOllama() as first, FakeOllama() as second:
        first.script(held(gate), Reply.text("A."))
        second.script(Reply.text("Answered at once."), Reply.text("B."))
        offices = [Application(ChatHistoryDB(store_target), agent_on(first, second, cap=2)) for _ in "ab"]
        try:
            chat = offices[0].workspaces.create("Tower").chat_id
            annex = offices[1].workspaces.create("Annex").chat_id  # one workspace would make b wait for a's turn
            async with aclosing(offices[0].turns.ask("A long one", chat)) as long_turn:
                assert isinstance(await anext(long_turn), TextDelta), "on the first server, from process a"
                other = [event async for event in offices[1].turns.ask("A short one", annex)]
                gate.gate.set()
                rest = [event async for event in long_turn]
        finally:
            for office in offices:
                office.close()
    assert completed(other).content == "Answered at once.", "process b saw a's turn on the first server"
    assert completed(rest).content == "Still writing."
    assert len(first.chat_requests) == 1 and len(second.chat_requests) == 1
