"""The tools on a Python MCP server (``pip install mcp``), beside its own.

:func:`mount` adds filetools' tools to a server of the MCP Python SDK, an
:class:`~mcp.server.mcpserver.MCPServer` or a low-level
:class:`~mcp.server.lowlevel.Server`; the server's own tools stay listed
and callable::

    from mcp.server.mcpserver import MCPServer
    from filetools.mcp import mount

    server = MCPServer("workspace")

    @server.tool()
    def run_tests() -> str: ...

    mount(server, ".")
    server.run()

The tools are listed as ``filetools mcp`` lists them (title, description,
input and output schemas, annotations), and a call's result is the
session's answer as it is: text and image blocks, ``structuredContent``,
errors as ``isError`` results. The tools, not the server, judge the
arguments, so the aliases they take reach them. Calls run one at a time, in
the order they arrived, on a worker thread. One session serves the server
(what was read, the undo history): mount a :class:`~filetools.Session` to
choose it. A tool of the server named as one of filetools' is hidden by it.
The tools are served to clients: ``MCPServer.list_tools()`` and
``MCPServer.call_tool()``, called by the program itself, know only the
server's own.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

try:
    import anyio
    import anyio.to_thread
    from mcp.server.lowlevel import Server
    from mcp.server.mcpserver import MCPServer
    from mcp.shared.exceptions import MCPError
    from mcp_types import (
        INVALID_PARAMS,
        CallToolRequestParams,
        CallToolResult,
        ListToolsResult,
        PaginatedRequestParams,
        Tool,
    )
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("filetools.mcp needs the MCP Python SDK 2: pip install 'mcp>=2'") from error

from .. import Session
from .._adapters import Target, arguments_json, resolve_session

__all__ = ["mount"]


def mount(server: Union[MCPServer, Server], target: Optional[Target] = None, **tools_options: Any) -> Session:
    """Adds filetools' tools to ``server`` over ``target``: a
    :class:`~filetools.Session`, :class:`~filetools.Tools`, a root directory,
    or ``Tools`` keywords such as ``fs=MemoryFs(...)`` or ``config={...}``.
    Call it before the server serves. Returns the session that answers."""
    session = resolve_session(target, **tools_options)
    _Mounted(session).install(_lowlevel(server))
    return session


def _lowlevel(server: Union[MCPServer, Server]) -> Server:
    """The low-level server that dispatches ``server``'s requests."""
    if isinstance(server, MCPServer):
        # MCPServer serves through a low-level Server it keeps private; the
        # SDK's own in-process Client reaches it the same way.
        return server._lowlevel_server  # pyright: ignore[reportPrivateUsage]
    if isinstance(server, Server):
        return server
    raise TypeError(f"mount takes an MCPServer or a low-level Server, not {type(server).__name__}")


class _Mounted:
    """One session's tools on one server: the handlers that answer
    ``tools/list`` and ``tools/call`` before the server's own."""

    def __init__(self, session: Session) -> None:
        self.session = session
        definitions = session.definitions("mcp")
        self.tools = [Tool.model_validate(definition) for definition in definitions]
        self.schemas = {definition["name"]: definition["inputSchema"] for definition in definitions}
        self.lock = anyio.Lock()

    def install(self, server: Server) -> None:
        """Puts this session's handlers in front of ``server``'s own."""
        own_list = server.get_request_handler("tools/list")
        own_call = server.get_request_handler("tools/call")
        own_schema = server.get_tool_input_schema
        schemas = self.schemas

        async def list_tools(ctx: Any, params: PaginatedRequestParams) -> ListToolsResult:
            page = ListToolsResult(tools=[])
            if own_list is not None:
                page = ListToolsResult.model_validate(await own_list.handler(ctx, params))
            tools = [tool for tool in page.tools if tool.name not in schemas]
            if params.cursor is None:
                tools.extend(self.tools)
            return page.model_copy(update={"tools": tools})

        async def call_tool(ctx: Any, params: CallToolRequestParams) -> Any:
            if params.name in schemas:
                return await self.call(params.name, params.arguments)
            if own_call is None:
                raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {params.name}")
            return await own_call.handler(ctx, params)

        server.add_request_handler("tools/list", PaginatedRequestParams, list_tools)
        server.add_request_handler("tools/call", CallToolRequestParams, call_tool)
        if own_schema is not None:
            # Header validation asks this before any handler runs.
            server.get_tool_input_schema = lambda name: schemas[name] if name in schemas else own_schema(name)

    async def call(self, name: str, arguments: Optional[Mapping[str, Any]]) -> CallToolResult:
        """The session's answer, as it is, as a ``CallToolResult``."""
        async with self.lock:
            result = await anyio.to_thread.run_sync(self.session.call, name, arguments_json(arguments))
        return CallToolResult.model_validate_json(result.to_json())
