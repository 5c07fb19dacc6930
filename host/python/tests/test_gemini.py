"""filetools.gemini against Google's Gen AI SDK, with no network: the SDK
builds the requests and parses the responses of a scripted transport, so the
declarations must survive the SDK's own conversion of tools unchanged, the
answers its conversion of contents, and both validate as the SDK's types."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any, Dict, List

import httpx
from google import genai
from google.genai import types

from conftest import TURN, png, reference, turn_root
from filetools import Tools
from filetools.gemini import function_calls, gemini_tools

PNG = png(4, 3)

SETS = ["filetools", "text-editor", "apply-patch", "mcp-filesystem", "notebook"]


def response_json(calls: List[Any]) -> Dict[str, Any]:
    """A model response calling each (name, args) of ``calls``."""
    parts: List[Dict[str, Any]] = [{"text": "Let me look."}]
    parts += [{"functionCall": {"id": f"c{i}", "name": name, "args": args}} for i, (name, args) in enumerate(calls)]
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]}


class ScriptedApi:
    """A Gen AI client whose transport records each request body and answers
    with the next scripted response."""

    def __init__(self, *replies: Dict[str, Any]) -> None:
        self.replies = list(replies)
        self.requests: List[Dict[str, Any]] = []
        client = httpx.Client(transport=httpx.MockTransport(self._handle))
        self.client = genai.Client(api_key="test", http_options=types.HttpOptions(httpx_client=client))

    def _handle(self, request: httpx.Request) -> httpx.Response:
        assert request.url.path.endswith(":generateContent"), request.url.path
        self.requests.append(json.loads(request.content))
        return httpx.Response(200, json=self.replies.pop(0))

    def generate(self, contents: List[Any], tools: List[Any]) -> types.GenerateContentResponse:
        return self.client.models.generate_content(model="gemini-2.5-flash", contents=contents, config={"tools": tools})


def test_declarations_reach_the_api_through_the_sdk_unchanged(tmp_path: Path) -> None:
    for set_name in SETS:
        ft = gemini_tools(tmp_path, config={"tools": [set_name]})
        assert ft.function_declarations == Tools(tmp_path, config={"tools": [set_name]}).definitions("gemini")
        for declaration in ft.function_declarations:
            validated = types.FunctionDeclaration.model_validate(declaration)
            assert validated.model_dump(mode="json", by_alias=True, exclude_none=True) == declaration, set_name
        api = ScriptedApi(response_json([]))
        api.generate(["Hi"], ft.tools)
        assert api.requests[0]["tools"] == ft.tools, set_name


def test_results_answer_every_function_call_in_order(tmp_path: Path) -> None:
    root = turn_root(tmp_path / "root")
    ft = gemini_tools(root)
    done_json = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Done."}]}}]}
    api = ScriptedApi(response_json(TURN), done_json)
    question = types.Content(role="user", parts=[types.Part(text="Change beta to gamma in notes.txt")])
    response = api.generate([question], ft.tools)
    assert response.function_calls is not None and len(response.function_calls) == len(TURN)

    answer = ft.results(response)
    expected = reference(turn_root(tmp_path / "twin"), TURN)
    answers = [part["functionResponse"] for part in answer["parts"]]
    assert [a["id"] for a in answers] == [f"c{i}" for i in range(len(TURN))]
    assert [a["name"] for a in answers] == [name for name, _ in TURN]
    assert [next(iter(a["response"])) for a in answers] == ["output", "output", "output", "error", "error"]
    for one, result in zip(answers, expected):
        assert next(iter(one["response"].values())) == result.text
    assert answers[0]["response"]["output"].startswith("1\talpha\n2\tbeta\n")
    assert answers[4]["response"]["error"].startswith('Error: unknown tool "bash"')
    assert base64.b64decode(answers[1]["parts"][0]["inlineData"]["data"]) == PNG
    assert (root / "notes.txt").read_text() == "alpha\ngamma\n"

    # The SDK takes the answer as its own Content and sends it as it is.
    types.Content.model_validate(answer)
    done = api.generate([question, response.candidates[0].content, answer], ft.tools)
    assert done.text == "Done."
    sent = api.requests[1]["contents"][2]
    # The SDK writes the image's inline part under its Python names
    # (inline_data); read back, it is the answer given.
    assert types.Content.model_validate(sent) == types.Content.model_validate(answer)
    assert [part["functionResponse"]["response"] for part in sent["parts"]] == [a["response"] for a in answers]


def test_calls_are_read_from_the_sdks_objects_and_their_dicts_alike(tmp_path: Path) -> None:
    response = types.GenerateContentResponse.model_validate(response_json(TURN[:2]))
    from_model = function_calls(response)
    from_dict = function_calls(response_json(TURN[:2]))
    assert [call.name for call in from_model] == [call["name"] for call in from_dict] == ["read", "read"]
    ft = gemini_tools(turn_root(tmp_path / "a"))
    assert ft.results(response) == gemini_tools(turn_root(tmp_path / "b")).results(response_json(TURN[:2]))
