"""Pictures in the conversation: those attached to a question (cleaned by the application before anything is sent,
or refused with its sentence), and those of stored turns, shown in the question as they were sent."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import streamlit as st

from app import IMAGE_SUFFIXES, Application, ImageRefusedError, clean_image
from domain.records import CleanImage, Turn
from faces.web.markdown import sentence_markdown
from faces.web.state import loop
from faces.web.state import service as tab_service
from faces.web.sync_bridge import run_sync

IMAGE_TYPES = [suffix.removeprefix(".") for suffix in IMAGE_SUFFIXES]  # what the question's input takes
SHOWN_WIDTH = 280  # pixels: a thumbnail in the question; the picture opens full size from its corner


class Upload(Protocol):
    """A file attached to the question (Streamlit's `UploadedFile`)."""

    name: str

    def getvalue(self) -> bytes: ...


def cleaned(service: Application, files: Sequence[Upload], chat_id: int | None) -> tuple[CleanImage, ...] | None:
    """The attached pictures as they will be sent, for a model that can see them; None when one is refused, its
    sentence shown, and nothing is sent."""
    try:
        pictures = tuple(clean_image(file.name, file.getvalue()) for file in files)
        run_sync(service.turns.check_images(chat_id), loop())
    except ImageRefusedError as refused:
        st.error(sentence_markdown(str(refused)), icon=":material/hide_image:")
        return None
    return pictures


def show_pictures(pictures: Sequence[bytes]) -> None:
    if pictures:
        st.image(list(pictures), width=SHOWN_WIDTH)


def stored_pictures(turn: Turn) -> None:
    """A stored turn's pictures, read from the store (only through a workspace the user may read)."""
    if turn.images:
        turns = tab_service().turns
        show_pictures([turns.image(turn.chat_id, image.image_id) for image in turn.images])
