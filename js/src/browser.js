// The package for browsers: `createTools({ fs })` over `memoryFs(files)`.
// Nothing here imports Node's modules.
import { createToolsWith } from './core.js';

export { memoryFs } from './memoryfs.js';

/** Fetches and compiles the component's core wasm files next to the package. */
const loadCore = async (name) => {
  const url = new URL(`../generated/${name}`, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`cannot fetch ${url}: ${response.status}`);
  }
  return WebAssembly.compile(await response.arrayBuffer());
};

/** The tools over `fs` (see the Node entry point). */
export function createTools({ fs, config } = {}) {
  return createToolsWith({ fs, config, loadCore });
}
