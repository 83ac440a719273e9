"""Words as the full-text indexes hold them, and search text as bounded FTS5 queries: a user's search of the
turns (`words_query`), and a question's telling words for the documents and the memory (`match_expression`).

The index (`turn_search`, FTS5 with `unicode61 remove_diacritics 2`) folds case
and strips diacritics; `index_words` does the same in Python closely enough to
keep the store's list of indexed words (`search_terms`), from which a typed
prefix is expanded into the whole words it begins. FTS5's own prefix queries
(`"beam"*`) merge the postings of every such word before returning a single
row, which costs hundreds of milliseconds for a common word at a million turns;
a few whole words in an OR are read lazily, newest first.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata

EXPANSIONS_PER_WORD = 32  # a prefix is matched through at most this many of the words it begins
MAX_QUERY_WORDS = 24
# Words that say nothing about which passage or memory is meant; BM25 would weigh them lightly anyway.
_QUIET_WORDS = frozenset(
    "a an and are as at be by did do does for from has have how in is it of on or our the this to was we what "
    "when where which who why will with".split()
)
_TOKEN = re.compile(r"[^\W_]+")  # unicode61: letters and digits are word characters, the rest separate words
_LAST_CHARACTER = "\U0010ffff"


def fold(text: str) -> str:
    """Lower case, diacritics removed (é → e), as the index stores words."""
    lowered = text.lower()
    if lowered.isascii():
        return lowered
    return "".join(c for c in unicodedata.normalize("NFD", lowered) if not unicodedata.combining(c))


def index_words(text: str) -> set[str]:
    """The distinct words the index makes of `text`."""
    return set(_TOKEN.findall(fold(text)))


def quoted(tokens: list[str]) -> str:
    """Tokens as one FTS5 phrase: quoted, so that operators in them are plain text."""
    return '"' + " ".join(token.replace('"', '""') for token in tokens) + '"'


def query_words(query: str) -> list[str]:
    """The question's telling words, folded, each once, at most MAX_QUERY_WORDS."""
    words = [word for word in _TOKEN.findall(fold(query)) if word not in _QUIET_WORDS][:MAX_QUERY_WORDS]
    return list(dict.fromkeys(words))


def any_of(words: list[str]) -> str | None:
    """An FTS5 query for any of `words`, each quoted (BM25 ranks the best); None without words."""
    return " OR ".join(quoted([word]) for word in words) or None


def match_expression(query: str) -> str | None:
    """The question as an FTS5 query: its telling words, any of them."""
    return any_of(query_words(query))


def _expansions(db: sqlite3.Connection, prefix: str) -> list[str]:
    rows = db.execute(
        "SELECT term FROM search_terms WHERE term >= ? AND term < ? ORDER BY term LIMIT ?",
        (prefix, prefix + _LAST_CHARACTER, EXPANSIONS_PER_WORD),
    ).fetchall()
    return [str(row[0]) for row in rows]


def _word_query(db: sqlite3.Connection, tokens: list[str]) -> str:
    """One typed word: its tokens as a phrase, the last one as typed or as any indexed word it begins."""
    *leading, last = tokens
    endings = dict.fromkeys([last, *_expansions(db, last)])
    return "(" + " OR ".join(quoted([*leading, ending]) for ending in endings) + ")"


def words_query(db: sqlite3.Connection, text: str) -> str | None:
    """An FTS5 query for turns holding every word of `text` (each as a prefix) in their question or answer.

    Every word is quoted, so FTS5 operators in it are plain text; words without
    letters or digits (which the index does not hold) are left out. None when
    no word is left.
    """
    parts = [_word_query(db, tokens) for word in text.split() if (tokens := _TOKEN.findall(fold(word)))]
    return "{user assistant} : (" + " AND ".join(parts) + ")" if parts else None


def in_workspaces(chat_ids: list[int], query: str) -> str:
    """`query`, limited to the turns of these workspaces."""
    return "workspace : (" + " OR ".join(f'"w{chat_id:d}"' for chat_id in chat_ids) + f") AND {query}"
