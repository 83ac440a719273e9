"""Who the web app may serve: with AUTH=accounts any address, since everyone signs in first; without accounts
(AUTH=none) nobody signs in, so it serves this computer only unless ALLOW_UNAUTHENTICATED_NETWORK_ACCESS=true
says the risk is accepted. The web server checks it as it
starts (`streamlit_app.py`), from the address Streamlit listens on: `server.address`, from
`--server.address`, `.streamlit/config.toml` or STREAMLIT_SERVER_ADDRESS (unset: every interface)."""

from __future__ import annotations

import ipaddress
import sys
from pathlib import Path

import streamlit as st

from app import SettingsError, load_settings
from faces.exit_codes import EXIT_USAGE


def is_loopback(address: str | None) -> bool:
    """Whether `address` reaches this computer only (unset or empty: every interface, so no)."""
    if not address:
        return False
    if address.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(address.strip().strip("[]")).is_loopback
    except ValueError:
        return False


def refusal(address: str | None, auth: str, allow_network: bool) -> str | None:
    """The sentence that stops the web server, or None when it may serve `address`."""
    if auth == "accounts":
        return None  # everyone signs in on the page before anything is shown
    if is_loopback(address) or allow_network:
        return None
    shown = address or "every interface"
    return (
        f"Refusing to serve {shown} without accounts: anyone who reaches it could read and change every "
        "workspace. Listen on 127.0.0.1, set AUTH=accounts, or set ALLOW_UNAUTHENTICATED_NETWORK_ACCESS=true "
        "to accept that risk."
    )


def check_exposure(env_file: Path = Path(".env")) -> str:
    """Stop the web server, with one sentence on standard error, when it may not serve its address; else the
    reverse proxies it trusts to name a client (TRUSTED_PROXIES, for `faces.web.client_address`)."""
    try:
        settings = load_settings(env_file=env_file, overrides={})
    except SettingsError:
        return ""  # the page says what is wrong with the settings, on this computer only as ever
    address = st.get_option("server.address")
    said = refusal(address, settings.auth, settings.allow_unauthenticated_network_access)
    if said is not None:
        sys.stderr.write(f"{said}\n")
        sys.stderr.flush()
        raise SystemExit(EXIT_USAGE)
    return settings.trusted_proxies
