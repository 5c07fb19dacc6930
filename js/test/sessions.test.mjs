// Every session of one `loadTools` is a resource of one instance. A trap in
// one of a thousand costs that call alone: the instance is replaced, and
// each other session answers its next call with all it knew.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadTools, memoryFs } from '../src/node.js';
import { throwingOn } from './throwing.mjs';

const SESSIONS = 1000;

const text = (bytes) => new TextDecoder().decode(bytes);

test('a trap in one of a thousand sessions leaves the other 999 answering with their memory', async () => {
  const fs = throwingOn('boom.txt', { 'boom.txt': 'never read\n' });
  const tools = await loadTools({ fs });
  const sessions = [];
  for (let i = 0; i < SESSIONS; i += 1) {
    const session = await tools.session();
    const written = await session.write({ file_path: `s${i}.txt`, content: `session ${i}\n` });
    assert.equal(written.isError, false, written.content[0].text);
    sessions.push(session);
  }

  const trapped = await sessions[0].read({ file_path: 'boom.txt' });
  assert.equal(trapped.structuredContent.error, 'guest_trap');
  assert.equal(trapped.structuredContent.memory_kept, true);

  // Each edits the file it wrote without reading it (its ledger came back)
  // and then undoes the edit (its history came back).
  for (const [i, session] of sessions.entries()) {
    const edited = await session.edit({ file_path: `s${i}.txt`, old_string: 'session', new_string: 'edited' });
    assert.equal(edited.isError, false, `session ${i}: ${edited.content[0].text}`);
  }
  assert.equal(text(fs.files().get('s999.txt')), 'edited 999\n');
  for (const [i, session] of sessions.entries()) {
    const undone = await session.undo({ file_path: `s${i}.txt` });
    assert.equal(undone.isError, false, `session ${i}: ${undone.content[0].text}`);
    assert.equal(text(fs.files().get(`s${i}.txt`)), `session ${i}\n`);
  }
});

test('sessions of one instance keep their ledgers apart', async () => {
  const fs = memoryFs({ 'a.txt': 'one\n' });
  const tools = await loadTools({ fs });
  const reader = await tools.session();
  const other = await tools.session();
  assert.equal((await reader.read({ file_path: 'a.txt' })).isError, false);
  const refused = await other.edit({ file_path: 'a.txt', old_string: 'one', new_string: 'two' });
  assert.equal(refused.isError, true);
  assert.match(refused.content[0].text, /read/);
  const edited = await reader.edit({ file_path: 'a.txt', old_string: 'one', new_string: 'two' });
  assert.equal(edited.isError, false, edited.content[0].text);
});

test('calls of many sessions made at once all answer after a trap among them', async () => {
  const fs = throwingOn('boom.txt', { 'a.txt': 'fine\n', 'boom.txt': 'x\n' });
  const tools = await loadTools({ fs });
  const sessions = await Promise.all(Array.from({ length: 20 }, () => tools.session()));
  const answers = await Promise.all(
    sessions.map((session, i) => session.read({ file_path: i === 7 ? 'boom.txt' : 'a.txt' })),
  );
  for (const [i, answer] of answers.entries()) {
    if (i === 7) {
      assert.equal(answer.structuredContent.error, 'guest_trap');
    } else {
      assert.equal(answer.isError, false, `session ${i}: ${answer.content[0].text}`);
    }
  }
  const again = await Promise.all(sessions.map((session) => session.read({ file_path: 'a.txt' })));
  assert.ok(again.every((answer) => !answer.isError));
  assert.ok(sessions.every((session) => session.save().includes('a.txt')));
});
