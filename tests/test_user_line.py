"""One user's turns beyond MAX_TURNS_PER_USER wait in a line of their own: a place that user gives back wakes only
their turns in line, each told its new place at once; another user's turns are left asleep."""

from __future__ import annotations

import asyncio
from functools import partial

import pytest

from app.accounts import user_turns
from app.accounts.user_turns import UserTurns
from tests.agent_helpers import until

WAIT = 10.0  # seconds: a turn never woken fails the test instead of hanging it


async def test_a_place_given_back_wakes_only_that_users_turns_in_line(monkeypatch: pytest.MonkeyPatch) -> None:
    woken: list[str] = []
    wake = user_turns._Waiter.wake  # noqa: SLF001 - who is woken is what this test is about

    def noted(waiter: user_turns._Waiter) -> None:  # noqa: SLF001
        woken.append(waiter.user)
        wake(waiter)

    monkeypatch.setattr(user_turns._Waiter, "wake", noted)  # noqa: SLF001
    line = UserTurns(1)
    for user in ("ann", "bob"):  # each runs one turn: their place is taken
        assert [waiting async for waiting in line.waits(user)] == []
    told: dict[str, list[int]] = {}
    tasks: dict[str, asyncio.Task[None]] = {}

    async def wait(name: str, user: str) -> None:
        async for waiting in line.waits(user):
            told[name].append(waiting.position)

    for name in ("ann 2", "bob 2", "ann 3", "bob 3"):
        told[name] = []
        tasks[name] = asyncio.create_task(wait(name, name.split()[0]))
        await until(partial(bool, told[name]))  # in line, told its first place, before the next one joins
    line.release("ann")
    await asyncio.wait_for(tasks["ann 2"], WAIT)
    await asyncio.sleep(0.05)  # time for any turn woken to look at its place
    assert set(woken) == {"ann"}, "bob's turns were not woken by ann's place"
    assert told == {"ann 2": [1, 0], "bob 2": [1], "ann 3": [2, 1], "bob 3": [2]}
    for name in ("bob 2", "ann 3", "bob 3"):
        tasks[name].cancel()
    await asyncio.gather(*tasks.values(), return_exceptions=True)
    assert line.running("ann") == 1 and line.running("bob") == 1
