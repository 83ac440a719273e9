"""The web face: `streamlit run streamlit_app.py` (the face itself lives in `faces/web`).

The server imports this file for `app` (Streamlit's ASGI app, with the page's
security headers from `faces/web/headers.py` and the sign-in session's cookie route from
`faces/web/session_cookie`); each run of each tab then runs it
as the page script, which draws the page.
"""

import streamlit as st
from starlette.middleware import Middleware
from starlette.routing import Route
from streamlit.runtime.scriptrunner import get_script_run_ctx

from faces.web import session_cookie
from faces.web.client_address import ClientAddress
from faces.web.exposure import check_exposure
from faces.web.headers import SecurityHeaders

if get_script_run_ctx(suppress_warning=True) is None:  # imported by the server
    trusted = check_exposure()  # without accounts, this computer only unless the risk is accepted
    app = st.App(
        __file__,
        middleware=[Middleware(ClientAddress, trusted=trusted), Middleware(SecurityHeaders)],
        routes=[Route(session_cookie.ROUTE, session_cookie.route, methods=["POST", "DELETE"])],
    )
else:  # a run of the page
    from faces.web.page import main

    main()
