"""OpenAI's chat API on the protocol server's HTTP port, for the programs and libraries that speak it.

`GET /v1/models` lists the chat models; `POST /v1/chat/completions` asks one question, streamed or not. The turn
runs through `Application.turns.ask`, as the protocol's does: on the same workspaces, users, access policy and audit
trail, with the assistant's own tools running here (a client's `tools` are refused), one turn at a time in a
workspace, stored before the response ends and run to its end if the client hangs up. The last message is the
question; the earlier ones are the conversation the model sees; the turn is stored in the caller's workspace named
`metadata.workspace` (default "API"), made if they have none of that name.

`Authorization: Bearer KEY` is the server's `--token` without accounts, a user's API key with AUTH=accounts. Every
refusal is `{"error": {"message", "type", "code"}}` with its status (401, 403, 400, 404, 413, 408), and nothing of
a refused request reaches the model.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from app import Application, ForbiddenError, HistoryError, SignInError
from app.turns.conversation import Conversation
from domain.events import AgentError, AgentEvent
from faces.server.http_bodies import BodyTooLongError, bearer_token, declared_too_long, read_body
from faces.server.openai_records import DONE, ApiError, Content, Reply, event, models_list, turn_failure
from faces.server.openai_requests import ChatRequest, read_chat_request
from faces.server.protocol import MAX_LINE_BYTES
from faces.server.server import ProtocolServer

logger = logging.getLogger(__name__)
MODELS_SECONDS = 30.0  # how long the servers' model list is trusted before a question's model is looked up again
STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
Turn = asyncio.Queue[AgentEvent | ApiError | None]  # a turn's events for its response, None after the last


def openai_routes(server: ProtocolServer) -> list[Route]:
    api = OpenAiApi(server)
    return [
        Route("/v1/models", api.models, methods=["GET"]),
        Route("/v1/chat/completions", api.completions, methods=["POST"]),
    ]


def refused(error: ApiError) -> Response:
    return JSONResponse(error.body(), status_code=error.status)


def unauthorized(message: str) -> ApiError:
    return ApiError(401, message, "authentication_error", "invalid_api_key")


class OpenAiApi:
    """The chat API over one protocol server: its token or its users' keys, its workspaces' turns one at a time."""

    def __init__(self, server: ProtocolServer) -> None:
        self._server = server
        self._models: tuple[float, list[str]] = (-MODELS_SECONDS, [])

    async def models(self, request: Request) -> Response:
        try:
            return JSONResponse(models_list(await self._model_names(self._caller(request), fresh=True)))
        except ApiError as error:
            return refused(error)

    async def completions(self, request: Request) -> Response:
        try:
            if declared_too_long(request):
                raise ApiError(413, f"The body is longer than {MAX_LINE_BYTES:,} bytes.", "invalid_request_error",
                               "request_too_large")  # fmt: skip
            view = self._caller(request)
            asked = read_chat_request(await self._body(request))
            await self._known_model(view, asked.model)
            chat_id = _workspace(view, asked.workspace)
        except ApiError as error:
            return refused(error)
        turn = self._started(view, chat_id, asked)
        if asked.stream:
            return StreamingResponse(_streamed(turn, asked), media_type="text/event-stream", headers=STREAM_HEADERS)
        return await _whole(turn, asked)

    # Before the turn --------------------------------------------------------------------

    def _caller(self, request: Request) -> Application:
        """The application of whoever the bearer token says: the server's own (its --token, or none needed), or,
        with accounts, the user whose API key it is."""
        key = bearer_token(request)
        if self._server.root.accounts_on:
            try:
                return self._server.signed_in(key, request.client.host if request.client else "")
            except SignInError:
                raise unauthorized("The API key is missing, wrong or revoked: send a user's key (python main.py "
                                   "users key NAME) as Authorization: Bearer KEY.") from None  # fmt: skip
        if self._server.token is not None and not self._server.token_matches(key):
            raise unauthorized("The token is missing or wrong: send the server's --token as Authorization: Bearer.")
        return self._server.root

    async def _body(self, request: Request) -> bytes:
        seconds = self._server.guard.limits.line_seconds
        try:
            return await read_body(request, seconds)
        except BodyTooLongError:
            message = f"The body is longer than {MAX_LINE_BYTES:,} bytes."
            raise ApiError(413, message, "invalid_request_error", "request_too_large") from None
        except TimeoutError:
            message = f"The body did not arrive whole within {seconds:g} s."
            raise ApiError(408, message, "invalid_request_error", "timeout") from None

    async def _model_names(self, view: Application, fresh: bool = False) -> list[str]:
        """The chat models the Ollama servers have (a list at most MODELS_SECONDS old, unless `fresh`)."""
        seen, names = self._models
        if fresh or time.monotonic() - seen > MODELS_SECONDS:
            try:
                names = await view.models.available()
            except AgentError as error:
                raise ApiError(503, error.message, "server_error", "provider_unavailable") from None
            self._models = (time.monotonic(), names)
        return names

    async def _known_model(self, view: Application, model: str) -> None:
        """ApiError (404) for a model no server has, looked up again before it is refused."""
        if model in await self._model_names(view) or model in await self._model_names(view, fresh=True):
            return
        message = f"There is no model {model!r} here; GET /v1/models lists the models you may ask."
        raise ApiError(404, message, "invalid_request_error", "model_not_found")

    # The turn ---------------------------------------------------------------------------

    def _started(self, view: Application, chat_id: int, asked: ChatRequest) -> Turn:
        """The turn, running in a task of the server's own (so a client that hangs up leaves it running to its
        end, and a shutdown waits for it); its events come through the queue returned."""
        turn: Turn = asyncio.Queue()
        conversation = Conversation(asked.model, asked.history, asked.instructions)
        self._server.start_task(self._run(view, chat_id, asked.question, conversation, turn))
        return turn

    async def _run(
        self, view: Application, chat_id: int, question: str, conversation: Conversation, turn: Turn
    ) -> None:
        try:
            async with self._server.turn_in((turn, "chat.completion"), view, chat_id) as flight:
                assert flight.service is not None
                async for item in flight.service.turns.ask(question, chat_id, conversation=conversation):
                    turn.put_nowait(item)
        except asyncio.CancelledError:  # the server stopped while the turn waited for the workspace
            turn.put_nowait(ApiError(503, "The server is stopping; ask again when it is back.", "server_error",
                                     "server_stopping"))  # fmt: skip
        except (ForbiddenError, SignInError, LookupError) as error:  # a share or a role changed meanwhile
            turn.put_nowait(_refusal(error))
        except HistoryError as error:  # e.g. the disk is full: the turn could not be stored
            turn.put_nowait(ApiError(500, str(error), "server_error", "internal_error"))
        except Exception:  # noqa: BLE001 - a bug: the response still ends with an error saying so
            logger.exception("chat completion failed")
            turn.put_nowait(ApiError(500, "The server failed during this turn; see its log.", "server_error",
                                     "internal_error"))  # fmt: skip
        finally:
            turn.put_nowait(None)


def _workspace(view: Application, name: str) -> int:
    """The id of the caller's workspace named `name` (made if they have none), where they may ask."""
    try:
        chat = view.workspaces.named(name)
        view.access.change(chat.chat_id, "ask")
    except (ForbiddenError, SignInError, LookupError) as error:
        raise _refusal(error) from None
    except HistoryError as error:
        raise ApiError(500, str(error), "server_error", "internal_error") from None
    return chat.chat_id


