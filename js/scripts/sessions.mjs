// The npm package's side of the benchmark's session rows: `node
// --expose-gc sessions.mjs N` opens N sessions (each reads a file) after a
// first one, in one process, and prints as JSON what each extra session
// costs in memory (resident set, after a collection) and time, and the
// process's resident memory with all of them open.
import { loadTools, memoryFs } from '../src/node.js';

const sessions = Number(process.argv[2] ?? 1000);
const MIB = 1024 * 1024;

const tools = await loadTools({ fs: memoryFs({ 'a.txt': 'one\ntwo\nthree\n' }) });
const first = await tools.session();
await first.read({ file_path: 'a.txt' });
globalThis.gc?.();
const before = process.memoryUsage().rss;
const started = performance.now();
const open = [];
for (let i = 0; i < sessions; i += 1) {
  const session = await tools.session();
  const read = await session.read({ file_path: 'a.txt' });
  if (read.isError) {
    throw new Error(read.content[0].text);
  }
  open.push(session);
}
const ms = performance.now() - started;
globalThis.gc?.();
const after = process.memoryUsage().rss;
console.log(
  JSON.stringify({
    sessions: open.length,
    per_session_mib: (after - before) / sessions / MIB,
    per_session_ms: ms / sessions,
    rss_mib: after / MIB,
  }),
);
