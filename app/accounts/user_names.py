"""A user's name that cannot pass for another's: written in one script, and unlike every other user's name to the eye.

Look-alikes are found as Unicode Technical Standard #39 finds them: each name is reduced to a skeleton, every
character replaced by one chosen member of its set of confusable characters (Unicode's confusables data, as
`confusable_homoglyphs` ships it), and two names with one skeleton are confusable ("аdmin" with a Cyrillic а,
"adm1n", "ADMIN" all read as "admin"). Scripts follow TR39's "highly restrictive" level: one script besides the
characters common to all (digits, `.`, `-`, `_`, `@`), or Han with Japanese kana, Bopomofo or Hangul.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Iterable
from importlib import resources

NAME = re.compile(r"[\w.@-]{1,64}")
_SHARED_SCRIPTS = {"COMMON", "INHERITED"}
_WITH_HAN = ({"HAN", "HIRAGANA", "KATAKANA"}, {"HAN", "BOPOMOFO"}, {"HAN", "HANGUL"})
_DIRECTION_MARKS = "\u200e\u200f"  # the data wraps right-to-left characters in them, for display


def check_user_name(name: str, others: Iterable[str]) -> str:
    """`name` trimmed, when it may be a new user's beside the users named `others`; ValueError in one sentence
    otherwise."""
    cleaned = name.strip()
    if not NAME.fullmatch(cleaned):
        raise ValueError("A user name is 1 to 64 letters, digits, dots, dashes, @ or underscores.")
    if not one_script(cleaned):
        raise ValueError(f"{cleaned!r} mixes letters of several scripts; write a user name in one script.")
    mine = looks(cleaned)
    for other in others:
        if looks(other) & mine:
            raise ValueError(f"{cleaned!r} looks like the name of the user {other!r}; choose a name that does not.")
    return cleaned


def one_script(name: str) -> bool:
    """Whether `name` keeps to one script (with the characters every script shares), or Han with a partner."""
    from confusable_homoglyphs import categories  # noqa: PLC0415 - its data is read when a name is checked, not at import

    scripts = {categories.aliases_categories(character)[0] for character in name} - _SHARED_SCRIPTS
    return len(scripts) <= 1 or any(scripts <= allowed for allowed in _WITH_HAN)


def looks(name: str) -> set[str]:
    """The skeletons of `name` in its compatibility form, as written, in lower case and in capitals (a user name is
    one whatever its case, and "ADMIN" passes for "ADM1N"), each case-folded: two names that share one look alike."""
    folded = unicodedata.normalize("NFKC", name)  # compatibility forms first (ｂｏｂ is bob), as identifiers are
    return {skeleton(written).casefold() for written in (folded, folded.lower(), folded.upper())}


def skeleton(text: str) -> str:
    """TR39's skeleton: `text` decomposed, each character replaced by its prototype, decomposed again."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(character, character) for character in decomposed))


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (read once, when the first name is checked). The data lists both
    ways: a character confusable with a prototype lists that prototype alone, and the prototype lists all its
    look-alikes; where two list only each other, the ASCII one, else the lower, is the prototype."""
    data = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    listed = {
        key.strip(_DIRECTION_MARKS): [str(like["c"]).strip(_DIRECTION_MARKS) for like in likes]
        for key, likes in data.items()
    }
    prototypes: dict[str, str] = {}
    for character, likes in listed.items():
        if len(likes) != 1 or likes[0] == character:
            continue
        prototype = likes[0]
        theirs = listed.get(prototype, [])
        if len(theirs) > 1 or (theirs == [character] and _rank(prototype) < _rank(character)) or not theirs:
            prototypes[character] = prototype
    return prototypes


def _rank(character: str) -> tuple[bool, str]:
    return (not character.isascii(), character)
