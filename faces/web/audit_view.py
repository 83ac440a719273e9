"""The audit trail, for admins: filtered by user, workspace and time, shown as a table, downloaded as CSV.

The application refuses the records to anyone but an admin; the button is only drawn for admins too.
"""

from __future__ import annotations

import csv
import io

import streamlit as st

from app import Application, record_as_json
from domain.accounts import AuditRecord
from faces.web.markdown import sentence_markdown

SHOWN_RECORDS = 10_000
COLUMNS = ("record_id", "at", "user_name", "action", "chat_id", "workspace_name", "detail", "prev_hash", "hash")


def audit_page(service: Application) -> None:
    """The filters, whether the chain holds, the records and their CSV."""
    st.subheader("Audit trail", anchor=False)
    left, middle, right = st.columns(3)
    user = left.text_input("User", key="audit-user", placeholder="Every user").strip()
    workspace = middle.text_input("Workspace", key="audit-workspace", placeholder="Name or id").strip()
    since = right.text_input("Since", key="audit-since", placeholder="2026-01-31 or 2026-01-31T08:00").strip()
    try:
        chat_id = service.sharing.workspace(workspace).chat_id if workspace else None
        records = service.audit.records(user or None, chat_id, since or None, SHOWN_RECORDS)
    except (LookupError, ValueError) as error:
        st.warning(sentence_markdown(str(error)), icon=":material/search_off:")
        return
    check = service.audit.verify(from_checked=True)  # the records since the last check, not the whole chain
    if check.intact:
        since = f" (records after {check.checked_from} checked now)" if check.checked_from else ""
        st.caption(f"The chain of {check.records} records is intact{since}; `python main.py audit verify` checks all.")
    else:
        st.error(sentence_markdown(check.said), icon=":material/error:")
    st.download_button(
        "Download as CSV",
        data=as_csv(records),
        file_name="audit-trail.csv",
        mime="text/csv",
        key="audit-csv",
        icon=":material/download:",
        on_click="ignore",
    )
    people = {user.name: user.shown_as for user in service.accounts.users()}
    st.dataframe(
        [
            {**{name: row[name] for name in COLUMNS[:3]}, "shown as": people.get(row["user_name"], row["user_name"]),
             **{name: row[name] for name in COLUMNS[3:7]}}
            for row in map(record_as_json, records)
        ],
        hide_index=True,
        width="stretch",
    )  # fmt: skip


def as_csv(records: list[AuditRecord]) -> str:
    """The records as CSV, one a row, with a header; a cell that a spreadsheet would run as a formula starts
    with an apostrophe."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for record in records:
        row = record_as_json(record)
        writer.writerow([inert(row[name]) for name in COLUMNS])
    return out.getvalue()


def inert(value: object) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
