"""filetools.openai against the real OpenAI SDK, with no network: the SDK
builds the Chat Completions and Responses requests and parses the responses
of a scripted transport, and what the adapter gives is checked against the
SDK's own request types and against a session run directly on a twin of
the same files."""

from __future__ import annotations

import asyncio
import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import httpx2
import openai
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam, ChatCompletionToolUnionParam
from openai.types.responses import Response, ResponseApplyPatchToolCall, ResponseInputItemParam, ToolParam

import conftest
from conftest import conforms, png, reference
from filetools import Tools
from filetools.openai import OpenAITools, openai_tools

# The filetools set's tools, in the order they are listed.
FILETOOLS_NAMES = ["read", "write", "edit", "undo", "grep", "find", "replace"]

NOTES = "alpha\nbeta\n"
PATCH_TOOLS = {"tools": ["filetools", "apply-patch"]}

#: A model's calls: a read, an image read, an edit, JSON cut short, and a
#: tool that does not exist. Arguments are JSON text, as the APIs send them.
CALLS = [
    ("read", '{"file_path": "notes.txt"}'),
    ("read", '{"file_path": "pic.png"}'),
    ("edit", '{"file_path": "notes.txt", "old_string": "beta", "new_string": "gamma"}'),
    ("edit", '{"file_path": "notes.txt", "old_string": '),
    ("shell", '{"command": "ls"}'),
]
ERRORS = [False, False, False, True, True]

PNG = png(4, 3)
PNG_URL = "data:image/png;base64," + base64.b64encode(PNG).decode()


def make_root(path: Path) -> Path:
    """A root holding notes.txt and pic.png."""
    return conftest.make_root(path, NOTES, "pic.png")


def completion_json(calls: List[Any]) -> Dict[str, Any]:
    """A chat completion whose message calls each (name, arguments)."""
    tool_calls = [
        {"id": f"call_{index}", "type": "function", "function": {"name": name, "arguments": arguments}}
        for index, (name, arguments) in enumerate(calls)
    ]
    message = {"role": "assistant", "content": None, "tool_calls": tool_calls or None}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1700000000,
        "model": "gpt-5",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message, "logprobs": None}],
    }


def response_json(output: List[Dict[str, Any]]) -> Dict[str, Any]:
    """A Responses API response with these output items."""
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1700000000,
        "model": "gpt-5",
        "status": "completed",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


def function_call(index: int, name: str, arguments: str) -> Dict[str, Any]:
    ids = {"id": f"fc_{index}", "call_id": f"call_{index}"}
    return {"type": "function_call", **ids, "name": name, "arguments": arguments, "status": "completed"}


def apply_patch_call(index: int, operation: Dict[str, Any]) -> Dict[str, Any]:
    ids = {"id": f"apc_{index}", "call_id": f"call_{index}"}
    return {"type": "apply_patch_call", **ids, "status": "completed", "operation": operation}


