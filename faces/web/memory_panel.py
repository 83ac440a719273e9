"""The sidebar's Memory panel: what the assistant remembers for every workspace, to edit or delete."""

from __future__ import annotations

import streamlit as st

from app import Application
from faces.web.markdown import escape_markdown


def memory_panel(service: Application) -> None:
    """One label whatever it holds (a label that changed would close the panel after each Add or Forget)."""
    book = service.memory
    if book.off:  # with accounts the memory would be everyone's: it is off, and not offered
        return
    memories = book.all()
    with st.expander("Memory", icon=":material/psychology_alt:", key="memory-panel"):
        count = f"{len(memories)} fact{'s' * (len(memories) != 1)}" if memories else "Nothing yet"
        st.caption(f"{count}, remembered for every workspace: units, design codes, standards, your name.")
        for item in memories:
            with st.container(horizontal=True, vertical_alignment="center", gap="small"):
                text = st.text_input(
                    "Memory", value=item.text, key=f"memory-{item.memory_id}", label_visibility="collapsed"
                )
                if st.button("", icon=":material/delete:", key=f"forget-{item.memory_id}", help="Forget this"):
                    book.delete(item.memory_id)
                    st.rerun()
            if text.strip() and text != item.text:
                book.edit(item.memory_id, text)
                st.toast(f"Memory updated: {escape_markdown(text)}")
        with st.form("memory-add", border=False, clear_on_submit=True):
            new = st.text_input("Remember", key="memory-new", placeholder="Something to remember")
            if st.form_submit_button("Add") and new.strip():
                book.add(" ".join(new.split()))
                st.rerun()
