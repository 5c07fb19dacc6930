// A Worker that serves the tools, as a Worker importing the package would
// (`import ... from 'agent-filetools'` resolves its `workerd` export): a
// template for Cloudflare, with one Durable Object per workspace. Every
// request needs `Authorization: Bearer <FILETOOLS_TOKEN>` (a secret or text
// binding).
//
// - /mcp/<workspace>: MCP over Streamable HTTP (JSON answers, no SSE). The
//   workspace's Durable Object keeps its files and the sessions' state in
//   its SQLite storage, so both outlast an eviction or a restart. A session
//   is the one of the `Mcp-Session-Id` header, or the one a `session`
//   argument names: every answer gives its handle in
//   `_meta["filetools/session"]`, for a later connection to go on with it.
// - /memory: POST `{ "tool": "read", "args": { ... } }` to a session over
//   memoryFs, kept by the isolate between requests (a sample file and a
//   large one to outline come with it).
// - /storage: the same calls to one session inside the Durable Object of
//   the workspace "workspace"; POST /storage/seed with
//   `{ "files": { path: text } }` first.
//
// wrangler.jsonc beside it holds the bindings it reads, to deploy it with.
// test/workerd.test.mjs runs it on workerd with those bindings and drives it
// over HTTP and with the MCP TypeScript SDK.
import { DurableObject } from 'cloudflare:workers';
import { loadTools, memoryFs } from 'agent-filetools';

/** The package's version, for MCP's serverInfo. */
const VERSION = '0.1.0';
/** MCP versions this server speaks; a client asking for another gets the latest. */
const PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'];
const LATEST_PROTOCOL_VERSION = '2025-11-25';
/** Workspace names: a Durable Object each. A leading dot is refused so names never look hidden. */
const WORKSPACE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/;
/** Session handles: what crypto.randomUUID() mints, or any short visible token. */
const HANDLE = /^[A-Za-z0-9._:-]{1,128}$/;
/** Sessions an object keeps instantiated; the others wait in storage. Each has its own wasm memory. */
const LIVE_SESSIONS = 8;
/** A session unused this long is deleted from storage. */
const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const SESSION_PROPERTY = {
  type: 'string',
  description: "The handle of this conversation's session, from an earlier answer.",
};

const big = Array.from(
  { length: 3000 },
  (_, i) => `export function handler${i}(request) {\n  return request.path + ${i};\n}\n`,
).join('\n');

let memorySession;

/** The isolate's session over memoryFs, opened at the first request. */
function memory() {
  memorySession ??= loadTools({ fs: memoryFs({ 'a.txt': 'alpha\nbeta\n', 'big.js': big }) }).then((tools) =>
    tools.session(),
  );
  return memorySession;
}

/**
 * A table of the object's SQLite storage as the Map memoryFs keeps its
 * nodes in. mtimes are kept as text: they are nanoseconds, past what a
 * SQL number holds exactly.
 */
function sqlStore(sql) {
  sql.exec(`CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    data BLOB,
    mtime_ns TEXT
  )`);
  const node = (row) =>
    row.kind === 'file'
      ? { kind: 'file', data: new Uint8Array(row.data), mtimeNs: BigInt(row.mtime_ns) }
      : { kind: row.kind };
  return {
    get: (path) => {
      const [row] = sql.exec('SELECT kind, data, mtime_ns FROM files WHERE path = ?', path).toArray();
      return row && node(row);
    },
    set: (path, n) => {
      const file = n.kind === 'file';
      sql.exec(
        'INSERT OR REPLACE INTO files (path, kind, data, mtime_ns) VALUES (?, ?, ?, ?)',
        path,
        n.kind,
        file ? n.data : null,
        file ? String(n.mtimeNs) : null,
      );
    },
    has: (path) => sql.exec('SELECT 1 FROM files WHERE path = ?', path).toArray().length > 0,
    delete: (path) => sql.exec('DELETE FROM files WHERE path = ? RETURNING path', path).toArray().length > 0,
    keys: () =>
      sql
        .exec('SELECT path FROM files')
        .toArray()
        .map((row) => row.path),
    entries: () =>
      sql
        .exec('SELECT path, kind, data, mtime_ns FROM files')
        .toArray()
        .map((row) => [row.path, node(row)]),
  };
}

