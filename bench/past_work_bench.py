"""The search of past work (`search_past_work`) at 10,000 workspaces of one user (3 turns each, one a calculation),
beside another user's 2,000: by words alone, and by words and meaning with 768-dimension embeddings (what
nomic-embed-text makes) kept for every turn, the query embedded by the fake Ollama. SQLite, and PostgreSQL where
its binaries are."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access
from app.workspaces.past_work import PastWork
from bench.harness import Result, summarise, timed_ms
from domain.calculations import CalcResult
from domain.records import FinishedTurn, ToolCall
from engine.embeddings import Embedder
from fakes.ollama import FakeOllama
from fakes.postgres import PostgresServer, unavailable
from store import ChatHistoryDB
from tools import ToolContext, run_tool

TURNS_PER_WORKSPACE = 3
OTHERS = 2_000  # another user's workspaces, which the search must never read
DIMENSIONS = 768
EMBED = "nomic-embed-text"
BEAM = {"span": "9 m", "load": "24 kN/m"}
QUERIES = ("transfer beam podium", "girder carrying the deck")


def _calculation() -> ToolCall:
    outcome = run_tool("beam_analysis", BEAM, ToolContext())
    assert isinstance(outcome.calculation, CalcResult)
    return ToolCall(id="call_1", name="beam_analysis", arguments=BEAM, output=outcome.output,
                    calculation=outcome.calculation)  # fmt: skip


def fill(store: ChatHistoryDB, workspaces: int) -> int:
    """`workspaces` of ann's and OTHERS of bob's, each with its turns and every turn's embedding; ann's id."""
    ann = store.add_user("ann", "engineer", "x")
    bob = store.add_user("bob", "engineer", "x")
    call = _calculation()
    with store.unit_of_work():
        for number in range(workspaces + OTHERS):
            owner = ann if number < workspaces else bob
            chat = store.create_chat(f"Job {number}", owner=owner)
            for turn in range(TURNS_PER_WORKSPACE):
                calls = (call,) if turn == 0 else ()
                question = f"Which transfer beam for the podium of job {number}?" if turn == 0 else f"Note {turn}."
                store.store_turn(FinishedTurn(chat_id=chat, user=question, assistant=f"Answer {number}.{turn}.",
                                              tool_calls=calls))  # fmt: skip
    total = (workspaces + OTHERS) * TURNS_PER_WORKSPACE
    vectors = np.random.default_rng(42).standard_normal((total, DIMENSIONS), dtype=np.float32)
    with store.unit_of_work():
        store.save_turn_embeddings(
            EMBED, ((turn_id, vectors[turn_id - 1].tobytes()) for turn_id in range(1, total + 1))
        )
    return ann


def analyse(target: str) -> None:
    """What PostgreSQL's autovacuum does soon after a bulk load (and `db copy` at its end): without statistics,
    its planner loops over the user's workspaces once per turn."""
    if target.startswith("postgresql"):
        import psycopg

        with psycopg.connect(target, autocommit=True) as connection:
            connection.execute("ANALYZE")


def searches(target: str, workspaces: int, runs: int, label: str) -> list[Result]:
    store = ChatHistoryDB(target)
    try:
        ann = store.user_by_id(fill(store, workspaces))
        analyse(target)
        access = Access(store, ann, AuditTrail(store, "ann"))
        with FakeOllama(models=("qwen3:4b", EMBED)) as fake:
            fake.embed_dimensions = DIMENSIONS
            words = PastWork(store, access, None)
            meaning = PastWork(store, access, Embedder(fake.url, EMBED))
            shown = f"{workspaces:,} workspaces, {workspaces * TURNS_PER_WORKSPACE:,} turns ({label})"
            by_words = timed_ms(lambda: words.search(QUERIES[0], 5, leaving_out=1), runs)
            both = timed_ms(lambda: meaning.search(QUERIES[1], 5, leaving_out=1), runs)
    finally:
        store.close()
    return [
        summarise(f"search_past_work by words, {shown}", by_words, "ms", "≤ 500 ms", 500),
        summarise(f"search_past_work by words and meaning, {shown}", both, "ms", "≤ 2 s", 2000),
    ]


def run(quick: bool) -> list[Result]:
    workspaces, runs = (1_000, 3) if quick else (10_000, 15)
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="past-work-bench-") as name:
        results += searches(str(Path(name) / "past.sqlite"), workspaces, runs, "SQLite")
    if unavailable() is None:
        with PostgresServer() as server:
            results += searches(server.new_database(), workspaces, runs, "PostgreSQL")
    return results
