"""The Pydantic AI adapter against pydantic_ai itself: a real Agent whose
model is a FunctionModel that makes the tool calls, so the agent's own loop
runs the tools; what the model gets back is compared with a session called
directly over the same files."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Callable, Dict, List

from pydantic_ai import Agent, BinaryContent, Tool
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from conftest import missing_sdk_message, png
from filetools import MemoryFs, Tools
from filetools.pydantic_ai import pydantic_ai_tools, pydantic_ai_toolset

Script = List[List[ToolCallPart]]


class ScriptedModel:
    """A model that answers with each step's tool calls in turn, then with
    a final text; it keeps what it was shown of the tools."""

    def __init__(self, steps: Script) -> None:
        self.steps = list(steps)
        self.returns: List[ToolReturnPart] = []
        self.info: List[AgentInfo] = []

    def __call__(self, messages: List[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.info.append(info)
        self.returns = [part for message in messages for part in message.parts if isinstance(part, ToolReturnPart)]
        if self.steps:
            return ModelResponse(parts=list(self.steps.pop(0)))
        return ModelResponse(parts=[TextPart("done")])


def run(steps: Script, tools: Any = None, toolsets: Any = None) -> ScriptedModel:
    model = ScriptedModel(steps)
    agent = Agent(FunctionModel(model), tools=tools or (), toolsets=toolsets)
    # agent.run_sync would leave its event loop open for later tests.
    assert asyncio.run(agent.run("Fix the typo in app.py")).output == "done"
    return model


def direct(files: Dict[str, str]) -> Callable[[str, Dict[str, Any]], Any]:
    """A session over a twin of ``files``, called directly."""
    return Tools(fs=MemoryFs(files)).session().call


FILES = {"app.py": 'print("helo")\n'}
READ = {"file_path": "app.py"}
EDIT = {"file_path": "app.py", "old_string": "helo", "new_string": "hello"}
STALE = {"file_path": "app.py", "old_string": "helo", "new_string": "hi"}


def test_the_agents_loop_reads_and_edits_and_the_model_gets_the_answers() -> None:
    fs = MemoryFs(FILES)
    model = run(
        [[ToolCallPart("read", READ, tool_call_id="r")], [ToolCallPart("edit", EDIT, tool_call_id="e")]],
        tools=pydantic_ai_tools(fs=fs),
    )
    assert fs.files() == {"app.py": b'print("hello")\n'}
    call = direct(FILES)
    expected = [call("read", READ), call("edit", EDIT)]
    assert [(part.tool_call_id, part.tool_name, part.outcome) for part in model.returns] == [
        ("r", "read", "success"),
        ("e", "edit", "success"),
    ]
    assert [part.content for part in model.returns] == [result.text for result in expected]
    assert model.returns[1].content.startswith("Edited app.py: 1 replacement")
    # The structured content stays with the program, beside the return.
    assert [part.metadata for part in model.returns] == [json.loads(result.metadata_json) for result in expected]


def test_an_error_reaches_the_model_as_a_failed_return_and_the_turn_goes_on() -> None:
    fs = MemoryFs(FILES)
    model = run(
        [
            [ToolCallPart("edit", EDIT, tool_call_id="blind")],
            [ToolCallPart("read", READ, tool_call_id="r")],
            [ToolCallPart("edit", EDIT, tool_call_id="e")],
        ],
        tools=pydantic_ai_tools(fs=fs),
    )
    call = direct(FILES)
    expected = [call("edit", EDIT), call("read", READ), call("edit", EDIT)]
    assert expected[0].is_error
    assert [part.outcome for part in model.returns] == ["failed", "success", "success"]
    # The tools' own words, without a retry prompt around them.
    assert [part.content for part in model.returns] == [result.text for result in expected]
    assert model.returns[0].content.startswith("Error:")
    assert fs.files() == {"app.py": b'print("hello")\n'}


def test_calls_of_one_response_run_in_the_order_they_were_made() -> None:
    fs = MemoryFs(FILES)
    second = {"file_path": "app.py", "old_string": "hello", "new_string": "hello, world"}
    model = run(
        [
            [
                ToolCallPart("read", READ, tool_call_id="r"),
                ToolCallPart("edit", EDIT, tool_call_id="e1"),
                ToolCallPart("edit", second, tool_call_id="e2"),
                ToolCallPart("edit", STALE, tool_call_id="e3"),
            ]
        ],
        tools=pydantic_ai_tools(fs=fs),
    )
    call = direct(FILES)
    expected = [call("read", READ), call("edit", EDIT), call("edit", second), call("edit", STALE)]
    assert [part.tool_call_id for part in model.returns] == ["r", "e1", "e2", "e3"]
    assert [part.content for part in model.returns] == [result.text for result in expected]
    assert [part.outcome for part in model.returns] == ["success", "success", "success", "failed"]
    assert fs.files() == {"app.py": b'print("hello, world")\n'}


def test_an_image_is_returned_as_binary_content() -> None:
    image = png(4, 3)
    fs = MemoryFs({"pixel.png": image})
    model = run([[ToolCallPart("read", {"file_path": "pixel.png"}, tool_call_id="i")]], tools=pydantic_ai_tools(fs=fs))
    (part,) = model.returns
    expected = Tools(fs=MemoryFs({"pixel.png": image})).session().call("read", {"file_path": "pixel.png"})
    text, picture = part.content
    assert text == expected.content[0].text == "[image: PNG 4x3, 96 bytes; shown as it is]"
    assert isinstance(picture, BinaryContent)
    assert (picture.data, picture.media_type) == (image, "image/png")
    assert part.metadata["kind"] == "image"


def test_the_model_is_offered_the_tools_definitions() -> None:
    tools = pydantic_ai_tools(fs=MemoryFs({}))
    assert all(isinstance(tool, Tool) for tool in tools)
    model = run([], tools=tools)
    offered = model.info[0].function_tools
    definitions = Tools(fs=MemoryFs({})).definitions("mcp")
    assert [(t.name, t.description, t.parameters_json_schema) for t in offered] == [
        (d["name"], d["description"], d["inputSchema"]) for d in definitions
    ]
    assert all(t.sequential for t in offered)


def test_a_toolset_serves_the_same_tools() -> None:
    fs = MemoryFs(FILES)
    toolset = pydantic_ai_toolset(fs=fs, id="files")
    assert toolset.id == "files"
    model = run(
        [[ToolCallPart("read", READ, tool_call_id="r"), ToolCallPart("edit", EDIT, tool_call_id="e")]],
        toolsets=[toolset],
    )
    assert [part.outcome for part in model.returns] == ["success", "success"]
    assert fs.files() == {"app.py": b'print("hello")\n'}


def test_arguments_as_the_models_json_text_reach_the_tools() -> None:
    fs = MemoryFs(FILES)
    raw = json.dumps(EDIT)
    model = run(
        [[ToolCallPart("read", json.dumps(READ), tool_call_id="r"), ToolCallPart("edit", raw, tool_call_id="e")]],
        tools=pydantic_ai_tools(fs=fs),
    )
    assert [part.outcome for part in model.returns] == ["success", "success"]
    assert fs.files() == {"app.py": b'print("hello")\n'}


def test_another_tool_set_gives_its_own_tools() -> None:
    fs = MemoryFs({"a.txt": "one\ntwo\n"})
    tools = pydantic_ai_tools(fs=fs, config={"tools": "text-editor"})
    assert [tool.name for tool in tools] == ["str_replace_based_edit_tool"]
    view = {"command": "view", "path": "a.txt"}
    model = run([[ToolCallPart("str_replace_based_edit_tool", view, tool_call_id="v")]], tools=tools)
    expected = Tools(fs=MemoryFs({"a.txt": "one\ntwo\n"}), config={"tools": "text-editor"}).session()
    assert model.returns[0].content == expected.call("str_replace_based_edit_tool", view).text


def test_import_filetools_costs_nothing_and_a_missing_sdk_names_its_package() -> None:
    assert (
        missing_sdk_message("pydantic_ai", "pydantic_ai")
        == "filetools.pydantic_ai needs Pydantic AI: pip install pydantic-ai-slim\n"
    )
