"""The faces and the tools: CLI start-up, a web rerun of a long workspace, prompt size, unit tools."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from agent import AIAgent
from app.application import Application
from bench.agent_bench import fake_server_process
from bench.harness import Result, single, summarise, timed_ms
from bench.store_bench import workspace_of
from engine.prompt import CHARS_PER_TOKEN
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tools import ToolContext, run_tool

ROOT = Path(__file__).resolve().parents[1]
NUM_CTX = 8192


def cli_start(url: str, folder: Path) -> float:
    """Seconds from `python main.py` to its first prompt."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "--server", url],
        cwd=folder,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdout is not None and process.stdin is not None
    seen = b""
    while not seen.endswith(b"> "):
        chunk = os.read(process.stdout.fileno(), 4096)
        if not chunk:
            raise RuntimeError("the CLI ended before its prompt")
        seen += chunk
    elapsed = time.perf_counter() - started
    process.stdin.close()
    process.wait(timeout=10)
    return elapsed


def cli_once(url: str, folder: Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--server", url, "--once", "What is wL²/8?"],
        cwd=folder,
        capture_output=True,
        check=True,
        timeout=60,
    )
    return time.perf_counter() - started


def cli(quick: bool) -> list[Result]:
    runs = 3 if quick else 15
    with fake_server_process() as url, tempfile.TemporaryDirectory() as folder:
        starts = [cli_start(url, Path(folder)) * 1000 for _ in range(runs)]
        onces = [cli_once(url, Path(folder)) * 1000 for _ in range(runs)]
    return [
        summarise("CLI cold start to the first prompt", starts, "ms", "≤ 600 ms", 600),
        summarise("CLI --once round trip", onces, "ms", "≤ 1,000 ms", 1000),
    ]


def prompt_sizes(quick: bool) -> list[Result]:
    """Tokens sent with one question, whatever the length of the workspace's history."""
    results = []
    with FakeOllama() as fake, tempfile.TemporaryDirectory() as folder:
        fake.responder = lambda body: Reply.text("ok")
        for size in [10, 1_000] if quick else [10, 1_000, 10_000]:
            path = Path(folder) / f"p{size}.sqlite"
            chat_id = workspace_of(path, "Tower A", size)
            service = Application(ChatHistoryDB(path), AIAgent("qwen3:4b", fake.url, "s", select_tools=True))

            async def ask(service: Application = service, chat_id: int = chat_id) -> None:
                async for _ in service.turns.ask("And the deflection?", chat_id):
                    pass

            asyncio.run(ask())
            body = fake.chat_requests[-1]
            tokens = len(json.dumps([body["messages"], body.get("tools")], ensure_ascii=False)) / CHARS_PER_TOKEN
            results.append(
                single(
                    f"prompt per turn, {size:,} turns of history",
                    tokens,
                    "tokens (est.)",
                    f"≤ NUM_CTX ({NUM_CTX:,})",
                    tokens <= NUM_CTX,
                )
            )
    return results + fixed_prompts()


FIXED_PROMPT_QUESTIONS = (
    "Is a W18x50 OK for 35 ft with 0.45 kip/ft dead and 0.75 kip/ft live?",
    "What lap length does the spec require for #5 bars?",
    "Maximum moment and deflection of a 6 m simply supported beam under 12 kN/m?",
)


def fixed_prompts() -> list[Result]:
    """The fixed prompt (system prompt and tool schemas, no history) in tokens at 3 characters each: every tool,
    as the first version sent, against the default agent's selection for typical questions."""
    from app.configuration.settings import DEFAULT_SYSTEM_PROMPT
    from engine.tool_selection import offered_tools
    from tools import ollama_tools, tool_specs

    def tokens(names: list[str]) -> float:
        system = {"role": "system", "content": DEFAULT_SYSTEM_PROMPT}
        return len(json.dumps([system, ollama_tools(names)], ensure_ascii=False)) / CHARS_PER_TOKEN

    everything = tokens(list(tool_specs))
    chosen = [tokens(offered_tools(question, list(tool_specs))) for question in FIXED_PROMPT_QUESTIONS]
    return [
        single(f"fixed prompt, every tool ({len(tool_specs)})", everything, "tokens (est.)", "(before)", None),
        summarise("fixed prompt, default agent's selection (3 questions)", chosen, "tokens (est.)", "≤ 1,500", 1500),
    ]


def web_rerun(quick: bool) -> list[Result]:
    """Streamlit reruns (AppTest) of a workspace of 2,000 turns."""
    from streamlit.testing.v1 import AppTest

    with tempfile.TemporaryDirectory() as folder:
        workspace_of(Path(folder) / "web.sqlite", "Tower A", 2_000)
        old = os.environ.get("CHAT_HISTORY_DB_PATH")
        os.environ["CHAT_HISTORY_DB_PATH"] = str(Path(folder) / "web.sqlite")
        try:
            app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60).run()
            samples = timed_ms(lambda: app.run(), 3 if quick else 15)
        finally:
            os.environ.pop("CHAT_HISTORY_DB_PATH") if old is None else os.environ.update(CHAT_HISTORY_DB_PATH=old)
    return [summarise("web app rerun, 2,000-turn workspace (AppTest)", samples, "ms", "≤ 1,000 ms", 1000)]


def unit_tools(quick: bool) -> list[Result]:
    context = ToolContext()
    run_tool("convert_units", {"quantity": "1 m", "to_unit": "ft"}, context)  # the registry is built here, once
    runs = 50 if quick else 1000
    convert = timed_ms(lambda: run_tool("convert_units", {"quantity": "12 ft", "to_unit": "m"}, context), runs)
    arithmetic = timed_ms(
        lambda: run_tool("evaluate_quantity", {"expression": "12 kN/m * (6 m)**2 / 8"}, context), runs
    )
    from tools.units import _registry_cached

    built = _registry_cached.cache_info().misses
    return [
        summarise("convert_units, warm", convert, "ms", "≤ 2 ms", 2),
        summarise("evaluate_quantity, warm", arithmetic, "ms", "≤ 2 ms", 2),
        single("pint registries built in this process", built, "", "1", built == 1),
    ]
