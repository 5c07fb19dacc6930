// The nodeFs sandbox: what leads outside the root is refused, writes are
// atomic and keep permissions, and a write whose precondition no longer
// holds changes nothing.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { createTools, memoryFs, nodeFs } from '../src/node.js';

function rootAndOutside(label) {
  const base = join(tmpdir(), 'filetools-js-sandbox', label);
  fs.rmSync(base, { recursive: true, force: true });
  fs.mkdirSync(join(base, 'root'), { recursive: true });
  fs.mkdirSync(join(base, 'outside'), { recursive: true });
  fs.writeFileSync(join(base, 'outside', 'secret.txt'), 'secret\n');
  return { root: join(base, 'root'), outside: join(base, 'outside') };
}

const payloadOf = (run) => {
  try {
    run();
  } catch (err) {
    return err.payload;
  }
  return undefined;
};

test('symlinks and paths leading out of the root are refused', async () => {
  const { root, outside } = rootAndOutside('escape');
  fs.symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
  fs.symlinkSync(outside, join(root, 'out'));
  const tools = await createTools({ fs: nodeFs(root) });
  for (const path of ['link.txt', 'out/secret.txt', '../outside/secret.txt', join(outside, 'secret.txt')]) {
    const result = await tools.call('read', { file_path: path });
    assert.equal(result.isError, true, path);
    assert.ok(!JSON.stringify(result).includes('secret\\n'), `${path} leaked`);
  }
  const wrote = await tools.call('write', { file_path: 'out/new.txt', content: 'x' });
  assert.equal(wrote.isError, true);
  assert.deepEqual(fs.readdirSync(outside), ['secret.txt']);
  const host = nodeFs(root).hostFs;
  assert.deepEqual(payloadOf(() => host.stat('out/secret.txt')), { tag: 'outside-sandbox' });
  assert.deepEqual(payloadOf(() => host.writeFile('link.txt', new Uint8Array([1]), { tag: 'any' })), { tag: 'outside-sandbox' });
  assert.ok(fs.lstatSync(join(root, 'link.txt')).isSymbolicLink(), 'the link stays a link');
});

test('writes are atomic, keep permissions and leave no temporary files', async () => {
  const { root } = rootAndOutside('atomic');
  fs.writeFileSync(join(root, 'run.sh'), '#!/bin/sh\necho hi\n');
  fs.chmodSync(join(root, 'run.sh'), 0o750);
  const tools = await createTools({ fs: nodeFs(root) });
  await tools.call('read', { file_path: 'run.sh' });
  const result = await tools.call('edit', { file_path: 'run.sh', old_string: 'echo hi', new_string: 'echo bye' });
  assert.equal(result.isError, false, result.content[0].text);
  assert.equal(fs.statSync(join(root, 'run.sh')).mode & 0o777, 0o750);
  assert.deepEqual(fs.readdirSync(root), ['run.sh']);
});

test('a stale precondition is a conflict and changes nothing', () => {
  const { root } = rootAndOutside('conflict');
  fs.writeFileSync(join(root, 'a.txt'), 'old\n');
  for (const host of [nodeFs(root).hostFs, memoryFs({ 'a.txt': 'old\n' }).hostFs]) {
    const seen = host.stat('a.txt');
    const stale = { tag: 'matches', val: { size: seen.size, mtimeNs: seen.mtimeNs - 1n } };
    assert.deepEqual(payloadOf(() => host.writeFile('a.txt', new Uint8Array([110]), stale)), { tag: 'conflict' });
    assert.deepEqual(payloadOf(() => host.writeFile('a.txt', new Uint8Array([110]), { tag: 'absent' })), { tag: 'conflict' });
    assert.equal(new TextDecoder().decode(host.read('a.txt', 0n, 100)), 'old\n');
    const wrongHash = { tag: 'matches', val: { size: seen.size, mtimeNs: seen.mtimeNs, sha256: '00' } };
    assert.deepEqual(payloadOf(() => host.writeFile('a.txt', new Uint8Array([110]), wrongHash)), { tag: 'conflict' });
  }
});

test('a read-only root refuses every change', async () => {
  const { root } = rootAndOutside('read-only');
  fs.writeFileSync(join(root, 'a.txt'), 'a\n');
  const host = nodeFs(root, { readOnly: true }).hostFs;
  assert.deepEqual(payloadOf(() => host.writeFile('b.txt', new Uint8Array(), { tag: 'any' })), { tag: 'read-only' });
  assert.deepEqual(payloadOf(() => host.removeFile('a.txt', { tag: 'any' })), { tag: 'read-only' });
  assert.deepEqual(fs.readdirSync(root), ['a.txt']);
});

test('the SHA-256 used for preconditions is the standard one', async () => {
  const { sha256Hex } = await import('../src/sha256.js');
  const { createHash } = await import('node:crypto');
  for (const size of [0, 1, 55, 56, 63, 64, 65, 1000, 100_000]) {
    const data = new Uint8Array(size).map((_, i) => (i * 31 + 7) & 255);
    assert.equal(sha256Hex(data), createHash('sha256').update(data).digest('hex'), `size ${size}`);
  }
});
