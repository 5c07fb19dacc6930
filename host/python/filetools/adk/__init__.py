"""The tools for Google's Agent Development Kit (``pip install google-adk``).

Each tool is an ADK ``BaseTool`` declaring the function that
:mod:`filetools.gemini` declares (``session.definitions("gemini")``, taken
by ADK as it is) and answered by one shared session (so an edit knows what
the model read)::

    from google.adk.agents import Agent
    from filetools.adk import adk_tools

    agent = Agent(name="coder", model="gemini-2.5-flash", instruction=..., tools=adk_tools("."))

A call returns the ``response`` of the ``functionResponse`` that
:mod:`filetools.gemini` writes: the text as ``output`` (as ``error`` when the
call failed). The images a read returned go beside it as ``Part`` objects,
which ADK (2.7 and later) moves into the function response's own parts, as
the Gemini API takes images from a tool; an older ADK would send them as
JSON, so there they are left out (the text still says what was read). The
calls of one model turn run in the order the model made them, even when ADK
runs them together.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Mapping, Optional

try:
    from google.adk.tools import BaseTool, ToolContext
    from google.adk.version import __version__ as _adk_version
    from google.genai import types
except ImportError as error:  # pragma: no cover - exercised without the SDK
    raise ImportError("filetools.adk needs Google's Agent Development Kit: pip install google-adk") from error

from .. import Session, ToolResult
from .._adapters import Target, arguments_json, resolve_session
from ..gemini import function_response

__all__ = ["FiletoolsTool", "adk_tools", "tool_response"]


def _takes_images(version: str) -> bool:
    """Whether ADK ``version`` moves the media parts of a tool's answer into
    its function response's parts (2.7 and later)."""
    match = re.match(r"(\d+)\.(\d+)", version)
    return match is not None and (int(match[1]), int(match[2])) >= (2, 7)


#: Whether the installed ADK takes images from a tool's answer.
_IMAGES = _takes_images(_adk_version)


def adk_tools(target: Optional[Target] = None, **tools_options: Any) -> List[FiletoolsTool]:
    """The tools as ADK tools sharing one session over ``target``: a
    :class:`~filetools.Session`, :class:`~filetools.Tools`, a root
    directory, or ``Tools`` keywords such as ``fs=MemoryFs(...)`` or
    ``config={...}``. Use one list per conversation."""
    session = resolve_session(target, **tools_options)
    return [FiletoolsTool(session, declaration) for declaration in session.definitions("gemini")]


class FiletoolsTool(BaseTool):
    """One filetools tool as an ADK tool: its Gemini function declaration,
    its calls answered by ``session``."""

    def __init__(self, session: Session, declaration: Mapping[str, Any]) -> None:
        super().__init__(name=declaration["name"], description=declaration["description"])
        #: The session answering the calls.
        self.session = session
        #: The function declaration in the Gemini API's form (a dict).
        self.declaration: Dict[str, Any] = dict(declaration)

    def _get_declaration(self) -> types.FunctionDeclaration:
        return types.FunctionDeclaration.model_validate(self.declaration)

    async def run_async(self, *, args: Dict[str, Any], tool_context: ToolContext) -> Dict[str, Any]:
        """Runs the call on a worker thread and answers it."""
        return tool_response(await self.session.acall(self.name, arguments_json(args)))


def tool_response(result: ToolResult) -> Dict[str, Any]:
    """A filetools result as a tool's answer to ADK: the ``response`` of the
    ``functionResponse`` that :func:`filetools.gemini.function_response`
    writes, with its image parts under ``images`` as ``Part`` objects, which
    ADK moves into the function response's parts (left out with an ADK older
    than 2.7)."""
    answer = function_response({}, result)["functionResponse"]
    response: Dict[str, Any] = dict(answer["response"])
    if "parts" in answer and _IMAGES:
        response["images"] = [types.Part.model_validate(part) for part in answer["parts"]]
    return response
