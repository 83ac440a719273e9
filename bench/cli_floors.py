"""The terminal's commands against their floors, each a process as a user starts it (`bench/shipped.py`):

- `python main.py --once "hi"` against a process that imports `ollama` and makes the same request
  (`bench/bare_client.py`; the request is the one `--once` sends, recorded first);
- the same `--once` with a workspace folder of 8,000 subfolders against it with an empty one;
- `python main.py verify FILE.pdf` (an issued package's PDF) against a process that hashes the file and
  opens the store to look it up (`bench/verify_floor.py`).

The fake Ollama answers at once in a process of its own. Each run starts from the same chat history (a copy
of it, made before the clock starts), so every `--once` sends the same request.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from bench.agent_bench import fake_server_process
from bench.floors import Figure
from bench.shipped import ROOT, main_py, timed_run
from fakes.ollama import FakeOllama

SUBFOLDERS = 8_000
QUESTION = "hi"
HISTORY = "chat_history.sqlite"


def prepared(folder: Path, url: str, subfolders: int) -> Path:
    """A folder where `--once` has run once (its chat history made), with `subfolders` in its workspace folder;
    the chat history's copy every run starts from."""
    (folder / "workspace").mkdir(parents=True)
    for number in range(subfolders):
        (folder / "workspace" / f"part {number:04d}").mkdir()
    _, failed = timed_run(main_py(["--server", url, "--once", QUESTION]), folder)
    assert failed is None, failed
    template = folder.parent / f"{folder.name}.sqlite"
    shutil.copyfile(folder / HISTORY, template)
    return template


def reset(folder: Path, template: Path) -> None:
    for suffix in ("-wal", "-shm"):
        (folder / (HISTORY + suffix)).unlink(missing_ok=True)
    shutil.copyfile(template, folder / HISTORY)


def recorded_request(folder: Path, template: Path) -> Path:
    """The /api/chat body `--once` sends from this chat history, as a file for the bare client."""
    from bench.fake_server import reply

    reset(folder, template)
    with FakeOllama() as fake:
        fake.responder = reply
        _, failed = timed_run(main_py(["--server", fake.url, "--once", QUESTION]), folder)
        assert failed is None, failed
        body = fake.chat_requests[-1]
    path = folder.parent / "request.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    return path


def once_figures(quick: bool) -> list[Figure]:
    rounds, each = (2, 1) if quick else (5, 4)
    once = Figure("`main.py --once \"hi\"`", "the whole command", "a bare process importing ollama making the same "
                  "request (bench/bare_client.py)", "ms", "ratio", 1.5)  # fmt: skip
    large = Figure(f"`--once` with a workspace folder of {SUBFOLDERS:,} subfolders", "8,000 subfolders",
                   "an empty workspace folder", "ms", "added", 150.0)  # fmt: skip
    with fake_server_process() as url, tempfile.TemporaryDirectory() as name:
        folders = {"empty": Path(name) / "empty", "large": Path(name) / "large"}
        templates = {key: prepared(folder, url, SUBFOLDERS if key == "large" else 0) for key, folder in folders.items()}
        request = recorded_request(folders["empty"], templates["empty"])
        bare = [sys.executable, str(ROOT / "bench" / "bare_client.py"), url, str(request)]
        command = main_py(["--server", url, "--once", QUESTION])
        for key in ("bare", "empty", "large"):  # warm: Python's compiled modules written, the files in the cache
            _run(key, bare, command, folders, templates, once)
        for number in range(rounds):
            samples: dict[str, list[float]] = {"bare": [], "empty": [], "large": []}
            for turn in range(each):
                order = ["bare", "empty", "large"]
                shift = (number * each + turn) % 3
                for key in order[shift:] + order[:shift]:
                    samples[key].append(_run(key, bare, command, folders, templates, once))
            once.round(samples["empty"], samples["bare"])
            large.round(samples["large"], samples["empty"])
    large.failures = once.failures  # the runs are shared
    return [once, large]


def _run(key: str, bare: list[str], command: list[str], folders: dict[str, Path], templates: dict[str, Path],
         figure: Figure) -> float:  # fmt: skip
    if key == "bare":
        elapsed, failed = timed_run(bare, folders["empty"])
    else:
        reset(folders[key], templates[key])
        elapsed, failed = timed_run(command, folders[key])
    if failed is not None:
        figure.failures.append(f"{key}: {failed}")
    return elapsed


def issued_package(folder: Path) -> Path:
    """A chat history holding one approved calculation package (three calculations), and its PDF."""
    from app.packages import PackageDesk
    from bench.packages_bench import fill
    from domain.packages import Signer
    from store import ChatHistoryDB

    folder.mkdir()
    store = ChatHistoryDB(folder / HISTORY)
    chat_id = fill(store, 3)
    desk = PackageDesk(store)
    desk.sign_off(chat_id, "checked", Signer(name="Ben Checker"))
    desk.sign_off(chat_id, "approved", Signer(name="Cara Approver"))
    pdf = folder / "package.pdf"
    pdf.write_bytes(desk.pdf(chat_id).data)
    store.close()
    return pdf


def verify_figure(quick: bool) -> list[Figure]:
    rounds, each = (2, 1) if quick else (5, 4)
    figure = Figure("`main.py verify FILE.pdf`", "the whole command", "hashing the file and opening the store "
                    "(bench/verify_floor.py)", "ms", "ratio", 4.0)  # fmt: skip
    with tempfile.TemporaryDirectory() as name:
        pdf = issued_package(Path(name) / "office")
        folder = pdf.parent
        commands = {
            "ours": main_py(["verify", pdf.name]),
            "floor": [sys.executable, str(ROOT / "bench" / "verify_floor.py"), pdf.name, HISTORY],
        }
        for command in commands.values():
            timed_run(command, folder)  # warm
        for number in range(rounds):
            samples: dict[str, list[float]] = {"ours": [], "floor": []}
            for turn in range(each):
                for key in ("ours", "floor") if (number + turn) % 2 == 0 else ("floor", "ours"):
                    elapsed, failed = timed_run(commands[key], folder)
                    samples[key].append(elapsed)
                    if failed is not None:
                        figure.failures.append(f"{key}: {failed}")
            figure.round(samples["ours"], samples["floor"])
    return [figure]
