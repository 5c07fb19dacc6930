// The package for Deno: the component's wasm files come in as source-phase
// module imports, which Deno loads with the module graph — no read
// permission for the package is needed. `memoryFs` needs no permission at
// all; `nodeFs(root)` needs --allow-read and --allow-write scoped to the
// root, nothing more.
import source core from '../generated/filetools.core.wasm';
import source core2 from '../generated/filetools.core2.wasm';
import source core3 from '../generated/filetools.core3.wasm';
import { createToolsWith, loadToolsWith } from './core.js';

export { memoryFs } from './memoryfs.js';
export { nodeFs } from './nodefs.js';

const modules = new Map([
  ['filetools.core.wasm', core],
  ['filetools.core2.wasm', core2],
  ['filetools.core3.wasm', core3],
]);

/** The compiled core module called `name`. */
const loadCore = (name) => {
  const module = modules.get(name);
  if (!module) {
    throw new Error(`filetools: the component asked for an unknown core module ${name}`);
  }
  return module;
};

/** The tools over `fs` (see the Node entry point). */
export function createTools({ fs, config } = {}) {
  return createToolsWith({ fs, config, loadCore });
}

/** The tools over `fs` with `config`, to open many sessions (see the Node entry point). */
export function loadTools({ fs, config } = {}) {
  return loadToolsWith({ fs, config, loadCore });
}
