// Each SDK adapter against the real SDK package: the request the SDK
// builds (through a scripted fetch, no network) or the SDK's own tool loop
// on its mock model. Every test reads and edits a file and shows an image.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

import Anthropic from '@anthropic-ai/sdk';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import OpenAI from 'openai';
import { validateInputTools } from 'openai/lib/parser';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';

import { anthropicTools } from 'agent-filetools/anthropic';
import { openaiTools } from 'agent-filetools/openai';
import { aiTools } from 'agent-filetools/ai';
import { langchainTools } from 'agent-filetools/langchain';
import { createTools, memoryFs } from 'agent-filetools';

import { filetools, layOut, scriptFiles } from './script.mjs';

const decoder = new TextDecoder();

/** The script's files in memory: notes.txt, pic.png, … */
function files() {
  return memoryFs(Object.fromEntries(scriptFiles()));
}

/** A fetch that answers with `replies` in turn and keeps every request body. */
function scripted(replies) {
  const bodies = [];
  const fetch = async (_url, init) => {
    bodies.push(JSON.parse(init.body));
    const reply = replies[bodies.length - 1];
    return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, bodies };
}

test('Anthropic SDK: tools in the request, tool_result blocks with the image back', async () => {
  const fs = files();
  const ft = await anthropicTools({ fs });
  const usage = { input_tokens: 1, output_tokens: 1 };
  const { fetch, bodies } = scripted([
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      stop_reason: 'tool_use',
      usage,
      content: [
        { type: 'tool_use', id: 'tu_1', name: 'read', input: { file_path: 'pic.png' } },
        { type: 'tool_use', id: 'tu_2', name: 'read', input: { filePath: 'notes.txt', offset: '1' } },
      ],
    },
    {
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      model: 'm',
      stop_reason: 'tool_use',
      usage,
      content: [
        {
          type: 'tool_use',
          id: 'tu_3',
          name: 'edit',
          input: { file_path: 'notes.txt', old_string: 'alpha', new_string: 'ALPHA' },
        },
      ],
    },
    {
      id: 'msg_3',
      type: 'message',
      role: 'assistant',
      model: 'm',
      stop_reason: 'end_turn',
      usage,
      content: [{ type: 'text', text: 'done' }],
    },
  ]);
  const client = new Anthropic({ apiKey: 'test', fetch, maxRetries: 0 });
  const messages = [{ role: 'user', content: 'Look at pic.png and fix notes.txt' }];
  for (;;) {
    const response = await client.messages.create({ model: 'm', max_tokens: 1000, tools: ft.tools, messages });
    if (response.stop_reason !== 'tool_use') {
      break;
    }
    messages.push({ role: 'assistant', content: response.content }, await ft.results(response));
  }
  assert.deepEqual(
    bodies[0].tools.map((t) => t.name),
    ['read', 'write', 'edit', 'undo', 'grep', 'find', 'replace'],
  );
  assert.ok(bodies[0].tools[0].input_schema.properties.file_path);
  const [image, notes] = bodies[1].messages.at(-1).content;
  assert.equal(image.type, 'tool_result');
  assert.equal(image.tool_use_id, 'tu_1');
  assert.equal(image.content[1].type, 'image');
  assert.equal(image.content[1].source.media_type, 'image/png');
  assert.equal(notes.is_error, false);
  assert.match(notes.content[0].text, /^1\talpha/);
  assert.match(bodies[2].messages.at(-1).content[0].content[0].text, /^Edited notes.txt/);
  assert.match(decoder.decode(fs.files().get('notes.txt')), /^ALPHA\n/);
});

