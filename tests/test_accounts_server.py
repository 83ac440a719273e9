"""The protocol server with AUTH=accounts, over real sockets, with two users' keys (and a viewer's), on SQLite and
on PostgreSQL: each request's token is its user's API key."""

from __future__ import annotations

from pathlib import Path

from app import Application
from app.application import AccountSettings
from fakes.ollama import FakeOllama, Reply
from store import ChatHistoryDB, is_postgres_url
from tests.agent_helpers import make_agent
from tests.cli_helpers import run_cli
from tests.protocol_client import running_server

ASK = {"type": "dispatch", "agentID": "assistant"}


def where(target: str) -> dict[str, str]:
    return {"DATABASE_URL": target} if is_postgres_url(target) else {"CHAT_HISTORY_DB_PATH": target}


def owner(target: str, fake: FakeOllama) -> Application:
    return Application(ChatHistoryDB(target), make_agent(fake), accounts=AccountSettings("accounts"))


def test_each_key_sees_its_own_and_what_is_shared(store_target: str, fake_ollama: FakeOllama, isolated: Path) -> None:
    server_owner = owner(store_target, fake_ollama)
    keys = {}
    for name, role in (("ann", "engineer"), ("bob", "engineer"), ("vic", "viewer"), ("gone", "engineer")):
        server_owner.accounts.add(name, role, "a long enough password")
        keys[name] = server_owner.accounts.issue_key(name)
    fake_ollama.script(Reply.text("Ann's answer."))
    env = {"AUTH": "accounts", **where(store_target)}
    with running_server(fake_ollama.url, isolated, env=env) as server:
        client = server.connect()
        done = client.request({**ASK, "id": "a1", "content": "Span of the footbridge?", "token": keys["ann"]})
        assert done[-1]["type"] == "turn-completed" and done[-1]["content"] == "Ann's answer.", done
        session = done[-1]["sessionID"]
        mine = client.request({"id": "l1", "type": "list-sessions", "token": keys["ann"]})[0]["sessions"]
        assert [entry["sessionID"] for entry in mine] == [session]
        assert client.request({"id": "l2", "type": "list-sessions", "token": keys["bob"]})[0]["sessions"] == []
        guessed = client.request({"id": "g1", "type": "get-session", "sessionID": session, "token": keys["bob"]})
        missing = client.request({"id": "g2", "type": "get-session", "sessionID": "999999", "token": keys["bob"]})
        assert guessed[0]["code"] == missing[0]["code"] == "SESSION_NOT_FOUND"
        assert guessed[0]["message"] == f"there is no session {session}"
        for kind in ({**ASK, "content": "Mine now"}, {"type": "delete-session"}):
            refused = client.request({**kind, "id": "b", "sessionID": session, "token": keys["bob"]})
            assert refused[0]["code"] == "SESSION_NOT_FOUND", refused
        server_owner.sharing.share(int(session), "vic", "viewer")
        shared = client.request({"id": "l3", "type": "list-sessions", "token": keys["vic"]})[0]["sessions"]
        assert [entry["sessionID"] for entry in shared] == [session]
        read = client.request({"id": "v1", "type": "get-session", "sessionID": session, "token": keys["vic"]})
        assert read[0]["type"] == "session" and read[0]["turns"][0]["response"]["content"] == "Ann's answer."
        for kind in ({**ASK, "content": "May I?"}, {"type": "delete-session"}):
            refused = client.request({**kind, "id": "v2", "sessionID": session, "token": keys["vic"]})
            assert refused[0]["code"] == "FORBIDDEN" and "viewer" in refused[0]["message"], refused
        new = client.request({**ASK, "id": "v3", "content": "A new one?", "token": keys["vic"]})
        assert new[0]["code"] == "FORBIDDEN"
        server_owner.accounts.revoke_keys("bob")
        server_owner.accounts.remove("gone")
        wrong = keys["ann"][:-1] + ("A" if keys["ann"][-1] != "A" else "B")  # ann's key with its last letter changed
        for token in (keys["bob"], keys["gone"], None, wrong):
            body = {"id": "u", "type": "list-sessions", **({"token": token} if token else {})}
            refused = client.request(body)
            assert refused[0]["code"] == "UNAUTHORIZED" and (token is None or token not in refused[0]["message"])
        client.close()
    actions = [(record.user_name, record.action) for record in server_owner.audit.records()]
    assert ("ann", "ask") in actions and ("bob", "denied") in actions and ("vic", "denied") in actions
    assert server_owner.audit.verify().intact
    server_owner.close()


def test_with_accounts_a_shared_token_is_refused(isolated: Path) -> None:
    done = run_cli("serve", "--port", "0", "--token", "t", env={"AUTH": "accounts", "EMBED_MODEL": ""})
    assert done.returncode == 2 and "leave out --token" in done.stderr
