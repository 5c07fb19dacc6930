"""Every conformance case through the Python API, over a root directory and
over a file system written in Python: the transcript must equal
``expected.txt`` (written by the wasmtime host) byte for byte, and the files
left must be those of ``after/``."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Tuple

import pytest

from conftest import case_names, cases_dir
from filetools import ImageBlock, MemoryFs, Session, Tools

NAMES = case_names()


def tree(root: Path) -> Dict[str, bytes]:
    """Every file under ``root`` by ``/``-separated relative path."""
    if not root.is_dir():
        return {}
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def steps(case: Path) -> Iterator[dict]:
    for line in (case / "steps.jsonl").read_text(encoding="utf-8").split("\n"):
        if line.strip():
            yield json.loads(line)


def render(n: int, line: str, result) -> str:
    """One call's part of the transcript, as every host renders it."""
    out = [f"### call {n}: {line}", f"### {'error' if result.is_error else 'ok'}; metadata: {result.metadata_json}"]
    for block in result.content:
        if isinstance(block, ImageBlock):
            digest = hashlib.sha256(block.data).hexdigest()[:16]
            out.append(
                f"<image {block.mime_type} {block.width}x{block.height}, {len(block.data)} bytes, sha256 {digest}>"
            )
        else:
            out.append(block.text)
    return "\n".join(out) + "\n\n"


class OnDisk:
    """A case laid out in a directory; outside changes made on disk."""

    def __init__(self, name: str, base: Path) -> None:
        self.root = base / name.replace("/", "-")
        start = cases_dir() / name / "tree"
        if start.is_dir():
            shutil.copytree(start, self.root, symlinks=True)
        else:
            self.root.mkdir(parents=True)
        second = int(time.time()) - 100
        for path in tree(self.root):
            os.utime(self.root / path, (second, second))

    def tools(self, config: dict) -> Tools:
        return Tools(self.root, config=config)

    def external(self, change: dict) -> None:
        path = self.root / change["path"]
        before = path.stat().st_mtime_ns // 1_000_000_000
        kind = change["external"]
        if kind == "write":
            path.write_text(change["text"], encoding="utf-8")
            os.utime(path, (before + 2, before + 2))
        elif kind == "touch":
            os.utime(path, (before + 2, before + 2))
        elif kind == "same_size_same_mtime":
            path.write_text(change["text"], encoding="utf-8")
            os.utime(path, (before, before))
        else:
            raise ValueError(f"unknown outside change {kind}")

    def files(self) -> Dict[str, bytes]:
        return tree(self.root)


class InMemory:
    """A case in a :class:`MemoryFs`, the file system written in Python."""

    def __init__(self, name: str, base: Path) -> None:
        self.fs = MemoryFs(tree(cases_dir() / name / "tree"))

    def tools(self, config: dict) -> Tools:
        return Tools(fs=self.fs, config=config)

    def external(self, change: dict) -> None:
        kind = change["external"]
        if kind == "write":
            self.fs.add_file(change["path"], change["text"])
        elif kind == "touch":
            self.fs.touch(change["path"])
        elif kind == "same_size_same_mtime":
            self.fs.replace_keeping_mtime(change["path"], change["text"])
        else:
            raise ValueError(f"unknown outside change {kind}")

    def files(self) -> Dict[str, bytes]:
        return self.fs.files()


def run(name: str, host) -> Tuple[str, Dict[str, bytes]]:
    case = cases_dir() / name
    config = json.loads((case / "config.json").read_text(encoding="utf-8"))
    tools = host.tools(config)
    session: Session = tools.session()
    out: List[str] = []
    n = 0
    for step in steps(case):
        if "session" in step:
            if step["session"] == "new":
                session = host.tools(config).session()
            elif step["session"] == "forget_outputs":
                session.forget_outputs()
            else:
                raise ValueError(f"unknown session step {step['session']}")
            out.append(f"### session: {step['session']}\n\n")
        elif "external" in step:
            host.external(step)
            size = len(step["text"].encode("utf-8"))
            out.append(f"### outside change: {step['external']} {step['path']} ({size} bytes)\n\n")
        else:
            n += 1
            call = step["call"]
            out.append(render(n, call["line"], session.call(call["tool"], call["arguments"])))
    return "".join(out), host.files()


def first_difference(expected: str, actual: str) -> str:
    a, b = expected.split("\n"), actual.split("\n")
    for i in range(max(len(a), len(b))):
        left = a[i] if i < len(a) else None
        right = b[i] if i < len(b) else None
        if left != right:
            return f"line {i + 1}:\n  expected: {left!r}\n  actual:   {right!r}"
    return "no difference"


HOSTS: Dict[str, Callable] = {"root": OnDisk, "python-fs": InMemory}


def test_the_cases_are_all_there() -> None:
    assert len(NAMES) > 50, f"only {len(NAMES)} cases"


@pytest.mark.parametrize("host", list(HOSTS))
@pytest.mark.parametrize("name", NAMES)
def test_case_gives_the_hosts_bytes(name: str, host: str, tmp_path: Path) -> None:
    case = cases_dir() / name
    transcript, files = run(name, HOSTS[host](name, tmp_path))
    expected = (case / "expected.txt").read_text(encoding="utf-8")
    assert transcript == expected, first_difference(expected, transcript)
    after = case / "after"
    wanted = tree(after) if after.is_dir() else tree(case / "tree")
    assert files == wanted, "the files left differ from after/ (or the starting files)"
