"""The Python API: typed results, definitions, saved sessions, and which
mistakes are exceptions (the program's) and which are answers (the
model's)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
import time
from pathlib import Path

import pytest

import filetools
from filetools import FORMATS, FiletoolsError, ImageBlock, MemoryFs, TextBlock, Tools
from filetools.fs import FileSystem


def test_the_wheel_is_what_runs() -> None:
    # The tests run against the installed wheel, never the source tree.
    if os.environ.get("FILETOOLS_WHEEL_TEST") == "1":
        assert "site-packages" in filetools.__file__, filetools.__file__
        assert shutil.which("cargo") is None and shutil.which("rustc") is None
    assert filetools.__file__.endswith("__init__.py")


def test_a_read_answers_with_text_metadata_and_the_protocol_line(project: Path) -> None:
    session = Tools(project).session()
    result = session.call("read", {"file_path": "notes.txt", "limit": 2})
    assert not result.is_error
    facts = json.loads(result.metadata_json)
    assert result.text == f"1\talpha\n2\tbeta\n[lines 1-2 of 3; continue with offset=3]\n[version {facts['version']}]"
    assert [type(block) for block in result.content] == [TextBlock]
    assert result.content[0].type == "text"
    assert (facts["lines_shown"], facts["total_lines"], facts["next_offset"]) == (2, 3, 3)
    line = json.loads(result.to_json())
    assert line["isError"] is False
    assert line["content"] == [{"type": "text", "text": result.text}]
    assert line["structuredContent"] == facts == result.structured_content


def test_the_same_call_as_json_text_gives_the_same_answer(project: Path) -> None:
    tools = Tools(project)
    typed = tools.session().read("notes.txt", offset=2)
    raw = tools.session().call("read", '{"file_path": "notes.txt", "offset": 2}')
    assert typed.to_json() == raw.to_json()


def test_a_block_read_then_an_edit_by_symbol(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def a():\n    return 1\n\n\ndef b():\n    return 2\n")
    session = Tools(tmp_path).session()
    block = session.read("m.py", offset=6, block=True)
    assert block.text.startswith("[b: lines 5-6 of 6]\ndef b():\n"), block.text
    edited = session.edit_symbol("m.py", "b", "def b():\n    return 20")
    assert edited.text.startswith('Replaced "b" in m.py (lines 5-6, now lines 5-6)'), edited.text
    unseen = session.edit_symbol("m.py", "a", "x = 1", position="after")
    assert json.loads(unseen.metadata_json)["error"] == "not_read"
    assert (tmp_path / "m.py").read_text() == "def a():\n    return 1\n\n\ndef b():\n    return 20\n"


def test_the_host_asks_which_seen_files_changed(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    session = Tools(tmp_path).session()
    session.read("a.txt")
    assert session.changes().text == "No file you have seen changed on disk since your view."
    (tmp_path / "a.txt").write_text("one\nTWO\n")
    told = session.changes()
    assert told.text.startswith("Changed on disk since your view:\na.txt (now version "), told.text
    assert told.text.endswith("2\tTWO"), told.text
    assert json.loads(told.metadata_json)["changed_on_disk"]["shown"] == ["a.txt"]


def test_a_marked_turn_is_rewound_and_the_rewind_undone(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\n")
    session = Tools(tmp_path).session()
    session.read("a.txt")
    marked = session.mark()
    assert marked.text == "Marked turn 1: 1 file recorded.", marked.text
    turn = json.loads(marked.metadata_json)["mark"]
    session.edit("a.txt", "one", "ONE")
    session.write("b.txt", "new\n")
    (tmp_path / "sh.txt").write_text("from a shell\n")
    dry = session.rewind(turn, dry_run=True, changed=["sh.txt"])
    assert dry.text.startswith("A rewind to turn 1 would change 2 files and leave 1 as found"), dry.text
    assert (tmp_path / "b.txt").exists()
    done = session.rewind(turn)
    assert not done.is_error, done.text
    assert (tmp_path / "a.txt").read_text() == "one\n" and not (tmp_path / "b.txt").exists()
    undone = session.undo("a.txt")
    assert not undone.is_error, undone.text
    assert (tmp_path / "a.txt").read_text() == "ONE\n" and (tmp_path / "b.txt").read_text() == "new\n"
    assert json.loads(session.rewind(9).metadata_json)["error"] == "no_such_mark"


def test_replace_runs_dry_then_changes_every_file(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("old one\n")
    (tmp_path / "b.txt").write_text("old two\n")
    session = Tools(tmp_path).session()
    dry = session.replace("old", "new")
    assert dry.text.startswith('Dry run: 2 occurrences of "old" in 2 files'), dry.text
    done = session.replace("old", "new", apply=True, expected_count=2)
    assert not done.is_error, done.text
    assert [(tmp_path / n).read_text() for n in ("a.txt", "b.txt")] == ["new one\n", "new two\n"]


def test_an_image_comes_back_as_an_image_block(project: Path) -> None:
    result = Tools(project).session().read("pixel.png")
    images = [block for block in result.content if isinstance(block, ImageBlock)]
    assert len(images) == 1, result
    image = images[0]
    assert (image.type, image.mime_type, image.width, image.height) == ("image", "image/png", 4, 3)
    assert image.data.startswith(b"\x89PNG")
    line = json.loads(result.to_json())
    assert {"type": "image", "data": image.base64, "mimeType": "image/png"} in line["content"]


def test_a_models_bad_arguments_are_answers_not_exceptions(project: Path) -> None:
    session = Tools(project).session()
    for tool, arguments in [
        ("read", "not json"),
        ("read", {}),
        ("read", {"file_path": "missing.txt"}),
        ("read", {"file_path": "../outside.txt"}),
        ("nonexistent_tool", {}),
        ("edit", {"file_path": "notes.txt", "old_string": "zeta", "new_string": "eta"}),
    ]:
        result = session.call(tool, arguments)
        assert result.is_error, (tool, arguments)
        assert result.text.startswith("Error: "), result.text
    assert (project / "notes.txt").read_text() == "alpha\nbeta\ngamma\n"


def test_the_programs_mistakes_are_exceptions(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="root directory"):
        Tools()
    with pytest.raises(ValueError, match="either root or fs"):
        Tools(tmp_path, fs=MemoryFs())
    with pytest.raises(FiletoolsError, match="cannot open root directory"):
        Tools(tmp_path / "missing")
    with pytest.raises(FiletoolsError):
        Tools(tmp_path, config={"max_lines": "many"})
    with pytest.raises(TypeError):
        Tools(tmp_path, config=["max_lines"])
    with pytest.raises(ValueError, match="unknown schema format"):
        Tools(tmp_path).definitions("yaml")
    with pytest.raises(FiletoolsError):
        Tools(tmp_path).session().restore("{not a state")


def test_definitions_come_in_every_format(project: Path) -> None:
    tools = Tools(project)
    plain = tools.definitions()
    assert [d["name"] for d in plain] == ["read", "write", "edit", "undo", "grep", "find", "replace"]
    assert "file_path" in plain[0]["input_schema"]["properties"]
    assert FORMATS == [
        "mcp",
        "anthropic",
        "anthropic-strict",
        "openai",
        "openai-strict",
        "openai-responses",
        "openai-responses-strict",
        "gemini",
    ]
    for format in FORMATS:
        assert len(tools.definitions(format)) == 7, format
    assert tools.definitions("mcp")[0]["inputSchema"] == plain[0]["input_schema"]
    strict = tools.definitions("openai-strict")[0]
    assert strict["function"]["strict"] is True


def test_a_tool_set_is_a_config_key(project: Path) -> None:
    tools = Tools(project, config={"tools": "text-editor"})
    names = [d["name"] for d in tools.definitions("anthropic")]
    assert names == ["str_replace_based_edit_tool"]
    result = tools.session().call("str_replace_based_edit_tool", {"command": "view", "path": "notes.txt"})
    assert not result.is_error and "alpha" in result.text


def test_read_only_refuses_changes_and_leaves_the_file(project: Path) -> None:
    session = Tools(project, read_only=True).session()
    # Refused as read-only at once: no read first that would be in vain.
    unread = session.edit("notes.txt", "alpha", "omega")
    assert unread.is_error and json.loads(unread.metadata_json)["error"] == "read_only"
    session.read("notes.txt")
    result = session.edit("notes.txt", "alpha", "omega")
    assert result.is_error
    assert (project / "notes.txt").read_text() == "alpha\nbeta\ngamma\n"


def test_read_only_lists_only_the_tools_that_can_succeed(project: Path) -> None:
    tools = Tools(project, read_only=True, config={"tools": ["filetools", "text-editor", "apply-patch"]})
    names = [d["function"]["name"] for d in tools.definitions("openai")]
    assert names == ["read", "grep", "find", "str_replace_based_edit_tool"]


def test_a_saved_session_goes_on_in_another(project: Path) -> None:
    tools = Tools(project)
    first = tools.session()
    first.read("notes.txt")
    assert not first.edit("notes.txt", "beta", "BETA").is_error
    state = first.save()
    second = tools.session()
    second.restore(state)
    # The restored session knows the file (no read first) and its change.
    assert not second.edit("notes.txt", "gamma", "GAMMA").is_error
    assert not second.undo("notes.txt").is_error
    assert not second.undo("notes.txt").is_error
    assert (project / "notes.txt").read_text() == "alpha\nbeta\ngamma\n"


def test_expect_names_the_version_a_change_was_built_on(project: Path) -> None:
    session = Tools(project).session()
    version = json.loads(session.read("notes.txt").metadata_json)["version"]
    (project / "notes.txt").write_text("alpha\nbeta\ngamma\ndelta\n")
    refused = session.edit("notes.txt", "alpha", "ALPHA", expect=version)
    assert refused.is_error and json.loads(refused.metadata_json)["error"] == "conflict"
    assert (project / "notes.txt").read_text() == "alpha\nbeta\ngamma\ndelta\n"


def test_memory_fs_is_a_file_system(tmp_path: Path) -> None:
    files = MemoryFs({"src/a.py": "x = 1\n"})
    assert isinstance(files, FileSystem)
    session = Tools(fs=files).session()
    session.read("src/a.py")
    assert not session.edit("src/a.py", "x = 1", "x = 2").is_error
    assert files.files() == {"src/a.py": b"x = 2\n"}
    assert Tools(fs=files).root is None


def test_a_python_file_systems_failures_become_answers() -> None:
    class Broken(MemoryFs):
        def read(self, path: str, offset: int, length: int) -> bytes:
            raise RuntimeError("the disk is on fire")

    session = Tools(fs=Broken({"a.txt": "text\n"})).session()
    result = session.read("a.txt")
    assert result.is_error
    assert "RuntimeError in the file system's read: the disk is on fire" in result.text


def test_a_python_file_system_that_lost_a_race_refuses_the_change() -> None:
    files = MemoryFs({"a.txt": "one\n"})
    session = Tools(fs=files).session()
    session.read("a.txt")
    files.replace_keeping_mtime("a.txt", "two\n")
    # Size and mtime are the same; only the content hash tells.
    result = session.edit("a.txt", "one", "three")
    assert result.is_error
    assert files.files() == {"a.txt": b"two\n"}


def test_a_call_lets_other_threads_run(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_bytes(b"word " * 4_000_000 + b"\n")
    session = Tools(tmp_path, config={"max_output_tokens": 2000}).session()
    started = threading.Event()
    done = threading.Event()
    took = []

    def call() -> None:
        started.set()
        begin = time.perf_counter()
        for char_offset in range(1, 20_000_000, 2_000_000):
            session.call("read", {"file_path": "big.txt", "char_offset": char_offset})
        took.append(time.perf_counter() - begin)
        done.set()

    thread = threading.Thread(target=call)
    sys.setswitchinterval(1.0)  # a GIL held in the call would starve us
    try:
        thread.start()
        started.wait()
        spins = 0
        while not done.is_set():
            spins += 1
        thread.join()
    finally:
        sys.setswitchinterval(0.005)
    assert took[0] > 0.01
    assert spins > 10_000, f"{spins} loops in {took[0]:.3f} s: the call held the GIL"


def test_arguments_are_a_dict_or_text(project: Path) -> None:
    session = Tools(project).session()
    with pytest.raises(TypeError, match="arguments must be a dict or JSON text"):
        session.call("read", b'{"file_path": "notes.txt"}')
    with pytest.raises(ValueError):
        session.call("read", {"file_path": "notes.txt", "limit": float("nan")})
    # A lone surrogate a model sent reaches the tools, which answer it.
    answer = session.call("read", {"file_path": "\ud800.txt"})
    assert answer.is_error, answer.text


def test_limits_are_checked_before_the_host_sees_them(tmp_path: Path) -> None:
    for bad in (-1, 0, 2**70, 1.5):
        with pytest.raises(ValueError, match="memory_limit"):
            Tools(tmp_path, memory_limit=bad)
    for bad in (0, -1, 1e-9, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="call_timeout"):
            Tools(tmp_path, call_timeout=bad)


def test_the_error_class_is_filetools_own() -> None:
    import pickle

    assert FiletoolsError.__module__ == "filetools"
    assert isinstance(pickle.loads(pickle.dumps(FiletoolsError("x"))), FiletoolsError)


def test_typed_grep_shows_lines_an_edit_then_changes_and_find_lists_files(project: Path) -> None:
    session = Tools(project).session()
    found = session.grep("bet", output_mode="content", context=1)
    assert not found.is_error, found.text
    assert "2:beta" in found.text and "1-alpha" in found.text
    edited = session.edit("notes.txt", "beta", "BETA")
    assert not edited.is_error, edited.text
    listed = session.find("*.txt", head_limit=5)
    assert not listed.is_error and "notes.txt" in listed.text
