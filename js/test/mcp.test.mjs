// `filetools mcp` driven by the MCP TypeScript SDK's own client: the tool
// list with annotations and schemas, the script's calls, each answered as
// `filetools session` answers it, and every answer of every tool set
// (successes, refusals, faults) reaching the caller as a tool result.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { answerProblem, everyAnswer, filetools, layOut, layOutFiles, script, sessionAnswers } from './script.mjs';

async function connect(dir, extra = []) {
  const transport = new StdioClientTransport({
    command: filetools(),
    args: ['mcp', '--root', dir, ...extra],
    env: { ...process.env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'filetools-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

test('the TypeScript SDK client lists the tools with annotations and schemas', async () => {
  const client = await connect(layOut('ts-list'));
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['read', 'write', 'edit', 'undo', 'grep', 'find', 'replace'],
    );
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.equal(byName.read.annotations.readOnlyHint, true);
    assert.equal(byName.write.annotations.destructiveHint, true);
    assert.equal(byName.write.annotations.idempotentHint, true);
    assert.equal(byName.edit.annotations.destructiveHint, true);
    assert.equal(byName.edit.annotations.idempotentHint, false);
    assert.equal(byName.read.inputSchema.type, 'object');
    assert.ok(byName.read.inputSchema.properties.file_path);
    assert.equal(byName.write.outputSchema.type, 'object');
    assert.match(byName.read.description, /PDF/);
    assert.equal(client.getServerVersion().name, 'filetools');
  } finally {
    await client.close();
  }
});

test('every call through the TypeScript SDK client equals the session answer', async () => {
  const expected = sessionAnswers(layOut('ts-calls'));
  const client = await connect(layOut('ts-calls'));
  try {
    for (const [index, { tool, args, shows }] of script.calls.entries()) {
      const result = await client.callTool({ name: tool, arguments: args });
      const answer = {
        content: result.content,
        isError: result.isError ?? false,
        structuredContent: result.structuredContent,
      };
      assert.deepEqual(answer, expected[index], `call ${index + 1} (${tool})`);
      if (shows === 'image') {
        assert.equal(result.content.find((c) => c.type === 'image').mimeType, 'image/png');
      }
      if (shows === 'outline') {
        assert.equal(result.structuredContent.kind, 'outline');
      }
      if (shows === 'refusal' || shows === 'escape') {
        assert.equal(result.isError, true, `${shows}: ${result.content[0].text}`);
      }
    }
  } finally {
    await client.close();
  }
});

test('a read-only server offers only what reads and refuses changes', async () => {
  const client = await connect(layOut('ts-read-only'), ['--read-only']);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['read', 'grep', 'find'],
    );
    const refused = await client.callTool({ name: 'write', arguments: { file_path: 'x.txt', content: 'x' } });
    assert.equal(refused.isError, true);
  } finally {
    await client.close();
  }
});

test('a read-only text editor offers view alone, and a change through it is refused as read-only', async () => {
  const client = await connect(layOut('ts-read-only-editor'), ['--read-only', '--tools', 'text-editor']);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => [t.name, t.inputSchema.properties.command.enum, t.annotations.readOnlyHint]),
      [['str_replace_based_edit_tool', ['view'], true]],
    );
    const refused = await client.callTool({
      name: 'str_replace_based_edit_tool',
      arguments: { command: 'str_replace', path: 'notes.txt', old_str: 'alpha', new_str: 'omega' },
    });
    assert.equal(refused.isError, true);
    assert.equal(refused.structuredContent.error, 'read_only', refused.content[0].text);
  } finally {
    await client.close();
  }
});

test('the TypeScript SDK client gets every answer of every tool set as a tool result, checked against its output schema', async () => {
  for (const set of everyAnswer.sets) {
    const client = await connect(layOutFiles(`ts-${set.tools.replace(',', '-')}`, set.files), ['--tools', set.tools]);
    try {
      // Listed first, so the client checks every answer against its tool's
      // output schema, as Claude Desktop, Cursor and the Inspector do.
      const schemas = new Map((await client.listTools()).tools.map((t) => [t.name, t.outputSchema]));
      for (const [index, call] of set.calls.entries()) {
        const where = `${set.tools} call ${index + 1} (${call.tool} ${call.answer})`;
        const result = await client.callTool({ name: call.tool, arguments: call.args });
        const problem = answerProblem(call, result, schemas.get(call.tool));
        assert.equal(problem, null, `${where}: ${problem}`);
      }
    } finally {
      await client.close();
    }
  }
});
