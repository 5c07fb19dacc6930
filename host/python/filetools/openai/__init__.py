"""The tools for the OpenAI SDK (``pip install openai``): Chat Completions
and the Responses API.

Function tools for each API (strict or not), and what answers a response's
tool calls::

    from filetools.openai import openai_tools

    ft = openai_tools(".", strict=True)
    # Chat Completions
    completion = client.chat.completions.create(model=..., messages=messages, tools=ft.chat_tools)
    message = completion.choices[0].message
    messages += [message, *ft.chat_results(message)]
    # Responses API
    response = client.responses.create(model=..., input=items, tools=ft.responses_tools)
    items += [*response.output, *ft.responses_results(response)]

A Chat Completions tool message holds text only, so the images a read
returned follow the tool messages in one user message; the Responses API
takes them in the ``function_call_output`` itself. With the apply-patch
tool set (``config={"tools": ["filetools", "apply-patch"]}``) the Responses
tools offer the built-in ``{"type": "apply_patch"}``, and its
``apply_patch_call`` items are answered with ``apply_patch_call_output``.

The answers are plain dicts in the API's form; responses are read as the
SDK's objects or as their dicts alike, so the SDK is needed only by the
code that calls the API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, cast

from .. import Session, ToolResult
from .._adapters import Target, arguments_json, data_url, field, images, resolve_session, tool_name

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolUnionParam
    from openai.types.responses import ResponseInputItemParam, ToolParam

__all__ = ["OpenAITools", "openai_tools"]


def openai_tools(target: Optional[Target] = None, *, strict: bool = False, **tools_options: Any) -> OpenAITools:
    """The tools for the OpenAI SDK over ``target``: a :class:`~filetools.Session`,
    :class:`~filetools.Tools`, a root directory, or ``Tools`` keywords such
    as ``fs=MemoryFs(...)`` or ``config={...}``.

    With ``strict=True`` every function tool, Chat Completions and Responses
    alike, is strict: every argument required and nullable (the tools take
    ``null`` as absent)."""
    return OpenAITools(resolve_session(target, **tools_options), strict=strict)


class OpenAITools:
    """One session's tools in the forms of Chat Completions and of the
    Responses API."""

    __slots__ = ("chat_tools", "responses_tools", "session")

    def __init__(self, session: Session, *, strict: bool = False) -> None:
        suffix = "-strict" if strict else ""
        #: The session answering the tool calls (one per conversation).
        self.session = session
        #: The definitions for ``client.chat.completions.create(tools=...)``.
        self.chat_tools = cast("List[ChatCompletionToolUnionParam]", session.definitions("openai" + suffix))
        #: The definitions for ``client.responses.create(tools=...)``.
        self.responses_tools = cast("List[ToolParam]", session.definitions("openai-responses" + suffix))

    # Chat Completions

    def chat_results(self, message: Any) -> List[ChatCompletionMessageParam]:
        """The messages answering every function tool call of a chat
        ``message`` (a ``ChatCompletionMessage`` or its dict): one tool
        message each, then one user message with the images, if any."""
        answered = [(call, self.session.call(name, arguments)) for call, name, arguments in _chat_calls(message)]
        return _chat_messages(answered)

    async def achat_results(self, message: Any) -> List[ChatCompletionMessageParam]:
        """:meth:`chat_results` for asyncio: the calls run one after the
        other on a worker thread."""
        answered = [(call, await self.session.acall(name, arguments)) for call, name, arguments in _chat_calls(message)]
        return _chat_messages(answered)

    # Responses API

    def responses_results(self, response: Any) -> List[ResponseInputItemParam]:
        """The items answering every ``function_call`` and ``apply_patch_call``
        of ``response`` (a ``Response``, its dict, or its ``output`` list),
        in their order."""
        calls = _responses_calls(response)
        return [_responses_item(item, self.session.call(name, arguments)) for item, name, arguments in calls]

    async def aresponses_results(self, response: Any) -> List[ResponseInputItemParam]:
        """:meth:`responses_results` for asyncio: the calls run one after the
        other on a worker thread."""
        return [
            _responses_item(item, await self.session.acall(name, arguments))
            for item, name, arguments in _responses_calls(response)
        ]


def _chat_calls(message: Any) -> List[Tuple[Any, str, str]]:
    """(call, tool name, arguments) for each function tool call."""
    calls: List[Tuple[Any, str, str]] = []
    for call in field(message, "tool_calls") or []:
        if field(call, "type") not in ("function", None):
            continue
        function = field(call, "function")
        calls.append((call, tool_name(field(function, "name")), arguments_json(field(function, "arguments"))))
    return calls


def _chat_messages(answered: List[Tuple[Any, ToolResult]]) -> List[ChatCompletionMessageParam]:
    messages: List[Dict[str, Any]] = []
    shown: List[Dict[str, Any]] = []
    for call, result in answered:
        call_id = field(call, "id")
        messages.append({"role": "tool", "tool_call_id": call_id, "content": result.text})
        name = field(field(call, "function"), "name")
        for image in images(result):
            shown.append({"type": "text", "text": f"The image {name} returned for call {call_id}:"})
            shown.append({"type": "image_url", "image_url": {"url": data_url(image)}})
    if shown:
        messages.append({"role": "user", "content": shown})
    return cast("List[ChatCompletionMessageParam]", messages)


def _responses_calls(response: Any) -> List[Tuple[Any, str, str]]:
    """(item, tool name, arguments) for each call the tools answer."""
    output = response if isinstance(response, (list, tuple)) else field(response, "output")
    calls: List[Tuple[Any, str, str]] = []
    for item in output or []:
        kind = field(item, "type")
        if kind == "function_call":
            calls.append((item, tool_name(field(item, "name")), arguments_json(field(item, "arguments"))))
        elif kind == "apply_patch_call":
            calls.append((item, "apply_patch", arguments_json({"operation": _plain(field(item, "operation"))})))
    return calls


def _responses_item(item: Any, result: ToolResult) -> ResponseInputItemParam:
    call_id = field(item, "call_id")
    if field(item, "type") == "apply_patch_call":
        status = "failed" if result.is_error else "completed"
        answer = {"type": "apply_patch_call_output", "call_id": call_id, "status": status, "output": result.text}
        return cast("ResponseInputItemParam", answer)
    shown = images(result)
    output: Any = result.text
    if shown:
        output = [{"type": "input_text", "text": result.text}]
        output += [{"type": "input_image", "image_url": data_url(image)} for image in shown]
    return cast("ResponseInputItemParam", {"type": "function_call_output", "call_id": call_id, "output": output})


def _plain(value: Any) -> Any:
    """An SDK object (a pydantic model) as the dict of what the model sent."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_unset=True, by_alias=True)
    return value
