"""The terminal's user with AUTH=accounts: `--user NAME` and that user's API key, from API_KEY or a prompt."""

from __future__ import annotations

import getpass
import os
from functools import partial
from typing import TextIO

from app import Application, SignInError
from faces.exit_codes import EXIT_FAILED, EXIT_USAGE

NEEDS_USER = "With AUTH=accounts, name yourself with --user NAME; your API key comes from API_KEY or is asked."


def for_the_user(
    service: Application, user_name: str | None, stderr: TextIO, stdin_is_terminal: bool, lasting: bool = False
) -> Application | int:
    """The application for the signed-in user (the service itself with AUTH=none), or an exit code said on
    `stderr`. The key is never echoed or repeated. A `lasting` view (the prompt) holds a session as a browser
    does, and asks at each request whether its key and session still stand."""
    if not service.accounts_on:
        if user_name:
            stderr.write("--user is for AUTH=accounts; without accounts there is one person and no sign-in.\n")
        return service
    if not user_name:
        stderr.write(f"{NEEDS_USER}\n")
        return EXIT_USAGE
    key = os.environ.get("API_KEY", "")
    if not key and stdin_is_terminal:
        key = getpass.getpass(f"API key for {user_name}: ")
    try:
        user = service.accounts.sign_in_with_key(key)
    except SignInError as error:
        stderr.write(f"{error}\n")
        return EXIT_FAILED
    if user.name.lower() != user_name.strip().lower():
        stderr.write("That API key is not the key of --user; give your own.\n")
        return EXIT_FAILED
    if not lasting:
        return service.for_user(user)
    token = service.accounts.start_session(user)
    return service.for_user(user, standing=partial(service.accounts.view_stands, token, key))
