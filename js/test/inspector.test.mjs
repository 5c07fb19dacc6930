// `filetools mcp` driven by the MCP Inspector's CLI, as a developer tries
// a server: one process per call, so the session lives in `--state`.
// Every answer of every tool set must come back as a tool result (the
// Inspector exits 1 on a protocol error).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { js } from './cases.mjs';
import { answerProblem, everyAnswer, filetools, layOutFiles } from './script.mjs';

const inspector = join(js, 'node_modules', '.bin', 'mcp-inspector-cli');

/** `--tool-arg` pairs: the Inspector parses each value as JSON if it can. */
function toolArgs(args) {
  return Object.entries(args).map(
    ([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
}

/** One Inspector run against the server; its parsed stdout. */
function inspect(root, set, state, method, extra = []) {
  const run = spawnSync(
    inspector,
    ['--cli', filetools(), 'mcp', '--root', root, '--tools', set.tools, '--state', state, '--method', method, ...extra],
    // inspector-cli 1.0.3 finds its own package.json from ../ of the
    // working directory: js/test has js/ above it.
    { cwd: join(js, 'test'), encoding: 'utf8' },
  );
  assert.equal(run.status, 0, `${method} ${extra.join(' ')}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

test('the MCP Inspector CLI gets every answer of every tool set as a tool result', () => {
  for (const set of everyAnswer.sets) {
    const root = layOutFiles(`inspector-${set.tools.replace(',', '-')}`, set.files);
    const state = join(root, '..', `inspector-${set.tools.replace(',', '-')}.state`);
    fs.rmSync(state, { force: true });
    const schemas = new Map(inspect(root, set, state, 'tools/list').tools.map((t) => [t.name, t.outputSchema]));
    for (const [index, call] of set.calls.entries()) {
      const where = `${set.tools} call ${index + 1} (${call.tool} ${call.answer})`;
      const args = Object.keys(call.args).length ? ['--tool-arg', ...toolArgs(call.args)] : [];
      const result = inspect(root, set, state, 'tools/call', ['--tool-name', call.tool, ...args]);
      const problem = answerProblem(call, result, schemas.get(call.tool));
      assert.equal(problem, null, `${where}: ${problem}`);
    }
  }
});
