// Types of the `agent-filetools` package. The component's own records
// (tool arguments, host-fs metadata and errors) come from the declarations
// jco generates, kept in ./generated/ and checked for freshness by the tests.
import type { DirEntry, FileStamp, Metadata, Precondition } from './generated/filetools-core-host-fs.js';
import type { FileKind } from './generated/filetools-core-types.js';

export type { DirEntry, FileStamp, Metadata, Precondition };
export type { FsError, FileKind } from './generated/filetools-core-types.js';
export type { ReadArgs, WriteArgs, EditArgs, EditOp, UndoArgs } from './generated/filetools-core-tools.js';

/** The functions a file-system back end gives the component (WIT `host-fs`). */
export interface HostFs {
  stat(path: string): Metadata;
  /**
   * Bytes from `offset`, at most `len`. They may be a view of memory the
   * back end reuses at its next read (`nodeFs`'s are): the component copies
   * them at once, and a wrapper that keeps them must copy them too.
   */
  read(path: string, offset: bigint, len: number): Uint8Array;
  /** Entries sorted by name; `mtimeNs` may be left out (0: not known). */
  listDir(path: string): Array<Omit<DirEntry, 'mtimeNs'> & { mtimeNs?: bigint }>;
  writeFile(path: string, data: Uint8Array, precondition: Precondition): Metadata;
  removeFile(path: string, precondition: Precondition): void;
  createDir(path: string): void;
  rename(source: string, destination: string, precondition: Precondition): Metadata;
  /** Keeps the intent record of a change of several files until
   * `endChange` (WIT `begin-change`); without these three, the records are
   * kept in the session's memory. */
  beginChange?(intent: Uint8Array): void;
  /** The current call's change is over: its record goes. */
  endChange?(): void;
  /** A record no live call holds, now held by the current call. */
  claimUnfinished?(): Uint8Array | undefined;
  /** The SHA-256 of `data` as lower-case hex, by a faster hash than the
   * component's own; without it, the package's (on Node, OpenSSL's). */
  sha256?(data: Uint8Array): string | undefined;
}

/** A back end: `nodeFs(root)`, `memoryFs(files)` or your own. */
export interface FileSystem {
  hostFs: HostFs;
  /** The absolute path the model knows the workspace by, when there is one. */
  root?: string;
  /** Other absolute spellings of the root (a symlink to it), accepted too. */
  rootAliases?: string[];
  /** Whether /proc and /sys may be read when the root contains them. */
  kernelFiles?: boolean;
  /** Called after every tool call: a back end may let go of what it kept
   * for the call (nodeFs closes the file it kept open between chunks). */
  callEnded?(): void;
}

/** An in-memory back end, with the changes tests and pages make to it. */
export interface MemoryFileSystem extends FileSystem {
  files(): Map<string, Uint8Array>;
  addFile(path: string, data: string | Uint8Array): void;
  addDir(path: string): void;
  remove(path: string): boolean;
  touch(path: string): void;
  replaceKeepingMtime(path: string, data: string | Uint8Array): void;
}

/** An MCP CallToolResult, as the `filetools` CLI prints it. */
export interface CallToolResult {
  content: Array<{ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string }>;
  isError: boolean;
  /** The metadata; absent where the tool set sends none (the MCP filesystem set's errors). */
  structuredContent?: Record<string, unknown>;
  /** The metadata as the component wrote it (not enumerable). */
  readonly metadataJson: string;
  /** The images' bytes and sizes (not enumerable). */
  readonly images: Array<{ mimeType: string; data: Uint8Array; width: number; height: number }>;
}

/**
 * The forms `Tools.schema` gives the definitions in: MCP `tools/list`
 * entries, Anthropic Messages API tools, Chat Completions function tools,
 * Responses API tools, Gemini function declarations; each `-strict` form
 * has `strict: true` and a schema that API's strict mode accepts.
 */
export type SchemaFormat =
  | 'mcp'
  | 'anthropic'
  | 'anthropic-strict'
  | 'openai'
  | 'openai-strict'
  | 'openai-responses'
  | 'openai-responses-strict'
  | 'gemini';

/** A tool definition for the model. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** Arguments in the model's spelling (`file_path`) or the component's (`filePath`). */
export type Args = Record<string, unknown>;

