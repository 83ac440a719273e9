"""A turn's words as PostgreSQL's `tsvector`, which the store makes itself (`store.postgres_dialect`): each word
`store.words` finds (folded, as SQLite's index holds them) with its positions, the answer's after a gap, within
PostgreSQL's limits, so that a search finds the same turns on either backend.

A copy makes a million turns' vectors, spread over processes, and each is sent as `turn_search`'s rows ready for
COPY (`turn_search_copy`): in COPY's binary format, which PostgreSQL reads five times faster than a vector's
text (its text input reads each digit of every position; its binary input takes each position as two bytes),
or as text for a batch holding a turn the binary input would refuse.
"""

from __future__ import annotations

import struct
from collections import defaultdict, deque
from itertools import repeat

from store.sql import TurnRows
from store.words import word_bytes

MAX_POSITION = 16_383  # PostgreSQL keeps word positions up to this, and at most 256 for a word
MAX_POSITIONS = 256
MAX_WORD_BYTES = 2_046  # a longer word is not indexed (PostgreSQL's limit for one)
MAX_VECTOR_BYTES = 1_000_000  # the distinct words of one vector (PostgreSQL's limit is 1 MiB)
MAX_RECEIVED_BYTES = (1 << 20) - 1  # the binary input's limit for a vector's words and positions together
TURN_SEARCH_COLUMNS = ("turn_id", "chat_id", "words")
_POSITION_TEXT = [str(position).encode() for position in range(16_384)]  # a position as text, written once
_POSITION_BINARY = [position.to_bytes(2, "big") for position in range(16_384)]  # and as the binary input's two bytes
_BINARY_HEADER = b"PGCOPY\n\xff\r\n\x00" + bytes(8)  # COPY's binary signature, no flags, no header extension
_BINARY_TRAILER = b"\xff\xff"
_BINARY_ROW = struct.Struct(">hiqiqi")  # 3 fields: turn_id (8 bytes), chat_id (8 bytes), and the vector's length
_Positions = defaultdict[bytes, list[bytes]]


def lexeme(word: str) -> str:
    """A word as a tsvector's lexeme. The words are TOKEN's (letters and digits only), so there is no quote or
    backslash to escape; one that had them would be escaped all the same."""
    if "'" in word or "\\" in word:
        return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"
    return f"'{word}'"


def turn_vector(user: str, assistant: str) -> str:
    """The `tsvector` of a turn: its words with their positions, the answer's after a gap (so that no phrase
    spans the question and the answer), within PostgreSQL's limits."""
    return _vector_text(user, assistant).decode("utf-8", "surrogatepass")


def turn_search_copy(turns: TurnRows) -> tuple[bool, bytes]:
    """The `turn_search` rows of `turns` (turn_id, chat_id, user, assistant) ready for COPY, and whether they are
    in its binary format (else its text): a copy's work for a process."""
    binary = _binary_rows(turns)
    return (True, binary) if binary is not None else (False, turn_search_rows(turns))


def turn_search_rows(turns: TurnRows) -> bytes:
    """The `turn_search` rows of `turns` as COPY's text (its vectors never made into strings)."""
    return b"".join(
        [b"%d\t%d\t%b\n" % (turn_id, chat_id, _copy_escaped(_vector_text(user, assistant)))
         for turn_id, chat_id, user, assistant in turns]
    )  # fmt: skip


def _binary_rows(turns: TurnRows) -> bytes | None:
    """The rows in COPY's binary format; None when a turn's vector is one the binary input would refuse."""
    parts = [_BINARY_HEADER]
    for turn_id, chat_id, user, assistant in turns:
        vector = _vector_binary(user, assistant)
        if vector is None:
            return None
        parts += (_BINARY_ROW.pack(3, 8, turn_id, 8, chat_id, len(vector)), vector)
    parts.append(_BINARY_TRAILER)
    return b"".join(parts)