/**
 * The records of changes of several files (host-fs `begin-change`,
 * `end-change`, `claim-unfinished`) in a table, so that a change cut by an
 * eviction is found and settled by the next call. Which records a call
 * holds is the process's own business, so it stays in memory: after a
 * restart every record is free to claim.
 */
function sqlJournal(sql) {
  sql.exec('CREATE TABLE IF NOT EXISTS changes (id INTEGER PRIMARY KEY AUTOINCREMENT, intent BLOB NOT NULL)');
  const held = new Set();
  let current;
  return {
    beginChange: (intent) => {
      // A record the call claimed and left unsettled goes to a later call.
      held.delete(current);
      current = sql.exec('INSERT INTO changes (intent) VALUES (?) RETURNING id', intent).one().id;
      held.add(current);
    },
    endChange: () => {
      if (current !== undefined) {
        sql.exec('DELETE FROM changes WHERE id = ?', current);
        held.delete(current);
      }
      current = undefined;
    },
    claimUnfinished: () => {
      if (current !== undefined) {
        return undefined;
      }
      const found = sql
        .exec('SELECT id, intent FROM changes ORDER BY id')
        .toArray()
        .find((row) => !held.has(row.id));
      if (found === undefined) {
        return undefined;
      }
      held.add(found.id);
      current = found.id;
      return new Uint8Array(found.intent);
    },
    callEnded: () => {
      held.clear();
      current = undefined;
    },
  };
}

/**
 * memoryFs over the object's SQLite storage.
 *
 * Why a replacement is a true compare-and-replace: memoryFs checks the
 * precondition (the size, mtime or SHA-256 the session last saw) and
 * writes in one synchronous stretch of code, and SQL calls in a Durable
 * Object are synchronous too. An object runs one event at a time and only
 * switches at an `await`, so nothing can change the row between the check
 * and the write. Each change also runs in one `transactionSync`: a file and
 * the parent directories it brings, or a directory moved with everything
 * under it, land together or not at all, even if the process dies midway.
 * A change of several files is kept whole by the journal above.
 */
function sqlFs(storage) {
  const files = memoryFs({}, { store: sqlStore(storage.sql) });
  const journal = sqlJournal(storage.sql);
  const atomic =
    (change) =>
    (...args) =>
      storage.transactionSync(() => change(...args));
  const { hostFs } = files;
  return {
    ...files,
    hostFs: {
      ...hostFs,
      writeFile: atomic(hostFs.writeFile),
      removeFile: atomic(hostFs.removeFile),
      createDir: atomic(hostFs.createDir),
      rename: atomic(hostFs.rename),
      beginChange: atomic(journal.beginChange),
      endChange: atomic(journal.endChange),
      claimUnfinished: journal.claimUnfinished,
    },
    callEnded: journal.callEnded,
    addFile: atomic(files.addFile),
  };
}

/** A tool result as it crosses from the object to the Worker: its enumerable fields. */
function plain(result) {
  const answer = { content: result.content, isError: result.isError };
  if (result.structuredContent !== undefined) {
    answer.structuredContent = result.structuredContent;
  }
  return answer;
}

