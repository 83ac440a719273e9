"""Webhooks: each face's turn, a package's sign-offs and a share told to local receivers that check the signature;
delivered in the background (a receiver that hangs costs a turn nothing), only to the URLs in WEBHOOKS_CONFIG, with
no secret anywhere but that file."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import openai
import pytest

from agent import AIAgent
from app import Application
from app.application import AccountSettings
from app.webhooks import Deliverer, load_webhooks, signature, signature_matches
from app.webhooks.deliverer import FIRST_GAP_SECONDS, JITTER, MAX_GAP_SECONDS, RETRY_FOR_SECONDS, retry_gap
from domain.events import TurnCompleted
from domain.packages import Signer
from fakes.ollama import FakeOllama, Reply, wait_until
from history import ChatHistoryDB
from store import copy_into_new_file, store_files
from tests.cli_helpers import run_cli
from tests.package_helpers import PREPARER, three_calculations
from tests.protocol_client import running_server
from tests.webhook_receiver import Receiver, hooks_file

SECRET = "s3cret-that-only-the-receiver-knows"
TURNS = ["turn.completed"]
KEYS = {"event", "id", "created", "workspace", "user", "data"}


def application(folder: Path, fake: FakeOllama, config: Path, accounts: str = "none") -> Application:
    store = ChatHistoryDB(folder / "chat_history.sqlite")
    agent = AIAgent("qwen3:4b", fake.url, "system")
    return Application(store, agent, engineer=PREPARER, accounts=AccountSettings(accounts),
                       webhooks=Deliverer(store, load_webhooks(config)))  # fmt: skip


async def ask(app: Application, question: str, chat_id: int | None = None) -> TurnCompleted:
    events = [event async for event in app.turns.ask(question, chat_id)]
    assert isinstance(events[-1], TurnCompleted)
    return events[-1]


def test_the_signature_is_the_one_github_documents() -> None:
    expected = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
    assert signature("It's a Secret to Everybody", b"Hello, World!") == expected
    assert signature_matches("It's a Secret to Everybody", b"Hello, World!", expected)
    assert not signature_matches("It's a Secret to Everybody", b"Hello, World?", expected)


def test_a_failed_delivery_is_retried_after_1_2_4_s_with_jitter_and_for_long_enough() -> None:
    rng = random.Random(41)
    for attempts in range(1, 16):
        base = FIRST_GAP_SECONDS * 2 ** (attempts - 1)
        gaps = [retry_gap(attempts, rng) for _ in range(200)]
        if base < MAX_GAP_SECONDS:
            assert base * (1 - JITTER) <= min(gaps) and max(gaps) <= base * (1 + JITTER), attempts
            assert max(gaps) - min(gaps) > base * JITTER, "jittered, not fixed"
        else:
            assert 300 <= min(gaps) and max(gaps) <= MAX_GAP_SECONDS * (1 + JITTER), "capped, never under 5 minutes"
    assert [round(retry_gap(n, random.Random(0)) / 2 ** (n - 1)) for n in (1, 2, 3)] == [1, 1, 1]
    assert RETRY_FOR_SECONDS >= 600


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("url: http://127.0.0.1:9/hook\n", "a list of {url, events, secret}"),
        ("- url: http://127.0.0.1:9/hook\n  events: [turn.finished]\n  secret: S3CRET-X\n", "0.events.0"),
        ("- url: http://127.0.0.1:9/hook\n  events: [turn.completed]\n", "0.secret: Field required"),
        ("- url: ftp://127.0.0.1/hook\n  events: [turn.completed]\n  secret: S3CRET-X\n", "http:// or https://"),
        ("- {url: 'http://h/a', events: [turn.completed], secret: S3CRET-X}\n"
         "- {url: 'http://h/a', events: [package.approved], secret: S3CRET-X}\n", "1.url: a URL is named once"),
        ("- url: [unclosed\n  secret: S3CRET-X\n", "not valid YAML"),
        ("- !!python/object/apply:os.system ['echo S3CRET-X']\n", "not valid YAML"),
    ],
)  # fmt: skip
def test_a_bad_webhooks_file_stops_start_up_in_one_sentence_without_its_secret(
    isolated: Path, text: str, said: str
) -> None:
    (isolated / "webhooks.yaml").write_text(text)
    done = run_cli("webhooks", env={"WEBHOOKS_CONFIG": "webhooks.yaml"})
    assert done.returncode == 2 and "WEBHOOKS_CONFIG webhooks.yaml" in done.stderr and said in done.stderr, done
    assert "S3CRET" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_each_face_s_turn_is_told_signed_and_listed(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.responder = lambda body: Reply.text("Answered.")
    with Receiver(SECRET) as receiver:
        env = {"WEBHOOKS_CONFIG": str(hooks_file(isolated, (receiver.url, TURNS, SECRET))), "EMBED_MODEL": ""}
        with running_server(fake_ollama.url, isolated, "--http-port", "0", env=env) as server:
            protocol = server.connect()
            protocol.request({"id": "r1", "type": "dispatch", "agentID": "assistant", "content": "From the protocol"})
            api = openai.OpenAI(base_url=f"http://127.0.0.1:{server.http_port}/v1", api_key="none")
            api.chat.completions.create(model="qwen3:4b", messages=[{"role": "user", "content": "From the API"}])
            once = run_cli("--once", "From the CLI", "--server", fake_ollama.url, env=env)
            assert once.returncode == 0, once.stderr
            assert receiver.wait_for(lambda seen: len(seen) == 3)
            protocol.close()
        listing = run_cli("webhooks", env=env)
    events = {item.event["data"]["question"]: item for item in receiver.seen()}
    assert sorted(events) == ["From the API", "From the CLI", "From the protocol"]
    for item in events.values():
        body = item.event
        assert item.signed and item.answered == 200 and set(body) == KEYS and body["event"] == "turn.completed"
        assert item.headers["content-type"] == "application/json" and item.headers["x-webhook-id"] == body["id"]
        assert set(body["workspace"]) == {"id", "name"} and body["user"] is None and isinstance(body["created"], int)
        assert body["data"]["answer"] == "Answered." and body["data"]["status"] == "complete"
    assert len({item.event["id"] for item in events.values()}) == 3
    assert listing.returncode == 0 and SECRET not in listing.stdout
    lines = listing.stdout.splitlines()
    assert len(lines) == 3 and all(f"turn.completed  {receiver.url}  attempts 1  last 200  delivered" in line
                                   for line in lines), listing.stdout  # fmt: skip


def test_the_web_app_s_turn_is_told(app: object, fake_ollama: FakeOllama, isolated: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from streamlit.testing.v1 import AppTest

    assert isinstance(app, AppTest)
    fake_ollama.responder = lambda body: Reply.text("Answered on the page.")
    with Receiver(SECRET) as receiver:
        monkeypatch.setenv("WEBHOOKS_CONFIG", str(hooks_file(isolated, (receiver.url, TURNS, SECRET))))
        app.run()
        app.chat_input(key="question").set_value("From the page").run()
        assert receiver.wait_for(lambda seen: len(seen) == 1)
        app.session_state["service"].webhooks.close()
    (item,) = receiver.seen()
    assert item.signed and item.event["data"]["question"] == "From the page"


def test_sign_offs_and_shares_go_to_the_hooks_that_want_them(fake_ollama: FakeOllama, isolated: Path) -> None:
    with Receiver(SECRET) as packages, Receiver("another secret") as turns:
        config = hooks_file(isolated, (packages.url, ["package.checked", "package.approved", "workspace.shared"],
                                       SECRET), (turns.url, TURNS, "another secret"))  # fmt: skip
        app = application(isolated, fake_ollama, config)
        chat_id = asyncio.run(three_calculations(app, fake_ollama))
        app.packages.sign_off(chat_id, "checked", Signer(name="Bea Checker"))
        app.packages.sign_off(chat_id, "approved", Signer(name="Cy Approver"), note="For construction")
        app.close()  # a command that exits at once delivers first
        owner = Application(ChatHistoryDB(isolated / "chat_history.sqlite"), AIAgent("qwen3:4b", fake_ollama.url, "s"),
                            accounts=AccountSettings("accounts"))  # fmt: skip
        owner.accounts.add("bob", "engineer", "a long enough password")
        owner.close()
        env = {"WEBHOOKS_CONFIG": str(config), "AUTH": "accounts"}
        for command in (("Level 3 framing", "bob", "--as", "editor"), ("Level 3 framing", "--everyone")):
            shared = run_cli("share", *command, env=env)
            assert shared.returncode == 0, shared.stderr
        assert packages.wait_for(lambda seen: len(seen) == 4)
    assert [item.event["event"] for item in turns.seen()] == ["turn.completed"] * 3
    checked, approved, shared_with_bob, shared_with_all = (item.event for item in packages.seen())
    assert all(item.signed for item in packages.seen() + turns.seen())
    assert (checked["event"], checked["data"]["revision"], checked["data"]["signer"]) == (
        "package.checked", "A", "Bea Checker")  # fmt: skip
    assert (approved["event"], approved["data"]["signer"], approved["data"]["note"]) == (
        "package.approved", "Cy Approver", "For construction")  # fmt: skip
    assert len(approved["data"]["sha256"]) == 64 and approved["workspace"] == {"id": chat_id, "name": "Level 3 framing"}
    assert shared_with_bob["data"] == {"with": "bob", "everyone": False, "as": "editor"}
    assert shared_with_all["data"] == {"with": None, "everyone": True, "as": "viewer"}
    assert shared_with_bob["user"] is None, "the server's own command acts for nobody"


def shared_workspace(folder: Path, fake: FakeOllama) -> None:
    """A workspace and a user to share it with, made by the server's owner."""
    owner = Application(ChatHistoryDB(folder / "chat_history.sqlite"), AIAgent("qwen3:4b", fake.url, "s"),
                        accounts=AccountSettings("accounts"))  # fmt: skip
    owner.accounts.add("bob", "engineer", "a long enough password")
    owner.workspaces.create("Level 3 framing")
    owner.close()


