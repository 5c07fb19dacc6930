// A Worker that serves the tools, as a Worker importing the package would
// (`import ... from 'agent-filetools'` resolves its `workerd` export): a
// template for Cloudflare, with one Durable Object per workspace. Every
// request needs `Authorization: Bearer <FILETOOLS_TOKEN>` (a secret or text
// binding).
//
// - /mcp/<workspace>: MCP over Streamable HTTP. The
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
// - /files/<workspace>: POST `{ "files": { path: base64 } }` to make them
//   the workspace's files, and nothing else (to provision a workspace).
//
// Clients on the 2025 revisions get an `Mcp-Session-Id` at their handshake;
// clients on the 2026-07-28 revision send each request on its own, and a
// call without `session` starts a session whose handle its answer gives.
// A request that asks for progress (a `progressToken`) and takes
// server-sent events is answered as events: progress as the call starts
// and every half second, then the answer.
//
// wrangler.jsonc beside it holds the bindings it reads, to deploy it with.
// test/workerd.test.mjs runs it on workerd with those bindings and drives it
// over HTTP and with the MCP TypeScript SDK.
import { DurableObject } from 'cloudflare:workers';
import { loadTools, memoryFs } from 'agent-filetools';

/** The package's version, for MCP's serverInfo. */
const VERSION = '0.1.0';
/** MCP versions spoken after an `initialize` handshake; a client asking for another gets the latest. */
const PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'];
const LATEST_PROTOCOL_VERSION = '2025-11-25';
/**
 * MCP versions spoken without a handshake: each request stands alone,
 * naming its version in a header and in `params._meta`, and a session is
 * named by the `session` argument.
 */
