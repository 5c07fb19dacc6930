"""The tools for Pydantic AI (``pip install pydantic-ai-slim``).

One :class:`pydantic_ai.Tool` per filetools tool, built from the tool's JSON
schema (the tools judge the arguments themselves, so the aliases they take
reach them), or the same tools as one toolset::

    from pydantic_ai import Agent
    from filetools.pydantic_ai import pydantic_ai_tools, pydantic_ai_toolset

    agent = Agent(model, tools=pydantic_ai_tools("."))
    agent = Agent(model, toolsets=[pydantic_ai_toolset(".")])

A success returns the answer's text, or its text and images
(:class:`~pydantic_ai.BinaryContent`) when it holds images, with the
answer's structured content as the return's ``metadata`` (kept for the
program, not sent to the model). An error is raised as
:class:`~pydantic_ai.ToolFailed` with the answer's text: the model reads it
as a failed tool result (the provider's own error flag where it has one)
and goes on with its turn, without the retry prompt or the retry budget of
``ModelRetry``; the text already says what to do next.

Every tool is ``sequential``: the calls of one response run one at a time,
in the order the model made them, so an edit sent after a read of the same
file lands after it. Another tool set (``config={"tools": "text-editor"}``)
gives its own tools.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Dict, List, Optional, Union

try:
    from pydantic_ai import BinaryContent, FunctionToolset, Tool, ToolFailed, ToolReturn
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("filetools.pydantic_ai needs Pydantic AI: pip install pydantic-ai-slim") from error

from .. import Session, ToolResult
from .._adapters import Target, resolve_session

__all__ = ["pydantic_ai_tools", "pydantic_ai_toolset", "tool_return"]


def pydantic_ai_tools(target: Optional[Target] = None, **tools_options: Any) -> List[Tool[Any]]:
    """The tools for Pydantic AI over ``target``: a :class:`~filetools.Session`,
    :class:`~filetools.Tools`, a root directory, or ``Tools`` keywords such
    as ``fs=MemoryFs(...)`` or ``config={...}``. The tools share one session
    (one per conversation)."""
    session = resolve_session(target, **tools_options)
    return [_tool(session, definition) for definition in session.definitions("mcp")]


def pydantic_ai_toolset(
    target: Optional[Target] = None, *, id: Optional[str] = None, **tools_options: Any
) -> FunctionToolset[Any]:
    """:func:`pydantic_ai_tools` as one :class:`~pydantic_ai.FunctionToolset`
    (``Agent(toolsets=[...])``); ``id`` names it, as toolsets are named."""
    return FunctionToolset(pydantic_ai_tools(target, **tools_options), id=id)


def tool_return(result: ToolResult) -> ToolReturn:
    """A successful filetools answer as a :class:`~pydantic_ai.ToolReturn`:
    the text (or the blocks, images as ``BinaryContent``) for the model, the
    structured content as ``metadata``."""
    blocks = result.content
    value: Union[str, List[Any]]
    if len(blocks) == 1 and blocks[0].type == "text":
        value = blocks[0].text
    else:
        value = [
            BinaryContent(data=block.data, media_type=block.mime_type) if block.type == "image" else block.text
            for block in blocks
        ]
    return ToolReturn(return_value=value, metadata=result.structured_content)


def _tool(session: Session, definition: Dict[str, Any]) -> Tool[Any]:
    """One filetools tool from its MCP definition: its JSON schema as it is."""
    name = definition["name"]
    return Tool.from_schema(
        _function(session, name),
        name=name,
        description=definition["description"],
        json_schema=definition["inputSchema"],
        sequential=True,
    )


def _function(session: Session, name: str) -> Callable[..., Awaitable[ToolReturn]]:
    """The function Pydantic AI calls with the model's arguments as keywords."""

    async def call(**arguments: Any) -> ToolReturn:
        result = await session.acall(name, arguments)
        if result.is_error:
            raise ToolFailed(result.text)
        return tool_return(result)

    call.__name__ = name
    call.__qualname__ = name
    return call
