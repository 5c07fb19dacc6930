// The package for Workers (workerd) and bundlers that import `.wasm` files
// as compiled modules: the component's wasm comes in precompiled with the
// Worker, since a Worker may not compile wasm from bytes at run time, and
// nothing is fetched or read. `memoryFs` works anywhere; `memoryFs({},
// { store })` keeps the files in any store with a Map's methods, such as a
// Durable Object's synchronous key-value storage (see examples/worker.js).
import core from '../generated/filetools.core.wasm';
import core2 from '../generated/filetools.core2.wasm';
import core3 from '../generated/filetools.core3.wasm';
import { entriesWithModules } from './core.js';

export { memoryFs } from './memoryfs.js';

/** The tools over `fs` (see the Node entry point), and `loadTools` to open many sessions. */
export const { createTools, loadTools } = entriesWithModules({
  'filetools.core.wasm': core,
  'filetools.core2.wasm': core2,
  'filetools.core3.wasm': core3,
});
