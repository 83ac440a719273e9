"""Labels that fit a row of the sidebar, so that the "⋮" menu beside a workspace stays on its row.

Streamlit wraps a row whose button is wider than the room left; a label is shortened by its
estimated width instead (CSS could not be given to one button), cut at a word boundary with an
ellipsis, and the button's tooltip shows the whole name.
"""

from __future__ import annotations

from app.presentation.formatting import shortened

# Widths in pixels of the sidebar buttons' font (Source Sans, 14 px): the widest of each class of character,
# so that an estimate is never short of the real width.
_NARROW = frozenset("!'(),-./:;I[]fijlrt{|}·")
_WIDE = frozenset("%@MWmw—…")
_WIDTHS = {"space": 2.8, "narrow": 4.9, "wide": 12.0, "capital": 9.3, "other": 7.8, "foreign": 14.0}
ROW_TEXT_PIXELS = 160.0  # the room for a workspace's name beside its menu in a 300 px sidebar (about 170 px)


def char_width(char: str) -> float:
    if char == " ":
        kind = "space"
    elif char in _NARROW:
        kind = "narrow"
    elif char in _WIDE:
        kind = "wide"
    elif char.isascii():
        kind = "capital" if char.isupper() else "other"
    else:  # accented letters are as wide as plain ones; others (CJK, symbols) are taken as wide as two
        kind = "other" if char.isalpha() and ord(char) < 0x250 else "foreign"
    return _WIDTHS[kind]


def text_width(text: str) -> float:
    return sum(map(char_width, text))


def row_label(name: str, room: float = ROW_TEXT_PIXELS) -> str:
    """`name`, or as much of it as fits `room` pixels, cut at a word boundary and ended with "…"."""
    if text_width(name) <= room:
        return name
    used, fits = char_width("…"), 0
    for char in name:
        used += char_width(char)
        if used > room:
            break
        fits += 1
    return shortened(name, fits + 1)
