"""The prompt's commands as a user meets them in the first hour, through the real `python main.py`:
leaving refreshes the summary, times in local time, exports in their own folder, chat models only."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from fakes.ollama import FakeOllama, Reply, is_summary_request
from history import ChatHistoryDB
from tests.cli_helpers import run_cli


def answers_and_summarises(body: dict) -> Reply:
    if is_summary_request(body):
        return Reply.text("- Tower A: 45 m tall.")
    return Reply.text(f"Answer to {body['messages'][-1]['content']}.")


@pytest.mark.parametrize("leave", ["/exit\n", ""], ids=["exit", "ctrl-d"])
def test_leaving_the_cli_refreshes_the_summary_of_the_workspace_left(
    fake_ollama: FakeOllama, isolated: Path, leave: str
) -> None:
    fake_ollama.responder = answers_and_summarises
    result = run_cli("--server", fake_ollama.url, "--workspace", "Tower A", stdin=f"How tall is it?\n{leave}")
    assert result.returncode == 0, result.stderr
    assert "Finishing the summary of Tower A… (Ctrl-C skips it)" in result.stdout
    assert "Updated the summary of Tower A." in result.stdout
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    assert db.get_context_summary(db.find_chat("Tower A").chat_id) == "- Tower A: 45 m tall."


def test_leaving_without_new_turns_asks_the_model_nothing(fake_ollama: FakeOllama) -> None:
    result = run_cli("--server", fake_ollama.url, "--workspace", "Tower A", stdin="/list\n/exit\n")
    assert result.returncode == 0 and "Finishing the summary" not in result.stdout
    assert fake_ollama.chat_requests == []


def test_times_are_shown_on_this_computers_clock(fake_ollama: FakeOllama, isolated: Path) -> None:
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    chat = db.create_chat("Tower A")
    db.set_context_summary(chat, "- Tower A: 45 m tall.")
    db.close()
    with sqlite3.connect(isolated / "chat_history.sqlite") as raw:
        raw.execute("UPDATE chats SET created_at = '2026-11-22 23:10:00', context_updated_at = '2026-11-22 23:30:05'")
    raw.close()
    result = run_cli("--server", fake_ollama.url, stdin="/summary\n/list\n", env={"TZ": "Europe/Paris"})
    assert "Summary of 2026-11-23 00:30" in result.stdout, result.stdout
    assert "(created 2026-11-23 00:10)" in result.stdout


def test_export_and_report_without_a_name_go_to_the_exports_folder_beside_the_history(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.script(Reply.text("Noted."), Reply.text("- Noted."))
    (isolated / "data").mkdir()
    result = run_cli("--server", fake_ollama.url, "--db", "data/history.sqlite", stdin="A question\n/export\n/report\n")
    exports = (isolated / "data" / "exports").resolve()
    assert f"Wrote the workspace to {exports / 'workspace-1.md'}." in result.stdout, result.stdout
    assert f"Wrote the calculation report to {exports / 'calculations-1.md'}." in result.stdout
    assert (exports / "workspace-1.md").read_text(encoding="utf-8").startswith("# A question")
    assert list(isolated.glob("*.md")) == [], "nothing written into the current folder"


def test_exports_dir_names_the_exports_folder(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("Noted."), Reply.text("- Noted."))
    env = {"EXPORTS_DIR": "~/reports", "HOME": str(isolated / "home")}
    result = run_cli("--server", fake_ollama.url, stdin="A question\n/export\n", env=env)
    assert result.returncode == 0, result.stderr
    written = isolated / "home" / "reports" / "workspace-1.md"
    assert f"Wrote the workspace to {written}." in result.stdout, result.stdout
    assert written.read_text(encoding="utf-8").startswith("# A question")


def test_models_lists_chat_models_only_and_model_refuses_what_cannot_chat(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.models = ["qwen3:4b", "nomic-embed-text:latest", "llama3.2:latest"]
    listed = run_cli("--server", fake_ollama.url, stdin="/models\n", env={"EMBED_MODEL": ""})
    assert "* qwen3:4b" in listed.stdout and "  llama3.2:latest" in listed.stdout
    assert "nomic-embed-text" not in listed.stdout, "an embedding model cannot chat"
    fake_ollama.script(Reply.text("Four."))
    typed = "/model nosuch\n/model nomic-embed-text\n/model llama3.2\n/model qwen3:4b\n2 + 2?\n"
    result = run_cli("--server", fake_ollama.url, stdin=typed, env={"EMBED_MODEL": ""})
    assert result.returncode == 0, result.stderr
    assert "nosuch is not among the chat models on" in result.stdout
    assert "nomic-embed-text is not among the chat models" in result.stdout
    assert "so qwen3:4b stays in use." in result.stdout and "Using llama3.2." in result.stdout
    asked = [body["model"] for body in fake_ollama.chat_requests if not is_summary_request(body)]
    assert asked == ["qwen3:4b"]
