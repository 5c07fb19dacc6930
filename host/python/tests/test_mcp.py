"""The MCP adapter against the MCP Python SDK itself: filetools' tools
mounted on the SDK's servers beside their own tools, driven through the
SDK's in-process client (with the initialize handshake, and on the
handshake-free current protocol), every result compared with a session
called directly over a twin of the same files."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any, Dict, List

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.server.lowlevel import Server
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError

from conftest import missing_sdk_message, png
from filetools import MemoryFs, Session, Tools
from filetools.mcp import mount

MODES = ["legacy", "auto"]


def answer(result: types.CallToolResult) -> Dict[str, Any]:
    """A result's content, isError and structuredContent, as JSON."""
    wire = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    return {key: wire[key] for key in ("content", "isError", "structuredContent") if key in wire}


def expected(session: Session, name: str, arguments: Dict[str, Any]) -> Dict[str, Any]:
    """The direct call's answer, as the protocol line has it."""
    return json.loads(session.call(name, arguments).to_json())


def twin(root: Path, tmp_path: Path) -> Session:
    copy = tmp_path / "twin"
    copy.mkdir()
    for path in root.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    return Tools(copy).session()


def served(server: Any, mode: str, scenario: Any) -> Any:
    """Runs ``scenario(client)`` against ``server`` in this process."""

    async def main() -> Any:
        async with Client(server, mode=mode) as client:
            return await scenario(client)

    return anyio.run(main)


