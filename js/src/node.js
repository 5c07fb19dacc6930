// The package for Node: `createTools({ fs })` over `nodeFs(root)` (a sandbox
// on disk) or `memoryFs(files)`, and `loadTools({ fs })` to open many
// sessions. The component is compiled once per process.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { compiledOnce, createToolsWith, loadToolsWith } from './core.js';

export { nodeFs } from './nodefs.js';
export { memoryFs } from './memoryfs.js';

/** Compiles the component's core wasm files from the package's directory, once. */
const loadCore = compiledOnce(async (name) =>
  WebAssembly.compile(await readFile(new URL(`../generated/${name}`, import.meta.url))),
);

/**
 * The grammars' core wasm files, compiled when a call first parses code
 * (synchronously: the call is under way), once per process.
 */
const codeModules = new Map();
const codeModule = (name) => {
  if (!codeModules.has(name)) {
    const bytes = readFileSync(new URL(`../generated/code/${name}`, import.meta.url));
    codeModules.set(name, new WebAssembly.Module(bytes));
  }
  return codeModules.get(name);
};

/** Bytes under which the component hashes by itself: a call into OpenSSL
 * from here costs about what its own hash of 4 KiB does. */
const SHA256_MIN_BYTES = 4096;

/** OpenSSL's SHA-256, which uses the CPU's SHA instructions. */
const sha256 = (data) => (data.length < SHA256_MIN_BYTES ? undefined : createHash('sha256').update(data).digest('hex'));

/**
 * The tools over `fs`: `{ read, write, edit, undo, grep, find, call, definitions, save,
 * restore }`. `config` is the session config (an object or JSON text).
 */
export function createTools({ fs, config, readOnly } = {}) {
  return createToolsWith({ fs, config, readOnly, loadCore, codeModule, sha256 });
}

/**
 * The tools over `fs` with `config`, to open many sessions:
 * `(await loadTools({ fs })).session()` gives what `createTools` gives.
 */
export function loadTools({ fs, config, readOnly } = {}) {
  return loadToolsWith({ fs, config, readOnly, loadCore, codeModule, sha256 });
}
