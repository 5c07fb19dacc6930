"""Your own file system under the tools: the protocol the host calls.

Give any object with these methods to ``Tools(fs=...)``. Paths are relative,
``/``-separated and normalised (``src/main.py``; the root is ``.``); the
guest never hands over ``..`` or an absolute path. Each method runs with the
GIL held, from whichever thread the call runs on: a file system shared by
sessions on several threads keeps its own lock.

Failures are raised: ``FileNotFoundError``, ``PermissionError``,
``IsADirectoryError`` and ``NotADirectoryError`` mean what they say; the
:class:`FsError` subclasses below name the rest. Anything else the host
reports to the model as an I/O error with the exception's text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Optional, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ._native import Precondition

__all__ = [
    "Conflict",
    "DirEntry",
    "FileSystem",
    "FsError",
    "Kind",
    "OutsideSandbox",
    "ReadOnly",
    "Stat",
]

#: What a path names: ``"file"``, ``"directory"``, ``"symlink"`` (in
#: listings only: ``stat`` follows links), ``"fifo"``, ``"socket"``,
#: ``"block-device"``, ``"char-device"`` or ``"other"``.
Kind = str


@dataclass(frozen=True)
class Stat:
    """Metadata of one path, symlinks followed."""

    kind: Kind
    size: int
    #: Modification time, nanoseconds since the Unix epoch. With the size it
    #: tells the tools a file changed, so it must move on every change.
    mtime_ns: int
    #: Whether a write would be refused.
    readonly: bool = False
    #: Creation and access times (default: ``mtime_ns``).
    created_ns: Optional[int] = None
    accessed_ns: Optional[int] = None
    #: Permission bits (default: 0o644 for a file, 0o755 for a directory).
    mode: Optional[int] = None


@dataclass(frozen=True)
class DirEntry:
    """One entry of a directory listing, symlinks not followed."""

    name: str
    kind: Kind
    size: int = 0
    #: Modification time of the entry itself; 0 when not known (the tools
    #: then ask ``stat`` where they need it).
    mtime_ns: int = 0


class FsError(Exception):
    """A failure the tools know by name; ``code`` says which."""

    code = "io"


class Conflict(FsError):
    """The file is not what the precondition requires (or the destination
    of a rename exists)."""

    code = "conflict"


class OutsideSandbox(FsError):
    """The path leads outside the file system's root."""

    code = "outside-sandbox"


class ReadOnly(FsError):
    """The file system refuses every change."""

    code = "read-only"


@runtime_checkable
class FileSystem(Protocol):
    """The methods the host calls to serve ``host-fs``.

    ``write_file``, ``remove_file`` and ``rename`` get a
    :class:`~filetools.Precondition` and must check it in the same step as
    the change (``precondition.holds(size, mtime_ns, content)``), raising
    :class:`Conflict` when it does not hold: that check is what keeps a
    change from overwriting one the model never saw.

    A change of several files that a crash cuts off is put back from a
    record the host keeps in memory, as for every file system given to the
    host; ``read`` returning something other than bytes, or a listing with
    a name no entry can have (empty, ``.``, ``..``, with ``/``), is an error
    the model is told of. A method may not call the session it serves.
    """

    def stat(self, path: str) -> Stat: ...

    def read(self, path: str, offset: int, length: int) -> bytes:
        """Up to ``length`` bytes from ``offset``; fewer only at the end."""
        ...

    def list_dir(self, path: str) -> Iterable[DirEntry]: ...

    def write_file(self, path: str, data: bytes, precondition: Precondition) -> Stat:
        """Replaces or creates the file at once (never half written)."""
        ...

    def remove_file(self, path: str, precondition: Precondition) -> None: ...

    def create_dir(self, path: str) -> None:
        """Creates the directory and its parents; an existing one is fine."""
        ...

    def rename(self, source: str, destination: str, precondition: Precondition) -> Stat:
        """Moves a node; the destination must not exist. A directory moves
        only with a precondition of kind ``"any"``."""
        ...
