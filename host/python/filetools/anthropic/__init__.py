"""The tools for the Anthropic SDK (``pip install anthropic``).

Definitions for ``client.messages.create(tools=...)``, and the user message
that answers every ``tool_use`` block of a response with a ``tool_result``
block (images as image blocks, errors with ``is_error``)::

    from filetools.anthropic import anthropic_tools

    ft = anthropic_tools(".")
    response = client.messages.create(model=..., max_tokens=..., messages=messages, tools=ft.tools)
    messages += [{"role": "assistant", "content": response.content}, ft.results(response)]

The answers are plain dicts in the API's form, so the SDK itself is needed
only by the code that calls the API: responses are read as the SDK's objects
(``Message``, ``ToolUseBlock``) or as their dicts alike. With the text editor
tool set (``config={"tools": "text-editor"}``) :attr:`AnthropicTools.tools`
is Anthropic's built-in text editor tool, whose ``tool_use`` blocks the
session answers under the same name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, cast

from .. import Session, ToolResult
from .._adapters import Target, arguments_json, field, resolve_session, tool_name

if TYPE_CHECKING:
    from anthropic.types import MessageParam, ToolResultBlockParam, ToolUnionParam

__all__ = ["AnthropicTools", "anthropic_tools", "tool_result", "tool_uses"]


def anthropic_tools(target: Optional[Target] = None, *, strict: bool = False, **tools_options: Any) -> AnthropicTools:
    """The tools for the Anthropic SDK over ``target``: a :class:`~filetools.Session`,
    :class:`~filetools.Tools`, a root directory, or ``Tools`` keywords such
    as ``fs=MemoryFs(...)`` or ``config={...}``.

    With ``strict=True`` the tools carry ``strict: true`` and schemas that
    Anthropic's strict tool use accepts, so the model's input always
    matches them."""
    return AnthropicTools(resolve_session(target, **tools_options), strict=strict)


class AnthropicTools:
    """One session's tools in the Messages API's form."""

    __slots__ = ("session", "tools")

    def __init__(self, session: Session, *, strict: bool = False) -> None:
        #: The session answering the tool calls (one per conversation).
        self.session = session
        #: The definitions for ``client.messages.create(tools=...)``.
        self.tools = cast("List[ToolUnionParam]", session.definitions("anthropic-strict" if strict else "anthropic"))

    def result(self, tool_use: Any) -> ToolResultBlockParam:
        """The ``tool_result`` block answering one ``tool_use`` block (a
        ``ToolUseBlock`` or its dict)."""
        use_id, name, arguments = _tool_use(tool_use)
        return tool_result(use_id, self.session.call(name, arguments))

    async def aresult(self, tool_use: Any) -> ToolResultBlockParam:
        """:meth:`result` for asyncio: the call runs on a worker thread."""
        use_id, name, arguments = _tool_use(tool_use)
        return tool_result(use_id, await self.session.acall(name, arguments))

    def results(self, message: Any) -> MessageParam:
        """The user message answering every ``tool_use`` block of
        ``message`` (a ``Message`` or its dict), in their order."""
        return cast("MessageParam", {"role": "user", "content": [self.result(use) for use in tool_uses(message)]})

    async def aresults(self, message: Any) -> MessageParam:
        """:meth:`results` for asyncio: the calls run one after the other on
        a worker thread."""
        content = [await self.aresult(use) for use in tool_uses(message)]
        return cast("MessageParam", {"role": "user", "content": content})


def tool_uses(message: Any) -> List[Any]:
    """The ``tool_use`` blocks of a message (a ``Message``, its dict, or a
    list of content blocks)."""
    content = message if isinstance(message, (list, tuple)) else field(message, "content")
    if not isinstance(content, (list, tuple)):
        return []
    return [block for block in content if field(block, "type") == "tool_use"]


def tool_result(tool_use_id: str, result: ToolResult) -> ToolResultBlockParam:
    """A filetools result as an Anthropic ``tool_result`` block: text blocks,
    image blocks (base64 source) and ``is_error``."""
    content: List[Dict[str, Any]] = []
    for block in result.content:
        if block.type == "image":
            source = {"type": "base64", "media_type": block.mime_type, "data": block.base64}
            content.append({"type": "image", "source": source})
        else:
            content.append({"type": "text", "text": block.text})
    answer = {"type": "tool_result", "tool_use_id": tool_use_id, "content": content, "is_error": result.is_error}
    return cast("ToolResultBlockParam", answer)


def _tool_use(block: Any) -> Tuple[str, str, str]:
    return field(block, "id"), tool_name(field(block, "name")), arguments_json(field(block, "input"))
