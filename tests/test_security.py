"""Safe defaults: what the logs hold, what the page renders, where the server listens."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from faces.web.markdown import safe_markdown
from fakes.ollama import FakeOllama, Reply

ROOT = Path(__file__).resolve().parents[1]
SECRET = "Tender price for Block C is 4.2 million"


@pytest.mark.parametrize(("level", "logged"), [("INFO", False), ("WARNING", False), ("DEBUG", True)])
def test_logs_hold_whole_prompts_only_at_debug(
    fake_ollama: FakeOllama, isolated: Path, level: str, logged: bool
) -> None:
    fake_ollama.script(Reply.text("Noted."))
    env = {**os.environ, "LOG_LEVEL": level, "LOG_FILE": str(isolated / "app.log")}
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--server", fake_ollama.url, "--once", SECRET],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert result.returncode == 0
    log = (isolated / "app.log").read_text() if (isolated / "app.log").exists() else ""
    assert (SECRET in log) is logged


HOSTILE_MARKDOWN = [
    ("[click me](javascript:alert(1))", "javascript:alert"),
    ("[x](JaVaScRiPt:alert(1))", "JaVaScRiPt:"),
    ("[data](data:text/html,<script>alert(1)</script>)", "data:text/html"),
    ("![plan](http://example.com/plan.png)", "![plan]"),
    ("![plan][ref]\n\n[ref]: http://example.com/plan.png", "![plan][ref]"),
]


@pytest.mark.parametrize(("text", "gone"), HOSTILE_MARKDOWN)
def test_model_markdown_cannot_fetch_or_run_anything(text: str, gone: str) -> None:
    rendered = safe_markdown(text)
    assert gone not in rendered.replace("\\", "")
    assert "](http" not in rendered and not re.search(r"\]\(\s*(javascript|data|vbscript)", rendered, re.I)


def test_web_app_shows_hostile_model_text_inert(fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENDPOINT", fake_ollama.url)
    answer = "Done. </div><style>body{display:none}</style> [click](javascript:alert(1)) <script>alert(2)</script>"
    fake_ollama.script(Reply.text(answer))
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=20).run()
    app.chat_input(key="question").set_value("hi").run()
    (message,) = [m for m in app.chat_message if m.name == "assistant"]
    shown = message.markdown[0].value
    assert "javascript:" not in shown and "</div><style>" in shown
    assert app.get("html") == [] and not app.exception


def test_no_html_is_rendered_from_text_anywhere_in_the_code() -> None:
    sources = [p for p in ROOT.glob("**/*.py") if ".venv" not in p.parts and "tests" not in p.parts]
    for source in sources:
        text = source.read_text()
        assert "unsafe_allow_html=True" not in text, source
        assert "st.html(" not in text, source


def test_server_defaults_keep_the_app_on_this_computer() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1" and config["server"]["headless"] is True
    assert config["browser"]["gatherUsageStats"] is False
