"""The users, for admins (add, role, password, display name, keys, remove; each user's last sign-in), and each user's
own account (display name, password), in place of the conversation. The same rules and audit trail as `python
main.py users`: the application refuses what the user may not do, and the last admin stays an admin.
"""

from __future__ import annotations

import streamlit as st

from app import Application
from domain.accounts import ROLES
from faces.web.markdown import escape_markdown
from faces.web.signing_in import SESSION
from faces.web.state import notify, said, state

PAGE = "side_page"  # which page is open in place of the conversation: "users", "account", "audit", or none
NEW_KEY = "new_api_key"  # (user, key): a key just issued, shown once


def side_page(service: Application) -> str | None:
    """The page open in place of the conversation, if the user may see it now (a role may have changed)."""
    opened = state.get(PAGE)
    if service.user is None or opened not in ("users", "account", "audit"):
        return None
    return opened if opened == "account" or service.access.role == "admin" else None


def side_page_buttons(service: Application) -> None:
    """In the sidebar, with accounts: My account for everyone; Users and Audit trail for admins."""
    if service.user is None:
        return
    page_button("My account", "account", ":material/person:")
    if service.access.role == "admin":
        page_button("Users", "users", ":material/group:")
        page_button("Audit trail", "audit", ":material/fact_check:")


def draw_side_page(service: Application, page: str) -> None:
    from faces.web.audit_view import audit_page

    {"users": users_page, "account": account_page, "audit": audit_page}[page](service)


def page_button(label: str, page: str, icon: str) -> None:
    """A sidebar button that opens (or closes) `page` in place of the conversation."""
    opened = state.get(PAGE) == page
    st.button(
        f"Close {label.lower()}" if opened else label,
        key=f"page-{page}",
        icon=icon,
        on_click=state.__setitem__,
        args=(PAGE, None if opened else page),
        width="stretch",
    )


def users_page(service: Application) -> None:
    """Every user with their role, e-mail, last sign-in and keys; a form to add one; one user's settings."""
    st.subheader("Users", anchor=False)
    people = service.accounts.overview()
    st.dataframe(
        [
            {
                "user": row.user.name,
                "display name": row.user.display_name or "",
                "role": row.user.role,
                "e-mail": row.user.email or "",
                "last sign-in (UTC)": (row.last_sign_in_at or "never")[:16],
                "API keys": row.keys,
            }
            for row in people
        ],
        hide_index=True,
        width="stretch",
    )
    if shown := state.pop(NEW_KEY, None):
        st.success(f"The new API key of {escape_markdown(shown[0])}, shown this once:")
        st.code(shown[1], language=None)
    add_form(service)
    names = [row.user.name for row in people]
    chosen = st.selectbox("Look after", names, key="users-chosen", index=None, placeholder="Choose a user")
    if chosen:
        user_settings(service, chosen)


def add_form(service: Application) -> None:
    with st.form("users-add", clear_on_submit=True, border=True):
        st.caption("Add a user")
        left, right = st.columns(2)
        left.text_input("User name", key="users-add-name", max_chars=64)
        right.text_input("Display name", key="users-add-display", max_chars=100, placeholder="Ann Smith")
        left.text_input("E-mail (for the office account)", key="users-add-email", max_chars=200)
        right.selectbox("Role", ROLES, index=1, key="users-add-role")
        st.text_input("Password", type="password", key="users-add-password", autocomplete="new-password")
        st.form_submit_button("Add user", type="primary", on_click=add_user, args=(service,))


@said
def add_user(service: Application) -> None:
    user = service.accounts.add(
        str(state.get("users-add-name", "")),
        str(state.get("users-add-role", "engineer")),
        str(state.get("users-add-password", "")),
        str(state.get("users-add-email", "")) or None,
        str(state.get("users-add-display", "")) or None,
    )
    notify("success", f"Added {user.name} as {user.role}.")


