"""The terminal face and the protocol server.

    python main.py [--model M] [--server URL] [--workspace NAME|ID] [--db PATH] [--env-file FILE]
    python main.py --once "question"
    python main.py serve [--host 127.0.0.1] [--port 60100] [--token T] [--http-port P]   (also the OpenAI API)
    python main.py verify FILE.pdf [--db PATH]
    python main.py db upgrade [--db PATH]
    python main.py db copy --from SOURCE --to TARGET
    python main.py users add NAME --role admin|engineer|viewer   (and list, remove, role, password, key, revoke-keys)
    python main.py share WORKSPACE USER --as viewer|editor   |   share WORKSPACE --everyone   |   unshare WORKSPACE USER
    python main.py audit [--user NAME] [--workspace NAME|ID] [--since ISO-8601] [--json]   |   audit verify
    python main.py webhooks [--limit N]   (the webhook deliveries, newest first)

The faces themselves live in `faces/cli` and `faces/server`.
"""

import sys

from faces import skip_httpx_cli  # noqa: F401 - first, before anything imports httpx

if __name__ == "__main__":  # each command imports its own face, and so only what it uses
    if sys.argv[1:2] == ["serve"]:
        from faces.server import main as serve

        sys.exit(serve(sys.argv[2:]))
    if sys.argv[1:2] == ["db"]:
        from faces.cli.database import main as database

        sys.exit(database(sys.argv[2:]))
    if sys.argv[1:2] == ["verify"]:
        from faces.cli.verify import main as verify

        sys.exit(verify(sys.argv[2:]))
    if sys.argv[1:2] == ["webhooks"]:
        from faces.cli.webhooks import main as webhooks

        sys.exit(webhooks(sys.argv[2:]))
    if sys.argv[1:2] in (["users"], ["share"], ["unshare"], ["audit"]):
        from faces.cli.accounts import main as accounts

        sys.exit(accounts(sys.argv[1:]))
    from faces.cli.chat import main

    sys.exit(main())