def _vector_binary(user: str, assistant: str) -> bytes | None:
    """The vector as PostgreSQL's binary input takes it (`tsvectorrecv`): the number of words, then each word,
    a NUL, the number of its positions and the positions, two bytes each. None for a turn whose vector is capped
    or limited (the text's careful paths), or whose words and positions come near the binary input's limit
    (counted generously: four bytes a position, five a word besides its own)."""
    asked, answered = word_bytes(user), word_bytes(assistant)
    if len(asked) + len(answered) + 2 > MAX_POSITION:
        return None
    positions = _gathered(asked, answered, _POSITION_BINARY)
    reserved = sum(map(len, positions)) + 5 * len(positions) + 4 * (len(asked) + len(answered))
    if not _within_limits(positions) or reserved > MAX_RECEIVED_BYTES:
        return None
    counts = map(_POSITION_BINARY.__getitem__, map(len, positions.values()))
    entries = map(b"".join, zip(positions, repeat(b"\x00"), counts, map(b"".join, positions.values())))
    return len(positions).to_bytes(4, "big") + b"".join(entries)


def _vector_text(user: str, assistant: str) -> bytes:
    """`turn_vector` as UTF-8, made as bytes: each word's positions gathered and written by C's loops (`map` over
    the words, positions written once for the module)."""
    asked, answered = word_bytes(user), word_bytes(assistant)
    if len(asked) + len(answered) + 2 > MAX_POSITION:
        return _capped_vector(_texts(asked), _texts(answered)).encode("utf-8", "surrogatepass")
    positions = _gathered(asked, answered, _POSITION_TEXT)  # a question's and answer's words: no quote to escape
    if _within_limits(positions):
        entries = map(b"'%b':%b".__mod__, zip(positions, map(b",".join, positions.values()), strict=True))
        return b" ".join(entries)
    budget, kept = MAX_VECTOR_BYTES, []
    for word, where in positions.items():
        if len(word) <= MAX_WORD_BYTES and len(word) <= budget:
            budget -= len(word)
            positions_text = b",".join(where[:MAX_POSITIONS]).decode()
            kept.append(f"{lexeme(word.decode('utf-8', 'surrogatepass'))}:{positions_text}")
    return " ".join(kept).encode("utf-8", "surrogatepass")


def _gathered(asked: list[bytes], answered: list[bytes], written: list[bytes]) -> _Positions:
    """Each word's positions, as `written` writes them (the answer's after a gap), gathered by C's loops."""
    positions: _Positions = defaultdict(list)
    gap = len(asked) + 1
    deque(map(list.append, map(positions.__getitem__, asked), written[1:gap]), maxlen=0)
    deque(map(list.append, map(positions.__getitem__, answered), written[gap + 1 : gap + 1 + len(answered)]), maxlen=0)
    return positions


def _within_limits(positions: _Positions) -> bool:
    """Whether no word, nor the words together, pass PostgreSQL's limits."""
    return (
        sum(map(len, positions)) <= MAX_VECTOR_BYTES
        and max(map(len, positions), default=0) <= MAX_WORD_BYTES
        and max(map(len, positions.values()), default=0) <= MAX_POSITIONS
    )


def _copy_escaped(value: bytes) -> bytes:
    """A value as COPY's text holds it (a vector's words are letters and digits, so there is nothing to escape;
    a vector that had a backslash, tab or line break would be escaped all the same)."""
    if b"\\" in value or b"\t" in value or b"\n" in value or b"\r" in value:
        return value.replace(b"\\", b"\\\\").replace(b"\t", b"\\t").replace(b"\n", b"\\n").replace(b"\r", b"\\r")
    return value


def _texts(words: list[bytes]) -> list[str]:
    return [word.decode("utf-8", "surrogatepass") for word in words]


def _positions(where: list[int]) -> str:
    """`1,5,9` of [1, 5, 9]: one number's own text, or the list's without its brackets and spaces, made in C."""
    return str(where[0]) if len(where) == 1 else repr(where)[1:-1].replace(" ", "")


def _capped_vector(asked: list[str], answered: list[str]) -> str:
    """`turn_vector` of a turn of more words than PostgreSQL keeps positions for: the later ones share the last."""
    positions: dict[str, list[int]] = {}
    position, budget = 0, MAX_VECTOR_BYTES
    for words in (asked, answered):
        for word in words:
            position = min(position + 1, MAX_POSITION)
            seen = positions.get(word)
            if seen is None:
                size = len(word.encode())
                if size > MAX_WORD_BYTES or size > budget:
                    continue
                budget -= size
                positions[word] = [position]
            elif len(seen) < MAX_POSITIONS and seen[-1] != position:
                seen.append(position)
        position = min(position + 1, MAX_POSITION)
    return " ".join(f"{lexeme(word)}:{_positions(where)}" for word, where in positions.items())
