"""Documents in a real browser: a PDF given to the uploader lands in the workspace folder and is indexed
while the page shows the progress; the panel then lists it with its pages."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from fakes.documents import SPEC_PAGES, write_pdf
from tests.browser.conftest import Browser


def test_an_uploaded_pdf_is_saved_indexed_and_listed(browser: Browser, web_app: str, isolated: Path) -> None:
    source = isolated / "upload" / "spec.pdf"
    source.parent.mkdir()
    write_pdf(source, SPEC_PAGES)
    page = browser.page
    page.goto(web_app)
    page.get_by_text("Documents", exact=True).click()
    page.locator("section[data-testid='stSidebar'] input[type='file']").set_input_files(str(source))
    expect(page.get_by_text("spec.pdf · 6 pages")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("1 indexed in the workspace folder")).to_be_visible()
    assert (isolated / "workspace" / "spec.pdf").read_bytes() == source.read_bytes()
    assert browser.outside_requests == []
