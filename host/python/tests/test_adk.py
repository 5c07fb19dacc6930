"""filetools.adk against Google's Agent Development Kit, with no network: an
ADK agent run by ADK's own Runner, over its in-memory sessions, whose model
is scripted: ADK sends the model the tools' declarations and runs the calls
the model makes through the tools, so the declarations must reach the model
as filetools.gemini declares them and the answers as filetools.gemini
writes them."""

from __future__ import annotations

import asyncio
import runpy
from pathlib import Path
from typing import Any, AsyncGenerator, Dict, List

import pytest
from google.adk.agents import LlmAgent
from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools import BaseTool
from google.genai import types

from conftest import TURN, missing_sdk_message, png, reference, turn_root
from filetools import Tools
from filetools.adk import _takes_images, adk_tools, tool_response
from filetools.gemini import gemini_tools

PNG = png(4, 3)

SETS = ["filetools", "text-editor", "apply-patch", "mcp-filesystem", "notebook"]


def model_content(*parts: types.Part) -> types.Content:
    return types.Content(role="model", parts=list(parts))


def calls(turn: List[Any]) -> List[types.Part]:
    """The function call parts of ``turn``, with the ids c0, c1, ..."""
    return [
        types.Part(function_call=types.FunctionCall(id=f"c{i}", name=name, args=args))
        for i, (name, args) in enumerate(turn)
    ]


class ScriptedModel(BaseLlm):
    """A model answering each request with the next scripted content, and
    keeping what each request sent it: the contents and the tools."""

    replies: List[types.Content]
    contents: List[List[types.Content]] = []
    tools: List[Any] = []

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.contents.append([content.model_copy(deep=True) for content in llm_request.contents])
        tools = llm_request.config.tools or []
        self.tools.append([tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in tools])
        yield LlmResponse(content=self.replies.pop(0))


def run(agent: LlmAgent, question: str) -> List[Any]:
    """The events of one run of ``agent`` by ADK's Runner, asked ``question``."""

    async def go() -> List[Any]:
        sessions = InMemorySessionService()
        runner = Runner(agent=agent, app_name="filetools", session_service=sessions)
        session = await sessions.create_session(app_name="filetools", user_id="user")
        message = types.Content(role="user", parts=[types.Part(text=question)])
        return [event async for event in runner.run_async(user_id="user", session_id=session.id, new_message=message)]

    return asyncio.run(go())


def function_responses(contents: List[types.Content]) -> Dict[str, types.Part]:
    """The function response parts of ``contents``, by call id."""
    return {
        part.function_response.id: part
        for content in contents
        for part in content.parts or []
        if part.function_response is not None
    }


def test_the_tools_declare_the_gemini_declarations(tmp_path: Path) -> None:
    for set_name in SETS:
        config = {"tools": [set_name]}
        tools = adk_tools(tmp_path, config=config)
        declarations = Tools(tmp_path, config=config).definitions("gemini")
        assert all(isinstance(tool, BaseTool) for tool in tools), set_name
        assert [tool.name for tool in tools] == [declaration["name"] for declaration in declarations]
        assert [tool.description for tool in tools] == [declaration["description"] for declaration in declarations]
        for tool, declaration in zip(tools, declarations):
            sent = tool._get_declaration()
            assert isinstance(sent, types.FunctionDeclaration)
            assert sent.model_dump(mode="json", by_alias=True, exclude_none=True) == declaration, set_name


def test_an_agent_run_drives_the_tools(tmp_path: Path) -> None:
    root = turn_root(tmp_path / "root")
    tools = adk_tools(root)
    model = ScriptedModel(
        model="scripted",
        replies=[
            model_content(types.Part(text="Let me look."), *calls(TURN)),
            model_content(types.Part(text="Changed beta to gamma.")),
        ],
    )
    agent = LlmAgent(name="coder", model=model, instruction="Edit files.", tools=tools)
    events = run(agent, "Change beta to gamma in notes.txt")

    assert events[-1].is_final_response()
    assert events[-1].content.parts[0].text == "Changed beta to gamma."
    assert model.replies == []
    assert (root / "notes.txt").read_text() == "alpha\ngamma\n"

    # Both requests carried the declarations as filetools.gemini sends them.
    assert len(model.tools) == 2
    assert model.tools[0] == model.tools[1] == gemini_tools(root).tools

    # The second request answered each call with its function response.
    answers = function_responses(model.contents[1])
    assert sorted(answers) == [f"c{i}" for i in range(len(TURN))]
    for i, (name, _) in enumerate(TURN):
        assert answers[f"c{i}"].function_response.name == name
    expected = reference(turn_root(tmp_path / "twin"), TURN[:4])
    responses = [answers[f"c{i}"].function_response.response for i in range(4)]
    assert responses == [{"error" if result.is_error else "output": result.text} for result in expected]
    assert [result.is_error for result in expected] == [False, False, False, True]
    assert responses[0]["output"].startswith("1\talpha\n2\tbeta\n")
    (image,) = answers["c1"].function_response.parts
    assert image.inline_data.mime_type == "image/png" and image.inline_data.data == PNG
    # Each answer is the part filetools.gemini gives for the same call.
    ft = gemini_tools(turn_root(tmp_path / "gemini"))
    for call in calls(TURN[:4]):
        assert answers[call.function_call.id] == types.Part.model_validate(ft.result(call.function_call))
    # A tool that does not exist is answered by ADK, as an error, with no
    # tool run.
    assert list(answers["c4"].function_response.response) == ["error"]


def test_images_go_to_an_adk_that_takes_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (result,) = reference(turn_root(tmp_path), [("read", {"file_path": "pic.png"})])
    assert tool_response(result) == {
        "output": result.text,
        "images": [types.Part.from_bytes(data=PNG, mime_type="image/png")],
    }
    # An ADK before 2.7 would send the parts as JSON: they are left out.
    monkeypatch.setattr("filetools.adk._IMAGES", False)
    assert tool_response(result) == {"output": result.text}
    taken = {version: _takes_images(version) for version in ["1.1.1", "2.6.3", "2.7.0", "2.13.0", "10.0"]}
    assert taken == {"1.1.1": False, "2.6.3": False, "2.7.0": True, "2.13.0": True, "10.0": True}


def test_import_says_what_to_install() -> None:
    assert (
        missing_sdk_message("adk", "google.adk")
        == "filetools.adk needs Google's Agent Development Kit: pip install google-adk\n"
    )


def test_the_readmes_adk_lines_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("`filetools.adk.adk_tools` gives", 1)[1].split("```python\n", 1)[1].split("\n```", 1)[0]
    script = tmp_path / "adk.py"
    script.write_text(block)
    monkeypatch.chdir(tmp_path)
    seen = runpy.run_path(str(script))
    assert sorted(tool.name for tool in seen["agent"].tools) == sorted(
        d["name"] for d in gemini_tools(tmp_path).function_declarations
    )
