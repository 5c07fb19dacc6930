"""Every answer of every tool set through the Python MCP SDK's client.

For each set of every_answer.json: starts `filetools mcp --tools SET`,
lists the tools (so the client knows their output schemas), runs the
calls in order and checks that each reaches the caller as a tool result
with text for the model, an error exactly when it is not a success, and
structured content that fits the tool's output schema (checked with the
`jsonschema` the SDK itself validates with, for errors too, as the
TypeScript SDK's client does). Usage:

    python every_answer.py FILETOOLS_BINARY

Exits 0 when every check holds; prints the first difference otherwise.
"""

import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path

import jsonschema
from mcp import ClientSession, StdioServerParameters, stdio_client

SCRIPT = json.loads((Path(__file__).resolve().parent / "every_answer.json").read_text())


def lay_out(dir, files):
    shutil.rmtree(dir, ignore_errors=True)
    for path, text in files.items():
        target = dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode())


def check(condition, message):
    if not condition:
        raise AssertionError(message)


async def run_set(binary, tool_set):
    dir = Path(tempfile.gettempdir()).resolve() / f"filetools-every-answer-{tool_set['tools'].replace(',', '-')}"
    lay_out(dir, tool_set["files"])
    server = StdioServerParameters(command=binary, args=["mcp", "--root", str(dir), "--tools", tool_set["tools"]])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            for index, call in enumerate(tool_set["calls"]):
                where = f"{tool_set['tools']} call {index + 1} ({call['tool']} {call['answer']})"
                result = await session.call_tool(call["tool"], call["args"])
                texts = [block.text for block in result.content if block.type == "text"]
                check(
                    texts and all(texts) or call["tool"] == "read_media_file",
                    f"{where}: no text for the model: {result}",
                )
                check(
                    bool(result.is_error) == (call["answer"] != "success"),
                    f"{where}: isError {result.is_error}: {texts}",
                )
                schema = tools[call["tool"]].output_schema
                if schema is not None and result.structured_content is not None:
                    jsonschema.validate(result.structured_content, schema)
                if call["answer"] != "success" and "error" in (schema or {}).get("properties", {}):
                    check(
                        isinstance((result.structured_content or {}).get("error"), str),
                        f"{where}: no error code: {result.structured_content}",
                    )
    shutil.rmtree(dir, ignore_errors=True)
    return len(tool_set["calls"])


async def main(binary):
    calls = 0
    for tool_set in SCRIPT["sets"]:
        calls += await run_set(binary, tool_set)
    print(f"ok: {calls} answers of {len(SCRIPT['sets'])} tool sets reached the Python MCP client as tool results")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
