"""filetools.agents against the real OpenAI Agents SDK, with no network:
each FunctionTool is invoked with the SDK's ToolContext, then the SDK's own
run loop drives the tools from its scripted model; answers are checked
against a session run directly on a twin of the same files."""

from __future__ import annotations

import asyncio
import base64
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

from agents import Agent, ApplyPatchTool, FunctionTool, RunConfig, Runner, ToolOutputImage, ToolOutputText
from agents.testing import ScriptedModel, assistant_message, function_call
from agents.tool_context import ToolContext

import conftest
from conftest import missing_sdk_message, png, reference
from filetools import Tools
from filetools.agents import apply_patch_tool, function_tools

NOTES = "alpha\nbeta\n"
PATCH_TOOLS = {"tools": ["filetools", "apply-patch"]}
NO_TRACING = RunConfig(tracing_disabled=True)

PNG = png(4, 3)
PNG_URL = "data:image/png;base64," + base64.b64encode(PNG).decode()


def make_root(path: Path) -> Path:
    """A root holding notes.txt, other.txt and pic.png."""
    conftest.make_root(path, NOTES, "pic.png")
    (path / "other.txt").write_text("kept\n")
    return path


def by_name(tools: List[FunctionTool]) -> Dict[str, FunctionTool]:
    return {tool.name: tool for tool in tools}


async def invoke(tool: FunctionTool, arguments: str, call_id: str = "call_1") -> Any:
    """Calls ``tool`` as the SDK does: a ToolContext and the model's JSON."""
    context = ToolContext(context=None, tool_name=tool.name, tool_call_id=call_id, tool_arguments=arguments)
    return await tool.on_invoke_tool(context, arguments)


def outputs(items: List[Any]) -> Dict[str, Any]:
    """The outputs of the tool calls among a model's input items, by call id."""
    return {
        item["call_id"]: item
        for item in items
        if isinstance(item, dict) and item.get("type") in ("function_call_output", "apply_patch_call_output")
    }


def test_function_tools_carry_the_definitions(tmp_path: Path) -> None:
    root = make_root(tmp_path / "root")
    for strict in (False, True):
        tools = function_tools(root, strict=strict)
        definitions = [item["function"] for item in Tools(root).definitions("openai-strict" if strict else "openai")]
        assert all(isinstance(tool, FunctionTool) for tool in tools)
        assert [tool.name for tool in tools] == ["read", "write", "edit", "undo", "grep", "find", "replace"]
        assert [tool.description for tool in tools] == [item["description"] for item in definitions]
        # With strict_json_schema=True the SDK makes the schema strict on its
        # own: the strict definitions come out of it unchanged.
        assert [tool.params_json_schema for tool in tools] == [item["parameters"] for item in definitions]
        assert all(tool.strict_json_schema is strict for tool in tools)
        schemas = [tool.params_json_schema for tool in tools]
        every_one_required = [set(schema.get("required", ())) == set(schema["properties"]) for schema in schemas]
        assert every_one_required == [strict] * len(tools)


def test_on_invoke_tool_answers_as_a_session_does(tmp_path: Path) -> None:
    root = make_root(tmp_path / "root")
    tools = by_name(function_tools(root))
    calls = [
        ("read", '{"file_path": "notes.txt"}'),
        ("edit", '{"file_path": "notes.txt", "old_string": "beta", "new_string": "gamma"}'),
        ("edit", '{"file_path": "notes.txt", "old_string": '),
        ("write", '{"file_path": "other.txt", "content": "replaced\\n"}'),
        ("undo", '{"file_path": "notes.txt"}'),
        ("read", '{"file_path": "notes.txt", "offset": 2}'),
    ]
    answers = [asyncio.run(invoke(tools[name], arguments)) for name, arguments in calls]
    expected = reference(make_root(tmp_path / "twin"), calls)

    assert answers == [result.text for result in expected]
    assert [result.is_error for result in expected] == [False, False, True, True, False, False]
    assert answers[1].startswith("Edited notes.txt: 1 replacement")
    assert answers[2].startswith("Error: the arguments must be a JSON object")
    assert answers[5].startswith("2\tbeta\n")
    # The edit was undone; the write over an unread file was refused.
    assert (root / "notes.txt").read_text() == NOTES
    assert (root / "other.txt").read_text() == "kept\n"


def test_an_image_comes_back_as_text_and_image_outputs(tmp_path: Path) -> None:
    tool = by_name(function_tools(make_root(tmp_path / "root")))["read"]
    answer = asyncio.run(invoke(tool, '{"file_path": "pic.png"}'))
    (expected,) = reference(make_root(tmp_path / "twin"), [("read", {"file_path": "pic.png"})])
    assert answer == [ToolOutputText(text=expected.text), ToolOutputImage(image_url=PNG_URL)]
    assert expected.text.startswith("[image: PNG 4x3")


