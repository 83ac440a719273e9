"""The address a browser connects from, as the sign-in slow-down counts it: a reverse proxy's `X-Forwarded-For` is
taken only from the proxies TRUSTED_PROXIES names (none by default).

uvicorn, which serves the page, trusts the header from this computer by default (and reads its own setting
before the app is imported, so it cannot be told otherwise here): a guesser on this computer, or behind a proxy
on it, could name any address. This middleware, inside uvicorn's, puts the address back: a client uvicorn took
from the header came from this computer; from a trusted proxy, the nearest address the proxies did not add is
the client's.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK = "127.0.0.1"


def _networks(trusted: str) -> list[Any]:
    found = []
    for item in (part.strip() for part in trusted.split(",")):
        if item:
            try:
                found.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                continue  # not an address: trusts nothing
    return found


class ClientAddress:
    """ASGI middleware: `scope["client"]` as the client, whatever a request's `X-Forwarded-For` claims."""

    def __init__(self, app: ASGIApp, trusted: str = "") -> None:
        self.app = app
        self._trusted = _networks(trusted)

    def trusts(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host.strip("[]"))
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self._trusted)

    def client(self, peer: str, forwarded: list[str]) -> str:
        if not forwarded:
            return peer
        if peer in forwarded and not self.trusts(peer):  # uvicorn took it from the header: it came from here
            peer = LOOPBACK
        if not self.trusts(peer):
            return peer
        return next((host for host in reversed(forwarded) if not self.trusts(host)), peer)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and scope.get("client"):
            header = dict(scope.get("headers") or []).get(b"x-forwarded-for", b"").decode("latin-1")
            forwarded = [host.strip() for host in header.split(",") if host.strip()]
            host, port = scope["client"]
            scope = {**scope, "client": (self.client(str(host), forwarded), port)}
        await self.app(scope, receive, send)