class ScriptedApi:
    """An OpenAI client whose transport records each request (path and
    body) and answers with the next scripted body."""

    def __init__(self, *replies: Dict[str, Any]) -> None:
        self.replies = list(replies)
        self.requests: List[Any] = []
        transport = httpx2.MockTransport(self._handle)
        self.client = openai.OpenAI(api_key="test", max_retries=0, http_client=httpx2.Client(transport=transport))

    def _handle(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append((request.url.path, json.loads(request.content)))
        return httpx2.Response(200, json=self.replies.pop(0))

    def chat(self, messages: List[Any], tools: List[Any]) -> ChatCompletion:
        return self.client.chat.completions.create(model="gpt-5", messages=messages, tools=tools)

    def respond(self, items: Any, tools: List[Any]) -> Response:
        return self.client.responses.create(model="gpt-5", input=items, tools=tools)


# Chat Completions


def test_chat_tools_reach_the_api_as_the_definitions_give_them(tmp_path: Path) -> None:
    for strict in (False, True):
        root = make_root(tmp_path / f"root-{strict}")
        ft = openai_tools(root, strict=strict)
        assert ft.chat_tools == Tools(root).definitions("openai-strict" if strict else "openai")
        assert [tool["function"]["name"] for tool in ft.chat_tools] == FILETOOLS_NAMES
        assert all(tool["function"].get("strict", False) is strict for tool in ft.chat_tools)
        assert all(conforms(ChatCompletionToolUnionParam, tool) for tool in ft.chat_tools)

        api = ScriptedApi(completion_json([]))
        api.chat([{"role": "user", "content": "Hi"}], ft.chat_tools)
        assert api.requests[0][0] == "/v1/chat/completions"
        assert api.requests[0][1]["tools"] == ft.chat_tools


def test_chat_results_answer_every_tool_call(tmp_path: Path) -> None:
    root = make_root(tmp_path / "root")
    ft = openai_tools(root)
    api = ScriptedApi(completion_json(CALLS), completion_json([]))
    question = {"role": "user", "content": "Change beta to gamma in notes.txt"}
    message = api.chat([question], ft.chat_tools).choices[0].message

    answer = ft.chat_results(message)
    expected = reference(make_root(tmp_path / "twin"), CALLS)

    tool_messages, images = answer[:-1], answer[-1]
    assert tool_messages == [
        {"role": "tool", "tool_call_id": f"call_{index}", "content": result.text}
        for index, result in enumerate(expected)
    ]
    assert [result.is_error for result in expected] == ERRORS
    assert tool_messages[3]["content"].startswith("Error: the arguments must be a JSON object")
    assert tool_messages[4]["content"].startswith('Error: unknown tool "shell"')
    assert images == {
        "role": "user",
        "content": [
            {"type": "text", "text": "The image read returned for call call_1:"},
            {"type": "image_url", "image_url": {"url": PNG_URL}},
        ],
    }
    assert (root / "notes.txt").read_text() == "alpha\ngamma\n"
    assert all(conforms(ChatCompletionMessageParam, item) for item in answer)

    api.chat([question, message, *answer], ft.chat_tools)
    sent = api.requests[1][1]["messages"]
    assert sent[2:] == answer
    assert sent[1]["tool_calls"][2]["function"] == {"name": "edit", "arguments": CALLS[2][1]}


def test_chat_results_without_images_are_tool_messages_only(tmp_path: Path) -> None:
    ft = openai_tools(make_root(tmp_path / "root"))
    message = ChatCompletion.model_validate(completion_json(CALLS[:1])).choices[0].message
    answer = ft.chat_results(message)
    assert [item["role"] for item in answer] == ["tool"]
    assert ft.chat_results(ChatCompletion.model_validate(completion_json([])).choices[0].message) == []


def test_strict_chat_arguments_with_nulls(tmp_path: Path) -> None:
    """A strict schema makes the model send every argument, null when it
    means none; the tools take null as absent."""
    root = make_root(tmp_path / "root")
    ft = openai_tools(root, strict=True)
    required = {tool["function"]["name"]: tool["function"]["parameters"]["required"] for tool in ft.chat_tools}
    read = {"file_path": "notes.txt"}
    edit = {"file_path": "notes.txt", "old_string": "beta", "new_string": "gamma"}

    def every(name: str, given: Dict[str, Any]) -> str:
        """The arguments of a strict call: each one, null when not given."""
        return json.dumps({key: given.get(key) for key in required[name]})

    assert set(read) < set(required["read"]) and set(edit) < set(required["edit"])
    calls = [("read", every("read", read)), ("edit", every("edit", edit))]
    message = ChatCompletion.model_validate(completion_json(calls))
    answer = ft.chat_results(message.choices[0].message)
    plain = reference(make_root(tmp_path / "twin"), [("read", read), ("edit", edit)])
    assert [item["content"] for item in answer] == [result.text for result in plain]
    assert not any(result.is_error for result in plain)
    assert (root / "notes.txt").read_text() == "alpha\ngamma\n"


def test_chat_results_read_dicts_and_skip_other_tool_calls(tmp_path: Path) -> None:
    completion = ChatCompletion.model_validate(completion_json(CALLS))
    from_model = openai_tools(make_root(tmp_path / "a")).chat_results(completion.choices[0].message)
    as_dict = completion.choices[0].message.model_dump()
    as_dict["tool_calls"].append({"id": "call_custom", "type": "custom", "custom": {"name": "grammar", "input": "x"}})
    from_dict = openai_tools(make_root(tmp_path / "b")).chat_results(as_dict)
    assert from_dict == from_model
    assert all(item.get("tool_call_id") != "call_custom" for item in from_dict)


def test_achat_results_gives_what_chat_results_gives(tmp_path: Path) -> None:
    message = ChatCompletion.model_validate(completion_json(CALLS)).choices[0].message
    synchronous = openai_tools(make_root(tmp_path / "a")).chat_results(message)
    asynchronous = asyncio.run(openai_tools(make_root(tmp_path / "b")).achat_results(message))
    assert asynchronous == synchronous
    assert (tmp_path / "b" / "notes.txt").read_text() == "alpha\ngamma\n"


# Responses API


def test_responses_tools_reach_the_api_as_the_definitions_give_them(tmp_path: Path) -> None:
    for strict in (False, True):
        root = make_root(tmp_path / f"root-{strict}")
        ft = openai_tools(root, strict=strict)
        assert isinstance(ft, OpenAITools)
        expected = Tools(root).definitions("openai-responses-strict" if strict else "openai-responses")
        assert ft.responses_tools == expected
        assert [tool["name"] for tool in ft.responses_tools] == FILETOOLS_NAMES
        assert all(tool["strict"] is strict for tool in ft.responses_tools)
        assert all(conforms(ToolParam, tool) for tool in ft.responses_tools)

        api = ScriptedApi(response_json([]))
        api.respond("Hi", ft.responses_tools)
        assert api.requests[0][0] == "/v1/responses"
        assert api.requests[0][1]["tools"] == ft.responses_tools


def test_responses_results_answer_every_function_call(tmp_path: Path) -> None:
    root = make_root(tmp_path / "root")
    ft = openai_tools(root)
    output = [{"type": "reasoning", "id": "rs_1", "summary": []}]
    output += [function_call(index, name, arguments) for index, (name, arguments) in enumerate(CALLS)]
    api = ScriptedApi(response_json(output), response_json([]))
    response = api.respond("Change beta to gamma in notes.txt", ft.responses_tools)

    items = ft.responses_results(response)
    expected = reference(make_root(tmp_path / "twin"), CALLS)

    assert [item["call_id"] for item in items] == [f"call_{index}" for index in range(len(CALLS))]
    assert all(item["type"] == "function_call_output" for item in items)
    for index, (item, result) in enumerate(zip(items, expected)):
        if index != 1:
            assert item["output"] == result.text
    assert items[1]["output"] == [
        {"type": "input_text", "text": expected[1].text},
        {"type": "input_image", "image_url": PNG_URL},
    ]
    assert items[3]["output"].startswith("Error: the arguments must be a JSON object")
    assert (root / "notes.txt").read_text() == "alpha\ngamma\n"
    assert all(conforms(ResponseInputItemParam, item) for item in items)

    api.respond([*response.output, *items], ft.responses_tools)
    sent = api.requests[1][1]["input"]
    assert sent[len(output) :] == items
    assert sent[3] == function_call(2, *CALLS[2])


def test_responses_results_read_dicts_and_output_lists(tmp_path: Path) -> None:
    output = [function_call(index, name, arguments) for index, (name, arguments) in enumerate(CALLS)]
    response = Response.model_validate(response_json(output))
    from_model = openai_tools(make_root(tmp_path / "a")).responses_results(response)
    from_dict = openai_tools(make_root(tmp_path / "b")).responses_results(response.model_dump())
    from_list = openai_tools(make_root(tmp_path / "c")).responses_results(response.output)
    assert from_model == from_dict == from_list
    assert len(from_model) == len(CALLS)


def test_aresponses_results_gives_what_responses_results_gives(tmp_path: Path) -> None:
    output = [function_call(index, name, arguments) for index, (name, arguments) in enumerate(CALLS)]
    response = Response.model_validate(response_json(output))
    synchronous = openai_tools(make_root(tmp_path / "a")).responses_results(response)
    asynchronous = asyncio.run(openai_tools(make_root(tmp_path / "b")).aresponses_results(response))
    assert asynchronous == synchronous
    assert (tmp_path / "b" / "notes.txt").read_text() == "alpha\ngamma\n"


def test_the_apply_patch_tool_set_uses_the_built_in_tool(tmp_path: Path) -> None:
    root = make_root(tmp_path / "root")
    ft = openai_tools(root, config=PATCH_TOOLS)
    assert ft.responses_tools[-1] == {"type": "apply_patch"}
    assert [tool.get("name") for tool in ft.responses_tools[:-1]] == FILETOOLS_NAMES
    assert all(conforms(ToolParam, tool) for tool in ft.responses_tools)
    # Chat Completions has no built-in: apply_patch is a function there.
    assert ft.chat_tools[-1]["function"]["name"] == "apply_patch"

    update = {"type": "update_file", "path": "notes.txt", "diff": "@@\n alpha\n-beta\n+gamma\n"}
    create = {"type": "create_file", "path": "docs/new.md", "diff": "+# New\n+text\n"}
    missing = {"type": "update_file", "path": "absent.txt", "diff": "@@\n-a\n+b\n"}
    output = [
        apply_patch_call(0, update),
        apply_patch_call(1, create),
        apply_patch_call(2, missing),
        function_call(3, "read", '{"file_path": "notes.txt"}'),
    ]
    api = ScriptedApi(response_json(output), response_json([]))
    response = api.respond("Change beta to gamma", ft.responses_tools)
    assert api.requests[0][1]["tools"][-1] == {"type": "apply_patch"}
    assert isinstance(response.output[0], ResponseApplyPatchToolCall)

    items = ft.responses_results(response)
    expected = reference(
        make_root(tmp_path / "twin"),
        [("apply_patch", {"operation": operation}) for operation in (update, create, missing)]
        + [("read", {"file_path": "notes.txt"})],
        PATCH_TOOLS,
    )
    assert items[:3] == [
        {"type": "apply_patch_call_output", "call_id": f"call_{index}", "status": status, "output": result.text}
        for index, (status, result) in enumerate(zip(["completed", "completed", "failed"], expected))
    ]
    assert items[0]["output"].startswith("Done: 1 file changed.")
    assert items[2]["output"].startswith("Error:")
    # In the response's order: the read after the patch sees the patched file.
    assert items[3] == {"type": "function_call_output", "call_id": "call_3", "output": expected[3].text}
    assert "2\tgamma" in items[3]["output"]
    assert (root / "notes.txt").read_text() == "alpha\ngamma\n"
    assert (root / "docs" / "new.md").read_text().startswith("# New\ntext")
    assert all(conforms(ResponseInputItemParam, item) for item in items)

    api.respond([*response.output, *items], ft.responses_tools)
    sent = api.requests[1][1]["input"]
    assert sent[:4] == output and sent[4:] == items

    from_dict = openai_tools(make_root(tmp_path / "dict"), config=PATCH_TOOLS).responses_results(response.model_dump())
    assert from_dict == items


def test_importing_the_package_or_the_adapter_imports_no_sdk() -> None:
    code = (
        "import sys, filetools; assert 'filetools.openai' not in sys.modules; "
        "import filetools.openai; print('openai' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"
