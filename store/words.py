"""Words as the full-text indexes hold them: a user's search of the turns as a bounded query of whole words
(`words_query`), and a question's telling words for the documents and the memory (`query_words`).

The index folds case and strips diacritics (SQLite's FTS5 with `unicode61 remove_diacritics 2`, and
PostgreSQL's `turn_search`, whose words this module makes); `index_words` does the same in Python
closely enough to keep the store's list of indexed words (`search_terms`), from which a typed
prefix is expanded into the whole words it begins. FTS5's own prefix queries (`"beam"*`) merge the
postings of every such word before returning a single row, which costs hundreds of milliseconds for
a common word at a million turns; a few whole words in an OR are read lazily, newest first.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from store.sql import Database, TurnQuery

EXPANSIONS_PER_WORD = 32  # a prefix is matched through at most this many of the words it begins
TOKEN = re.compile(r"[^\W_]+")  # unicode61: letters and digits are word characters, the rest separate words
MAX_QUERY_WORDS = 24
# Words that say nothing about which passage or memory is meant; the ranking would weigh them lightly anyway.
_QUIET_WORDS = frozenset(
    "a an and are as at be by did do does for from has have how in is it of on or our the this to was we what "
    "when where which who why will with".split()
)
_LAST_CHARACTER = "\U0010ffff"
_SEPARATOR_BYTES = bytes(byte if chr(byte).isalnum() else 32 for byte in range(128)) + bytes(range(128, 256))
_ASCII_BYTES = bytes(range(128))
_MOST_REPLACED = 24  # distinct characters replaced one pass each; a text of more takes one lookup a character
_CAPITAL_SIGMA = "\u03a3"  # the one character whose lower case depends on the letters around it (σ or ς)


def fold(text: str) -> str:
    """Lower case, diacritics removed (é → e), as the index stores words: the marks looked for among the text's
    few distinct non-ASCII characters, and each removed by `str.replace` (C's loops, not a lookup a character)."""
    lowered = text.lower()
    if lowered.isascii():
        return lowered
    decomposed = unicodedata.normalize("NFD", lowered)
    marks = [mark for mark in _distinct_non_ascii(decomposed) if unicodedata.combining(mark)]
    if len(marks) > _MOST_REPLACED:  # a pass over the text for each would cost more than one lookup a character
        return decomposed.translate(dict.fromkeys(map(ord, marks)))
    for mark in marks:
        decomposed = decomposed.replace(mark, "")
    return decomposed


def _distinct_non_ascii(text: str) -> set[str]:
    """The text's distinct non-ASCII characters (its ASCII ones dropped in one byte table first)."""
    return _distinct_others(text.encode("utf-8", "surrogatepass"))


def _distinct_others(encoded: bytes) -> set[str]:
    """`_distinct_non_ascii` of a text already encoded."""
    return set(encoded.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass"))


def tokens(text: str) -> list[str]:
    """TOKEN's words of `text`, in order, made with C's string methods (a copy makes a million turns' words): the
    few distinct non-ASCII characters that separate words (·, ×, –, ≤…: not `str.isalnum`, as TOKEN has it)
    replaced by spaces, then the ASCII ones by one byte table, then split (2.5-5× faster than the expression)."""
    if not text.isascii():
        separators = [character for character in _distinct_non_ascii(text) if not character.isalnum()]
        if len(separators) > _MOST_REPLACED:  # a pass over the text for each would cost more than the expression
            return TOKEN.findall(text)
        for character in separators:
            text = text.replace(character, " ")
    return text.encode("utf-8", "surrogatepass").translate(_SEPARATOR_BYTES).decode("utf-8", "surrogatepass").split()


def word_bytes(text: str) -> list[bytes]:
    """`tokens(fold(text))`, each word as UTF-8 bytes, made a character at a time rather than a pass at a time (a
    copy makes a million turns' words): the ASCII letters lowered by a byte method, each of the text's few distinct
    other characters replaced by what folding makes of it (`_folding`, kept), then split as bytes, which makes no
    string of each word. Folding is a character's own (lower case, then its decomposition without marks), but for
    the capital sigma, so a text holding one is lowered whole first."""
    encoded = text.encode("utf-8", "surrogatepass")
    if text.isascii():
        return encoded.lower().translate(_SEPARATOR_BYTES).split()
    others = _distinct_others(encoded)
    if _CAPITAL_SIGMA in others:
        text = text.lower()
        encoded = text.encode("utf-8", "surrogatepass")
        others = _distinct_others(encoded)
    if len(others) > _MOST_REPLACED:  # a pass over the text for each would cost more than one lookup a character
        lowered = text.lower()
        table = {ord(character): _folding(character)[2] for character in _distinct_non_ascii(lowered)}
        folded = lowered.translate(table)
        return folded.encode("utf-8", "surrogatepass").translate(_SEPARATOR_BYTES).split()
    encoded = encoded.lower()
    for character in others:
        written, replacement, _ = _folding(character)
        if replacement != written:
            encoded = encoded.replace(written, replacement)
    return encoded.translate(_SEPARATOR_BYTES).split()


@lru_cache(maxsize=65_536)
def _folding(character: str) -> tuple[bytes, bytes, str]:
    """A non-ASCII character as UTF-8, and what the index's words make of it, as UTF-8 and as text: lower case,
    diacritics removed, a character that is neither a letter nor a digit a space (an ASCII one is left to the
    byte table)."""
    kept = [part for part in unicodedata.normalize("NFD", character.lower()) if not unicodedata.combining(part)]
    folded = "".join(part if part.isascii() or part.isalnum() else " " for part in kept)
    return character.encode("utf-8", "surrogatepass"), folded.encode("utf-8", "surrogatepass"), folded


def index_words(text: str) -> set[str]:
    """The distinct words the index makes of `text`."""
    return set(tokens(fold(text)))


def query_words(query: str) -> list[str]:
    """The question's telling words, folded, each once, at most MAX_QUERY_WORDS."""
    words = [word for word in tokens(fold(query)) if word not in _QUIET_WORDS][:MAX_QUERY_WORDS]
    return list(dict.fromkeys(words))


def _expansions(db: Database, prefix: str) -> list[str]:
    rows = db.execute(
        "SELECT term FROM search_terms WHERE term >= ? AND term < ? ORDER BY term LIMIT ?",
        (prefix, prefix + _LAST_CHARACTER, EXPANSIONS_PER_WORD),
    ).fetchall()
    return [str(row[0]) for row in rows]


def _phrases(db: Database, tokens: list[str]) -> list[list[str]]:
    """One typed word: its tokens as a phrase, the last one as typed or as any indexed word it begins."""
    *leading, last = tokens
    endings = dict.fromkeys([last, *_expansions(db, last)])
    return [[*leading, ending] for ending in endings]


def any_word(db: Database, text: str) -> list[str]:
    """The telling words of `text` (`query_words`), each as typed and as the indexed words it begins, for a
    search that ranks turns by how many of them they hold."""
    found: dict[str, None] = {}
    for word in query_words(text):
        found.update(dict.fromkeys([word, *_expansions(db, word)]))
    return list(found)


def words_query(db: Database, text: str) -> TurnQuery | None:
    """Turns holding every word of `text` (each as a prefix) in their question or answer.

    Words without letters or digits (which the index does not hold) are left
    out; None when no word is left. Each backend writes the query its own way,
    every word as plain text.
    """
    parts = [_phrases(db, pieces) for word in text.split() if (pieces := tokens(fold(word)))]
    return parts or None
