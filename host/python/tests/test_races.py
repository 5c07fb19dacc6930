"""Threads and asyncio racing on one file: every change lands or is refused
and then made again on what is there; none is lost."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Callable, List

import pytest

from filetools import MemoryFs, Session, Tools

WORKERS = 8
EDITS = 6
# Within the undo history's 32 changes per file, so every one undoes.
SHARED_EDITS = 4


def marker(worker: int, n: int) -> str:
    return f"w{worker}-e{n}"


def start_text() -> str:
    return "".join(f"line {worker}: \n" for worker in range(WORKERS))


def edit_until_it_lands(session: Session, worker: int, n: int) -> int:
    """Appends this edit's marker to the worker's line; a refusal (the file
    moved since the last read) means read again and retry. Gives the tries."""
    line = f"line {worker}: "
    for tries in range(1, 200):
        text = session.call("read", {"file_path": "shared.txt"}).text
        current = next(row.split("\t", 1)[1] for row in text.split("\n") if row.split("\t", 1)[-1].startswith(line))
        result = session.edit("shared.txt", current, current + marker(worker, n) + " ")
        if not result.is_error:
            return tries
        session.forget_outputs()
    raise AssertionError(f"worker {worker} never landed edit {n}")


def every_marker_once(text: str, edits: int = EDITS) -> None:
    for worker in range(WORKERS):
        for n in range(edits):
            assert text.count(marker(worker, n) + " ") == 1, (marker(worker, n), text)


def run_workers(work: Callable[[int], None]) -> None:
    """Runs ``work(worker)`` on :data:`WORKERS` threads at once; fails with
    what any of them raised."""
    errors: List[BaseException] = []

    def guarded(worker: int) -> None:
        try:
            work(worker)
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=guarded, args=(w,)) for w in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


Backing = Callable[[Path], "tuple[Tools, Callable[[], str]]"]


def on_disk(tmp_path: Path):
    (tmp_path / "shared.txt").write_text(start_text())
    return Tools(tmp_path), lambda: (tmp_path / "shared.txt").read_text()


def in_python(tmp_path: Path):
    files = MemoryFs({"shared.txt": start_text()})
    return Tools(fs=files), lambda: files.files()["shared.txt"].decode()


@pytest.mark.parametrize("backing", [on_disk, in_python], ids=["root", "python-fs"])
def test_threads_with_a_session_each_lose_no_change(backing, tmp_path: Path) -> None:
    tools, text = backing(tmp_path)

    def work(worker: int) -> None:
        session = tools.session()
        for n in range(EDITS):
            edit_until_it_lands(session, worker, n)

    run_workers(work)
    every_marker_once(text())


@pytest.mark.parametrize("backing", [on_disk, in_python], ids=["root", "python-fs"])
def test_threads_sharing_one_session_take_turns(backing, tmp_path: Path) -> None:
    tools, text = backing(tmp_path)
    session = tools.session()
    session.read("shared.txt")

    def work(worker: int) -> None:
        # The session made every change since its read, so it knows the
        # file: each edit builds on the worker's own line as it left it.
        line = f"line {worker}: "
        for n in range(SHARED_EDITS):
            result = session.edit("shared.txt", line, line + marker(worker, n) + " ")
            assert not result.is_error, result.text
            line += marker(worker, n) + " "

    run_workers(work)
    every_marker_once(text(), SHARED_EDITS)
    # The one session holds every change: undoing them all gives the start.
    for _ in range(WORKERS * SHARED_EDITS):
        assert not session.undo("shared.txt").is_error
    assert text() == start_text()


@pytest.mark.parametrize("backing", [on_disk, in_python], ids=["root", "python-fs"])
def test_asyncio_tasks_lose_no_change(backing, tmp_path: Path) -> None:
    tools, text = backing(tmp_path)

    async def work(worker: int) -> None:
        session = tools.session()
        line = f"line {worker}: "
        for n in range(EDITS):
            for _ in range(200):
                answer = await session.acall("read", {"file_path": "shared.txt"})
                current = next(
                    row.split("\t", 1)[1] for row in answer.text.split("\n") if row.split("\t", 1)[-1].startswith(line)
                )
                edit = {
                    "file_path": "shared.txt",
                    "old_string": current,
                    "new_string": current + marker(worker, n) + " ",
                }
                if not (await session.acall("edit", edit)).is_error:
                    break
                session.forget_outputs()
            else:
                raise AssertionError(f"worker {worker} never landed edit {n}")

    async def main() -> None:
        await asyncio.gather(*(work(w) for w in range(WORKERS)))

    asyncio.run(main())
    every_marker_once(text())


def test_acalls_made_together_run_in_the_order_made(tmp_path: Path) -> None:
    # A model's turn: read each file, then edit it, sent at once.
    for n in range(6):
        (tmp_path / f"f{n}.txt").write_text(f"value {n}\n")
    session = Tools(tmp_path).session()

    async def turn():
        calls = []
        for n in range(6):
            calls.append(session.acall("read", {"file_path": f"f{n}.txt"}))
            edit = {"file_path": f"f{n}.txt", "old_string": f"value {n}", "new_string": f"VALUE {n}"}
            calls.append(session.acall("edit", edit))
        return await asyncio.gather(*calls)

    for answer in asyncio.run(turn()):
        assert not answer.is_error, answer.text
    assert [(tmp_path / f"f{n}.txt").read_text() for n in range(6)] == [f"VALUE {n}\n" for n in range(6)]
