"""A file system written in Python: what its methods give is checked, what
they raise is an answer or (an interrupt) the program's, and a method may
not call the session it serves."""

from __future__ import annotations

import pytest

from filetools import MemoryFs, Tools


def session_over(files: MemoryFs):
    return Tools(fs=files).session()


def test_an_object_without_the_methods_is_refused() -> None:
    for fs in (5, object(), type("Partial", (), {"stat": lambda self, p: None})()):
        with pytest.raises(TypeError, match="lacks the file system methods"):
            Tools(fs=fs)


def test_a_read_giving_no_bytes_is_an_error_answer() -> None:
    class Numbers(MemoryFs):
        def read(self, path, offset, length):
            return 5

    result = session_over(Numbers({"a.txt": "text\n"})).read("a.txt")
    assert result.is_error
    assert "expected bytes, bytearray or memoryview, not int" in result.text


def test_a_read_may_give_a_memoryview() -> None:
    class Views(MemoryFs):
        def read(self, path, offset, length):
            return memoryview(super().read(path, offset, length))

    result = session_over(Views({"a.txt": "text\n"})).read("a.txt")
    assert not result.is_error and "1\ttext" in result.text


def test_a_write_that_returns_no_stat_is_still_told_as_made() -> None:
    class Careless(MemoryFs):
        def write_file(self, path, data, precondition):
            super().write_file(path, data, precondition)
            return "ok"

    files = Careless({"a.txt": "one\n"})
    session = session_over(files)
    session.read("a.txt")
    result = session.edit("a.txt", "one", "two")
    assert not result.is_error, result.text
    assert files.files() == {"a.txt": b"two\n"}


def test_a_listing_with_an_impossible_name_is_an_error_answer() -> None:
    for bad in ("", ".", "..", "a/b", "nul\0", "twice"):

        class Lying(MemoryFs):
            def list_dir(self, path, bad=bad):
                entries = list(super().list_dir(path))
                return entries + [type(entries[0])(bad, "file", 1)] * (2 if bad == "twice" else 1)

        result = session_over(Lying({"a.txt": "x\n", "twice": "y\n"} if bad != "twice" else {"a.txt": "x\n"})).read(".")
        assert result.is_error, (bad, result.text)
        assert "the listing holds" in result.text


def test_a_method_calling_its_own_session_is_a_runtime_error() -> None:
    holder = {}

    class Reentrant(MemoryFs):
        def stat(self, path):
            if path == "a.txt":
                try:
                    holder["session"].call("read", {"file_path": "b.txt"})
                except RuntimeError as err:
                    holder["error"] = str(err)
            return super().stat(path)

    files = Reentrant({"a.txt": "1\n", "b.txt": "2\n"})
    holder["session"] = session_over(files)
    result = holder["session"].read("a.txt")
    assert not result.is_error
    assert "already running a call on this thread" in holder["error"]
    # Another session of the same tools may be called from inside.
    assert not Tools(fs=files).session().read("b.txt").is_error


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, SystemExit])
def test_an_interrupt_in_a_method_is_raised_by_the_call(interrupt) -> None:
    raised = []

    class Interrupted(MemoryFs):
        def write_file(self, path, data, precondition):
            if not raised:
                raised.append(path)
                raise interrupt()
            return super().write_file(path, data, precondition)

    files = Interrupted({"a.txt": "one\n"})
    session = session_over(files)
    session.read("a.txt")
    with pytest.raises(interrupt):
        session.edit("a.txt", "one", "two")
    assert raised == ["a.txt"]
    assert files.files() == {"a.txt": b"one\n"}
    # The session goes on.
    assert not session.edit("a.txt", "one", "three").is_error
    assert files.files() == {"a.txt": b"three\n"}


def test_memory_fs_keeps_its_tree_whole() -> None:
    files = MemoryFs({"d/x.txt": "x\n", "f.txt": "f\n"})
    with pytest.raises(OSError):
        files.remove("d")
    with pytest.raises(NotADirectoryError):
        files.add_file("f.txt/inner", "no")
    assert files.files() == {"d/x.txt": b"x\n", "f.txt": b"f\n"}
