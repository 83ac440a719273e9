"""The terminal face: an interactive prompt, or one question with `--once`.

    python main.py [--model M] [--server URL] [--workspace NAME|ID] [--db PATH]
    python main.py --once "question"        (or: echo "question" | python main.py --once)

It renders the agent's events and calls the store; the rules both faces share
live in `core.workspaces`.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from core.events import AgentError, TurnCompleted
from core.file_edits import edit_diff
from core.settings import Settings, SettingsError, configure_logging, load_settings
from core.terminal import Renderer, Style, one_line, printable_lines
from history import HistoryError

if TYPE_CHECKING:
    from core.records import Chat
    from core.workspaces import SwitchOutcome, Workspaces

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
HELP = """Commands:
  /new NAME          start a new workspace
  /list              list workspaces (most recent first)
  /switch NAME|ID    switch workspace (its summary is refreshed first if needed)
  /rename NAME       rename the current workspace
  /delete NAME|ID    delete a workspace and its history (asks first)
  /clear             delete the current workspace's turns (asks first; the summary stays)
  /summary [update]  show the workspace's summary, or update it now
  /model NAME        use another model      /models  list the server's models
  /report [FILE]     write the workspace's calculation report (Markdown)
  /undo              undo the last file edit applied in this workspace
  /tools             list the tools the model can use
  /help              this help              /exit, /quit, Ctrl-D  leave
