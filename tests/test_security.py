"""Safe defaults: what the logs hold, what the page renders, where the server listens."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from faces.web.markdown import escape_markdown, outside_code, safe_markdown, sentence_markdown
from fakes.ollama import FakeOllama, Reply
from tests.cli_helpers import NAMED_STORE
from tests.hostile_markdown import document, payloads, read_before_code_payloads

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


SCRIPT_LINKS = [
    "[click me](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[data](data:text/html,<script>alert(1)</script>)",
]
PAYLOADS = payloads("127.0.0.1:9")
READ_BEFORE_CODE = read_before_code_payloads("127.0.0.1:9")
UNESCAPED_IMAGE = re.compile(r"(?<!\\)(?:\\\\)*!\[")  # a `!` before `[` that no backslash escapes
PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


def has_image(markdown: str) -> bool:
    """Whether a CommonMark parser finds an image anywhere in `markdown` (in links, tables, quotes, lists)."""
    tokens = PARSER.parse(markdown)
    return any(t.type == "image" for t in tokens + [c for t in tokens for c in t.children or []])


@pytest.mark.parametrize("text", SCRIPT_LINKS)
def test_model_links_cannot_run_anything(text: str) -> None:
    assert not re.search(r"\]\(\s*(javascript|data|vbscript)", safe_markdown(text), re.IGNORECASE)


def test_every_image_payload_is_an_image_until_it_is_made_safe() -> None:
    """The parser finds an image in each Markdown payload as written (so the check below can fail), and none after."""
    images = [text for _, text in PAYLOADS if text in _markdown_image_payloads()]
    assert all(has_image(text) for text in images), [t for t in images if not has_image(t)]
    assert [n for n, text in PAYLOADS if has_image(safe_markdown(text))] == []
    everything = document("127.0.0.1:9", "all")
    assert has_image(everything) and not has_image(safe_markdown(everything))
    assert safe_markdown(everything) != escape_markdown(everything), "the escaping path, not the plain-text fallback"


def test_an_error_sentence_keeps_its_code_spans_and_no_image() -> None:
    """Errors and notices show `ollama serve` as code; whatever else they carry (a server's text) stays inert."""
    assert [n for n, text in PAYLOADS if has_image(sentence_markdown(f"Ollama said: {text}"))] == []
    assert not has_image(sentence_markdown(document("127.0.0.1:9", "all")))
    assert sentence_markdown("is `ollama serve` running?") == "is `ollama serve` running?"


def _markdown_image_payloads() -> set[str]:
    made = {text for _, text in payloads("127.0.0.1:9")} - {text for _, text in READ_BEFORE_CODE}
    not_markdown_images = {t for t in made if t.lstrip().startswith(("<", "$", "&#", "!\\", "\uff01", "!\u200b", "`"))}
    footnotes = {t for t in made if "[^1]" in t}  # GitHub's footnotes: CommonMark alone reads a link definition
    markdown = made - not_markdown_images - footnotes
    return {t for t in markdown if "![" in t and not t.startswith(("[a](", "    "))}


def test_safe_markdown_keeps_ordinary_text_and_code_as_written() -> None:
    ordinary = (
        "Wow! [AISC 360](https://www.aisc.org) says **OK**: $M_u < \\phi M_n$.\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    )
    assert safe_markdown(ordinary) == ordinary
    code = "Write `![plan](plan.png)` in the report, or:\n\n```markdown\n![plan](plan.png)\n```"
    assert safe_markdown(code) == code
    assert safe_markdown("See ![plan](http://x/p.png).") == "See \\![plan](http://x/p.png)."


def test_when_the_code_finder_is_fooled_the_text_is_shown_plain() -> None:
    """A `![` inside what only looks like code (a backtick run of another length) is caught by the parser."""
    fooled = "``![x](http://x/p.png)`"
    assert has_image(outside_code(fooled, lambda prose: prose)), "the parser sees the image the code finder missed"
    assert not has_image(safe_markdown("`a``![x](http://x/p.png)`")) and not has_image(safe_markdown(fooled))


def test_maths_and_directives_cannot_hide_an_image_behind_code() -> None:
    """Streamlit's renderer reads `$…$` maths and `:name[…]{…}` directives before code spans, so a backtick in one
    is no code delimiter: where CommonMark reads code (and the old check left the `![`), the browser drew an image.
    Now no `![` is left unescaped in them at all, so no parser, with maths or without, reads an image."""
    for _, text in READ_BEFORE_CODE:
        assert not has_image(text) and UNESCAPED_IMAGE.search(text), "CommonMark reads code where the image is"
        assert not UNESCAPED_IMAGE.search(safe_markdown(text)), text
    beside = "A block with no maths:\n\n`![plan](plan.png)` is how to embed it.\n\nThe fee is $5 a sheet."
    assert safe_markdown(beside) == beside, "only the block with maths or a directive is shown plain"
    formula = "Use `M = w L^2 / 8`, where $w$ is the load: :red[check] it."
    assert safe_markdown(formula) == formula


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


def test_a_proxy_in_the_environment_never_sees_a_prompt(fake_ollama: FakeOllama, isolated: Path) -> None:
    """HTTP_PROXY and ALL_PROXY, set for other programs, do not carry the model's traffic: ENDPOINT alone is asked."""
    trap = FakeOllama()  # stands in for the proxy: any request reaching it is a prompt sent out
    with trap:
        fake_ollama.script(Reply.text("The span is 6 m."))
        proxy = trap.url
        env = {**os.environ, **NAMED_STORE, "HTTP_PROXY": proxy, "HTTPS_PROXY": proxy, "ALL_PROXY": proxy,
               "http_proxy": proxy, "NO_PROXY": "", "no_proxy": "", "EMBED_MODEL": "nomic-embed-text"}  # fmt: skip
        done = subprocess.run(
            [sys.executable, str(ROOT / "main.py"), "--server", fake_ollama.url, "--once", "What span?"],
            capture_output=True, text=True, timeout=60, env=env,
        )  # fmt: skip
        assert done.returncode == 0 and "The span is 6 m." in done.stdout, done.stderr
        assert trap.requests == [], "nothing went through the proxy"
