"""Files in memory: for tests, and for a harness whose files live elsewhere.

:class:`MemoryFs` behaves as the Rust core's ``MemFs`` and the npm
package's ``memoryFs``, so every host gives the same answers over it:
parents exist implicitly, every change moves one clock on by a second, a
path under a file is "not a directory", and listings are sorted by name.
"""

from __future__ import annotations

import threading
from typing import Dict, List, Mapping, Optional, Union

from .fs import Conflict, DirEntry, ReadOnly, Stat

__all__ = ["MemoryFs"]

_SECOND_NS = 1_000_000_000


class _File:
    __slots__ = ("data", "mtime_ns")

    def __init__(self, data: bytes, mtime_ns: int) -> None:
        self.data = data
        self.mtime_ns = mtime_ns


_DIRECTORY = "directory"


def _bytes(data: Union[str, bytes, bytearray, memoryview]) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


class MemoryFs:
    """A file system held in memory; ``files`` maps relative paths to text
    or bytes. ``read_only`` refuses every change. Safe to share between
    sessions on several threads."""

    def __init__(
        self,
        files: Optional[Mapping[str, Union[str, bytes]]] = None,
        *,
        read_only: bool = False,
    ) -> None:
        self._nodes: Dict[str, Union[_File, str]] = {}
        self._clock = 0
        self._lock = threading.RLock()
        self.read_only = read_only
        for path, data in (files or {}).items():
            self.add_file(path, data)

    # -- changes from outside the tools -------------------------------------

    def add_file(self, path: str, data: Union[str, bytes]) -> None:
        """Adds or replaces a file, moving the clock on."""
        with self._lock:
            if self._nodes.get(path) == _DIRECTORY:
                raise IsADirectoryError(path)
            self._add_parents(path)
            self._nodes[path] = _File(_bytes(data), self._tick())

    def add_dir(self, path: str) -> None:
        """Adds an empty directory."""
        with self._lock:
            self._add_parents(path)
            self._nodes[path] = _DIRECTORY

    def remove(self, path: str) -> bool:
        """Removes a file or an empty directory; says whether it existed."""
        with self._lock:
            if any(name.startswith(path + "/") for name in self._nodes):
                raise OSError(f"{path} is a directory that is not empty")
            return self._nodes.pop(path, None) is not None

    def touch(self, path: str) -> None:
        """Moves a file's mtime on without changing its content."""
        with self._lock:
            node = self._nodes.get(path)
            tick = self._tick()
            if isinstance(node, _File):
                self._nodes[path] = _File(node.data, tick)

    def replace_keeping_mtime(self, path: str, data: Union[str, bytes]) -> None:
        """Replaces a file's content and keeps its mtime: a change the size
        and mtime cannot see."""
        with self._lock:
            node = self._nodes.get(path)
            if isinstance(node, _File):
                self._nodes[path] = _File(_bytes(data), node.mtime_ns)

    def files(self) -> Dict[str, bytes]:
        """Every file with its bytes, by path, in name order."""
        with self._lock:
            return {path: node.data for path, node in sorted(self._nodes.items()) if isinstance(node, _File)}

    # -- the FileSystem protocol ---------------------------------------------

    def stat(self, path: str) -> Stat:
        with self._lock:
            return self._stat(self._node(path))

    def read(self, path: str, offset: int, length: int) -> bytes:
        with self._lock:
            node = self._nodes.get(path)
            if node is None:
                self._node(path)
                return b""
            if node == _DIRECTORY:
                raise IsADirectoryError(path)
            assert isinstance(node, _File)
            return node.data[offset : offset + length]

    def list_dir(self, path: str) -> List[DirEntry]:
        with self._lock:
            if self._node(path) != _DIRECTORY:
                raise NotADirectoryError(path)
            prefix = "" if path == "." else path + "/"
            entries = []
            for name in sorted(self._nodes):
                rest = name[len(prefix) :]
                if name.startswith(prefix) and rest and "/" not in rest:
                    meta = self._stat(self._nodes[name])
                    entries.append(DirEntry(rest, meta.kind, meta.size, meta.mtime_ns))
            return entries

    def write_file(self, path: str, data: bytes, precondition) -> Stat:
        with self._lock:
            self._check(path, precondition)
            self.add_file(path, data)
            return self._stat(self._nodes[path])

    def remove_file(self, path: str, precondition) -> None:
        with self._lock:
            self._check(path, precondition)
            if self._nodes.pop(path, None) is None:
                raise FileNotFoundError(path)

    def create_dir(self, path: str) -> None:
        with self._lock:
            if self.read_only:
                raise ReadOnly()
            try:
                found = self._node(path)
            except FileNotFoundError:
                self.add_dir(path)
                return
            if found != _DIRECTORY:
                raise NotADirectoryError(path)

    def rename(self, source: str, destination: str, precondition) -> Stat:
        with self._lock:
            if self.read_only:
                raise ReadOnly()
            try:
                self._node(destination)
            except FileNotFoundError:
                pass
            else:
                raise Conflict(f"{destination} exists")
            moved = self._node(source)
            if moved == _DIRECTORY:
                if precondition.kind != "any":
                    raise Conflict(source)
                if source == "." or destination.startswith(source + "/"):
                    raise OSError("cannot move a directory into itself")
            else:
                self._check(source, precondition)
            self._add_parents(destination)
            inner = source + "/"
            for name in [n for n in self._nodes if n.startswith(inner)]:
                self._nodes[destination + "/" + name[len(inner) :]] = self._nodes.pop(name)
            del self._nodes[source]
            self._nodes[destination] = moved
            return self._stat(moved)

    # -- inside ------------------------------------------------------------

    def _tick(self) -> int:
        self._clock += _SECOND_NS
        return self._clock

    def _add_parents(self, path: str) -> None:
        end = path.find("/")
        while end != -1:
            if self._nodes.setdefault(path[:end], _DIRECTORY) != _DIRECTORY:
                raise NotADirectoryError(path)
            end = path.find("/", end + 1)

    def _node(self, path: str) -> Union[_File, str]:
        if path == ".":
            return _DIRECTORY
        found = self._nodes.get(path)
        if found is not None:
            return found
        end = path.find("/")
        while end != -1:
            above = self._nodes.get(path[:end])
            if above is not None and above != _DIRECTORY:
                raise NotADirectoryError(path)
            end = path.find("/", end + 1)
        raise FileNotFoundError(path)

    def _stat(self, node: Union[_File, str]) -> Stat:
        if isinstance(node, _File):
            mode = 0o444 if self.read_only else 0o644
            return Stat("file", len(node.data), node.mtime_ns, self.read_only, mode=mode)
        mode = 0o555 if self.read_only else 0o755
        return Stat("directory", 0, 0, self.read_only, mode=mode)

    def _check(self, path: str, precondition) -> None:
        if self.read_only:
            raise ReadOnly()
        try:
            current: Optional[Union[_File, str]] = self._node(path)
        except FileNotFoundError:
            current = None
        if current == _DIRECTORY:
            raise IsADirectoryError(path)
        if current is None:
            holds = precondition.holds(None)
        else:
            assert isinstance(current, _File)
            holds = precondition.holds(len(current.data), current.mtime_ns, current.data)
        if not holds:
            raise Conflict(path)
