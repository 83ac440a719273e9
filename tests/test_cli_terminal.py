"""The CLI on a terminal (a pseudo-terminal around the real `python main.py`) and off one (pipes):
the wait before the first word, tool calls in progress, and what is left on the screen."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.markdown import Markdown

from app.documents.library import DocumentLibrary
from fakes.ollama import FakeOllama, Pause, Reply
from fakes.replies import Step, chunk, final
from history import ChatHistoryDB
from tests.cli_helpers import Screen, run_cli, run_in_terminal


def slow_answer(text: str, seconds: float) -> Reply:
    return Reply([Pause(seconds), chunk(content=text), final("stop", 42, 3)])


def test_on_a_terminal_a_spinner_counts_the_seconds_then_gives_way_to_the_answer(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(slow_answer("The answer.", 2.5))  # a second's frame must come before the answer
    code, output = run_in_terminal("--once", "hi", "--server", fake_ollama.url)
    assert code == 0, output
    assert "qwen3:4b is thinking… 0 s" in output and "qwen3:4b is thinking… 1 s" in output
    assert output.count("\r\x1b[2K") > 5, "redrawn in place, several times a second"
    assert Screen(output).text == "The answer.", "the spinner leaves no trace"


def test_on_a_terminal_a_tool_call_in_progress_is_one_line_until_its_result(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(("sqrt", {"x": 144})), slow_answer("It is 12.", 0.5))
    code, output = run_in_terminal("--once", "sqrt 144?", "--server", fake_ollama.url, columns=60)
    assert code == 0, output
    assert "running sqrt(x=144)" in output
    assert Screen(output, columns=60).text == "→ sqrt(x=144) = 12.0\nIt is 12."


def test_the_spinner_never_wraps_a_narrow_terminal(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(slow_answer("Done.", 0.5))
    model = "a-model-with-a-rather-long-name:latest"
    fake_ollama.models.append(model)
    code, output = run_in_terminal("--once", "hi", "--server", fake_ollama.url, "--model", model, columns=30)
    assert code == 0, output
    drawn = [part.split("\x1b[0m")[0] for part in output.split("\r\x1b[2K\x1b[2m")[1:]]
    assert drawn and all(len(line) < 30 and re.search(r"… \d+ s$", line) for line in drawn), drawn


def test_off_a_terminal_a_long_wait_is_one_plain_line(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(slow_answer("The answer.", 2.5))  # well past the second after which the line is written
    result = run_cli("--once", "hi", "--server", fake_ollama.url)
    assert (result.returncode, result.stdout) == (0, "The answer.\n")
    assert result.stderr == "qwen3:4b is thinking…\n", "no animation, no carriage return, no escape sequence"


def test_off_a_terminal_a_quick_answer_adds_nothing(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("Quick."))
    result = run_cli("--once", "hi", "--server", fake_ollama.url)
    assert (result.returncode, result.stdout, result.stderr) == (0, "Quick.\n", "")


def pieces(text: str, size: int, pause: float) -> Reply:
    """`text` streamed `size` characters at a time, with `pause` seconds between pieces."""
    steps: list[Step] = []
    for start in range(0, len(text), size):
        steps += [Pause(pause), chunk(content=text[start : start + size])]
    return Reply([*steps, final("stop", 42, len(text) // 4)])


ANSWER = "It is **12 kN·m**.\n\n- first\n- second\n\n```python\nx = 1\n```\n\nSee [the code](https://example.org/ec2)."


def test_on_a_terminal_the_answer_is_rendered_markdown(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(pieces(ANSWER, 7, 0.01))
    code, output = run_in_terminal("--once", "hi", "--server", fake_ollama.url)
    assert code == 0, output
    screen = Screen(output).text
    assert "It is 12 kN·m." in screen and "**" not in screen, "bold, not asterisks"
    assert "\x1b[1m" in output
    assert "• first" in screen and "• second" in screen and "x = 1" in screen and "```" not in screen
    assert "the code (https://example.org/ec2)" in screen, "a link shows where it goes"
    assert "\x1b]8;" not in output, "and is never a hidden terminal hyperlink"


def test_rich_markup_and_escapes_in_model_text_stay_inert_on_a_terminal(fake_ollama: FakeOllama) -> None:
    answer = "[bold red]alarm[/bold red] :warning: \x1b]0;pwned\x07\x1b[2J\x9b31m done [/]"
    fake_ollama.script(pieces(answer, 5, 0.0))
    code, output = run_in_terminal("--once", "hi", "--server", fake_ollama.url)
    assert code == 0, output
    assert Screen(output).text == "[bold red]alarm[/bold red] :warning: ]0;pwned[2J31m done [/]"
    assert "pwned\x07" not in output and "\x1b[2J" not in output and "\x9b" not in output and "\x1b[31m" not in output


def test_tag_like_text_is_shown_as_written_on_a_terminal(fake_ollama: FakeOllama) -> None:
    """Rich drops inline and block HTML; engineers write such text ("an <M20> bolt"), and none of it may vanish."""
    answer = "Use an <M20> bolt at <200> mm, **<S355>** steel.\n\n<div>A block of <b>HTML</b></div>\n\nDone <br> now."
    fake_ollama.script(pieces(answer, 6, 0.0))
    code, output = run_in_terminal("--once", "hi", "--server", fake_ollama.url)
    assert code == 0, output
    screen = Screen(output).text
    assert "Use an <M20> bolt at <200> mm, <S355> steel." in screen and "**" not in screen
    assert "<div>A block of <b>HTML</b></div>" in screen and "Done <br> now." in screen


def test_bidi_controls_are_written_out_on_a_terminal_too(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(pieces("Total: 1\u202e05\u202c kN", 3, 0.0))
    code, output = run_in_terminal("--once", "hi", "--server", fake_ollama.url)
    assert code == 0, output
    assert "\u202e" not in output and "Total: 1[U+202E]05[U+202C] kN" in Screen(output).text


@pytest.mark.parametrize(("flag", "env"), [("--plain", {}), (None, {"NO_COLOR": "1"})], ids=["plain", "no-color"])
def test_plain_or_no_color_prints_the_markdown_as_written(
    fake_ollama: FakeOllama, flag: str | None, env: dict[str, str]
) -> None:
    fake_ollama.script(pieces(ANSWER, 7, 0.0))
    args = ["--once", "hi", "--server", fake_ollama.url, *([flag] if flag else [])]
    code, output = run_in_terminal(*args, env=env)
    assert code == 0, output
    assert Screen(output).text == ANSWER and "\x1b[1m" not in output


def rendered_by_rich(markdown: str, columns: int = 80) -> str:
    console = Console(file=io.StringIO(), width=columns, force_terminal=True)
    with console.capture() as capture:
        console.print(Markdown(markdown, hyperlinks=False, justify="default"))
    return capture.get().replace("\n", "\r\n")  # as a terminal's line discipline sends it


def test_a_long_streamed_answer_is_on_screen_once_whole_and_in_order(fake_ollama: FakeOllama) -> None:
    """Blocks longer than the screen, lists, tables and code, streamed in small pieces: nothing lost or repeated."""
    paragraphs = [f"Paragraph {n}: the slab spans 6 m between walls." for n in range(1, 13)]
    tall_list = "\n".join(f"{n}. Bar mark B{n:02d}, 12 mm at 200 mm centres" for n in range(1, 31))
    table = "| member | M (kN·m) |\n|---|---|\n| B1 | 54 |\n| B2 | 61 |"
    code = "```text\n" + "\n".join(f"line {n}" for n in range(1, 28)) + "\n```"
    answer = "\n\n".join([*paragraphs[:6], tall_list, table, code, *paragraphs[6:]])
    fake_ollama.script(pieces(answer, 9, 0.004), Reply.text(answer, pieces=1))
    _, streamed = run_in_terminal("--once", "schedule?", "--server", fake_ollama.url)
    _, at_once = run_in_terminal("--once", "schedule?", "--server", fake_ollama.url)
    screen = Screen(streamed).text
    assert screen == Screen(at_once).text, "streaming leaves the same screen as the whole answer at once"
    assert screen == Screen(rendered_by_rich(answer)).text, "block by block, as Rich renders the whole document"
    expected = [*paragraphs[:6], *(f"B{n:02d}," for n in range(1, 31)), " B2 ", "line 27", *paragraphs[6:]]
    positions = [screen.find(part) for part in expected]
    assert -1 not in positions and positions == sorted(positions), "every part, in order"
    assert all(screen.count(part) == 1 for part in paragraphs), "none twice"
    assert all(screen.count(f"line {n}\n") + screen.endswith(f"line {n}") <= 1 for n in range(1, 28))


@pytest.mark.parametrize("on_a_terminal", [False, True], ids=["pipe", "plain-terminal"])
def test_rich_is_never_loaded_when_nothing_is_rendered(fake_ollama: FakeOllama, on_a_terminal: bool) -> None:
    """Start-up stays quick for scripts and --plain: Rich (about 70 ms to import) is loaded only to draw Markdown."""
    fake_ollama.script(Reply.text("It is **4**."))
    args, env = ("--once", "2 + 2?", "--server", fake_ollama.url), {"PYTHONPROFILEIMPORTTIME": "1"}
    if on_a_terminal:
        code, imports = run_in_terminal(*args, "--plain", env=env)
    else:
        result = run_cli(*args, env=env)
        code, imports = result.returncode, result.stderr
    assert code == 0 and "| faces.cli" in imports
    assert " rich" not in imports and "markdown_it" not in imports


@pytest.mark.parametrize(
    ("streamed", "blocks", "tail"),
    [
        ("One.\n\nTwo", ["One."], "Two"),
        ("One.\n\n", [], "One.\n\n"),  # the next block may yet continue this one
        ("- a\n\n  still a\n\nNext", ["- a\n\n  still a"], "Next"),
        ("```\nx = 1\n\ny = 2\n```\n\nAfter", ["```\nx = 1\n\ny = 2\n```"], "After"),
        ("~~~~\n```\n\n~~~\n\n~~~~\n\nAfter", ["~~~~\n```\n\n~~~\n\n~~~~"], "After"),
        ("| a |\n|---|\n| 1 |\n\n\n\n# Head\n\nText", ["| a |\n|---|\n| 1 |", "# Head"], "Text"),
    ],
    ids=["paragraph", "blank-line-last", "list-item-continues", "code-fence", "longer-fence", "table-heading"],
)
def test_a_markdown_block_is_settled_once_the_next_one_starts(streamed: str, blocks: list[str], tail: str) -> None:
    from faces.cli.markdown import settled_blocks

    assert settled_blocks(streamed) == (blocks, tail)


def test_at_the_prompt_on_a_terminal_answers_are_markdown_too(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(pieces("Use **B500** bars:\n\n1. 12 mm\n2. 16 mm", 4, 0.01))
    code, output = run_in_terminal("--server", fake_ollama.url, typed="Which bars?\n/exit\n")
    assert code == 0, output
    screen = Screen(output).text
    assert "Use B500 bars:\n\n 1 12 mm\n 2 16 mm\nWhich bars? > " in screen, screen


LONG_NAME = "Maximum moment and deflection of a 6 m simply supported transfer beam"
LONG_DESCRIPTION = (
    "Checks transfer structures at podium level against the serviceability limits of the project's own "
    "specification, citing each clause, and never rounds a deflection before comparing it with its limit."
)
LONG_EXPRESSION = "12 kN/m * (6 m)**2 / 8 + 3 kN/m * (6 m)**2 / 8 + 1.5 kN/m * (6 m)**2 / 8"
LONG_FILE = "Structural calculations for the level three transfer slab at grid C4.md"


def whole_words_on(screen: str, *texts: str) -> list[str]:
    """The words of `texts` (four letters or more) that no row of `screen` shows whole: broken across rows."""
    shown = set(re.findall(r"[\w'-]+", screen))
    return [word for text in texts for word in re.findall(r"[\w'-]{4,}", text) if word not in shown]


def test_on_a_terminal_lines_break_between_words(fake_ollama: FakeOllama, isolated: Path) -> None:
    """The start-up line, /agent, a tool's line, /docs and /help fit 80 columns without cutting a word."""
    (isolated / "agents").mkdir()
    (isolated / "agents" / "podium-checker.md").write_text(
        f"---\nname: podium-checker\ndescription: {LONG_DESCRIPTION}\n---\nCheck podiums.\n"
    )
    (isolated / "workspace").mkdir()
    (isolated / "workspace" / LONG_FILE).write_text("# Slab\nThe transfer slab is 450 mm thick.\n")
    library = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), isolated / "workspace", None)
    library.refresh()
    assert library.wait(60)
    fake_ollama.script(
        Reply.tool_calls(("evaluate_quantity", {"expression": LONG_EXPRESSION})),
        Reply.text("Done."),
        Reply.text("- Transfer beam: 74.25 kN·m."),
    )
    typed = "/agent\n/docs\n/help\nTotal moment?\n/exit\n"
    code, output = run_in_terminal(
        "--server",
        fake_ollama.url,
        "--workspace",
        LONG_NAME,
        typed=typed,
        env={"AGENTS_DIR": "agents", "EMBED_MODEL": ""},
    )
    assert code == 0, output
    screen = Screen(output, columns=80)
    assert "74.25 kN·m" in screen.text and "Updated the summary of" in screen.text, screen.text
    assert screen.wrapped_rows == [], "no line was left for the terminal to break wherever it reached column 80"
    help_text = "/memory [add TEXT | remove ID]  what is remembered for every workspace; add or forget a fact"
    assert whole_words_on(screen.text, LONG_NAME, LONG_DESCRIPTION, LONG_EXPRESSION, LONG_FILE, help_text) == []
