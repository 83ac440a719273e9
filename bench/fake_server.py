"""A zero-latency fake Ollama in a process of its own, so that it does not share the GIL with what is timed.

    python -m bench.fake_server PORT

Replies: a tool call (`sqrt`) when the question asks for one ("[tool]") and no
tool result has come back yet; otherwise a text answer of REPLY_PIECES chunks.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any

from fakes.ollama import FakeOllama, Reply

REPLY_PIECES = int(os.environ.get("BENCH_PIECES", "60"))
REPLY_TEXT = "The maximum moment of a simply supported beam under a uniform load is wL²/8. " * 4


def reply(body: dict[str, Any]) -> Reply:
    last = body["messages"][-1]
    if body.get("tools") and last["role"] == "user" and "[tool]" in last["content"]:
        return Reply.tool_calls(("sqrt", {"x": 144}))
    return Reply.text(REPLY_TEXT, pieces=REPLY_PIECES)


def main() -> None:
    port = int(sys.argv[1])
    with FakeOllama(port=port, record=False) as fake:
        fake.responder = reply
        print("ready", flush=True)
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        stop.wait()


if __name__ == "__main__":
    main()
