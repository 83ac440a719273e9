"""The web app through Streamlit's AppTest, against the fake Ollama and a real SQLite file."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fakes.ollama import FakeOllama, Reply, is_summary_request
from history import ChatHistoryDB

APP = str(Path(__file__).resolve().parents[1] / "streamlit_app.py")


def store(isolated: Path) -> ChatHistoryDB:
    return ChatHistoryDB(isolated / "chat_history.sqlite")


def ask(at: AppTest, text: str) -> AppTest:
    return at.chat_input(key="question").set_value(text).run()


def messages(at: AppTest, role: str) -> list[str]:
    return ["\n".join(m.value for m in message.markdown) for message in at.chat_message if message.name == role]


def summaries_written(at: AppTest) -> AppTest:
    """Wait for the summaries the tab's service writes in the background, then rerun to show what happened."""
    assert at.session_state["service"].summaries.wait(20)
    return at.run()


def summary_requests(fake: FakeOllama) -> list[dict]:
    return [r for r in fake.chat_requests if is_summary_request(r)]


def test_first_screen_has_the_chat_input_and_the_server_status(app: AppTest) -> None:
    app.run()
    assert not app.exception
    assert app.chat_input(key="question") is not None
    assert "New workspace" in [h.value for h in app.subheader]
    assert any("Ollama 0.12.6" in c.value for c in app.sidebar.caption)


