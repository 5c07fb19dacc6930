"""Two `filetools serve` replicas sharing one Redis store, driven by the
Python MCP SDK's Streamable HTTP clients.

The calls of script.json, and a large file read twice, go to replica A
and replica B in turn on one session handle, once as a client on the
2026-07-28 revision (no protocol session: the first answer mints the
handle, later calls pass it as `session`) and once as clients on the
2025-11-25 handshake (the handle bound to A's `Mcp-Session-Id`, then
passed to B). Every answer must equal what `filetools session` prints
for the same calls over the same files in one process: the ledger (an
edit after a read on the other replica), dedup (the second read answered
"unchanged") and undo (of a change made on the other replica) behave as
in one process. Usage:

    python serve_client.py FILETOOLS URL_A URL_B ROOT TOKEN [FILES_URL]

With FILES_URL (a Worker's `/files/<workspace>`), the files laid out in
ROOT are laid out there too, for a server whose files live elsewhere.

Exits 0 when every check holds; prints the first difference otherwise.
"""

import asyncio
import base64
import json
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

from mcp import Client, ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from client import SCRIPT, check, script_files

# The large file read whole twice: the second read is the dedup stub.
DEDUP_CALLS = [
    {"tool": "read", "args": {"file_path": "src/app.py", "offset": 1, "limit": 40}},
    {"tool": "read", "args": {"file_path": "src/app.py", "offset": 1, "limit": 40}},
]
CALLS = SCRIPT["calls"] + DEDUP_CALLS


def lay_out(root, files_url=None, token=None):
    """The script's files in `root`, which stays (the replicas hold it open),
    and at `files_url` when given."""
    if files_url is not None:
        body = {"files": {path: base64.b64encode(data).decode() for path, data in script_files().items()}}
        request = urllib.request.Request(
            files_url,
            data=json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request) as answer:
            check(answer.status == 200, f"laying the files out at {files_url}: HTTP {answer.status}")
    root.mkdir(parents=True, exist_ok=True)
    for child in root.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()
    for path, data in script_files().items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def session_answers(binary, root):
    lines = "".join(json.dumps({"tool": c["tool"], "args": c["args"]}) + "\n" for c in CALLS)
    run = subprocess.run(
        [binary, "session", "--root", str(root)], input=lines, capture_output=True, text=True, check=True
    )
    return [json.loads(line) for line in run.stdout.splitlines()]


def plain(result):
    answer = result.model_dump(by_alias=True, exclude_none=True, mode="json")
    return answer, {
        "content": answer["content"],
        "isError": answer.get("isError", False),
        "structuredContent": answer.get("structuredContent"),
    }


def compare(index, answer, expected, how, elsewhere=False):
    """`elsewhere`: the server's files are not in a directory, so a path
    outside the workspace is refused naming none; the rest must match."""
    call = CALLS[index]
    expected = list(expected)
    if elsewhere and (answer.get("structuredContent") or {}).get("error") == "bad_path":
        expected[index] = {**expected[index], "content": answer["content"]}
    check(
        answer == expected[index],
        f"{how}, call {index + 1} ({call['tool']}):\n  served:  {answer}\n  session: {expected[index]}",
    )


async def modern(urls, root, token, expected, files_url):
    """The 2026-07-28 revision: no protocol session, the handle as an argument."""
    lay_out(root, files_url, token)
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
        async with (
            Client(streamable_http_client(urls[0], http_client=http)) as a,
            Client(streamable_http_client(urls[1], http_client=http)) as b,
        ):
            handle = None
            for index, call in enumerate(CALLS):
                client = (a, b)[index % 2]
                args = dict(call["args"]) if handle is None else {**call["args"], "session": handle}
                raw, answer = plain(await client.call_tool(call["tool"], args))
                if handle is None:
                    handle = raw["_meta"]["filetools/session"]
                    minted = answer["content"].pop()
                    check(handle in minted["text"], f"the first answer names the handle: {minted}")
                check(raw["_meta"]["filetools/session"] == handle, f"the handle stays: {raw['_meta']}")
                compare(index, answer, expected, "2026-07-28", files_url is not None)
            check(
                "unchanged" in answer["content"][0]["text"].lower(),
                f"the second read is the dedup stub: {answer['content'][0]['text'][:200]}",
            )


async def handshake(urls, root, token, expected, files_url):
    """The 2025 revisions: A's Mcp-Session-Id names the session; B gets the handle."""
    lay_out(root, files_url, token)
    headers = {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http:
        async with (
            streamable_http_client(urls[0], http_client=http) as (read_a, write_a),
            streamable_http_client(urls[1], http_client=http) as (read_b, write_b),
        ):
            async with ClientSession(read_a, write_a) as a, ClientSession(read_b, write_b) as b:
                init = await a.initialize()
                check(init.protocol_version == "2025-11-25", f"negotiated {init.protocol_version}")
                await b.initialize()
                handle = None
                for index, call in enumerate(CALLS):
                    on_b = index % 2 == 1
                    args = {**call["args"], "session": handle} if on_b else call["args"]
                    raw, answer = plain(await (b if on_b else a).call_tool(call["tool"], args))
                    if handle is None:
                        handle = raw["_meta"]["filetools/session"]
                        check(handle.startswith("mcp-"), f"bound to the MCP session: {handle}")
                    check(raw["_meta"]["filetools/session"] == handle, f"the handle stays: {raw['_meta']}")
                    compare(index, answer, expected, "2025-11-25", files_url is not None)


async def main(binary, url_a, url_b, root, token, files_url=None):
    root = Path(root)
    lay_out(root)
    expected = session_answers(binary, root)
    await modern((url_a, url_b), root, token, expected, files_url)
    await handshake((url_a, url_b), root, token, expected, files_url)
    print(f"ok: {len(CALLS)} calls alternating between two replicas, both revisions, equal the session answers")


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:7]))
