// The package for Deno: the component's wasm files come in as source-phase
// module imports, which Deno loads with the module graph — no read
// permission for the package is needed. The grammars' component is
// instantiated only when a call first parses code. `memoryFs` needs no
// permission at all; `nodeFs(root)` needs --allow-read and --allow-write
// scoped to the root, nothing more. To keep the records of changes under
// way on disk, where the next process of any host puts back a change a
// kill cut off, allow the state directory too: --allow-read and
// --allow-write for it, --allow-env=FILETOOLS_STATE_DIR (naming it) and
// --allow-sys=uid (to check it is private); without them the records stay
// in memory and `nodeFs(root).stateRefusal` says why.
import source core from '../generated/filetools.core.wasm';
import source core2 from '../generated/filetools.core2.wasm';
import source core3 from '../generated/filetools.core3.wasm';
import source code from '../generated/code/filetools-code.core.wasm';
import source code2 from '../generated/code/filetools-code.core2.wasm';
import source code3 from '../generated/code/filetools-code.core3.wasm';
import { entriesWithModules } from './core.js';

export { memoryFs } from './memoryfs.js';
export { nodeFs } from './nodefs.js';

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
