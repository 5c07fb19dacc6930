// A call that traps (here, a file-system back end that throws in the middle
// of a read) costs only that call: the session comes back with what it knew
// — the file changed before can be edited without reading it again, and
// every change before can be undone — and the answer names the file and
// what stopped it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createTools, memoryFs } from '../src/node.js';
import { throwingOn } from './throwing.mjs';

test('a trapped call keeps the session memory and says what stopped', async () => {
  const fs = throwingOn('boom.txt', { 'a.txt': 'fine\n', 'boom.txt': 'never read\n' });
  const tools = await createTools({ fs });
  assert.equal((await tools.read({ file_path: 'a.txt' })).isError, false);
  assert.equal((await tools.write({ file_path: 'new.txt', content: 'one\n' })).isError, false);
  assert.equal((await tools.edit({ file_path: 'a.txt', old_string: 'fine', new_string: 'finer' })).isError, false);

  const trapped = await tools.read({ file_path: 'boom.txt' });
  assert.equal(trapped.isError, true);
  assert.equal(trapped.structuredContent.error, 'guest_trap');
  assert.equal(trapped.structuredContent.memory_kept, true);
  assert.match(
    trapped.content[0].text,
    /^Error: reading boom\.txt stopped: it hit a fault in filetools \(Error: the back end crashed\)\. The session still knows/,
  );

  const edited = await tools.edit({ file_path: 'a.txt', old_string: 'finer', new_string: 'finest' });
  assert.equal(edited.isError, false, edited.content[0].text);
  assert.equal(new TextDecoder().decode(fs.files().get('a.txt')), 'finest\n');
  for (let i = 0; i < 2; i += 1) {
    const undone = await tools.undo({ file_path: 'a.txt' });
    assert.equal(undone.isError, false, undone.content[0].text);
  }
  assert.equal(new TextDecoder().decode(fs.files().get('a.txt')), 'fine\n');
  const undone = await tools.undo({ file_path: 'new.txt' });
  assert.equal(undone.isError, false, undone.content[0].text);
  assert.equal(fs.files().has('new.txt'), false);
  assert.match(tools.save(), /a\.txt/);
});

test('a trap after a restore keeps the restored memory', async () => {
  const first = await createTools({ fs: memoryFs({ 'a.txt': 'fine\n' }) });
  await first.read({ file_path: 'a.txt' });
  const saved = first.save();

  const fs = throwingOn('boom.txt', { 'a.txt': 'fine\n', 'boom.txt': 'x\n' });
  const second = await createTools({ fs });
  second.restore(saved);
  assert.equal((await second.call('read', { file_path: 'boom.txt' })).structuredContent.error, 'guest_trap');
  assert.equal(second.save(), saved);
});

/**
 * `throwingOn(name)` whose back end is then gone until `back()`: looking up
 * its `read` throws what is no Error, so no new instance can start.
 */
function goneAfterCrash(name, files) {
  const fs = throwingOn(name, files);
  const read = fs.hostFs.read;
  let gone = false;
  Object.defineProperty(fs.hostFs, 'read', {
    get() {
      if (gone) {
        throw { message: 'the disk was unmounted' };
      }
      return (path, offset, len) => {
        gone = path === name;
        return read(path, offset, len);
      };
    },
  });
  return { fs, back: () => (gone = false) };
}

test('a call whose restart fails too names both causes and the next step, and the next call restarts', async () => {
  const { fs, back } = goneAfterCrash('boom.txt', { 'a.txt': 'fine\n', 'boom.txt': 'never read\n' });
  const tools = await createTools({ fs });
  assert.equal((await tools.read({ file_path: 'a.txt' })).isError, false);

  const trapped = await tools.read({ file_path: 'boom.txt' });
  assert.equal(trapped.isError, true);
  assert.equal(trapped.structuredContent.error, 'guest_trap');
  assert.equal(
    trapped.content[0].text,
    'Error: the read call stopped (the back end crashed), and filetools could not restart (the disk was unmounted). ' +
      'The next call tries to restart it; if that fails too, start a new session.',
  );

  back();
  const edited = await tools.edit({ file_path: 'a.txt', old_string: 'fine', new_string: 'finer' });
  assert.equal(edited.isError, false, edited.content[0].text);
});
