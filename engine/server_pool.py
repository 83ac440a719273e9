"""Several Ollama servers (ENDPOINT may list them): which answers, which has which model, how many turns each
runs, and the line of turns waiting for one.

A turn goes to a server that has its model and the fewest turns in flight. The counts are this process's own:
another app process, or another program, using the same server is not seen. A server that fails (its connection
refused, no answer in time, a 5xx of its own) is marked down and left alone for DOWN_SECONDS; then its models are
read again (the probe), and if it answers it takes turns again. With MAX_TURNS_PER_SERVER turns on every server
that has the model, a turn waits in line, first come first served, and says so; a summary (which nobody waits
for) lets every turn in line go first, and summaries hold at most MAX_TURNS_PER_SERVER - 1 of a server's places, so
that a question always finds one that background work does not hold. A place given back wakes the turns that may
take a server then; the others look at their place every PLACE_SECONDS.

A pool serves every event loop of its process (the web app's tabs, the summary writer's thread, the document
index's worker threads): its state is behind a lock, and a turn in line is woken on its own loop.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncGenerator, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from domain.events import AgentError, WaitingForServer
from engine.failures import CallSite, model_on_no_server
from engine.ollama_server import ClientPerLoop, pulled_models
from engine.waking import LoopWaiter

logger = logging.getLogger(__name__)

DOWN_SECONDS = 30.0  # a server that failed is left alone this long, then probed again
MODELS_SECONDS = 10.0  # how long a server's list of models (/api/tags) is trusted
PROBE_SECONDS = 3.0  # the time limit of reading a server's models
PLACE_SECONDS = 1.0  # a turn in line looks at its place this often (woken at once when a server may be its)


def split_servers(servers: str | Sequence[str]) -> tuple[str, ...]:
    """The servers of ENDPOINT (comma-separated) or of a list, without trailing slashes or repeats, in order."""
    pieces = servers.split(",") if isinstance(servers, str) else servers
    urls = tuple(dict.fromkeys(piece.strip().rstrip("/") for piece in pieces if piece.strip()))
    if not urls:
        raise ValueError("no Ollama server is given")
    return urls


def has_model(models: Collection[str], model: str) -> bool:
    """Whether `models` (as /api/tags names them) holds `model`; a name without a tag means its `latest`."""
    return model in models or (":" not in model and f"{model}:latest" in models)


@dataclass
class _Server:
    url: str
    in_flight: int = 0
    background: int = 0  # of those in flight, summaries
    claimed: int = 0  # turns this process gave it, ever: turns one after another take the servers in turn
    down_until: float | None = None  # None: answering, as far as this process knows
    models: frozenset[str] | None = None
    models_read: float = 0.0


@dataclass(frozen=True)
class ServerHealth:
    """One server as the pool sees it now."""

    url: str
    answering: bool
    in_flight: int


class _Waiter(LoopWaiter):
    """A turn in line: the servers that have its model, and how to wake it on its own event loop."""

    def __init__(self, servers: Sequence[str], elsewhere: Mapping[str, int], background: bool = False) -> None:
        super().__init__()
        self.servers = frozenset(servers)
        self.elsewhere = elsewhere  # the turns other processes ran on each server as this one started
        self.background = background  # a summary: nobody waits for it, so the turns in line go first


class ServerPool:
    """The Ollama servers of one ENDPOINT, shared by the process's turns, summaries and embeddings."""

    def __init__(
        self,
        servers: str | Sequence[str],
        max_turns_per_server: int | None = None,
        *,
        down_seconds: float = DOWN_SECONDS,
        models_seconds: float = MODELS_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.urls = split_servers(servers)
        self.cap = max_turns_per_server  # None: no cap (a bare AIAgent, as before there were several servers)
        self.down_seconds, self.models_seconds = down_seconds, models_seconds
        self._clock = clock
        self._servers = {url: _Server(url) for url in self.urls}
        self._line: list[_Waiter] = []
        self._lock = threading.Lock()

    @property
    def several(self) -> bool:
        return len(self.urls) > 1

    # Health ------------------------------------------------------------------------------------

    def health(self) -> tuple[ServerHealth, ...]:
        with self._lock:
            return tuple(ServerHealth(s.url, s.down_until is None, s.in_flight) for s in self._servers.values())

    def mark_down(self, url: str, reason: str) -> None:
        """`url` failed: skip it for DOWN_SECONDS, then probe it again."""
        with self._lock:
            server = self._servers[url]
            server.down_until, server.models = self._clock() + self.down_seconds, None
        if self.several:
            logger.warning("Ollama at %s is left alone for %g s: %s", url, self.down_seconds, reason)
        self._wake_ready()

    def mark_answering(self, url: str, models: frozenset[str] | None = None) -> None:
        """`url` answered (with `models`, when it listed them)."""
        with self._lock:
            server = self._servers[url]
            came_back, server.down_until = server.down_until is not None, None
            if models is not None:
                server.models, server.models_read = models, self._clock()
        if came_back:
            self._wake_ready()

    def forget_models(self, url: str) -> None:
        """Read `url`'s models again before the next turn (it said it lacks one it listed)."""
        with self._lock:
            self._servers[url].models = None

    def asking(self) -> list[str]:
        """The servers worth asking now: those answering and those whose rest is over (all, if every one rests)."""
        with self._lock:
            return [url for url in self.urls if self._due(self._servers[url])] or list(self.urls)

    def _due(self, server: _Server) -> bool:
        return server.down_until is None or self._clock() >= server.down_until

    def _stale(self, server: _Server) -> bool:
        return server.models is None or self._clock() - server.models_read >= self.models_seconds

    # Which servers have a model ----------------------------------------------------------------

    async def servers_with(self, model: str, clients: ClientPerLoop, avoid: Collection[str] = ()) -> tuple[str, ...]:
        """The servers that answer and have `model`, their models read again when older than MODELS_SECONDS (a
        down server's once its rest is over: the probe). A single server is not asked: it is the only choice, and
        the turn says what is wrong with it. Raises `AgentError` when no server that answers has the model."""
        if not self.several:
            return tuple(url for url in self.urls if url not in avoid)
        asking = [url for url in self.asking() if url not in avoid]
        with self._lock:
            stale = [url for url in asking if self._stale(self._servers[url])]
        await asyncio.gather(*(self._read_models(url, clients) for url in stale))
        with self._lock:
            answering = [url for url in asking if self._servers[url].down_until is None]
            have = tuple(url for url in answering if has_model(self._servers[url].models or (), model))
            pulled = sorted({name for url in answering for name in self._servers[url].models or ()})
        if have:
            return have
        raise model_on_no_server(model, self.urls, asking, answering, pulled)

    async def _read_models(self, url: str, clients: ClientPerLoop) -> None:
        site = CallSite(url, "", PROBE_SECONDS)
        try:
            names = await pulled_models(clients.get(site), site)
        except AgentError as failure:
            self.mark_down(url, failure.message)
        else:
            self.mark_answering(url, frozenset(names))

    def embedding_order(self, model: str) -> list[str]:
        """The servers to ask for embeddings with `model`, best first: those known to have it, then the others
        worth asking; fewer turns in flight first. Embeddings are short and do not count as turns."""
        asking = self.asking()
        with self._lock:

            def rank(url: str) -> tuple[bool, int, int]:
                server = self._servers[url]
                known = server.models is not None and has_model(server.models, model)
                return not known, server.in_flight, self.urls.index(url)

            return sorted(asking, key=rank)

    # The line ----------------------------------------------------------------------------------

    def claim(
        self,
        model: str,
        clients: ClientPerLoop,
        avoid: Collection[str] = (),
        elsewhere: Mapping[str, int] | None = None,
        background: bool = False,
    ) -> Claim:
        """A turn's hold on a server that has `model` (none of `avoid`): `waits`, then `release`. `elsewhere`:
        the turns other processes run on each server now, counted when servers are compared. `background`: work
        nobody waits for (a summary), which lets every turn in line, or joining it later, go first."""
        return Claim(self, model, clients, frozenset(avoid), dict(elsewhere or {}), background)

    def join(
        self, servers: Sequence[str], elsewhere: Mapping[str, int] | None = None, background: bool = False
    ) -> _Waiter:
        waiter = _Waiter(servers, elsewhere or {}, background)
        with self._lock:
            if background:
                self._line.append(waiter)
            else:  # ahead of the background work in line, behind the turns
                at = next((i for i, other in enumerate(self._line) if other.background), len(self._line))
                self._line.insert(at, waiter)
        return waiter

    def take(self, waiter: _Waiter) -> str | None:
        """A server for `waiter`, counted in flight, if one is free and no turn before it in line may have it."""
        with self._lock:
            self._line[:] = [other for other in self._line if not other.loop.is_closed() or other is waiter]
            before = self._line[: self._line.index(waiter)]
            wanted = frozenset().union(*(other.servers for other in before))
            best = self._hold_best(waiter.servers, wanted, waiter.elsewhere, waiter.background)
            if best is None:
                return None
            self._line.remove(waiter)
        self._wake_ready()  # the turn behind it may have a place too (several were freed at once)
        return best

    def take_without_waiting(
        self, servers: Collection[str], elsewhere: Mapping[str, int], background: bool = False
    ) -> str | None:
        """A server, counted in flight, for a turn that finds nobody in line and one of `servers` free (as most do):
        nobody would go before it, so it need not join the line."""
        with self._lock:
            return None if self._line else self._hold_best(servers, frozenset(), elsewhere, background)

    def _hold_best(
        self, servers: Collection[str], wanted: frozenset[str], elsewhere: Mapping[str, int], background: bool
    ) -> str | None:
        """The least busy of `servers` free for a turn (or a summary), counted in flight (called holding the lock)."""
        free = self._free_for(servers, wanted, background)
        if not free:
            return None
        best = self._servers[min(free, key=lambda url: self._load(url, elsewhere))]
        best.in_flight += 1
        best.claimed += 1
        best.background += background
        return best.url

    def _free_for(self, servers: Collection[str], wanted: frozenset[str] | set[str], background: bool) -> list[str]:
        """Those of a turn's `servers` it may take now: free (for a summary, one it leaves a place for a turn on),
        answering (or, when none of them answers, any of them) and `wanted` by no turn before it."""
        answering = [url for url in servers if self._servers[url].down_until is None]
        return [url for url in answering or servers if url not in wanted and self._room(url, background)]

    def _load(self, url: str, elsewhere: Mapping[str, int]) -> tuple[int, int, int]:
        """How busy a server is for a turn: its turns in flight, this process's and (as the turn started) the
        others'; then how many turns this process gave it (so turns one after another take turns); then order."""
        server = self._servers[url]
        return server.in_flight + elsewhere.get(url, 0), server.claimed, self.urls.index(url)

    def _room(self, url: str, background: bool) -> bool:
        """Whether `url` has a place: below the cap, and for a summary, below the cap less one (a cap of 1: the
        one place) among the summaries, so that a question asked meanwhile need not wait for them."""
        if self.cap is None:
            return True
        server = self._servers[url]
        return server.in_flight < self.cap and not (background and server.background >= max(self.cap - 1, 1))

    def position(self, waiter: _Waiter) -> int:
        """1 when `waiter` is next for its servers; each turn before it in line wanting one of them adds one (a turn
        never has background work before it)."""
        with self._lock:
            before = self._line[: self._line.index(waiter)] if waiter in self._line else []
            return 1 + sum(1 for other in before if other.servers & waiter.servers)

    def leave(self, waiter: _Waiter) -> None:
        with self._lock:
            if waiter in self._line:
                self._line.remove(waiter)
        self._wake_ready()

    def release(self, url: str, background: bool = False) -> None:
        with self._lock:
            self._servers[url].in_flight -= 1
            self._servers[url].background -= background
        self._wake_ready()

    def _wake_ready(self) -> None:
        """Wake the turns in line that may take a server now, not the whole line: waking every turn at each
        release made a line of n turns cost n² wake-ups (each turn looks at its place every PLACE_SECONDS)."""
        with self._lock:
            ready, wanted = [], set[str]()
            for waiter in self._line:
                if waiter.loop.is_closed():
                    continue  # gone: taken out of the line by the next `take`
                if self._free_for(waiter.servers, wanted, waiter.background):
                    ready.append(waiter)
                wanted |= waiter.servers
        for waiter in ready:
            waiter.wake()


class Claim:
    """One turn's (or summary's) hold on a server: a place in line while every server with its model is busy,
    then the server, counted in flight until `release`."""

    def __init__(
        self,
        pool: ServerPool,
        model: str,
        clients: ClientPerLoop,
        avoid: frozenset[str],
        elsewhere: dict[str, int] | None = None,
        background: bool = False,
    ) -> None:
        self._pool, self.model, self._clients, self._avoid = pool, model, clients, avoid
        self._elsewhere = elsewhere or {}
        self._background = background
        self.server: str | None = None
        self._waiter: _Waiter | None = None

    async def waits(self) -> AsyncGenerator[WaitingForServer, None]:
        """Hold a server for the model: at once when one is free; else after a wait in line, told by a
        `WaitingForServer` when the turn's place has changed (looked at every PLACE_SECONDS, and whenever a
        server may be its) and once more when the wait is over. Raises
        `AgentError` when no server that answers has the model."""
        servers = await self._pool.servers_with(self.model, self._clients, self._avoid)
        if (server := self._pool.take_without_waiting(servers, self._elsewhere, self._background)) is not None:
            self.server = server
            return
        self._waiter = waiter = self._pool.join(servers, self._elsewhere, self._background)
        shown = 0
        while (server := self._pool.take(waiter)) is None:
            if (position := self._pool.position(waiter)) != shown:
                shown = position
                yield self._waiting(position, len(servers))
            await waiter.sleep(PLACE_SECONDS)
        self._waiter, self.server = None, server
        if shown:
            yield WaitingForServer(
                position=0, servers=len(servers), message=f"Ollama at {server} is free: your turn goes on there."
            )

    def _waiting(self, position: int, servers: int) -> WaitingForServer:
        ahead = position - 1
        place = "yours is next" if not ahead else f"{ahead} turn{'s' * (ahead != 1)} ahead of yours"
        cap = self._pool.cap
        busy = (
            f"The Ollama server is busy with {cap} turns (MAX_TURNS_PER_SERVER)"
            if servers == 1
            else f"All {servers} Ollama servers with {self.model} are busy, {cap} turns each (MAX_TURNS_PER_SERVER)"
        )
        return WaitingForServer(
            position=position, ahead=ahead, servers=servers, message=f"{busy}: waiting in line, {place}."
        )

    def release(self) -> None:
        """Leave the line, or give the server back; safe to call more than once."""
        waiter, server = self._waiter, self.server
        self._waiter = self.server = None
        if waiter is not None:
            self._pool.leave(waiter)
        if server is not None:
            self._pool.release(server, self._background)


class ServerPools:
    """A process's pools, one per list of servers and cap: every application it opens (the web app's tabs) shares
    them, so that the turns in flight are counted for the whole process."""

    def __init__(self) -> None:
        self._pools: dict[tuple[tuple[str, ...], int | None], ServerPool] = {}
        self._lock = threading.Lock()

    def get(self, servers: str | Sequence[str], max_turns_per_server: int | None) -> ServerPool:
        key = (split_servers(servers), max_turns_per_server)
        with self._lock:
            if key not in self._pools:
                self._pools[key] = ServerPool(*key)
            return self._pools[key]
