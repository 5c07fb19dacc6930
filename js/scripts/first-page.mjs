// The npm package's side of one row of the benchmark's performance table,
// in a fresh process: `node first-page.mjs ROOT FILE` creates the tools over
// nodeFs(ROOT), reads the first 50 lines of FILE and prints the read's time
// and the process's peak memory as JSON; `--idle` prints the peak of a Node
// process that loads nothing, the baseline the row subtracts.
import { readFileSync } from 'node:fs';

import { createTools, nodeFs } from '../src/node.js';

/** The process's peak resident memory in KiB (VmHWM: unlike getrusage's
 * maxRSS, it starts afresh at exec, not from the parent's peak). */
function peakKib() {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(line.split(/\s+/)[1]);
}

const [root, file] = process.argv.slice(2);
if (root === '--idle') {
  console.log(JSON.stringify({ peak_kib: peakKib() }));
} else {
  const tools = await createTools({ fs: nodeFs(root) });
  const start = performance.now();
  const result = await tools.call('read', { file_path: file, limit: 50 });
  const readMs = performance.now() - start;
  if (result.isError) {
    throw new Error(result.content[0].text);
  }
  console.log(JSON.stringify({ read_ms: readMs, peak_kib: peakKib() }));
}
