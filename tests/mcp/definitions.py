"""Every schema format of every tool set, checked by the SDKs' own code.

For each tool set and format, `filetools schema` prints the definitions;
they must go into the SDKs' request types as they are (pydantic checks
the OpenAI and Anthropic TypedDicts, the MCP SDK its ListToolsResult), and
the strict forms must be ones the SDKs' strict helpers leave as they are:
OpenAI's strict-schema pass (the one its pydantic helpers run) and
`validate_input_tools`, Anthropic's `transform_schema`. Usage:

    python definitions.py FILETOOLS_BINARY

Exits 0 when every check holds; raises at the first that does not.
"""

import copy
import json
import subprocess
import sys

import pydantic
from anthropic import transform_schema
from anthropic.types import ToolUnionParam
from mcp.types import ListToolsResult
from openai.lib._parsing._completions import validate_input_tools
from openai.lib._pydantic import _ensure_strict_json_schema
from openai.types.chat import ChatCompletionToolParam
from openai.types.responses import ToolParam as ResponsesToolParam

SETS = ["filetools", "text-editor", "apply-patch", "mcp-filesystem", "notebook"]


def schema(binary, tools, format):
    run = subprocess.run(
        [binary, "schema", "--tools", tools, "--format", format], capture_output=True, text=True, check=True
    )
    return json.loads(run.stdout)


def fits(type_, value, where):
    # pydantic drops the keys a TypedDict does not name: one the SDK does
    # not know shows as a difference.
    kept = pydantic.TypeAdapter(type_).validate_python(value, strict=True)
    if kept != value:
        raise AssertionError(
            f"{where}: the SDK's type does not take it as it is:\n"
            f"  ours: {json.dumps(value)}\n  kept: {json.dumps(kept)}"
        )


def unchanged_by(helper, schema, where):
    changed = helper(copy.deepcopy(schema))
    if changed != schema:
        raise AssertionError(
            f"{where}: the SDK's strict helper changes the schema:\n"
            f"  ours: {json.dumps(schema)}\n  its:  {json.dumps(changed)}"
        )


def openai_strict(schema):
    return _ensure_strict_json_schema(schema, path=(), root=schema)


def main(binary):
    checked = 0
    for tools in SETS:
        ListToolsResult.model_validate({"tools": schema(binary, tools, "mcp")})
        for format in ["anthropic", "anthropic-strict"]:
            for tool in schema(binary, tools, format):
                where = f"{tools} {format} {tool['name']}"
                fits(ToolUnionParam, tool, where)
                if format == "anthropic-strict" and "input_schema" in tool:
                    if tool.get("strict") is not True:
                        raise AssertionError(f"{where}: not strict")
                    unchanged_by(transform_schema, tool["input_schema"], where)
                checked += 1
        for format in ["openai", "openai-strict"]:
            definitions = schema(binary, tools, format)
            for tool in definitions:
                fits(ChatCompletionToolParam, tool, f"{tools} {format} {tool['function']['name']}")
                if format == "openai-strict":
                    unchanged_by(openai_strict, tool["function"]["parameters"], f"{tools} {format}")
                checked += 1
            if format == "openai-strict":
                validate_input_tools(definitions)
        for format in ["openai-responses", "openai-responses-strict"]:
            for tool in schema(binary, tools, format):
                where = f"{tools} {format} {tool.get('name', tool['type'])}"
                fits(ResponsesToolParam, tool, where)
                if format == "openai-responses-strict" and tool["type"] == "function":
                    if tool["strict"] is not True:
                        raise AssertionError(f"{where}: not strict")
                    unchanged_by(openai_strict, tool["parameters"], where)
                checked += 1
    print(f"ok: {checked} definitions of {len(SETS)} tool sets fit the OpenAI, Anthropic and MCP Python SDKs")


if __name__ == "__main__":
    main(sys.argv[1])
