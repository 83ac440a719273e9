"""The calculation package in the open workspace's menu: the PDF of the current revision and of each issued one,
the project details on its cover, and the sign-off steps ENGINEER_NAME may take now (only those are shown).

It is drawn only once asked for ("Calculation package…"), so the page does not read the workspace's records
on every run.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from app import Application
from domain.packages import ProjectDetails, SignoffStep
from faces.web.markdown import escape_markdown
from faces.web.state import notify, said, state

OPEN = "package_menu_open"  # the workspace whose menu shows its package
STEP_BUTTONS: dict[SignoffStep, tuple[str, str]] = {
    "checked": ("Sign off as checked", ":material/fact_check:"),
    "approved": ("Approve and issue", ":material/verified:"),
}
DETAIL_LABELS = {"project_name": "Project", "project_number": "Project number", "client": "Client",
                 "description": "Description"}  # fmt: skip


def package_section(service: Application, chat_id: int, may_change: bool) -> None:
    if state.get(OPEN) != chat_id:
        st.button(
            "Calculation package…",
            key=f"package-{chat_id}",
            icon=":material/picture_as_pdf:",
            on_click=state.__setitem__,
            args=(OPEN, chat_id),
            width="stretch",
        )
        return
    status = service.packages.status(chat_id, service.packages.signer())
    count = status.calculations
    st.caption(escape_markdown(f"{status.label} · {count} calculation{'s' * (count != 1)}"))
    st.download_button(
        "Package (PDF)" if status.status != "approved" else f"Revision {status.letter} as issued (PDF)",
        key=f"package-pdf-{chat_id}",
        icon=":material/picture_as_pdf:",
        file_name=f"package-{chat_id}-{status.letter}.pdf",
        data=partial(pdf_bytes, service, chat_id, None),
        mime="application/pdf",
        on_click="ignore",
        width="stretch",
    )
    for revision in status.revisions:
        if revision.status == "approved" and revision.letter != status.letter:
            st.download_button(
                f"Revision {revision.letter} as issued (PDF)",
                key=f"package-pdf-{chat_id}-{revision.letter}",
                file_name=f"package-{chat_id}-{revision.letter}.pdf",
                data=partial(pdf_bytes, service, chat_id, revision.letter),
                mime="application/pdf",
                on_click="ignore",
                width="stretch",
            )
    if may_change:  # a reader downloads; signing and the project details are for those who may change
        why_not = status.refusals.get("checked" if status.status == "draft" else "approved")
        signoff_steps(service, chat_id, status.allowed, why_not)
        project_form(service, chat_id)
    else:
        project_details(service, chat_id)
    st.button("Close package", key=f"package-closed-{chat_id}", on_click=state.pop, args=(OPEN, None))


def pdf_bytes(service: Application, chat_id: int, letter: str | None) -> bytes:
    return service.packages.pdf(chat_id, letter).data


def signoff_steps(service: Application, chat_id: int, allowed: tuple[SignoffStep, ...], why_not: str | None) -> None:
    """A note and a button for each step the signer may take now; otherwise the sentence that says why not."""
    if not allowed:
        if why_not:
            st.caption(escape_markdown(why_not))
        return
    st.text_input("Sign-off note (optional)", key=f"signoff-note-{chat_id}", max_chars=1000)
    for step in allowed:
        label, icon = STEP_BUTTONS[step]
        st.button(label, key=f"signoff-{step}-{chat_id}", icon=icon, type="primary", on_click=sign_off,
                  args=(service, chat_id, step), width="stretch")  # fmt: skip


@said
def sign_off(service: Application, chat_id: int, step: SignoffStep) -> None:
    note = str(state.pop(f"signoff-note-{chat_id}", "") or "")
    notify("success", service.packages.sign_off(chat_id, step, service.packages.signer(), note))


def project_form(service: Application, chat_id: int) -> None:
    """The project details printed on the package's cover, edited in place."""
    details = service.packages.project_details(chat_id)
    with st.form(f"project-form-{chat_id}", border=False):
        for name, label in DETAIL_LABELS.items():
            st.text_input(label, value=getattr(details, name), max_chars=500, key=f"project-{name}-{chat_id}")
        st.form_submit_button("Save project details", on_click=save_details, args=(service, chat_id))


def project_details(service: Application, chat_id: int) -> None:
    """The project details on the cover, to read."""
    details = service.packages.project_details(chat_id)
    shown = [f"{label}: {getattr(details, name)}" for name, label in DETAIL_LABELS.items() if getattr(details, name)]
    st.caption(escape_markdown(" · ".join(shown) or "No project details yet."))


@said
def save_details(service: Application, chat_id: int) -> None:
    fields = {name: str(state.get(f"project-{name}-{chat_id}", "")) for name in DETAIL_LABELS}
    service.packages.project_details(chat_id, ProjectDetails.model_validate(fields))
