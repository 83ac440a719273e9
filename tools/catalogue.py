"""What a tool's module declares about it, on its function: its kind and the words engineers use for it.

    @tool("calculation", words=("beam", "span", "moment", "deflection"))
    def beam_analysis(span: str, load: str) -> CalcResult:
        ...

The registry derives the schema and the validator from the function itself (`tools.registry`);
`tools/__init__.py` lists every tool once. Code outside `tools` asks by kind, never by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

# calculation: its result is a calculation the report and the package list; file: reads or edits the workspace
# folder; documents: searches the project's documents; memory: the user's memory across workspaces; history:
# searches the user's other workspaces (past work).
ToolKind = Literal["calculation", "file", "documents", "memory", "history"]
Function = TypeVar("Function", bound=Callable[..., Any])

_DECLARED = "declared_tool"


@dataclass(frozen=True)
class Declaration:
    """What a module says about one of its tools.

    `words` are words engineers use for it that its name and description do not say (the default agent offers
    the model the tools a question's words call for: `engine.tool_selection`). A tool that `changes_state`
    (writes a file, changes the memory) is never run twice for one result; one `always_offered` is described to
    the model whatever the question.
    """

    kind: ToolKind
    words: tuple[str, ...] = ()
    changes_state: bool = False
    always_offered: bool = False


def tool(
    kind: ToolKind, *, words: tuple[str, ...] = (), changes_state: bool = False, always_offered: bool = False
) -> Callable[[Function], Function]:
    """Declare a function a tool of `kind`; the function itself is returned unchanged."""

    def declare(function: Function) -> Function:
        function.__dict__[_DECLARED] = Declaration(kind, words, changes_state, always_offered)
        return function

    return declare


def declaration(function: Callable[..., Any]) -> Declaration | None:
    """What `function`'s module declared about it, or None for a function not declared a tool."""
    found = getattr(function, "__dict__", {}).get(_DECLARED)
    return found if isinstance(found, Declaration) else None
