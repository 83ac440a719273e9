"""The line of turns waiting for a server: a place freed wakes the turn that may take it, not the whole line, and
every turn still learns its place (each looks at it every PLACE_SECONDS)."""

from __future__ import annotations

import asyncio
from functools import partial

import pytest

from engine import server_pool
from engine.ollama_server import ClientPerLoop
from engine.server_pool import Claim, ServerPool
from tests.agent_helpers import until

SERVER = "http://127.0.0.1:9"  # one server: the pool never asks it anything
WAIT = 10.0  # seconds: a turn that is never woken fails the test instead of hanging it


async def holding(pool: ServerPool) -> Claim:
    """A claim that has its server (the pool had room)."""
    claim = pool.claim("qwen3:4b", ClientPerLoop())
    assert [waiting async for waiting in claim.waits()] == []
    return claim


async def in_line(pool: ServerPool, count: int) -> tuple[list[Claim], list[list[int]], list[asyncio.Task[None]]]:
    """`count` claims waiting in line, each noting the places it is told; returned once all of them are in line."""
    claims = [pool.claim("qwen3:4b", ClientPerLoop()) for _ in range(count)]
    told: list[list[int]] = [[] for _ in claims]

    async def wait(claim: Claim, places: list[int]) -> None:
        async for waiting in claim.waits():
            places.append(waiting.position)

    tasks = []
    for claim, places in zip(claims, told, strict=True):
        tasks.append(asyncio.create_task(wait(claim, places)))
        await until(partial(bool, places))  # in line, told its first place, before the next one joins
    return claims, told, tasks


async def test_places_freed_at_once_are_taken_at_once_by_the_turns_first_in_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both places are given back before either turn in line has looked: the first takes one and wakes the next,
    which does not wait for its own look at its place."""
    monkeypatch.setattr(server_pool, "PLACE_SECONDS", 3600.0)
    pool = ServerPool(SERVER, 2)
    running = [await holding(pool), await holding(pool)]
    claims, told, tasks = await in_line(pool, 4)
    for claim in running:
        claim.release()
    await asyncio.wait_for(asyncio.gather(*tasks[:2]), WAIT)
    assert told[:2] == [[1, 0], [2, 0]]
    assert pool.health()[0].in_flight == 2 and not any(task.done() for task in tasks[2:])
    for claim in claims[:2]:
        claim.release()
    await asyncio.wait_for(asyncio.gather(*tasks[2:]), WAIT)
    assert [places[0] for places in told[2:]] == [3, 4] and [places[-1] for places in told[2:]] == [0, 0]
    for claim in claims[2:]:
        claim.release()
    assert pool.health()[0].in_flight == 0


async def test_a_place_freed_wakes_only_the_turn_that_takes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The turns further back are not woken by a release (with n turns in line, that was n² wake-ups a burst)."""
    monkeypatch.setattr(server_pool, "PLACE_SECONDS", 3600.0)
    pool = ServerPool(SERVER, 1)
    running = await holding(pool)
    claims, told, tasks = await in_line(pool, 5)
    running.release()
    await asyncio.wait_for(tasks[0], WAIT)
    await asyncio.sleep(0.05)  # time for any turn woken to look at its place and say it
    assert told == [[1, 0], [2], [3], [4], [5]], "only the turn that took the place looked"
    for task in tasks[1:]:
        task.cancel()
    await asyncio.gather(*tasks[1:], return_exceptions=True)
    for claim in claims:  # as a turn gives its claim back however it ends
        claim.release()
    assert pool.health()[0].in_flight == 0 and not pool._line  # noqa: SLF001


async def test_a_turn_further_back_is_told_its_new_place_when_it_next_looks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_pool, "PLACE_SECONDS", 0.02)
    pool = ServerPool(SERVER, 1)
    running = await holding(pool)
    claims, told, tasks = await in_line(pool, 3)
    running.release()
    await asyncio.wait_for(tasks[0], WAIT)
    await until(lambda: told[1][-1] == 1 and told[2][-1] == 2)
    claims[0].release()
    await asyncio.wait_for(tasks[1], WAIT)
    await until(lambda: told[2][-1] == 1)
    claims[1].release()
    await asyncio.wait_for(tasks[2], WAIT)
    claims[2].release()
    assert told == [[1, 0], [2, 1, 0], [3, 2, 1, 0]]


async def test_a_turn_whose_event_loop_has_closed_is_passed_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """A web tab's loop closed while its turn was first in line: the turn behind it is woken as if it were not there."""
    monkeypatch.setattr(server_pool, "PLACE_SECONDS", 3600.0)
    pool = ServerPool(SERVER, 1)
    running = await holding(pool)
    tab, kept = asyncio.new_event_loop(), []

    async def first_in_line() -> None:  # on the tab's loop, which stops with the turn in line
        waits = pool.claim("qwen3:4b", ClientPerLoop()).waits()
        kept.append(waits)
        assert (await anext(waits)).position == 1

    await asyncio.to_thread(tab.run_until_complete, first_in_line())
    claims, told, tasks = await in_line(pool, 1)
    await asyncio.to_thread(tab.run_until_complete, kept[0].aclose())  # its events closed: its claim is not given back
    tab.close()
    running.release()
    await asyncio.wait_for(tasks[0], WAIT)
    assert told == [[2, 0]]
    claims[0].release()