def test_a_command_that_exits_at_once_tries_its_delivery_first(fake_ollama: FakeOllama, isolated: Path) -> None:
    shared_workspace(isolated, fake_ollama)
    with Receiver(SECRET, answers=(503, 200)) as receiver:
        env = {"WEBHOOKS_CONFIG": str(hooks_file(isolated, (receiver.url, ["workspace.shared"], SECRET))),
               "AUTH": "accounts"}  # fmt: skip
        shared = run_cli("share", "Level 3 framing", "bob", "--as", "viewer", env=env)
        assert shared.returncode == 0, shared.stderr
        assert [item.answered for item in receiver.seen()] == [503, 200], "retried before the command ended"
    assert "attempts 2  last 200  delivered" in run_cli("webhooks", env=env).stdout


def test_a_command_leaves_its_delivery_to_a_serving_process(fake_ollama: FakeOllama, isolated: Path) -> None:
    shared_workspace(isolated, fake_ollama)
    receiver = Receiver(SECRET)  # not listening yet
    env = {"WEBHOOKS_CONFIG": str(hooks_file(isolated, (receiver.url, ["workspace.shared"], SECRET))),
           "AUTH": "accounts"}  # fmt: skip
    with running_server(fake_ollama.url, isolated, env=env):
        shared = run_cli("share", "Level 3 framing", "bob", "--as", "editor", env=env, timeout=20)
        assert shared.returncode == 0 and receiver.seen() == [], "it did not wait the 30 s for the receiver"
        with receiver:
            assert receiver.wait_for(lambda seen: [item.answered for item in seen] == [200], timeout=60)
    assert receiver.seen()[0].event["data"] == {"with": "bob", "everyone": False, "as": "editor"}


