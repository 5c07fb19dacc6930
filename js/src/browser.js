// The package for browsers: `createTools({ fs })` over `memoryFs(files)`.
// Nothing here imports Node's modules.
import { compiledOnce, createToolsWith, loadToolsWith } from './core.js';

export { memoryFs } from './memoryfs.js';

/** Fetches and compiles the component's core wasm files next to the package, once. */
const loadCore = compiledOnce(async (name) => {
  const url = new URL(`../generated/${name}`, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`cannot fetch ${url}: ${response.status}`);
  }
  return WebAssembly.compile(await response.arrayBuffer());
});

/** The tools over `fs` (see the Node entry point). */
export function createTools({ fs, config } = {}) {
  return createToolsWith({ fs, config, loadCore });
}

/** The tools over `fs` with `config`, to open many sessions (see the Node entry point). */
export function loadTools({ fs, config } = {}) {
  return loadToolsWith({ fs, config, loadCore });
}
