// `filetools serve` as two replicas sharing a real `redis-server`, driven
// by the MCP TypeScript SDK's Streamable HTTP client: the script's calls
// alternate between the replicas on one session and each answer equals
// what `filetools session` answers in one process; a client's
// Mcp-Session-Id alone carries its session to the other replica; and a
// request without the token is refused.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { freePort } from './cases.mjs';
import { filetools, script, scriptFiles } from './script.mjs';

const TOKEN = 'serve-test-token-0123456789';
const AUTH = { Authorization: `Bearer ${TOKEN}` };

// The large file read twice: the second read is the dedup stub.
const DEDUP_CALLS = [
  { tool: 'read', args: { file_path: 'src/app.py', offset: 1, limit: 40 } },
  { tool: 'read', args: { file_path: 'src/app.py', offset: 1, limit: 40 } },
];
const CALLS = [...script.calls, ...DEDUP_CALLS];

/** Processes started here, stopped in `after` whatever happened. */
const children = [];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a Redis server answers PING on `port`. */
function pong(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let got = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => {
      got += data.toString('latin1');
      if (got.includes('\r\n')) {
        done(got.startsWith('+PONG'));
      }
    });
  });
}

function track(child, name) {
  const entry = { child, name, output: '', exited: false };
  child.stdout?.on('data', (d) => {
    entry.output += d;
  });
  child.stderr?.on('data', (d) => {
    entry.output += d;
  });
  child.on('exit', () => {
    entry.exited = true;
  });
  children.push(entry);
  return entry;
}

/** A redis-server on a free loopback port, answering PING; its URL. */
async function startRedis() {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    assert.fail('redis-server is missing: run `cargo xtask setup`');
  }
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const entry = track(child, 'redis-server');
  const deadline = Date.now() + 10_000;
  while (!(await pong(port))) {
    if (entry.exited || Date.now() > deadline) {
      assert.fail(`redis-server did not answer on port ${port}:\n${entry.output}`);
    }
    await sleep(50);
  }
  return `redis://127.0.0.1:${port}`;
}

/** A `filetools serve` replica over `root`; the URL it serves MCP at. */
function startReplica(root, store) {
  const child = spawn(filetools(), ['serve', '--root', root, '--listen', '127.0.0.1:0', '--store', store], {
    env: { ...process.env, FILETOOLS_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const entry = track(child, 'filetools serve');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`filetools serve did not start:\n${entry.output}`)), 20_000);
    const look = () => {
      const found = /serving MCP at (http:\/\/\S+\/mcp)\r?\n/.exec(entry.output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stderr.on('data', look);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`filetools serve exited (${code}):\n${entry.output}`));
    });
  });
}

async function stopAll() {
  for (const { child, exited } of children.reverse()) {
    if (exited) {
      continue;
    }
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await Promise.race([gone, sleep(5000)]);
  }
}

/** The script's files in `root`, which stays (the replicas hold it open). */
function layOutIn(root) {
  fs.mkdirSync(root, { recursive: true });
  for (const name of fs.readdirSync(root)) {
    fs.rmSync(join(root, name), { recursive: true, force: true });
  }
  for (const [path, data] of scriptFiles()) {
    fs.mkdirSync(join(root, path, '..'), { recursive: true });
    fs.writeFileSync(join(root, path), data);
  }
}

/** What `filetools session --root root` answers to CALLS. */
function sessionAnswers(root) {
  const input = `${CALLS.map(({ tool, args }) => JSON.stringify({ tool, args })).join('\n')}\n`;
  const run = spawnSync(filetools(), ['session', '--root', root], { input, encoding: 'utf8' });
  if (run.status !== 0) {
    throw new Error(`filetools session failed: ${run.stderr}`);
  }
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** A client of `url`; `fetch` sees every request it makes. */
async function connect(url, { sessionId, protocolVersion, seen } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: AUTH },
    sessionId,
    fetch: (input, init) => {
      seen?.push({ headers: new Headers(init?.headers), body: init?.body });
      return fetch(input, init);
    },
  });
  if (protocolVersion) {
    transport.setProtocolVersion(protocolVersion);
  }
  const client = new Client({ name: 'filetools-serve-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const plain = (result) => ({
  content: result.content,
  isError: result.isError ?? false,
  structuredContent: result.structuredContent,
});

/** One JSON-RPC POST to `url` with `headers`; the status and the message. */
async function post(url, headers, message) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(message),
  });
  const body = await response.text();
  let parsed;
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = body
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .filter((line) => line !== '');
    parsed = data.map((line) => JSON.parse(line)).find((m) => 'result' in m || 'error' in m);
  } else {
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
  }
  return { status: response.status, body, message: parsed };
}

let root;
let urls;
let expected;

