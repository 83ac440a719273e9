"""A small client of the protocol server, standard library only.

    python main.py serve                       # in one terminal
    python examples/client.py "Moment of a 6 m beam under 12 kN/m?"
    python examples/client.py --session 3 "And the deflection with I = 8.5e7 mm^4?"
    python examples/client.py --list

It prints the answer as it streams, each tool call as it runs, and the session id to go on with.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import uuid
from typing import Any


def requests_to(host: str, port: int, request: dict[str, Any]) -> Any:
    """Send one request; yield its events until its last one."""
    with socket.create_connection((host, port)) as sock, sock.makefile("rwb") as stream:
        stream.write(json.dumps(request).encode() + b"\n")
        stream.flush()
        started = False
        for line in stream:
            event = json.loads(line)
            if event.get("requestID") != request["id"]:
                continue
            yield event
            started = started or event["type"] == "turn-started"
            if event["type"] in ("turn-completed", "sessions", "session", "session-deleted"):
                return
            if event["type"] == "error" and not started:
                return  # refused before a turn began: the error is the only reply


def main() -> int:
    parser = argparse.ArgumentParser(description="Ask the engineering assistant over its protocol server.")
    parser.add_argument("question", nargs="?", help="the question")
    parser.add_argument("--session", help="go on in this session (workspace id)")
    parser.add_argument("--list", action="store_true", help="list the sessions")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=60100)
    parser.add_argument("--token", help="the server's --token, if it has one")
    args = parser.parse_args()
    request: dict[str, Any] = {"id": uuid.uuid4().hex}
    if args.token:
        request["token"] = args.token
    if args.list:
        request["type"] = "list-sessions"
    elif args.question:
        request.update(type="dispatch", agentID="assistant", content=args.question)
        if args.session:
            request["sessionID"] = args.session
    else:
        parser.error("give a question, or --list")
    status = 0
    for event in requests_to(args.host, args.port, request):
        kind = event["type"]
        if kind == "response-chunk":
            print(event["delta"], end="", flush=True)
        elif kind == "tool-call":
            print(f"\n→ {event['name']}({json.dumps(event['input'])})", file=sys.stderr)
        elif kind == "tool-result":
            print(f"  = {event.get('error') or event['output'][:200]}", file=sys.stderr)
        elif kind == "error":
            print(f"\n[{event['code']}] {event['message']}", file=sys.stderr)
            status = 1
        elif kind == "turn-completed":
            usage = event["usage"]
            print(f"\n(session {event['sessionID']} · {event['stopReason']} · {usage['totalTokens']} tokens)")
        elif kind == "sessions":
            for session in event["sessions"]:
                print(f"{session['sessionID']:>5}  {session['turns']:>4} turns  {session['name']}")
    return status


if __name__ == "__main__":
    sys.exit(main())