export interface Tools {
  /** Calls a tool with the model's raw arguments (an object or JSON text). */
  call(tool: string, args?: Args | string): Promise<CallToolResult>;
  /**
   * `read`: `file_path` (or `filePath`) with `offset`, `limit`,
   * `char_offset`, `pages`, `symbol` or `encoding`; `block: true` with
   * `offset` shows the innermost outline entry that holds that line.
   */
  read(args: Args): Promise<CallToolResult>;
  write(args: Args): Promise<CallToolResult>;
  /**
   * `edit`: `old_string`/`new_string` (or `oldString`/`newString`), or
   * `edits`; or `symbol` (an outline entry, as `read` names it) with
   * `new_string` and `position` (`replace`, `before` or `after`).
   */
  edit(args: Args): Promise<CallToolResult>;
  undo(args: Args): Promise<CallToolResult>;
  /**
   * `grep`: `pattern` (a regular expression), with `path`, `glob`, `type`,
   * `output_mode`, `-A`/`-B`/`-C` (or `after`/`before`/`context`), `-i`
   * (or `caseInsensitive`), `multiline`, `head_limit`, `offset`,
   * `no_ignore` and `hidden`. Lines shown in `content` mode count as read.
   */
  grep(args: Args & { pattern: string }): Promise<CallToolResult>;
  /**
   * `replace`: `pattern` and `replacement` across the files under `path`
   * (by `glob`, ignore-aware); a dry run unless `apply` with
   * `expected_count` (and `occurrences` to take only some).
   */
  replace(args: Args & { pattern: string; replacement: string }): Promise<CallToolResult>;
  /**
   * Which files the model has seen changed on disk since its view, with
   * their changed lines, numbered: to put before the model at the start of
   * a turn. The lines shown count as seen.
   */
  changes(): Promise<CallToolResult>;
  /** Marks a turn, naming files changed outside since the last mark. */
  mark(args?: { changed?: string[] }): Promise<CallToolResult>;
  /** Rewinds the files to a marked turn, or with `dryRun` says what it would do. */
  rewind(args: { mark: number; dryRun?: boolean; changed?: string[] }): Promise<CallToolResult>;
  /** `find`: files whose paths match the glob `pattern`, newest first. */
  find(args: Args & { pattern: string }): Promise<CallToolResult>;
  /**
   * Tells the session that the outputs of earlier calls left the model's
   * context (the conversation was compacted or cut): no later read answers
   * with the "unchanged" stub for content shown before.
   */
  forgetOutputs(): void;
  definitions(): ToolDefinition[];
  /**
   * The tool definitions for this session's config, in the form one API
   * expects (see `SchemaFormat`; `mcp` by default).
   * Throws on an unknown format.
   */
  schema(format?: SchemaFormat): Array<Record<string, unknown>>;
  /**
   * The session state as JSON text. Throws once a call that trapped cost
   * the session its memory, so a saved state is never replaced by a poorer one.
   */
  save(): string;
  /** Replaces the session state with one from `save`; throws on a bad one. */
  restore(state: string): void;
}

export interface CreateToolsOptions {
  fs: FileSystem;
  /** The session config (docs/guide.md, "Configuration"): an object or JSON text. */
  config?: Record<string, unknown> | string;
  /** Offer only the tools that read, and refuse every change (as a read-only back end does). */
  readOnly?: boolean;
}

export function createTools(options: CreateToolsOptions): Promise<Tools>;

/** The tools over one back end and config, compiled once; sessions are cheap. */
export interface LoadedTools {
  /** A new session with its own memory (the first is the one opened to check the config). */
  session(): Promise<Tools>;
  /** The tool definitions for this config (see `Tools.schema`). */
  schema(format?: SchemaFormat): Array<Record<string, unknown>>;
}

/** Compiles the component once (per process) and checks the config; `session()` opens sessions. */
export function loadTools(options: CreateToolsOptions): Promise<LoadedTools>;

/** What `memoryFs` keeps for a path: a file with its bytes, a directory, or another kind. */
export type MemoryFsNode = { kind: 'file'; data: Uint8Array; mtimeNs: bigint } | { kind: Exclude<FileKind, 'file'> };

/**
 * Where `memoryFs` keeps its nodes: a `Map` by default, or anything with a
 * Map's methods (a platform's synchronous key-value storage, say), whose
 * nodes then outlast the session. `delete` says whether the path was there.
 */
export interface MemoryFsStore {
  get(path: string): MemoryFsNode | undefined;
  set(path: string, node: MemoryFsNode): unknown;
  has(path: string): boolean;
  delete(path: string): boolean;
  keys(): Iterable<string>;
  entries(): Iterable<[string, MemoryFsNode]>;
}

/** The options of `memoryFs`. */
export interface MemoryFsOptions {
  /** Refuses every change (`read-only`); the files read as read-only. */
  readOnly?: boolean;
  /** Where the nodes are kept (a new `Map` by default); the clock goes on from its newest file. */
  store?: MemoryFsStore;
}

/**
 * Files in memory, behaving like the Rust core's `MemFs`: `files` maps
 * `/`-separated relative paths to text or bytes, added to `store` (parents
 * implicit).
 */
export function memoryFs(files?: Record<string, string | Uint8Array>, options?: MemoryFsOptions): MemoryFileSystem;
/** The back end `nodeFs` gives. */
export interface NodeFileSystem extends FileSystem {
  /** Why the records of changes under way are kept in memory, not in the
   * state directory; null when they are on disk. */
  stateRefusal: string | null;
}
/**
 * Node only: the files under `root`, sandboxed. `readOnly` refuses every
 * change; `kernelFiles` serves /proc and /sys when the root contains them;
 * `stateDir` is the private directory for the records of changes under way
 * and the turns in directories, shared with every host (default: the Rust
 * host's, `$FILETOOLS_STATE_DIR` or `~/.local/state/filetools`).
 */
export function nodeFs(
  root: string,
  options?: { readOnly?: boolean; kernelFiles?: boolean; stateDir?: string },
): NodeFileSystem;
