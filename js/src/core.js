// The part of the package both entry points share: instantiates the
// transpiled component over a file-system back end and wraps its session in
// the tools an agent calls. Results have the shape of an MCP CallToolResult,
// the same as the `filetools` CLI prints.
import { encodeBase64 } from './base64.js';
import { sharedInstance } from './instance.js';

/**
 * `loadCore(name)` with each result kept: every core wasm file of the
 * component is compiled once, however many sessions instantiate it.
 */
export function compiledOnce(loadCore) {
  const modules = new Map();
  return (name) => {
    if (!modules.has(name)) {
      const compiling = Promise.resolve(loadCore(name));
      // A failure is not kept: the next session tries again.
      compiling.catch(() => modules.delete(name));
      modules.set(name, compiling);
    }
    return modules.get(name);
  };
}

/**
 * The tools over `fs` with `config`, compiled once: `session()` opens a new
 * session, a resource of the one instance every session of these tools
 * shares, as the Rust host's `Tools::session` opens one without compiling
 * again. The first session is opened here, so a bad config or a component
 * that cannot start fails at once.
 */
export async function loadToolsWith({ fs, config = {}, readOnly, loadCore, codeModule, codeAhead, sha256 }) {
  if (!fs) {
    throw new TypeError('createTools needs { fs }: nodeFs(root) or memoryFs(files)');
  }
  const shared = sharedInstance({
    fs,
    getCoreModule: compiledOnce(loadCore),
    getCodeModule: codeModule,
    codeAhead,
    sha256,
  });
  const configJson = sessionConfig(fs, config, readOnly);
  const session = () => openSession(shared, configJson);
  const first = await session();
  let firstTaken = false;
  return {
    /** A new session; the first call gives the one opened to check the config. */
    session: async () => {
      if (!firstTaken) {
        firstTaken = true;
        return first;
      }
      return session();
    },
    /** The tool definitions for this config, in `format` (as a session's `schema`). */
    schema: (format) => first.schema(format),
    /**
     * Whether a call of any session parsed code (an outline, a symbol, a
     * syntax check), so that the grammars' component was instantiated; a
     * read of a text file never instantiates it.
     */
    grammarsLoaded: () => shared.grammarsLoaded,
  };
}

/**
 * `createTools` and `loadTools` over core modules compiled ahead, by file
 * name: what the entries for Workers and Deno, which import the wasm as
 * modules, export.
 */
export function entriesWithModules(modules, codeModules) {
  const named = (compiled) => (name) => {
    const module = compiled.get(name);
    if (!module) {
      throw new Error(`filetools: a component asked for an unknown core module ${name}`);
    }
    return module;
  };
  const loadCore = named(new Map(Object.entries(modules)));
  const codeModule = named(new Map(Object.entries(codeModules)));
  return {
    createTools: ({ fs, config } = {}) => createToolsWith({ fs, config, loadCore, codeModule }),
    loadTools: ({ fs, config } = {}) => loadToolsWith({ fs, config, loadCore, codeModule }),
  };
}

/** Instantiates the component over `fs` and opens a session. */
export async function createToolsWith({ fs, config = {}, readOnly, loadCore, codeModule, codeAhead, sha256 }) {
  return (await loadToolsWith({ fs, config, readOnly, loadCore, codeModule, codeAhead, sha256 })).session();
}

/**
 * The session config as JSON text: `config` with what `fs` says of itself.
 * A read-only back end (or `readOnly`) is told to the core, which then
 * lists only the tools that can succeed and refuses every change first.
 */
function sessionConfig(fs, config, readOnly) {
  const settings = { ...(typeof config === 'string' ? JSON.parse(config || '{}') : config) };
  if (fs.root !== undefined && settings.root === undefined) {
    settings.root = fs.root;
    if (fs.rootAliases?.length && settings.root_aliases === undefined) {
      settings.root_aliases = fs.rootAliases;
    }
  }
  if ((readOnly || fs.readOnly) && settings.read_only === undefined) {
    settings.read_only = true;
  }
  if (fs.kernelFiles && settings.kernel_files === undefined) {
    settings.kernel_files = true;
  }
  return JSON.stringify(settings);
}