before(async () => {
  root = join(tmpdir(), `filetools-serve-js-${process.pid}`);
  fs.rmSync(root, { recursive: true, force: true });
  layOutIn(root);
  root = fs.realpathSync(root);
  expected = sessionAnswers(root);
  const store = await startRedis();
  urls = await Promise.all([startReplica(root, store), startReplica(root, store)]);
});

after(async () => {
  await stopAll();
  if (root) {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

// Set by the first test, used by the next: A's protocol session.
let first;

test('clients alternating between two replicas on one handle get the one-process answers', async () => {
  layOutIn(root);
  const a = await connect(urls[0]);
  const b = await connect(urls[1]);
  try {
    assert.equal(a.transport.protocolVersion, '2025-11-25');
    assert.ok(a.transport.sessionId, 'replica 1 gave an Mcp-Session-Id');
    assert.ok(b.transport.sessionId, 'replica 2 gave an Mcp-Session-Id');
    let handle;
    let last;
    for (const [index, { tool, args }] of CALLS.entries()) {
      const onB = index % 2 === 1;
      const result = await (onB ? b : a).client.callTool({
        name: tool,
        arguments: onB ? { ...args, session: handle } : args,
      });
      if (handle === undefined) {
        handle = result._meta?.['filetools/session'];
        assert.equal(handle, `mcp-${a.transport.sessionId}`, 'the handle is bound to the MCP session');
      }
      assert.equal(result._meta?.['filetools/session'], handle, `call ${index + 1}: the handle stays`);
      last = plain(result);
      assert.deepEqual(last, expected[index], `call ${index + 1} (${tool}) on replica ${onB ? 2 : 1}`);
    }
    assert.match(last.content[0].text.toLowerCase(), /unchanged/, 'the second read is the dedup stub');
    first = {
      sessionId: a.transport.sessionId,
      otherId: b.transport.sessionId,
      protocolVersion: a.transport.protocolVersion,
      handle,
    };
  } finally {
    await a.client.close();
    await b.client.close();
  }
});

test("the Mcp-Session-Id alone carries a client's session to the other replica", async (t) => {
  if (!first) {
    t.skip('the alternating calls did not finish');
    return;
  }
  const todo = join(root, 'new', 'todo.md');
  // The script's last change: its rewind to turn 1, which removed
  // new/todo.md (made and edited after the mark).
  assert.equal(fs.existsSync(todo), false);
  // B's own Mcp-Session-Id names another session, which changed nothing.
  const elsewhere = await post(
    urls[1],
    { ...AUTH, 'mcp-session-id': first.otherId, 'mcp-protocol-version': first.protocolVersion },
    { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'undo', arguments: { file_path: 'new/todo.md' } } },
  );
  assert.equal(elsewhere.message?.result?.structuredContent?.error, 'nothing_to_undo', elsewhere.body);
  assert.equal(fs.existsSync(todo), false);

  const seen = [];
  const c = await connect(urls[1], { sessionId: first.sessionId, protocolVersion: first.protocolVersion, seen });
  try {
    const undone = await c.client.callTool({ name: 'undo', arguments: { file_path: 'new/todo.md' } });
    assert.equal(undone.isError ?? false, false, JSON.stringify(undone));
    assert.equal(undone._meta?.['filetools/session'], first.handle);
    // The undo takes the rewind back: the file as the script left it.
    assert.equal(fs.readFileSync(todo, 'utf8'), '# Todo\n- test\n');
    const methods = seen.map(({ body }) => (typeof body === 'string' ? JSON.parse(body).method : undefined));
    assert.deepEqual(methods, ['tools/call'], 'no new handshake');
    assert.equal(seen[0].headers.get('mcp-session-id'), first.sessionId);
  } finally {
    await c.client.close();
  }

  // The same by bare HTTP: a read on replica 2 with only A's id.
  const read = await post(
    urls[1],
    { ...AUTH, 'mcp-session-id': first.sessionId, 'mcp-protocol-version': first.protocolVersion },
    { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'read', arguments: { file_path: 'new/todo.md' } } },
  );
  assert.equal(read.status, 200, read.body);
  assert.equal(read.message?.id, 7, read.body);
  assert.equal(read.message.result.isError ?? false, false, read.body);
  assert.equal(read.message.result._meta['filetools/session'], first.handle, read.body);
  assert.match(read.message.result.content[0].text, /- test/, read.body);
});

test('a request without the token is refused with 401 and a JSON-RPC error', async () => {
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'no-token', version: '1.0.0' } },
  };
  for (const headers of [{}, { Authorization: 'Bearer wrong' }]) {
    const refused = await post(urls[0], headers, message);
    assert.equal(refused.status, 401, refused.body);
    assert.equal(refused.message?.jsonrpc, '2.0', refused.body);
    assert.equal(typeof refused.message?.error?.message, 'string', refused.body);
  }
});
