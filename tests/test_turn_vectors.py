"""The words the indexes hold, made fast: `fold` and PostgreSQL's `turn_vector` give exactly what the plain
definitions give, for any text, at PostgreSQL's limits too."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path

import pytest

from fakes.postgres import PostgresServer
from history import ChatHistoryDB
from store import copy_history, turn_vectors
from store.turn_vectors import MAX_POSITION, MAX_POSITIONS, MAX_VECTOR_BYTES, MAX_WORD_BYTES, lexeme, turn_vector
from store.words import TOKEN, fold, index_words, tokens, word_bytes
from tests.stores import raw_rows, raw_write

ASCII = "".join(map(chr, range(128)))
ALPHABET = "abc xyz éèçñ ü ß ﬁ ½ ² · ' \\ 𝔸 İ 中文 \u0301\u0327 ,.;\n\t" + "0123456789"


def plain_fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text.lower()) if not unicodedata.combining(c))


def plain_vector(user: str, assistant: str) -> str:
    """The definition: each word's positions, the answer's after a gap, capped as PostgreSQL caps them."""
    positions: dict[str, list[int]] = {}
    position, budget = 0, turn_vectors.MAX_VECTOR_BYTES
    for text in (user, assistant):
        for word in TOKEN.findall(plain_fold(text)):
            position = min(position + 1, turn_vectors.MAX_POSITION)
            seen = positions.get(word)
            if seen is None:
                size = len(word.encode())
                if size > turn_vectors.MAX_WORD_BYTES or size > budget:
                    continue
                budget -= size
                positions[word] = [position]
            elif len(seen) < turn_vectors.MAX_POSITIONS and seen[-1] != position:
                seen.append(position)
        position = min(position + 1, turn_vectors.MAX_POSITION)
    return " ".join(f"{lexeme(word)}:{','.join(map(str, where))}" for word, where in positions.items())


def texts(seed: int, count: int, longest: int) -> list[str]:
    chosen = random.Random(seed)
    return ["".join(chosen.choice(ALPHABET) for _ in range(chosen.randint(0, longest))) for _ in range(count)]


def any_characters(seed: int, count: int, longest: int) -> list[str]:
    """Texts of ASCII characters, of the first 2,048 code points, and of any code point (surrogates too)."""
    chosen = random.Random(seed)
    ranges = (128, 0x800, 0x110000)
    return ["".join(chr(chosen.randrange(chosen.choice(ranges))) for _ in range(chosen.randint(0, longest)))
            for _ in range(count)]  # fmt: skip


def test_folding_is_lower_case_without_diacritics_for_any_text() -> None:
    for text in [
        *texts(1, 2000, 60),
        *any_characters(8, 3000, 60),
        "The maximum moment is wL²/8 = 54 kN·m.",
        "Crème brûlée",
        "".join("e" + chr(code) for code in range(0x300, 0x340)),  # more marks than are removed one by one
        "",
    ]:
        assert fold(text) == plain_fold(text), repr(text)


def test_a_text_s_words_are_the_token_s_for_any_text_ascii_or_not() -> None:
    chosen = random.Random(4)
    ascii_texts = ["".join(chosen.choice(ASCII) for _ in range(chosen.randint(0, 80))) for _ in range(3000)]
    many = "".join(chr(code) + "ab" for code in range(0x2200, 0x2240))  # more separators than are replaced one by one
    every = [*ascii_texts, *texts(5, 1000, 80), *any_characters(7, 3000, 60), many, "M_Ed = 318 kN·m", "L/360", ""]
    for text in every:
        assert tokens(text) == TOKEN.findall(text), repr(text)
        assert index_words(text) == set(TOKEN.findall(plain_fold(text))), repr(text)


def test_a_text_s_words_as_bytes_are_the_folded_token_s_for_any_text() -> None:
    """Folded a character at a time, as bytes: the capital sigma (lower case by its neighbours), a dotted capital
    I (two characters lowered), marks, separators that are not ASCII, and texts of many distinct characters."""
    chosen = random.Random(9)
    ascii_texts = ["".join(chosen.choice(ASCII) for _ in range(chosen.randint(0, 80))) for _ in range(2000)]
    cyrillic = "".join(map(chr, range(0x400, 0x440)))
    greek = ["ΣΑΣ ΟΔΟΣ. Σ", "ὈΔΥΣΣΕΎΣ kN·m", "aΣ b", "Σ", "xΣ'", "İstanbul ΣΣ", "ΣΙΣΥΦΟΣ" + cyrillic]
    many = "".join(chr(code) + "Éb" for code in range(0x2200, 0x2240))
    every = [*ascii_texts, *texts(10, 2000, 200), *any_characters(11, 3000, 80), *any_characters(12, 200, 3000),
             *greek, many, "The maximum moment is wL²/8 = 54 kN·m.", ""]  # fmt: skip
    for text in every:
        words = [word.decode("utf-8", "surrogatepass") for word in word_bytes(text)]
        assert words == TOKEN.findall(plain_fold(text)), repr(text)


def test_a_turn_s_vector_is_the_definition_s() -> None:
    chosen = random.Random(6)
    ascii_pairs = [tuple("".join(chosen.choice(ASCII) for _ in range(chosen.randint(0, n))) for n in (300, 3000))
                   for _ in range(200)]  # fmt: skip
    pairs = list(zip(texts(2, 500, 300), texts(3, 500, 3000), strict=True)) + ascii_pairs
    for user, assistant in [*pairs, ("Question 1 about the transfer beam", "The moment is 54 kN·m. " * 30)]:
        assert turn_vectors.turn_vector(user, assistant) == plain_vector(user, assistant)


@pytest.mark.parametrize(("limit", "value"), [("MAX_POSITION", 40), ("MAX_POSITIONS", 3), ("MAX_VECTOR_BYTES", 25),
                                              ("MAX_WORD_BYTES", 2)])  # fmt: skip
def test_at_postgresql_s_limits_too(monkeypatch: pytest.MonkeyPatch, limit: str, value: int) -> None:
    monkeypatch.setattr(turn_vectors, limit, value)
    words = "beam girder beam slab column beam éclisse girder " * 12
    random_pairs = list(zip(texts(4, 50, 200), texts(5, 50, 900), strict=True))
    for user, assistant in [(words, words), ("a b", words), (words[:40], ""), *random_pairs]:
        assert turn_vectors.turn_vector(user, assistant) == plain_vector(user, assistant)


def test_the_limits_are_postgresql_s() -> None:
    assert (MAX_POSITION, MAX_POSITIONS, MAX_WORD_BYTES, MAX_VECTOR_BYTES) == (16_383, 256, 2_046, 1_000_000)


def test_a_copy_s_turn_search_rows_are_each_vector_as_copy_s_text() -> None:
    turns = [(1, 2, "Beam B1?", "The moment is 54 kN·m. " * 3), (3, 4, "", ""), (5, 4, "Crème", "ΣΑΣ")]
    lines = [f"{turn_id}\t{chat_id}\t{turn_vector(user, answer)}\n" for turn_id, chat_id, user, answer in turns]
    assert turn_vectors.turn_search_rows(turns) == "".join(lines).encode()
    assert turn_vectors._copy_escaped(b"a\\b\tc\nd\re'f':1") == b"a\\\\b\\tc\\nd\\re'f':1"


@pytest.mark.postgres
@pytest.mark.parametrize("spread", [False, True])
def test_a_copy_s_vectors_are_the_ones_postgresql_makes_of_their_text(
    postgres_server: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spread: bool
) -> None:
    """A copy sends its vectors in COPY's binary format: stored, each is what PostgreSQL makes of the vector's text
    (equal, and as large), and a batch with a turn the binary input would refuse (more words than positions,
    here) comes as text; the turns are found as they were."""
    if spread:
        monkeypatch.setattr("store.postgres_dialect.SPREAD_FROM_TURNS", 1)
    monkeypatch.setattr("store.copying.BATCH", 3)
    laptop = ChatHistoryDB(tmp_path / "laptop.sqlite")
    chat = laptop.create_chat("Tower")
    long_answer = "beam " * (MAX_POSITION + 10)
    turns = [*zip(texts(20, 12, 300), texts(21, 12, 3000), strict=True), ("ΣΑΣ Crème brûlée", "kN·m " * 300),
             ("Long?", long_answer), ("", ""), ("Girder G1?", "The girder spans 12 m.")]  # fmt: skip
    for user, answer in turns:
        laptop.add_to_history(chat, user, answer)
    server = postgres_server.new_database()
    copy_history(laptop, ChatHistoryDB(server))
    raw_write(server, "CREATE TABLE made (turn_id BIGINT, words TSVECTOR)")  # each vector as its text makes it
    for turn_id, user, answer in raw_rows(server, 'SELECT id, "user", assistant FROM history'):
        raw_write(server, "INSERT INTO made VALUES (?, ?::tsvector)", (turn_id, turn_vector(user, answer)))
    compared = raw_rows(server, "SELECT s.words = m.words, pg_column_size(s.words) = pg_column_size(m.words) "
                                "FROM turn_search s JOIN made m USING (turn_id)")  # fmt: skip
    assert compared == [(True, True)] * len(turns)
    found = ChatHistoryDB(server).search_chats("girder spans")
    assert [hit.chat_id for hit in found] == [chat] and "girder" in (found[0].snippet or "").lower()
