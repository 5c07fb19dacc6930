"""filetools.anthropic against the real Anthropic SDK, with no network: the
SDK builds the requests and parses the responses of a scripted transport,
and what the adapter gives is checked against the SDK's own request types
and against a session run directly on a twin of the same files."""

from __future__ import annotations

import asyncio
import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import anthropic
import httpx2
from anthropic.types import Message, MessageParam, ToolUnionParam

from conftest import TURN, TURN_NOTES, conforms, png, reference, turn_root
from filetools import Tools
from filetools.anthropic import AnthropicTools, anthropic_tools

PNG = png(4, 3)


def message_json(uses: List[Any]) -> Dict[str, Any]:
    """An assistant message calling each (name, input) of ``uses``."""
    content: List[Dict[str, Any]] = [{"type": "text", "text": "Let me look at the files."}]
    for index, (name, arguments) in enumerate(uses):
        content.append({"type": "tool_use", "id": f"toolu_{index}", "name": name, "input": arguments})
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": content,
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 100, "output_tokens": 50},
    }


class ScriptedApi:
    """An Anthropic client whose transport records each request body and
    answers with the next scripted message."""

    def __init__(self, *replies: Dict[str, Any]) -> None:
        self.replies = list(replies)
        self.requests: List[Dict[str, Any]] = []
        transport = httpx2.MockTransport(self._handle)
        self.client = anthropic.Anthropic(api_key="test", max_retries=0, http_client=httpx2.Client(transport=transport))

    def _handle(self, request: httpx2.Request) -> httpx2.Response:
        assert request.url.path == "/v1/messages"
        self.requests.append(json.loads(request.content))
        return httpx2.Response(200, json=self.replies.pop(0))

    def create(self, messages: List[Any], tools: List[Any]) -> Message:
        return self.client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages, tools=tools)


def test_tools_reach_the_api_as_the_definitions_give_them(tmp_path: Path) -> None:
    for strict in (False, True):
        ft = anthropic_tools(turn_root(tmp_path / f"root-{strict}"), strict=strict)
        expected = Tools(tmp_path / f"root-{strict}").definitions("anthropic-strict" if strict else "anthropic")
        assert ft.tools == expected
        assert [tool["name"] for tool in ft.tools] == ["read", "write", "edit", "undo", "grep", "find", "replace"]
        assert all(tool.get("strict", False) is strict for tool in ft.tools)
        assert all(conforms(ToolUnionParam, tool) for tool in ft.tools)

        api = ScriptedApi(message_json([]))
        api.create([{"role": "user", "content": "Hi"}], ft.tools)
        assert api.requests[0]["tools"] == expected


def test_results_answer_every_tool_use_of_a_response(tmp_path: Path) -> None:
    root = turn_root(tmp_path / "root")
    ft = anthropic_tools(root)
    api = ScriptedApi(message_json(TURN), message_json([]))
    question = {"role": "user", "content": "Change beta to gamma in notes.txt"}
    response = api.create([question], ft.tools)
    assert isinstance(response.content[1], anthropic.types.ToolUseBlock)

    answer = ft.results(response)
    expected = reference(turn_root(tmp_path / "twin"), TURN)

    assert answer["role"] == "user"
    blocks = answer["content"]
    assert [block["tool_use_id"] for block in blocks] == [f"toolu_{i}" for i in range(len(TURN))]
    assert all(block["type"] == "tool_result" for block in blocks)
    assert [block["is_error"] for block in blocks] == [False, False, False, True, True]
    for block, result in zip(blocks, expected):
        assert "\n".join(part["text"] for part in block["content"] if part["type"] == "text") == result.text
    assert blocks[0]["content"] == [{"type": "text", "text": expected[0].text}]
    assert blocks[0]["content"][0]["text"].startswith("1\talpha\n2\tbeta\n")
    assert blocks[3]["content"][0]["text"].startswith("Error: file_path must be a string")
    assert blocks[4]["content"][0]["text"].startswith('Error: unknown tool "bash"')
    assert (root / "notes.txt").read_text() == "alpha\ngamma\n"

    text, image = blocks[1]["content"]
    assert text == {"type": "text", "text": expected[1].text}
    assert image["type"] == "image"
    assert image["source"]["type"] == "base64"
    assert image["source"]["media_type"] == "image/png"
    assert base64.b64decode(image["source"]["data"]) == PNG

    assert conforms(MessageParam, answer)
    # The SDK sends the answer, image block and all, as it is.
    assistant = {"role": "assistant", "content": response.content}
    api.create([question, assistant, answer], ft.tools)
    sent = api.requests[1]["messages"]
    assert sent[2] == answer
    assert sent[1]["content"][1] == {"type": "tool_use", "id": "toolu_0", "name": "read", "input": TURN[0][1]}


