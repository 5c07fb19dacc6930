"""What every SDK adapter shares: the session it serves and the arguments
a model sent."""

from __future__ import annotations

import json
import os
from typing import Any, List, Mapping, Optional, Union

from . import ImageBlock, Session, ToolResult, Tools

#: What an adapter serves: a session, tools (a new session is opened), or
#: a root directory (new tools over it).
Target = Union[Session, Tools, str, "os.PathLike[str]"]


def resolve_session(target: Optional[Target] = None, **tools_options: Any) -> Session:
    """``target`` as a session: a :class:`Session` as it is, :class:`Tools`
    with a new session, a root directory (or ``Tools`` keywords such as
    ``fs=MemoryFs(...)``) with new tools."""
    if isinstance(target, Session):
        if tools_options:
            raise TypeError("options are for new tools; a session already has its own")
        return target
    if isinstance(target, Tools):
        if tools_options:
            raise TypeError("options are for new tools; these tools already have theirs")
        return target.session()
    if target is None and not tools_options:
        raise TypeError("give a Session, Tools, a root directory or Tools options such as fs=MemoryFs()")
    return Tools(target, **tools_options).session()


def arguments_json(arguments: Any) -> str:
    """A tool call's arguments as JSON text: text as the model sent it
    (malformed text goes to the tools, which say what is wrong), a mapping
    encoded."""
    if isinstance(arguments, (str, bytes, bytearray)):
        text = arguments.decode("utf-8", "replace") if not isinstance(arguments, str) else arguments
        return text or "{}"
    if arguments is None:
        return "{}"
    # ASCII, so that a lone surrogate a model sent reaches the tools, which
    # answer it, instead of failing to encode here.
    return json.dumps(arguments)


def tool_name(name: Any) -> str:
    """The tool a call names; a call naming none (or not by text) names
    the empty tool, which the tools answer as unknown."""
    return name if isinstance(name, str) else ""


def field(item: Any, name: str) -> Any:
    """``name`` of an SDK object (an attribute) or of its dict (a key)."""
    if isinstance(item, Mapping):
        return item.get(name)
    return getattr(item, name, None)


def images(result: ToolResult) -> List[ImageBlock]:
    """The image blocks of a result."""
    return [block for block in result.content if isinstance(block, ImageBlock)]


def data_url(image: ImageBlock) -> str:
    """An image block as a ``data:`` URL."""
    return f"data:{image.mime_type};base64,{image.base64}"
