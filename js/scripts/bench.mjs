// `npm run bench`: the per-call time of the same read in Node (nodeFs and
// memoryFs) and in the wasmtime host, the search over a real source tree
// beside ripgrep, and the package's size.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { createTools, memoryFs, nodeFs } from '../src/node.js';
import { filesUnder, js, workspace } from '../test/cases.mjs';

/** The read measured: a file of this many bytes, read without a range. */
const FILE_BYTES = 100 * 1024;
const CALLS = 500;
const WARM_UP = 20;
/** Rounds timed; the fastest median counts (a noisy machine only slows one down). */
const ROUNDS = 3;

/** Timed runs of each search, and of its `rg`. */
const SEARCH_RUNS = 5;
const CONFIG = { dedup: false, outline: false };

function benchFile(dir) {
  fs.mkdirSync(dir, { recursive: true });
  let text = '';
  for (let n = 1; text.length < FILE_BYTES; n += 1) {
    text += `${String(n).padStart(6)}: the quick brown fox jumps over the lazy dog, again and again\n`;
  }
  fs.writeFileSync(join(dir, 'file.txt'), text.slice(0, FILE_BYTES));
  return text.slice(0, FILE_BYTES);
}

async function median(tools) {
  const args = { file_path: 'file.txt' };
  const first = await tools.call('read', args);
  for (let i = 0; i < WARM_UP; i += 1) {
    await tools.call('read', args);
  }
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round += 1) {
    const times = [];
    for (let i = 0; i < CALLS; i += 1) {
      const start = performance.now();
      await tools.call('read', args);
      times.push((performance.now() - start) * 1000);
    }
    times.sort((a, b) => a - b);
    best = Math.min(best, times[Math.floor(times.length / 2)]);
  }
  return { us: best, text: first.content[0].text };
}

function packageSize() {
  const files = ['src', 'generated', 'types'].flatMap((dir) => filesUnder(join(js, dir)));
  const sum = (list, f) => list.reduce((total, path) => total + f(fs.readFileSync(path)), 0);
  const wasm = files.filter((f) => f.endsWith('.wasm'));
  const script = files.filter((f) => !f.endsWith('.wasm') && !f.endsWith('.d.ts'));
  const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
  console.log('package size (src/, generated/, types/)');
  console.log(
    `  JS            ${mb(sum(script, (b) => b.length))} raw, ${mb(sum(script, (b) => gzipSync(b, { level: 9 }).length))} gzip`,
  );
  console.log(
    `  wasm          ${mb(sum(wasm, (b) => b.length))} raw, ${mb(sum(wasm, (b) => gzipSync(b, { level: 9 }).length))} gzip`,
  );
  console.log(
    `  all           ${mb(sum(files, (b) => b.length))} raw, ${mb(sum(files, (b) => gzipSync(b, { level: 9 }).length))} gzip`,
  );
}

// The search rows run in a Node process of their own, holding one
// instance of the tools as an agent's process does: V8 shares the glue's
// type feedback between instances, and a process that has run others
// (the reads below make two) searches 10-15% slower.
if (process.argv[2] === '--search') {
  await search();
  process.exit(0);
}

const dir = join(workspace, 'target', 'js-bench');
const text = benchFile(dir);
const onDisk = await median(await createTools({ fs: nodeFs(dir), config: CONFIG }));
const inMemory = await median(await createTools({ fs: memoryFs({ 'file.txt': text }), config: CONFIG }));
const wasmtime = JSON.parse(
  execFileSync(
    'cargo',
    [
      'run',
      '--quiet',
      '--release',
      '--package',
      'filetools-tests',
      '--bin',
      'read_timing',
      '--',
      dir,
      'file.txt',
      String(CALLS),
    ],
    {
      cwd: workspace,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  ),
);
if (onDisk.text.length !== wasmtime.output_bytes || inMemory.text !== onDisk.text) {
  throw new Error('the hosts disagree on the benchmark read');
}
console.log(
  `read of a ${FILE_BYTES / 1024} KB file (${onDisk.text.length} bytes of output), best median of ${ROUNDS} rounds of ${CALLS}`,
);
console.log(`  wasmtime host        ${wasmtime.median_us.toFixed(0).padStart(7)} µs`);
console.log(
  `  Node, nodeFs         ${onDisk.us.toFixed(0).padStart(7)} µs  (${(onDisk.us / wasmtime.median_us).toFixed(2)}x wasmtime)`,
);
console.log(
  `  Node, memoryFs       ${inMemory.us.toFixed(0).padStart(7)} µs  (${(inMemory.us / wasmtime.median_us).toFixed(2)}x wasmtime)`,
);
console.log('');
execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--search'], { stdio: 'inherit' });
packageSize();

/**
 * The median of `runs` timings of `once`, in ms, after `warm` calls (the
 * file system's cache, and a `grep`'s scan threads, which the first
 * `grep` of a process starts and the second finds still compiling).
 */
async function timed(runs, once, warm = 1) {
  for (let n = 0; n < warm; n += 1) {
    await once();
  }
  const times = [];
  for (let n = 0; n < runs; n += 1) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0], max: times[times.length - 1] };
}

/**
 * `grep` (count, a literal) and `find` in Node over the cargo registry's
 * sources, beside `rg -c` and `rg --files` on the same tree (target: 3x).
 */
async function search() {
  const tree = join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'registry', 'src');
  if (!fs.existsSync(tree)) {
    console.log(`search: ${tree} is missing; skipped\n`);
    return;
  }
  const tools = await createTools({ fs: nodeFs(tree), config: { max_output_tokens: 100_000_000, dedup: false } });
  const rows = [
    ['grep count, a literal', { pattern: 'unsafe', output_mode: 'count' }, 'grep', ['-c', 'unsafe']],
    ['find, every file', { pattern: '*', head_limit: 100_000_000 }, 'find', ['--files']],
  ];
  console.log(`search over ${tree} in Node (nodeFs), median of ${SEARCH_RUNS} (min-max), beside ripgrep`);
  for (const [what, args, tool, rgArgs] of rows) {
    const ours = await timed(
      SEARCH_RUNS,
      async () => {
        const result = await tools.call(tool, args);
        if (result.isError || result.structuredContent.truncated) {
          throw new Error(`${tool}: ${result.content[0].text.slice(0, 300)}`);
        }
      },
      2,
    );
    const theirs = await timed(SEARCH_RUNS, () =>
      // The path given, so that rg never searches a piped stdin instead.
      execFileSync('rg', ['--no-require-git', '--crlf', ...rgArgs, '.'], { cwd: tree, maxBuffer: 1 << 30 }),
    );
    const show = (t) => `${t.median.toFixed(0)} ms (${t.min.toFixed(0)}-${t.max.toFixed(0)})`;
    console.log(
      `  ${what.padEnd(24)} ${show(ours).padStart(20)}  rg ${show(theirs)}  ${(ours.median / theirs.median).toFixed(2)}x (target 3x)`,
    );
  }
  console.log('');
}
