"""The floor of the browser benchmark: a trivial Streamlit page, one button and one line of text.

    streamlit run bench/trivial_page.py

What the framework itself costs a click and a page load on this machine; the
application's own times are shown beside it as ratios.
"""

import streamlit as st

st.session_state.clicks = st.session_state.get("clicks", 0) + int(st.button("Click"))
st.write(f"Clicked {st.session_state.clicks} times")
