"""`filetools mcp --tools mcp-filesystem` driven by the Python MCP SDK's client.

Checks the behaviours the reference filesystem server
(@modelcontextprotocol/server-filesystem) documents for each tool: the tool
and argument names, head/tail, the dryRun diff, the directory tree's shape,
the listing formats, search by glob, moves that never replace; and the
places where filetools answers differently by design (a write over a file
not read is refused). Usage:

    python filesystem.py FILETOOLS_BINARY

Exits 0 when every check holds; prints the first failed check otherwise.
"""

import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client

from client import solid_png

REFERENCE_TOOLS = {
    "read_text_file": {"path", "head", "tail"},
    "read_media_file": {"path"},
    "read_multiple_files": {"paths"},
    "write_file": {"path", "content"},
    "edit_file": {"path", "edits", "dryRun"},
    "create_directory": {"path"},
    "list_directory": {"path"},
    "list_directory_with_sizes": {"path", "sortBy"},
    "directory_tree": {"path", "excludePatterns"},
    "move_file": {"source", "destination"},
    "search_files": {"path", "pattern", "excludePatterns"},
    "get_file_info": {"path"},
    "list_allowed_directories": set(),
}


def lay_out(root):
    shutil.rmtree(root, ignore_errors=True)
    files = {
        "notes.txt": b"one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n",
        "src/main.rs": b'fn main() {\n    println!("hello");\n}\n',
        "src/lib.rs": b"pub fn answer() -> u32 {\n    42\n}\n",
        "node_modules/pkg/index.js": b"module.exports = 1;\n",
        "docs/guide.md": b"# Guide\n",
        "logo.png": solid_png(8, 6, [10, 200, 30]),
    }
    for path, data in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def text_of(result):
    return "".join(block.text for block in result.content if block.type == "text")


