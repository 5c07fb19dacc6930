"""The LangChain adapter against langchain-core itself: tool calls as a
chat model makes them, answered with the ToolMessages LangChain builds,
compared with a session called directly over a twin of the same files."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path
from typing import Any, Dict

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import StructuredTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from conftest import missing_sdk_message, png
from filetools import MemoryFs, Session, Tools
from filetools.langchain import langchain_tools


def twin(root: Path, tmp_path: Path) -> Session:
    """A session over a copy of ``root``'s files, to call directly."""
    copy = tmp_path / "twin"
    copy.mkdir()
    for path in root.iterdir():
        if path.is_file():
            (copy / path.name).write_bytes(path.read_bytes())
    return Tools(copy).session()


def call(name: str, args: Dict[str, Any], id: str = "call_1") -> Dict[str, Any]:
    """A tool call as a chat model's message carries it."""
    return {"type": "tool_call", "id": id, "name": name, "args": args}


def by_name(tools: list) -> Dict[str, StructuredTool]:
    return {tool.name: tool for tool in tools}


def test_the_tools_are_the_sessions_tools_with_their_json_schemas() -> None:
    tools = langchain_tools(fs=MemoryFs({}))
    definitions = Tools(fs=MemoryFs({})).definitions("mcp")
    names = ["read", "write", "edit", "undo", "grep", "find", "replace"]
    assert [tool.name for tool in tools] == [d["name"] for d in definitions] == names
    for tool, definition in zip(tools, definitions):
        assert isinstance(tool, StructuredTool)
        assert tool.args_schema == definition["inputSchema"]
        assert tool.description == definition["description"]
        function = convert_to_openai_tool(tool)["function"]
        assert function["name"] == definition["name"]
        assert function["description"] == definition["description"]
        assert function["parameters"] == definition["inputSchema"]


def test_strict_tools_bind_as_openais_strict_definitions() -> None:
    tools = langchain_tools(fs=MemoryFs({}), strict=True)
    expected = Tools(fs=MemoryFs({})).definitions("openai-strict")
    # What bind_tools(tools, strict=True) of an OpenAI-style chat model sends.
    assert [convert_to_openai_tool(tool, strict=True) for tool in tools] == expected


def test_a_read_answers_with_the_text_and_the_structured_content(root: Path, tmp_path: Path) -> None:
    tools = by_name(langchain_tools(root))
    message = tools["read"].invoke(call("read", {"file_path": "notes.txt", "limit": 2}))
    direct = twin(root, tmp_path).call("read", {"file_path": "notes.txt", "limit": 2})
    assert isinstance(message, ToolMessage)
    assert (message.tool_call_id, message.name, message.status) == ("call_1", "read", "success")
    assert message.content == direct.text
    assert message.content.startswith("1\talpha\n2\tbeta\n[lines 1-2 of 3; continue with offset=3]")
    assert message.artifact == json.loads(direct.metadata_json)
    assert message.artifact["next_offset"] == 3


def test_an_edit_changes_the_file_on_disk(root: Path, tmp_path: Path) -> None:
    tools = by_name(langchain_tools(root))
    direct = twin(root, tmp_path)
    edit = {"file_path": "notes.txt", "old_string": "beta", "new_string": "BETA"}
    assert (
        tools["read"].invoke(call("read", {"file_path": "notes.txt"})).content
        == direct.call("read", {"file_path": "notes.txt"}).text
    )
    message = tools["edit"].invoke(call("edit", edit, id="call_2"))
    expected = direct.call("edit", edit)
    assert (message.status, message.content) == ("success", expected.text)
    assert message.artifact == json.loads(expected.metadata_json)
    assert (root / "notes.txt").read_text() == "alpha\nBETA\ngamma\n"
    undone = tools["undo"].invoke(call("undo", {"file_path": "notes.txt"}, id="call_3"))
    assert undone.content == direct.call("undo", {"file_path": "notes.txt"}).text
    assert (root / "notes.txt").read_text() == "alpha\nbeta\ngamma\n"


def test_an_error_is_a_tool_message_with_status_error(root: Path, tmp_path: Path) -> None:
    tools = by_name(langchain_tools(root))
    direct = twin(root, tmp_path)
    edit = {"file_path": "notes.txt", "old_string": "delta", "new_string": "DELTA"}
    tools["read"].invoke(call("read", {"file_path": "notes.txt"}))
    direct.call("read", {"file_path": "notes.txt"})
    message = tools["edit"].invoke(call("edit", edit, id="call_9"))
    expected = direct.call("edit", edit)
    assert expected.is_error
    assert isinstance(message, ToolMessage)
    assert (message.status, message.tool_call_id, message.name) == ("error", "call_9", "edit")
    assert message.content == expected.text
    assert message.content.startswith("Error: old_string was not found in notes.txt")
    assert (root / "notes.txt").read_text() == "alpha\nbeta\ngamma\n"
    # Arguments of the wrong shape are the tools' to judge, and an answer too.
    wrong = tools["read"].invoke(call("read", {"file_path": 5}, id="call_10"))
    assert (wrong.status, wrong.content) == ("error", direct.call("read", {"file_path": 5}).text)


