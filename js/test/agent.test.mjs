// The README's agent example runs: the scripted model reads the file, edits
// it through the tools, and the file on disk is fixed.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { runAgent } from '../examples/agent.mjs';

test('the example agent loop reads and edits through the tools', async () => {
  const root = join(tmpdir(), 'filetools-js-agent');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(join(root, 'README.md'), '# Demo\nThis is teh demo.\n');
  const messages = await runAgent(root);
  const results = messages.filter((m) => m.role === 'tool');
  assert.equal(results.length, 2);
  assert.ok(results.every((m) => !m.isError), JSON.stringify(results));
  assert.match(results[0].content[0].text, /^1\t# Demo\n2\tThis is teh demo\./);
  assert.equal(fs.readFileSync(join(root, 'README.md'), 'utf8'), '# Demo\nThis is the demo.\n');
  assert.equal(messages.at(-1).content, 'Fixed the typo in README.md.');
});