def test_the_text_editor_tool_set_is_one_function_tool(tmp_path: Path) -> None:
    config = {"tools": "text-editor"}
    root = make_root(tmp_path / "root")
    (tool,) = function_tools(root, config=config)
    assert tool.name == "str_replace_based_edit_tool"
    calls = [
        '{"command": "view", "path": "notes.txt"}',
        '{"command": "str_replace", "path": "notes.txt", "old_str": "beta", "new_str": "gamma"}',
    ]
    answers = [asyncio.run(invoke(tool, arguments)) for arguments in calls]
    expected = reference(make_root(tmp_path / "twin"), [(tool.name, arguments) for arguments in calls], config)
    assert answers == [result.text for result in expected]
    assert (root / "notes.txt").read_text() == "alpha\ngamma\n"


def test_the_run_loop_drives_the_tools(tmp_path: Path) -> None:
    root = make_root(tmp_path / "root")
    tools = function_tools(root, strict=True)
    required = {tool.name: tool.params_json_schema["required"] for tool in tools}

    def strict_call(name: str, call_id: str, **given: Any) -> Any:
        """A call whose arguments a strict schema shaped: all of them, null
        when the model means none."""
        return function_call(name, {key: given.get(key) for key in required[name]}, call_id=call_id)

    model = ScriptedModel(
        [
            [strict_call("read", "c1", file_path="notes.txt"), strict_call("read", "c2", file_path="pic.png")],
            [strict_call("edit", "c3", file_path="notes.txt", old_string="beta", new_string="gamma")],
            [assistant_message("Changed beta to gamma.")],
        ]
    )
    agent = Agent(name="coder", instructions="Edit files.", model=model, tools=tools)
    result = asyncio.run(Runner.run(agent, "Change beta to gamma in notes.txt", run_config=NO_TRACING))

    assert result.final_output == "Changed beta to gamma."
    assert (root / "notes.txt").read_text() == "alpha\ngamma\n"
    model.assert_complete()
    assert [tool.name for tool in model.calls[0].tools] == ["read", "write", "edit", "undo", "grep", "find", "replace"]

    expected = reference(
        make_root(tmp_path / "twin"),
        [
            ("read", {"file_path": "notes.txt"}),
            ("read", {"file_path": "pic.png"}),
            ("edit", {"file_path": "notes.txt", "old_string": "beta", "new_string": "gamma"}),
        ],
    )
    sent = outputs(model.calls[2].input)
    assert sent["c1"]["output"] == expected[0].text
    assert sent["c3"]["output"] == expected[2].text
    # The SDK turns the image outputs into the Responses API's parts.
    assert sent["c2"]["output"] == [
        {"type": "input_text", "text": expected[1].text},
        {"type": "input_image", "image_url": PNG_URL},
    ]


def test_apply_patch_tool_applies_the_models_operations(tmp_path: Path) -> None:
    root = make_root(tmp_path / "root")
    session = Tools(root, config=PATCH_TOOLS).session()
    patch_tool = apply_patch_tool(session)
    assert isinstance(patch_tool, ApplyPatchTool)
    tools = function_tools(session)
    assert [tool.name for tool in tools] == ["read", "write", "edit", "undo", "grep", "find", "replace", "apply_patch"]

    update = {"type": "update_file", "path": "notes.txt", "diff": "@@\n alpha\n-beta\n+gamma\n"}
    create = {"type": "create_file", "path": "docs/new.md", "diff": "+# New\n+text\n"}
    missing = {"type": "delete_file", "path": "absent.txt"}

    def patch_call(call_id: str, operation: Dict[str, Any]) -> Dict[str, Any]:
        ids = {"id": f"apc_{call_id}", "call_id": call_id}
        return {"type": "apply_patch_call", **ids, "status": "completed", "operation": operation}

    model = ScriptedModel(
        [
            [patch_call("p1", update), patch_call("p2", create), patch_call("p3", missing)],
            [function_call("read", {"file_path": "notes.txt"}, call_id="c4")],
            [assistant_message("Patched.")],
        ]
    )
    agent = Agent(name="coder", instructions="Edit files.", model=model, tools=[*tools[:4], patch_tool])
    result = asyncio.run(Runner.run(agent, "Patch notes.txt", run_config=NO_TRACING))

    assert result.final_output == "Patched."
    assert (root / "notes.txt").read_text() == "alpha\ngamma\n"
    assert (root / "docs" / "new.md").read_text().startswith("# New\ntext")

    expected = reference(
        make_root(tmp_path / "twin"),
        [("apply_patch", {"operation": operation}) for operation in (update, create, missing)]
        + [("read", {"file_path": "notes.txt"})],
        PATCH_TOOLS,
    )
    sent = outputs(model.calls[2].input)
    assert [(sent[call_id]["status"], sent[call_id]["output"]) for call_id in ("p1", "p2", "p3")] == [
        ("completed", expected[0].text),
        ("completed", expected[1].text),
        ("failed", expected[2].text),
    ]
    assert sent["c4"]["output"] == expected[3].text


def test_importing_the_package_imports_no_sdk() -> None:
    code = "import sys, filetools; print('filetools.agents' in sys.modules, 'agents' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False False"


def test_without_the_sdk_the_import_error_names_the_package() -> None:
    assert "pip install openai-agents" in missing_sdk_message("agents", "agents")
