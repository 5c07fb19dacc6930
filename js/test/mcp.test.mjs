// `filetools mcp` driven by the MCP TypeScript SDK's own client: the tool
// list with annotations and schemas, and the script's calls, each answered
// as `filetools session` answers it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { filetools, layOut, script, sessionAnswers } from './script.mjs';

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
    assert.deepEqual(tools.map((t) => t.name), ['read', 'write', 'edit', 'undo']);
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

test('a read-only server offers only read and refuses changes', async () => {
  const client = await connect(layOut('ts-read-only'), ['--read-only']);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['read']);
    const refused = await client.callTool({ name: 'write', arguments: { file_path: 'x.txt', content: 'x' } });
    assert.equal(refused.isError, true);
  } finally {
    await client.close();
  }
});
