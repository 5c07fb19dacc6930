"""The tools for Google's Gen AI SDK (``pip install google-genai``).

Function declarations for ``client.models.generate_content(config={"tools": ...})``,
and the user content that answers every function call of a response with a
``functionResponse`` part: the text as ``output`` (as ``error`` when the call
failed), the images a read returned as the response's own inline parts::

    from filetools.gemini import gemini_tools

    ft = gemini_tools(".")
    response = client.models.generate_content(model=..., contents=contents, config={"tools": ft.tools})
    contents += [response.candidates[0].content, ft.results(response)]

The answers are plain dicts in the API's form (the SDK takes them as its
``Content`` and ``Part``), so the SDK itself is needed only by the code that
calls the API: responses are read as the SDK's objects
(``GenerateContentResponse``, ``FunctionCall``) or as their dicts alike.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .. import Session, ToolResult
from .._adapters import Target, arguments_json, field, images, resolve_session, tool_name

__all__ = ["GeminiTools", "function_calls", "function_response", "gemini_tools"]


def gemini_tools(target: Optional[Target] = None, **tools_options: Any) -> GeminiTools:
    """The tools for Google's Gen AI SDK over ``target``: a
    :class:`~filetools.Session`, :class:`~filetools.Tools`, a root directory,
    or ``Tools`` keywords such as ``fs=MemoryFs(...)`` or ``config={...}``."""
    return GeminiTools(resolve_session(target, **tools_options))


class GeminiTools:
    """One session's tools in the Gemini API's form."""

    __slots__ = ("function_declarations", "session", "tools")

    def __init__(self, session: Session) -> None:
        #: The session answering the function calls (one per conversation).
        self.session = session
        #: The function declarations alone.
        self.function_declarations: List[Dict[str, Any]] = session.definitions("gemini")
        #: For ``config={"tools": ...}``: one tool holding every declaration.
        self.tools: List[Dict[str, Any]] = [{"functionDeclarations": self.function_declarations}]

    def result(self, call: Any) -> Dict[str, Any]:
        """The ``functionResponse`` part answering one function call (a
        ``FunctionCall`` or its dict)."""
        name = tool_name(field(call, "name"))
        return function_response(call, self.session.call(name, arguments_json(field(call, "args") or {})))

    async def aresult(self, call: Any) -> Dict[str, Any]:
        """:meth:`result` for asyncio: the call runs on a worker thread."""
        name = tool_name(field(call, "name"))
        return function_response(call, await self.session.acall(name, arguments_json(field(call, "args") or {})))

    def results(self, response: Any) -> Dict[str, Any]:
        """The user content answering every function call of ``response``
        (a ``GenerateContentResponse``, a ``Content``, their dicts, or a list
        of parts), in their order."""
        return {"role": "user", "parts": [self.result(call) for call in function_calls(response)]}

    async def aresults(self, response: Any) -> Dict[str, Any]:
        """:meth:`results` for asyncio: the calls run one after the other on
        a worker thread."""
        return {"role": "user", "parts": [await self.aresult(call) for call in function_calls(response)]}


def function_calls(response: Any) -> List[Any]:
    """The function calls of a response, of a content, or of a list of parts."""
    parts = response if isinstance(response, (list, tuple)) else field(response, "parts")
    if parts is None:
        candidates = field(response, "candidates") or []
        content = field(candidates[0], "content") if candidates else None
        parts = field(content, "parts") if content is not None else None
    calls = []
    for part in parts or []:
        call = field(part, "function_call")
        if call is None:
            call = field(part, "functionCall")
        if call is not None:
            calls.append(call)
    return calls


def function_response(call: Any, result: ToolResult) -> Dict[str, Any]:
    """A filetools result as the ``functionResponse`` part answering ``call``."""
    answer: Dict[str, Any] = {
        "name": field(call, "name"),
        "response": {"error" if result.is_error else "output": result.text},
    }
    call_id = field(call, "id")
    if call_id is not None:
        answer["id"] = call_id
    shown = images(result)
    if shown:
        answer["parts"] = [{"inlineData": {"mimeType": image.mime_type, "data": image.base64}} for image in shown]
    return {"functionResponse": answer}