def test_an_image_is_a_standard_image_block_with_base64_data(root: Path, tmp_path: Path) -> None:
    tools = by_name(langchain_tools(root))
    message = tools["read"].invoke(call("read", {"file_path": "pixel.png"}))
    direct = twin(root, tmp_path).call("read", {"file_path": "pixel.png"})
    assert message.status == "success"
    assert message.content == [
        {"type": "text", "text": direct.content[0].text},
        {"type": "image", "base64": direct.content[1].base64, "mime_type": "image/png"},
    ]
    assert message.content[0]["text"] == "[image: PNG 4x3, 96 bytes; shown as it is]"
    assert base64.b64decode(message.content[1]["base64"]) == png(4, 3)
    # LangChain reads them as its own standard blocks.
    assert [block["type"] for block in message.content_blocks] == ["text", "image"]
    assert message.artifact["kind"] == "image"


def test_ainvoke_answers_as_invoke(root: Path, tmp_path: Path) -> None:
    tools = by_name(langchain_tools(root))
    direct = twin(root, tmp_path)
    edit = {"file_path": "notes.txt", "old_string": "gamma", "new_string": "GAMMA"}
    stale = {"file_path": "notes.txt", "old_string": "delta", "new_string": "DELTA"}

    async def main() -> list:
        read = await tools["read"].ainvoke(call("read", {"file_path": "notes.txt"}))
        edited = await tools["edit"].ainvoke(call("edit", edit, id="call_2"))
        failed = await tools["edit"].ainvoke(call("edit", stale, id="call_3"))
        return [read, edited, failed]

    read, edited, failed = asyncio.run(main())
    assert read.content == direct.call("read", {"file_path": "notes.txt"}).text
    assert (edited.status, edited.content) == ("success", direct.call("edit", edit).text)
    assert (failed.status, failed.content) == ("error", direct.call("edit", stale).text)
    assert (root / "notes.txt").read_text() == "alpha\nbeta\nGAMMA\n"


def test_without_a_tool_call_the_answer_is_the_content() -> None:
    tools = by_name(langchain_tools(fs=MemoryFs({"a.txt": "one\n"})))
    text = tools["read"].invoke({"file_path": "a.txt"})
    assert text == Tools(fs=MemoryFs({"a.txt": "one\n"})).session().read("a.txt").text


def test_a_chat_models_tool_calls_run_in_a_loop() -> None:
    fs = MemoryFs({"app.py": 'print("helo")\n'})
    tools = by_name(langchain_tools(fs=fs))
    edit = {"file_path": "app.py", "old_string": "helo", "new_string": "hello"}
    model = GenericFakeChatModel(
        messages=iter(
            [
                AIMessage(content="", tool_calls=[call("read", {"file_path": "app.py"}, id="r")]),
                AIMessage(content="", tool_calls=[call("edit", edit, id="e")]),
                AIMessage(content="Fixed the typo."),
            ]
        )
    )
    history: list = [HumanMessage("Fix the typo in app.py")]
    while True:
        message = model.invoke(history)
        history.append(message)
        if not message.tool_calls:
            break
        history.extend(tools[tool_call["name"]].invoke(tool_call) for tool_call in message.tool_calls)
    answers = [m for m in history if isinstance(m, ToolMessage)]
    assert [(m.tool_call_id, m.status) for m in answers] == [("r", "success"), ("e", "success")]
    assert answers[1].content.startswith("Edited app.py: 1 replacement")
    assert fs.files() == {"app.py": b'print("hello")\n'}
    assert history[-1].content == "Fixed the typo."


def test_another_tool_set_gives_its_own_tools() -> None:
    tools = langchain_tools(fs=MemoryFs({"a.txt": "one\ntwo\n"}), config={"tools": "text-editor"})
    assert [tool.name for tool in tools] == ["str_replace_based_edit_tool"]
    message = tools[0].invoke(call("str_replace_based_edit_tool", {"command": "view", "path": "a.txt"}))
    assert message.status == "success"
    assert message.content.startswith("1\tone\n2\ttwo")


def test_the_tools_take_a_session_or_tools() -> None:
    fs = MemoryFs({})
    session = Tools(fs=fs).session()
    tools = by_name(langchain_tools(session))
    tools["write"].invoke(call("write", {"file_path": "new.txt", "content": "x\n"}))
    assert fs.files() == {"new.txt": b"x\n"}
    # The session given is the one answering: its history has the write.
    assert not session.undo("new.txt").is_error
    assert fs.files() == {}
    with pytest.raises(TypeError):
        langchain_tools(session, read_only=True)


def test_import_filetools_costs_nothing_and_a_missing_sdk_names_its_package() -> None:
    assert (
        missing_sdk_message("langchain", "langchain_core")
        == "filetools.langchain needs LangChain's core package: pip install langchain-core\n"
    )