def user_settings(service: Application, name: str) -> None:
    """One user's role, display name, password, keys and removal."""
    user = service.accounts.user(name)
    with st.container(border=True):
        left, right = st.columns(2)
        role = left.selectbox("Role", ROLES, index=ROLES.index(user.role), key=f"users-role-{name}")
        if role != user.role:
            left.button("Change the role", key=f"users-set-role-{name}", on_click=set_role, args=(service, name, role))
        display = right.text_input("Display name", value=user.display_name or "", key=f"users-display-{name}")
        if display != (user.display_name or ""):
            right.button("Save the display name", key=f"users-set-display-{name}", on_click=set_display,
                         args=(service, name, display))  # fmt: skip
        password = st.text_input("New password", type="password", key=f"users-password-{name}")
        if password:
            st.button("Set the password", key=f"users-set-password-{name}", on_click=set_password,
                      args=(service, name, password))  # fmt: skip
        with st.container(horizontal=True):
            st.button("Issue an API key", key=f"users-key-{name}", on_click=issue_key, args=(service, name))
            st.button("Revoke their keys", key=f"users-revoke-{name}", on_click=revoke, args=(service, name))
            st.button("Remove…", key=f"users-remove-{name}", on_click=state.__setitem__, args=("users-removing", name))
        if state.get("users-removing") == name:
            st.warning(
                f"Remove {escape_markdown(name)}? Their workspaces stay, for admins; their keys and sessions end."
            )
            st.button("Remove", key=f"users-remove-confirmed-{name}", type="primary", on_click=remove,
                      args=(service, name))  # fmt: skip


@said
def set_role(service: Application, name: str, role: str) -> None:
    notify("success", f"{service.accounts.set_role(name, role).name} is now {role}; they sign in again.")


@said
def set_display(service: Application, name: str, display: str) -> None:
    shown = service.accounts.set_display_name(name, display).shown_as
    notify("success", f"{name} is now shown as {shown}.")


@said
def set_password(service: Application, name: str, password: str) -> None:
    service.accounts.set_password(name, password)
    notify("success", f"Set the password of {name}; they sign in again with it.")


@said
def issue_key(service: Application, name: str) -> None:
    state[NEW_KEY] = (name, service.accounts.issue_key(name))


@said
def revoke(service: Application, name: str) -> None:
    count = service.accounts.revoke_keys(name)
    notify("success", f"Revoked {count} key{'s' * (count != 1)} of {name}.")


@said
def remove(service: Application, name: str) -> None:
    state.pop("users-removing", None)
    service.accounts.remove(name)
    notify("success", f"Removed {name}.")


def account_page(service: Application) -> None:
    """The signed-in user's own account: the name packages show for them, and their password."""
    user = service.user
    if user is None:
        return
    st.subheader("My account", anchor=False)
    st.caption(
        f"{escape_markdown(user.name)} · {user.role}" + (f" · {escape_markdown(user.email)}" if user.email else "")
    )
    with st.form("account-display", border=True):
        st.text_input("Display name (on packages and in the audit trail)", value=user.display_name or "",
                      key="account-display-name", max_chars=100)  # fmt: skip
        st.form_submit_button("Save", on_click=save_display, args=(service,))
    with st.form("account-password", clear_on_submit=True, border=True):
        st.text_input("Current password", type="password", key="account-current", autocomplete="current-password")
        st.text_input("New password", type="password", key="account-new", autocomplete="new-password")
        st.text_input("The new password again", type="password", key="account-again", autocomplete="new-password")
        st.form_submit_button("Change my password", type="primary", on_click=change_password, args=(service,))


@said
def save_display(service: Application) -> None:
    user = service.user
    if user is not None:
        shown = service.accounts.set_display_name(user.name, str(state.get("account-display-name", ""))).shown_as
        notify("success", f"You are shown as {shown}.")


@said
def change_password(service: Application) -> None:
    new = str(state.get("account-new", ""))
    if new != str(state.get("account-again", "")):
        raise ValueError("The two new passwords differ; nothing was changed.")
    service.accounts.change_own_password(str(state.get("account-current", "")), new)
    if service.user is not None:  # every session ended with the old password: this tab signs in at once again
        state[SESSION] = service.accounts.start_session(service.user)
    notify("success", "Your password is changed; other browsers signed in as you sign in again.")
