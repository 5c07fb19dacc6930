// The part of the package both entry points share: instantiates the
// transpiled component over a file-system back end and wraps its session in
// the tools an agent calls. Results have the shape of an MCP CallToolResult,
// the same as the `filetools` CLI prints.
import { instantiate } from '../generated/filetools.js';
import { wasiImports } from './wasi.js';
import { encodeBase64 } from './base64.js';

/**
 * Instantiates the component once over `fs` and opens a session.
 * `loadCore(name)` compiles one of the component's core wasm files.
 */
export async function createToolsWith({ fs, config = {}, loadCore }) {
  if (!fs) {
    throw new TypeError('createTools needs { fs }: nodeFs(root) or memoryFs(files)');
  }
  const settings = { ...(typeof config === 'string' ? JSON.parse(config || '{}') : config) };
  if (fs.root !== undefined && settings.root === undefined) {
    settings.root = fs.root;
    if (fs.rootAliases?.length && settings.root_aliases === undefined) {
      settings.root_aliases = fs.rootAliases;
    }
  }
  if (fs.kernelFiles && settings.kernel_files === undefined) {
    settings.kernel_files = true;
  }
  const configJson = JSON.stringify(settings);
  const modules = new Map();
  const getCoreModule = (name) => {
    if (!modules.has(name)) {
      modules.set(name, loadCore(name));
    }
    return modules.get(name);
  };
  const imports = { 'filetools:core/host-fs': fs.hostFs, ...wasiImports() };

  let exports;
  let session;
  const open = async () => {
    exports = await instantiate(getCoreModule, imports);
    session = exports.tools.Session.open(configJson);
  };
  try {
    await open();
  } catch (err) {
    throw new Error(`filetools could not start: ${err?.payload ?? err?.message ?? err}`);
  }

  // A trap (a guest bug, running out of memory) never reaches the caller as
  // an exception: the call answers with an error and the session restarts
  // with empty state, as in the Rust host.
  const guarded = async (run) => {
    try {
      return protocol(run());
    } catch (err) {
      let restarted = 'the session was restarted with empty state';
      try {
        await open();
      } catch {
        restarted = 'the session could not be restarted';
      }
      const reason = err instanceof Error ? err.message : String(err);
      return {
        content: [{ type: 'text', text: `Error: the tool stopped because ${reason}; ${restarted}. Retry with a smaller request (a range or limit).` }],
        isError: true,
        structuredContent: { error: 'guest_trap' },
      };
    }
  };

  return {
    /** Calls `tool` with the model's raw arguments (an object or JSON text). */
    call: (tool, args = {}) =>
      guarded(() => session.call(String(tool), typeof args === 'string' ? args : JSON.stringify(args))),
    read: (args) => guarded(() => session.read(readArgs(args))),
    write: (args) => guarded(() => session.write({ filePath: args.filePath ?? args.file_path, content: args.content })),
    edit: (args) => guarded(() => session.edit(editArgs(args))),
    undo: (args) => guarded(() => session.undo({ filePath: args.filePath ?? args.file_path })),
    /** The tool definitions for the model: name, description, JSON Schema. */
    definitions: () =>
      exports.tools.definitions().map((d) => ({
        name: d.name,
        description: d.description,
        inputSchema: JSON.parse(d.inputSchema),
      })),
    /** The session's state as JSON text, to `restore` in a later process. */
    save: () => session.save(),
    restore: (state) => session.restore(state),
  };
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
  };
}

function editArgs(args) {
  const edits = args.edits ?? [
    { oldString: args.oldString ?? args.old_string, newString: args.newString ?? args.new_string, replaceAll: args.replaceAll ?? args.replace_all },
  ];
  return {
    filePath: args.filePath ?? args.file_path,
    edits: edits.map((e) => ({
      oldString: e.oldString ?? e.old_string,
      newString: e.newString ?? e.new_string,
      replaceAll: Boolean(e.replaceAll ?? e.replace_all),
    })),
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
    structuredContent: JSON.parse(result.metadata),
  };
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
