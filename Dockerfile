# The web app for one office server. Build and run with docker-compose.yml (it adds Ollama).
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CHAT_HISTORY_DB_PATH=/data/chat_history.sqlite \
    WORKSPACE_ROOT=/data/workspace

# Tesseract reads scanned PDFs by OCR (offline; English, the language the app reads scans in).
RUN apt-get update \
    && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 app && mkdir -p /data/workspace && chown -R app /data

WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY --chown=app . .

USER app
VOLUME ["/data"]
EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"

# Inside the container the app listens on all interfaces so that the reverse proxy reaches it; with AUTH=accounts
# (as docker-compose.yml sets it) everyone signs in first. Without accounts it refuses to serve 0.0.0.0 unless
# ALLOW_UNAUTHENTICATED_NETWORK_ACCESS=true says the risk is accepted.
CMD ["streamlit", "run", "streamlit_app.py", "--server.address=0.0.0.0"]
