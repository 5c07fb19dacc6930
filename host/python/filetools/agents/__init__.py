"""The tools for the OpenAI Agents SDK (``pip install openai-agents``).

Each tool is an ``agents.FunctionTool`` whose calls one shared session
answers (so an edit knows what the model read)::

    from agents import Agent, Runner
    from filetools.agents import function_tools

    agent = Agent(name="coder", instructions=..., tools=function_tools(".", strict=True))
    result = await Runner.run(agent, "Fix the typo in README.md")

A tool returns the text the model sees; a result with images returns that
text and the images as ``ToolOutputText`` and ``ToolOutputImage``. Errors
are answers too: their text says what went wrong. With the apply-patch tool
set, :func:`apply_patch_tool` gives the SDK's hosted ``ApplyPatchTool``
instead of a function tool, its operations applied by the session.
"""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Union

try:
    from agents import (
        ApplyPatchOperation,
        ApplyPatchResult,
        ApplyPatchTool,
        FunctionTool,
        ToolOutputImage,
        ToolOutputText,
    )
except ImportError as error:  # pragma: no cover - exercised without the SDK
    raise ImportError("filetools.agents needs the OpenAI Agents SDK: pip install openai-agents") from error

from .. import Session, ToolResult
from .._adapters import Target, arguments_json, data_url, images, resolve_session

__all__ = ["apply_patch_tool", "function_tools", "tool_output"]

#: What a tool call returns to the SDK: the text, or the text and images.
ToolOutput = Union[str, List[Union[ToolOutputText, ToolOutputImage]]]


def function_tools(
    target: Optional[Target] = None, *, strict: bool = False, **tools_options: Any
) -> List[FunctionTool]:
    """The tools as ``FunctionTool`` objects sharing one session over
    ``target``: a :class:`~filetools.Session`, :class:`~filetools.Tools`, a
    root directory, or ``Tools`` keywords such as ``fs=MemoryFs(...)`` or
    ``config={...}``.

    With ``strict=True`` the tools take the strict schemas (every argument
    required and nullable; the tools take ``null`` as absent) with
    ``strict_json_schema=True``; otherwise the plain schemas, not strict."""
    session = resolve_session(target, **tools_options)
    definitions = session.definitions("openai-strict" if strict else "openai")
    return [
        _function_tool(session, definition["function"], strict)
        for definition in definitions
        if definition.get("type") == "function"
    ]


def apply_patch_tool(target: Optional[Target] = None, **tools_options: Any) -> ApplyPatchTool:
    """The SDK's hosted ``ApplyPatchTool`` (the Responses API's built-in
    ``apply_patch``), each operation applied by the session's
    ``apply_patch`` tool. The session's tool set must include
    ``apply-patch`` (e.g. ``config={"tools": ["filetools", "apply-patch"]}``);
    pass the same session to :func:`function_tools` for the other tools."""
    return ApplyPatchTool(editor=_PatchEditor(resolve_session(target, **tools_options)))


def tool_output(result: ToolResult) -> ToolOutput:
    """A filetools result as a function tool's output: its text, or, when
    it holds images, the text followed by each image (as a data URL)."""
    shown = images(result)
    if not shown:
        return result.text
    parts: List[Union[ToolOutputText, ToolOutputImage]] = [ToolOutputText(text=result.text)]
    parts += [ToolOutputImage(image_url=data_url(image)) for image in shown]
    return parts


def _function_tool(session: Session, function: Mapping[str, Any], strict: bool) -> FunctionTool:
    name = function["name"]

    async def on_invoke_tool(context: Any, arguments: str) -> ToolOutput:
        return tool_output(await session.acall(name, arguments_json(arguments)))

    return FunctionTool(
        name=name,
        description=function["description"],
        params_json_schema=function["parameters"],
        on_invoke_tool=on_invoke_tool,
        strict_json_schema=strict,
    )


class _PatchEditor:
    """An ``ApplyPatchEditor`` applying each operation with the session."""

    __slots__ = ("_session",)

    def __init__(self, session: Session) -> None:
        self._session = session

    async def _apply(self, operation: ApplyPatchOperation) -> ApplyPatchResult:
        sent = {"type": operation.type, "path": operation.path}
        if operation.diff is not None:
            sent["diff"] = operation.diff
        if operation.move_to is not None:
            # The tools say whether they take it; the model reads the answer.
            sent["move_to"] = operation.move_to
        result = await self._session.acall("apply_patch", {"operation": sent})
        return ApplyPatchResult(status="failed" if result.is_error else "completed", output=result.text)

    async def create_file(self, operation: ApplyPatchOperation) -> ApplyPatchResult:
        """Applies a ``create_file`` operation."""
        return await self._apply(operation)

    async def update_file(self, operation: ApplyPatchOperation) -> ApplyPatchResult:
        """Applies an ``update_file`` operation."""
        return await self._apply(operation)

    async def delete_file(self, operation: ApplyPatchOperation) -> ApplyPatchResult:
        """Applies a ``delete_file`` operation."""
        return await self._apply(operation)
