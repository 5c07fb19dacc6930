// The agent example of js/README.md (examples/agent.mjs) runs: the scripted
// model reads the file, edits it through the tools, and the file on disk is
// fixed.
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
  assert.ok(
    results.every((m) => !m.isError),
    JSON.stringify(results),
  );
  assert.match(results[0].content[0].text, /^1\t# Demo\n2\tThis is teh demo\./);
  assert.equal(fs.readFileSync(join(root, 'README.md'), 'utf8'), '# Demo\nThis is the demo.\n');
  assert.equal(messages.at(-1).content, 'Fixed the typo in README.md.');
});

test('loadTools compiles each core module once: sessions are separate and see the same files', async () => {
  const { readFile } = await import('node:fs/promises');
  const { loadToolsWith } = await import('../src/core.js');
  const { memoryFs: memory } = await import('../src/node.js');
  const compiled = [];
  const loadCore = async (name) => {
    compiled.push(name);
    return WebAssembly.compile(await readFile(new URL(`../generated/${name}`, import.meta.url)));
  };
  const fs = memory({ 'a.txt': 'one\ntwo\n' });
  const tools = await loadToolsWith({ fs, config: { max_lines: 1 }, loadCore });
  const first = await tools.session();
  const second = await tools.session();
  const third = await tools.session();
  assert.equal(new Set(compiled).size, compiled.length, `compiled twice: ${compiled}`);
  assert.equal(
    (await first.call('read', { file_path: 'a.txt' })).content[0].text,
    '1\tone\n[lines 1-1 of 2; continue with offset=2]\n[version e133445055664dac-8]',
  );
  const refused = await second.call('edit', { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' });
  assert.equal(refused.isError, true, 'the second session has its own memory: it has not read a.txt');
  await third.call('read', { file_path: 'a.txt' });
  assert.equal((await third.call('edit', { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' })).isError, false);
  assert.equal(new TextDecoder().decode(fs.files().get('a.txt')), 'ONE\ntwo\n');
  assert.equal(tools.schema('mcp')[0].name, 'read');
});

test('a typed change with expect needs no read in its session, and lands only on that version', async () => {
  const { createTools, memoryFs } = await import('../src/node.js');
  const fs = memoryFs({ 'a.txt': 'one\ntwo\n' });
  const reader = await createTools({ fs });
  const version = (await reader.read({ filePath: 'a.txt' })).structuredContent.version;
  const other = await createTools({ fs });
  const landed = await other.edit({ filePath: 'a.txt', oldString: 'two', newString: '2', expect: version });
  assert.equal(landed.isError, false, JSON.stringify(landed));
  const stale = await other.write({ filePath: 'a.txt', content: 'x\n', expect: version });
  assert.equal(stale.structuredContent.error, 'conflict');
  assert.equal(stale.structuredContent.version, landed.structuredContent.version);
  const undone = await other.undo({ filePath: 'a.txt', expect: landed.structuredContent.version });
  assert.equal(undone.isError, false, JSON.stringify(undone));
  assert.equal(new TextDecoder().decode(fs.files().get('a.txt')), 'one\ntwo\n');
});

test('typed grep shows lines that an edit then changes with no read; find lists files by name', async () => {
  const { createTools, memoryFs } = await import('../src/node.js');
  const fs = memoryFs({ 'src/a.js': 'const one = 1;\nconst two = 2;\n', 'b.txt': 'two\n' });
  const tools = await createTools({ fs });
  const found = await tools.grep({ pattern: 'two', path: 'src', outputMode: 'content', headLimit: 5 });
  assert.equal(found.isError, false, JSON.stringify(found));
  assert.match(found.content[0].text, /^src\/a\.js \[version [0-9a-f]+-\d+\]\n2:const two = 2;\n/);
  const edited = await tools.edit({ filePath: 'src/a.js', oldString: 'two = 2', newString: 'two = 3' });
  assert.equal(edited.isError, false, JSON.stringify(edited));
  const listed = await tools.find({ pattern: '*.txt' });
  assert.match(listed.content[0].text, /^b\.txt\n/);
});

test('a typed block read shows the entry around a line, and a typed edit by symbol replaces it', async () => {
  const { createTools, memoryFs } = await import('../src/node.js');
  const fs = memoryFs({ 'm.py': 'def a():\n    return 1\n\n\ndef b():\n    return 2\n' });
  const tools = await createTools({ fs });
  const block = await tools.read({ filePath: 'm.py', offset: 6n, block: true });
  assert.equal(block.isError, false, JSON.stringify(block));
  assert.match(block.content[0].text, /^\[b: lines 5-6 of 6\]\ndef b\(\):\n/);
  const edited = await tools.edit({
    filePath: 'm.py',
    symbol: 'b',
    newString: 'def b():\n    return 20',
    position: 'replace',
  });
  assert.equal(edited.isError, false, JSON.stringify(edited));
  assert.match(edited.content[0].text, /^Replaced "b" in m\.py \(lines 5-6, now lines 5-6\)/);
  const unseen = await tools.edit({ filePath: 'm.py', symbol: 'a', newString: 'x = 1', position: 'after' });
  assert.equal(unseen.structuredContent.error, 'not_read');
  assert.equal(
    new TextDecoder().decode(fs.files().get('m.py')),
    'def a():\n    return 1\n\n\ndef b():\n    return 20\n',
  );
});

test('the host asks which seen files changed on disk and is told their lines once', async () => {
  const { createTools, memoryFs } = await import('../src/node.js');
  const fs = memoryFs({ 'a.txt': 'one\ntwo\n' });
  const tools = await createTools({ fs });
  await tools.read({ filePath: 'a.txt' });
  assert.equal((await tools.changes()).content[0].text, 'No file you have seen changed on disk since your view.');
  fs.addFile('a.txt', 'one\nTWO\n');
  const told = await tools.changes();
  assert.match(
    told.content[0].text,
    /^Changed on disk since your view:\na\.txt \(now version [0-9a-f]+-\d+\):\n2\tTWO$/,
  );
  assert.deepEqual(told.structuredContent.changed_on_disk.shown, ['a.txt']);
});

test('a typed replace runs dry, then changes every file at once, and one undo takes it back', async () => {
  const { createTools, memoryFs } = await import('../src/node.js');
  const fs = memoryFs({ 'a.txt': 'old one\n', 'b.txt': 'old two\n' });
  const tools = await createTools({ fs });
  const dry = await tools.replace({ pattern: 'old', replacement: 'new' });
  assert.match(dry.content[0].text, /^Dry run: 2 occurrences of "old" in 2 files/);
  const done = await tools.replace({ pattern: 'old', replacement: 'new', apply: true, expected_count: 2 });
  assert.equal(done.isError, false, JSON.stringify(done));
  const text = (path) => new TextDecoder().decode(fs.files().get(path));
  assert.deepEqual([text('a.txt'), text('b.txt')], ['new one\n', 'new two\n']);
  await tools.undo({ filePath: 'b.txt' });
  assert.deepEqual([text('a.txt'), text('b.txt')], ['old one\n', 'old two\n']);
});
