"""filetools' tools mounted on a Python MCP server, seen by the official
MCP TypeScript SDK's client over stdio: it checks every answer's structured
content against the tool's output schema, so a reply, a refusal and a
change each reach it as the session gives them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPOSITORY
from filetools import Tools

SDK = REPOSITORY / "js" / "node_modules" / "@modelcontextprotocol" / "sdk" / "dist" / "esm" / "client"

SERVER = """
import sys
from mcp.server.mcpserver import MCPServer
from filetools.mcp import mount

server = MCPServer("workspace")

@server.tool()
def ping() -> str:
    return "pong"

mount(server, sys.argv[1])
server.run()
"""

CLIENT = """
import { Client } from '%(sdk)s/index.js';
import { StdioClientTransport } from '%(sdk)s/stdio.js';

const [python, server, root, callsJson] = process.argv.slice(2);
const client = new Client({ name: 'ts-client', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: python, args: [server, root] }));
const { tools } = await client.listTools();
const answers = [];
for (const [name, args] of JSON.parse(callsJson)) {
  const { content, isError, structuredContent } = await client.callTool({ name, arguments: args });
  answers.push({ content, isError, structuredContent });
}
console.log(JSON.stringify({ tools: tools.map((t) => t.name), answers }));
await client.close();
"""

CALLS = [
    ["read", {"file_path": "notes.txt"}],
    ["edit", {"file_path": "notes.txt", "old_string": "zeta", "new_string": "eta"}],
    ["edit", {"file_path": "notes.txt", "old_string": "beta", "new_string": "BETA"}],
    ["read", {"file_path": "missing.txt"}],
    ["undo", {"file_path": "notes.txt"}],
    ["ping", {}],
]


def test_the_typescript_client_accepts_every_answer(tmp_path: Path) -> None:
    assert (SDK / "index.js").is_file(), f"no MCP TypeScript SDK at {SDK}: run npm ci in js/"
    node = shutil.which("node")
    assert node, "Node.js is needed for the TypeScript client"
    root, twin = tmp_path / "root", tmp_path / "twin"
    for folder in (root, twin):
        folder.mkdir()
        (folder / "notes.txt").write_text("alpha\nbeta\n")
    (tmp_path / "server.py").write_text(SERVER)
    (tmp_path / "client.mjs").write_text(CLIENT % {"sdk": SDK.as_posix()})
    run = subprocess.run(
        [node, str(tmp_path / "client.mjs"), sys.executable, str(tmp_path / "server.py"), str(root), json.dumps(CALLS)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout)
    assert {"read", "write", "edit", "undo", "ping"} <= set(seen["tools"])
    session = Tools(twin).session()
    for (name, args), answer in zip(CALLS[:-1], seen["answers"]):
        direct = json.loads(session.call(name, args).to_json())
        assert answer == {key: direct.get(key) for key in ("content", "isError", "structuredContent")}, name
    assert [a["isError"] for a in seen["answers"]] == [False, True, False, True, False, False]
    assert seen["answers"][-1]["content"][0]["text"] == "pong"
    assert (root / "notes.txt").read_text() == "alpha\nbeta\n"