def test_a_receiver_that_hangs_costs_a_turn_nothing(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.responder = lambda body: Reply.text("Answered.")
    with Receiver(SECRET, hang=True) as receiver:
        app = application(isolated, fake_ollama, hooks_file(isolated, (receiver.url, TURNS, SECRET)))
        app.webhooks.keep_delivering()
        first = asyncio.run(ask(app, "First"))
        assert receiver.wait_for(lambda seen: len(seen) == 1), "the first delivery is in the receiver's hands"
        second = asyncio.run(ask(app, "Second", app.workspaces.current_id))
        in_flight = app.webhooks.deliveries()[-1]  # the oldest: its attempt has not ended, yet the turn has
        assert (in_flight.attempts, in_flight.last_status) == (0, None) and receiver.seen()[0].answered == 0
    app.close()
    assert first.turn_id is not None and second.turn_id is not None and second.stop_reason == "end_turn"


def test_nothing_but_the_hook_s_own_url_is_contacted(
    fake_ollama: FakeOllama, isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_ollama.responder = lambda body: Reply.text("Answered.")
    with Receiver(SECRET) as elsewhere, Receiver(SECRET, answers=(302,), location=elsewhere.url) as receiver:
        for proxy in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "ALL_PROXY"):
            monkeypatch.setenv(proxy, f"http://127.0.0.1:{elsewhere.port}")
        app = application(isolated, fake_ollama, hooks_file(isolated, (receiver.url, TURNS, SECRET)))
        app.webhooks.keep_delivering()
        asyncio.run(ask(app, "Where does it go?"))
        assert receiver.wait_for(lambda seen: len(seen) == 1)
        assert wait_until(lambda: app.webhooks.deliveries()[0].attempts == 1)
        (delivery,) = app.webhooks.deliveries()
        app.close()
    told = [item for item in elsewhere.seen() if "x-webhook-id" in item.headers]
    assert told == [], "no redirect followed, no proxy from the environment used"
    assert (delivery.last_status, delivery.state) == ("302", "pending")


def test_no_secret_in_the_log_the_store_or_the_listing(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.responder = lambda body: Reply.text("Answered.")
    with Receiver(SECRET, answers=(503, 200)) as receiver:
        config = hooks_file(isolated, (receiver.url, TURNS, SECRET))
        env = {"WEBHOOKS_CONFIG": str(config), "LOG_LEVEL": "DEBUG", "LOG_FILE": "app.log"}
        with running_server(fake_ollama.url, isolated, env=env) as server:
            server.connect().request({"id": "r", "type": "dispatch", "agentID": "assistant", "content": "Hi"})
            assert receiver.wait_for(lambda seen: [item.answered for item in seen] == [503, 200])
        listing = run_cli("webhooks", env=env)
    assert "attempts 2  last 200  delivered" in listing.stdout
    stored = b"".join(part.read_bytes() for part in store_files(isolated / "chat_history.sqlite") if part.exists())
    log = (isolated / "app.log").read_text()
    assert "503" in log and receiver.url in log, "the failed attempt is logged"
    assert SECRET not in log and SECRET not in listing.stdout + listing.stderr and SECRET.encode() not in stored


def test_a_copy_of_the_store_sends_nothing_again(fake_ollama: FakeOllama, isolated: Path) -> None:
    store = ChatHistoryDB(isolated / "chat_history.sqlite")
    store.add_webhook_delivery("evt_1", "turn.completed", "http://127.0.0.1:9/hook", b"{}")
    copy_into_new_file(store, isolated / "copy.sqlite")
    store.close()
    copy = ChatHistoryDB(isolated / "copy.sqlite")
    assert copy.webhook_deliveries() == [], "deliveries are the store's own, not copied"
    copy.close()
