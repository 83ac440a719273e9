"""The floor for the Markdown export: one streaming query over the turns and their tool calls, written out
as the export writes the benchmark's workspaces, with nothing the export's generality needs.

It knows only what the benchmark stores (complete turns, flat arguments, no backticks, no usage), and the
benchmark checks that it writes the same bytes as the export, so the comparison stays honest.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

QUERY = """SELECT h.id, h.user, h.assistant, h.created_at, t.name, t.arguments, t.output, t.duration_ms
           FROM history AS h LEFT JOIN tool_calls AS t ON t.turn_id = h.id
           WHERE h.chat_id = ? ORDER BY h.id, t.position"""


def write_floor(database: str, chat_id: int, target: Path) -> None:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    name, created, summary, updated = db.execute(
        "SELECT chat_name, created_at, context_summary, context_updated_at FROM chats WHERE chat_id = ?", (chat_id,)
    ).fetchone()
    head = f"# {name}\n\nCreated {(created or '')[:19]} UTC.\n\n## Summary (digital twin)\n\n"
    head += f"*Updated {(updated or '')[:19]} UTC.*\n\n{summary}\n" if summary else "*No summary yet.*\n"
    with target.open("w", encoding="utf-8") as out:
        out.write(head)
        number, last, answer = 0, None, ""
        for turn_id, user, assistant, created_at, name, arguments, output, duration in db.execute(QUERY, (chat_id,)):
            if turn_id != last:
                if last is not None:
                    out.write(answer)
                number, last = number + 1, turn_id
                out.write(f"\n## Turn {number} · {(created_at or '')[:19]}\n\n**You:**\n\n```\n{user}\n```\n\n")
                answer = f"**Assistant:**\n\n{assistant}\n"
            if name is not None:
                lines = ",\n".join(f'  "{key}": {json.dumps(value)}' for key, value in json.loads(arguments).items())
                out.write(f"**Tool `{name}`** ({duration:.1f} ms)\n\n```json\n{{\n{lines}\n}}\n```\n\n")
                out.write(f"result:\n\n```\n{output}\n```\n\n")
        out.write(answer.rstrip() + "\n")
        out.flush()
        os.fsync(out.fileno())
    db.close()
