"""A loopback OpenID Connect provider, as an office's (Entra ID, Keycloak, ADFS) is seen by a web app.

It serves the discovery document, the authorization endpoint (the person is taken as signed in at once, as
`person` says, and sent back to the app with a code), the token endpoint (the app's client secret, the code,
its redirect address and PKCE's verifier are checked as a real provider checks them, and an ID token signed
with RS256 is returned) and the key set. What the app sent is kept in `token_requests` for the tests.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from fakes.ollama import free_port

__all__ = ["FakeIdentityProvider", "Person"]

KEY_ID = "office-key-1"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _uint(number: int) -> str:
    return _b64(number.to_bytes((number.bit_length() + 7) // 8, "big"))


@dataclass(frozen=True)
class Person:
    """Who signs in at the provider: the claims their ID token carries."""

    subject: str
    email: str
    name: str
    roles: tuple[str, ...] = ()  # the `roles` claim, as Entra ID and Keycloak send app roles


@dataclass
class _Grant:
    client_id: str
    redirect_uri: str
    nonce: str
    challenge: str
    person: Person


@dataclass
class FakeIdentityProvider:
    """Start with `with FakeIdentityProvider() as provider:`; `provider.person` is who signs in next."""

    person: Person = Person("ann-001", "ann@office.example", "Ann Engineer")
    client_id: str = "engineering-assistant"
    client_secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    token_requests: list[dict[str, str]] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)  # why a token request was refused

    def __post_init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self._grants: dict[str, _Grant] = {}
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), _handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> FakeIdentityProvider:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def metadata_url(self) -> str:
        return f"{self.url}/.well-known/openid-configuration"

    def metadata(self) -> dict[str, Any]:
        return {
            "issuer": self.url,
            "authorization_endpoint": f"{self.url}/authorize",
            "token_endpoint": f"{self.url}/token",
            "jwks_uri": f"{self.url}/jwks",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "scopes_supported": ["openid", "email", "profile"],
        }

    def key_set(self) -> dict[str, Any]:
        public = self._key.public_key().public_numbers()
        key = {"kty": "RSA", "use": "sig", "alg": "RS256", "kid": KEY_ID, "n": _uint(public.n), "e": _uint(public.e)}
        return {"keys": [key]}

    def authorize(self, query: dict[str, str]) -> str:
        """Where the browser is sent back to: the app's redirect address with a code and its state."""
        code = secrets.token_urlsafe(16)
        with self._lock:
            self._grants[code] = _Grant(
                query.get("client_id", ""),
                query.get("redirect_uri", ""),
                query.get("nonce", ""),
                query.get("code_challenge", ""),
                self.person,
            )
        back = {"code": code, "state": query.get("state", "")}
        return f"{query.get('redirect_uri', '')}?{urllib.parse.urlencode(back)}"

    def token(self, form: dict[str, str], authorization: str) -> dict[str, Any] | None:
        """The tokens for a code, or None (and the reason in `refusals`) when the request is not the app's."""
        self.token_requests.append(form)
        client_id, secret = _client_credentials(form, authorization)
        with self._lock:
            grant = self._grants.pop(form.get("code", ""), None)
        verifier = form.get("code_verifier", "")
        for wrong, why in (
            (grant is None, "unknown or reused code"),
            (client_id != self.client_id or not hmac.compare_digest(secret, self.client_secret), "wrong client"),
            (grant is not None and grant.redirect_uri != form.get("redirect_uri"), "another redirect address"),
            (grant is not None and grant.challenge != _b64(hashlib.sha256(verifier.encode()).digest()), "PKCE"),
        ):
            if wrong:
                self.refusals.append(why)
                return None
        assert grant is not None
        return {
            "access_token": secrets.token_urlsafe(24),
            "token_type": "Bearer",
            "expires_in": 3600,
            "id_token": self._id_token(grant),
        }

    def _id_token(self, grant: _Grant) -> str:
        now = int(time.time())
        claims = {
            "iss": self.url,
            "sub": grant.person.subject,
            "aud": grant.client_id,
            "iat": now,
            "exp": now + 3600,
            "nonce": grant.nonce,
            "email": grant.person.email,
            "email_verified": True,
            "name": grant.person.name,
            **({"roles": list(grant.person.roles)} if grant.person.roles else {}),
        }
        header = {"alg": "RS256", "typ": "JWT", "kid": KEY_ID}
        signing_input = f"{_b64(json.dumps(header).encode())}.{_b64(json.dumps(claims).encode())}"
        signature = self._key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
        return f"{signing_input}.{_b64(signature)}"


def _client_credentials(form: dict[str, str], authorization: str) -> tuple[str, str]:
    """The client's id and secret, from HTTP Basic (client_secret_basic) or the form (client_secret_post)."""
    if authorization.startswith("Basic "):
        pair = base64.b64decode(authorization[6:]).decode()
        client_id, _, secret = pair.partition(":")
        return urllib.parse.unquote_plus(client_id), urllib.parse.unquote_plus(secret)
    return form.get("client_id", ""), form.get("client_secret", "")


def _handler(provider: FakeIdentityProvider) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_: Any) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            url = urllib.parse.urlsplit(self.path)
            query = dict(urllib.parse.parse_qsl(url.query))
            if url.path == "/.well-known/openid-configuration":
                self._json(provider.metadata())
            elif url.path == "/jwks":
                self._json(provider.key_set())
            elif url.path == "/authorize":
                self.send_response(302)
                self.send_header("Location", provider.authorize(query))
                self.send_header("Content-Length", "0")
                self.end_headers()
            else:
                self._json({"error": "not_found"}, 404)

        def do_POST(self) -> None:  # noqa: N802 - the standard library's name
            length = int(self.headers.get("Content-Length") or 0)
            form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
            if urllib.parse.urlsplit(self.path).path != "/token":
                self._json({"error": "not_found"}, 404)
                return
            tokens = provider.token(form, self.headers.get("Authorization", ""))
            self._json(tokens if tokens is not None else {"error": "invalid_grant"}, 200 if tokens else 400)

        def _json(self, body: dict[str, Any], status: int = 200) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
