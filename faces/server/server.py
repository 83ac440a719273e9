"""The protocol server: NDJSON over TCP on the application service, several clients and requests at once.

Each request runs as a task of its own, so one connection may have several in flight;
their events are told apart by `requestID`. Each workspace ("session") has its own
service (and agent) and a lock, so turns in different sessions run at once and a second
dispatch to a busy session waits its turn, as in the faces. With AUTH=accounts each request's
`token` is its user's API key, and the request is served by the application opened for that user, so
every check is the application's own: a session the user may not see answers SESSION_NOT_FOUND, one
they may only read FORBIDDEN.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hmac
import logging
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from app import Application, ForbiddenError, HistoryError, ImageRefusedError, SignInError, User, clean_image
from domain.records import CleanImage, Workspace
from faces.server.connection import Connection, Sink, read_lines
from faces.server.limits import BACKLOG, ConnectionGuard, Limits
from faces.server.protocol import (
    DEFAULT_AGENT,
    Event,
    Request,
    RequestError,
    error_event,
    event,
    read_request,
    shown,
)
from faces.server.records import TurnSoFar, session_entry, turn, turn_events

logger = logging.getLogger(__name__)
SHUTDOWN_SECONDS = 15.0


@dataclass
class Flight:
    """A dispatch in progress: its task, and once its turn has started, the service running it."""

    task: asyncio.Task[Any]
    service: Application | None = None


class ProtocolServer:
    """Serves the protocol for one store and workspace folder (one `Application` and its siblings)."""

    def __init__(
        self, service: Application, token: str | None = None, limits: Limits | None = None, trusted_proxies: str = ""
    ) -> None:
        self.root = service
        self.token = token
        self.trusted_proxies = trusted_proxies  # whose X-Forwarded-For names a client over HTTP (empty: nobody's)
        self.guard = ConnectionGuard(limits or Limits())  # the TCP and the HTTP face's connections
        self._services: dict[tuple[int, int], Application] = {}  # (user id, 0 without accounts; workspace)
        self._views: dict[User, Application] = {}  # with accounts: each user's application
        self._locks: dict[int, asyncio.Lock] = {}
        self._flights: dict[tuple[object, str], Flight] = {}  # request ids are their connection's (sink's) own
        self._tasks: set[asyncio.Task[Any]] = set()
        self._connections: set[Connection] = set()
        self._server: asyncio.Server | None = None

    # Listening --------------------------------------------------------------------

    async def start(self, host: str, port: int) -> tuple[str, int]:
        self._server = await asyncio.start_server(self._serve_connection, host, port, backlog=BACKLOG)
        address = self._server.sockets[0].getsockname()
        return str(address[0]), int(address[1])

    async def shutdown(self) -> None:
        """Stop listening; stop the turns in flight (what arrived is stored, marked as stopped) and wait for them."""
        if self._server is not None:
            self._server.close()
        for flight in list(self._flights.values()):
            if flight.service is not None:
                flight.service.turns.stop()
            else:
                flight.task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=SHUTDOWN_SECONDS)
        for connection in list(self._connections):  # every turn has ended and been sent: hang up
            connection.close()
        for service in self._services.values():  # a summary not yet begun is written next time
            service.summaries.skip()
        for service in [*self._services.values(), *self._views.values()]:
            await asyncio.to_thread(service.summaries.wait, SHUTDOWN_SECONDS)
            await service.aclose()
        await self.guard.stop()

    def token_matches(self, given: Any) -> bool:
        return (
            isinstance(given, str)
            and self.token is not None
            and hmac.compare_digest(given.encode(), self.token.encode())
        )

    # Connections ------------------------------------------------------------------

    async def _serve_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        connection = Connection(writer, str(peer[0]) if isinstance(peer, tuple) else str(peer))
        refusal = self.guard.admit(connection)
        if refusal is not None:
            connection.hang_up("INVALID_REQUEST", refusal)
            return
        self._connections.add(connection)
        try:
            await read_lines(reader, connection, lambda line: connection.started(self.serve_line(line, connection)))
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self.guard.release(connection)
            self._connections.discard(connection)
            connection.flush()
            connection.closed = True
            for chat_id in connection.sessions:  # the client is done with them: refresh their digital twins
                self._leave(chat_id)  # (on a worker thread: the store's work does not hold up the other clients)
            with contextlib.suppress(ConnectionError, RuntimeError):
                writer.close()

    def serve_line(self, line: bytes, sink: Sink, authorized: bool = False) -> asyncio.Task[Any]:
        """Serve one request line: its events go to `sink.send`. `authorized`: the transport checked the token."""
        return self._start(self._handle(line, sink, authorized))

    def _start(self, work: Any) -> asyncio.Task[Any]:
        """Run `work` as a task the server waits for when it stops."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _handle(self, line: bytes, sink: Sink, authorized: bool = False) -> None:
        request: Request | None = None
        try:
            view = self.root
            if self.root.accounts_on:
                request = read_request(line, None, self.token_matches, self.root.agents.profiles)
                view = self._signed_in(request, sink)
            else:
                token = None if authorized else self.token
                request = read_request(line, token, self.token_matches, self.root.agents.profiles)
            handler = {
                "dispatch": self._dispatch,
                "cancel": self._cancel,
                "list-sessions": self._list_sessions,
                "get-session": self._get_session,
                "delete-session": self._delete_session,
            }[request.type]
            await handler(request, sink, view)
        except RequestError as refused:
            await sink.send(refused.event)
        except ForbiddenError as error:
            await sink.send(error_event(request.id if request else None, "FORBIDDEN", str(error)))
        except LookupError as error:
            await sink.send(error_event(request.id if request else None, "SESSION_NOT_FOUND", _sentence(error)))
        except HistoryError as error:
            await sink.send(error_event(request.id if request else None, "INTERNAL_ERROR", str(error)))
        except Exception:  # noqa: BLE001 - a bug must not end the connection or the server
            logger.exception("request failed")
            message = "the server failed on this request; see its log"
            await sink.send(error_event(request.id if request else None, "INTERNAL_ERROR", message))

    def _signed_in(self, request: Request, sink: Sink) -> Application:
        """The application of the user whose API key is the request's token (AUTH=accounts)."""
        try:
            return self.signed_in(request.body.get("token"), str(getattr(sink, "address", "")))
        except SignInError:
            message = "the request's token is not a valid API key (missing, wrong or revoked)"
            raise RequestError(request.id, "UNAUTHORIZED", message) from None

    def signed_in(self, key: Any, address: str) -> Application:
        """The application of the user whose API key `key` is (AUTH=accounts); SignInError for a missing, wrong or
        revoked key (a wrong or revoked one recorded in the audit trail)."""
        if not isinstance(key, str):
            raise SignInError("no key")
        user = self.root.accounts.sign_in_with_key(key, address)
        if user not in self._views:
            self._views[user] = self.root.for_user(user, can_ask=False)
        return self._views[user]

    def start_task(self, work: Any) -> asyncio.Task[Any]:
        """Run `work` (a turn another face asked for) as a task the server waits for when it stops."""
        return self._start(work)

    @contextlib.asynccontextmanager
    async def turn_in(self, key: tuple[object, str], view: Application, chat_id: int) -> AsyncIterator[Flight]:
        """A turn's place in workspace `chat_id`: entered once the turn before it there has ended, with the service
        that runs it in its flight (`key`: the asker and its id for the turn, which a cancel names); a shutdown
        stops it."""
        current = asyncio.current_task()
        assert current is not None
        flight = self._flights[key] = Flight(current)
        try:
            async with self._locks.setdefault(chat_id, asyncio.Lock()):
                flight.service = self._service(view, chat_id)
                yield flight
        finally:
            self._flights.pop(key, None)

    # Dispatch -------------------------------------------------------------------------

    async def _dispatch(self, request: Request, sink: Sink, view: Application) -> None:
        key = (sink, request.id)
        if key in self._flights:
            message = f"a dispatch with id {shown(request.id)} is already in progress; give each request its own id"
            raise RequestError(request.id, "INVALID_REQUEST", message)
        chat_id = request.session_id(required=False)
        if (asked_in := chat_id) is not None:  # FORBIDDEN before the turn starts (the store's work off the loop)
            await asyncio.to_thread(lambda: _seen(request, lambda: view.access.change(asked_in, "ask")))
        pictures = await _pictures(request, view, chat_id)  # refused before a workspace is made or a turn starts
        chat_id = await asyncio.to_thread(_session_for, request, view, chat_id)
        sink.sessions.add(chat_id)
        started = False
        try:
            async with self.turn_in(key, view, chat_id) as flight:
                started = True
                assert flight.service is not None
                await self._run_turn(request, sink, flight.service, chat_id, pictures)
        except asyncio.CancelledError:
            if started:
                raise
            await sink.send(_cancelled_before_start(request.id, chat_id))  # cancelled while waiting its turn

    async def _run_turn(
        self, request: Request, sink: Sink, service: Application, chat_id: int, pictures: tuple[CleanImage, ...]
    ) -> None:
        """The turn's events, `turn-completed` last whatever happens (the store failing, a bug): then its
        stopReason is `error`, after an `error` event saying why."""
        turn_id = f"turn-{uuid.uuid4().hex[:12]}"
        agent = request.text("agentID") or DEFAULT_AGENT
        await sink.send(event("turn-started", request.id, turnID=turn_id, agentID=agent, sessionID=str(chat_id)))
        so_far = TurnSoFar(request.id, turn_id, str(chat_id))
        try:
            events = await asyncio.to_thread(service.turns.ask, _question(request), chat_id, images=pictures)
            async for item in turn_events(events, request.id, turn_id, str(chat_id)):
                so_far.saw(item)
                await sink.send(item)
        except HistoryError as error:  # e.g. the disk is full: the turn could not be stored
            for item in so_far.failed(str(error)):
                await sink.send(item)
        except Exception:  # noqa: BLE001 - a bug: the dispatch still ends with turn-completed, as promised
            logger.exception("turn failed")
            for item in so_far.failed("the server failed during this turn; see its log"):
                await sink.send(item)

    async def _cancel(self, request: Request, sink: Sink, view: Application) -> None:
        """Stop a dispatch sent through the same sink (connection): another client's ids are not reachable."""
        target = request.text("requestID") or ""
        flight = self._flights.get((sink, target))
        if flight is None:
            message = f"no dispatch {shown(target)} of this connection is in progress"
            raise RequestError(request.id, "INVALID_REQUEST", message)
        if flight.service is not None:
            flight.service.turns.stop()  # ends now, keeps what arrived: turn-completed says "cancelled"
        else:
            flight.task.cancel()
        await sink.send(event("cancel-accepted", request.id, target=target))

    def _service(self, view: Application, chat_id: int) -> Application:
        key = (view.user.user_id if view.user is not None else 0, chat_id)
        if key not in self._services:
            self._services[key] = view.sibling(can_ask=False)
        return self._services[key]

    def _leave(self, chat_id: int) -> None:
        lock = self._locks.get(chat_id)
        services = [service for (_, used), service in self._services.items() if used == chat_id]
        if services and not (lock and lock.locked()):
            self._start(asyncio.to_thread(_left, services[0], chat_id))

    # Sessions ---------------------------------------------------------------------------

    async def _list_sessions(self, request: Request, sink: Sink, view: Application) -> None:
        wanted = request.text("agentID")
        chats = [c for c in view.workspaces.recent() if wanted is None or view.agents.of(c.chat_id) == wanted]
        sessions = [session_entry(chat, view.turns.count(chat.chat_id)) for chat in chats]
        await sink.send(event("sessions", request.id, sessions=sessions))

    async def _get_session(self, request: Request, sink: Sink, view: Application) -> None:
        chat_id = request.session_id(required=True)
        assert chat_id is not None
        chat = _seen(request, lambda: view.workspaces.read(chat_id))
        turns = [
            turn(
                record,
                [base64.b64encode(view.turns.image(chat_id, image.image_id)).decode() for image in record.images],
            )
            for record in view.turns.of(chat_id)
        ]
        body = {"sessionID": str(chat_id), "name": chat.chat_name, "summary": chat.context_summary, "turns": turns}
        await sink.send(event("session", request.id, **body))

    async def _delete_session(self, request: Request, sink: Sink, view: Application) -> None:
        chat_id = request.session_id(required=True)
        assert chat_id is not None
        _seen(request, lambda: view.access.own(chat_id, "delete"))  # FORBIDDEN before waiting for a running turn
        async with self._locks.setdefault(chat_id, asyncio.Lock()):  # never under a turn that is running
            view.workspaces.delete(chat_id)
        await sink.send(event("session-deleted", request.id, sessionID=str(chat_id)))


