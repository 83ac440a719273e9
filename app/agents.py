"""Agents: a system prompt, a model and a tool subset, each defined in a Markdown file with YAML frontmatter.

The project's `agents/` folder ships three; AGENTS_DIR adds the user's own (a file there replaces a
shipped one of the same name). A file that cannot be read or does not validate is reported with its
name (and line, for YAML) and left out; it never stops the application.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access
from app.ports import WorkspaceRecords
from store import is_store_file
from tools import tool_specs

SHIPPED = Path(__file__).resolve().parents[1] / "agents"
DEFAULT_AGENT = "assistant"
_FRONTMATTER = re.compile(r"\A---[ \t]*\n(.*?)^---[ \t]*\n?(.*)\Z", re.DOTALL | re.MULTILINE)


class AgentProfile(BaseModel):
    """One agent file: what the frontmatter says, and the Markdown body added to the system prompt."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$")
    description: str = Field(min_length=1, max_length=500)
    model: str | None = None
    temperature: float | None = Field(default=None, ge=0, le=2)
    tools: list[str] | None = None
    tags: list[str] = []
    prompt: str = ""
    source: str = ""


@dataclass
class AgentCatalog:
    """The agents that loaded, by name, and a sentence for each file that did not."""

    profiles: dict[str, AgentProfile] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def get(self, name: str | None) -> AgentProfile:
        return self.profiles.get(name or DEFAULT_AGENT) or self.profiles[DEFAULT_AGENT]


def load_agents(user_folder: Path | None = None, shipped: Path = SHIPPED, history: Path | None = None) -> AgentCatalog:
    """The shipped agents and those in `user_folder`; a file of the chat history at `history` is never opened."""
    catalog = AgentCatalog({DEFAULT_AGENT: AgentProfile(name=DEFAULT_AGENT, description="The general assistant.")})
    for folder in (shipped, user_folder):
        if folder is None:
            continue
        if not folder.is_dir():
            catalog.problems.append(f"AGENTS_DIR {folder} is not a folder; only the shipped agents are used.")
            continue
        for path in sorted(folder.glob("*.md")):
            if history is not None and is_store_file(path, history):  # reading it would drop SQLite's locks
                catalog.problems.append(f"{path}: a file of the chat history itself; it is never read.")
                continue
            try:
                profile = read_agent(path)
            except ValueError as problem:
                catalog.problems.append(str(problem))
                continue
            catalog.profiles[profile.name] = profile
    return catalog


def read_agent(path: Path) -> AgentProfile:
    """One agent file; ValueError with the file's name (and line) says what is wrong with it."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: cannot be read ({error})") from None
    match = _FRONTMATTER.match(text)
    if match is None:
        raise ValueError(f"{path}, line 1: an agent file starts with YAML frontmatter between two '---' lines")
    try:
        front = yaml.safe_load(match.group(1)) or {}
    except RecursionError:
        raise ValueError(f"{path}: the frontmatter is nested too deeply to be read") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f", line {mark.line + 2}" if mark is not None else ""  # +1 for the opening '---', +1 from 0-based
        raise ValueError(
            f"{path}{line}: the frontmatter is not valid YAML ({getattr(error, 'problem', error)})"
        ) from None
    if not isinstance(front, dict):
        raise ValueError(f"{path}, line 2: the frontmatter must be a mapping of name, description, tools, …")
    try:
        profile = AgentProfile(**front, prompt=match.group(2).strip(), source=str(path))
    except RecursionError:
        raise ValueError(f"{path}: the frontmatter is nested too deeply to be read") from None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "frontmatter"
        raise ValueError(f"{path}: {where}: {first['msg']}") from None
    unknown = [name for name in profile.tools or [] if name not in tool_specs and "__" not in name]
    if unknown:
        raise ValueError(f"{path}: tools: no tool named {', '.join(unknown)}")
    return profile


class Agents:
    """The agents a workspace may work with (its prompt, tools, maybe model), and the files that did not load."""

    def __init__(
        self,
        catalog: AgentCatalog,
        store: WorkspaceRecords,
        tool_names: Sequence[str],
        access: Access,
        audit: AuditTrail,
    ) -> None:
        self._catalog = catalog
        self._store = store
        self._tool_names = list(tool_names)
        self._access = access
        self._audit = audit

    @property
    def catalog(self) -> AgentCatalog:
        return self._catalog

    @property
    def profiles(self) -> dict[str, AgentProfile]:
        return self._catalog.profiles

    @property
    def problems(self) -> list[str]:
        """A sentence for each agent file that was left out."""
        return self._catalog.problems

    def of(self, chat_id: int) -> str:
        """The name of the agent the workspace works with."""
        chat = self._access.visible(chat_id)
        return self._catalog.get(chat.agent if chat else None).name

    def choose(self, chat_id: int, name: str) -> str:
        """Let the workspace work with agent `name` from its next turn on; LookupError names the agents."""
        if name not in self._catalog.profiles:
            choices = ", ".join(sorted(self._catalog.profiles))
            raise LookupError(f"There is no agent {name!r}; the agents are: {choices}.")
        chat = self._access.change(chat_id, "choose the agent of")
        if self._catalog.get(chat.agent).name == name:
            return name  # already: nothing to write
        with self._store.unit_of_work():
            self._store.set_chat_agent(chat_id, name)
            self._audit.record("agent chosen", chat_id, name, chat.chat_name)
        return name

    def tools(self) -> list[tuple[str, str]]:
        """(name, description) of each built-in tool the model may be offered."""
        return [(name, tool_specs[name].description) for name in self._tool_names]
