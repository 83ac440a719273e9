"""The interactive prompt: questions go to the model, lines starting with / are commands."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from app import Application, HistoryError, SignInError, SwitchOutcome, edit_diff
from app.presentation.formatting import shown_name
from app.turns.images import DEFAULT_QUESTION, read_images
from domain.events import AgentError
from domain.records import CleanImage, Workspace
from faces.cli.knowledge import KnowledgeCommands
from faces.cli.packages import HELP as PACKAGE_HELP
from faces.cli.packages import PackageCommands, report_arguments
from faces.cli.renderer import Renderer, answer_view
from faces.cli.running import EventLoop, ask
from faces.cli.terminal import (
    Style,
    fit,
    local_stamp,
    one_line,
    printable,
    printable_lines,
    terminal_width,
    two_columns,
    width_of,
)
from faces.cli.waiting import Waiting
from faces.exit_codes import EXIT_FAILED, EXIT_OK

HELP = f"""Commands:
  /new NAME          start a new workspace
  /list              list workspaces (most recent first)
  /switch NAME|ID    switch workspace (the one left is summarised in the background)
  /rename NAME       rename the current workspace
  /delete NAME|ID    delete a workspace and its history (asks first)
  /clear             delete the current workspace's turns (asks first; the summary stays)
  /summary [update]  show the workspace's summary, or update it now
  /image PATH [QUESTION]  ask about a picture (PNG, JPEG or WebP), sent without its metadata
  /model NAME        use another model      /models  list the server's models
  /report [FILE]     write the workspace's calculation report (Markdown)
{PACKAGE_HELP}
  /export [FILE]     write the whole workspace, every turn and tool call (Markdown)
  /backup FILE       copy every workspace into a new SQLite file
  /undo              undo the last file edit applied in this workspace
  /memory [add TEXT | remove ID]  what is remembered for every workspace; add or forget a fact
  /agent [NAME]      list the agents, or work with NAME in this workspace
  /docs              list the workspace folder's documents and how they were indexed
  /reindex           read new and changed documents again (in the background)
  /tools             list the tools the model can use
  /help              this help              /exit, /quit, Ctrl-D  leave