test('Anthropic SDK, strict: every tool strict, each schema one its strict transform leaves as it is', async () => {
  const fs = files();
  const ft = await anthropicTools({ fs }, { strict: true });
  assert.deepEqual(
    ft.tools.map((t) => t.name),
    ['read', 'write', 'edit', 'undo', 'grep', 'find', 'replace'],
  );
  for (const tool of ft.tools) {
    assert.equal(tool.strict, true, tool.name);
    assert.deepEqual(transformJSONSchema(tool.input_schema), tool.input_schema, `${tool.name} is already strict`);
  }
  const usage = { input_tokens: 1, output_tokens: 1 };
  const { fetch, bodies } = scripted([
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      stop_reason: 'tool_use',
      usage,
      content: [{ type: 'tool_use', id: 'tu_1', name: 'read', input: { file_path: 'notes.txt' } }],
    },
  ]);
  const client = new Anthropic({ apiKey: 'test', fetch, maxRetries: 0 });
  const response = await client.messages.create({
    model: 'm',
    max_tokens: 1000,
    tools: ft.tools,
    messages: [{ role: 'user', content: 'Read notes.txt' }],
  });
  assert.ok(bodies[0].tools.every((t) => t.strict === true));
  const [answer] = (await ft.results(response)).content;
  assert.match(answer.content[0].text, /^1\talpha/);
});

test('OpenAI SDK: strict tools pass its checks, null arguments act as absent, images follow as a user message', async () => {
  const fs = files();
  const ft = await openaiTools({ fs }, { strict: true });
  for (const { function: f } of ft.chatTools) {
    assert.deepEqual(toStrictJsonSchema(f.parameters), f.parameters, `${f.name} is already strict`);
  }
  validateInputTools(ft.chatTools);
  const cli = spawnSync(filetools(), ['schema', '--format', 'openai-strict'], { encoding: 'utf8' });
  assert.deepEqual(JSON.parse(cli.stdout), ft.chatTools, 'filetools schema prints the same strict tools');
  const loose = (await openaiTools(ft.filetools)).chatTools;
  assert.throws(() => toStrictJsonSchema(loose[0].function.parameters), /optional\(\)/);

  const nulls = { offset: null, limit: null, pages: null, char_offset: null };
  const call = (id, name, args) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  const completion = (message) => ({
    id: 'c',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices: [
      {
        index: 0,
        finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
        message: { role: 'assistant', content: null, ...message },
      },
    ],
  });
  const { fetch, bodies } = scripted([
    completion({
      tool_calls: [
        call('call_1', 'read', { file_path: 'pic.png', ...nulls }),
        call('call_2', 'read', { file_path: 'notes.txt', ...nulls }),
      ],
    }),
    completion({
      tool_calls: [
        call('call_3', 'edit', {
          file_path: 'notes.txt',
          old_string: null,
          new_string: null,
          replace_all: false,
          edits: [{ old_string: 'gamma', new_string: 'GAMMA', replace_all: null }],
        }),
      ],
    }),
    completion({ content: 'done' }),
  ]);
  const client = new OpenAI({ apiKey: 'test', fetch, maxRetries: 0 });
  const messages = [{ role: 'user', content: 'Look at pic.png and fix notes.txt' }];
  for (;;) {
    const response = await client.chat.completions.create({ model: 'm', tools: ft.chatTools, messages });
    const message = response.choices[0].message;
    if (!message.tool_calls) {
      break;
    }
    messages.push(message, ...(await ft.chatResults(message)));
  }
  assert.equal(bodies[0].tools[0].function.strict, true);
  const second = bodies[1].messages;
  assert.deepEqual(
    second.slice(-3).map((m) => m.role),
    ['tool', 'tool', 'user'],
  );
  assert.match(second.at(-2).content, /^1\talpha/);
  assert.equal(second.at(-1).content[1].type, 'image_url');
  assert.match(second.at(-1).content[1].image_url.url, /^data:image\/png;base64,/);
  assert.match(bodies[2].messages.at(-1).content, /^Edited notes.txt/);
  assert.match(decoder.decode(fs.files().get('notes.txt')), /GAMMA/);
});

