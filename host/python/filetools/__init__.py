"""filetools: the read, write and edit tools an agent hands its model.

The tools run in a WebAssembly component inside this package's Rust host
(the same host as the ``filetools`` CLI and the Rust crate), so a Python
harness gets the same answers, byte for byte, and the same guarantees: a
sandboxed root, changes made by atomic exchange and refused when the file
moved since the model read it, every change undoable::

    from filetools import Tools

    tools = Tools(root="/path/to/project", config={"max_lines": 1000})
    session = tools.session()              # one per conversation
    result = session.call("read", {"file_path": "src/app.py", "limit": 40})
    print(result.text)                     # what the model sees
    result.is_error, result.structured_content, result.content

A model's bad arguments are answers (``result.is_error``), never
exceptions; :class:`FiletoolsError` is for what the program got wrong.
Calls release the GIL. A session takes one call at a time (calls from
several threads take turns); use one session per conversation, and
``await session.acall(...)`` from asyncio. A file system's method may not
call the session it serves (a ``RuntimeError``).
"""

from __future__ import annotations

import asyncio
import atexit
import json
import math
import os
import weakref
from typing import Any, Dict, List, Mapping, Optional, Union

from ._native import (
    FiletoolsError,
    ImageBlock,
    Precondition,
    TextBlock,
    ToolResult,
    closing,
)
from ._native import Session as _NativeSession
from ._native import Tools as _NativeTools
from .fs import FileSystem
from .memory import MemoryFs

__all__ = [
    "FORMATS",
    "FileSystem",
    "FiletoolsError",
    "ImageBlock",
    "MemoryFs",
    "Precondition",
    "Session",
    "TextBlock",
    "ToolResult",
    "Tools",
]

#: The tool-definition formats :meth:`Tools.definitions` takes.
FORMATS: List[str] = list(_NativeTools.formats())

# At exit, file systems written in Python are no longer called, so a
# daemon thread still in a call never re-enters a finalising interpreter.
atexit.register(closing)

Arguments = Union[str, Mapping[str, Any]]


def _json(arguments: Arguments) -> str:
    """The arguments as JSON text: text as it came (the tools judge it),
    a mapping encoded (ASCII, so even a lone surrogate reaches the tools,
    which answer it)."""
    if isinstance(arguments, str):
        return arguments
    if isinstance(arguments, Mapping):
        return json.dumps(dict(arguments), allow_nan=False)
    raise TypeError(f"arguments must be a dict or JSON text, not {type(arguments).__name__}")


