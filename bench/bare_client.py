"""The floor of `python main.py --once`: a process that imports `ollama` and makes the same request, streamed and
printed as it comes, and nothing else.

    python bench/bare_client.py URL REQUEST.json
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import ollama


async def ask(url: str, body: dict[str, Any]) -> None:
    client = ollama.AsyncClient(host=url)
    stream = await client.chat(
        model=body["model"],
        messages=body["messages"],
        tools=body.get("tools"),
        stream=True,
        think=body.get("think"),
        options=body.get("options"),
    )
    async for chunk in stream:
        sys.stdout.write(chunk.message.content or "")
    sys.stdout.write("\n")


if __name__ == "__main__":
    asyncio.run(ask(sys.argv[1], json.loads(Path(sys.argv[2]).read_text(encoding="utf-8"))))