async function openSession(shared, configJson) {
  // The session resource, in the instance of `generation`.
  let resource;
  let generation;
  const attach = () => {
    resource = shared.exports.tools.Session.open(configJson);
    generation = shared.generation;
  };
  try {
    await shared.ready();
    attach();
  } catch (err) {
    throw new Error(`filetools could not start: ${err?.payload ?? err?.message ?? err}`);
  }

  // The session's memory as of its last call that returned: after every
  // call the core (calls, repairs), the ledger records that changed, and
  // the history's changed entries and versions when it changed. A trap (a
  // guest bug, running out of memory or stack) never reaches the caller as
  // an exception: the instance is replaced, and this session, like every
  // other of the instance, is resumed in the new one from this memory, as
  // in the Rust host.
  const emptyMemory = (lost) => ({
    core: undefined,
    records: new Map(),
    entries: new Map(),
    seq: 0n,
    versions: new Map(),
    held: { ledger: 0n, history: 0n },
    lost,
  });
  let memory = emptyMemory(false);
  // Outputs forgotten while the session waited to come back.
  let forgetPending = false;
  // Opens the session again in the live instance, with its memory.
  const revive = () => {
    attach();
    if (memory.core !== undefined) {
      try {
        memory.held = resource.resume({
          core: memory.core,
          records: [...memory.records],
          entries: [...memory.entries],
          seq: memory.seq,
          versions: [...memory.versions].map(([sha256, data]) => ({ sha256, data })),
        });
      } catch {
        memory = emptyMemory(true);
        attach();
      }
    }
    if (forgetPending) {
      forgetPending = false;
      resource.forgetOutputs();
      keep();
    }
  };
  // The resource, brought back first when its instance was replaced; for
  // the synchronous methods, which cannot wait for a replacement.
  const current = () => {
    if (shared.replacing) {
      throw new Error('filetools is starting a new instance after a call stopped; await the next call first');
    }
    if (generation !== shared.generation) {
      revive();
    }
    return resource;
  };
  const keep = () => {
    try {
      take(memory, resource.checkpoint(memory.held));
    } catch {
      // The instance stopped: the next call of any session waits for the new one.
      shared.replace(generation).catch(() => {});
    }
  };
  const guarded = async (tool, argumentsJson, run) => {
    let result;
    try {
      // A trap of another session's call may have started a replacement
      // while this call waited its turn.
      do {
        await shared.ready();
      } while (shared.replacing);
      current();
      try {
        result = run(resource);
      } finally {
        shared.callEnded();
      }
    } catch (err) {
      const cause = trapCause(err);
      try {
        await shared.replace(generation);
        current();
        return protocol(shared.exports.tools.trapped(tool, argumentsJson(), cause, !memory.lost));
      } catch (again) {
        return {
          content: [
            {
              type: 'text',
              text: `Error: the ${tool} call stopped (${messageOf(err)}), and filetools could not restart (${messageOf(again)}). The next call tries to restart it; if that fails too, start a new session.`,
            },
          ],
          isError: true,
          structuredContent: { error: 'guest_trap' },
        };
      }
    }
    keep();
    return protocol(result);
  };
  const naming = (args) => () => JSON.stringify({ file_path: args.filePath ?? args.file_path ?? null });
  const callTool = (tool, args) => {
    const json = typeof args === 'string' ? args : JSON.stringify(args);
    return guarded(
      String(tool),
      () => json,
      (session) => session.call(String(tool), json),
    );
  };

  return {
    /** Calls `tool` with the model's raw arguments (an object or JSON text). */
    call: (tool, args = {}) => callTool(tool, args),
    read: (args) =>
      // The contract's typed read has no block: the model's form has.
      args.block
        ? callTool('read', modelForm(readArgs(args), { block: true }))
        : guarded('read', naming(args), (session) => session.read(readArgs(args))),
    write: (args) =>
      guarded('write', naming(args), (session) =>
        session.write({
          filePath: args.filePath ?? args.file_path,
          content: args.content,
          encoding: args.encoding ?? undefined,
          expect: args.expect ?? undefined,
        }),
      ),
    edit: (args) =>
      args.symbol === undefined || args.symbol === null
        ? guarded('edit', naming(args), (session) => session.edit(editArgs(args)))
        : callTool(
            'edit',
            // Everything given goes on, so that what does not go with a
            // symbol (old_string, edits) is refused, not dropped.
            modelForm({
              ...args,
              filePath: args.filePath ?? args.file_path,
              newString: args.newString ?? args.new_string,
              oldString: args.oldString ?? args.old_string,
              replaceAll: args.replaceAll ?? args.replace_all,
            }),
          ),
    undo: (args) =>
      guarded('undo', naming(args), (session) =>
        session.undo({ filePath: args.filePath ?? args.file_path, expect: args.expect ?? undefined }),
      ),
    /**
     * `replace` across files: a dry run, or with `apply` and
     * `expected_count` the change of all (or the chosen `occurrences`).
     */
    replace: (args) => callTool('replace', args),
    /**
     * Which files the model has seen changed on disk since its view, with
     * their changed lines, numbered: to put before the model at the start
     * of a turn. The lines shown count as seen.
     */
    changes: () => callTool('changes', {}),
    /**
     * Marks a turn: records what each file the session knows of holds now,
     * with the files `changed` names as changed outside (a shell command's
     * edits). The answer's metadata gives the mark's number (`mark`).
     */
    mark: ({ changed = [] } = {}) => callTool('mark', { changed }),
    /**
     * Rewinds the files to a marked turn, three-way; one change that one
     * `undo` takes back. `dryRun` only says what it would do.
     */
    rewind: ({ mark, dryRun = false, dry_run, changed = [] }) =>
      callTool('rewind', { mark, dry_run: dry_run ?? dryRun, changed }),
    /** `grep` with its arguments in either spelling (`head_limit` or `headLimit`). */
    grep: (args) => callTool('grep', args),
    /** `find` with its arguments in either spelling. */
    find: (args) => callTool('find', args),
    /**
     * Tells the session that the outputs of earlier calls left the model's
     * context (the conversation was compacted): no later read answers with
     * the "unchanged" stub for content shown before.
     */
    forgetOutputs: () => {
      if (shared.replacing) {
        forgetPending = true;
        return;
      }
      current().forgetOutputs();
      keep();
    },
    /**
     * The tool definitions for this session's config (its `tools` sets), in
     * `format`: `mcp` (the default), `anthropic`, `anthropic-strict`,
     * `openai`, `openai-strict`, `openai-responses`,
     * `openai-responses-strict` or `gemini`; the core refuses any other.
     */
    schema: (format = 'mcp') => JSON.parse(current().schema(String(format))),
    /** The tool definitions for the model: name, description, JSON Schema. */
    definitions: () =>
      JSON.parse(current().schema('mcp')).map((d) => ({
        name: d.name,
        description: d.description,
        inputSchema: d.inputSchema,
      })),
    /**
     * The session's state as JSON text, to `restore` in a later process.
     * Throws once a trap cost the session its memory, so a saved state is
     * never replaced by a poorer one.
     */
    save: () => {
      if (memory.lost) {
        throw new Error('the session lost its memory when a call stopped, so its state is not saved');
      }
      return current().save();
    },
    restore: (state) => {
      current().restore(state);
      memory = emptyMemory(false);
      keep();
    },
  };
}

