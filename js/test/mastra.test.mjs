// The Mastra adapter against Mastra (`@mastra/core` 0.24): a Mastra Agent
// runs its own tool loop on a scripted model (a language model of the AI
// SDK's v2 specification, which the agent calls; no network). What the
// model is offered is the tools as Mastra converts them, and what it is
// answered is each tool's output as Mastra passes it on: the answer's text,
// or `{ error: true, message }` for a call that failed.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Agent } from '@mastra/core/agent';

import { mastraTools, modelOutput } from 'agent-filetools/mastra';
import { createTools, memoryFs } from 'agent-filetools';

import { layOut, scriptFiles } from './script.mjs';

const SETS = ['filetools', 'text-editor', 'apply-patch', 'mcp-filesystem', 'notebook'];
const decoder = new TextDecoder();

/**
 * A model that answers `turns` in turn (each a list of `[name, args]` tool
 * calls, or a text) and keeps every call's options: the tools it was
 * offered and the prompt.
 */
function scripted(turns, { provider = 'scripted', modelId = 'scripted' } = {}) {
  const calls = [];
  const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
  const model = {
    specificationVersion: 'v2',
    provider,
    modelId,
    supportedUrls: {},
    doGenerate: async (options) => {
      calls.push(options);
      const turn = turns[calls.length - 1];
      if (typeof turn === 'string') {
        return { content: [{ type: 'text', text: turn }], finishReason: 'stop', usage, warnings: [] };
      }
      const content = turn.map(([toolName, args], i) => ({
        type: 'tool-call',
        toolCallId: `c${calls.length}-${i}`,
        toolName,
        input: JSON.stringify(args),
      }));
      return { content, finishReason: 'tool-calls', usage, warnings: [] };
    },
  };
  return { model, calls };
}

/** The tools an Agent offers a scripted model named `names`, given `filetools` through the adapter. */
async function offeredTo(names, filetools) {
  const { model, calls } = scripted(['hi'], names);
  const agent = new Agent({ name: 'schemas', instructions: '-', model, tools: await mastraTools(filetools) });
  await agent.generate('hi');
  return new Map(calls[0].tools.map((tool) => [tool.name, tool]));
}

/** The outputs of the tool results in a prompt, by tool call id. */
function outputs(prompt) {
  const parts = prompt.filter((m) => m.role === 'tool').flatMap((m) => m.content);
  return Object.fromEntries(parts.map((part) => [part.toolCallId, part.output]));
}

/**
 * A tool's JSON Schema as Mastra 0.24 (with zod 4) gives it to the model:
 * it makes a zod schema of it and a JSON Schema of that, which names its
 * draft (`$schema`), says `additionalProperties: {}` on every object that
 * said nothing, and turns an argument of type `["integer", "string"]` into
 * an `anyOf` of a string and an integer bounded by the safe integers.
 */
function asMastraSends(schema, top = true) {
  if (Array.isArray(schema)) {
    return schema.map((item) => asMastraSends(item, false));
  }
  if (schema === null || typeof schema !== 'object') {
    return schema;
  }
  const sent = {};
  for (const [key, value] of Object.entries(schema)) {
    sent[key] = key === 'properties' ? mapValues(value, (v) => asMastraSends(v, false)) : asMastraSends(value, false);
  }
  if (top) {
    sent.$schema = 'https://json-schema.org/draft/2020-12/schema';
  }
  if (schema.type === 'object' && !('additionalProperties' in schema)) {
    sent.additionalProperties = {};
  }
  if (Array.isArray(schema.type) && schema.type.join() === 'integer,string') {
    const { type: _, minimum = -Number.MAX_SAFE_INTEGER, ...rest } = sent;
    return {
      ...rest,
      anyOf: [{ type: 'string' }, { type: 'integer', minimum, maximum: Number.MAX_SAFE_INTEGER }],
    };
  }
  return sent;
}

const mapValues = (object, f) => Object.fromEntries(Object.entries(object).map(([key, value]) => [key, f(value)]));

