// The component asks its host for the SHA-256 of large contents (the CPU's
// SHA instructions are about ten times faster than its own code), and
// hashes by itself when the host has none to give or gives a malformed one:
// the versions it answers with are the same either way.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createTools, memoryFs } from '../src/node.js';

const BIG = `${'a line of a large file\n'.repeat(8000)}the end\n`;

async function editOnce(sha256) {
  const fs = memoryFs({ 'big.txt': BIG, 'small.txt': 'small\n' });
  const asked = [];
  if (sha256 !== undefined) {
    fs.hostFs.sha256 = (data) => {
      asked.push(data.length);
      return sha256(data);
    };
  }
  const tools = await createTools({ fs });
  await tools.read({ file_path: 'big.txt', limit: 1 });
  await tools.read({ file_path: 'small.txt' });
  const big = await tools.edit({ file_path: 'big.txt', old_string: 'the end', new_string: 'THE END' });
  const small = await tools.edit({ file_path: 'small.txt', old_string: 'small', new_string: 'SMALL' });
  assert.equal(big.isError, false, big.content[0].text);
  assert.equal(small.isError, false, small.content[0].text);
  const undone = await tools.undo({ file_path: 'big.txt' });
  assert.equal(undone.isError, false, undone.content[0].text);
  assert.equal(new TextDecoder().decode(fs.files().get('big.txt')), BIG);
  return { versions: [big.structuredContent.version, small.structuredContent.version], asked };
}

test('contents of 1 KiB and more are offered to the host, smaller ones hashed by the component', async () => {
  const { createHash } = await import('node:crypto');
  const { asked } = await editOnce((data) => createHash('sha256').update(data).digest('hex'));
  assert.ok(asked.length > 0, 'the host was never asked');
  assert.ok(
    asked.every((len) => len >= 1024),
    `asked for ${asked}`,
  );
});

test('a host without a hash, or with a malformed one, changes no answer', async () => {
  const { createHash } = await import('node:crypto');
  const reference = await editOnce((data) => createHash('sha256').update(data).digest('hex'));
  for (const sha256 of [
    () => undefined,
    () => 'not a digest',
    (data) => createHash('sha256').update(data).digest('hex').toUpperCase(),
  ]) {
    const { versions } = await editOnce(sha256);
    assert.deepEqual(versions, reference.versions);
  }
});