def _session_for(request: Request, view: Application, chat_id: int | None) -> int:
    """The dispatch's session, made when it names none (named by its first answered question, as in the faces),
    with the agent it asks for (the workspace remembers it)."""
    if chat_id is None:
        chat_id = view.workspaces.create().chat_id
    view.agents.choose(chat_id, request.text("agentID") or DEFAULT_AGENT)
    return chat_id


def _seen(request: Request, check: Callable[[], Workspace]) -> Workspace:
    """The session the check lets the user use; SESSION_NOT_FOUND alike for a missing one and one they may not
    see (a ForbiddenError passes, as FORBIDDEN)."""
    try:
        return check()
    except LookupError:
        chat_id = request.session_id(required=True)
        raise RequestError(request.id, "SESSION_NOT_FOUND", f"there is no session {chat_id}") from None


async def _pictures(request: Request, view: Application, chat_id: int | None) -> tuple[CleanImage, ...]:
    """The dispatch's images, decoded and cleaned (in a worker thread), for a model that can see them; else
    INVALID_REQUEST with the sentence that says why."""
    images = request.body.get("images") or []
    if not images:
        return ()
    try:
        pictures = []
        for number, text in enumerate(images, 1):
            try:
                data = base64.b64decode(text, validate=True)
            except (binascii.Error, ValueError):
                raise ImageRefusedError(f"image {number} is not base64, so it was not sent.") from None
            pictures.append(await asyncio.to_thread(clean_image, f"image {number}", data))
        await view.turns.check_images(chat_id)
    except ImageRefusedError as refused:
        raise RequestError(request.id, "INVALID_REQUEST", str(refused)) from None
    return tuple(pictures)


def _sentence(error: LookupError) -> str:
    return str(error.args[0]) if error.args else "there is no such session"


def _question(request: Request) -> str:
    files = request.body.get("files") or []
    content = str(request.body["content"])
    return content if not files else f"{content}\n\n(Files referred to, in the workspace folder: {', '.join(files)})"


def _cancelled_before_start(request_id: str, chat_id: int) -> Event:
    return event(
        "turn-completed", request_id, turnID=None, sessionID=str(chat_id), content="", toolCalls=[],
        usage={"inputTokens": 0, "outputTokens": 0, "totalTokens": 0}, stopReason="cancelled",
    )  # fmt: skip


def _left(service: Application, chat_id: int) -> None:
    """The client is done with `chat_id`: its summary is queued if it has new turns."""
    with contextlib.suppress(HistoryError, LookupError):
        service.workspaces.leave(chat_id)
