"""The web face: `streamlit run streamlit_app.py` (the face itself lives in `faces/web`)."""

from faces.web.page import main

main()
