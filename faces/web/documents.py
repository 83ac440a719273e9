"""The documents panel: upload into the workspace folder (asking before a file of the same name is replaced),
what is indexed (or skipped and why), progress, and Remove; and the passages a document search found, each
with its file and page."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from app import DOCUMENT_SUFFIXES, Application
from domain.records import DocumentFile
from faces.web.markdown import escape_markdown, escape_name
from faces.web.state import service as tab_service

UPLOAD_TYPES = [suffix.removeprefix(".") for suffix in DOCUMENT_SUFFIXES]  # the types the index reads
REFRESH_SECONDS = 1.0
CONFLICTS = "upload_conflicts"  # uploads whose name is taken, waiting for Replace / Keep both / Cancel
REMOVING = "removing_document"  # the document whose Remove waits for its confirmation


def documents_panel(service: Application) -> None:
    """In the sidebar: the uploader and the list, redrawn every second while indexing runs."""
    running = service.documents.progress.running
    page_run = True  # the page's own run is never started again from here: only the timer's runs are

    @st.fragment(run_every=REFRESH_SECONDS if running else None)
    def panel() -> None:
        nonlocal page_run
        library = service.documents
        files = library.files()
        may_change = service.access.allowed().create  # a viewer reads the documents, uploads and removes nothing
        indexed = sum(file.status == "indexed" for file in files)
        with st.expander("Documents", icon=":material/description:"):  # one label: it stays open across reruns
            skipped = len(files) - indexed
            st.caption(f"{indexed} indexed" + (f", {skipped} skipped" if skipped else "") + " in the workspace folder")
            uploads = (
                st.file_uploader(
                    "Add documents to the workspace folder",
                    type=UPLOAD_TYPES,
                    accept_multiple_files=True,
                    key="uploads",
                )
                if may_change
                else None
            )
            added = [save_upload(service, upload.name, upload.getvalue(), upload.file_id) for upload in uploads or []]
            if any(added) and not running:
                st.rerun()  # draw the panel again with its timer, to follow the indexing
            for number, (name, _) in enumerate(st.session_state.get(CONFLICTS, [])):
                name_taken(service, number, name)
            progress = library.progress
            if progress.reading:
                done = progress.done / progress.total if progress.total else 0.0
                st.progress(done, text=f"Indexing… {progress.done} of {progress.total} files")
            elif progress.running and progress.current:  # scanned pages being read by OCR
                st.caption(escape_name(progress.current))
            for number, file in enumerate(files):
                document_row(service, number, file, may_change)
            if library.embedding_problem and files:
                st.caption(f"Search by words only: {escape_markdown(library.embedding_problem)}.")
        if running and not library.progress.running and not page_run:
            st.rerun()  # indexing ended: draw the page once more, the panel without its timer
        page_run = False

    panel()


def save_upload(service: Application, name: str, data: bytes, upload_id: str) -> bool:
    """Save each uploaded file once (the uploader keeps offering it on every rerun); whether this one was new.

    A name already in the folder is not replaced unasked: the upload waits for Replace, Keep both or Cancel.
    """
    saved: set[str] = st.session_state.setdefault("saved_uploads", set())
    if upload_id in saved:
        return False
    saved.add(upload_id)
    try:
        stored = service.documents.save_upload(name, data)
    except FileExistsError:
        st.session_state.setdefault(CONFLICTS, []).append((name, data))
        return False
    except (ValueError, OSError) as error:
        st.error(escape_markdown(str(error)))
        return False
    st.toast(f"Added {escape_name(stored)}; indexing it now.", icon=":material/upload_file:")
    return True


def name_taken(service: Application, number: int, name: str) -> None:
    """An upload whose name is taken: replace the file, keep both (the upload under a new name), or cancel."""
    with st.container(border=True):
        st.warning(f"{escape_name(name)} is already in the workspace folder.", icon=":material/warning:")
        with st.container(horizontal=True, gap="small"):
            for label, choice in (("Replace", "replace"), ("Keep both", "keep both"), ("Cancel", None)):
                st.button(
                    label,
                    key=f"upload-{choice or 'cancel'}-{number}",
                    type="primary" if choice == "replace" else "secondary",
                    on_click=settle_conflict,
                    args=(service, number, choice),
                )


def settle_conflict(service: Application, number: int, choice: str | None) -> None:
    """Button callback: save the waiting upload as chosen (None: drop it); the panel says what happened."""
    conflicts: list[tuple[str, bytes]] = st.session_state.get(CONFLICTS, [])
    if number >= len(conflicts):
        return
    name, data = conflicts.pop(number)
    if choice is None:
        return
    try:
        stored = service.documents.save_upload(name, data, "replace" if choice == "replace" else "keep both")
    except (ValueError, OSError) as error:  # a PermissionError too: the user may not upload
        st.toast(escape_markdown(str(error)), icon=":material/error:")
        return
    st.toast(f"Added {escape_name(stored)}; indexing it now.", icon=":material/upload_file:")


def document_row(service: Application, number: int, file: DocumentFile, may_change: bool) -> None:
    """A document, indexed or skipped and why, with Remove (which asks first: the file is deleted)."""
    if file.status == "indexed":
        line = f":material/check: {escape_name(file.path)} · {escape_markdown(file.note)}"
    else:
        line = f":material/warning: {escape_name(file.path)} · skipped: {escape_markdown(file.note)}"
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.caption(line)
        if may_change and st.session_state.get(REMOVING) != file.path:
            st.button(
                "",
                key=f"remove-document-{number}",
                icon=":material/delete:",
                type="tertiary",
                help=f"Remove {escape_name(file.path)}",
                on_click=ask_remove,
                args=(file.path,),
            )
    if st.session_state.get(REMOVING) == file.path:
        st.warning(f"Delete {escape_name(file.path)} from the workspace folder and the index?")
        with st.container(horizontal=True, gap="small"):
            st.button("Remove", key=f"remove-confirmed-{number}", type="primary", on_click=remove, args=(service,))
            st.button("Cancel", key=f"remove-cancelled-{number}", on_click=cancel_remove)


def ask_remove(path: str) -> None:
    st.session_state[REMOVING] = path


def cancel_remove() -> None:
    st.session_state.pop(REMOVING, None)


def remove(service: Application) -> None:
    """Button callback: delete the document waiting for its confirmation, and drop it from the index."""
    path = st.session_state.pop(REMOVING, None)
    if path is None:
        return
    try:
        service.documents.remove(path)
    except (LookupError, OSError) as error:  # a PermissionError too: the user may not remove
        st.toast(escape_markdown(str(error)), icon=":material/error:")
        return
    st.toast(f"Removed {escape_name(path)}.", icon=":material/delete:")


def passages(output: str, key: str = "") -> None:
    """A document search's passages: "spec.pdf, p. 4" (a drawing's "S-101.dxf, layout S-101, title block") above
    the passage's words; with `key` (a stored turn's call), a PDF passage can open its page, the passage marked."""
    try:
        found: dict[str, Any] = json.loads(output)
    except ValueError:
        st.code(output, language=None, wrap_lines=True)
        return
    if found.get("note"):
        st.caption(escape_markdown(str(found["note"])))
    if not found.get("passages"):
        st.caption("No passage matched.")
    for number, passage in enumerate(found.get("passages", [])):
        where = f"p. {passage['page']}" if passage.get("page") else str(passage.get("location", ""))
        st.markdown(f"**{escape_name(str(passage.get('file', '')))}, {escape_markdown(where)}**")
        st.text(str(passage.get("text", "")))
        if key and passage.get("page") and str(passage.get("file", "")).lower().endswith(".pdf"):
            page_view(passage, f"page-{key}-{number}")


def page_view(passage: dict[str, Any], key: str) -> None:
    """A switch that shows the cited page, drawn from the file itself, with the passage marked on it."""
    name, page = str(passage.get("file", "")), int(passage["page"])
    if not st.toggle(f"Show page {page}", key=key, help="The page as it is in the file, the passage marked"):
        return
    text = str(passage.get("text", "")).removesuffix(" …")  # a passage shortened for the model: its start is marked
    try:
        image = tab_service().documents.page_image(name, page, text)
    except (LookupError, ValueError) as error:
        st.caption(escape_markdown(str(error)))
        return
    st.image(image.png, width="stretch")
    marked = "the passage marked" if image.marked else "the passage could not be found in the page's text (a scan?)"
    st.caption(f"{escape_name(name)}, p. {page}: {marked}")
