"""Signing in with AUTH=accounts: the sign-in page (name and password, or the office account through
Streamlit's `st.login` where `.streamlit/secrets.toml` has its `[auth]` settings), who is signed in, and
signing out.

The tab's application is then the one opened for that user (`Application.for_user`), fixed for the tab's
life until Sign out: every check of what the user may see and do is made there, not here.
"""

from __future__ import annotations

import importlib.util
import logging

import streamlit as st

from app import Application, SignInError, User
from faces.web.markdown import escape_markdown, sentence_markdown

logger = logging.getLogger(__name__)

SIGN_IN_FORM = "sign-in"
SIGN_IN_PROBLEM = "sign_in_problem"  # the sentence of a sign-in that failed, shown on the next page
OFFICE_REFUSAL = "office_refusal"  # (e-mail, sentence): the office account's e-mail no user here has


def client_address() -> str:
    """The address the browser connects from, as Streamlit knows it ("" when it does not: the tests' runner)."""
    address = getattr(st.context, "ip_address", None)
    return str(address) if address else ""


def single_sign_on_ready() -> bool:
    """Whether `st.login` can work: `[auth]` is in `.streamlit/secrets.toml` and Authlib is installed."""
    if importlib.util.find_spec("authlib") is None:
        return False
    try:
        return "auth" in st.secrets
    except Exception:  # noqa: BLE001 - no secrets file, or one Streamlit cannot read: no single sign-on
        return False


def sign_in_page(base: Application) -> User:
    """The sign-in page until someone signs in, then the user (the page's run stops here meanwhile)."""
    office = single_sign_on_ready()
    user = office_account(base) if office else None
    if user is not None:
        return user
    st.title("Engineering assistant", anchor=False)
    if problem := st.session_state.pop(SIGN_IN_PROBLEM, None):
        st.error(sentence_markdown(problem), icon=":material/error:")
    refusal = office_refusal() if office else None
    if refusal is not None:
        email, sentence = refusal
        st.error(sentence_markdown(sentence), icon=":material/error:")
        st.caption(f"The office account you are signed in with is {escape_markdown(email or 'without an e-mail')}.")
    with st.form(SIGN_IN_FORM, clear_on_submit=True, width=420):
        st.subheader("Sign in", anchor=False)
        name = st.text_input("User name", key="sign-in-name", max_chars=200, autocomplete="username")
        password = st.text_input("Password", type="password", key="sign-in-password", autocomplete="current-password")
        pressed = st.form_submit_button("Sign in", type="primary")
    if pressed:
        try:
            return base.accounts.sign_in(name, password, client_address())
        except SignInError as error:  # the same sentence for a wrong password and an unknown user
            st.error(sentence_markdown(str(error)), icon=":material/error:")
    if refusal is not None:  # to try another office account
        st.button("Sign out of the office account", key="sign-out-office", icon=":material/badge:", on_click=st.logout)
    elif office:
        st.button("Sign in with the office account", key="sign-in-office", icon=":material/badge:", on_click=st.login)
    st.stop()
    raise AssertionError("st.stop ends the run")  # pragma: no cover


def office_account(base: Application) -> User | None:
    """The local user whose e-mail the office's identity provider vouched for (None: not signed in there, or
    no user here has that e-mail: then `office_refusal` says so).

    A refusal is kept in the tab and shown with the form rather than signing out of the office account at
    once: signing out starts a new page, which would lose the sentence. The tab asks (and the audit trail
    records a failed sign-in) once per e-mail, not at every rerun of the form."""
    if not st.user.get("is_logged_in", False):
        return None
    email = st.user.get("email")
    email = email if isinstance(email, str) else ""
    refused = st.session_state.get(OFFICE_REFUSAL)
    if refused is not None and refused[0] == email:
        return None
    try:
        return base.accounts.sign_in_by_email(email)
    except SignInError as error:
        st.session_state[OFFICE_REFUSAL] = (email, str(error))
        return None


def office_refusal() -> tuple[str, str] | None:
    """The e-mail the office account has and why no user here was signed in with it (None: no refusal)."""
    refused = st.session_state.get(OFFICE_REFUSAL)
    return refused if refused is not None and st.user.get("is_logged_in", False) else None


def signed_in_bar(view: Application) -> None:
    """In the sidebar: who is signed in, with which role, and Sign out."""
    user = view.user
    if user is None:
        return
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.caption(f"Signed in as **{escape_markdown(user.name)}** · {user.role}")
        st.button("Sign out", key="sign-out", icon=":material/logout:", on_click=sign_out, type="tertiary")


def sign_out(problem: str | None = None) -> None:
    """Forget the tab's application and everything it showed; the next run shows the sign-in page."""
    loop = st.session_state.get("loop")
    st.session_state.clear()
    if loop is not None and not loop.is_running():
        loop.close()
    if problem:
        st.session_state[SIGN_IN_PROBLEM] = problem
    if single_sign_on_ready() and st.user.get("is_logged_in", False):
        st.logout()


def read_only(view: Application) -> str | None:
    """Why the signed-in user may only read the open workspace (None: they may ask in it)."""
    if view.user is None:
        return None
    if view.access.role == "viewer":
        return "Your role is viewer: you can read the workspaces shared with you, but not ask in them."
    chat_id = view.workspaces.current_id
    if chat_id is not None and view.access.grant(chat_id) == "viewer":
        return "This workspace is shared with you to read only; ask its owner to share it with you as editor."
    return None
