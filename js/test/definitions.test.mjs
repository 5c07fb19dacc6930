// Every schema format of every tool set, checked by the Node SDKs' own
// code: the MCP SDK's tools/list schema and its Ajv validator, OpenAI's
// strict checks (`validateInputTools`, `toStrictJsonSchema`, which must
// leave a strict schema as it is) and Anthropic's strict transform (the
// same). The SDKs' request types are checked at compile time
// (test/types/adapters.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { validateInputTools } from 'openai/lib/parser';
import { toStrictJsonSchema } from 'openai/lib/transform';

import { createTools, memoryFs } from 'agent-filetools';

const SETS = ['filetools', 'text-editor', 'apply-patch', 'mcp-filesystem', 'notebook'];

async function definitions(set, format) {
  const tools = await createTools({ fs: memoryFs(), config: { tools: [set] } });
  return tools.schema(format);
}

test('the MCP definitions of every tool set parse as the MCP SDK parses tools/list, and their schemas compile', async () => {
  const ajv = new AjvJsonSchemaValidator();
  for (const set of SETS) {
    const tools = await definitions(set, 'mcp');
    ListToolsResultSchema.parse({ tools });
    for (const tool of tools) {
      ajv.getValidator(tool.inputSchema);
      ajv.getValidator(tool.outputSchema);
      assert.equal(tool.outputSchema.type, 'object', `${set} ${tool.name}`);
    }
  }
});

test('every strict OpenAI definition passes the OpenAI SDK strict checks unchanged', async () => {
  for (const set of SETS) {
    const chat = await definitions(set, 'openai-strict');
    validateInputTools(chat);
    for (const { function: f } of chat) {
      assert.deepEqual(toStrictJsonSchema(f.parameters), f.parameters, `${set} ${f.name}`);
    }
    for (const tool of (await definitions(set, 'openai-responses-strict')).filter((t) => t.type === 'function')) {
      assert.equal(tool.strict, true, `${set} ${tool.name}`);
      assert.deepEqual(toStrictJsonSchema(tool.parameters), tool.parameters, `${set} ${tool.name}`);
    }
    for (const tool of (await definitions(set, 'openai-responses')).filter((t) => t.type === 'function')) {
      assert.equal(tool.strict, false, `${set} ${tool.name}`);
    }
  }
});

test('every strict Anthropic definition is one the Anthropic SDK strict transform leaves as it is', async () => {
  for (const set of SETS) {
    for (const tool of (await definitions(set, 'anthropic-strict')).filter((t) => t.input_schema)) {
      assert.equal(tool.strict, true, `${set} ${tool.name}`);
      assert.deepEqual(transformJSONSchema(tool.input_schema), tool.input_schema, `${set} ${tool.name}`);
    }
  }
});

test('a read-only back end, or readOnly, lists only the tools that can succeed, and a change is refused as read-only first', async () => {
  const readOnlyBackEnd = await createTools({
    fs: memoryFs({ 'a.txt': 'a\n' }, { readOnly: true }),
    config: { tools: ['filetools', 'text-editor', 'apply-patch', 'notebook'] },
  });
  const asked = await createTools({ fs: memoryFs({ 'a.txt': 'a\n' }), readOnly: true });
  for (const tools of [readOnlyBackEnd, asked]) {
    for (const format of ['mcp', 'anthropic', 'openai', 'openai-responses']) {
      for (const tool of tools.schema(format)) {
        assert.doesNotMatch(JSON.stringify(tool), /"(write|edit|undo|apply_patch|notebook_edit)"/, format);
      }
    }
    const names = tools.definitions().map((tool) => tool.name);
    assert.ok(names.includes('read') && !names.includes('write'), names.join());
    const edit = await tools.call('edit', { file_path: 'a.txt', old_string: 'a', new_string: 'b' });
    assert.equal(edit.isError, true);
    assert.equal(edit.structuredContent.error, 'read_only', edit.content[0].text);
  }
  const editor = readOnlyBackEnd.schema('mcp').find((tool) => tool.name === 'str_replace_based_edit_tool');
  assert.deepEqual(editor.inputSchema.properties.command.enum, ['view']);
});