async def main(binary):
    root = Path(tempfile.gettempdir()).resolve() / "filetools-mcp-filesystem"
    lay_out(root)
    server = StdioServerParameters(command=binary, args=["mcp", "--root", str(root), "--tools", "mcp-filesystem"])
    checks = 0
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            call = session.call_tool

            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            check(set(tools) == set(REFERENCE_TOOLS), f"tool names: {sorted(tools)}")
            for name, arguments in REFERENCE_TOOLS.items():
                properties = set(tools[name].input_schema.get("properties", {}))
                check(arguments <= properties, f"{name} lacks {arguments - properties}")
            edit_item = tools["edit_file"].input_schema["properties"]["edits"]["items"]["properties"]
            check(set(edit_item) == {"oldText", "newText"}, f"edit_file edits: {edit_item}")
            check(tools["read_text_file"].annotations.read_only_hint is True, "read_text_file is read-only")
            check(tools["write_file"].annotations.destructive_hint is True, "write_file is destructive")
            # As the reference marks it: the source's path stops naming anything.
            check(tools["move_file"].annotations.destructive_hint is True, "move_file is destructive")
            checks += 1

            allowed = text_of(await call("list_allowed_directories", {}))
            check(str(root) in allowed, f"allowed: {allowed}")

            # head and tail give the first and last lines, without numbers.
            head = await call("read_text_file", {"path": str(root / "notes.txt"), "head": 2})
            check(text_of(head) == "one\ntwo\n", f"head: {text_of(head)!r}")
            # structuredContent is the reference's: the text itself.
            check(head.structured_content == {"content": "one\ntwo\n"}, f"structured: {head.structured_content}")
            check(
                tools["read_text_file"].output_schema["properties"] == {"content": {"type": "string"}}, "output schema"
            )
            tail = await call("read_text_file", {"path": str(root / "notes.txt"), "tail": 2})
            check(text_of(tail) == "four\nfive\n", f"tail: {text_of(tail)!r}")
            both = await call("read_text_file", {"path": str(root / "notes.txt"), "head": 1, "tail": 1})
            check(both.is_error, "head with tail is an error")
            checks += 1

            # filetools: a write over a file seen only in part is refused.
            partial = await call("write_file", {"path": str(root / "notes.txt"), "content": "x\n"})
            check(partial.is_error and "not all of it" in text_of(partial), f"partial write: {text_of(partial)}")
            whole = await call("read_text_file", {"path": str(root / "notes.txt")})
            check(text_of(whole) == "one\ntwo\nthree\nfour\nfive\n", f"whole: {text_of(whole)!r}")
            written = await call(
                "write_file", {"path": str(root / "notes.txt"), "content": "one\ntwo\nTHREE\nfour\nfive\n"}
            )
            check(not written.is_error, text_of(written))
            check((root / "notes.txt").read_bytes() == b"one\r\ntwo\r\nTHREE\r\nfour\r\nfive\r\n", "CRLF kept")
            checks += 1

            # edit_file: the dry run shows a diff and writes nothing.
            await call("read_text_file", {"path": str(root / "src/lib.rs")})
            edits = [{"oldText": "    42", "newText": "    43"}]
            dry = await call("edit_file", {"path": str(root / "src/lib.rs"), "edits": edits, "dryRun": True})
            diff = text_of(dry)
            check(diff.startswith("```diff\n") and "-    42\n+    43\n" in diff, f"dry diff: {diff}")
            check(b"42" in (root / "src/lib.rs").read_bytes(), "dry run wrote")
            done = await call("edit_file", {"path": str(root / "src/lib.rs"), "edits": edits})
            check("-    42\n+    43\n" in text_of(done), f"diff: {text_of(done)}")
            check(b"43" in (root / "src/lib.rs").read_bytes(), "edit not written")
            ambiguous = await call(
                "edit_file", {"path": str(root / "src/lib.rs"), "edits": [{"oldText": "u", "newText": "U"}]}
            )
            check(ambiguous.is_error and "oldText" in text_of(ambiguous), f"ambiguous: {text_of(ambiguous)}")
            checks += 1

            # Listings.
            listing = text_of(await call("list_directory", {"path": str(root)}))
            for line in ["[DIR] docs", "[FILE] logo.png", "[FILE] notes.txt", "[DIR] src"]:
                check(line in listing.splitlines(), f"list_directory lacks {line}: {listing}")
            sized = text_of(await call("list_directory_with_sizes", {"path": str(root / "src"), "sortBy": "size"}))
            check("Total: 2 files, 0 directories" in sized and "Combined size:" in sized, f"sizes: {sized}")
            check(sized.index("main.rs") < sized.index("lib.rs"), f"sorted by size: {sized}")
            checks += 1

            # The tree: name, type, children for directories; exclusions honoured.
            tree = json.loads(
                text_of(await call("directory_tree", {"path": str(root), "excludePatterns": ["node_modules"]}))
            )
            names = {entry["name"]: entry for entry in tree}
            check("node_modules" not in names, f"excluded: {list(names)}")
            check(names["src"]["type"] == "directory", f"src: {names['src']}")
            check(
                {c["name"] for c in names["src"]["children"]} == {"main.rs", "lib.rs"}, f"src children: {names['src']}"
            )
            check(names["notes.txt"] == {"name": "notes.txt", "type": "file"}, f"file entry: {names['notes.txt']}")
            checks += 1

            # Search by glob, relative to the directory searched.
            found = text_of(await call("search_files", {"path": str(root), "pattern": "**/*.rs"})).splitlines()
            check(sorted(found) == [str(root / "src/lib.rs"), str(root / "src/main.rs")], f"search: {found}")
            none = text_of(await call("search_files", {"path": str(root), "pattern": "*.zig"}))
            check(none == "No matches found", f"no match: {none!r}")
            checks += 1

            # Directories and moves; a move never replaces.
            made = await call("create_directory", {"path": str(root / "a/b/c")})
            check(not made.is_error and (root / "a/b/c").is_dir(), text_of(made))
            moved = await call(
                "move_file", {"source": str(root / "docs/guide.md"), "destination": str(root / "a/b/c/guide.md")}
            )
            check(not moved.is_error and (root / "a/b/c/guide.md").is_file(), text_of(moved))
            taken = await call(
                "move_file", {"source": str(root / "src/main.rs"), "destination": str(root / "notes.txt")}
            )
            check(taken.is_error and (root / "src/main.rs").is_file(), f"move over a file: {text_of(taken)}")
            checks += 1

            info = text_of(await call("get_file_info", {"path": str(root / "src/main.rs")}))
            check("isFile: true" in info and "isDirectory: false" in info and "size: 37" in info, f"info: {info}")
            mode = (root / "src/main.rs").stat().st_mode
            check(
                f"permissions: {mode & 0o777:03o}" in info and "created: " in info and "accessed: " in info,
                f"info: {info}",
            )

            media = await call("read_media_file", {"path": str(root / "logo.png")})
            images = [block for block in media.content if block.type == "image"]
            check(len(images) == 1 and images[0].mime_type == "image/png", f"media: {media.content}")
            structured = media.structured_content["content"]
            check(
                [item["type"] for item in structured] == ["image"] and structured[0]["data"] == images[0].data,
                "media structured",
            )

            several = text_of(
                await call("read_multiple_files", {"paths": [str(root / "src/main.rs"), str(root / "gone.txt")]})
            )
            parts = several.split("\n---\n")
            check(
                len(parts) == 2 and parts[0].startswith(f"{root / 'src/main.rs'}:\nfn main()"), f"multiple: {several}"
            )
            check(parts[1].startswith(f"{root / 'gone.txt'}: Error - "), f"multiple error: {parts[1]}")
            checks += 1
    shutil.rmtree(root, ignore_errors=True)
    print(f"ok: {checks} groups of MCP filesystem behaviours hold through the Python MCP client")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