def application() -> MCPServer:
    """A server with a tool of its own."""
    server = MCPServer("workspace")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Adds two numbers."""
        return a + b

    return server


@pytest.mark.parametrize("mode", MODES)
def test_the_tools_are_listed_beside_the_servers_own(root: Path, mode: str) -> None:
    server = application()
    mount(server, root)

    async def scenario(client: Client) -> List[types.Tool]:
        return (await client.list_tools()).tools

    tools = served(server, mode, scenario)
    assert [tool.name for tool in tools] == ["add", "read", "write", "edit", "undo", "grep", "find", "replace"]
    listed = [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools[1:]]
    assert listed == Tools(root).definitions("mcp")
    assert tools[1].annotations.read_only_hint is True
    assert tools[3].output_schema is not None


@pytest.mark.parametrize("mode", MODES)
def test_read_edit_undo_answer_as_the_session_does(root: Path, tmp_path: Path, mode: str) -> None:
    server = application()
    mount(server, root)
    direct = twin(root, tmp_path)
    edit = {"file_path": "notes.txt", "old_string": "beta", "new_string": "BETA"}
    stale = {"file_path": "notes.txt", "old_string": "delta", "new_string": "DELTA"}
    calls = [
        ("read", {"file_path": "notes.txt", "limit": 2}),
        ("edit", edit),
        ("edit", stale),
        ("read", {"file_path": "notes.txt", "offset": "2"}),
        ("undo", {"file_path": "notes.txt"}),
        ("read", {"file_path": 7}),
    ]
    on_disk: List[str] = []

    async def scenario(client: Client) -> List[Dict[str, Any]]:
        results = []
        for name, arguments in calls:
            results.append(answer(await client.call_tool(name, arguments)))
            on_disk.append((root / "notes.txt").read_text())
        return results

    results = served(server, mode, scenario)
    assert results == [expected(direct, name, arguments) for name, arguments in calls]
    assert [result["isError"] for result in results] == [False, False, True, False, False, True]
    assert results[1]["content"][0]["text"].startswith("Edited notes.txt: 1 replacement")
    assert results[2]["structuredContent"]["error"] == "no_match"
    assert on_disk == ["alpha\nbeta\ngamma\n"] + ["alpha\nBETA\ngamma\n"] * 3 + ["alpha\nbeta\ngamma\n"] * 2


@pytest.mark.parametrize("mode", MODES)
def test_the_servers_own_tool_still_answers(root: Path, mode: str) -> None:
    server = application()
    mount(server, root)

    async def scenario(client: Client) -> types.CallToolResult:
        return await client.call_tool("add", {"a": 2, "b": 3})

    result = served(server, mode, scenario)
    assert not result.is_error
    assert (result.content[0].text, result.structured_content) == ("5", {"result": 5})


@pytest.mark.parametrize("mode", MODES)
def test_an_image_comes_as_an_image_block(root: Path, tmp_path: Path, mode: str) -> None:
    server = application()
    mount(server, root)

    async def scenario(client: Client) -> types.CallToolResult:
        return await client.call_tool("read", {"file_path": "pixel.png"})

    result = served(server, mode, scenario)
    assert answer(result) == expected(twin(root, tmp_path), "read", {"file_path": "pixel.png"})
    text, image = result.content
    assert text.text == "[image: PNG 4x3, 96 bytes; shown as it is]"
    assert (image.type, image.mime_type) == ("image", "image/png")
    assert base64.b64decode(image.data) == png(4, 3)


@pytest.mark.parametrize("mode", MODES)
def test_a_low_level_server_keeps_its_own_handlers(mode: str) -> None:
    own = types.Tool(name="ping", description="Answers pong.", input_schema={"type": "object"})

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[own])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name != "ping":
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
        return types.CallToolResult(content=[types.TextContent(type="text", text="pong")])

    server = Server("low", on_list_tools=list_tools, on_call_tool=call_tool)
    fs = MemoryFs({"a.txt": "one\n"})
    session = mount(server, fs=fs)
    direct = Tools(fs=MemoryFs({"a.txt": "one\n"})).session()
    write = {"file_path": "b.txt", "content": "two\n"}

    async def scenario(client: Client) -> Any:
        names = [tool.name for tool in (await client.list_tools()).tools]
        pong = await client.call_tool("ping", {})
        wrote = await client.call_tool("write", write)
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("nope", {})
        return names, pong, wrote, unknown.value

    names, pong, wrote, unknown = served(server, mode, scenario)
    assert names == ["ping", "read", "write", "edit", "undo", "grep", "find", "replace"]
    assert pong.content[0].text == "pong"
    assert answer(wrote) == expected(direct, "write", write)
    assert fs.files() == {"a.txt": b"one\n", "b.txt": b"two\n"}
    assert unknown.message == "Unknown tool: nope"
    # mount answers with the session it serves: its history has the write.
    assert not session.undo("b.txt").is_error
    assert fs.files() == {"a.txt": b"one\n"}


def test_a_server_without_tools_of_its_own_gets_filetools_tools() -> None:
    server = Server("bare")
    mount(server, fs=MemoryFs({"a.txt": "one\n"}), config={"tools": "text-editor"})
    view = {"command": "view", "path": "a.txt"}

    async def scenario(client: Client) -> Any:
        names = [tool.name for tool in (await client.list_tools()).tools]
        viewed = await client.call_tool("str_replace_based_edit_tool", view)
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("read", {"file_path": "a.txt"})
        return names, viewed, unknown.value

    names, viewed, unknown = served(server, "legacy", scenario)
    assert names == ["str_replace_based_edit_tool"]
    direct = Tools(fs=MemoryFs({"a.txt": "one\n"}), config={"tools": "text-editor"}).session()
    assert answer(viewed) == expected(direct, "str_replace_based_edit_tool", view)
    assert (unknown.code, unknown.message) == (types.INVALID_PARAMS, "Unknown tool: read")


@pytest.mark.parametrize("mode", MODES)
def test_calls_sent_at_once_run_in_the_order_they_arrived(mode: str) -> None:
    server = application()
    fs = MemoryFs({"n.txt": "0\n"})
    mount(server, fs=fs)
    edits = [{"file_path": "n.txt", "old_string": f"{i}\n", "new_string": f"{i + 1}\n"} for i in range(12)]

    async def scenario(client: Client) -> List[bool]:
        await client.call_tool("read", {"file_path": "n.txt"})
        errors: List[bool] = [True] * len(edits)

        async def send(index: int) -> None:
            errors[index] = (await client.call_tool("edit", edits[index])).is_error

        async with anyio.create_task_group() as group:
            for index in range(len(edits)):
                group.start_soon(send, index)
        return errors

    assert served(server, mode, scenario) == [False] * len(edits)
    assert fs.files() == {"n.txt": b"12\n"}


def test_mount_takes_only_a_server() -> None:
    with pytest.raises(TypeError, match="MCPServer or a low-level Server"):
        mount(object(), fs=MemoryFs({}))


def test_import_filetools_costs_nothing_and_a_missing_sdk_names_its_package() -> None:
    # Inside filetools.mcp, `mcp` is the SDK, not the adapter itself.
    prelude = (
        "import filetools.mcp, mcp.server\n"
        "assert mcp.server.__name__ == 'mcp.server' and 'site-packages' in mcp.__file__\n"
        "for name in [m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'filetools.mcp'))]:\n"
        "    del sys.modules[name]\n"
    )
    assert (
        missing_sdk_message("mcp", "mcp", prelude) == "filetools.mcp needs the MCP Python SDK 2: pip install 'mcp>=2'\n"
    )
