// The package in a Worker on workerd, the Workers runtime (from npm, via
// `cargo xtask setup`, or FILETOOLS_WORKERD): examples/worker.js imports
// the package by name, which resolves its `workerd` export as a bundler
// would; the package's modules are laid out as npm installs them and listed
// in the Worker's config. The test starts workerd on a loopback port and
// drives the Worker over HTTP: reads, an edit and an outline over memoryFs,
// and files in a Durable Object's SQLite-backed storage that outlast a
// restart. It reports the bundle size, the cold start, the time of a call
// and the peak memory against the 128 MB a Worker may use. A second test
// speaks MCP to the Worker with the TypeScript SDK: a Durable Object per
// workspace, whose files and sessions outlast a restart of workerd. The
// Worker's bindings, Durable Object class and compatibility date come from
// examples/wrangler.jsonc, the configuration the template deploys with.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { freePort, js, workspace, workspaceBinary } from './cases.mjs';

/** Memory a Worker may use. */
const WORKER_MEMORY_BYTES = 128 * 1024 * 1024;
/** Memory the calls may add once the Worker has answered its first one:
 * two sessions, an outline of a 208 KiB file, a few dozen reads. */
const CALLS_MEMORY_BYTES = 48 * 1024 * 1024;
/** How long workerd may take to answer its first call. */
const START_TIMEOUT_MS = 20_000;
/** The Worker's bearer token (its FILETOOLS_TOKEN binding). */
const TOKEN = randomUUID();
const AUTHORIZATION = { Authorization: `Bearer ${TOKEN}` };

/** JSON with comments, as wrangler reads its config; a `//` inside a string stays text. */
function readJsonc(path) {
  const text = fs.readFileSync(path, 'utf8');
  return JSON.parse(text.replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_, string) => string ?? ''));
}

/** The template's Cloudflare configuration: what the Worker is deployed and tested with. */
const wrangler = readJsonc(join(js, 'examples', 'wrangler.jsonc'));
/** Its Durable Object bindings, `{ name, class_name }` each. */
const objectBindings = wrangler.durable_objects?.bindings ?? [];
/** The classes whose objects have SQLite storage. */
const sqliteClasses = (wrangler.migrations ?? []).flatMap((migration) => migration.new_sqlite_classes ?? []);
/** The secrets the Worker needs: the test gives each the token. */
const secrets = wrangler.secrets?.required ?? [];

function workerd() {
  const binary =
    process.env.FILETOOLS_WORKERD ??
    join(workspace, 'target', 'workerd', 'node_modules', '@cloudflare', 'workerd-linux-64', 'bin', 'workerd');
  assert.ok(fs.existsSync(binary), `${binary} is missing: run \`cargo xtask setup\` (or set FILETOOLS_WORKERD)`);
  return binary;
}

/** The package's files a Worker loads: its `workerd` export and everything it imports. */
function packageModules() {
  const manifest = JSON.parse(fs.readFileSync(join(js, 'package.json'), 'utf8'));
  const entry = manifest.exports['.'].workerd.replace(/^\.\//, '');
  const seen = new Set();
  const pending = [entry];
  while (pending.length) {
    const file = pending.pop();
    if (seen.has(file)) {
      continue;
    }
    seen.add(file);
    if (!file.endsWith('.js')) {
      continue;
    }
    const text = fs.readFileSync(join(js, file), 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import)\s+'(\.{1,2}\/[^']+)'/g)) {
      pending.push(posix.normalize(posix.join(posix.dirname(file), specifier)));
    }
  }
  return { entry, files: [...seen].sort() };
}

