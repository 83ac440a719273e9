"""Parts of the page that redraw it when something running in the background is done.

Each is a fragment on a timer. Only a timer's own run may start the page again: the page's
run that draws the fragment is never cut short, since what it showed once (a notice, an
answer) would be lost with it when the background work happened to end meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st


def redraw_when(done: Callable[[], bool], every: float, draw: Callable[[], object] | None = None) -> None:
    """Check `done` every `every` seconds and draw the whole page again once it is true; `draw` fills the
    fragment meanwhile."""
    page_run = True

    @st.fragment(run_every=every)
    def watch() -> None:
        nonlocal page_run
        if not page_run and done():
            st.rerun()
        page_run = False
        if draw is not None:
            draw()

    watch()
