// One promise on every host: a Node agent and the Rust CLI on the same
// root share the records of changes under way and take turns in a
// directory, so a change cut off in one is put back by the other, and two
// agents racing with `expect` lose nothing.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';

import { nodeFs } from '../src/node.js';
import { js, workspace, workspaceBinary } from './cases.mjs';

/** A fresh directory under the system's temporary one. */
function scratch(label) {
  const dir = join(tmpdir(), `filetools-hosts-${process.pid}-${label}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return fs.realpathSync(dir);
}

/** A `filetools session` over `root`, spoken to a line at a time. */
function cliSession(root, state) {
  return lineSession(workspaceBinary('agent-filetools', 'filetools'), ['session', '--root', root], state);
}

/** A Node agent over nodeFs(root) in its own process, spoken to as the CLI is. */
function nodeSession(root, state) {
  return lineSession(process.execPath, [join(js, 'scripts', 'session.mjs'), '--root', root], state);
}

/** A process speaking the session line protocol. */
function lineSession(command, args, state) {
  const child = spawn(command, args, {
    env: { ...process.env, FILETOOLS_STATE_DIR: state },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    call: async (tool, args) => {
      child.stdin.write(`${JSON.stringify({ tool, args })}\n`);
      const { value, done } = await lines.next();
      assert.ok(!done, 'the CLI session ended');
      return JSON.parse(value);
    },
    end: () => {
      child.stdin.end();
      return new Promise((resolve) => child.on('close', resolve));
    },
  };
}

/** Code run in a child Node process that takes the turn in `dir`, says so, and holds it `ms`. */
const HOLD_TURN = `
import { turnsIn } from ${JSON.stringify(join(js, 'src', 'turns.js'))};
const [turns, dir, ms] = process.argv.slice(1);
const end = turnsIn(turns).take(dir);
console.log(end === null ? 'none' : 'held');
setTimeout(() => { end(); process.exit(0); }, Number(ms));
`;

/** A child Node process holding the turn in `dir` for `ms`; resolves once it holds it. */
function holdTurn(turns, dir, ms) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOLD_TURN, turns, dir, String(ms)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (data) => {
      if (String(data).trim() === 'held') resolve(child);
      else reject(new Error(`the child took no turn: ${data}`));
    });
    child.once('error', reject);
  });
}

test('the Rust CLI waits for the turn a Node process holds in a directory, and a killed holder holds nothing', async () => {
  const [root, state] = [scratch('turn-root'), scratch('turn-state')];
  fs.writeFileSync(join(root, 'a.txt'), 'one\n');
  const turns = join(state, 'turns');
  fs.mkdirSync(turns, { mode: 0o700 });
  const holder = await holdTurn(turns, root, 600);
  const cli = cliSession(root, state);
  const started = Date.now();
  const written = await cli.call('write', { file_path: 'b.txt', content: 'two\n' });
  const waited = Date.now() - started;
  assert.equal(written.isError, false, written.content[0].text);
  assert.ok(waited >= 300, `the write landed ${waited} ms in, while the turn was held`);
  await new Promise((resolve) => holder.on('close', resolve));

  // A holder killed with its turn: the next change does not wait for it.
  const killed = await holdTurn(turns, root, 60_000);
  killed.kill('SIGKILL');
  await new Promise((resolve) => killed.on('close', resolve));
  const next = Date.now();
  const again = await cli.call('write', { file_path: 'c.txt', content: 'three\n' });
  assert.equal(again.isError, false, again.content[0].text);
  assert.ok(Date.now() - next < 5_000);
  await cli.end();
  assert.deepEqual(fs.readdirSync(turns), [], 'every ticket went with its turn');
});

test('a Node agent and a Rust CLI editing the same files with expect lose no edit', async () => {
  const [root, state] = [scratch('race-root'), scratch('race-state')];
  const FILES = ['a.txt', 'b.txt', 'c.txt'];
  const ROUNDS = 200;
  for (const file of FILES) fs.writeFileSync(join(root, file), 'start\nEND\n');
  // Two processes, so that their calls truly overlap.
  const [node, cli] = [nodeSession(root, state), cliSession(root, state)];
  const landed = [];
  let refused = 0;
  /** `rounds` edits, each inserting its own line before END, after a read, with expect. */
  const agent = async (name, call) => {
    for (let i = 0; i < ROUNDS; i += 1) {
      const file = FILES[i % FILES.length];
      const line = `${name} ${i}`;
      for (let attempt = 0; ; attempt += 1) {
        assert.ok(attempt < 100, `${line} never landed`);
        const read = await call('read', { file_path: file });
        assert.equal(read.isError, false, read.content[0].text);
        const edit = await call('edit', {
          file_path: file,
          old_string: 'END\n',
          new_string: `${line}\nEND\n`,
          expect: read.structuredContent.version,
        });
        if (!edit.isError) {
          landed.push([file, line]);
          break;
        }
        refused += 1;
      }
    }
  };
  await Promise.all([agent('node', node.call), agent('cli', cli.call)]);
  await Promise.all([node.end(), cli.end()]);
  for (const file of FILES) {
    const lines = fs.readFileSync(join(root, file), 'utf8').trimEnd().split('\n');
    const expected = landed.filter(([f]) => f === file).map(([, line]) => line);
    assert.deepEqual(
      lines.slice(1, -1).sort(),
      expected.sort(),
      `${file}: every edit that answered success is there, once`,
    );
  }
  assert.equal(landed.length, 2 * ROUNDS);
  console.log(`race: ${landed.length} edits landed, ${refused} refused as stale and retried`);
});

test('a change of several files cut off in Node is put back by the CLI and by Node, and one cut off in the CLI by Node', () => {
  const stress = workspaceBinary('filetools-tests', 'stress');
  const state = scratch('kill-state');
  const run = spawnSync(
    stress,
    [
      '--bin',
      workspaceBinary('agent-filetools', 'filetools'),
      '--only',
      'node',
      '--percent',
      '10',
      '--dir',
      scratch('kill-dir'),
    ],
    { cwd: workspace, encoding: 'utf8', env: { ...process.env, FILETOOLS_STATE_DIR: state } },
  );
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  const mixed = [...run.stdout.matchAll(/(\d+) left mixed by the kill/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  assert.ok(mixed > 0, `no kill landed between two steps:\n${run.stdout}`);
  for (const counted of run.stdout.matchAll(
    /(\d+) mixed after the next call, (\d+) put back without a word, (\d+) torn/g,
  )) {
    assert.deepEqual(counted.slice(1).map(Number), [0, 0, 0], run.stdout);
  }
});

test('a state directory inside the root is refused: records stay in memory, and nodeFs says why', () => {
  const root = scratch('inside-root');
  const fsys = nodeFs(root, { stateDir: join(root, 'state') });
  assert.match(fsys.stateRefusal, /inside the workspace root/);
  assert.equal(fs.existsSync(join(root, 'state')), false);
  assert.equal(nodeFs(root, { stateDir: scratch('inside-state') }).stateRefusal, null);
});
