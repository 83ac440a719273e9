"""Waiting for a claim the store gives one process of several at a time (`app.ports.Leases`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from app.ports import Leases

POLL_SECONDS = 1.0


@contextmanager
def held(store: Leases, name: str) -> Iterator[None]:
    """Hold the claim `name` for the block, waiting while another process holds it (it is renewed meanwhile, and
    free as soon as its process ends)."""
    while not store.claim(name):
        time.sleep(POLL_SECONDS)
    try:
        yield
    finally:
        store.release(name)
