"""The tools for LangChain (``pip install langchain-core``).

One :class:`~langchain_core.tools.StructuredTool` per filetools tool, its
``args_schema`` the tool's JSON schema. Invoked with a model's tool call,
each answers with a ``ToolMessage``: ``status="error"`` when the call
failed, the answer's text as the content (a list of content blocks when it
holds images, each a LangChain image block with base64 data), and the
answer's structured content as the ``artifact``::

    from filetools.langchain import langchain_tools

    tools = langchain_tools(".")
    model = chat_model.bind_tools(tools)
    message = model.invoke(messages)
    by_name = {tool.name: tool for tool in tools}
    messages += [message, *(by_name[call["name"]].invoke(call) for call in message.tool_calls)]

``ainvoke`` runs the call on a worker thread. LangChain turns a tool's
schema into a provider's parameters as it is and takes ``strict`` from the
binding, so with ``strict=True`` the tools carry the ``openai-strict``
parameters (every property required, ``null`` for an absent one, which the
tools take as absent) for ``bind_tools(tools, strict=True)``. Another tool
set (``config={"tools": "text-editor"}``) gives its own tools.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, Union

try:
    from langchain_core.tools import StructuredTool, ToolException
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("filetools.langchain needs LangChain's core package: pip install langchain-core") from error

from .. import Session, ToolResult
from .._adapters import Target, resolve_session

__all__ = ["langchain_tools", "message_content"]

#: A ``ToolMessage``'s content: the answer's text, or its blocks.
Content = Union[str, List[Dict[str, Any]]]


def langchain_tools(
    target: Optional[Target] = None, *, strict: bool = False, **tools_options: Any
) -> List[StructuredTool]:
    """The tools for LangChain over ``target``: a :class:`~filetools.Session`,
    :class:`~filetools.Tools`, a root directory, or ``Tools`` keywords such
    as ``fs=MemoryFs(...)`` or ``config={...}``. The tools share one session
    (one per conversation).

    With ``strict=True`` each tool's ``args_schema`` is the tool's
    ``openai-strict`` parameters, for ``bind_tools(tools, strict=True)``."""
    session = resolve_session(target, **tools_options)
    return [_tool(session, name, description, schema) for name, description, schema in _definitions(session, strict)]


def message_content(result: ToolResult) -> Content:
    """A filetools answer as a ``ToolMessage``'s content: its text when it
    is one text block, else its blocks (``{"type": "text", "text": ...}``
    and ``{"type": "image", "base64": ..., "mime_type": ...}``)."""
    blocks = result.content
    if len(blocks) == 1 and blocks[0].type == "text":
        return blocks[0].text
    content: List[Dict[str, Any]] = []
    for block in blocks:
        if block.type == "image":
            content.append({"type": "image", "base64": block.base64, "mime_type": block.mime_type})
        else:
            content.append({"type": "text", "text": block.text})
    return content


def _definitions(session: Session, strict: bool) -> List[Tuple[str, str, Dict[str, Any]]]:
    """Each tool's name, description and input schema, strict or as MCP has it."""
    if strict:
        functions = [definition["function"] for definition in session.definitions("openai-strict")]
        return [(f["name"], f["description"], f["parameters"]) for f in functions]
    return [(d["name"], d["description"], d["inputSchema"]) for d in session.definitions("mcp")]


def _tool(session: Session, name: str, description: str, schema: Dict[str, Any]) -> StructuredTool:
    """One filetools tool as a LangChain tool answering with
    ``(content, artifact)``; an error answer is raised as a
    :class:`ToolException` that LangChain turns into a ``status="error"``
    message with the same content."""

    def run(**arguments: Any) -> Tuple[Content, Any]:
        return _answer(session.call(name, arguments))

    async def arun(**arguments: Any) -> Tuple[Content, Any]:
        return _answer(await session.acall(name, arguments))

    return StructuredTool(
        name=name,
        description=description,
        args_schema=schema,
        func=run,
        coroutine=arun,
        response_format="content_and_artifact",
        handle_tool_error=_error_content,
    )


def _answer(result: ToolResult) -> Tuple[Content, Any]:
    content = message_content(result)
    if result.is_error:
        raise ToolException(content)
    return content, result.structured_content


def _error_content(error: ToolException) -> Content:
    """An error answer's content, as the tools gave it."""
    return error.args[0]
