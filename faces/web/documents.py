"""The documents panel: upload into the workspace folder, what is indexed (or skipped and why), progress;
and the passages a document search found, each with its file and page."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from app import WorkspaceService
from faces.web.markdown import escape_markdown, escape_name

UPLOAD_TYPES = ["pdf", "docx", "xlsx", "md", "txt", "csv"]
REFRESH_SECONDS = 1.0


def documents_panel(service: WorkspaceService) -> None:
    """In the sidebar: the uploader and the list, redrawn every second while indexing runs."""
    running = service.documents.progress.running

    @st.fragment(run_every=REFRESH_SECONDS if running else None)
    def panel() -> None:
        library = service.documents
        files = library.files()
        indexed = sum(file.status == "indexed" for file in files)
        with st.expander("Documents", icon=":material/description:"):  # one label: it stays open across reruns
            skipped = len(files) - indexed
            st.caption(f"{indexed} indexed" + (f", {skipped} skipped" if skipped else "") + " in the workspace folder")
            uploads = st.file_uploader(
                "Add documents to the workspace folder",
                type=UPLOAD_TYPES,
                accept_multiple_files=True,
                key="uploads",
            )
            added = [save_upload(service, upload.name, upload.getvalue(), upload.file_id) for upload in uploads or []]
            if any(added) and not running:
                st.rerun()  # draw the panel again with its timer, to follow the indexing
            progress = library.progress
            if progress.running:
                done = progress.done / progress.total if progress.total else 0.0
                st.progress(done, text=f"Indexing… {progress.done} of {progress.total} files")
            for file in files:
                if file.status == "indexed":
                    st.caption(f":material/check: {escape_name(file.path)} · {escape_markdown(file.note)}")
                else:
                    st.caption(f":material/warning: {escape_name(file.path)} · skipped: {escape_markdown(file.note)}")
            if library.embedding_problem and files:
                st.caption(f"Search by words only: {escape_markdown(library.embedding_problem)}.")
        if running and not library.progress.running:
            st.rerun()  # indexing ended: draw the panel once more without the timer

    panel()


def save_upload(service: WorkspaceService, name: str, data: bytes, upload_id: str) -> bool:
    """Save each uploaded file once (the uploader keeps offering it on every rerun); whether this one was new."""
    saved: set[str] = st.session_state.setdefault("saved_uploads", set())
    if upload_id in saved:
        return False
    saved.add(upload_id)
    try:
        stored = service.documents.save_upload(name, data)
        st.toast(f"Added {escape_name(stored)}; indexing it now.", icon=":material/upload_file:")
    except (ValueError, OSError) as error:
        st.error(escape_markdown(str(error)))
        return False
    return True


def passages(output: str) -> None:
    """A document search's passages: "spec.pdf, p. 4" above the passage's words."""
    try:
        found: dict[str, Any] = json.loads(output)
    except ValueError:
        st.code(output, language=None, wrap_lines=True)
        return
    if found.get("note"):
        st.caption(escape_markdown(str(found["note"])))
    if not found.get("passages"):
        st.caption("No passage matched.")
    for passage in found.get("passages", []):
        where = f"p. {passage['page']}" if passage.get("page") else str(passage.get("location", ""))
        st.markdown(f"**{escape_name(str(passage.get('file', '')))}, {escape_markdown(where)}**")
        st.text(str(passage.get("text", "")))