class Session:
    """One conversation's memory over the tools' files: what the model has
    read (so a stale edit is refused), what it already saw (so a repeated
    read costs a line), and its changes (so ``undo`` can take them back)."""

    __slots__ = ("_native", "_turns", "tools", "__weakref__")

    def __init__(self, native: _NativeSession, tools: Tools) -> None:
        self._native = native
        # One FIFO lock per event loop: acall()s run in the order made.
        self._turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()
        #: The tools this session was opened from.
        self.tools = tools

    def definitions(self, format: Optional[str] = None) -> List[Dict[str, Any]]:
        """The tool definitions, as :meth:`Tools.definitions` gives them."""
        return self.tools.definitions(format)

    def call(self, tool: str, arguments: Arguments = "{}") -> ToolResult:
        """Runs ``tool`` with the model's arguments: a dict, or the JSON
        text the model sent (passed on as it is)."""
        return self._native.call(tool, _json(arguments))

    async def acall(self, tool: str, arguments: Arguments = "{}") -> ToolResult:
        """:meth:`call` on a worker thread, for asyncio: the event loop goes
        on while the call runs. Calls made together (``asyncio.gather``)
        run one at a time in the order they were made, as a model that
        reads then edits in one turn means them. A cancelled call that
        already started runs to its end, and its change is made."""
        text = _json(arguments)
        loop = asyncio.get_running_loop()
        turn = self._turns.get(loop)
        if turn is None:
            turn = self._turns[loop] = asyncio.Lock()
        async with turn:
            return await asyncio.to_thread(self._native.call, tool, text)

    def read(self, file_path: str, **arguments: Any) -> ToolResult:
        """``read``: ``offset``, ``limit`` and the rest as keywords."""
        return self.call("read", {"file_path": file_path, **_given(arguments)})

    def write(self, file_path: str, content: str, *, expect: Optional[str] = None) -> ToolResult:
        """``write``; ``expect`` names the version the content was built on."""
        return self.call("write", {"file_path": file_path, "content": content, **_given({"expect": expect})})

    def edit(
        self,
        file_path: str,
        old_string: str,
        new_string: str,
        *,
        replace_all: Optional[bool] = None,
        expect: Optional[str] = None,
    ) -> ToolResult:
        """``edit``: replace ``old_string`` (once, or every time with
        ``replace_all``)."""
        arguments = {"file_path": file_path, "old_string": old_string, "new_string": new_string}
        arguments.update(_given({"replace_all": replace_all, "expect": expect}))
        return self.call("edit", arguments)

    def edit_symbol(
        self,
        file_path: str,
        symbol: str,
        new_string: str,
        *,
        position: Optional[str] = None,
        expect: Optional[str] = None,
    ) -> ToolResult:
        """``edit`` of one outline entry by its name, as ``read`` names it
        (``"Item.total"``): ``new_string`` replaces it (empty deletes it),
        or goes ``"before"`` or ``"after"`` it by ``position``. Its lines
        must have been read in this session, or ``expect`` given."""
        arguments = {"file_path": file_path, "symbol": symbol, "new_string": new_string}
        arguments.update(_given({"position": position, "expect": expect}))
        return self.call("edit", arguments)

    def replace(self, pattern: str, replacement: str, **arguments: Any) -> ToolResult:
        """``replace`` across files: ``path``, ``glob``, ``regex`` and the
        rest as keywords; a dry run unless ``apply=True`` with
        ``expected_count`` (and ``occurrences`` to take only some)."""
        return self.call("replace", {"pattern": pattern, "replacement": replacement, **_given(arguments)})

    def changes(self) -> ToolResult:
        """Which files the model has seen changed on disk since its view,
        with their changed lines, numbered: to put before the model at the
        start of a turn. The lines shown count as seen."""
        return self.call("changes", {})

    def mark(self, changed: Optional[List[str]] = None) -> ToolResult:
        """Marks a turn: records what each file the session knows of holds
        now, with the files ``changed`` names as changed outside (a shell
        command's edits). ``metadata["mark"]`` is the mark's number."""
        return self.call("mark", {"changed": list(changed or [])})

    def rewind(self, mark: int, *, dry_run: bool = False, changed: Optional[List[str]] = None) -> ToolResult:
        """Rewinds the files to turn ``mark``, three-way: one change that one
        ``undo`` takes back. ``dry_run`` only says what it would do."""
        return self.call("rewind", {"mark": mark, "dry_run": dry_run, "changed": list(changed or [])})

    def undo(self, file_path: str, *, expect: Optional[str] = None) -> ToolResult:
        """``undo`` the session's last change of ``file_path``."""
        return self.call("undo", {"file_path": file_path, **_given({"expect": expect})})

    def grep(self, pattern: str, **arguments: Any) -> ToolResult:
        """``grep``: ``path``, ``glob``, ``output_mode``, ``head_limit``,
        ``offset`` and the rest as keywords; ``after``, ``before``,
        ``context`` and ``case_insensitive`` stand for ``-A``, ``-B``,
        ``-C`` and ``-i``. Lines shown in ``content`` mode count as read."""
        return self.call("grep", {"pattern": pattern, **_given(arguments)})

    def find(self, pattern: str, **arguments: Any) -> ToolResult:
        """``find``: files whose paths match the glob ``pattern``, newest
        first; ``path``, ``head_limit`` and ``offset`` as keywords."""
        return self.call("find", {"pattern": pattern, **_given(arguments)})

    def save(self) -> str:
        """The session's memory as versioned JSON text: give it to
        :meth:`restore` in another process. Raises :class:`FiletoolsError`
        once a trap cost the session its memory."""
        return self._native.save()

    def restore(self, state: str) -> None:
        """Replaces the session's memory with a saved one."""
        self._native.restore(state)

    def forget_outputs(self) -> None:
        """Says the model's earlier outputs left its context (a compacted
        conversation): the next read shows the text again."""
        self._native.forget_outputs()

    @property
    def memory_bytes(self) -> int:
        """Bytes the session's guest memory grew by since it opened."""
        return self._native.memory_bytes


