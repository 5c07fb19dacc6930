// The package for browsers: `createTools({ fs })` over `memoryFs(files)`.
// Nothing here imports Node's modules.
import { instantiate as instantiateGrammars } from '../generated/code/filetools-code-ahead.js';
import { compiledOnce, createToolsWith, loadToolsWith } from './core.js';

export { memoryFs } from './memoryfs.js';

/** Fetches and compiles a core wasm file of the package's `dir`. */
async function compile(dir, name) {
  const url = new URL(`../generated/${dir}${name}`, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`cannot fetch ${url}: ${response.status}`);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/** The component's core wasm files, once. */
const loadCore = compiledOnce((name) => compile('', name));

/** The grammars' core wasm files, compiled once. */
const loadCode = compiledOnce((name) => compile('code/', name));

/**
 * The grammars, instantiated ahead: a page may not compile or instantiate
 * a module this large synchronously, as a call that first parses code
 * would need. Node, Deno and Workers instantiate them only then.
 */
const codeAhead = async (imports) => (await instantiateGrammars(loadCode, imports)).code;

/** The tools over `fs` (see the Node entry point). */
export function createTools({ fs, config, readOnly } = {}) {
  return createToolsWith({ fs, config, readOnly, loadCore, codeAhead });
}

/** The tools over `fs` with `config`, to open many sessions (see the Node entry point). */
export function loadTools({ fs, config, readOnly } = {}) {
  return loadToolsWith({ fs, config, readOnly, loadCore, codeAhead });
}