Ctrl-C stops a reply in progress."""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="A private engineering assistant on a local Ollama model.")
    parser.add_argument("--model", help="Ollama model (overrides MODEL)")
    parser.add_argument("--server", help="Ollama URL (overrides ENDPOINT)")
    parser.add_argument("--workspace", help="workspace name or id to open (created if the name is new)")
    parser.add_argument("--db", help="chat history file (overrides CHAT_HISTORY_DB_PATH)")
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    parser.add_argument(
        "--once",
        nargs="?",
        const="-",
        metavar="QUESTION",
        help="answer one question and exit; without QUESTION, read it from standard input",
    )
    return parser.parse_args(argv)


class EventLoop:
    """One event loop for the whole run, so the connection to Ollama is kept between turns."""

    def __init__(self) -> None:
        self._runner = asyncio.Runner()

    def run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        return self._runner.run(coroutine)

    def close(self, spaces: Workspaces | None) -> None:
        try:
            if spaces is not None:
                self._runner.run(spaces.agent.aclose())
        finally:
            self._runner.close()


async def answer(spaces: Workspaces, question: str, renderer: Renderer) -> TurnCompleted:
    """Stream one turn to `renderer`; Ctrl-C stops it. The caller stores it."""
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, spaces.agent.stop)
    except (NotImplementedError, RuntimeError, ValueError):
        pass  # not the main thread, or a platform without signal handlers: Ctrl-C ends the turn
    try:
        async for event in spaces.agent.stream(question):
            renderer.render(event)
    finally:
        try:
            loop.remove_signal_handler(signal.SIGINT)
        except (NotImplementedError, RuntimeError, ValueError):
            pass
    assert renderer.completed is not None
    return renderer.completed


def ask(spaces: Workspaces, question: str, renderer: Renderer, loop: EventLoop) -> TurnCompleted:
    """Answer and store one turn, whatever happens to it."""
    chat_id = spaces.begin_turn()
    try:
        completed = loop.run(answer(spaces, question, renderer))
    except KeyboardInterrupt:
        renderer.note("[stopped]")
        completed = TurnCompleted(content=renderer.text, stop_reason="stopped", model=spaces.agent.model)
    spaces.record_turn(question, completed, chat_id)
    return completed


def open_workspace(spaces: Workspaces, wanted: str | None) -> None:
    """Open the named (or numbered) workspace, creating a named one that does not exist yet."""
    if wanted is None:
        spaces.open_latest()
        return
    chat = spaces.db.find_chat(wanted)
    if chat is not None:
        spaces.open(chat.chat_id)
    elif wanted.strip().isdigit():
        raise LookupError(f"There is no workspace with id {wanted.strip()}; `python main.py` then /list shows them.")
    else:
        spaces.create(wanted)


def run_once(spaces: Workspaces, question: str, stdout: TextIO, stderr: TextIO, loop: EventLoop) -> int:
    if question == "-":
        question = sys.stdin.read()
    if not question.strip():
        stderr.write("No question given: pass it after --once, or on standard input.\n")
        return EXIT_USAGE
    try:
        completed = ask(spaces, question.strip(), Renderer(stdout, stderr, show_thinking=False), loop)
    except HistoryError as error:
        stderr.write(f"{error}\n")
        return EXIT_FAILED
    if pending := spaces.edits.pending():
        stderr.write(
            f"{len(pending)} proposed file edit(s) wait for your approval: run `python main.py` here to review them.\n"
        )
    return EXIT_FAILED if completed.stop_reason in ("error", "stopped") else EXIT_OK


def build(settings: Settings) -> Workspaces:
    from core.workspaces import Workspaces

    return Workspaces.from_settings(settings)


def main(argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    args = parse_args(argv)
    try:
        settings = load_settings(
            env_file=Path(args.env_file),
            overrides={"model": args.model, "endpoint": args.server, "chat_history_db_path": args.db},
        )
    except SettingsError as error:
        stderr.write(f"{error}\n")
        return EXIT_USAGE
    configure_logging(settings)
    try:
        spaces = build(settings)
        open_workspace(spaces, args.workspace)
    except SettingsError as error:
        stderr.write(f"{error}\n")
        return EXIT_USAGE
    except (HistoryError, LookupError) as error:
        stderr.write(f"{error}\n")
        return EXIT_FAILED
    loop = EventLoop()
    try:
        if args.once is not None:
            return run_once(spaces, args.once, stdout, stderr, loop)
        return Repl(spaces, settings, stdout, loop).run()
    finally:
        loop.close(spaces)


class Repl:
    """The interactive prompt: questions go to the model, lines starting with / are commands."""

    def __init__(self, spaces: Workspaces, settings: Settings, stdout: TextIO, loop: EventLoop) -> None:
        self.spaces, self.settings, self.loop = spaces, settings, loop
        self.out = stdout
        self.style = Style(stdout)
        self.commands: dict[str, Callable[[str], None]] = {
            "/help": self.help,
            "/new": self.new,
            "/list": self.list,
            "/switch": self.switch,
            "/rename": self.rename,
            "/delete": self.delete,
            "/clear": self.clear,
            "/summary": self.summary,
            "/model": self.model,
            "/models": self.models,
            "/tools": self.tools,
            "/report": self.report,
            "/undo": self.undo,
        }

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def run(self) -> int:
        if sys.stdin.isatty():
            import readline  # noqa: F401 - line editing and history for input()
        current = self.spaces.current
        where = f"workspace '{current.chat_name}'" if current else "a new workspace (your first message names it)"
        self.say(
            self.style("2", f"{self.spaces.agent.model} at {self.settings.endpoint} · {where} · /help for commands")
        )
        self.review_edits()
        while True:
            try:
                line = input(self._prompt()).strip()
            except EOFError:
                self.say("")
                return EXIT_OK
            except KeyboardInterrupt:
                self.say("\n(type /exit or press Ctrl-D to leave)")
                continue
            if line.lower() in ("exit", "quit", "/exit", "/quit"):
                return EXIT_OK
            if line:
                self.handle(line)

    def _prompt(self) -> str:
        current = self.spaces.current
        return f"{one_line(current.chat_name, 24) if current else 'new'} > "

    def handle(self, line: str) -> None:
        name, _, argument = line.partition(" ")
        command = self.commands.get(name.lower()) if line.startswith("/") else None
        if line.startswith("/") and command is None:
            self.say(f"Unknown command {name}; /help lists the commands.")
            return
        try:
            if command is None:
                ask(self.spaces, line, Renderer(self.out, self.out, show_thinking=True), self.loop)
                self.review_edits()
            else:
                command(argument.strip())
        except (LookupError, ValueError, HistoryError, OSError) as error:
            self.say(str(error))
        except AgentError as error:
            self.say(error.message)
        except KeyboardInterrupt:
            self.say("\nCancelled.")

    def _confirm(self, question: str) -> bool:
        try:
            return input(f"{question} [y/N] ").strip().lower() in ("y", "yes")
        except (EOFError, KeyboardInterrupt):
            self.say("")
            return False

    def _find(self, wanted: str) -> Chat:
        if not wanted:
            raise ValueError("Give a workspace name or id; /list shows them.")
        chat = self.spaces.db.find_chat(wanted)
        if chat is None:
            raise LookupError(f"There is no workspace called {wanted!r}; /list shows them.")
        return chat

    def _report_switch(self, outcome: SwitchOutcome) -> None:
        if outcome.error is not None:
            self.say(
                self.style(
                    "33", f"! The summary was not updated and the previous one was kept: {outcome.error.message}"
                )
            )
        elif outcome.summarised:
            self.say(self.style("2", "Summary updated."))

    def review_edits(self) -> None:
        """Show each file edit the model proposed and apply it only if the user says yes."""
        for edit in self.spaces.edits.pending():
            self.say(self.style("1", f"The model proposes this edit to {edit.path}:"))
            for line in printable_lines(edit_diff(edit)):
                code = "32" if line.startswith("+") else "31" if line.startswith("-") else "2"
                self.say(self.style(code, line))
            approved = self._confirm(f"Apply this edit to {edit.path}?")
            result = self.spaces.edits.approve(edit.edit_id) if approved else self.spaces.edits.reject(edit.edit_id)
            self.say(result)

    def undo(self, _: str) -> None:
        self.say(self.spaces.edits.undo_last())

    def help(self, _: str) -> None:
        self.say(HELP)

    def new(self, name: str) -> None:
        if self.spaces.needs_summary():
            self.say(self.style("2", "Updating the summary of the workspace you are leaving…"))
        chat, outcome = self.loop.run(self.spaces.start_new(name))
        self._report_switch(outcome)
        self.say(f"Started workspace {chat.chat_id}: {chat.chat_name}")

    def list(self, _: str) -> None:
        chats = self.spaces.db.list_chats()
        if not chats:
            self.say("No workspaces yet; your first message creates one.")
        for chat_id, name, created_at in chats:
            marker = "*" if chat_id == self.spaces.current_id else " "
            self.say(f"{marker} {chat_id:>4}  {name}  {self.style('2', '(created ' + created_at[:16] + ')')}")

    def switch(self, wanted: str) -> None:
        chat = self._find(wanted)
        if chat.chat_id == self.spaces.current_id:
            self.say(f"Already in {chat.chat_name}.")
            return
        if self.spaces.needs_summary():
            self.say(self.style("2", "Updating the summary of the workspace you are leaving…"))
        self._report_switch(self.loop.run(self.spaces.switch(chat.chat_id)))
        turns = self.spaces.db.count_turns(chat.chat_id)
        summary = ", with a summary" if chat.context_summary else ""
        self.say(f"Switched to {chat.chat_name} ({turns} turn{'s' * (turns != 1)}{summary}).")

    def rename(self, name: str) -> None:
        if not name:
            raise ValueError("Give the new name: /rename NAME")
        chat_id = self.spaces.ensure_current()
        self.spaces.db.rename_chat(chat_id, name)
        self.say(f"Renamed to {name}.")

    def delete(self, wanted: str) -> None:
        chat = self._find(wanted)
        turns = self.spaces.db.count_turns(chat.chat_id)
        if not self._confirm(f"Delete workspace {chat.chat_name!r} and its {turns} turns?"):
            self.say("Nothing deleted.")
            return
        was_current = chat.chat_id == self.spaces.current_id
        self.spaces.delete(chat.chat_id)
        self.say(f"Deleted {chat.chat_name}.")
        if was_current and (opened := self.spaces.open_latest()) is not None:
            self.say(f"Now in {opened.chat_name}.")

    def clear(self, _: str) -> None:
        current = self.spaces.current
        if current is None:
            self.say("There is no workspace to clear.")
        elif self._confirm(f"Delete the turns of {current.chat_name!r}? Its summary stays."):
            self.spaces.clear()
            self.say("Cleared.")

    def summary(self, argument: str) -> None:
        chat_id = self.spaces.current_id
        if chat_id is None:
            self.say("No workspace yet.")
            return
        if argument == "update":
            updated = self.loop.run(self.spaces.refresh_summary(chat_id))
            self.say("Summary updated." if updated else "The summary already covers every turn.")
            self.spaces.open(chat_id)
        chat = self.spaces.current
        if chat is not None and chat.context_summary:
            self.say(f"{self.style('2', 'Summary of ' + (chat.context_updated_at or '')[:16])}\n{chat.context_summary}")
        else:
            self.say("No summary yet; it is written when you leave the workspace, or with /summary update.")

    def model(self, name: str) -> None:
        if not name:
            self.say(f"Using {self.spaces.agent.model}; /models lists the others.")
            return
        self.spaces.agent.model = name
        try:
            pulled = self.loop.run(self.spaces.agent.list_models())
        except AgentError as error:
            self.say(f"Using {name} (not checked: {error.message})")
            return
        note = "" if name in pulled else f" — it is not pulled yet: run `ollama pull {name}`"
        self.say(f"Using {name}{note}.")

    def models(self, _: str) -> None:
        for name in self.loop.run(self.spaces.agent.list_models()):
            self.say(f"{'*' if name == self.spaces.agent.model else ' '} {name}")

    def report(self, argument: str) -> None:
        from core.report import calculation_report

        chat = self.spaces.current
        if chat is None:
            self.say("No workspace yet: there is nothing to report.")
            return
        path = Path(argument or f"calculations-{chat.chat_id}.md").expanduser()
        path.write_text(calculation_report(chat, self.spaces.db.get_turns(chat.chat_id)), encoding="utf-8")
        self.say(f"Wrote the calculation report to {path}.")

    def tools(self, _: str) -> None:
        from tools import tool_registry

        for name, entry in tool_registry.items():
            self.say(f"  {name:<28} {one_line(entry['description'], 80)}")


if __name__ == "__main__":
    sys.exit(main())