def test_first_message_creates_and_names_a_workspace_and_streams_a_tool_call(
    app: AppTest, fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.script(Reply.tool_calls(("sqrt", {"x": 144})), Reply.text("The square root is **12**."))
    app.run()
    ask(app, "What is the square root of 144 for the column grid?")
    assert not app.exception
    assert messages(app, "assistant") == ["The square root is **12**."]
    (assistant,) = [m for m in app.chat_message if m.name == "assistant"]
    assert [e.label for e in assistant.expander] == [r"sqrt\(x\=144\)"]
    assert "12.0" in [c.value for c in assistant.code]
    assert app.query_params["chat"] == "1"
    db = store(isolated)
    assert db.get_chat(1).chat_name == "What is the square root of 144 for the column grid?"
    assert db.get_turns(1)[0].tool_calls[0].output == "12.0"


def test_new_rename_and_delete_with_confirmation(app: AppTest, isolated: Path) -> None:
    app.run()
    app.button(key="new-workspace").click().run()
    assert app.query_params["chat"] == "1"
    app.button(key="rename-1").click().run()
    app.text_input(key="name-1").set_value("Tower A")
    app.button(key="FormSubmitter:rename-form-1-Rename").click().run()
    assert store(isolated).get_chat(1).chat_name == "Tower A"
    app.button(key="delete-1").click().run()
    assert any("Delete Tower A and its 0 turns?" in w.value for w in app.sidebar.warning)
    app.button(key="delete-cancelled-1").click().run()
    assert store(isolated).get_chat(1) is not None
    app.button(key="delete-1").click().run()
    app.button(key="delete-confirmed-1").click().run()
    assert not app.exception
    assert store(isolated).list_chats() == [] and "chat" not in app.query_params


def test_search_finds_names_and_message_text_and_treats_operators_as_text(app: AppTest, isolated: Path) -> None:
    db = store(isolated)
    tower = db.create_chat("Tower A")
    bridge = db.create_chat("Bridge deck")
    db.add_to_history(tower, "Pad footing for column C3?", "2.4 m square, 600 mm thick.")
    db.add_to_history(bridge, 'He wrote "NEAR(x y) OR *" and 100%_done', "Noted.")
    app.run()

    def search(text: str) -> None:
        app.sidebar.text_input(key="search").set_value(text).run()

    search("footing")
    assert [b.key for b in app.sidebar.button if b.key.startswith("hit-")] == [f"hit-{tower}"]
    search("bridge")
    assert [b.key for b in app.sidebar.button if b.key.startswith("hit-")] == [f"hit-{bridge}"]
    for text in ['"', "*", "NEAR(", "OR", "%", "_", '" OR 1=1 --']:
        search(text)
        assert not app.exception, text
    search("%")
    assert [b.key for b in app.sidebar.button if b.key.startswith("hit-")] == [f"hit-{bridge}"]


def test_switching_summarises_once_and_the_summary_reaches_the_next_prompt(
    app: AppTest, fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.script(Reply.text("It is 45 m tall."), Reply.text("- Tower A: 45 m tall."))
    app.run()
    ask(app, "How tall is Tower A?")
    tower = int(app.query_params["chat"])
    app.button(key="new-workspace").click().run()
    summaries_written(app)
    assert len(summary_requests(fake_ollama)) == 1
    assert "How tall is Tower A?" in summary_requests(fake_ollama)[0]["messages"][-1]["content"]
    assert store(isolated).get_context_summary(tower) == "- Tower A: 45 m tall."
    app.button(key=f"workspace-{tower}").click().run()
    app.button(key="workspace-2").click().run()
    app.button(key=f"workspace-{tower}").click().run()
    assert len(summary_requests(fake_ollama)) == 1, "no new turns: no model call"
    fake_ollama.script(Reply.text("Yes."))
    ask(app, "And the footing?")
    system = fake_ollama.chat_requests[-1]["messages"][0]["content"]
    assert "[Context Summary]: - Tower A: 45 m tall." in system
    assert not app.exception


def test_summary_failure_still_switches_and_says_so(app: AppTest, fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("Answer."), Reply.http_error(500, "model crashed"))
    app.run()
    ask(app, "First question")
    app.button(key="new-workspace").click().run()
    assert app.query_params["chat"] == "2"
    summaries_written(app)
    assert any("previous one was kept" in w.value for w in app.warning)
    assert store(isolated).count_unsummarised_turns(1) == 1


def test_ollama_down_still_opens_with_a_clear_status_and_browsable_history(
    monkeypatch: pytest.MonkeyPatch, isolated: Path
) -> None:
    db = store(isolated)
    chat = db.create_chat("Tower A")
    db.add_to_history(chat, "Old question", "Old answer")
    monkeypatch.setenv("ENDPOINT", "http://127.0.0.1:9")
    at = AppTest.from_file(APP, default_timeout=20).run()
    assert not at.exception
    assert any("Cannot reach Ollama at http" in w.value and "ollama serve" in w.value for w in at.sidebar.warning)
    assert messages(at, "assistant") == ["Old answer"]
    ask(at, "New question")
    assert not at.exception
    assert any("Cannot reach Ollama" in e.value for e in at.error)
    assert db.load_history(chat)[-1] == ("New question", "")
    said = "is `ollama serve` running?"  # the command shown as code, not with its backticks written out
    assert any(said in w.value for w in at.sidebar.warning)
    assert any(said in e.value for e in at.main.error), "in the answer"


def test_chat_query_parameter_selects_the_workspace(app: AppTest, isolated: Path) -> None:
    db = store(isolated)
    first = db.create_chat("First")
    db.add_to_history(first, "Question in first", "Answer in first")
    db.create_chat("Second")
    app.query_params["chat"] = str(first)
    app.run()
    assert [h.value for h in app.subheader] == ["First"]
    assert messages(app, "user") == ["Question in first"]


def test_html_in_messages_is_shown_as_text(app: AppTest, fake_ollama: FakeOllama, isolated: Path) -> None:
    hostile = "<script>alert(1)</script> <img src=x onerror=alert(1)>"
    fake_ollama.script(Reply.text(f"You wrote {hostile} ![x](http://example.com/x.png)"))
    app.run()
    ask(app, hostile)
    assert not app.exception
    (user,) = messages(app, "user")
    assert user == r"\<script\>alert\(1\)\</script\> \<img src\=x onerror\=alert\(1\)\>"
    (answer,) = messages(app, "assistant")
    assert "![x]" not in answer.replace("\\![x]", "") and "\\![x](http://example.com/x.png)" in answer
    assert app.get("html") == [] and app.get("iframe") == []
    assert store(isolated).load_history(1) == [(hostile, f"You wrote {hostile} ![x](http://example.com/x.png)")]


def test_long_workspace_shows_the_latest_turns_and_earlier_on_demand(app: AppTest, isolated: Path) -> None:
    db = store(isolated)
    chat = db.create_chat("Long")
    for i in range(30):
        db.add_to_history(chat, f"question {i}", f"answer {i}")
    app.run()
    assert len(messages(app, "user")) == 5 and messages(app, "user")[0] == "question 25"
    app.button(key="earlier").click().run()
    assert len(messages(app, "user")) == 15
    app.button(key="earlier").click().run()
    assert len(messages(app, "user")) == 25
    app.button(key="earlier").click().run()
    assert len(messages(app, "user")) == 30
    assert [b for b in app.button if b.key == "earlier"] == [], "nothing earlier to show"


def test_regenerate_asks_the_last_question_again(app: AppTest, fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("First try."), Reply.text("Second try."), Reply.text("Next answer."))
    app.run()
    ask(app, "Size the beam")
    app.button(key="regenerate").click().run()
    assert messages(app, "assistant") == ["First try.", "Second try."]
    assert any("Replaced by a regenerated answer" in c.value for c in app.caption)
    regenerated = fake_ollama.chat_requests[-1]["messages"]
    assert [m["content"] for m in regenerated[1:]] == ["Size the beam"], "the old answer is not shown to the model"
    ask(app, "Next?")
    follow_up = [m["content"] for m in fake_ollama.chat_requests[-1]["messages"][1:]]
    assert follow_up == ["Size the beam", "Second try.", "Next?"], "the replaced answer stays out of later prompts"
    assert [t.status for t in store(isolated).get_turns(1)] == ["superseded", "complete", "complete"]


def test_thinking_is_kept_in_a_collapsed_box(app: AppTest, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("54 kN·m.", thinking="wL²/8 = 12·36/8"))
    app.run()
    ask(app, "Moment?")
    (assistant,) = [m for m in app.chat_message if m.name == "assistant"]
    (box,) = assistant.expander
    assert box.label == "Thinking" and box.markdown[0].value == "wL²/8 = 12·36/8"
    assert assistant.markdown[-1].value == "54 kN·m."


@pytest.mark.parametrize("value", ["²", "99999999999999999999999", "abc", "-1"])
def test_odd_chat_parameters_fall_back_to_the_latest_workspace(app: AppTest, isolated: Path, value: str) -> None:
    store(isolated).create_chat("Only one")
    app.query_params["chat"] = value
    app.run()
    assert not app.exception and [h.value for h in app.subheader] == ["Only one"]
    assert any("There is no workspace" in w.value for w in app.warning), [w.value for w in app.warning]


def test_clicking_a_workspace_deleted_in_another_window(app: AppTest, isolated: Path) -> None:
    db = store(isolated)
    first, second = db.create_chat("First"), db.create_chat("Second")
    app.run()
    db.delete_chat(first)
    app.button(key=f"workspace-{first}").click().run()
    assert not app.exception
    assert any("no longer exists" in w.value for w in app.warning)
    assert [h.value for h in app.subheader] == ["Second"] and second


def test_summary_can_be_edited_and_cleared(app: AppTest, isolated: Path) -> None:
    db = store(isolated)
    chat = db.create_chat("Tower A")
    db.set_context_summary(chat, "Old summary")
    app.run()
    app.toggle(key=f"edit-summary-{chat}").set_value(True).run()
    app.text_area(key=f"summary-{chat}").set_value("- 45 m tower\n- C30/37")
    app.button(key=f"FormSubmitter:summary-form-{chat}-Save summary").click().run()
    assert db.get_context_summary(chat) == "- 45 m tower\n- C30/37"
    app.toggle(key=f"edit-summary-{chat}").set_value(False).run()
    app.button(key=f"clear-summary-{chat}").click().run()
    assert db.get_context_summary(chat) is None


def test_model_picker_lists_the_server_models(app: AppTest, fake_ollama: FakeOllama) -> None:
    fake_ollama.models = ["qwen3:4b", "llama3.2:3b"]
    app.run()
    picker = app.sidebar.selectbox(key="model")
    assert picker.options == ["qwen3:4b", "llama3.2:3b"] and picker.value == "qwen3:4b"
    picker.set_value("llama3.2:3b").run()
    fake_ollama.script(Reply.text("ok"))
    ask(app, "hi")
    assert fake_ollama.chat_requests[-1]["model"] == "llama3.2:3b"


def test_the_workspace_offers_its_report_and_its_export(app: AppTest, fake_ollama: FakeOllama) -> None:
    """What the downloads hold is checked in a real browser (tests/browser/); here, that both are offered."""
    fake_ollama.script(Reply.text("2.5 m."))
    app.run()
    ask(app, "Spacing for 10 m over 4 bays?")
    labels = [element.proto.label for element in app.get("download_button")]
    assert labels == ["Calculation report", "Export as Markdown"]


def test_an_empty_workspace_offers_example_questions_and_one_click_sends_one(
    app: AppTest, fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.script(Reply.text("54 kN·m and 8.3 mm."))
    app.run()
    examples = [b for b in app.button if b.key.startswith("example-")]
    assert 4 <= len(examples) <= 6
    examples[0].click().run()
    assert messages(app, "user") == [examples[0].label] and messages(app, "assistant") == ["54 kN·m and 8.3 mm."]
    assert not [b for b in app.button if b.key.startswith("example-")], "no examples once the workspace has turns"
    assert store(isolated).load_history(1) == [(examples[0].label, "54 kN·m and 8.3 mm.")]


def test_the_last_question_can_be_edited_and_sent_again(app: AppTest, fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("For 6 m: 54 kN·m."), Reply.text("For 8 m: 96 kN·m."))
    app.run()
    ask(app, "Moment of a 6 m beam under 12 kN/m?")
    app.button(key="edit-last").click().run()
    (turn,) = store(isolated).get_turns(1)
    app.text_area(key=f"edited-{turn.turn_id}").set_value("Moment of an 8 m beam under 12 kN/m?")
    app.button(key=f"FormSubmitter:edit-last-{turn.turn_id}-Send").click().run()
    assert messages(app, "user")[-1] == "Moment of an 8 m beam under 12 kN/m?"
    assert messages(app, "assistant")[-1] == "For 8 m: 96 kN·m."
    assert [t.status for t in store(isolated).get_turns(1)] == ["superseded", "complete"]
    sent = [m["content"] for m in fake_ollama.chat_requests[-1]["messages"]]
    assert "Moment of a 6 m beam under 12 kN/m?" not in sent, "the replaced turn is out of the model's view"


def test_a_store_that_breaks_under_the_page_is_one_sentence_not_a_traceback(app: AppTest, isolated: Path) -> None:
    db = store(isolated)
    db.add_to_history(db.create_chat("Tower A"), "How tall?", "45 m.")
    db.close()
    app.run()
    assert messages(app, "assistant") == ["45 m."]
    path = isolated / "chat_history.sqlite"
    path.write_bytes(b"this is not a database" * 1000)
    # The next question reaches the file: a rerun alone may not, when the pages it reads are still in the
    # write-ahead log (the indexer's claim on the store writes there in the background).
    app.chat_input(key="question").set_value("And the base?").run()
    assert not app.exception, "no traceback"
    errors = [e.value.replace("\\", "") for e in app.error]
    assert len(errors) == 1 and "chat history" in errors[0] and "CHAT_HISTORY_DB_PATH" in errors[0], errors
    assert messages(app, "user")[-1] == "And the base?", "the question stays on the screen"


def test_the_page_config_keeps_errors_local_and_stop_in_the_streaming_run() -> None:
    """Streamlit's "Ask Google / Ask ChatGPT" links would send the user's errors away; fast reruns would
    draw the page beside a stopped reply that is still being stored."""
    config = tomllib.loads((Path(APP).parent / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["client"]["showErrorLinks"] is False and config["runner"]["fastReruns"] is False


def test_the_page_does_not_watch_its_own_source() -> None:
    """Streamlit's source watcher follows every module a page imported, anew for each tab (hundreds of milliseconds
    of the server's event loop a page load, and threads of its own): the app's settings turn it off, as Streamlit
    itself reads them."""
    asked = "from streamlit import config; print(config.get_option('server.fileWatcherType'))"
    done = subprocess.run(
        [sys.executable, "-c", asked], cwd=Path(APP).parent, capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "none", done.stdout + done.stderr


def test_the_model_picker_offers_chat_models_only(app: AppTest, fake_ollama: FakeOllama) -> None:
    fake_ollama.models = ["qwen3:4b", "nomic-embed-text:latest", "llama3.2:3b"]
    app.run()
    assert not app.exception
    assert app.selectbox(key="model").options == ["qwen3:4b", "llama3.2:3b"]
    assert any("2 models" in c.value for c in app.sidebar.caption)


def descriptors_of(path: Path) -> int:
    """How many of this process's open file descriptors point at `path`."""
    fds = Path("/proc/self/fd")
    return sum(1 for fd in fds.iterdir() if fd.resolve(strict=False) == path.resolve())


def test_tabs_share_the_process_application_each_with_its_own_workspace(
    fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch, isolated: Path
) -> None:
    """Each tab is a view of one application per process: one store connection and one watch of the documents
    folder for all of them (an application of its own took its connection and threads on every page load),
    while the workspace on the screen stays the tab's own."""
    db = store(isolated)
    first, second = db.create_chat("Tower A"), db.create_chat("Tower B")
    db.close()
    monkeypatch.setenv("ENDPOINT", fake_ollama.url)
    tabs = [AppTest.from_file(APP, default_timeout=20) for _ in range(3)]
    for tab, chat in zip(tabs, (first, second, first), strict=True):
        tab.query_params["chat"] = str(chat)
        tab.run()
        assert not tab.exception
    assert [[h.value for h in tab.subheader] for tab in tabs] == [["Tower A"], ["Tower B"], ["Tower A"]]
    assert descriptors_of(isolated / "chat_history.sqlite") == 1, "one connection to the store for three tabs"