def _refusal(error: ForbiddenError | SignInError | LookupError) -> ApiError:
    if isinstance(error, ForbiddenError):
        return ApiError(403, str(error), "permission_error", "forbidden")
    if isinstance(error, SignInError):
        return unauthorized(str(error))
    return ApiError(404, str(error.args[0]) if error.args else "There is no such workspace.",
                    "invalid_request_error", "workspace_not_found")  # fmt: skip


async def _whole(turn: Turn, asked: ChatRequest) -> Response:
    """The answer as one `chat.completion`, once the turn is stored; a failed turn as its error."""
    content = Content()
    while (item := await turn.get()) is not None:
        if isinstance(item, ApiError):
            return refused(item)
        content.add(item)
    failure = _failure(content)
    if failure is not None:
        return refused(failure)
    return JSONResponse(Reply(asked.model).completion(content.text, content.done))


async def _streamed(turn: Turn, asked: ChatRequest) -> AsyncIterator[bytes]:
    """The answer as `chat.completion.chunk` events as it comes, the last with finish_reason "stop" once the turn is
    stored, then `[DONE]`; a failure as an `error` event before `[DONE]`."""
    reply = Reply(asked.model)
    yield reply.chunk({"role": "assistant", "content": ""})
    content = Content()
    while (item := await turn.get()) is not None:
        if isinstance(item, ApiError):
            yield event(item.body())
            yield DONE
            return
        if piece := content.add(item):
            yield reply.chunk({"content": piece})
    failure = _failure(content)
    if failure is not None:
        yield event(failure.body())
    else:
        yield reply.chunk({}, "stop")
        if asked.include_usage:
            yield reply.usage_chunk(content.done)
    yield DONE


def _failure(content: Content) -> ApiError | None:
    """Why the turn gave no answer (None: it answered)."""
    done = content.done
    if done is None or done.stop_reason == "error":
        return turn_failure(content.failure, "The turn ended without an answer; see the server's log.")
    if done.stop_reason == "stopped":
        return ApiError(503, "The server stopped before the answer was complete; what arrived is stored.",
                        "server_error", "server_stopping")  # fmt: skip
    return None