test('OpenAI SDK, Responses API: function_call_output items carry the image', async () => {
  const ft = await openaiTools({ fs: files() });
  const { fetch, bodies } = scripted([
    {
      id: 'r1',
      object: 'response',
      created_at: 0,
      model: 'm',
      status: 'completed',
      output: [
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'read',
          arguments: '{"file_path":"pic.png"}',
          status: 'completed',
        },
      ],
    },
    { id: 'r2', object: 'response', created_at: 0, model: 'm', status: 'completed', output: [] },
  ]);
  const client = new OpenAI({ apiKey: 'test', fetch, maxRetries: 0 });
  const first = await client.responses.create({ model: 'm', tools: ft.responsesTools, input: 'Look at pic.png' });
  await client.responses.create({
    model: 'm',
    tools: ft.responsesTools,
    previous_response_id: first.id,
    input: await ft.responsesResults(first),
  });
  assert.equal(bodies[0].tools[0].name, 'read');
  const [output] = bodies[1].input;
  assert.equal(output.type, 'function_call_output');
  assert.equal(output.call_id, 'call_1');
  assert.equal(output.output[1].type, 'input_image');
});

test('OpenAI SDK, Responses API, strict: every function tool strict with the Chat Completions strict parameters; loose ones say strict: false', async () => {
  const fs = files();
  const ft = await openaiTools({ fs }, { strict: true });
  const chat = new Map(ft.chatTools.map(({ function: f }) => [f.name, f.parameters]));
  assert.deepEqual(
    ft.responsesTools.map((t) => t.name),
    ['read', 'write', 'edit', 'undo', 'grep', 'find', 'replace'],
  );
  for (const tool of ft.responsesTools) {
    assert.equal(tool.strict, true, tool.name);
    assert.deepEqual(toStrictJsonSchema(tool.parameters), tool.parameters, `${tool.name} is already strict`);
    assert.deepEqual(tool.parameters, chat.get(tool.name));
  }
  assert.ok((await openaiTools(ft.filetools)).responsesTools.every((t) => t.strict === false));
  const patching = await openaiTools({ fs, config: { tools: ['apply-patch', 'filetools'] } }, { strict: true });
  assert.deepEqual(patching.responsesTools[0], { type: 'apply_patch' });
  assert.ok(patching.responsesTools.slice(1).every((t) => t.strict === true));

  const nulls = Object.fromEntries(Object.keys(chat.get('read').properties).map((name) => [name, null]));
  const { fetch, bodies } = scripted([
    {
      id: 'r1',
      object: 'response',
      created_at: 0,
      model: 'm',
      status: 'completed',
      output: [
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'read',
          arguments: JSON.stringify({ ...nulls, file_path: 'notes.txt' }),
          status: 'completed',
        },
      ],
    },
    { id: 'r2', object: 'response', created_at: 0, model: 'm', status: 'completed', output: [] },
  ]);
  const client = new OpenAI({ apiKey: 'test', fetch, maxRetries: 0 });
  const first = await client.responses.create({ model: 'm', tools: ft.responsesTools, input: 'Read notes.txt' });
  await client.responses.create({
    model: 'm',
    tools: ft.responsesTools,
    previous_response_id: first.id,
    input: await ft.responsesResults(first),
  });
  assert.ok(bodies[0].tools.every((t) => t.strict === true));
  assert.match(bodies[1].input[0].output, /^1\talpha/);
});

