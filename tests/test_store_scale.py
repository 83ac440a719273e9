"""The store's search on real SQLite files and PostgreSQL databases of a few thousand turns.

Search asks each workspace for its newest match once the newest matches overall
run past a bound; these tests hold it to the results of the plain, whole-list way
(the documents, built a batch of turns at a time, are held to theirs in `test_store_documents.py`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from history import ChatHistoryDB
from store import SqliteHistoryDB
from store.search import NEWEST_MATCHES


def girder_store(store: ChatHistoryDB) -> dict[str, int]:
    """30 workspaces, 21 of them mention girders: one in 1,500 turns, the most active one only long ago."""
    ids = {"early": store.create_chat("Early mention")}
    store.add_to_history(ids["early"], "Is the Girder G1 deep enough?", "Yes: 900 mm for an 18 m span.")
    for i in range(27):
        if i == 6:
            ids["tower"] = store.create_chat("Tower")
            for case in range(1_500):
                question = f"Load case {case} on girder G2?"
                store.add_to_history(ids["tower"], question, '{"raw": "tool output"}\nGirders carry it.')
        ids[f"p{i}"] = store.create_chat(f"Project {i}")
        text = "the girders span 12 m" if i % 3 else "the slab spans 6 m"
        store.add_to_history(ids[f"p{i}"], f"Question {i}", f"In project {i}, {text}.")
    ids["named"] = store.create_chat("Girder schedule")  # no turns: found by its name
    store.add_to_history(ids["early"], "And the footing?", "A 2 m pad.")  # now the most active
    return ids


def with_word(store: ChatHistoryDB, word: str) -> list[int]:
    """Workspaces whose name or turns contain `word`, most recently active first: the plain way."""
    found = []
    for chat_id, name, _ in store.list_chats():
        texts = [name] + [u + " " + a for u, a in store.load_history(chat_id)]
        if any(word in text.lower() for text in texts):
            found.append(chat_id)
    return found


@pytest.mark.parametrize("word", ["girder", "GIRD", "gi"])
def test_a_common_word_finds_the_most_active_workspaces_with_readable_snippets(store: ChatHistoryDB, word: str) -> None:
    ids = girder_store(store)
    assert store.count_turns(ids["tower"]) > 2 * NEWEST_MATCHES, "more matches than are read newest first"
    hits = store.search_chats(word)
    expected = with_word(store, "gi" if word == "gi" else "gird")[:20]
    assert [hit.chat_id for hit in hits] == expected
    assert len(hits) == 20 and hits[0].chat_id == ids["early"], "active now, its only match long ago"
    assert hits[0].snippet == "Is the Girder G1 deep enough?", "its best (and only) matching message"
    assert ids["named"] in expected and next(h for h in hits if h.chat_id == ids["named"]).snippet is None
    for hit in hits:
        if hit.chat_id != ids["named"]:
            assert hit.snippet is not None and "gird" in hit.snippet.lower(), hit
            assert "\n" not in hit.snippet and "{" not in hit.snippet, hit.snippet
    tower = next(hit for hit in hits if hit.chat_id == ids["tower"])
    assert tower.snippet == "Load case 1499 on girder G2?", "from the newest matching message"


def test_a_match_hidden_behind_two_long_workspaces_is_still_found(store: ChatHistoryDB) -> None:
    early = store.create_chat("Early mention")
    store.add_to_history(early, "Girder depth?", "900 mm.")
    older, newer = store.create_chat("Older tower"), store.create_chat("Newer tower")
    for chat_id in (older, newer):
        for case in range(NEWEST_MATCHES + 100):
            store.add_to_history(chat_id, f"Case {case} on girder G{chat_id}?", "Fine.")
    store.add_to_history(early, "Footing?", "2 m pad.")
    store.add_to_history(older, "Anything else?", "No.")
    hits = store.search_chats("girder")
    assert [hit.chat_id for hit in hits] == [older, early, newer]
    assert [hit.snippet for hit in hits] == [
        f"Case {NEWEST_MATCHES + 99} on girder G{older}?",
        "Girder depth?",
        f"Case {NEWEST_MATCHES + 99} on girder G{newer}?",
    ]


def test_words_match_together_within_one_turn_and_absent_words_find_nothing(store: ChatHistoryDB) -> None:
    ids = girder_store(store)
    assert [hit.chat_id for hit in store.search_chats("girder 1499")] == [ids["tower"]]
    assert [hit.chat_id for hit in store.search_chats("load case 14")] == [ids["tower"]]
    assert store.search_chats("zebra") == []
    assert [hit.chat_id for hit in store.search_chats("schedule")] == [ids["named"]]


def test_symbols_only_are_found_literally_with_the_text_around_them(store: ChatHistoryDB) -> None:
    chat = store.create_chat("w")
    store.create_chat("other")
    store.add_to_history(chat, "Ratio?", "The utilisation is " + "x " * 60 + "≤ 1.0 everywhere.")
    (hit,) = store.search_chats("≤")
    assert hit.chat_id == chat and hit.snippet is not None and "≤ 1.0 everywhere." in hit.snippet
    assert hit.snippet.startswith("…")


def test_a_file_of_the_previous_schema_is_searched_by_prefix_after_its_upgrade(tmp_path: Path) -> None:
    import sqlite3

    from store.schema import MIGRATIONS, SCHEMA_VERSION

    path = tmp_path / "v6.sqlite"
    raw = sqlite3.connect(path)
    for migration in MIGRATIONS[:6]:
        migration(raw)
    raw.execute("INSERT INTO chats (chat_name, created_at, activity_seq) VALUES ('Bridge', '2026-01-01', 1)")
    raw.execute("INSERT INTO history (chat_id, user, assistant) VALUES (1, 'Prestressed box girder?', 'Yes.')")
    raw.execute("PRAGMA user_version = 6")
    raw.commit()
    raw.close()
    store = ChatHistoryDB(path)
    assert [hit.snippet for hit in store.search_chats("prestress")] == ["Prestressed box girder?"]
    store.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_counting_a_workspace_s_turns_does_the_same_work_whatever_its_length(sqlite_store: ChatHistoryDB) -> None:
    """The count is read, not made: SQLite runs as many instructions for 3,000 turns as for 3 (no time is measured)."""
    store = sqlite_store
    short, long = store.create_chat("Short"), store.create_chat("Long")
    for i in range(3):
        store.add_to_history(short, f"q{i}", "a")
    for i in range(3_000):
        store.add_to_history(long, f"Load case {i}?", "Fine.")
    steps = [0]

    def step() -> int:
        steps[0] += 1
        return 0  # go on

    assert isinstance(store, SqliteHistoryDB)

    def instructions(chat_id: int) -> int:
        steps[0] = 0
        store._db.set_progress_handler(step, 1)  # noqa: SLF001 - SQLite's own instruction counter on the store's connection
        try:
            assert store.count_turns(chat_id) in (3, 3_000)
        finally:
            store._db.set_progress_handler(None, 1)  # noqa: SLF001
        return steps[0]

    assert instructions(long) == instructions(short)
