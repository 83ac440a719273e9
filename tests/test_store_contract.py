"""The store's contract: every operation the application's ports name, run on SQLite and on PostgreSQL with the same
expectations. A port method this file does not call fails `test_every_port_operation_is_in_the_contract`, so a new
operation cannot reach one backend untried (the package sign-off's `status` was ambiguous on PostgreSQL alone)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import app.ports
from domain.accounts import EVERYONE
from domain.packages import PackageRevision, ProjectDetails, SheetEntry
from domain.records import CleanImage, DocumentFile, FinishedTurn, Passage, ToolCall
from fakes.ollama import wait_until
from history import ChatHistoryDB, HistoryError
from tests.stores import raw_write


@pytest.fixture
def db(store_target: str) -> Iterator[ChatHistoryDB]:
    store = ChatHistoryDB(store_target)
    yield store
    store.close()


def _turn(db: ChatHistoryDB, chat: int, question: str, answer: str = "An answer.", **fields: object) -> int:
    return db.store_turn(FinishedTurn(chat_id=chat, user=question, assistant=answer, **fields))  # type: ignore[arg-type]


def test_workspaces(db: ChatHistoryDB) -> None:
    ann = db.add_user("ann", "engineer", "h")
    first = db.create_chat("Bridge", owner=ann)
    second = db.create_chat("Tower")
    db.rename_chat(second, "Tower B")
    db.set_chat_agent(second, "steel-designer")
    assert [c.chat_name for c in db.recent_chats()] == ["Tower B", "Bridge"]
    assert [c[1] for c in db.list_chats()] == ["Tower B", "Bridge"] and db.count_chats() == 2
    assert [c.chat_id for c in db.recent_chats(viewer=ann)] == [first] and db.count_chats(viewer=ann) == 1
    found = db.get_chat(second)
    assert found is not None and found.agent == "steel-designer"
    assert db.find_chat("tower b") == found and db.find_chat(str(first)) == db.get_chat(first)
    assert db.find_chat("Tower B", viewer=ann) is None, "one the user may not see is not found"
    numbered = db.create_chat(str(first))  # a workspace whose name is another's id
    assert [chat.chat_id for chat in db.find_chats(str(first))] == [first, numbered], "the id's first"
    assert [chat.chat_id for chat in db.find_chats(str(first), by="id")] == [first]
    assert [chat.chat_id for chat in db.find_chats(str(first), by="name")] == [numbered]
    assert db.find_chats(str(first), viewer=ann, by="name") == [], "only what the user may see"
    db.delete_chat(numbered)
    assert [chat.chat_id for chat in db.chats_named("Bridge")] == [first] and db.chats_named("bridge") == []
    assert db.find_empty_chat("Bridge", owner=ann) == db.get_chat(first)
    assert db.workspace_access(first, ann).grant == "owner" and db.workspace_access(second, ann).grant is None
    _turn(db, first, "Span?")
    assert db.find_empty_chat("Bridge") is None, "a workspace with a turn is not empty"
    assert [hit.chat_id for hit in db.search_chats("span")] == [first]
    assert db.search_chats("span", viewer=db.add_user("bob", "engineer", "h")) == []
    db.clear_history(first)
    assert db.count_turns(first) == 0
    db.delete_chat(second)
    assert db.get_chat(second) is None and db.user_by_id(ann) is not None


def test_turns(db: ChatHistoryDB) -> None:
    chat = db.create_chat("Bridge")
    db.check_writable()
    running = db.begin_turn(chat, "Span?", "qwen3:4b", "ann")
    assert running is not None
    db.set_running_server(running, "http://gpu1:11434")
    assert db.busy_servers() == {}, "this store's own running turns are not another process's"
    call = ToolCall(id="c1", name="evaluate_quantity", arguments={"expression": "2 m"}, output="2 m")
    first = _turn(db, chat, "Span?", "12 m.", tool_calls=(call,), model="qwen3:4b", asked_by="ann", running_id=running)
    assert db.add_to_history(chat, "Load?", "5 kN/m.", model="llama3") > first  # the first version's call
    turns = db.get_turns(chat)
    assert [t.user for t in turns] == ["Span?", "Load?"] and turns[0].tool_calls[0].output == "2 m"
    assert turns[0].asked_by == "ann" and db.count_turns(chat) == 2
    assert [t.turn_id for t in db.iter_turns(chat, batch=1)] == [t.turn_id for t in turns]
    assert db.load_recent_history(chat, 1) == [("Load?", "5 kN/m.")]
    assert db.tools_used_recently(chat, 2) == {"evaluate_quantity"} and db.tools_used_recently(chat, 1) == set()
    assert db.has_turns_before(chat, turns[1].turn_id) and not db.has_turns_before(chat, turns[0].turn_id)
    assert db.has_answered_turns(chat) and sorted(db.turn_models(chat)) == ["llama3", "qwen3:4b"]
    db.supersede_turn(turns[1].turn_id)
    assert db.get_turns(chat)[-1].status == "superseded"
    with db.unit_of_work():
        _turn(db, chat, "In the unit?")
    assert db.count_turns(chat) == 3
    cut = db.begin_turn(chat, "During an outage?", "qwen3:4b")
    db.store_turn_when_back(FinishedTurn(chat_id=chat, user="During an outage?", assistant="Half", status="stopped",
                                         running_id=cut))  # fmt: skip
    assert wait_until(lambda: db.count_turns(chat) == 4, timeout=30), "stored at the store's next round"
    assert db.get_turns(chat)[-1].assistant == "Half" and db.busy_servers() == {}


def test_one_turn_at_a_time_in_a_workspace(db: ChatHistoryDB, store_target: str) -> None:
    chat, other_chat = db.create_chat("Bridge"), db.create_chat("Tower")
    running = db.begin_turn(chat, "Span?", "qwen3:4b", "ann")
    assert running is not None
    found = db.running_turn(chat)
    assert found is not None and (found.running_id, found.question, found.asked_by) == (running, "Span?", "ann")
    other = ChatHistoryDB(store_target)  # another process on the same store
    try:
        assert other.begin_turn(chat, "Load?", "qwen3:4b", "bob") is None, "one turn at a time in a workspace"
        assert db.begin_turn(chat, "Again?") is None, "even of the same store"
        assert other.begin_turn(other_chat, "Height?") is not None, "turns in other workspaces run at once"
        _turn(db, chat, "Span?", "12 m.", running_id=running)
        assert db.running_turn(chat) is None
        assert other.begin_turn(chat, "Load?", "qwen3:4b", "bob") is not None, "free once the answer is stored"
    finally:
        other.close()


def test_notifications_and_what_a_page_watches(db: ChatHistoryDB) -> None:
    ann, bob = db.add_user("ann", "engineer", "h"), db.add_user("bob", "engineer", "h")
    chat = db.create_chat("Bridge", owner=ann)
    seen = db.page_activity(chat, ann)
    assert seen.seen and seen.turns == 0 and seen.running_id is None
    assert not db.page_activity(chat, bob).seen, "a workspace bob may not see reads as none"
    assert db.page_activity(chat, None).seen, "without accounts every workspace is seen"
    db.notify([bob, bob], "Ann shared Bridge with you.", chat, "share")
    (note,) = db.notifications(bob)
    assert note.text == "Ann shared Bridge with you." and note.chat_id == chat and db.notifications(ann) == []
    assert db.page_activity(None, bob).notifications == 1 and db.page_activity(None, bob).latest_notification
    running = db.begin_turn(chat, "Span?", asked_by="ann")
    assert db.page_activity(chat, ann) != seen and db.page_activity(chat, ann).running_id == running
    _turn(db, chat, "Span?", running_id=running)
    after = db.page_activity(chat, ann)
    assert after.running_id is None and after.turns == 1 and after.activity > seen.activity
    db.add_file_edit(chat, "notes.txt", None, b"new", "proposed")
    assert db.page_activity(chat, ann).proposed_edits == 1
    assert not db.dismiss_notification(note.notification_id, ann), "only one's own"
    assert db.dismiss_notification(note.notification_id, bob) and db.notifications(bob) == []
    db.notify([ann], "An edit waits for your approval.", chat, "file edit 1")
    assert db.clear_notifications(chat, "file edit 1") == 1 and db.notifications(ann) == []


def test_summaries_and_leases(db: ChatHistoryDB, store_target: str) -> None:
    chat = db.create_chat("Bridge")
    _turn(
        db,
        chat,
        "Span?",
        tool_calls=(ToolCall(name="evaluate_quantity", arguments={"expression": "12 m"}, output="12 m"),),
    )
    assert db.count_unsummarised_turns(chat) == 1
    turns, pending = db.turns_since_summary(chat, 10)
    assert not turns[-1].tool_calls and not turns[-1].images, "a summary reads questions and answers only"
    db.set_context_summary(chat, "A 12 m bridge.", through_turn_id=turns[-1].turn_id)
    assert pending == 1 and db.count_unsummarised_turns(chat) == 0
    found = db.get_chat(chat)
    assert found is not None and found.context_summary == "A 12 m bridge."
    assert db.claim("summary 1") and db.claim("summary 1"), "a claim is held by its store, again and again"
    other = ChatHistoryDB(store_target)
    try:
        assert not other.claim("summary 1")
        other.set_running_server(other.begin_turn(chat, "Load?") or 0, "http://gpu2:11434")
        assert db.busy_servers() == {"http://gpu2:11434": 1}, "another process's turn on gpu2"
        db.release("summary 1")
        assert other.claim("summary 1")
        raw_write(store_target, "UPDATE claims SET expires_at = expires_at - 3600 WHERE name = 'summary 1'")
        assert db.claim("summary 1") and not other.claim("summary 1"), "a lapsed claim is whoever's asks next"
    finally:
        other.close()


def test_file_edits(db: ChatHistoryDB) -> None:
    chat = db.create_chat("Bridge")
    edit = db.add_file_edit(chat, "notes.txt", None, b"new", "proposed")
    assert [e.edit_id for e in db.file_edits(chat, "proposed")] == [edit]
    assert db.set_file_edit_status(edit, "applied", "proposed")
    assert not db.set_file_edit_status(edit, "applied", "proposed"), "only from the status expected"
    found = db.get_file_edit(edit)
    assert found is not None and found.status == "applied" and found.after == b"new" and found.before is None


def test_documents(db: ChatHistoryDB) -> None:
    file = DocumentFile(path="reports/geotech.pdf", size=10, mtime_ns=1, sha256="ab", status="indexed", passages=1)
    passage = Passage(path=file.path, page=3, location="p. 3", text="Allowable bearing pressure 150 kPa")
    db.save_document(file, [passage])
    assert [f.path for f in db.document_files()] == [file.path]
    db.touch_document(file.path, 11, 2)
    assert db.document_files()[0].size == 11
    ((found, score),) = db.search_passages("bearing pressure", 5)
    assert found.page == 3 and score > 0
    assert db.passages_by_id([found.passage_id])[found.passage_id].text == passage.text
    assert db.passages_to_embed("nomic", 10) == [(found.passage_id, "p. 3: " + passage.text)]
    db.save_embeddings("nomic", [(found.passage_id, b"\x00" * 8)])
    assert db.embeddings("nomic") == [(found.passage_id, b"\x00" * 8)] and db.passages_to_embed("nomic", 10) == []
    assert not db.owns(Path("reports/geotech.pdf"))
    db.drop_documents([file.path])
    assert db.document_files() == []


def test_memory(db: ChatHistoryDB) -> None:
    memory = db.add_memory("Use S355 unless told otherwise.")
    assert db.update_memory(memory, "Use S355 steel unless told otherwise.")
    assert [m.text for m in db.memories()] == ["Use S355 steel unless told otherwise."]
    assert [m.memory_id for m in db.search_memories("steel", 5)] == [memory]
    assert db.remove_memory(memory) and not db.remove_memory(memory) and db.memories() == []


def _revision(chat: int, letter: str = "A") -> PackageRevision:
    return PackageRevision(
        revision_id=0, chat_id=chat, letter=letter, status="checked", workspace_name="Bridge",
        records_digest="d" * 64, details=ProjectDetails(project_name="Footbridge"),
        sheets=[SheetEntry(key="1:0", title="1. steel_beam_check")], checked_by="Ben", checked_at="2026-12-01 10:00:00",
    )  # fmt: skip


def test_packages(db: ChatHistoryDB) -> None:
    chat = db.create_chat("Bridge")
    _turn(db, chat, "Span?")
    assert db.calculation_fingerprint(chat)[1] == 1
    db.set_project_details(chat, ProjectDetails(project_name="Footbridge", client="County"))
    assert db.project_details(chat).client == "County"
    checked = db.record_check(_revision(chat))
    assert checked.status == "checked" and checked.letter == "A"
    again = db.record_check(_revision(chat).model_copy(update={"checked_by": "Cara"}))
    assert again.revision_id == checked.revision_id and again.checked_by == "Cara", "checked again, not twice"
    approved = again.model_copy(update={"status": "approved", "approved_by": "Dee", "approved_at": "2026-12-02"})
    assert db.record_approval(approved, b"%PDF-1.7", "e" * 64)
    assert not db.record_approval(approved, b"%PDF-1.7", "e" * 64), "approved once"
    with pytest.raises(ValueError, match="approved meanwhile"):
        db.record_check(_revision(chat))
    assert [r.status for r in db.package_revisions(chat)] == ["approved"]
    assert db.issued_pdf(chat, "A") == b"%PDF-1.7"
    found = db.find_issued("e" * 64)
    assert found is not None and found.letter == "A" and found.approved_by == "Dee"
    assert db.find_issued("e" * 64, viewer=db.add_user("bob", "engineer", "h")) is None


def test_accounts(db: ChatHistoryDB) -> None:
    ann = db.add_user("ann", "engineer", "hash", "ann@office.example", display_name=None)
    assert db.get_user("ANN") == db.user_by_id(ann) == db.user_by_email("Ann@Office.example")
    user = db.get_user("ann")
    assert user is not None and db.password_hash("ann") == (user, "hash")
    assert db.set_role(ann, "viewer") and db.set_password_hash(ann, "hash2")
    assert db.password_hash("ann") == (user.model_copy(update={"role": "viewer"}), "hash2")
    assert [u.name for u in db.list_users()] == ["ann"]
    named = db.set_display_name(ann, "Ann Smith") and db.get_user("ann")
    assert named and named.shown_as == "Ann Smith"
    db.note_sign_in(ann)
    (seen,) = db.users_overview()
    assert seen.user.display_name == "Ann Smith" and seen.last_sign_in_at is not None and seen.keys == 0
    key = db.add_api_key(ann, "k")
    assert db.api_key(key) is not None and db.revoke_keys(ann) == 1 and db.api_key(key) is None
    chat = db.create_chat("Bridge")
    db.set_owner(chat, ann)
    owner = db.owner_of(chat)
    assert owner is not None and owner.name == "ann" and db.owners() == {chat: "ann"}
    bob = db.add_user("bob", "engineer", "h")
    db.share(chat, bob, "editor")
    assert [(s.user_name, s.role) for s in db.shares_of(chat)] == [("bob", "editor")]
    assert db.owners(viewer=bob) == {chat: "ann"} and db.unshare(chat, bob) and db.owners(viewer=bob) == {}
    db.create_chat("Bridge 2", owner=ann)
    db.share(chat, EVERYONE, "viewer")
    assert db.owned_counts(ann) == (2, 1) and db.owned_counts(bob) == (0, 0)
    assert db.remove_user(ann) and db.get_user("ann") is None


def test_sessions(db: ChatHistoryDB) -> None:
    ann = db.add_user("ann", "engineer", "h")
    first = db.add_session(ann, "hash-1", 2_000_000_000.0)
    second = db.add_session(ann, "hash-2", 1_000.0)
    user, secret_hash, expires = db.session(first) or (None, "", 0.0)
    assert user is not None and user.name == "ann" and (secret_hash, expires) == ("hash-1", 2_000_000_000.0)
    assert db.end_sessions(ann, expired_before=1_500.0) == 1 and db.session(second) is None
    assert db.end_session(first) and db.session(first) is None
    db.add_session(ann, "hash-3", 2_000_000_000.0)
    assert db.end_sessions(ann) == 1
    third = db.add_session(ann, "hash-4", 2_000_000_000.0)
    db.remove_user(ann)
    assert db.session(third) is None, "a removed user's sessions go with them"


def test_sign_in_failures(db: ChatHistoryDB) -> None:
    assert [db.reserve_attempt("user ann at 10.0.0.7", 100.0, 2, 60.0) for _ in range(3)] == [0.0, 0.0, 1.0]
    assert db.reserve_attempt("user ann at 10.0.0.7", 101.0, 2, 60.0) == 0.0, "its wait is over"
    assert db.reserve_attempt("user ann at 10.0.0.7", 101.5, 2, 60.0) == 1.5, "the next waits twice as long"
    db.clear_attempts("user ann at 10.0.0.7")
    assert db.reserve_attempt("user ann at 10.0.0.7", 101.5, 2, 60.0) == 0.0
    assert [db.count_for_audit("audit: for ann", now, 60.0) for now in (100.0, 130.0, 161.0)] == [1, 0, 2]


def test_audit_trail(db: ChatHistoryDB) -> None:
    first = db.append_audit("ann", "ask", 1, "Bridge", "Span?")
    db.append_audit("bob", "share", 2, "Tower", "with ann as viewer")
    assert [r.record_id for r in db.audit_records(user_name="ann")] == [first.record_id]
    assert [r.action for r in db.audit_records(chat_id=2)] == ["share"]
    check = db.verify_audit()
    assert check.intact and check.records == 2


def test_pictures_and_past_work(db: ChatHistoryDB) -> None:
    ann, bob = db.add_user("ann", "engineer", "h"), db.add_user("bob", "engineer", "h")
    here, earlier, bobs = (db.create_chat(name, owner=owner) for name, owner in
                           (("Here", ann), ("Earlier", ann), ("Bob's", bob)))  # fmt: skip
    picture = CleanImage(data=b"\x89PNG pixels", media_type="image/png", width=4, height=3, sha256="ab" * 32)
    asked = db.store_turn(FinishedTurn(chat_id=here, user="What is this crack?", assistant="A shrinkage crack.",
                                       images=(picture,)))  # fmt: skip
    [stored] = db.get_turns(here)[0].images
    assert db.turn_image(here, stored.image_id) == b"\x89PNG pixels" and db.turn_image(earlier, stored.image_id) is None
    old = _turn(db, earlier, "Which anchor bolts did we use?", "M20 grade 8.8 anchor bolts.")
    _turn(db, bobs, "Which anchor bolts?", "M24 anchor bolts.")
    assert db.past_turns_by_words("anchor bolts", 5, viewer=ann, leaving_out=here) == [old]
    assert db.past_turns_by_words("anchor bolts", 5, viewer=ann, leaving_out=earlier) == []
    [found] = db.past_turns([old, asked], viewer=ann, leaving_out=here)
    assert (found.workspace, found.turn.assistant) == ("Earlier", "M20 grade 8.8 anchor bolts.")
    [waiting] = db.past_turns_to_embed("nomic-embed-text", 10, 100, viewer=ann, leaving_out=here)
    assert waiting.turn.turn_id == old
    db.save_turn_embeddings("nomic-embed-text", [(old, b"\x00" * 8)])
    assert db.past_turn_embeddings("nomic-embed-text", 100, viewer=ann, leaving_out=here) == [(old, b"\x00" * 8)]
    assert db.past_turns_to_embed("nomic-embed-text", 10, 100, viewer=ann, leaving_out=here) == []


def test_webhook_deliveries(db: ChatHistoryDB, store_target: str) -> None:
    url = "http://127.0.0.1:9/hook"
    first = db.add_webhook_delivery("evt_1", "turn.completed", url, b'{"event": "turn.completed"}')
    second = db.add_webhook_delivery("evt_2", "workspace.shared", url, b"{}")
    due = db.next_webhook_due([url])
    assert due is not None and due <= 0, "due at once"
    assert db.next_webhook_due(["http://elsewhere/"]) is None
    held = db.hold_webhook_deliveries([url], seconds=60, limit=1)
    assert [delivery.delivery_id for delivery in held] == [first] and held[0].body == b'{"event": "turn.completed"}'
    other = ChatHistoryDB(store_target)  # another process's store
    try:
        assert [d.delivery_id for d in other.hold_webhook_deliveries([url], 60, 10)] == [second], "one holder each"
        other.webhook_attempted(second, "503", "retry", retry_in=3600)
    finally:
        other.close()
    db.webhook_attempted(first, "200", "delivered")
    assert db.hold_webhook_deliveries([url], 60, 10) == [], "delivered, and the other not due"
    assert [d.delivery_id for d in db.hold_webhook_deliveries([url], 60, 10, ids=[second], early=True)] == [second]
    db.webhook_attempted(second, "connection refused", "gave up")
    assert [(d.state, d.attempts, d.last_status) for d in db.webhook_deliveries()] == [
        ("gave up", 2, "connection refused"), ("delivered", 1, "200"),
    ]  # fmt: skip
    assert 0 <= db.webhook_age_seconds(first) < 600


def test_the_store_as_a_whole(db: ChatHistoryDB, tmp_path: Path) -> None:
    chat = db.create_chat("Bridge")
    _turn(db, chat, "Span?")
    db.backup(tmp_path / "backup.sqlite")
    copy = ChatHistoryDB(tmp_path / "backup.sqlite")
    try:
        assert [t.user for t in copy.get_turns(chat)] == ["Span?"]
    finally:
        copy.close()
    assert all(db.owns(path) for path in db.files())
    db.close()
    with pytest.raises(HistoryError):
        db.get_turns(chat)


def test_every_port_operation_is_in_the_contract() -> None:
    named = {
        name
        for protocol in vars(app.ports).values()
        if inspect.isclass(protocol) and protocol.__module__ == "app.ports"
        for name in vars(protocol)
        if not name.startswith("_")
    }
    called = set(re.findall(r"\bdb\.(\w+)\(", Path(__file__).read_text()))
    assert named - called == set(), "port operations no test here calls"
