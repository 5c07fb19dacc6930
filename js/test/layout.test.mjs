// The cases' layout in JavaScript (scripts/cases/layout.mjs, which the
// playground and the Node runners use) against the Rust one (the
// filetools-cases crate, which the Rust and Python runners use): the same
// files, every generated input (text in legacy encodings, PNGs, JPEGs,
// PDFs) byte for byte.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { layOutCases } from '../scripts/cases/layout.mjs';
import { readTree, workspace, workspaceBinary } from './cases.mjs';

/** A step line as data, its call's arguments parsed (serde_json's key order depends on its features). */
function step(line) {
  const value = JSON.parse(line);
  if (value.call) {
    value.call.arguments = JSON.parse(value.call.arguments);
  }
  return value;
}

test('the JavaScript layout of the cases is the Rust layout, byte for byte', () => {
  const scratch = join(workspace, 'target', `layout-test-${process.pid}`);
  const rust = join(scratch, 'rust');
  const js = join(scratch, 'js');
  try {
    execFileSync(workspaceBinary('filetools-cases', 'cases'), [rust], { stdio: ['ignore', 'ignore', 'inherit'] });
    const names = layOutCases(js);
    assert.ok(names.length > 100, `only ${names.length} cases`);
    const expected = readTree(rust);
    const actual = readTree(js);
    assert.deepEqual([...actual.keys()], [...expected.keys()]);
    let generated = 0;
    for (const [path, bytes] of expected) {
      if (path.endsWith('/steps.jsonl')) {
        const lines = (tree) => new TextDecoder().decode(tree.get(path)).split('\n').filter(Boolean).map(step);
        assert.deepEqual(lines(actual), lines(expected), path);
      } else {
        assert.ok(Buffer.from(actual.get(path)).equals(Buffer.from(bytes)), `${path} differs`);
      }
      if (/\.(png|jpg|pdf)$/.test(path) && path.includes('/tree/')) {
        generated += 1;
      }
    }
    assert.ok(generated >= 5, `only ${generated} generated images and PDFs compared`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});

test('a case whose text its encoding cannot hold is refused by name', () => {
  const scratch = join(workspace, 'target', `layout-refusal-${process.pid}`);
  const source = join(scratch, 'cases', 'area', 'broken');
  fs.mkdirSync(source, { recursive: true });
  fs.writeFileSync(join(source, 'calls.jsonl'), '{"tool": "read", "args": {"file_path": "a.txt"}}\n');
  fs.writeFileSync(join(source, 'expected.txt'), '');
  fs.writeFileSync(join(source, 'generate.json'), '[{"path": "a.txt", "encoding": "shift_jis", "prefix": "한국어"}]');
  try {
    assert.throws(() => layOutCases(join(scratch, 'out'), join(scratch, 'cases')), /not representable in shift_jis/);
    assert.equal(fs.existsSync(join(scratch, 'out')), false);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
