"""Shared fixtures: the conformance cases laid out by the Rust side, and
small generated inputs."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any, Iterator, List

import pytest

from filetools import Tools

REPOSITORY = Path(__file__).resolve().parents[3]


def cases_dir() -> Path:
    """Where ``cargo xtask test`` laid the cases out (generated inputs
    included): ``$FILETOOLS_CASES_DIR``, else ``target/py-cases``."""
    return Path(os.environ.get("FILETOOLS_CASES_DIR", REPOSITORY / "target" / "py-cases"))


def case_names() -> List[str]:
    index = cases_dir() / "index.json"
    if not index.is_file():
        raise RuntimeError(
            f"no conformance cases at {index.parent}: lay them out with "
            "`cargo run -p filetools-cases -- target/py-cases` "
            "(cargo xtask test does)"
        )
    return json.loads(index.read_text())


def png(width: int, height: int) -> bytes:
    """A small RGB PNG, made here so no binary fixture is needed."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(
        b"\x00" + b"".join(bytes((x * 40 % 256, y * 60 % 256, 128)) for x in range(width)) for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def make_root(path: Path, notes: str = "alpha\nbeta\ngamma\n", image: str = "pixel.png") -> Path:
    """``path`` (made if missing) holding notes.txt and a 4x3 PNG."""
    path.mkdir(parents=True, exist_ok=True)
    (path / "notes.txt").write_text(notes)
    (path / image).write_bytes(png(4, 3))
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A root directory with a text file and a PNG."""
    return make_root(tmp_path)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """:func:`project` in a folder of its own, with room for a twin beside it."""
    return make_root(tmp_path / "root")


def missing_sdk_message(adapter: str, sdk: str, prelude: str = "") -> str:
    """What importing ``filetools.<adapter>`` says without the SDK module
    ``sdk``, in a fresh interpreter that first checks ``import filetools``
    loaded neither (then runs ``prelude``)."""
    script = (
        "import sys, filetools\n"
        f"assert 'filetools.{adapter}' not in sys.modules and {sdk!r} not in sys.modules\n"
        f"{prelude}"
        f"sys.modules[{sdk!r}] = None\n"
        "try:\n"
        f"    import filetools.{adapter}\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout


def conforms(annotation: Any, value: Any) -> bool:
    """Whether ``value`` is of an SDK's TypedDict ``annotation``: pydantic
    validates it (its lazily checked iterables walked too), and no key was
    dropped as unknown."""
    from pydantic import TypeAdapter

    adapter = TypeAdapter(annotation)  # kept alive while its iterators run
    return _plain(adapter.validate_python(value)) == value


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, Iterator)):
        return [_plain(item) for item in value]
    return value


def reference(root: Path, calls: List[Any], config: Any = None) -> List[Any]:
    """The results of ``calls`` from a session of its own over ``root``."""
    session = Tools(root, config=config).session()
    return [session.call(name, arguments) for name, arguments in calls]


#: The notes of the adapters' scripted model turn.
TURN_NOTES = "alpha\nbeta\n"

#: A scripted model turn for the SDK adapters: a read, an image read, an
#: edit, input of the wrong type and a tool that does not exist.
TURN = [
    ("read", {"file_path": "notes.txt"}),
    ("read", {"file_path": "pic.png"}),
    ("edit", {"file_path": "notes.txt", "old_string": "beta", "new_string": "gamma"}),
    ("edit", {"file_path": 7, "old_string": "x", "new_string": "y"}),
    ("bash", {"command": "ls"}),
]


def turn_root(path: Path) -> Path:
    """A root for :data:`TURN`: notes.txt and pic.png."""
    return make_root(path, TURN_NOTES, "pic.png")
