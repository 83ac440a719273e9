"""Records the store keeps and every layer passes around: workspaces, turns, tool calls, file edits."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from domain.calculations import CalcResult

TurnStatus = Literal["complete", "stopped", "error", "superseded"]  # superseded: replaced by Regenerate
ImageType = Literal["image/png", "image/jpeg"]


class ToolCall(BaseModel):
    """One tool call of a turn and its result, as shown, stored and reported.

    `id` is `call_<n>`, numbering the turn's calls from 1 in the order they ran.
    """

    id: str = ""
    name: str
    arguments: dict[str, Any]
    output: str
    error: str | None = None
    duration_ms: float = 0.0
    calculation: CalcResult | None = None  # a calculation's full result: precise values, formula, diagram


class CleanImage(BaseModel, frozen=True):
    """A picture asked with a question, as it is stored and sent: drawn again from its pixels with no metadata
    block left, upright, its long side at most 1,568 px (`app.turns.images` makes it)."""

    data: bytes
    media_type: ImageType
    width: int
    height: int
    sha256: str


class TurnImage(BaseModel, frozen=True):
    """A stored turn's picture, without its bytes (a face reads them when it shows or writes it)."""

    image_id: int
    media_type: ImageType
    width: int
    height: int
    sha256: str

    @property
    def file_name(self) -> str:
        """The name an export writes it under: `image-12.jpg`."""
        return f"image-{self.image_id}{'.png' if self.media_type == 'image/png' else '.jpg'}"


class Turn(BaseModel):
    """One question and its answer, with what it cost, the pictures asked with it and the tools it used."""

    turn_id: int
    chat_id: int
    user: str
    assistant: str
    created_at: str | None
    status: TurnStatus
    model: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    duration_ms: float | None = None
    error: str | None = None
    thinking: str | None = None
    asked_by: str | None = None  # who asked: ENGINEER_NAME at the time (later the signed-in user)
    tool_calls: list[ToolCall] = []
    images: list[TurnImage] = []


class FinishedTurn(BaseModel, frozen=True):
    """A turn as it crosses into the store, however it ended: the question and its pictures, the answer, its tool
    calls, what it cost, who asked; `running_id` is the turn as stored when it was asked (`begin_turn`), finished
    with it."""

    chat_id: int
    user: str
    assistant: str
    tool_calls: tuple[ToolCall, ...] = ()
    status: TurnStatus = "complete"
    model: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    duration_ms: float | None = None
    error: str | None = None
    thinking: str | None = None
    asked_by: str | None = None
    running_id: int | None = None
    images: tuple[CleanImage, ...] = ()


class Workspace(BaseModel):
    """A workspace and its digital-twin summary."""

    chat_id: int
    chat_name: str
    created_at: str | None
    last_active_at: str | None
    context_summary: str | None
    context_updated_at: str | None
    summary_turn_id: int | None
    agent: str | None = None  # the agent the workspace works with (None: the default one)


class PastTurn(BaseModel):
    """A turn of another workspace, found by a search of past work, with its workspace's name."""

    workspace: str
    turn: Turn


class SearchHit(BaseModel):
    """A workspace found by name or message content; `snippet` shows the matching text."""

    chat_id: int
    chat_name: str
    snippet: str | None = None


FileEditStatus = Literal["proposed", "applied", "rejected", "undone"]


class FileEdit(BaseModel):
    """A change to a workspace file the model asked for, with the bytes before and after."""

    edit_id: int
    chat_id: int
    path: str
    before: bytes | None  # None: the edit creates the file
    after: bytes
    status: FileEditStatus
    created_at: str
    decided_at: str | None = None
    proposed_by: str | None = None  # who asked the question that proposed it (None: before accounts, or none)


class Memory(BaseModel):
    """Something the assistant keeps about the user for every workspace: units, codes, standards, a name."""

    memory_id: int
    text: str
    created_at: str
    updated_at: str


DocumentStatus = Literal["indexed", "skipped"]


class DocumentFile(BaseModel):
    """A file of the workspace folder as the document index knows it: indexed, or skipped and why."""

    path: str  # relative to the workspace folder, with forward slashes
    size: int
    mtime_ns: int
    sha256: str
    status: DocumentStatus
    note: str = ""  # why it was skipped, or what was read ("12 pages")
    passages: int = 0
    indexed_at: str | None = None


class Passage(BaseModel):
    """A passage of a document and where it came from: the PDF page, the Word heading, the sheet and rows."""

    passage_id: int = 0
    path: str
    page: int | None = None
    location: str
    text: str


class RunningTurn(BaseModel, frozen=True):
    """The question being answered in a workspace now (one at a time), stored as it was asked: who asks it
    (None: nobody signed in, as without accounts) and since when."""

    running_id: int
    chat_id: int
    question: str
    asked_by: str | None = None
    started_at: str


class Notification(BaseModel, frozen=True):
    """Something that happened for one user while they may not have been looking, kept until they dismiss it: a
    revision checked or approved, a workspace shared with them, a file edit waiting for their approval."""

    notification_id: int
    chat_id: int | None  # the workspace it is about (None: none, or it was deleted)
    text: str
    created_at: str


class PageActivity(BaseModel, frozen=True):
    """What an open page watches, read in one statement: the open workspace's turns, its running turn and the file
    edits waiting in it, and the user's notifications. Two readings are equal when nothing the page shows of them
    changed; a workspace the user may no longer see reads as one that does not exist."""

    seen: bool = False  # the workspace exists and the user may see it
    activity: int = 0  # the workspace's latest turn's place in the order of activity
    turns: int = 0
    running_id: int | None = None
    proposed_edits: int = 0
    latest_notification: int = 0
    notifications: int = 0
