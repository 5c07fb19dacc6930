// The grammars (tree-sitter's parse tables, most of the component's data)
// are a component of their own, instantiated only when a call first parses
// code: reads and edits of text and JSON never load them.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadTools, memoryFs } from '../src/node.js';

test('a read of a text file loads no grammar; the first parse of code does', async () => {
  const fs = memoryFs({
    'notes.txt': 'one\ntwo\n',
    'data.json': '{"a": 1}\n',
    'lib.rs': 'pub fn first() {}\n\npub fn second() {}\n',
  });
  const tools = await loadTools({ fs });
  const session = await tools.session();
  assert.equal((await session.read({ file_path: 'notes.txt' })).isError, false);
  assert.equal((await session.read({ file_path: 'data.json' })).isError, false);
  const edited = await session.edit({ file_path: 'data.json', old_string: '1', new_string: '2' });
  assert.equal(edited.isError, false, edited.content[0].text);
  assert.equal(tools.grammarsLoaded(), false, 'a call on text loaded the grammars');

  const symbol = await session.read({ file_path: 'lib.rs', symbol: 'second' });
  assert.equal(symbol.isError, false, symbol.content[0].text);
  assert.match(symbol.content[0].text, /pub fn second\(\) \{\}/);
  assert.equal(tools.grammarsLoaded(), true);
  const broken = await session.edit({
    file_path: 'lib.rs',
    old_string: 'pub fn first() {}',
    new_string: 'pub fn first() {',
  });
  assert.match(broken.content[0].text, /line \d+/);
});

test('every session of the tools parses with the one grammars instance', async () => {
  const fs = memoryFs({ 'a.py': 'def f():\n    return 1\n', 'b.go': 'package b\n\nfunc G() {}\n' });
  const tools = await loadTools({ fs });
  const [one, two] = [await tools.session(), await tools.session()];
  const f = await one.read({ file_path: 'a.py', symbol: 'f' });
  const g = await two.read({ file_path: 'b.go', symbol: 'G' });
  assert.match(f.content[0].text, /return 1/);
  assert.match(g.content[0].text, /func G\(\) \{\}/);
});
