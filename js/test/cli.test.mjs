// The package answers exactly as `filetools session --root dir` does, for
// the same calls on the same files, over nodeFs and over memoryFs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { createTools, memoryFs, nodeFs } from '../src/node.js';
import { workspaceBinary } from './cases.mjs';

const FILES = {
  'src/app.py': `import os\n\n\nclass App:\n    def run(self):\n        return os.getcwd()\n\n${Array.from({ length: 900 }, (_, i) => `def handler_${i}(request):\n    return request.path + "${'x'.repeat(20)}"\n`).join('\n')}`,
  'notes.txt': 'alpha\nbeta\r\ngamma\n',
  'data/config.json': '{\n  "name": "demo",\n  "tags": [1, 2, 3]\n}\n',
};

const CALLS = [
  ['read', { file_path: 'notes.txt' }],
  ['edit', { file_path: 'notes.txt', old_string: 'beta', new_string: 'BETA' }],
  ['read', { file_path: 'notes.txt', offset: 2, limit: 1 }],
  ['read', { file_path: 'src/app.py' }],
  ['read', { file_path: 'src/app.py', offset: 4, limit: 3 }],
  ['edit', { file_path: 'src/app.py', old_string: 'return os.getcwd()', new_string: 'return os.getcwd() or "/"' }],
  ['write', { file_path: 'new/todo.md', content: '# Todo\n- ship\n' }],
  ['read', { path: 'data' }],
  ['undo', { file_path: 'notes.txt' }],
  ['read', { file_path: 'missing.txt' }],
  ['write', { file_path: '../outside.txt', content: 'no' }],
  ['read', { file_path: 'notes.txt', offset: 'x' }],
];

function fresh(label) {
  const dir = join(tmpdir(), 'filetools-js-cli', label);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [path, text] of Object.entries(FILES)) {
    fs.mkdirSync(join(dir, path, '..'), { recursive: true });
    fs.writeFileSync(join(dir, path), text);
  }
  return dir;
}

test('createTools gives what filetools session gives, on nodeFs and memoryFs', async () => {
  // One directory for every run: answers name the workspace root.
  const cliDir = fresh('root');
  const input = `${CALLS.map(([tool, args]) => JSON.stringify({ tool, args })).join('\n')}\n`;
  const run = spawnSync(workspaceBinary('agent-filetools', 'filetools'), ['session', '--root', cliDir], {
    input,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const expected = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(expected.length, CALLS.length);

  for (const [label, fsOf] of [
    ['nodeFs', () => nodeFs(fresh('root'))],
    ['memoryFs', () => memoryFs(FILES)],
  ]) {
    const tools = await createTools({ fs: fsOf(), config: { root: fs.realpathSync(cliDir) } });
    for (const [index, [tool, args]] of CALLS.entries()) {
      const answer = JSON.parse(JSON.stringify(await tools.call(tool, args)));
      assert.deepEqual(answer, expected[index], `${label}, call ${index + 1} (${tool})`);
    }
  }
  assert.equal(expected[3].structuredContent.kind, 'outline', 'the large file was outlined');
});