/** A Worker that answers every call with an empty result: workerd's own memory, for comparison. */
function baselineProject() {
  const dir = join(tmpdir(), 'filetools-workerd-baseline');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    join(dir, 'main.js'),
    'export default { fetch: () => Response.json({ content: [{ type: "text", text: "" }] }) };\n',
  );
  fs.writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "main.js", esModule = embed "main.js") ],
  compatibilityDate = "${wrangler.compatibility_date}",
);
`,
  );
  return dir;
}

/** A Worker project in `name`: the example, the package as npm installs it, and workerd's config. */
function project(name) {
  const dir = join(tmpdir(), name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(join(dir, 'storage'), { recursive: true });
  fs.copyFileSync(join(js, 'examples', wrangler.main), join(dir, 'main.js'));
  const { entry, files } = packageModules();
  let bytes = fs.statSync(join(dir, 'main.js')).size;
  const modules = [['main.js', 'esModule', 'main.js']];
  for (const file of files) {
    const path = `node_modules/agent-filetools/${file}`;
    fs.mkdirSync(join(dir, dirname(path)), { recursive: true });
    fs.copyFileSync(join(js, file), join(dir, path));
    bytes += fs.statSync(join(dir, path)).size;
    modules.push([path, file.endsWith('.wasm') ? 'wasm' : 'esModule', path]);
  }
  // What a bundler's resolution of `agent-filetools` gives: the workerd export.
  fs.writeFileSync(join(dir, 'package.js'), `export * from "node_modules/agent-filetools/${entry}";\n`);
  modules.push(['agent-filetools', 'esModule', 'package.js']);
  const listed = modules.map(([name, kind, path]) => `    (name = "${name}", ${kind} = embed "${path}")`).join(',\n');
  const flags = (wrangler.compatibility_flags ?? []).map((flag) => `"${flag}"`).join(', ');
  const namespaces = sqliteClasses
    .map((className) => `(className = "${className}", uniqueKey = "${wrangler.name}-${className}", enableSql = true)`)
    .join(', ');
  const bindings = [
    ...objectBindings.map(({ name, class_name }) => `(name = "${name}", durableObjectNamespace = "${class_name}")`),
    ...secrets.map((name) => `(name = "${name}", text = "${TOKEN}")`),
  ].join(',\n    ');
  fs.writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "storage", disk = (path = "storage", writable = true)),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);

const worker :Workerd.Worker = (
  modules = [
${listed}
  ],
  compatibilityDate = "${wrangler.compatibility_date}",
  compatibilityFlags = [${flags}],
  durableObjectNamespaces = [ ${namespaces} ],
  durableObjectStorage = (localDisk = "storage"),
  bindings = [
    ${bindings},
  ],
);
`,
  );
  return {
    dir,
    bytes,
    wasmBytes: files.filter((f) => f.endsWith('.wasm')).reduce((n, f) => n + fs.statSync(join(js, f)).size, 0),
  };
}

