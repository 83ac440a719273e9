"""`search_past_work` on SQLite and PostgreSQL, with accounts, through the application against the fake Ollama (its
`/api/embed` makes paraphrases meet): a calculation in another workspace of the user is found by words and by a
paraphrase, with its workspace's name and its results' values and units; the workspace the user is in is left out;
another user's workspace is never read, even when its words match better; a search that finds nothing says so; a
question that asks for earlier work is offered the tool, and the model's call reaches the search."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from app import Application
from app.application import AccountSettings
from domain.events import TurnCompleted
from domain.records import ToolCall
from engine.tool_selection import offered_tools
from fakes.ollama import FakeOllama, Reply
from store import ChatHistoryDB
from tests.agent_helpers import make_agent
from tools import ToolContext, run_tool, tool_specs

PASSWORD = "a long enough password"
EMBED = "nomic-embed-text"
BEAM = {"span": "9 m", "load": "24 kN/m", "elastic_modulus": "200 GPa", "moment_of_inertia": "1.27e9 mm**4"}


@pytest.fixture
def embedding_ollama() -> Iterator[FakeOllama]:
    with FakeOllama(models=("qwen3:4b", EMBED)) as fake:
        fake.embed_dimensions = 256  # fewer collisions of unrelated words than the default 64
        fake.synonyms = {"girder": "beam", "girders": "beam", "carrying": "transfer", "deck": "podium"}
        yield fake


@pytest.fixture
def office(store_target: str, embedding_ollama: FakeOllama) -> Iterator[Application]:
    root = Application(
        ChatHistoryDB(store_target),
        make_agent(embedding_ollama),
        embed_model=EMBED,
        accounts=AccountSettings("accounts"),
    )
    for name in ("ann", "bob"):
        root.accounts.add(name, "engineer", PASSWORD)
    yield root
    root.close()


def user(root: Application, name: str) -> Application:
    return root.for_user(root.accounts.sign_in(name, PASSWORD))


def calculation_turn(answer: str) -> TurnCompleted:
    outcome = run_tool("beam_analysis", BEAM, ToolContext())
    assert outcome.calculation is not None, outcome.output
    call = ToolCall(id="call_1", name="beam_analysis", arguments=BEAM, output=outcome.output,
                    calculation=outcome.calculation)  # fmt: skip
    return TurnCompleted(content=answer, tool_calls=[call], model="qwen3:4b", stop_reason="end_turn")


def answered(text: str) -> TurnCompleted:
    return TurnCompleted(content=text, model="qwen3:4b", stop_reason="end_turn")


@pytest.fixture
def work(office: Application) -> dict[str, Any]:
    """Ann's Riverside job (a transfer beam, calculated) and her Harbour job (where she is now); Bob's tower, whose
    words match the search better than Ann's own."""
    ann, bob = user(office, "ann"), user(office, "bob")
    riverside = ann.workspaces.create("Riverside").chat_id
    ann.turns.record(riverside, "Which transfer beam for the podium?", calculation_turn("A W24x68 transfer beam."))
    ann.turns.record(riverside, "Stair balustrade height?", answered("1100 mm on the stair."))
    harbour = ann.workspaces.create("Harbour").chat_id
    ann.turns.record(harbour, "Transfer beam at the harbour podium?", answered("Not decided yet."))
    tower = bob.workspaces.create("Bob's tower").chat_id
    bob.turns.record(tower, "Transfer beam, transfer beam, transfer beam for the podium", answered("Bob's secret fee."))
    return {"ann": ann, "bob": bob, "riverside": riverside, "harbour": harbour, "tower": tower}


def test_a_calculation_of_another_workspace_is_found_by_words_with_its_values(work: dict[str, Any]) -> None:
    found = work["ann"].past_work.search("transfer beam", 5, leaving_out=work["harbour"])
    results = found["results"]
    assert [result["workspace"] for result in results] == ["Riverside"], "neither Harbour (open) nor Bob's tower"
    first = results[0]
    assert set(first) == {"workspace", "date", "question", "excerpt", "calculations"}
    assert first["question"] == "Which transfer beam for the podium?" and "W24x68" in first["excerpt"]
    assert len(first["date"]) == 10
    (calculation,) = first["calculations"]
    assert calculation["tool"] == "beam_analysis"
    assert calculation["results"]["max_moment"] == "243 kN·m"
    assert "Bob" not in json.dumps(found)


def test_a_paraphrase_finds_it_by_meaning(work: dict[str, Any]) -> None:
    found = work["ann"].past_work.search("girder carrying the deck", 5, leaving_out=work["harbour"])  # no word shared
    assert [result["workspace"] for result in found["results"]][:1] == ["Riverside"]
    assert found["results"][0]["question"] == "Which transfer beam for the podium?"
    assert all(result["workspace"] != "Bob's tower" for result in found["results"])


def test_another_users_workspace_is_never_read_and_nothing_found_is_said(work: dict[str, Any]) -> None:
    secret = work["ann"].past_work.search("secret fee", 5, leaving_out=work["harbour"])
    assert secret["results"] == []
    assert secret["message"].startswith("Nothing in your other workspaces matches 'secret fee'")
    bob = work["bob"].past_work.search("transfer beam podium", 5, leaving_out=work["tower"])
    assert bob["results"] == [] and "message" in bob, "Bob sees none of Ann's work"


async def test_shared_work_is_found_and_the_model_s_call_searches_from_the_workspace(
    work: dict[str, Any], embedding_ollama: FakeOllama
) -> None:
    ann, bob = work["ann"], work["bob"]
    ann.sharing.share(work["riverside"], "bob", "viewer")
    embedding_ollama.script(
        Reply.tool_calls(("search_past_work", {"query": "transfer beam"})), Reply.text("Riverside used a W24x68.")
    )
    events = [event async for event in bob.turns.ask("What did we use last time?", work["tower"])]
    assert isinstance(events[-1], TurnCompleted)
    (call,) = events[-1].tool_calls
    found = json.loads(call.output)
    assert [result["workspace"] for result in found["results"]] == ["Riverside"], "shared with him; his own left out"
    offered = {tool["function"]["name"] for tool in embedding_ollama.chat_requests[0]["tools"]}
    assert "search_past_work" in offered


def test_questions_that_ask_for_earlier_work_are_offered_the_tool() -> None:
    everything = list(tool_specs)
    for question in (
        "What did we use for the transfer beam on the Riverside job?",
        "What load did we take last time for a plant room?",
        "Search past work for the podium transfer girder",
        "Which bolts did we specify previously on the Harbour job?",
    ):
        assert "search_past_work" in offered_tools(question, everything), question


def test_the_web_page_cites_each_result_s_workspace_with_a_link_to_it(
    app: Any, fake_ollama: FakeOllama, isolated: Any
) -> None:
    store = ChatHistoryDB(isolated / "chat_history.sqlite")
    riverside = store.create_chat("Riverside")
    store.add_to_history(riverside, "Which transfer beam for the podium?", "A W24x68 transfer beam.")
    store.create_chat("Harbour")  # the newest: the page opens it, and the question is asked there
    store.close()
    fake_ollama.script(
        Reply.tool_calls(("search_past_work", {"query": "transfer beam"})), Reply.text("Riverside used a W24x68.")
    )
    app.run()
    at = app.chat_input(key="question").set_value("What did we use on the Riverside job?").run()
    assert not at.exception
    shown = [element.value for element in at.markdown]
    assert any(f"[Riverside](?chat={riverside})" in text for text in shown), shown
