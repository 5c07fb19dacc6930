// The package under Deno with least privilege: over memoryFs with no
// permission at all, and over nodeFs with read and write allowed for the
// root only. A project depending on the package imports it by name; the
// wasm comes in through the module graph, the WASI shims read no
// environment, and a permission the tools lack is an error answer, not a
// crash. Deno comes from `cargo xtask setup` (or FILETOOLS_DENO).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { js, workspace } from './cases.mjs';

function deno() {
  const binary =
    process.env.FILETOOLS_DENO ?? join(workspace, 'target', 'deno', 'node_modules', '@deno', 'linux-x64-glibc', 'deno');
  assert.ok(fs.existsSync(binary), `${binary} is missing: run \`cargo xtask setup\` (or set FILETOOLS_DENO)`);
  return binary;
}

/** A scratch project that depends on the package, and a root for nodeFs. */
function project() {
  const dir = join(tmpdir(), 'filetools-deno');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(join(dir, 'node_modules'), { recursive: true });
  fs.symlinkSync(js, join(dir, 'node_modules', 'agent-filetools'));
  fs.writeFileSync(join(dir, 'deno.json'), JSON.stringify({ nodeModulesDir: 'manual' }));
  fs.copyFileSync(join(js, 'examples', 'deno.js'), join(dir, 'tools.js'));
  const root = join(dir, 'root');
  fs.mkdirSync(root);
  fs.writeFileSync(join(root, 'a.txt'), 'alpha\nbeta\n');
  return { dir, root: fs.realpathSync(root) };
}

function run(dir, flags, args = [], env = {}) {
  const out = spawnSync(deno(), ['run', '--no-prompt', '--no-lock', ...flags, 'tools.js', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: dir, DENO_DIR: join(dir, '.deno'), ...env },
  });
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout.trim().split('\n').at(-1));
}

test('Deno with no permission at all reads, edits and outlines over memoryFs', () => {
  const { dir } = project();
  const seen = run(dir, []);
  assert.equal(seen.read.text, '1\talpha\n2\tbeta\n[lines 1-2 of 2; end of file]\n[version f5b0de433497dee6-11]');
  assert.match(seen.edit.text, /^Edited a.txt: 1 replacement/);
  assert.match(seen.reread.text, /2\tBETA/);
  assert.match(seen.outline.text, /outline/i);
  assert.match(seen.outline.text, /^export function handler0 \[1:3\]$/m);
  assert.equal(seen.second, false);
});

test('Deno with read and write allowed for the root alone works over nodeFs; without write, an edit is refused as not permitted', () => {
  const { dir, root } = project();
  const seen = run(dir, [`--allow-read=${root}`, `--allow-write=${root}`], [root]);
  assert.match(seen.edit.text, /^Edited a.txt/);
  assert.equal(fs.readFileSync(join(root, 'a.txt'), 'utf8'), 'alpha\nBETA\n');
  fs.writeFileSync(join(root, 'a.txt'), 'alpha\nbeta\n');
  const readOnly = run(dir, [`--allow-read=${root}`], [root]);
  assert.equal(readOnly.read.error, false);
  assert.equal(readOnly.edit.error, true, readOnly.edit.text);
  // A permission Deno was not given is no I/O error: trying again cannot help.
  assert.match(readOnly.edit.text, /permission denied/i);
  assert.doesNotMatch(readOnly.edit.text, /try again|I\/O error/i);
  assert.equal(fs.readFileSync(join(root, 'a.txt'), 'utf8'), 'alpha\nbeta\n');
});

test('Deno allowed a state directory keeps the records of changes under way there, where every host finds them', () => {
  const { dir, root } = project();
  const state = join(dir, 'state');
  const flags = [
    `--allow-read=${root},${state}`,
    `--allow-write=${root},${state}`,
    '--allow-env=FILETOOLS_STATE_DIR',
    '--allow-sys=uid',
  ];
  const seen = run(dir, flags, [root], { FILETOOLS_STATE_DIR: state });
  assert.match(seen.edit.text, /^Edited a.txt/);
  assert.equal(seen.stateRefusal, null);
  // Made private, and empty again once the change is over.
  assert.equal(fs.statSync(join(state, 'changes')).mode & 0o777, 0o700);
  assert.deepEqual(fs.readdirSync(join(state, 'changes')), []);
  assert.deepEqual(fs.readdirSync(join(state, 'turns')), []);
  // Without it, the records stay in memory and nodeFs says why.
  const fallback = run(dir, [`--allow-read=${root}`, `--allow-write=${root}`], [root]);
  assert.match(fallback.stateRefusal, /kept in memory/);
});
