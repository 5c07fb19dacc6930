// The package for Workers (workerd) and bundlers that import `.wasm` files
// as compiled modules: the component's wasm comes in precompiled with the
// Worker, since a Worker may not compile wasm from bytes at run time, and
// nothing is fetched or read. The grammars' modules come the same way but
// are instantiated only when a call first parses code, so an isolate that
// only reads text never holds their tables in memory. `memoryFs` works
// anywhere; `memoryFs({},
// { store })` keeps the files in any store with a Map's methods, such as a
// Durable Object's synchronous key-value storage (see examples/worker.js).
import core from '../generated/filetools.core.wasm';
import core2 from '../generated/filetools.core2.wasm';
import core3 from '../generated/filetools.core3.wasm';
import code from '../generated/code/filetools-code.core.wasm';
import code2 from '../generated/code/filetools-code.core2.wasm';
import code3 from '../generated/code/filetools-code.core3.wasm';
import { entriesWithModules } from './core.js';

export { memoryFs } from './memoryfs.js';

/** The tools over `fs` (see the Node entry point), and `loadTools` to open many sessions. */
export const { createTools, loadTools } = entriesWithModules(
  {
    'filetools.core.wasm': core,
    'filetools.core2.wasm': core2,
    'filetools.core3.wasm': core3,
  },
  {
    'filetools-code.core.wasm': code,
    'filetools-code.core2.wasm': code2,
    'filetools-code.core3.wasm': code3,
  },
);
