"""The web face (Streamlit): `streamlit run streamlit_app.py`.

Everything per user lives in `st.session_state`: each browser tab has its own
application service (its own store connection and agent) and event loop; the one
thing the tabs share is the record of replies being written (`background.py`). No
user, model or file text is ever rendered as HTML.
"""