/** Starts workerd in `dir`; resolves once a call is answered, with the time that took. */
async function start(dir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(workerd(), ['serve', 'config.capnp', '--socket-addr', `http=127.0.0.1:${port}`], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const post = async (path, body) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: AUTHORIZATION,
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 200, `${path}: ${response.status} ${await response.clone().text()}\n${stderr}`);
    return response.json();
  };
  for (;;) {
    try {
      const first = await post('/memory', { tool: 'read', args: { file_path: 'a.txt' } });
      return { child, url, post, first, coldStartMs: performance.now() - started, stderr: () => stderr };
    } catch (err) {
      if (child.exitCode !== null || performance.now() - started > START_TIMEOUT_MS) {
        child.kill();
        throw new Error(`workerd did not answer: ${err.message}\n${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** workerd's peak resident memory, from the kernel. */
function peakBytes(child) {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

const stop = (child) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill();
  });

test('examples/wrangler.jsonc declares every binding and class examples/worker.js uses, and nothing else', () => {
  const worker = fs.readFileSync(join(js, 'examples', wrangler.main), 'utf8');
  const read = new Set([...worker.matchAll(/\benv\.([A-Z_][A-Z0-9_]*)/g)].map(([, name]) => name));
  const declared = [...objectBindings.map(({ name }) => name), ...secrets, ...Object.keys(wrangler.vars ?? {})].sort();
  assert.deepEqual(declared, [...read].sort());
  for (const { class_name } of objectBindings) {
    assert.match(worker, new RegExp(`^export class ${class_name} extends DurableObject`, 'm'), class_name);
    assert.ok(sqliteClasses.includes(class_name), `${class_name} keeps its files in SQLite storage`);
  }
  assert.match(wrangler.compatibility_date, /^\d{4}-\d{2}-\d{2}$/);
});

test('a Worker on workerd reads, edits and outlines over memoryFs and over Durable Object storage', async (t) => {
  const { dir, bytes, wasmBytes } = project('filetools-workerd');
  const worker = await start(dir);
  const loaded = peakBytes(worker.child);
  try {
    assert.equal(
      worker.first.content[0].text,
      '1\talpha\n2\tbeta\n[lines 1-2 of 2; end of file]\n[version f5b0de433497dee6-11]',
    );
    const edit = await worker.post('/memory', {
      tool: 'edit',
      args: { file_path: 'a.txt', old_string: 'beta', new_string: 'BETA' },
    });
    assert.match(edit.content[0].text, /^Edited a.txt: 1 replacement/);
    const outline = await worker.post('/memory', { tool: 'read', args: { file_path: 'big.js' } });
    assert.match(outline.content[0].text, /javascript outline/);
    assert.match(outline.content[0].text, /^export function handler0 \[1:3\]$/m);

    await worker.post('/storage/seed', { files: { 'notes/a.md': '# Notes\r\nfirst\r\n' } });
    const refused = await worker.post('/storage', {
      tool: 'edit',
      args: { file_path: 'notes/a.md', old_string: 'first', new_string: 'FIRST' },
    });
    assert.equal(refused.isError, true, 'an edit before a read is refused in a Durable Object too');
    await worker.post('/storage', { tool: 'read', args: { file_path: 'notes/a.md' } });
    const stored = await worker.post('/storage', {
      tool: 'edit',
      args: { file_path: 'notes/a.md', old_string: 'first', new_string: 'FIRST' },
    });
    assert.equal(stored.isError, false, stored.content[0].text);

    const times = [];
    for (let i = 0; i < 40; i += 1) {
      const started = performance.now();
      await worker.post('/memory', { tool: 'read', args: { file_path: 'big.js', offset: 1 + i * 20, limit: 20 } });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const peak = peakBytes(worker.child);
    const bare = await start(baselineProject());
    const baseline = peakBytes(bare.child);
    await stop(bare.child);
    // The calls after the first stay bounded; what loading the component
    // costs (its compiled code, most of it) is reported against the 128 MB
    // a Worker may use.
    assert.ok(peak - loaded < CALLS_MEMORY_BYTES, `the calls added ${peak - loaded} bytes after the first`);
    const figures = {
      bundle_bytes: bytes,
      wasm_bytes: wasmBytes,
      cold_start_ms: Math.round(worker.coldStartMs),
      call_ms: { median: +times[20].toFixed(2), min: +times[0].toFixed(2), max: +times.at(-1).toFixed(2) },
      peak_rss_bytes: peak,
      baseline_rss_bytes: baseline,
      worker_added_bytes: peak - baseline,
      loaded_added_bytes: loaded - baseline,
      calls_added_bytes: peak - loaded,
      worker_limit_bytes: WORKER_MEMORY_BYTES,
    };
    t.diagnostic(`workerd figures: ${JSON.stringify(figures)}`);
    fs.writeFileSync(join(workspace, 'target', 'workerd-figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
  } finally {
    await stop(worker.child);
  }

  // The Durable Object's files outlast the process.
  const again = await start(dir);
  try {
    const read = await again.post('/storage', { tool: 'read', args: { file_path: 'notes/a.md' } });
    assert.match(
      read.content[0].text,
      /^1\t# Notes\n2\tFIRST\n\[lines 1-2 of 2; end of file\]\n\[version [0-9a-f]{16}-\d+\]$/,
    );
    assert.equal(read.structuredContent.line_ending, 'crlf', 'the CRLF file stayed CRLF');
  } finally {
    await stop(again.child);
  }
});

/** The text of a tool result. */
const text = (result) => result.content.map((block) => block.text ?? '').join('\n');

test('MCP clients reach a Durable Object per workspace whose files and sessions outlast a restart', async () => {
  const { dir } = project('filetools-workerd-mcp');
  const clients = [];
  /** An MCP client of `workspace` on `worker`, with the token. */
  const connect = async (worker, workspace) => {
    const transport = new StreamableHTTPClientTransport(new URL(`${worker.url}/mcp/${workspace}`), {
      requestInit: { headers: AUTHORIZATION },
    });
    const client = new Client({ name: 'workerd-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  };
  const call = (client, name, args) => client.callTool({ name, arguments: args });

  let handle;
  const worker = await start(dir);
  try {
    const { client, transport } = await connect(worker, 'alpha');
    assert.equal(client.getServerVersion().name, 'filetools');
    assert.match(transport.sessionId, /^[0-9a-f-]{36}$/);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['read', 'write', 'edit', 'undo', 'grep', 'find', 'replace'],
    );
    for (const tool of tools) {
      assert.equal(tool.inputSchema.properties.session.type, 'string', tool.name);
      assert.ok(tool.outputSchema, tool.name);
    }

    const written = await call(client, 'write', { file_path: 'notes/plan.md', content: 'one\ntwo\n' });
    assert.equal(written.isError, false, text(written));
    handle = written._meta['filetools/session'];
    assert.equal(handle, `mcp-${transport.sessionId}`, "without `session` the session is the connection's");
    const read = await call(client, 'read', { file_path: 'notes/plan.md' });
    assert.match(text(read), /^1\tone\n2\ttwo\n/);
    const edited = await call(client, 'edit', {
      file_path: 'notes/plan.md',
      old_string: 'two',
      new_string: 'TWO',
      session: handle,
    });
    assert.equal(edited.isError, false, text(edited));
    assert.equal(edited._meta['filetools/session'], handle);

    const unknown = await call(client, 'read', { file_path: 'notes/plan.md', session: 'no-such-session' });
    assert.equal(unknown.isError, true);
    assert.match(text(unknown), /without `session`/);
  } finally {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await stop(worker.child);
  }

  const again = await start(dir);
  try {
    for (const headers of [{}, { Authorization: 'Bearer wrong' }]) {
      const refused = await fetch(`${again.url}/mcp/alpha`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(refused.status, 401);
      assert.equal((await refused.json()).error.code, -32001);
    }
    for (const name of ['.hidden', 'a%2Fb', 'a/b', 'x'.repeat(65), '']) {
      const missing = await fetch(`${again.url}/mcp/${name}`, { method: 'POST', headers: AUTHORIZATION, body: '{}' });
      assert.equal(missing.status, 404, name);
      assert.equal((await missing.json()).jsonrpc, '2.0', name);
    }
    assert.equal((await fetch(`${again.url}/mcp/alpha`, { headers: AUTHORIZATION })).status, 405);

    const { client, transport } = await connect(again, 'alpha');
    assert.notEqual(transport.sessionId, handle);
    const survived = await call(client, 'read', { file_path: 'notes/plan.md' });
    assert.match(text(survived), /^1\tone\n2\tTWO\n/, 'the file outlasted the restart');
    const elsewhere = await call(client, 'undo', { file_path: 'notes/plan.md' });
    assert.equal(elsewhere.isError, true, 'a new session has nothing to undo');

    const undone = await call(client, 'undo', { file_path: 'notes/plan.md', session: handle });
    assert.equal(undone.isError, false, text(undone));
    assert.equal(undone._meta['filetools/session'], handle);
    const back = await call(client, 'read', { file_path: 'notes/plan.md' });
    assert.match(text(back), /^1\tone\n2\ttwo\n/, 'the undo restored the content');

    const { client: other } = await connect(again, 'beta');
    const unseen = await call(other, 'read', { file_path: 'notes/plan.md' });
    assert.equal(unseen.isError, true, 'another workspace has its own files');
    const foreign = await call(other, 'read', { file_path: 'notes/plan.md', session: handle });
    assert.equal(foreign.isError, true, 'and its own sessions');
    assert.match(text(foreign), /without `session`/);

    // Calls on one session at once, while more sessions than an object
    // keeps live come and go: each call leans on the record the last one
    // left, and none is lost.
    const lines = ['a', 'b', 'c', 'd', 'e', 'f'];
    const seeded = await call(client, 'write', {
      file_path: 'race.txt',
      content: `${lines.join('\n')}\n`,
      session: handle,
    });
    assert.equal(seeded.isError, false, text(seeded));
    const crowd = await Promise.all(Array.from({ length: 10 }, () => connect(again, 'alpha')));
    const edit = (line) =>
      call(client, 'edit', {
        file_path: 'race.txt',
        old_string: line,
        new_string: line.toUpperCase(),
        session: handle,
      });
    // Half the edits, then the crowd (which pushes this session out of the
    // live ones), then the other half, all at once.
    const [first, , second] = await Promise.all([
      Promise.all(lines.slice(0, 3).map(edit)),
      Promise.all(crowd.map(({ client: c }) => call(c, 'read', { file_path: 'race.txt' }))),
      Promise.all(lines.slice(3).map(edit)),
    ]);
    const edits = [...first, ...second];
    for (const edit of edits) {
      assert.equal(edit.isError, false, text(edit));
    }
    for (const _ of lines) {
      const undone = await call(client, 'undo', { file_path: 'race.txt', session: handle });
      assert.equal(undone.isError, false, text(undone));
    }
    const restored = await call(client, 'read', { file_path: 'race.txt', session: handle });
    assert.match(text(restored), /^1\ta\n2\tb\n3\tc\n4\td\n5\te\n6\tf\n/, 'every edit was recorded and undone');

    await transport.terminateSession();
  } finally {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await stop(again.child);
  }
});

/** The Python the setup installs the MCP SDK into (`cargo xtask setup`). */
function python() {
  const path = join(workspace, 'target', 'py', 'bin', 'python');
  assert.ok(fs.existsSync(path), `${path} is missing: run \`cargo xtask setup\` to install the Python MCP SDK`);
  return path;
}

test("the Python SDK's clients on the 2026-07-28 revision and the 2025 handshake get one process's answers", async () => {
  const { dir } = project('filetools-workerd-python');
  const worker = await start(dir);
  const root = join(tmpdir(), 'filetools-workerd-python-root');
  try {
    // The same calls as against two `filetools serve` replicas (tests/mcp),
    // both "replicas" the one Worker: each answer must equal the one
    // `filetools session` gives over the same files.
    const mcp = `${worker.url}/mcp/python`;
    const run = spawn(
      python(),
      [
        'serve_client.py',
        workspaceBinary('agent-filetools', 'filetools'),
        mcp,
        mcp,
        root,
        TOKEN,
        `${worker.url}/files/python`,
      ],
      { cwd: join(workspace, 'tests', 'mcp'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    run.stdout.on('data', (chunk) => {
      output += chunk;
    });
    run.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const code = await new Promise((resolve) => run.on('close', resolve));
    assert.equal(code, 0, `${output}\n${worker.stderr()}`);
    assert.match(output, /^ok: /m);
  } finally {
    await stop(worker.child);
    fs.rmSync(root, { recursive: true, force: true });
  }
});

/** The JSON-RPC messages of a server-sent event stream. */
function events(body) {
  return body
    .split(/\r?\n\r?\n/)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data));
}

test('a request of either revision that asks for progress is answered as events, and a stateless one is checked', async () => {
  const { dir } = project('filetools-workerd-events');
  const worker = await start(dir);
  try {
    const mcp = `${worker.url}/mcp/events`;
    const laid = await fetch(`${worker.url}/files/events`, {
      method: 'POST',
      headers: AUTHORIZATION,
      body: JSON.stringify({ files: { 'a.txt': btoa('one\ntwo\n') } }),
    });
    assert.equal(laid.status, 200, await laid.clone().text());
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const stateless = (body, headers = {}) =>
      fetch(mcp, {
        method: 'POST',
        headers: {
          ...AUTHORIZATION,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': body.method,
          ...(body.params?.name ? { 'Mcp-Name': body.params.name } : {}),
          ...headers,
        },
        body: JSON.stringify(body),
      });

    const discovered = await stateless({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
    assert.equal(discovered.status, 200);
    const { result: discovery } = await discovered.json();
    assert.ok(discovery.supportedVersions.includes('2026-07-28'), JSON.stringify(discovery));
    assert.equal(discovery.resultType, 'complete');

    // Asked for progress: events, progress first, then the answer.
    const read = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'read', arguments: { file_path: 'a.txt' }, _meta: { ...meta, progressToken: 'p1' } },
    };
    const streamedAnswer = await stateless(read);
    assert.equal(streamedAnswer.status, 200);
    assert.match(streamedAnswer.headers.get('content-type'), /^text\/event-stream/);
    const messages = events(await streamedAnswer.text());
    assert.equal(messages[0].method, 'notifications/progress');
    assert.equal(messages[0].params.progressToken, 'p1');
    const last = messages.at(-1);
    assert.equal(last.id, 2);
    assert.equal(last.result.resultType, 'complete');
    assert.match(last.result.content[0].text, /^1\tone\n2\ttwo\n/);
    const handle = last.result._meta['filetools/session'];
    assert.match(handle, /^ft_[0-9a-f]{32}$/);
    assert.ok(last.result.content.at(-1).text.includes(`"session": "${handle}"`), 'a new session names its handle');

    // Without progress: one JSON answer; the handle goes on as an
    // argument, so the read counts for the edit.
    const edit = { file_path: 'a.txt', old_string: 'two', new_string: 'TWO', session: handle };
    const edited = await stateless({ ...read, id: 3, params: { name: 'edit', arguments: edit, _meta: meta } });
    assert.match(edited.headers.get('content-type'), /^application\/json/);
    const { result: landed } = await edited.json();
    assert.equal(landed.isError, false, JSON.stringify(landed));
    assert.equal(landed._meta['filetools/session'], handle);

    // A request whose envelope does not hold is refused before it runs.
    const refusals = [
      [{ ...read, params: { ...read.params, _meta: undefined } }, {}, 400, -32602],
      [read, { 'Mcp-Name': 'write' }, 400, -32020],
      [read, { 'Mcp-Method': 'tools/list' }, 400, -32020],
      [{ jsonrpc: '2.0', id: 4, method: 'nothing/here', params: { _meta: meta } }, {}, 404, -32601],
    ];
    for (const [body, headers, status, code] of refusals) {
      const refused = await stateless(body, headers);
      assert.equal(refused.status, status, JSON.stringify(body));
      assert.equal((await refused.json()).error.code, code, JSON.stringify(body));
    }
    const future = await stateless(
      {
        jsonrpc: '2.0',
        id: 5,
        method: 'server/discover',
        params: { _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      },
      { 'MCP-Protocol-Version': '2099-01-01' },
    );
    const { error } = await future.json();
    assert.equal(error.code, -32022);
    assert.ok(error.data.supported.includes('2026-07-28'));

    // The TypeScript SDK on the 2025 handshake: a progress callback gets
    // the call's progress, from an answer given as events.
    const transport = new StreamableHTTPClientTransport(new URL(mcp), { requestInit: { headers: AUTHORIZATION } });
    const client = new Client({ name: 'workerd-events', version: '1.0.0' });
    await client.connect(transport);
    try {
      const progress = [];
      const answered = await client.callTool({ name: 'read', arguments: { file_path: 'a.txt' } }, undefined, {
        onprogress: (note) => progress.push(note),
      });
      assert.match(text(answered), /^1\tone\n/);
      assert.ok(progress.length >= 1, 'progress reached the client');
      assert.match(progress[0].message, /^read: /);
    } finally {
      await client.close();
    }
  } finally {
    await stop(worker.child);
  }
});
