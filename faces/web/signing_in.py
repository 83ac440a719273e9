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
from faces.web import session_cookie
from faces.web.markdown import escape_markdown, sentence_markdown

logger = logging.getLogger(__name__)

SIGN_IN_FORM = "sign-in"
SIGN_IN_PROBLEM = "sign_in_problem"  # why the tab is signed out, shown with the form until someone signs in
OFFICE_REFUSAL = "office_refusal"  # (e-mail, sentence): the office account's e-mail no user here has
SESSION = "session_token"  # the tab's sign-in session, kept in the browser's cookie as well
FORGET_COOKIE = "forget_session_cookie"  # signed out: the browser's cookie is to be taken out
COOKIE_SPENT = "session_cookie_spent"  # the cookie this tab connected with was ended: never read it again


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


def signed_in_user(base: Application) -> User:
    """The user this tab acts for: the session it (or the browser's cookie) holds, as the user is now; else the
    sign-in page until someone signs in (the page's run stops there meanwhile)."""
    cookie = "" if st.session_state.get(COOKIE_SPENT) else session_cookie.from_browser()
    token = st.session_state.get(SESSION) or cookie
    if token:
        try:
            user = base.accounts.resume(token)
        except SignInError as ended:  # signed out elsewhere, a password or role changed, expired
            st.session_state.pop(SESSION, None)
            st.session_state[SIGN_IN_PROBLEM] = str(ended)
            st.session_state[FORGET_COOKIE] = st.session_state[COOKIE_SPENT] = True
        else:
            st.session_state[SESSION] = token
            return user
    return sign_in_page(base)


def session_still_stands(view: Application) -> None:
    """At every run: the tab's session (or office account) still stands, with the user's role as it was; else
    the user is signed out with the sentence that says why (at once, even on a page that was open)."""
    token = st.session_state.get(SESSION)
    try:
        now = view.accounts.resume(token) if token else None
        role = now.role if now is not None else view.access.role
    except SignInError as ended:
        sign_out(str(ended))
        st.rerun()
    if view.user is not None and role != view.user.role:  # an office account's role changed: opened again
        st.session_state.pop("service", None)
        st.rerun()


def sign_in_page(base: Application) -> User:
    """The sign-in page until someone signs in, then the user (the page's run stops here meanwhile)."""
    office = single_sign_on_ready()
    user = office_account(base) if office else None
    if user is not None:
        st.session_state.pop(SIGN_IN_PROBLEM, None)
        return user
    st.title("Engineering assistant", anchor=False)
    if problem := st.session_state.get(SIGN_IN_PROBLEM):  # kept across the form's own reruns
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
    if st.session_state.pop(FORGET_COOKIE, False):
        session_cookie.keep("")
    if pressed:
        try:
            user = base.accounts.sign_in(name, password, client_address())
        except SignInError as error:  # the same sentence for a wrong password and an unknown user
            st.error(sentence_markdown(str(error)), icon=":material/error:")
        else:  # a session the browser keeps: a reload, a bookmark or another tab stays signed in
            st.session_state.pop(SIGN_IN_PROBLEM, None)
            st.session_state[SESSION] = base.accounts.start_session(user)
            st.rerun()  # the app is drawn on a page of its own, not below the form
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
        return base.accounts.sign_in_by_email(email, {key: st.user.get(key) for key in st.user})
    except SignInError as error:
        st.session_state[OFFICE_REFUSAL] = (email, str(error))
        return None


def office_refusal() -> tuple[str, str] | None:
    """The e-mail the office account has and why no user here was signed in with it (None: no refusal)."""
    refused = st.session_state.get(OFFICE_REFUSAL)
    return refused if refused is not None and st.user.get("is_logged_in", False) else None


def signed_in_bar(view: Application) -> None:
    """In the sidebar: who is signed in, with which role, and Sign out (and the browser's session cookie)."""
    user = view.user
    if user is None:
        return
    if token := st.session_state.get(SESSION):
        session_cookie.keep(token)
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.caption(f"Signed in as **{escape_markdown(user.name)}** · {user.role}")
        st.button("Sign out", key="sign-out", icon=":material/logout:", on_click=sign_out, type="tertiary")


def sign_out(problem: str | None = None) -> None:
    """End the session (in every tab of this browser), forget the tab's application and everything it showed;
    the next run shows the sign-in page and takes the session out of the browser's cookie."""
    loop = st.session_state.get("loop")
    token, view = st.session_state.get(SESSION), st.session_state.get("service")
    if token and view is not None:
        view.accounts.end_session(token)
    st.session_state.clear()
    # the cookie the tab connected with is read once: from now on it is taken out, and never read again here
    st.session_state[FORGET_COOKIE] = st.session_state[COOKIE_SPENT] = True
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