/** Takes a checkpoint into `memory`: its core and what changed. */
function take(memory, checkpoint) {
  memory.core = checkpoint.core;
  memory.held = checkpoint.generations;
  const { ledger, history } = checkpoint;
  if (ledger !== undefined) {
    for (const path of ledger.removed) {
      memory.records.delete(path);
    }
    for (const [path, record] of ledger.changed) {
      memory.records.set(path, record);
    }
  }
  if (history !== undefined) {
    memory.seq = history.seq;
    for (const path of history.removed) {
      memory.entries.delete(path);
    }
    for (const [path, entries] of history.changed) {
      memory.entries.set(path, entries);
    }
    for (const sha256 of history.dropped) {
      memory.versions.delete(sha256);
    }
    for (const { sha256, data } of history.added) {
      memory.versions.set(sha256, data);
    }
  }
}

/** Why the instance stopped, as the component's `trap-cause`. */
function trapCause(err) {
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return { tag: 'stack' };
  }
  return { tag: 'fault', val: describe(err) };
}

/** An error's kind and message, for the component to name a fault. */
function describe(err) {
  return err instanceof Error ? `${err.constructor.name}: ${messageOf(err)}` : messageOf(err);
}

/** Characters of an error's message a fallback answer shows, as in the Rust host. */
const MESSAGE_CHARS = 200;