test('Anthropic SDK, text editor: the built-in tool type in the request, view and str_replace answered', async () => {
  const fs = files();
  const ft = await anthropicTools({ fs, config: { tools: 'text-editor', max_characters: 10000 } });
  const usage = { input_tokens: 1, output_tokens: 1 };
  const tool = 'str_replace_based_edit_tool';
  const { fetch, bodies } = scripted([
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      stop_reason: 'tool_use',
      usage,
      content: [
        {
          type: 'tool_use',
          id: 'tu_1',
          name: tool,
          input: { command: 'view', path: 'notes.txt', view_range: [1, -1] },
        },
      ],
    },
    {
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      model: 'm',
      stop_reason: 'tool_use',
      usage,
      content: [
        {
          type: 'tool_use',
          id: 'tu_2',
          name: tool,
          input: { command: 'str_replace', path: 'notes.txt', old_str: 'alpha', new_str: 'ALPHA' },
        },
      ],
    },
    {
      id: 'msg_3',
      type: 'message',
      role: 'assistant',
      model: 'm',
      stop_reason: 'end_turn',
      usage,
      content: [{ type: 'text', text: 'done' }],
    },
  ]);
  const client = new Anthropic({ apiKey: 'test', fetch, maxRetries: 0 });
  const messages = [{ role: 'user', content: 'Fix notes.txt' }];
  for (;;) {
    const response = await client.messages.create({ model: 'm', max_tokens: 1000, tools: ft.tools, messages });
    if (response.stop_reason !== 'tool_use') {
      break;
    }
    messages.push({ role: 'assistant', content: response.content }, await ft.results(response));
  }
  assert.deepEqual(bodies[0].tools, [{ type: 'text_editor_20250728', name: tool, max_characters: 10000 }]);
  assert.match(bodies[1].messages.at(-1).content[0].content[0].text, /^1\talpha/);
  assert.match(bodies[2].messages.at(-1).content[0].content[0].text, /^Edited notes.txt/);
  assert.match(decoder.decode(fs.files().get('notes.txt')), /^ALPHA\n/);
});

test('OpenAI SDK, Responses API: the built-in apply_patch tool, its calls answered as apply_patch_call_output', async () => {
  const fs = files();
  const ft = await openaiTools({ fs, config: { tools: ['apply-patch', 'filetools'] } });
  const patch = (id, operation) => ({
    type: 'apply_patch_call',
    id,
    call_id: `call_${id}`,
    status: 'completed',
    operation,
  });
  const { fetch, bodies } = scripted([
    {
      id: 'r1',
      object: 'response',
      created_at: 0,
      model: 'm',
      status: 'completed',
      output: [
        patch('p1', { type: 'update_file', path: 'notes.txt', diff: '@@\n-alpha\n+ALPHA\n' }),
        // As OpenAI's handler joins them, a last bare `+` is the final newline.
        patch('p2', { type: 'create_file', path: 'new/todo.md', diff: '+# Todo\n+' }),
        patch('p3', { type: 'update_file', path: 'notes.txt', diff: '@@\n-not there\n+x\n' }),
      ],
    },
    { id: 'r2', object: 'response', created_at: 0, model: 'm', status: 'completed', output: [] },
  ]);
  const client = new OpenAI({ apiKey: 'test', fetch, maxRetries: 0 });
  const first = await client.responses.create({ model: 'm', tools: ft.responsesTools, input: 'Fix notes.txt' });
  await client.responses.create({
    model: 'm',
    tools: ft.responsesTools,
    previous_response_id: first.id,
    input: await ft.responsesResults(first),
  });
  assert.deepEqual(bodies[0].tools[0], { type: 'apply_patch' });
  assert.deepEqual(
    bodies[0].tools.slice(1).map((t) => t.name),
    ['read', 'write', 'edit', 'undo', 'grep', 'find', 'replace'],
  );
  const outputs = bodies[1].input;
  assert.deepEqual(
    outputs.map((o) => [o.type, o.call_id, o.status]),
    [
      ['apply_patch_call_output', 'call_p1', 'completed'],
      ['apply_patch_call_output', 'call_p2', 'completed'],
      ['apply_patch_call_output', 'call_p3', 'failed'],
    ],
  );
  assert.match(outputs[2].output, /not applied and no file changed/);
  assert.match(decoder.decode(fs.files().get('notes.txt')), /^ALPHA\n/);
  assert.equal(decoder.decode(fs.files().get('new/todo.md')), '# Todo\n');
});

