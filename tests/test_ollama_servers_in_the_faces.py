"""Several Ollama servers in the settings and as the faces show them: ENDPOINT's list, the model list, the status
line, a turn waiting in line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app.configuration.settings import SettingsError, load_settings
from domain.events import TextDelta, WaitingForServer
from faces.cli.renderer import Renderer
from faces.cli.waiting import Waiting
from fakes.ollama import FakeOllama, Gate, Reply, is_summary_request, wait_until
from fakes.replies import chunk, final
from tests.cli_helpers import run_cli
from tests.protocol_client import running_server

ROOT = Path(__file__).resolve().parents[1]
ASK = {"type": "dispatch", "agentID": "assistant"}
WAITING = WaitingForServer(
    position=2, ahead=1, servers=1, message="The Ollama server is busy with 1 turns: waiting in line, 1 turn ahead."
)


def test_the_protocol_says_a_turn_waits_in_line_and_when_it_goes_on(fake_ollama: FakeOllama, isolated: Path) -> None:
    gate = Gate()
    fake_ollama.script(Reply([chunk(content="Still "), gate, chunk(content="writing."), final("stop", 42, 3)]))
    fake_ollama.responder = lambda body: Reply.text("Summary." if is_summary_request(body) else "Your turn came.")
    with running_server(fake_ollama.url, isolated, env={"MAX_TURNS_PER_SERVER": "1"}) as server:
        first, second = server.connect(), server.connect()
        first.send({**ASK, "id": "long", "content": "Tell me everything."})
        while first.read()["type"] != "response-chunk":
            pass
        second.send({**ASK, "id": "next", "content": "A short question."})
        waiting = second.read(), second.read()
        gate.gate.set()
        events = second.until_done("next")
        assert first.until_done("long")[-1]["content"] == "Still writing."
    assert [event["type"] for event in waiting] == ["turn-started", "turn-waiting"]
    said = waiting[1]
    assert (said["position"], said["ahead"], said["servers"]) == (1, 0, 1) and said["requestID"] == "next"
    assert said["message"] == (
        "The Ollama server is busy with 1 turns (MAX_TURNS_PER_SERVER): waiting in line, yours is next."
    )
    assert events[0]["type"] == "turn-waiting" and events[0]["position"] == 0
    assert events[-1]["content"] == "Your turn came." and events[-1]["stopReason"] == "end_turn"


def test_models_in_the_cli_lists_what_any_server_has(isolated: Path) -> None:
    with (
        FakeOllama(models=["qwen3:4b", "nomic-embed-text:latest"]) as a,
        FakeOllama(models=["llama3.2:3b"]) as b,
        FakeOllama(models=["gemma3:4b"]) as down,
    ):
        down.close()
        listed = run_cli("--server", f"{a.url},{b.url},{down.url}", stdin="/models\n", env={"EMBED_MODEL": ""})
    assert listed.returncode == 0, listed.stderr
    assert "* qwen3:4b" in listed.stdout and "  llama3.2:3b" in listed.stdout
    assert "gemma3" not in listed.stdout and "nomic-embed-text" not in listed.stdout


@pytest.mark.parametrize("terminal", [True, False])
def test_the_cli_says_the_turn_waits_in_line_instead_of_a_silent_spinner(terminal: bool) -> None:
    out, notes = io.StringIO(), io.StringIO()
    renderer = Renderer(out, notes, False, Waiting(notes, animate=terminal, plain_after=float("inf")))
    renderer.begin("qwen3:4b")
    renderer.render(WAITING)
    renderer.render(WAITING.model_copy(update={"position": 1, "ahead": 0, "message": "Yours is next."}))
    said = notes.getvalue()
    renderer.render(WaitingForServer(position=0, message="Ollama at http://gpu1:11434 is free."))
    renderer.render(TextDelta(text="Answer."))
    renderer.finish()
    assert WAITING.message in said
    assert ("Yours is next." in said) == terminal, "off a terminal, one line says it, the first time"
    assert "is free" not in notes.getvalue() and out.getvalue() == "Answer.\n"
    if terminal:
        assert notes.getvalue().rstrip().endswith("\x1b[2K"), "the spinner is cleared when the answer comes"


def test_the_web_live_turn_shows_its_place_in_line() -> None:
    def script() -> None:
        import streamlit as st

        from domain.events import WaitingForServer
        from faces.web.view import LiveView

        with st.chat_message("assistant"):
            view = LiveView()
            view.show(
                WaitingForServer(
                    position=3, ahead=2, servers=2, message="All 2 Ollama servers are busy: 2 turns ahead of yours."
                )
            )

    at = AppTest.from_function(script).run()
    assert not at.exception
    (caption,) = [c.value.replace("\\", "") for c in at.caption]
    assert caption.startswith("All 2 Ollama servers are busy: 2 turns ahead of yours. ") and caption.endswith(" s")


def test_the_web_page_lists_every_servers_models_and_names_the_one_not_answering(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with (
        FakeOllama(models=["qwen3:4b"]) as a,
        FakeOllama(models=["llama3.2:3b", "nomic-embed-text:latest"]) as b,
        FakeOllama() as down,
    ):
        down.close()
        monkeypatch.setenv("ENDPOINT", f"{a.url},{b.url},{down.url}")
        at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30).run()
        assert not at.exception
        assert at.sidebar.selectbox(key="model").options == ["qwen3:4b", "llama3.2:3b"]
        status = [w.value.replace("\\", "") for w in at.sidebar.warning]
        assert any(f"2 of 3 Ollama servers reachable; {down.url} is not answering" in w for w in status), status
        b.script(Reply.text("From the second server."))
        at.sidebar.selectbox(key="model").set_value("llama3.2:3b").run()
        at.chat_input(key="question").set_value("Hi").run()
        assert wait_until(lambda: len(b.chat_requests) == 1, timeout=30) and a.chat_requests == []


@pytest.mark.parametrize(
    ("endpoint", "servers"),
    [
        ("http://gpu1:11434", ("http://gpu1:11434",)),
        (
            "http://gpu1:11434/, https://gpu2.office:11434 ,http://gpu1:11434",
            ("http://gpu1:11434", "https://gpu2.office:11434"),
        ),
    ],
)
def test_endpoint_takes_a_comma_separated_list(endpoint: str, servers: tuple[str, ...]) -> None:
    settings = load_settings(env_file=None, environ={"ENDPOINT": endpoint})
    assert settings.servers == servers and settings.max_turns_per_server == 2


@pytest.mark.parametrize(
    ("environ", "said"),
    [
        ({"ENDPOINT": "http://gpu1:11434, gpu2:11434"}, "several separated by commas"),
        ({"ENDPOINT": " , "}, "several separated by commas"),
        ({"MAX_TURNS_PER_SERVER": "0"}, "MAX_TURNS_PER_SERVER has the value '0'"),
    ],
)
def test_a_bad_list_or_cap_is_one_sentence(environ: dict[str, str], said: str) -> None:
    with pytest.raises(SettingsError) as refused:
        load_settings(env_file=None, environ=environ)
    assert said in str(refused.value)