Ctrl-C stops a reply in progress."""


class Repl:
    """Reads lines, runs them as questions or commands, and says what happened in one line."""

    def __init__(
        self, service: Application, stdout: TextIO, stderr: TextIO, loop: EventLoop, plain: bool = False
    ) -> None:
        self.service, self.loop = service, loop
        self.out, self.err = stdout, stderr
        self.plain = plain
        self.style = Style(stdout)
        self.commands: dict[str, Callable[[str], None]] = {
            "/help": self.help,
            "/image": self.image,
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
            "/export": self.export,
            "/backup": self.backup,
            "/undo": self.undo,
            "/agent": self.agent,
        }
        self.packages = PackageCommands(service, self.say, lambda action: self._current(action).chat_id)
        self.commands.update(self.packages.commands())
        self.commands.update(KnowledgeCommands(service, self.say).commands())

    def approve_tool(self, name: str, arguments: dict[str, object]) -> bool:
        """Asked from the tool's thread while a turn runs: may this MCP tool run with these arguments?"""
        shown = printable(one_line(f"{name}({', '.join(f'{k}={v!r}' for k, v in arguments.items())})", 300))
        try:
            return input(f"\nAllow {shown}? [y/N] ").strip().lower() in ("y", "yes")
        except EOFError:
            return False

    def say(self, text: str, style: str | None = None, wrap: bool = True) -> None:
        """Lines for the user, in the ANSI `style` if given, broken between words to the terminal's width (unless
        not to `wrap`): whatever the text holds (a name, an error, model or file text), control characters are
        removed and bidi controls written out. Names go through `shown_name` first."""
        for line in fit(printable(text), width_of(self.out) if wrap else None):
            self._line(self.style(style, line) if style else line)

    def _line(self, line: str) -> None:
        """A line made of pieces already made printable (and styled)."""
        self.out.write(line + "\n")
        self.out.flush()

    def run(self) -> int:
        if sys.stdin.isatty():
            import readline  # noqa: F401 - line editing and history for input()
        current = self.service.workspaces.current
        where = "a new workspace (your first message names it)"
        if current is not None:
            where = f"workspace '{shown_name(current.chat_name)}'"
        self.say(f"{self.service.models.current} at {self.service.models.endpoint} · {where} · /help for commands", "2")
        try:
            self.review_edits()
            self._lines()
        except SignInError as ended:  # the user removed, their key revoked, their password or role changed
            self.say(f"{ended} Run python main.py again to go on.", "1")
            return EXIT_FAILED
        left = self.service.workspaces.current_id
        if left is not None:  # leaving the CLI leaves the workspace: its summary is refreshed
            self.service.workspaces.leave(left)
        self._finish_summaries()
        return EXIT_OK

    def _lines(self) -> None:
        """Read and run lines until the user leaves; each request first asks whether the user's sign-in stands."""
        while True:
            self._report_summaries()
            try:
                line = input(self._prompt()).strip()
            except EOFError:
                self.say("")
                return
            except KeyboardInterrupt:
                self.say("\n(type /exit or press Ctrl-D to leave)")
                continue
            if line.lower() in ("exit", "quit", "/exit", "/quit"):
                return
            if line:
                self.service.stands()
                self.handle(line)

    def _prompt(self) -> str:
        current = self.service.workspaces.current
        return f"{printable(one_line(current.chat_name, 24)) if current else 'new'} > "

    def handle(self, line: str) -> None:
        name, _, argument = line.partition(" ")
        command = self.commands.get(name.lower()) if line.startswith("/") else None
        if line.startswith("/") and command is None:
            self.say(f"Unknown command {name}; /help lists the commands.")
            return
        try:
            if command is None:
                self.ask(line)
                self.review_edits()
            else:
                command(argument.strip())
        except SignInError:
            raise  # the prompt ends, said once
        except (LookupError, ValueError, HistoryError, OSError) as error:
            self.say(str(error))
        except AgentError as error:
            self.say(error.message)
        except KeyboardInterrupt:
            self.say("\nCancelled.")

    def ask(self, question: str, images: tuple[CleanImage, ...] = ()) -> None:
        answer = answer_view(self.out, self.plain)
        renderer = Renderer(self.out, self.out, True, Waiting(self.err), answer, self.service.documents.index_wait)
        ask(self.service, question, renderer, self.loop, self.approve_tool, images)  # --once cannot ask

    def image(self, argument: str) -> None:
        """`/image PATH [QUESTION]`: the path is the first word; the picture goes cleaned, or is refused."""
        path, _, question = argument.partition(" ")
        if not path:
            raise ValueError("Give the picture's file: /image PATH [QUESTION]")
        (picture,) = read_images([Path(path).expanduser()])
        self.say(f"{shown_name(Path(path).name)}: {picture.width} × {picture.height} px, without its metadata.", "2")
        self.ask(question.strip() or DEFAULT_QUESTION, (picture,))
        self.review_edits()

    def _confirm(self, question: str) -> bool:
        try:
            return input(f"{printable(question)} [y/N] ").strip().lower() in ("y", "yes")
        except (EOFError, KeyboardInterrupt):
            self.say("")
            return False

    def _current(self, action: str) -> Workspace:
        chat = self.service.workspaces.current
        if chat is None:
            raise LookupError(f"There is no workspace yet to {action}; your first message creates one.")
        return chat

    def _find(self, wanted: str) -> Workspace:
        try:
            return self.service.workspaces.find(wanted)
        except LookupError as error:
            raise LookupError(f"{error} /list shows them.") from None

    def _report_switch(self, outcome: SwitchOutcome) -> None:
        if outcome.notice is not None:
            self.say(outcome.notice, "33" if outcome.error else "2")

    def _report_summaries(self) -> None:
        """Say what happened to the summaries written in the background since the last prompt."""
        for outcome in self.service.summaries.finished():
            self._report_switch(outcome)

    def _finish_summaries(self) -> None:
        """Before leaving, wait for the summaries still being written; Ctrl-C skips them."""
        pending = self.service.summaries.pending()
        if not pending:
            return
        names = ", ".join(shown_name(chat.chat_name) for chat in pending)
        try:  # from the sentence on: a Ctrl-C right after it skips too
            self.say(f"Finishing the summary of {names}… (Ctrl-C skips it)", "2")
            self.service.summaries.wait()
        except KeyboardInterrupt:
            self.service.summaries.skip()
            self.say(f"\nSkipped the summary of {names}; it is written the next time you leave it.")
        self._report_summaries()

    def review_edits(self) -> None:
        """Show each file edit the model proposed and apply it only if the user says yes."""
        chat_id = self.service.workspaces.current_id
        for edit in self.service.approvals.pending(chat_id) if chat_id is not None else []:
            self.say(f"The model proposes this edit to {shown_name(edit.path)}:", "1")
            for line in printable_lines(edit_diff(edit)):  # a diff's lines as they are: never rewrapped
                self.say(line, "32" if line.startswith("+") else "31" if line.startswith("-") else "2", wrap=False)
            if self._confirm(f"Apply this edit to {shown_name(edit.path)}?"):
                self.say(self.service.approvals.approve(edit.chat_id, edit.edit_id))
            else:
                self.say(self.service.approvals.reject(edit.chat_id, edit.edit_id))

    def undo(self, _: str) -> None:
        self.say(self.service.approvals.undo_last(self._current("undo an edit in").chat_id))

    def help(self, _: str) -> None:
        self.say(HELP)

    def new(self, name: str) -> None:
        chat, outcome = self.loop.run(self.service.workspaces.start_new(name))
        self._report_switch(outcome)
        self.say(f"Started workspace {chat.chat_id}: {shown_name(chat.chat_name)}")

    def list(self, _: str) -> None:
        chats = self.service.workspaces.recent()
        if not chats:
            self.say("No workspaces yet; your first message creates one.")
        for chat in chats:
            marker = "*" if chat.chat_id == self.service.workspaces.current_id else " "
            created = self.style("2", f"(created {local_stamp(chat.created_at)})")
            self._line(f"{marker} {chat.chat_id:>4}  {shown_name(chat.chat_name)}  {created}")

    def switch(self, wanted: str) -> None:
        chat = self._find(wanted)
        if chat.chat_id == self.service.workspaces.current_id:
            self.say(f"Already in {shown_name(chat.chat_name)}.")
            return
        self._report_switch(self.loop.run(self.service.workspaces.switch(chat.chat_id)))
        turns = self.service.turns.count(chat.chat_id)
        summary = ", with a summary" if chat.context_summary else ""
        self.say(f"Switched to {shown_name(chat.chat_name)} ({turns} turn{'s' * (turns != 1)}{summary}).")

    def rename(self, name: str) -> None:
        if not name:
            raise ValueError("Give the new name: /rename NAME")
        renamed = self.service.workspaces.rename(self.service.workspaces.ensure_current().chat_id, name)
        self.say(f"Renamed to {shown_name(renamed)}.")

    def delete(self, wanted: str) -> None:
        chat = self._find(wanted)
        turns = self.service.turns.count(chat.chat_id)
        if not self._confirm(f"Delete workspace '{shown_name(chat.chat_name)}' and its {turns} turns?"):
            self.say("Nothing deleted.")
            return
        was_current = chat.chat_id == self.service.workspaces.current_id
        now_in = self.service.workspaces.delete(chat.chat_id)
        self.say(f"Deleted {shown_name(chat.chat_name)}.")
        if was_current and now_in is not None:
            self.say(f"Now in {shown_name(now_in.chat_name)}.")

    def clear(self, _: str) -> None:
        chat = self._current("clear")
        if self._confirm(f"Delete the turns of '{shown_name(chat.chat_name)}'? Its summary stays."):
            self.service.workspaces.clear(chat.chat_id)
            self.say("Cleared.")

    def summary(self, argument: str) -> None:
        chat = self._current("summarise")
        if self.service.summaries.is_pending(chat.chat_id):
            self.say("The summary is being written… (Ctrl-C stops waiting)", "2")
            self.service.summaries.wait()
            self._report_summaries()
            chat = self._current("summarise")
        if argument == "update":
            updated = self.loop.run(self.service.summaries.refresh(chat.chat_id))
            self.say("Summary updated." if updated else "The summary already covers every turn.")
            chat = self._current("summarise")
        if chat.context_summary:
            self._line(self.style("2", f"Summary of {local_stamp(chat.context_updated_at)}"))
            self.say(chat.context_summary)
        else:
            self.say("No summary yet; it is written when you leave the workspace, or with /summary update.")

    def model(self, name: str) -> None:
        if not name:
            self.say(f"Using {self.service.models.current}; /models lists the others.")
            return
        try:
            pulled = self.loop.run(self.service.models.available())
        except AgentError as error:
            self.service.models.use(name)
            self.say(f"Using {name} (not checked: {error.message})")
            return
        if name not in pulled and f"{name}:latest" not in pulled:
            raise LookupError(
                f"{name} is not among the chat models on {self.service.models.endpoint} (/models lists them; "
                f"`ollama pull {name}` fetches a missing one), so {self.service.models.current} stays in use."
            )
        self.service.models.use(name)
        self.say(f"Using {name}.")

    def models(self, _: str) -> None:
        for name in self.loop.run(self.service.models.available()):
            self.say(f"{'*' if name == self.service.models.current else ' '} {name}")

    def report(self, argument: str) -> None:
        chat = self._current("report on")
        name, revision = report_arguments(argument)
        path = Path(name).expanduser() if name else self.service.reports.default_path(chat.chat_id, "calculations")
        if path.suffix.lower() == ".pdf":
            self.packages.write_pdf(path, revision)
            return
        self.say(f"Wrote the calculation report to {self.service.reports.write_report(chat.chat_id, path)}.")

    def export(self, argument: str) -> None:
        chat = self._current("export")
        path = Path(argument).expanduser() if argument else self.service.reports.default_path(chat.chat_id, "workspace")
        self.say(f"Wrote the workspace to {self.service.reports.write_export(chat.chat_id, path)}.")

    def backup(self, argument: str) -> None:
        if not argument:
            raise ValueError("Give the backup's file name: /backup FILE")
        self.say(f"Copied every workspace into {self.service.reports.backup(Path(argument).expanduser())}.")

    def agent(self, name: str) -> None:
        chat = self.service.workspaces.ensure_current()
        if name:
            self.say(f"This workspace now works with the agent {self.service.agents.choose(chat.chat_id, name)}.")
            return
        current = self.service.agents.of(chat.chat_id)
        rows = [
            (f"{'*' if profile.name == current else ' '} {profile.name}", profile.description)
            for profile in self.service.agents.profiles.values()
        ]
        for line in two_columns(rows, width_of(self.out) or 10_000):
            self.say(line)

    def tools(self, _: str) -> None:
        for line in two_columns(self.service.agents.tools(), terminal_width()):
            self.say(line)