test('OpenAI SDK, Responses API: calls are answered in the order the response lists them, and so are their answers', async () => {
  const fs = files();
  const ft = await openaiTools({ fs, config: { tools: ['apply-patch', 'filetools'] } });
  const call = (id, name, args) => ({
    type: 'function_call',
    id,
    call_id: `call_${id}`,
    name,
    arguments: JSON.stringify(args),
    status: 'completed',
  });
  const patch = (id, path, diff) => ({
    type: 'apply_patch_call',
    id,
    call_id: `call_${id}`,
    status: 'completed',
    operation: { type: 'update_file', path, diff },
  });
  const response = (id, output) => ({ id, object: 'response', created_at: 0, model: 'm', status: 'completed', output });
  const { fetch, bodies } = scripted([
    response('r1', [
      call('w1', 'write', { file_path: 'new.txt', content: 'one\n' }),
      patch('p1', 'new.txt', '@@\n-one\n+two\n'),
    ]),
    response('r2', [call('r1', 'read', { file_path: 'notes.txt' }), patch('p2', 'notes.txt', '@@\n-alpha\n+ALPHA\n')]),
    response('r3', []),
  ]);
  const client = new OpenAI({ apiKey: 'test', fetch, maxRetries: 0 });
  let previous = await client.responses.create({ model: 'm', tools: ft.responsesTools, input: 'Write, then patch' });
  while (previous.output.length) {
    previous = await client.responses.create({
      model: 'm',
      tools: ft.responsesTools,
      previous_response_id: previous.id,
      input: await ft.responsesResults(previous),
    });
  }
  const written = bodies[1].input;
  assert.deepEqual(
    written.map((o) => [o.type, o.call_id]),
    [
      ['function_call_output', 'call_w1'],
      ['apply_patch_call_output', 'call_p1'],
    ],
  );
  assert.equal(written[1].status, 'completed', written[1].output);
  assert.equal(decoder.decode(fs.files().get('new.txt')), 'two\n');

  const [read, patched] = bodies[2].input;
  assert.equal(read.call_id, 'call_r1');
  assert.match(read.output, /^1\talpha/, 'the read shows the text before the patch after it');
  assert.equal(patched.status, 'completed', patched.output);
  assert.match(decoder.decode(fs.files().get('notes.txt')), /^ALPHA\n/);
});

test('Vercel AI SDK: the tool loop on its mock model reads, edits and sees the image', async () => {
  const fs = files();
  const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
  const turn = (content, unified) => ({ content, finishReason: { unified, raw: unified }, usage, warnings: [] });
  const replies = [
    turn(
      [
        { type: 'tool-call', toolCallId: 't1', toolName: 'read', input: JSON.stringify({ filePath: 'pic.png' }) },
        { type: 'tool-call', toolCallId: 't2', toolName: 'read', input: JSON.stringify({ file_path: 'notes.txt' }) },
      ],
      'tool-calls',
    ),
    turn(
      [
        {
          type: 'tool-call',
          toolCallId: 't3',
          toolName: 'edit',
          input: JSON.stringify({ file_path: 'notes.txt', old_string: 'beta', new_string: 'BETA' }),
        },
      ],
      'tool-calls',
    ),
    turn([{ type: 'text', text: 'done' }], 'stop'),
  ];
  const prompts = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      return replies[prompts.length - 1];
    },
  });
  const result = await generateText({
    model,
    tools: await aiTools({ fs }),
    prompt: 'Look at pic.png and fix notes.txt',
    stopWhen: stepCountIs(4),
  });
  assert.equal(result.text, 'done');
  const [image, notes] = prompts[1].find((m) => m.role === 'tool').content;
  assert.equal(image.output.type, 'content');
  assert.equal(image.output.value[1].type, 'image-data');
  assert.equal(image.output.value[1].mediaType, 'image/png');
  assert.match(notes.output.value[0].text, /^1\talpha/);
  const [edit] = prompts[2].findLast((m) => m.role === 'tool').content;
  assert.equal(edit.output.type, 'content', JSON.stringify(edit.output));
  assert.match(edit.output.value[0].text, /^Edited notes.txt/);
  assert.match(decoder.decode(fs.files().get('notes.txt')), /BETA\r\n/);
});