/** A workspace: its files, and the sessions over them, in the object's storage. */
export class Files extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.fs = sqlFs(ctx.storage);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS sessions (
      handle TEXT PRIMARY KEY,
      state TEXT NOT NULL,
      saved_at INTEGER NOT NULL
    )`);
    /** handle → Promise<{ tools, saved }>, the least recently used first. */
    this.live = new Map();
    /** handle → the promise of its last call: one call at a time per session. */
    this.turns = new Map();
  }

  /** The component over this workspace, loaded once per object. */
  tools() {
    if (!this.loaded) {
      this.loaded = loadTools({ fs: this.fs });
      // A failure is not kept: the next request tries again.
      this.loaded.catch(() => {
        this.loaded = undefined;
      });
    }
    return this.loaded;
  }

  /** The tool definitions in MCP's form. */
  async definitions() {
    return (await this.tools()).schema('mcp');
  }

  /**
   * The session of `handle`: live, restored from storage, or — unless it
   * must exist — a new one. Undefined when it must exist and does not.
   */
  sessionOf(handle, mustExist) {
    let entry = this.live.get(handle);
    if (entry) {
      this.live.delete(handle);
      this.live.set(handle, entry);
      return entry;
    }
    const [row] = this.sql.exec('SELECT state FROM sessions WHERE handle = ?', handle).toArray();
    if (!row && mustExist) {
      return undefined;
    }
    entry = (async () => {
      const tools = await (await this.tools()).session();
      if (row) {
        tools.restore(row.state);
      }
      return { tools, saved: row?.state };
    })();
    entry.catch(() => {
      if (this.live.get(handle) === entry) {
        this.live.delete(handle);
      }
    });
    this.live.set(handle, entry);
    // The oldest with no call under way goes: its state is already in
    // storage, and no call of it can save after a new instance of it.
    for (const old of this.live.keys()) {
      if (this.live.size <= LIVE_SESSIONS) {
        break;
      }
      if (old !== handle && !this.turns.has(old)) {
        this.live.delete(old);
      }
    }
    if (!row) {
      // A new session now and then clears the ones long unused.
      this.sql.exec('DELETE FROM sessions WHERE saved_at < ?', Date.now() - SESSION_TTL_MS);
    }
    return entry;
  }

  /**
   * Calls `tool` in the session of `handle` and keeps the session's state
   * when the call changed it. `named`: the caller named the session, which
   * must exist then (undefined when it does not).
   */
  async callTool(handle, named, tool, args) {
    // Calls on one session take turns, across its awaits.
    const before = this.turns.get(handle) ?? Promise.resolve();
    const turn = before.catch(() => {}).then(() => this.callInTurn(handle, named, tool, args));
    this.turns.set(handle, turn);
    try {
      return await turn;
    } finally {
      if (this.turns.get(handle) === turn) {
        this.turns.delete(handle);
      }
    }
  }

  /** [`callTool`], in the session's turn. */
  async callInTurn(handle, named, tool, args) {
    const entry = this.sessionOf(handle, named);
    if (!entry) {
      return undefined;
    }
    const live = await entry;
    const result = await live.tools.call(tool, args);
    let state;
    try {
      state = live.tools.save();
    } catch {
      // A call that trapped cost the session its memory: the next call
      // restores the last state saved rather than going on without it.
      this.live.delete(handle);
    }
    if (state !== undefined && state !== live.saved) {
      try {
        this.sql.exec(
          'INSERT OR REPLACE INTO sessions (handle, state, saved_at) VALUES (?, ?, ?)',
          handle,
          state,
          Date.now(),
        );
        live.saved = state;
      } catch (err) {
        // A state past what a row may hold (2 MB on Cloudflare): the call
        // is done and its answer still goes back; the session lives on in
        // memory, and an eviction would take it back to its last save.
        console.error(`filetools: session ${handle} not saved: ${err?.message ?? err}`);
      }
    }
    return plain(result);
  }

  /** The /storage routes. */
  async fetch(request) {
    const body = await request.json();
    if (new URL(request.url).pathname.endsWith('/seed')) {
      for (const [path, text] of Object.entries(body.files)) {
        this.fs.addFile(path, text);
      }
      return Response.json({ files: [...this.fs.files().keys()] });
    }
    this.session ??= await (await this.tools()).session();
    return Response.json(await this.session.call(body.tool, body.args));
  }
}

/** A JSON-RPC error as an HTTP answer. */
function rpcError(id, code, message, status = 200, headers = {}) {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status, headers });
}

/** Whether the request carries the token, compared in constant time. */
async function authorized(request, env) {
  const expected = env.FILETOOLS_TOKEN;
  const given = /^Bearer (\S+)$/.exec(request.headers.get('Authorization') ?? '')?.[1];
  if (!expected || !given) {
    return false;
  }
  // Digests have the same length whatever the token's, as timingSafeEqual needs.
  const digest = (text) => crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  const [a, b] = await Promise.all([digest(expected), digest(given)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

/** The definitions are the same for every workspace: fetched once per isolate. */
let definitions;

function listTools(files) {
  if (!definitions) {
    definitions = files.definitions().then((tools) =>
      tools.map((tool) => ({
        ...tool,
        inputSchema: {
          ...tool.inputSchema,
          properties: { ...tool.inputSchema.properties, session: SESSION_PROPERTY },
        },
      })),
    );
    definitions.catch(() => {
      definitions = undefined;
    });
  }
  return definitions;
}

/**
 * The answer to one JSON-RPC request: `{ result }` or `{ error }`, and the
 * session id minted when it is `initialize`.
 */
async function answer(message, sessionId, files) {
  const params = message.params ?? {};
  switch (message.method) {
    case 'initialize': {
      const asked = params.protocolVersion;
      return {
        result: {
          protocolVersion: PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION,
          capabilities: { tools: {} },
          serverInfo: { name: 'filetools', version: VERSION },
        },
        minted: crypto.randomUUID(),
      };
    }
    case 'ping':
      return { result: {} };
    case 'tools/list':
      return { result: { tools: await listTools(files) } };
    case 'tools/call': {
      if (typeof params.name !== 'string') {
        return { error: { code: -32602, message: 'tools/call needs a tool name' } };
      }
      const given = params.arguments ?? {};
      if (typeof given !== 'object' || Array.isArray(given)) {
        return { error: { code: -32602, message: 'tools/call arguments must be an object' } };
      }
      const { session, ...args } = given;
      const named = session !== undefined;
      const handle = named ? session : (sessionId ?? crypto.randomUUID());
      // A session argument that is not a handle is one no workspace has.
      const result =
        (!named || (typeof handle === 'string' && HANDLE.test(handle))) &&
        (await files.callTool(handle, named, params.name, args));
      if (!result) {
        return {
          result: {
            content: [
              {
                type: 'text',
                text: 'Error: this workspace has no such session; call again without `session` to start a new one.',
              },
            ],
            isError: true,
          },
        };
      }
      result._meta = { 'filetools/session': handle };
      return { result };
    }
    default:
      return { error: { code: -32601, message: `Method not found: ${message.method}` } };
  }
}

/** MCP's Streamable HTTP transport, answering in JSON. */
async function serveMcp(request, files) {
  if (request.method === 'DELETE') {
    // Sessions stay in storage for a later connection to name.
    return new Response(null, { status: 200 });
  }
  if (request.method !== 'POST') {
    return new Response(null, { status: 405, headers: { Allow: 'POST, DELETE' } });
  }
  const sessionId = request.headers.get('Mcp-Session-Id') ?? undefined;
  if (sessionId !== undefined && !HANDLE.test(sessionId)) {
    return rpcError(null, -32600, 'Bad Request: malformed Mcp-Session-Id', 400);
  }
  let body;
  try {
    body = await request.json();
  } catch {
    return rpcError(null, -32700, 'Parse error', 400);
  }
  const batch = Array.isArray(body);
  const messages = batch ? body : [body];
  if (messages.length === 0 || messages.some((m) => m === null || typeof m !== 'object' || m.jsonrpc !== '2.0')) {
    return rpcError(null, -32600, 'Invalid Request', 400);
  }
  const headers = {};
  const responses = [];
  for (const message of messages) {
    // Notifications and responses to the server need no answer.
    if (typeof message.method !== 'string' || message.id === undefined || message.id === null) {
      continue;
    }
    let answered;
    try {
      answered = await answer(message, sessionId, files);
    } catch (err) {
      // The object failed (or was reset): the client gets an error it can
      // match to its request, and may try again.
      answered = { error: { code: -32603, message: `Internal error: ${err?.message ?? err}` } };
    }
    const { result, error, minted } = answered;
    if (minted && !batch) {
      headers['Mcp-Session-Id'] = minted;
    }
    responses.push(error ? { jsonrpc: '2.0', id: message.id, error } : { jsonrpc: '2.0', id: message.id, result });
  }
  if (responses.length === 0) {
    return new Response(null, { status: 202 });
  }
  return Response.json(batch ? responses : responses[0], { headers });
}

export default {
  async fetch(request, env) {
    if (!(await authorized(request, env))) {
      return rpcError(null, -32001, 'Unauthorized: send Authorization: Bearer <token>', 401, {
        'WWW-Authenticate': 'Bearer',
      });
    }
    const { pathname } = new URL(request.url);
    if (pathname === '/mcp' || pathname.startsWith('/mcp/')) {
      const workspace = pathname.slice('/mcp/'.length);
      if (!WORKSPACE.test(workspace)) {
        return rpcError(
          null,
          -32600,
          'Not Found: use /mcp/<workspace>, a name of letters, digits, ".", "_" and "-"',
          404,
        );
      }
      return serveMcp(request, env.FILES.get(env.FILES.idFromName(workspace)));
    }
    if (request.method !== 'POST') {
      return new Response('POST a call to /memory or /storage, or speak MCP at /mcp/<workspace>\n', { status: 405 });
    }
    if (pathname.startsWith('/storage')) {
      return env.FILES.get(env.FILES.idFromName('workspace')).fetch(request);
    }
    const body = await request.json();
    return Response.json(await (await memory()).call(body.tool, body.args));
  },
};
