"""The store's pictures: those asked with each question, cleaned, kept in `turn_images` with their turn (so they go
wherever the turn goes: `db copy`, PostgreSQL, a backup), read back as references and their bytes one at a time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.records import CleanImage, TurnImage
from store.base import StoreBase
from store.sql import Database, Dialect

_REFERENCE = "id AS image_id, media_type, width, height, sha256"


def insert_images(db: Database, turn_id: int, images: Sequence[CleanImage]) -> None:
    """A turn's pictures, in the order they were asked with it (inside the turn's transaction)."""
    if images:
        db.executemany(
            """INSERT INTO turn_images (turn_id, position, media_type, width, height, sha256, data)
               VALUES (?, ?, ?, ?, ?, ?, ?)""",
            [
                (turn_id, position, image.media_type, image.width, image.height, image.sha256, image.data)
                for position, image in enumerate(images)
            ],
        )


def image_references(db: Database, dialect: Dialect, turn_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """Each turn's pictures (without their bytes), in order, for the turns that have any."""
    if not turn_ids:
        return {}
    ids, parameter = dialect.id_list(turn_ids)
    rows = db.execute(
        f"""SELECT turn_id, {_REFERENCE} FROM turn_images WHERE turn_id IN ({ids})
            ORDER BY turn_id, position""",  # noqa: S608 - fixed columns, the dialect's subquery
        (parameter,),
    ).fetchall()
    found: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        found.setdefault(int(row["turn_id"]), []).append({key: row[key] for key in TurnImage.model_fields})
    return found


class ImageStore(StoreBase):
    """A stored picture's bytes, found only through the workspace it belongs to."""

    def turn_image(self, chat_id: int, image_id: int) -> bytes | None:
        """The bytes of picture `image_id` if it was asked in workspace `chat_id` (None otherwise)."""
        with self._query() as db:
            row = db.execute(
                """SELECT data FROM turn_images
                   WHERE id = ? AND turn_id IN (SELECT id FROM history WHERE chat_id = ?)""",
                (image_id, chat_id),
            ).fetchone()
        return bytes(row[0]) if row is not None else None
