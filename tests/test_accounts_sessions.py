"""A browser's session with accounts on: resumed until it expires, a sign-out or a change to the user ends it; and
single sign-on, which makes a user of an office account. On SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import Application, SignInError
from app.accounts.users import OfficeSignOn
from app.application import AccountSettings
from fakes.ollama import FakeOllama
from store import ChatHistoryDB
from tests.agent_helpers import make_agent
from tests.test_accounts_app import PASSWORD, Clock, owner  # noqa: F401 - the fixture


def test_a_session_resumes_until_it_expires_or_is_ended(owner: Application) -> None:  # noqa: F811
    ann = owner.accounts.sign_in("ann", PASSWORD, "10.0.0.9")
    token = owner.accounts.start_session(ann)
    assert token.startswith("ess_") and owner.accounts.resume(token) == ann
    other = owner.accounts.start_session(ann)
    owner.accounts.end_session(other)  # a sign-out ends that browser's session only
    with pytest.raises(SignInError, match="You were signed out"):
        owner.accounts.resume(other)
    assert owner.accounts.resume(token) == ann
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    for bad in (forged, "ess_1_short", "eak_1_" + "x" * 40, ""):
        with pytest.raises(SignInError):
            owner.accounts.resume(bad)


@pytest.mark.parametrize("change", ["password", "role", "removal"])
def test_a_password_or_role_change_or_a_removal_ends_every_session(
    owner: Application,  # noqa: F811
    change: str,
) -> None:
    tokens = [owner.accounts.start_session(owner.accounts.user("bob")) for _ in range(2)]
    kept = owner.accounts.start_session(owner.accounts.user("ann"))
    if change == "password":
        owner.accounts.set_password("bob", "another long password")
    elif change == "role":
        owner.accounts.set_role("bob", "viewer")
    else:
        owner.accounts.remove("bob")
    for token in tokens:
        with pytest.raises(SignInError):
            owner.accounts.resume(token)
    assert owner.accounts.resume(kept).name == "ann", "another user's session is untouched"


def test_a_session_expires_after_session_hours(store_target: str, fake_ollama: FakeOllama, tmp_path: Path) -> None:
    clock = Clock()
    service = Application(
        ChatHistoryDB(store_target), make_agent(fake_ollama), accounts=AccountSettings("accounts", session_hours=12)
    )
    try:
        service.accounts.add("ann", "engineer", PASSWORD)
        accounts = service.accounts
        accounts._clock = clock  # noqa: SLF001 - the session's clock, moved on
        token = accounts.start_session(accounts.user("ann"))
        clock.now += 12 * 3600 - 1
        assert accounts.resume(token).name == "ann"
        clock.now += 2
        with pytest.raises(SignInError, match="expired"):
            accounts.resume(token)
    finally:
        service.close()


def test_single_sign_on_makes_a_user_from_an_allowed_domain_with_the_claims_role(
    store_target: str, fake_ollama: FakeOllama
) -> None:
    office = OfficeSignOn.of("office.example, @branch.example", "roles")
    service = Application(
        ChatHistoryDB(store_target), make_agent(fake_ollama), accounts=AccountSettings("accounts", office=office)
    )
    try:
        service.accounts.add("carol", "engineer", PASSWORD)  # the name the first one would take is taken
        made = service.accounts.sign_in_by_email("Carol@Office.example", {"roles": ["Viewer"], "name": "Carol V"})
        assert (made.name, made.role, made.display_name) == ("Carol-2", "viewer", "Carol V")
        assert service.accounts.sign_in_by_email("carol@office.example") == made, "the same user the next time"
        plain = service.accounts.sign_in_by_email("dan@branch.example", {})
        assert plain.role == "engineer", "no role claimed: engineer"
        with pytest.raises(SignInError, match="No user here has that e-mail"):
            service.accounts.sign_in_by_email("eve@elsewhere.example", {"roles": "admin"})
        with pytest.raises(SignInError):
            service.accounts.sign_in("Carol-2", "")  # made without a password: only the office account signs in
        added = [r.detail for r in service.audit.records() if r.action == "user added"]
        assert any("Carol-2 as viewer, by single sign-on as Carol@Office.example" in d for d in added)
    finally:
        service.close()