/**
 * What an error says, in its first line: a component error's own text, an
 * Error's message, or what a back end threw that is no Error (a plain
 * object, an event) as JSON, never `[object Object]`.
 */
function messageOf(err) {
  const said =
    typeof err?.payload === 'string'
      ? err.payload
      : typeof err?.message === 'string' && err.message !== ''
        ? err.message
        : typeof err === 'string'
          ? err
          : jsonOf(err);
  const first = said.split('\n', 1)[0];
  return first.length > MESSAGE_CHARS ? `${first.slice(0, MESSAGE_CHARS)}…` : first;
}

/** A thrown value as JSON where it has any, else its type. */
function jsonOf(value) {
  try {
    const json = JSON.stringify(value);
    if (json !== undefined && json !== '{}') {
      return json;
    }
  } catch {
    // A cycle or a BigInt: its type says more than nothing.
  }
  return value?.constructor?.name ?? String(value);
}

function optionalBig(value) {
  return value === undefined || value === null ? undefined : BigInt(value);
}

function readArgs(args) {
  return {
    filePath: args.filePath ?? args.file_path,
    offset: optionalBig(args.offset),
    limit: optionalBig(args.limit),
    charOffset: optionalBig(args.charOffset ?? args.char_offset),
    pages: args.pages ?? undefined,
    symbol: args.symbol ?? undefined,
    encoding: args.encoding ?? undefined,
  };
}

/**
 * Typed arguments (camelCase, numbers perhaps as bigints) as the model
 * sends them, for a call the contract's typed functions have no fields for:
 * snake_case names, numbers, nothing unset; `extra` added as it is.
 */
function modelForm(args, extra = {}) {
  const form = {};
  for (const [name, value] of Object.entries(args)) {
    if (value !== undefined && value !== null) {
      form[name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)] =
        typeof value === 'bigint' ? Number(value) : value;
    }
  }
  return { ...form, ...extra };
}

function editArgs(args) {
  const edits = args.edits ?? [
    {
      oldString: args.oldString ?? args.old_string,
      newString: args.newString ?? args.new_string,
      replaceAll: args.replaceAll ?? args.replace_all,
    },
  ];
  return {
    filePath: args.filePath ?? args.file_path,
    edits: edits.map((e) => ({
      oldString: e.oldString ?? e.old_string,
      newString: e.newString ?? e.new_string,
      replaceAll: Boolean(e.replaceAll ?? e.replace_all),
    })),
    encoding: args.encoding ?? undefined,
    expect: args.expect ?? undefined,
  };
}

/** The component's tool-result as an MCP CallToolResult. */
export function protocol(result) {
  const answer = {
    content: result.content.map((block) =>
      block.tag === 'text'
        ? { type: 'text', text: block.val }
        : { type: 'image', data: encodeBase64(block.val.data), mimeType: block.val.mimeType },
    ),
    isError: result.isError,
  };
  // None when the metadata is null, as the CLI's line has none (the MCP
  // filesystem set's errors, as its reference server sends them).
  const structured = JSON.parse(result.metadata);
  if (structured !== null) {
    answer.structuredContent = structured;
  }
  // The metadata exactly as the component wrote it, for byte-for-byte
  // comparisons (JSON.parse loses integers above 2^53); not enumerable, so
  // the result serialises as the CLI's does.
  Object.defineProperty(answer, 'metadataJson', { value: result.metadata });
  // The image bytes, for hosts that show them.
  Object.defineProperty(answer, 'images', {
    value: result.content.filter((b) => b.tag === 'image').map((b) => b.val),
  });
  return answer;
}