test('LangChain: tool calls answer with ToolMessages, error status, image blocks, aliases through its validation', async () => {
  const fs = files();
  const tools = Object.fromEntries((await langchainTools({ fs })).map((t) => [t.name, t]));
  const definition = convertToOpenAITool(tools.read);
  assert.equal(definition.function.name, 'read');
  assert.ok(definition.function.parameters.properties.file_path);

  const image = await tools.read.invoke({ type: 'tool_call', id: 'l1', name: 'read', args: { filePath: 'pic.png' } });
  assert.equal(image.status, 'success');
  assert.equal(image.content[1].type, 'image');
  assert.equal(image.content[1].mimeType, 'image/png');
  const page = await tools.read.invoke({
    type: 'tool_call',
    id: 'l2',
    name: 'read',
    args: { file_path: 'notes.txt', offset: '2', limit: 1 },
  });
  assert.match(page.content[0].text, /^2\tbeta/);
  assert.equal(page.artifact.next_offset, 3);
  const edit = await tools.edit.invoke({
    type: 'tool_call',
    id: 'l3',
    name: 'edit',
    args: { file_path: 'notes.txt', old_string: 'alpha', new_string: 'ALPHA' },
  });
  assert.equal(edit.status, 'success', edit.content[0].text);
  const refused = await tools.write.invoke({
    type: 'tool_call',
    id: 'l4',
    name: 'write',
    args: { file_path: 'keep.txt', content: 'x' },
  });
  assert.equal(refused.status, 'error');
  assert.match(decoder.decode(fs.files().get('notes.txt')), /^ALPHA/);
});

test('LangChain, strict: bound with strict, the tools pass the OpenAI SDK strict checks, and null arguments act as absent', async () => {
  const fs = files();
  const tools = Object.fromEntries((await langchainTools({ fs }, { strict: true })).map((t) => [t.name, t]));
  const parameters = new Map(
    (await createTools({ fs })).schema('openai-strict').map(({ function: f }) => [f.name, f.parameters]),
  );
  const definitions = Object.values(tools).map((t) => convertToOpenAITool(t, { strict: true }));
  validateInputTools(definitions);
  for (const { function: f } of definitions) {
    assert.deepEqual(f.parameters, parameters.get(f.name), `${f.name} has the openai-strict parameters`);
    assert.deepEqual(toStrictJsonSchema(f.parameters), f.parameters, `${f.name} is already strict`);
  }
  const loose = convertToOpenAITool((await langchainTools({ fs }))[0], { strict: true });
  assert.throws(() => toStrictJsonSchema(loose.function.parameters), /optional\(\)/);

  const nulls = (name) => Object.fromEntries(Object.keys(parameters.get(name).properties).map((key) => [key, null]));
  const page = await tools.read.invoke({
    type: 'tool_call',
    id: 's1',
    name: 'read',
    args: { ...nulls('read'), file_path: 'notes.txt', limit: 1 },
  });
  assert.equal(page.status, 'success', page.content[0].text);
  assert.match(page.content[0].text, /^1\talpha\n\[lines 1-1 of/);
  const edit = await tools.edit.invoke({
    type: 'tool_call',
    id: 's2',
    name: 'edit',
    args: { ...nulls('edit'), file_path: 'notes.txt', old_string: 'alpha', new_string: 'ALPHA', replace_all: false },
  });
  assert.equal(edit.status, 'success', edit.content[0].text);
  assert.match(decoder.decode(fs.files().get('notes.txt')), /^ALPHA/);
});

test('in Node a root directory is all an adapter needs', async () => {
  const dir = layOut('adapters-root');
  const anthropic = await anthropicTools(dir);
  const [answer] = (
    await anthropic.results({
      content: [{ type: 'tool_use', id: 'a', name: 'read', input: { file_path: 'notes.txt' } }],
    })
  ).content;
  assert.match(answer.content[0].text, /^1\talpha/);
  assert.equal((await openaiTools(dir)).chatTools.length, 7);
  assert.deepEqual(Object.keys(await aiTools(dir)), ['read', 'write', 'edit', 'undo', 'grep', 'find', 'replace']);
  assert.equal((await langchainTools(dir)).length, 7);
});