const STATELESS_VERSIONS = ['2026-07-28'];
/** Where a stateless request's `params._meta` names its version and the client's capabilities. */
const VERSION_META = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';
/** How often a call whose client asked for progress reports it (as `filetools mcp --progress-ms`). */
const PROGRESS_EVERY_MS = 500;
/** JSON-RPC errors, and the HTTP status a stateless answer gives each (200 for the rest). */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const HEADER_MISMATCH = -32020;
const UNSUPPORTED_VERSION = -32022;
const ERROR_STATUS = new Map([
  [PARSE_ERROR, 400],
  [INVALID_REQUEST, 400],
  [INVALID_PARAMS, 400],
  [HEADER_MISMATCH, 400],
  [UNSUPPORTED_VERSION, 400],
  [METHOD_NOT_FOUND, 404],
]);
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

  /** The workspace's files become `files` (path → base64 content), and nothing else. */
  lay(files) {
    this.sql.exec('DELETE FROM files');
    for (const [path, data] of Object.entries(files)) {
      this.fs.addFile(
        path,
        Uint8Array.from(atob(data), (c) => c.charCodeAt(0)),
      );
    }
    return [...this.fs.files().keys()];
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

/** A new session handle, as `filetools serve` mints them: `ft_` and 128 random bits in hex. */
function mintHandle() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `ft_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** What a stateless result carries besides its own fields. */
const STATELESS_RESULT = { resultType: 'complete' };
/** And a result a client may cache: never, and never for another user. */
const UNCACHED = { ...STATELESS_RESULT, ttlMs: 0, cacheScope: 'private' };

/**
 * The answer to one JSON-RPC request: `{ result }` or `{ error }`, and the
 * session id minted when it is `initialize`. `via`: the client's
 * `Mcp-Session-Id` (`sessionId`), or `stateless` for a request of the
 * 2026-07-28 revision.
 */
async function answer(message, via, files) {
  const params = message.params ?? {};
  const { sessionId, stateless } = via;
  switch (stateless ? `stateless ${message.method}` : message.method) {
    case 'stateless server/discover':
      return {
        result: {
          ...UNCACHED,
          supportedVersions: [...PROTOCOL_VERSIONS, ...STATELESS_VERSIONS],
          capabilities: { tools: {} },
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'filetools', version: VERSION } },
        },
      };
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
    case 'stateless ping':
      return { result: { ...STATELESS_RESULT } };
    case 'tools/list':
      return { result: { tools: await listTools(files) } };
    case 'stateless tools/list':
      return { result: { ...UNCACHED, tools: await listTools(files) } };
    case 'tools/call':
    case 'stateless tools/call': {
      if (typeof params.name !== 'string') {
        return { error: { code: -32602, message: 'tools/call needs a tool name' } };
      }
      const given = params.arguments ?? {};
      if (typeof given !== 'object' || Array.isArray(given)) {
        return { error: { code: -32602, message: 'tools/call arguments must be an object' } };
      }
      const { session, ...args } = given;
      const named = session !== undefined;
      // A handshake's session, as `filetools serve` names it; or a new one.
      const bound = sessionId === undefined ? undefined : `mcp-${sessionId}`;
      const minted = !named && bound === undefined;
      const handle = named ? session : (bound ?? mintHandle());
      // A session argument that is not a handle is one no workspace has.
      const result =
        (!named || (typeof handle === 'string' && HANDLE.test(handle))) &&
        (await files.callTool(handle, named, params.name, args));
      const extra = stateless ? STATELESS_RESULT : {};
      if (!result) {
        return {
          result: {
            ...extra,
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
      if (minted) {
        result.content.push({
          type: 'text',
          text: `[session ${handle}: pass "session": "${handle}" in later calls so they keep what this one read]`,
        });
      }
      return { result: { ...extra, ...result, _meta: { 'filetools/session': handle } } };
    }
    default:
      return { error: { code: -32601, message: `Method not found: ${message.method}` } };
  }
}

/** The text of a header value `Mcp-Name` carries: as it is, or in its base64 form for any other text. */
function headerText(value) {
  const wrapped = /^=\?base64\?(.*)\?=$/.exec(value ?? '');
  if (!wrapped) {
    return value;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(wrapped[1]), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * Why a stateless request is refused before it runs, as a JSON-RPC error;
 * undefined when its envelope holds: `params._meta` names its version and
 * the client's capabilities, the headers agree with the body, and the
 * version is one spoken here.
 */
function envelopeRefusal(message, headers) {
  const meta = message.params?._meta;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
    return {
      code: INVALID_PARAMS,
      message: `params._meta must be an object naming ${VERSION_META} and ${CAPABILITIES_META}`,
    };
  }
  const missing = [VERSION_META, CAPABILITIES_META].filter((key) => !(key in meta));
  if (missing.length > 0) {
    return { code: INVALID_PARAMS, message: `params._meta lacks ${missing.join(', ')}` };
  }
  const version = meta[VERSION_META];
  if (headers.get('MCP-Protocol-Version') !== version) {
    return {
      code: HEADER_MISMATCH,
      message: "the MCP-Protocol-Version header differs from the request's protocol version",
    };
  }
  if (headers.get('Mcp-Method') !== message.method) {
    return { code: HEADER_MISMATCH, message: "the Mcp-Method header differs from the request's method" };
  }
  const name = message.method === 'tools/call' ? message.params.name : undefined;
  if (name !== undefined && headerText(headers.get('Mcp-Name')) !== name) {
    return { code: HEADER_MISMATCH, message: 'the Mcp-Name header differs from the tool the request calls' };
  }
  if (!STATELESS_VERSIONS.includes(version)) {
    return {
      code: UNSUPPORTED_VERSION,
      message: `protocol version ${version} is not spoken here`,
      data: { supported: [...PROTOCOL_VERSIONS, ...STATELESS_VERSIONS], requested: version },
    };
  }
  return undefined;
}

/** One server-sent event carrying the JSON-RPC message `message`. */
function event(message) {
  return new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

/**
 * The answer to `message` as server-sent events, for a client that asked
 * for progress and takes them: a progress notification as the call starts
 * and every PROGRESS_EVERY_MS while it runs, then the response.
 */
function streamed(message, token, answering) {
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();
  const started = Date.now();
  let progress = 0;
  const note = (text) => {
    writer
      .write(
        event({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress, message: text },
        }),
      )
      .catch(() => {});
    progress += 1;
  };
  const tool = message.params?.name ?? message.method;
  note(`${tool}: started`);
  const ticks = setInterval(
    () => note(`${tool}: ${((Date.now() - started) / 1000).toFixed(1)} s so far`),
    PROGRESS_EVERY_MS,
  );
  answering
    .then((response) => writer.write(event(response)))
    .finally(() => {
      clearInterval(ticks);
      writer.close().catch(() => {});
    });
  return new Response(readable, {
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform' },
  });
}

/** Whether `request` takes server-sent events. */
function takesEvents(request) {
  return (request.headers.get('Accept') ?? '').includes('text/event-stream');
}

/**
 * The JSON-RPC response to `message`, the session id `initialize` minted,
 * and the HTTP status a stateless answer gives.
 */
async function respond(message, via, files) {
  let answered;
  try {
    answered = await answer(message, via, files);
  } catch (err) {
    // The object failed (or was reset): the client gets an error it can
    // match to its request, and may try again.
    answered = { error: { code: -32603, message: `Internal error: ${err?.message ?? err}` } };
  }
  const { result, error, minted } = answered;
  const response = error ? { jsonrpc: '2.0', id: message.id, error } : { jsonrpc: '2.0', id: message.id, result };
  return { response, minted, status: error ? (ERROR_STATUS.get(error.code) ?? 200) : 200 };
}

/**
 * A request of the 2026-07-28 revision: one JSON-RPC request per POST,
 * no handshake and no `Mcp-Session-Id`; its answer in JSON, or as events
 * when it asks for progress.
 */
async function serveStateless(request, files) {
  if (request.method !== 'POST') {
    return new Response(null, { status: 405, headers: { Allow: 'POST' } });
  }
  let message;
  try {
    message = await request.json();
  } catch {
    return rpcError(null, PARSE_ERROR, 'Parse error', 400);
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message) || message.jsonrpc !== '2.0') {
    return rpcError(null, INVALID_REQUEST, 'the body must be one JSON-RPC request or notification', 400);
  }
  if (!('id' in message)) {
    // No notification from the client is acted on in this revision.
    return new Response(null, { status: 202 });
  }
  if (typeof message.method !== 'string') {
    return rpcError(message.id ?? null, INVALID_REQUEST, 'the request names no method', 400);
  }
  const refused = envelopeRefusal(message, request.headers);
  if (refused) {
    return Response.json(
      { jsonrpc: '2.0', id: message.id, error: refused },
      { status: ERROR_STATUS.get(refused.code) },
    );
  }
  const token = message.params?._meta?.progressToken;
  const answering = respond(message, { stateless: true }, files);
  if (token !== undefined && takesEvents(request)) {
    return streamed(
      message,
      token,
      answering.then(({ response }) => response),
    );
  }
  const { response, status } = await answering;
  return Response.json(response, { status });
}

/**
 * MCP's Streamable HTTP transport: the 2025 revisions after a handshake,
 * the 2026-07-28 revision without one. Answers in JSON, or as events to a
 * single request that asks for progress.
 */
async function serveMcp(request, files) {
  const version = request.headers.get('MCP-Protocol-Version');
  if (version !== null && !PROTOCOL_VERSIONS.includes(version) && version !== '2024-11-05') {
    return serveStateless(request, files);
  }
  if (request.method === 'DELETE') {
    // Sessions stay in storage for a later connection to name.
    return new Response(null, { status: 200 });
  }
  if (request.method !== 'POST') {
    return new Response(null, { status: 405, headers: { Allow: 'POST, DELETE' } });
  }
  const sessionId = request.headers.get('Mcp-Session-Id') ?? undefined;
  if (sessionId !== undefined && !HANDLE.test(sessionId)) {
    return rpcError(null, INVALID_REQUEST, 'Bad Request: malformed Mcp-Session-Id', 400);
  }
  let body;
  try {
    body = await request.json();
  } catch {
    return rpcError(null, PARSE_ERROR, 'Parse error', 400);
  }
  const batch = Array.isArray(body);
  const messages = batch ? body : [body];
  if (messages.length === 0 || messages.some((m) => m === null || typeof m !== 'object' || m.jsonrpc !== '2.0')) {
    return rpcError(null, INVALID_REQUEST, 'Invalid Request', 400);
  }
  // Notifications and responses to the server need no answer.
  const requests = messages.filter(
    (message) => typeof message.method === 'string' && message.id !== undefined && message.id !== null,
  );
  if (requests.length === 0) {
    return new Response(null, { status: 202 });
  }
  const token = requests[0].params?._meta?.progressToken;
  if (!batch && token !== undefined && takesEvents(request)) {
    return streamed(
      requests[0],
      token,
      respond(requests[0], { sessionId }, files).then(({ response }) => response),
    );
  }
  const headers = {};
  const responses = [];
  for (const message of requests) {
    const { response, minted } = await respond(message, { sessionId }, files);
    if (minted && !batch) {
      headers['Mcp-Session-Id'] = minted;
    }
    responses.push(response);
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
    if (pathname.startsWith('/files/')) {
      const workspace = pathname.slice('/files/'.length);
      const body = await request.json();
      if (!WORKSPACE.test(workspace) || body === null || typeof body.files !== 'object') {
        return new Response('POST { "files": { path: base64 } } to /files/<workspace>\n', { status: 400 });
      }
      const laid = await env.FILES.get(env.FILES.idFromName(workspace)).lay(body.files);
      return Response.json({ files: laid });
    }
    if (pathname.startsWith('/storage')) {
      return env.FILES.get(env.FILES.idFromName('workspace')).fetch(request);
    }
    const body = await request.json();
    return Response.json(await (await memory()).call(body.tool, body.args));
  },
};
