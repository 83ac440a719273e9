"""The exit codes of the terminal faces (the CLI, `serve`, `verify`), as docs/command-line.md lists them."""

EXIT_OK = 0
EXIT_FAILED = 1  # the turn failed, the chat history could not store it, or `verify` matched nothing
EXIT_USAGE = 2  # a bad setting or flag, a settings file or history folder that does not exist
EXIT_INTERRUPTED = 130  # Ctrl-C outside an answer (128 + SIGINT)
EXIT_TERMINATED = 143  # SIGTERM (128 + SIGTERM), after the answer in progress was stored
