"""Calculation packages in the faces: the real CLI's commands, `python main.py verify`, and the web app's menu."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fakes.ollama import FakeOllama, Reply
from tests.cli_helpers import run_cli
from tests.package_helpers import PREPARER, STEEL, WORKSPACE, pages, service, text_of, three_calculations


def cli(fake: FakeOllama, engineer: str, typed: str) -> tuple[int, str]:
    result = run_cli("--server", fake.url, stdin=typed, env={"ENGINEER_NAME": engineer}, timeout=60)
    return result.returncode, result.stdout


async def issued_revision_a(fake: FakeOllama, folder: Path) -> Path:
    spaces = service(fake, folder)
    chat_id = await three_calculations(spaces, fake)
    spaces.packages.sign_off(chat_id, "checked", spaces.packages.signer().model_copy(update={"name": "Ben Checker"}))
    spaces.packages.sign_off(chat_id, "approved", spaces.packages.signer().model_copy(update={"name": "Cara Approver"}))
    issued = folder / "issued.pdf"
    spaces.packages.write(chat_id, issued)
    spaces.close()
    return issued


def test_the_cli_writes_the_package_signs_it_off_and_lists_the_revisions(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.script(Reply.tool_calls(STEEL), Reply.text("It fails."))
    code, out = cli(
        fake_ollama,
        PREPARER,
        f"/new {WORKSPACE}\nIs a W12x26 OK over 35 ft?\n/project number P-2041\n/project name Riverside Offices\n"
        "/report draft.pdf\n/signoff checked\n/revisions\n/exit\n",
    )
    assert code == 0
    assert "number       P-2041" in out and "name         Riverside Offices" in out
    assert "Wrote revision A of the calculation package (draft) to draft.pdf." in out
    assert "Ana Preparer prepared calculations in revision A, and the checker may not be the preparer" in out
    assert "* Revision A — draft · 1 calculation" in out
    assert "Riverside Offices (P-2041)" in pages((isolated / "draft.pdf").read_bytes())[1]

    code, out = cli(fake_ollama, "Ben Checker", "/signoff checked Checked against S-301\n/revisions\n/exit\n")
    assert "Revision A checked by Ben Checker; it is ready for approval." in out
    assert "You (Ben Checker) may sign it off now: /signoff approved." in out
    code, out = cli(
        fake_ollama, "Cara Approver", "/signoff approved\n/revisions\n/report a.pdf A\n/report c.md\n/exit\n"
    )
    assert code == 0 and "Revision A approved by Cara Approver; issued with SHA-256 " in out
    sha = out.split("issued with SHA-256 ", 1)[1][:64]
    assert "  A  approved by Cara Approver" in out and f"SHA-256 {sha}" in out.split("/revisions", 1)[-1]
    assert f"Wrote revision A as issued to a.pdf (SHA-256 {sha})." in out
    assert "Wrote the calculation report to c.md." in out, "a .md name keeps the Markdown report"
    assert "Checked against S-301" in text_of((isolated / "a.pdf").read_bytes())
    code, out = cli(fake_ollama, "Cara Approver", "/report b.pdf B\n/signoff approved again\n/signoff maybe\n/exit\n")
    assert "There is no issued revision B of this package (issued: A)." in out
    assert "Revision A is already approved (by Cara Approver" in out
    assert "Use /signoff checked [NOTE] or /signoff approved [NOTE]." in out


async def test_verify_names_the_workspace_and_revision_of_an_issued_pdf_and_refuses_a_changed_byte(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    issued = await issued_revision_a(fake_ollama, isolated)
    result = run_cli("verify", str(issued))
    assert result.returncode == 0, result.stderr
    assert f"is revision A of the calculation package of workspace '{WORKSPACE}', approved by Cara Approver" in (
        result.stdout
    )
    changed = bytearray(issued.read_bytes())
    changed[len(changed) // 2] ^= 0x01
    tampered = isolated / "tampered.pdf"
    tampered.write_bytes(bytes(changed))
    result = run_cli("verify", str(tampered))
    assert result.returncode == 1
    assert "matches no calculation package issued here" in result.stdout
    result = run_cli("verify", str(isolated / "missing.pdf"))
    assert result.returncode == 2 and "cannot be read" in result.stderr


async def test_the_web_menu_shows_only_the_sign_off_its_user_may_take(
    fake_ollama: FakeOllama, isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spaces = service(fake_ollama, isolated)
    chat_id = await three_calculations(spaces, fake_ollama)
    spaces.close()
    monkeypatch.setenv("ENDPOINT", fake_ollama.url)

    def page(engineer: str) -> AppTest:
        monkeypatch.setenv("ENGINEER_NAME", engineer)
        at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "streamlit_app.py"), default_timeout=30)
        at.run()
        assert not [b for b in at.button if b.key.startswith("signoff-")], "nothing is read until asked for"
        at.button(key=f"package-{chat_id}").click().run()
        assert not at.exception
        return at

    def signoff_buttons(at: AppTest) -> list[str]:
        return [b.key for b in at.button if b.key and b.key.startswith("signoff-")]

    at = page(PREPARER)
    assert signoff_buttons(at) == [], "the preparer has no button to check their own calculations"
    assert any("may not be the preparer" in c.value for c in at.caption)
    assert any(d.label == "Package (PDF)" for d in at.get("download_button")), "the draft can be downloaded"
    at.text_input(key=f"project-client-{chat_id}").set_value("Harbour Ltd")
    at.button(key=f"FormSubmitter:project-form-{chat_id}-Save project details").click().run()

    at = page("Ben Checker")
    assert signoff_buttons(at) == [f"signoff-checked-{chat_id}"]
    at.text_input(key=f"signoff-note-{chat_id}").set_value("Checked against S-301")
    at.button(key=f"signoff-checked-{chat_id}").click().run()
    assert any("Revision A checked by Ben Checker" in s.value for s in at.success)
    assert signoff_buttons(at) == [f"signoff-approved-{chat_id}"], "once checked, only approval is left"
    at.button(key=f"signoff-approved-{chat_id}").click().run()
    assert any(
        "Revision A approved by Ben Checker; issued with SHA-256" in s.value.replace("\\", "") for s in at.success
    )
    assert signoff_buttons(at) == [] and any("already approved" in c.value for c in at.caption)
    assert any(d.label == "Revision A as issued (PDF)" for d in at.get("download_button"))
    reopened = service(fake_ollama, isolated)
    status = reopened.packages.status(chat_id, reopened.packages.signer())
    assert [(r.letter, r.status, r.checked_by, r.checked_note) for r in status.revisions] == [
        ("A", "approved", "Ben Checker", "Checked against S-301")
    ]
    assert reopened.packages.project_details(chat_id).client == "Harbour Ltd"