def _given(arguments: Mapping[str, Any]) -> Dict[str, Any]:
    return {key: value for key, value in arguments.items() if value is not None}


#: The methods a file system given as ``fs`` must have.
_FS_METHODS = ("stat", "read", "list_dir", "write_file", "remove_file", "create_dir", "rename")
#: The shortest call timeout: the host checks deadlines every 10 ms.
_MIN_TIMEOUT = 0.01


class Tools:
    """The tools over one root directory, or over a file system object.

    Loading the component (precompiled, inside this package) happens once
    here; :meth:`session` is then cheap. ``config`` takes the session
    config's keys (``max_lines``, ``tools`` for a tool set, ...);
    ``read_only`` refuses every change; ``fs`` is any
    :class:`~filetools.fs.FileSystem`, such as :class:`MemoryFs`.
    """

    __slots__ = ("_native", "__weakref__")

    def __init__(
        self,
        root: Union[str, os.PathLike[str], None] = None,
        *,
        fs: Optional[FileSystem] = None,
        read_only: bool = False,
        config: Optional[Mapping[str, Any]] = None,
        memory_limit: Optional[int] = None,
        call_timeout: Optional[float] = None,
        cache_dir: Union[str, os.PathLike[str], None] = None,
        state_dir: Union[str, os.PathLike[str], None] = None,
    ) -> None:
        if config is not None and not isinstance(config, Mapping):
            raise TypeError(f"config must be a mapping, not {type(config).__name__}")
        if fs is not None:
            missing = [m for m in _FS_METHODS if not callable(getattr(fs, m, None))]
            if missing:
                raise TypeError(f"fs lacks the file system methods {', '.join(missing)} (see filetools.fs.FileSystem)")
        if memory_limit is not None and not (isinstance(memory_limit, int) and 0 < memory_limit < 2**63):
            raise ValueError(f"memory_limit must be a positive number of bytes, not {memory_limit!r}")
        if call_timeout is not None and not (
            isinstance(call_timeout, (int, float)) and math.isfinite(call_timeout) and call_timeout >= _MIN_TIMEOUT
        ):
            raise ValueError(
                f"call_timeout must be a number of seconds of at least {_MIN_TIMEOUT}, not {call_timeout!r}"
            )
        self._native = _NativeTools(
            root,
            fs=fs,
            read_only=read_only,
            config_json=None if config is None else json.dumps(dict(config), allow_nan=False),
            memory_limit=memory_limit,
            call_timeout=call_timeout,
            cache_dir=cache_dir,
            state_dir=state_dir,
        )

    def session(self) -> Session:
        """A new session: its own memory, the same files."""
        return Session(self._native.session(), self)

    def definitions(self, format: Optional[str] = None) -> List[Dict[str, Any]]:
        """The tool definitions for this config. Without ``format``: name,
        description and ``input_schema`` each; with one of :data:`FORMATS`
        (``"mcp"``, ``"anthropic"``, ``"openai-strict"``, ...), the form that
        API takes, built-in tools included."""
        return json.loads(self._native.definitions_json(format))

    @property
    def load_source(self) -> str:
        """``"precompiled"``, ``"cached"`` or ``"compiled"``: how the
        component's machine code was had."""
        return self._native.load_source

    @property
    def root(self) -> Optional[str]:
        """The canonical root directory (``None`` over a file system)."""
        root = self._native.root
        return None if root is None else str(root)

    @property
    def cache_refusal(self) -> Optional[str]:
        """Why no on-disk cache of machine code is used, when one was wanted."""
        return self._native.cache_refusal

    @property
    def state_refusal(self) -> Optional[str]:
        """Why the records of changes under way are kept in memory only."""
        return self._native.state_refusal
