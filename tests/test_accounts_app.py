"""Accounts in the application service: who sees, asks, approves and shares what, sign-in, and the audit trail,
on SQLite and on PostgreSQL, through the real service against the fake Ollama (a browser's session and single
sign-on: `test_accounts_sessions.py`)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import aclosing
from pathlib import Path

import pytest

from app import Application, ForbiddenError, SignInError
from app.accounts.throttle import SignInThrottle
from app.accounts.user_turns import UserTurns
from app.application import AccountSettings
from domain.accounts import User
from domain.events import TextDelta, TurnCompleted, WaitingForServer
from domain.packages import Signer
from fakes.ollama import FakeOllama
from fakes.replies import Gate, Reply, chunk, final
from store import ChatHistoryDB
from tests.agent_helpers import completed, make_agent, of_type
from tests.package_helpers import text_of, three_calculations
from tests.stores import write_transactions

PASSWORD = "correct horse battery"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def owner(store_target: str, fake_ollama: FakeOllama, tmp_path: Path) -> Iterator[Application]:
    """The application as the server's owner, with AUTH=accounts, and users ann and bob (engineers), vic (viewer)
    and ada (admin)."""
    settings = AccountSettings("accounts", UserTurns(2))
    service = Application(
        ChatHistoryDB(store_target), make_agent(fake_ollama), accounts=settings, exports_dir=tmp_path / "exports"
    )
    for name, role in (("ann", "engineer"), ("bob", "engineer"), ("vic", "viewer"), ("ada", "admin")):
        service.accounts.add(name, role, PASSWORD, f"{name}@office.example")
    yield service
    service.close()


def completed_turn(text: str) -> TurnCompleted:
    return TurnCompleted(content=text, model="qwen3:4b", stop_reason="end_turn")


def user(owner: Application, name: str) -> Application:
    return owner.for_user(owner.accounts.sign_in(name, PASSWORD, "10.0.0.9"))


def test_another_engineers_workspace_is_missing_in_every_path(owner: Application) -> None:
    ann, bob = user(owner, "ann"), user(owner, "bob")
    secret = ann.workspaces.create("Tender for Smith & Co").chat_id
    ann.turns.record(secret, "fee is 42,000", completed_turn("Noted: the fee."))
    assert [chat.chat_id for chat in bob.workspaces.recent()] == []
    assert bob.workspaces.search("fee") == [] and bob.workspaces.count() == 0
    assert bob.workspaces.get(secret) is None and bob.turns.of(secret) == []
    missing_id = secret + 1000
    for chat_id in (secret, missing_id):  # a guessed id reads exactly as one that does not exist
        with pytest.raises(LookupError) as error:
            bob.workspaces.open(chat_id)
        assert str(error.value) == f"There is no workspace with id {chat_id}."
    with pytest.raises(LookupError, match=f"There is no workspace with id {secret}."):
        bob.reports.markdown(secret)
    with pytest.raises(LookupError):
        bob.sharing.share(secret, "bob", "editor")
    with pytest.raises(LookupError, match="There is no workspace called"):
        bob.workspaces.find("Tender for Smith & Co")
    denied = [r for r in owner.audit.records(user="bob") if r.action == "denied"]
    assert {r.chat_id for r in denied} >= {secret, missing_id}, "a guessed id is recorded as a missing one is"
    assert not any(r.workspace_name for r in denied if r.chat_id == secret), "nor is its name written for bob"
    assert [chat.chat_id for chat in ann.workspaces.recent()] == [secret]
    assert secret in {chat.chat_id for chat in user(owner, "ada").workspaces.recent()}


async def test_a_viewer_reads_what_is_shared_but_asks_approves_and_shares_nothing(owner: Application) -> None:
    ann, vic = user(owner, "ann"), user(owner, "vic")
    chat_id = ann.workspaces.create("Bridge").chat_id
    ann.sharing.share(chat_id, "vic", "viewer")
    assert [chat.chat_id for chat in vic.workspaces.recent()] == [chat_id]
    assert vic.reports.markdown(chat_id).startswith("#")
    with pytest.raises(ForbiddenError, match="Your role is viewer"):
        vic.turns.ask("What is the span?", chat_id)
    with pytest.raises(ForbiddenError):
        vic.approvals.approve(chat_id, 1)
    with pytest.raises(ForbiddenError):
        vic.sharing.share(chat_id, "bob", "viewer")
    with pytest.raises(ForbiddenError):
        vic.workspaces.create("Mine")
    with pytest.raises(ForbiddenError):
        vic.workspaces.delete(chat_id)
    with pytest.raises(ForbiddenError):
        vic.summaries.set(chat_id, "My own summary")
    with pytest.raises(ForbiddenError, match="Only an admin may read the audit trail"):
        ann.audit.records()
    assert user(owner, "ada").audit.records(user="vic")
    actions = [(r.action, r.detail) for r in owner.audit.records(user="vic")]
    assert ("denied", "ask") in actions and ("denied", "share") in actions


def test_an_editor_changes_but_does_not_share_and_a_share_to_nobody_is_refused(owner: Application) -> None:
    ann, bob = user(owner, "ann"), user(owner, "bob")
    chat_id = ann.workspaces.create("Bridge").chat_id
    with pytest.raises(LookupError, match="'nobody' is not a user this workspace can be shared with"):
        ann.sharing.share(chat_id, "nobody", "editor")
    ann.sharing.share(chat_id, "bob", "viewer")
    with pytest.raises(ForbiddenError, match="read only"):
        bob.workspaces.rename(chat_id, "Mine now")
    ann.sharing.share(chat_id, "bob", "editor")
    assert bob.workspaces.rename(chat_id, "Bridge B") == "Bridge B"
    with pytest.raises(ForbiddenError, match="Only the owner"):
        bob.sharing.share(chat_id, "vic", "viewer")
    ann.sharing.unshare(chat_id, "bob")
    assert bob.workspaces.get(chat_id) is None
    ann.sharing.share_with_everyone(chat_id)
    assert bob.workspaces.get(chat_id) is not None
    assert user(owner, "vic").workspaces.get(chat_id) is not None
    assert [(s.user_name, s.role) for s in ann.sharing.shares(chat_id)] == [(None, "viewer")]
    assert ann.sharing.owners() == {chat_id: "ann"}


def failed_sign_in(owner: Application, name: str, password: str, address: str) -> str:
    with pytest.raises(SignInError) as error:
        owner.accounts.sign_in(name, password, address)
    return str(error.value)


def test_wrong_password_and_unknown_user_say_the_same_and_the_guesser_is_slowed(owner: Application) -> None:
    assert {failed_sign_in(owner, n, p, "10.0.0.7") for n, p in (("ann", "wrong"), ("nobody", PASSWORD))} == {
        "The user name or password is wrong."
    }
    for variant in (" ann", "ANN"):  # one name, however it is written (ａｎｎ in full width too)
        assert "password is wrong" in failed_sign_in(owner, variant, "again wrong", "10.0.0.8")
    assert "password is wrong" in failed_sign_in(owner, "ａｎｎ", "again wrong", "10.0.0.8")
    assert "Too many failed sign-ins" in failed_sign_in(owner, "ann", PASSWORD, "10.0.0.8"), "the guesser waits"
    assert owner.accounts.sign_in("ann", PASSWORD, "10.0.0.1").name == "ann", "ann herself, elsewhere, does not"
    for name in ("carl", "dave", "erin"):  # names that are nobody's, from one address
        failed_sign_in(owner, name, "guess", "10.0.0.9")
    assert "Too many failed sign-ins" in failed_sign_in(owner, "fred", "guess", "10.0.0.9")
    assert owner.accounts.sign_in("bob", PASSWORD, "10.0.0.9").name == "bob", "a real user there is not slowed"


def test_the_count_is_the_stores_for_every_process(
    owner: Application, store_target: str, fake_ollama: FakeOllama
) -> None:
    other = Application(ChatHistoryDB(store_target), make_agent(fake_ollama), accounts=AccountSettings("accounts"))
    try:
        for service in (owner, other, owner):  # three failures, in two processes' applications
            failed_sign_in(service, "ann", "wrong", "10.0.0.7")
        assert "Too many failed sign-ins" in failed_sign_in(other, "ann", PASSWORD, "10.0.0.7")
    finally:
        other.close()


def test_attempts_made_at_once_are_counted_before_they_are_checked(owner: Application) -> None:
    results: list[str] = []

    def guess() -> None:
        results.append(failed_sign_in(owner, "bob", "a guess", "10.0.0.66"))

    threads = [threading.Thread(target=guess) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum("password is wrong" in result for result in results) == 3, "three checked, thirteen refused at once"


def test_failed_sign_ins_reach_the_audit_trail_a_minute_at_a_time_without_what_was_typed(owner: Application) -> None:
    for _ in range(40):
        failed_sign_in(owner, "correct horse battery", "correct horse battery", "10.0.0.5")  # a password as a name
    for _ in range(3):
        failed_sign_in(owner, "ann", "wrong", "10.0.0.5")
    failed = [r for r in owner.audit.records() if r.action == "failed sign-in"]
    assert len(failed) == 2, [r.detail for r in failed]
    assert all("correct horse" not in r.detail for r in owner.audit.records()), "what was typed is never kept"
    assert any("for ann" in r.detail for r in failed)


def test_a_key_s_uses_reach_the_audit_trail_a_minute_at_a_time_and_a_request_writes_nothing(
    store_target: str, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    """A protocol request signs in by its key: counted in the process, so it costs no transaction of its own; the
    trail gets the first use and then one record a minute with the count."""
    clock = Clock()
    settings = AccountSettings("accounts", UserTurns(2), throttle=SignInThrottle(clock))
    store = ChatHistoryDB(store_target)
    service = Application(store, make_agent(fake_ollama), accounts=settings, exports_dir=tmp_path / "exports")
    try:
        service.accounts.add("ann", "engineer", PASSWORD)
        key = service.accounts.issue_key("ann")
        writes = write_transactions(store)
        for seconds in (0, 10, 20, 59, 61, 70, 125):
            clock.now = 1000.0 + seconds
            assert service.accounts.sign_in_with_key(key, "10.0.0.9").name == "ann"
        records = [r.detail for r in service.audit.records() if r.action == "sign-in" and "API key" in r.detail]
        assert records == [f"API key {key.split('_')[1]} from 10.0.0.9, {n} request{'s' * (n != 1)}" for n in (1, 4, 2)]
        assert len(writes) == 3, "a write for each record, none for the requests between"
    finally:
        service.close()


def test_the_wait_doubles_and_a_success_clears_it(owner: Application, store_target: str) -> None:
    clock = Clock()
    store = ChatHistoryDB(store_target)
    try:
        throttle = SignInThrottle(clock)
        key = throttle.key("ann", "10.0.0.7", known=True)
        waits = [throttle.reserve(store, key) for _ in range(4)]
        assert waits == [0.0, 0.0, 0.0, 1.0], "three free; the third makes the next wait 1 s"
        clock.now += 1.0
        assert throttle.reserve(store, key) == 0.0 and throttle.reserve(store, key) == 2.0
        clock.now += 2.0
        throttle.succeeded(store, key)
        assert [throttle.reserve(store, key) for _ in range(2)] == [0.0, 0.0]
    finally:
        store.close()


def test_keys_revoked_or_of_a_removed_user_no_longer_sign_in(owner: Application) -> None:
    key = owner.accounts.issue_key("ann")
    assert owner.accounts.sign_in_with_key(key).name == "ann"
    assert owner.accounts.revoke_keys("ann") == 1
    with pytest.raises(SignInError, match="missing, wrong or revoked"):
        owner.accounts.sign_in_with_key(key)
    bobs = owner.accounts.issue_key("bob")
    owner.accounts.remove("bob")
    with pytest.raises(SignInError):
        owner.accounts.sign_in_with_key(bobs)
    with pytest.raises(SignInError):
        owner.accounts.sign_in_with_key(bobs[:-1] + ("A" if bobs[-1] != "A" else "B"))
    assert owner.accounts.sign_in_by_email("ANN@office.example").name == "ann"


def test_passwords_and_keys_appear_nowhere(owner: Application, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    key = owner.accounts.issue_key("ann")
    owner.accounts.set_password("ann", "a brand new password")
    messages = []
    for attempt in (
        lambda: owner.accounts.sign_in("ann", PASSWORD),
        lambda: owner.accounts.sign_in_with_key(key + "x"),
    ):
        with pytest.raises(SignInError) as error:
            attempt()
        messages.append(str(error.value))
    secret = key.split("_", 2)[2]  # eak_<id>_<secret>; the secret itself may hold "_"
    trail = " ".join(record.model_dump_json() for record in owner.audit.records())
    for text in (PASSWORD, "a brand new password", secret, key):
        assert text not in trail and text not in caplog.text and all(text not in m for m in messages)


async def test_a_turn_and_its_tool_calls_are_in_the_chain(owner: Application, fake_ollama: FakeOllama) -> None:
    ann = user(owner, "ann")
    fake_ollama.script(
        Reply.tool_calls(("unit_convert", {"value": 12, "from_unit": "ft", "to_unit": "m"})),
        Reply.text("12 ft is 3.66 m."),
    )
    chat_id = ann.workspaces.create("Units").chat_id
    events = [event async for event in ann.turns.ask("12 ft in m?", chat_id)]
    assert completed(events).content == "12 ft is 3.66 m."
    records = owner.audit.records(chat_id=chat_id)
    assert [r.action for r in records] == ["workspace created", "ask", "tool call"]
    assert records[2].detail.startswith('unit_convert {"from_unit": "ft"') and "result sha256 " in records[2].detail
    assert all(r.user_name == "ann" and r.workspace_name == "Units" for r in records)
    assert owner.audit.verify().intact


async def test_a_users_third_turn_waits_for_one_of_the_first_two(owner: Application, fake_ollama: FakeOllama) -> None:
    gate = Gate()
    held = Reply([chunk(content="Still "), gate, chunk(content="writing."), final("stop", 42, 3)])
    fake_ollama.script(held, held, Reply.text("Third."))
    ann = user(owner, "ann")
    views = [ann.sibling() for _ in range(3)]
    chats = [view.workspaces.create(f"W{n}").chat_id for n, view in enumerate(views)]
    async with (
        aclosing(views[0].turns.ask("one", chats[0])) as first,
        aclosing(views[1].turns.ask("two", chats[1])) as second,
    ):
        assert isinstance(await anext(first), TextDelta) and isinstance(await anext(second), TextDelta)
        async with aclosing(views[2].turns.ask("three", chats[2])) as third:
            waiting = await anext(third)
            assert isinstance(waiting, WaitingForServer) and "MAX_TURNS_PER_USER" in waiting.message
            gate.gate.set()
            assert completed([event async for event in first]).content == "Still writing."
            rest = [event async for event in third]
        assert [event async for event in second]
    assert of_type(rest, WaitingForServer)[-1].position == 0 and completed(rest).content == "Third."


def test_auth_none_checks_nothing_and_keeps_no_trail(store_target: str, fake_ollama: FakeOllama) -> None:
    service = Application(ChatHistoryDB(store_target), make_agent(fake_ollama))
    try:
        chat_id = service.workspaces.create("Mine").chat_id
        assert service.user is None and not service.accounts_on
        assert service.sibling().workspaces.get(chat_id) is not None
        service.memory.add("Use EN 1993")
        assert [memory.text for memory in service.memory.all()] == ["Use EN 1993"]
        assert service.audit.records() == []
    finally:
        service.close()


def test_a_user_is_fixed_when_the_application_is_opened(owner: Application) -> None:
    ann = user(owner, "ann")
    assert isinstance(ann.user, User) and ann.sibling().user == ann.user
    with pytest.raises(AttributeError):
        ann.user = None  # type: ignore[misc]


def test_a_viewer_neither_uploads_nor_removes_documents(owner: Application) -> None:
    vic, ann = user(owner, "vic"), user(owner, "ann")
    with pytest.raises(ForbiddenError, match="Your role is viewer"):
        vic.documents.save_upload("spec.txt", b"Concrete C30/37.")
    stored = ann.documents.save_upload("spec.txt", b"Concrete C30/37.")
    with pytest.raises(ForbiddenError):
        vic.documents.remove("spec.txt")
    assert [(r.user_name, r.action) for r in owner.audit.records() if r.action.startswith("document")] == [
        ("ann", "document uploaded")
    ] and stored


def test_a_role_changed_or_a_user_removed_counts_at_once_in_an_open_application(owner: Application) -> None:
    ann, bob = user(owner, "ann"), user(owner, "bob")
    chat_id = ann.workspaces.create("Bridge").chat_id
    owner.accounts.set_role("ann", "viewer")
    with pytest.raises(ForbiddenError, match="Your role is viewer"):
        ann.workspaces.rename(chat_id, "Still mine?")
    owner.accounts.set_role("bob", "admin")
    assert bob.workspaces.get(chat_id) is not None
    owner.accounts.remove("bob")
    with pytest.raises(SignInError, match="Your account no longer exists"):
        bob.workspaces.recent()


@pytest.mark.parametrize("store_target", ["sqlite"], indirect=True)
async def test_a_package_is_signed_by_the_signed_in_user_and_recorded(
    owner: Application, fake_ollama: FakeOllama
) -> None:
    ann, bob, vic = user(owner, "ann"), user(owner, "bob"), user(owner, "vic")
    chat_id = await three_calculations(ann, fake_ollama)
    ann.sharing.share(chat_id, "bob", "editor")
    ann.sharing.share(chat_id, "vic", "viewer")
    with pytest.raises(ForbiddenError):
        vic.packages.sign_off(chat_id, "checked", Signer(name="vic"))
    said = bob.packages.sign_off(chat_id, "checked", Signer(name="Somebody Else"))
    assert "checked by bob" in said
    assert vic.packages.pdf(chat_id).letter == "A"
    records = [(r.user_name, r.action, r.detail) for r in owner.audit.records(chat_id=chat_id)]
    assert ("bob", "package checked", "revision A checked by bob") in records
    assert ("vic", "package", "revision current as PDF") in records
    owner.accounts.set_display_name("ann", "Ann Smith")
    owner.accounts.set_display_name("bob", "Bob Jones")
    text = text_of(vic.packages.pdf(chat_id).data)
    assert "Prepared by Ann Smith" in text and "Checked by Bob Jones" in text, "the names people go by"


def test_a_file_edit_is_decided_by_the_user_whose_question_proposed_it(owner: Application) -> None:
    ann, bob = user(owner, "ann"), user(owner, "bob")
    chat_id = ann.workspaces.create("Bridge").chat_id
    ann.sharing.share(chat_id, "bob", "editor")
    ann.approvals.propose(chat_id, "notes.txt", None, b"Span 12 m\n")
    (edit,) = bob.approvals.pending(chat_id)
    assert edit.proposed_by == "ann" and not bob.approvals.may_decide(edit) and ann.approvals.may_decide(edit)
    for decide in (bob.approvals.approve, bob.approvals.reject):
        with pytest.raises(ForbiddenError, match="waits for ann: their question proposed it"):
            decide(chat_id, edit.edit_id)
    assert "Rejected" in ann.approvals.reject(chat_id, edit.edit_id)
    assert ("bob", "denied") in [(r.user_name, r.action) for r in owner.audit.records(chat_id=chat_id)]