def test_results_read_a_validated_message_and_its_dict_alike(tmp_path: Path) -> None:
    turn = TURN[:3]
    message = Message.model_validate(message_json(turn))
    from_model = anthropic_tools(turn_root(tmp_path / "a")).results(message)
    from_dict = anthropic_tools(turn_root(tmp_path / "b")).results(message.model_dump())
    from_blocks = anthropic_tools(turn_root(tmp_path / "c")).results(message_json(turn)["content"])
    assert from_model == from_dict == from_blocks
    assert len(from_model["content"]) == 3
    for name in "abc":
        assert (tmp_path / name / "notes.txt").read_text() == "alpha\ngamma\n"


def test_a_message_without_tool_use_gets_an_empty_answer(tmp_path: Path) -> None:
    ft = anthropic_tools(turn_root(tmp_path / "root"))
    assert ft.results(Message.model_validate(message_json([]))) == {"role": "user", "content": []}


def test_one_session_remembers_across_turns(tmp_path: Path) -> None:
    """A write over a file needs the read from an earlier turn: the adapter
    keeps one session for the conversation."""
    root = turn_root(tmp_path / "root")
    ft = anthropic_tools(root)
    ft.results(Message.model_validate(message_json([("read", {"file_path": "notes.txt"})])))
    write = ("write", {"file_path": "notes.txt", "content": "omega\n"})
    answer = ft.results(Message.model_validate(message_json([write])))
    assert answer["content"][0]["is_error"] is False
    assert (root / "notes.txt").read_text() == "omega\n"

    fresh = anthropic_tools(turn_root(tmp_path / "twin"))
    refused = fresh.results(Message.model_validate(message_json([write])))
    assert refused["content"][0]["is_error"] is True
    assert (tmp_path / "twin" / "notes.txt").read_text() == TURN_NOTES


def test_aresults_gives_what_results_gives(tmp_path: Path) -> None:
    message = Message.model_validate(message_json(TURN))
    synchronous = anthropic_tools(turn_root(tmp_path / "a")).results(message)
    asynchronous = asyncio.run(anthropic_tools(turn_root(tmp_path / "b")).aresults(message))
    assert asynchronous == synchronous
    assert (tmp_path / "b" / "notes.txt").read_text() == "alpha\ngamma\n"
    single = asyncio.run(anthropic_tools(turn_root(tmp_path / "c")).aresult(message.content[1]))
    assert single == synchronous["content"][0]


def test_the_text_editor_tool_set_uses_the_built_in_tool(tmp_path: Path) -> None:
    config = {"tools": "text-editor"}
    root = turn_root(tmp_path / "root")
    ft = anthropic_tools(root, config=config)
    assert isinstance(ft, AnthropicTools)
    assert ft.tools == [{"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"}]
    assert anthropic_tools(turn_root(tmp_path / "strict"), strict=True, config=config).tools == ft.tools
    assert conforms(ToolUnionParam, ft.tools[0])

    name = ft.tools[0]["name"]
    turn = [
        (name, {"command": "view", "path": "notes.txt"}),
        (name, {"command": "str_replace", "path": "notes.txt", "old_str": "beta", "new_str": "gamma"}),
        (name, {"command": "str_replace", "path": "notes.txt", "old_str": "missing", "new_str": "x"}),
    ]
    api = ScriptedApi(message_json(turn))
    response = api.create([{"role": "user", "content": "Change beta to gamma"}], ft.tools)
    assert api.requests[0]["tools"] == ft.tools

    answer = ft.results(response)
    expected = reference(turn_root(tmp_path / "twin"), turn, config)
    assert [block["content"] for block in answer["content"]] == [
        [{"type": "text", "text": result.text}] for result in expected
    ]
    assert [block["is_error"] for block in answer["content"]] == [False, False, True]
    assert (root / "notes.txt").read_text() == "alpha\ngamma\n"
    assert conforms(MessageParam, answer)


def test_importing_the_package_or_the_adapter_imports_no_sdk() -> None:
    code = (
        "import sys, filetools; assert 'filetools.anthropic' not in sys.modules; "
        "import filetools.anthropic; print('anthropic' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"
