"""`filetools mcp` driven by the Python MCP SDK's client.

Lists the tools (annotations, schemas), then runs the calls of
script.json and checks that each answer equals what `filetools session`
prints for the same call on the same files. Usage:

    python client.py FILETOOLS_BINARY

Exits 0 when every check holds; prints the first difference otherwise.
"""

import asyncio
import json
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client

HERE = Path(__file__).resolve().parent
SCRIPT = json.loads((HERE / "script.json").read_text())


def solid_png(width, height, rgb):
    row = b"\0" + bytes(rgb) * width

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


def script_files():
    files = {path: text.encode() for path, text in SCRIPT["files"].items()}
    for path, spec in SCRIPT["generated"].items():
        if "repeat" in spec:
            text, count = spec["repeat"]["text"], spec["repeat"]["count"]
            files[path] = "".join(text.replace("{i}", str(i)) for i in range(count)).encode()
        elif "png" in spec:
            files[path] = solid_png(**spec["png"])
    return files


def lay_out(dir):
    shutil.rmtree(dir, ignore_errors=True)
    for path, data in script_files().items():
        target = dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def session_answers(binary, dir):
    lines = "".join(json.dumps({"tool": c["tool"], "args": c["args"]}) + "\n" for c in SCRIPT["calls"])
    run = subprocess.run(
        [binary, "session", "--root", str(dir)], input=lines, capture_output=True, text=True, check=True
    )
    return [json.loads(line) for line in run.stdout.splitlines()]


def check(condition, message):
    if not condition:
        raise AssertionError(message)


async def main(binary):
    dir = Path(tempfile.gettempdir()).resolve() / "filetools-mcp-python"
    lay_out(dir)
    expected = session_answers(binary, dir)
    lay_out(dir)
    server = StdioServerParameters(command=binary, args=["mcp", "--root", str(dir)])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check(init.server_info.name == "filetools", f"server: {init.server_info}")
            tools = (await session.list_tools()).tools
            names = [tool.name for tool in tools]
            check(names == ["read", "write", "edit", "undo", "grep", "find", "replace"], f"tools: {names}")
            by_name = {tool.name: tool for tool in tools}
            check(by_name["read"].annotations.read_only_hint is True, "read is read-only")
            check(by_name["write"].annotations.destructive_hint is True, "write is destructive")
            check(by_name["write"].annotations.idempotent_hint is True, "write is idempotent")
            check(by_name["edit"].annotations.idempotent_hint is False, "edit is not idempotent")
            check("file_path" in by_name["edit"].input_schema["properties"], "edit schema")
            check(by_name["undo"].output_schema["type"] == "object", "undo output schema")
            for index, call in enumerate(SCRIPT["calls"]):
                result = await session.call_tool(call["tool"], call["args"])
                answer = result.model_dump(by_alias=True, exclude_none=True, mode="json")
                answer = {
                    "content": answer["content"],
                    "isError": answer.get("isError", False),
                    "structuredContent": answer.get("structuredContent"),
                }
                check(
                    answer == expected[index],
                    f"call {index + 1} ({call['tool']}):\n  mcp:     {answer}\n  session: {expected[index]}",
                )
                shows = call.get("shows")
                if shows == "image":
                    check(any(c["type"] == "image" for c in answer["content"]), "an image block")
                if shows in ("refusal", "escape"):
                    check(answer["isError"], f"{shows} is an error")
    shutil.rmtree(dir, ignore_errors=True)
    print(f"ok: {len(SCRIPT['calls'])} calls through the Python MCP client equal the session answers")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
