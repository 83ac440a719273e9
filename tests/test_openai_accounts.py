"""The OpenAI-compatible API with AUTH=accounts, on SQLite and on PostgreSQL: each user's API key is their bearer
token, their turns land in their own workspaces, a viewer lists the models but asks nothing, and the audit trail
has it all, as for every other face."""

from __future__ import annotations

from pathlib import Path

import openai
import pytest
from openai.types.chat import ChatCompletionMessageParam

from app import AmbiguousWorkspaceError
from fakes.ollama import FakeOllama, Reply
from store import ChatHistoryDB
from tests.protocol_client import Server, running_server
from tests.test_accounts_server import owner, where

ASK: list[ChatCompletionMessageParam] = [{"role": "user", "content": "Span of the footbridge?"}]


def client(server: Server, key: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"http://127.0.0.1:{server.http_port}/v1", api_key=key, max_retries=0)


def ask(server: Server, key: str, workspace: str | None = None) -> str:
    metadata = {"workspace": workspace} if workspace else None
    answer = client(server, key).chat.completions.create(model="qwen3:4b", messages=ASK, metadata=metadata)
    return answer.choices[0].message.content or ""


def test_users_are_kept_apart_and_a_viewer_only_reads(
    store_target: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    server_owner = owner(store_target, fake_ollama)
    keys = {}
    for name, role in (("ann", "engineer"), ("bob", "engineer"), ("vic", "viewer"), ("ada", "admin")):
        server_owner.accounts.add(name, role, "a long enough password")
        keys[name] = server_owner.accounts.issue_key(name)
    fake_ollama.responder = lambda body: Reply.text("Answered.")
    env = {"AUTH": "accounts", **where(store_target)}
    with running_server(fake_ollama.url, isolated, "--http-port", "0", env=env) as server:
        for name in ("ann", "bob", "ada"):
            ask(server, keys[name])
            ask(server, keys[name], "Footbridge")
        ask(server, keys["ann"], "Footbridge")
        with pytest.raises(AmbiguousWorkspaceError, match="could be any of 3 workspaces"):
            server_owner.sharing.workspace("Footbridge")  # the owner's command sees each user's own
        asked = len(fake_ollama.chat_requests)
        assert [m.id for m in client(server, keys["vic"]).models.list().data] == ["qwen3:4b"], "a viewer may list"
        for workspace in (None, "Footbridge"):
            with pytest.raises(openai.PermissionDeniedError) as refused:
                ask(server, keys["vic"], workspace)
            error = refused.value.response.json()["error"]
            assert (error["type"], error["code"]) == ("permission_error", "forbidden") and "viewer" in error["message"]
        server_owner.accounts.revoke_keys("bob")
        with pytest.raises(openai.AuthenticationError):
            ask(server, keys["bob"])
        with pytest.raises(openai.AuthenticationError):
            client(server, keys["bob"]).models.list()
        assert len(fake_ollama.chat_requests) == asked, "nothing refused reached the model"
    store = ChatHistoryDB(store_target)
    owners = {(chat.chat_name, server_owner.sharing.owner(chat.chat_id).name): store.count_turns(chat.chat_id)
              for chat in store.recent_chats()}  # fmt: skip
    assert owners == {("API", "ann"): 1, ("Footbridge", "ann"): 2, ("API", "bob"): 1, ("Footbridge", "bob"): 1,
                      ("API", "ada"): 1, ("Footbridge", "ada"): 1}, "each user's own, the admin's too"  # fmt: skip
    actions = [(record.user_name, record.action) for record in server_owner.audit.records()]
    assert actions.count(("ann", "ask")) == 3 and actions.count(("vic", "denied")) == 2
    assert actions[-2:] == [("(server)", "key revoked"), ("(server)", "failed sign-in")], "one record a minute"
    assert server_owner.audit.verify().intact
    store.close()
    server_owner.close()


def test_a_workspace_shared_as_editor_is_asked_in_and_one_shared_to_read_is_not(
    store_target: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    server_owner = owner(store_target, fake_ollama)
    keys = {}
    for name in ("ann", "bob", "cy"):
        server_owner.accounts.add(name, "engineer", "a long enough password")
        keys[name] = server_owner.accounts.issue_key(name)
    fake_ollama.responder = lambda body: Reply.text("Answered.")
    env = {"AUTH": "accounts", **where(store_target)}
    with running_server(fake_ollama.url, isolated, "--http-port", "0", env=env) as server:
        ask(server, keys["ann"], "Footbridge")
        bridge = server_owner.sharing.workspace("Footbridge")
        server_owner.sharing.share(bridge.chat_id, "bob", "editor")
        server_owner.sharing.share(bridge.chat_id, "cy", "viewer")
        ask(server, keys["bob"], "Footbridge")
        with pytest.raises(openai.PermissionDeniedError) as refused:
            ask(server, keys["cy"], "Footbridge")
        assert "read only" in refused.value.response.json()["error"]["message"]
    store = ChatHistoryDB(store_target)
    assert [(chat.chat_name, store.count_turns(chat.chat_id)) for chat in store.recent_chats()] == [("Footbridge", 2)]
    store.close()
    server_owner.close()