test('a Mastra Agent on a scripted model reads, sees an image named, edits, and is told of refusals', async () => {
  const fs = memoryFs(Object.fromEntries(scriptFiles()));
  const { model, calls } = scripted([
    [
      ['read', { file_path: 'notes.txt' }],
      ['read', { filePath: 'pic.png' }],
      ['write', { file_path: 'keep.txt', content: 'x' }],
      ['edit', { file_path: 7, old_string: 'x', new_string: 'y' }],
    ],
    [['edit', { file_path: 'notes.txt', old_string: 'beta', new_string: 'BETA' }]],
    'done',
  ]);
  const agent = new Agent({
    name: 'filetools',
    instructions: 'Fix notes.txt.',
    model,
    tools: await mastraTools({ fs }),
  });
  const result = await agent.generate('Look at pic.png and fix notes.txt', { maxSteps: 4 });
  assert.equal(result.text, 'done');
  assert.equal(calls.length, 3);

  const first = outputs(calls[1].prompt);
  assert.equal(first['c1-0'].type, 'text');
  assert.match(first['c1-0'].value, /^1\talpha\n2\tbeta/);
  // Mastra passes no image on to the model: the read's text says what it is.
  assert.equal(first['c1-1'].type, 'text');
  assert.match(first['c1-1'].value, /^\[image: PNG 40x30/);
  assert.equal(first['c1-2'].type, 'json');
  assert.equal(first['c1-2'].value.error, true);
  assert.match(first['c1-2'].value.message, /^Error: keep.txt exists and you have not read it/);
  assert.equal(first['c1-3'].value.error, true);
  assert.match(first['c1-3'].value.message, /file_path must be a string/);

  const edit = outputs(calls[2].prompt)['c2-0'];
  assert.equal(edit.type, 'text', JSON.stringify(edit));
  assert.match(edit.value, /^Edited notes.txt/);
  assert.match(decoder.decode(fs.files().get('notes.txt')), /BETA\r\n/);

  // What the agent's result holds is what the model was shown.
  const direct = await createTools({ fs: memoryFs(Object.fromEntries(scriptFiles())) });
  const byId = Object.fromEntries(result.toolResults.map(({ payload }) => [payload.toolCallId, payload.result]));
  assert.deepEqual(byId['c1-0'], modelOutput(await direct.read({ file_path: 'notes.txt' })));
  assert.deepEqual(byId['c1-2'], { error: true, message: first['c1-2'].value.message });
});

test('Mastra offers the model every tool set with its description, the schema converted as named', async () => {
  // Models whose name matches none of Mastra's provider layers, and those of
  // Anthropic and Google, whose layers change nothing more here.
  const models = [{}, { provider: 'anthropic.messages', modelId: 'claude-sonnet-4-5' }, { provider: 'google' }];
  for (const set of SETS) {
    const filetools = await createTools({ fs: memoryFs(), config: { tools: [set] } });
    const definitions = filetools.schema('mcp');
    for (const names of models) {
      const tools = await offeredTo(names, filetools);
      const expected = definitions.map((d) => d.name);
      assert.deepEqual([...tools.keys()], expected, set);
      for (const definition of definitions) {
        const tool = tools.get(definition.name);
        const where = `${set} ${definition.name} ${names.provider ?? 'scripted'}`;
        assert.equal(tool.type, 'function', where);
        assert.equal(tool.description, definition.description, where);
        assert.deepEqual(tool.inputSchema, asMastraSends(definition.inputSchema), where);
      }
    }
  }
});

test("with an OpenAI model, Mastra's OpenAI layer requires every argument and leaves the model its name alone", async () => {
  const filetools = await createTools({ fs: memoryFs() });
  const tools = await offeredTo({ provider: 'openai.chat', modelId: 'gpt-4o' }, filetools);
  for (const definition of filetools.schema('mcp')) {
    const { properties, required } = tools.get(definition.name).inputSchema;
    const names = Object.keys(definition.inputSchema.properties);
    assert.deepEqual(Object.keys(properties), names, definition.name);
    assert.deepEqual(required, names, definition.name);
    for (const name of names) {
      assert.deepEqual(properties[name], {}, `${definition.name} ${name}`);
    }
    assert.equal(tools.get(definition.name).description, definition.description);
  }
});

test('in Node a root directory is all the Mastra adapter needs', async () => {
  const tools = await mastraTools(layOut('mastra-root'));
  assert.deepEqual(Object.keys(tools), ['read', 'write', 'edit', 'undo', 'grep', 'find', 'replace']);
  assert.match(await tools.read.execute({ context: { file_path: 'notes.txt' } }), /^1\talpha/);
});
