// The package for Workers (workerd) and bundlers that import `.wasm` files
// as compiled modules: the component's wasm comes in precompiled with the
// Worker, since a Worker may not compile wasm from bytes at run time, and
// nothing is fetched or read. `memoryFs` works anywhere; `memoryFs({},
// { store })` keeps the files in any store with a Map's methods, such as a
// Durable Object's synchronous key-value storage (see examples/worker.js).
import core from '../generated/filetools.core.wasm';
import core2 from '../generated/filetools.core2.wasm';
import core3 from '../generated/filetools.core3.wasm';
import { createToolsWith, loadToolsWith } from './core.js';

export { memoryFs } from './memoryfs.js';

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
