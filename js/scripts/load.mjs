// The clients of the load benchmark (`cargo xtask load`, which starts the
// Redis Cluster and the replicas and watches their memory): SESSIONS agent
// sessions at once, each over the MCP TypeScript SDK's Streamable HTTP
// client, each with a file of its own that it reads, edits, patches,
// undoes and searches in a mix like an agent's, for SECONDS. Each session
// talks to one replica mostly and to the next one now and then, naming its
// session by handle, so the replicas share every session through the store.
//
// Every session keeps what its file must hold after each answered change;
// a read that shows otherwise, or a file that differs at the end, counts
// as a change lost. Prints one JSON object: calls, throughput, latency
// (p50, p99, overall and per kind), errors (with the first few), changes
// lost.
//
//   node scripts/load.mjs --urls URL,URL --token T --root DIR --sessions N --seconds S
import * as fs from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The mix of calls, by weight: mostly reads, as an agent's. */
const MIX = [
  ['read', 40],
  ['edit', 25],
  ['patch', 12],
  ['undo', 10],
  ['grep', 8],
  ['find', 5],
];
/** The share of a session's calls sent to the next replica. */
const ELSEWHERE = 0.25;
/** A session's file is kept between these many lines: a change adds one, or takes one out past the most. */
const MOST_LINES = 60;
/** Changes of one file undo can take back (the history's depth). */
const UNDO_DEPTH = 32;
/** Sessions connecting at once. */
const CONNECTING = 20;
/** Errors kept to print. */
const ERROR_SAMPLES = 5;
/** The run's throughput is also given for each tenth of it. */
const WINDOWS = 10;

const { values } = parseArgs({
  options: {
    urls: { type: 'string' },
    token: { type: 'string' },
    root: { type: 'string' },
    sessions: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '180' },
  },
});
const urls = values.urls.split(',');
const sessions = Number(values.sessions);
const seconds = Number(values.seconds);
const headers = { Authorization: `Bearer ${values.token}` };

const latencies = new Map(MIX.map(([kind]) => [kind, []]));
const perWindow = new Array(WINDOWS).fill(0);
let runStarted = 0;
const errors = { count: 0, samples: [] };
let diverged = 0;

function failed(what) {
  errors.count += 1;
  if (errors.samples.length < ERROR_SAMPLES) {
    errors.samples.push(what);
  }
}

async function connect(url) {
  const client = new Client({ name: 'filetools-load', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** The lines a read's answer shows, or undefined for the note that the file is unchanged. */
function shownLines(text) {
  if (text.startsWith('[unchanged since your read')) {
    return undefined;
  }
  const lines = [];
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0 || !/^\d+$/.test(line.slice(0, tab))) {
      break;
    }
    lines.push(line.slice(tab + 1));
  }
  return lines;
}

function pick() {
  let roll = Math.random() * MIX.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [kind, weight] of MIX) {
    roll -= weight;
    if (roll < 0) {
      return kind;
    }
  }
  return MIX[0][0];
}

/** One agent session: its clients, its file and what the file must hold. */
async function open(index) {
  const path = `load/s${index}.txt`;
  const near = await connect(urls[index % urls.length]);
  const far = await connect(urls[(index + 1) % urls.length]);
  const lines = fs.readFileSync(join(values.root, path), 'utf8').split('\n').slice(0, -1);
  const first = await near.callTool({ name: 'read', arguments: { file_path: path } });
  if (first.isError) {
    throw new Error(`the first read of ${path}: ${first.content[0].text}`);
  }
  return { index, path, near, far, lines, handle: first._meta['filetools/session'], undo: [], next: 1 };
}

/** A change that adds `line` at the end of `lines`, and its undoing. */
const add = (lines, line) => ({ apply: () => lines.push(line), undo: () => lines.pop() });

/** A change that takes the second line out of `lines`, and its undoing. */
function takeOut(lines) {
  const line = lines[1];
  return { apply: () => lines.splice(1, 1), undo: () => lines.splice(1, 0, line) };
}

/** The arguments of a call of `kind`, and what its success does to the session's file and what undo does then. */
function plan(session, kind) {
  const { path, lines } = session;
  const last = lines.at(-1);
  const line = `s${session.index} ${session.next}`;
  const shrink = lines.length >= MOST_LINES;
  switch (kind) {
    case 'edit':
      return shrink
        ? {
            tool: 'edit',
            args: { file_path: path, old_string: `\n${lines[1]}\n`, new_string: '\n' },
            ...takeOut(lines),
          }
        : {
            tool: 'edit',
            args: { file_path: path, old_string: `\n${last}\n`, new_string: `\n${last}\n${line}\n` },
            ...add(lines, line),
          };
    case 'patch': {
      const body = shrink ? ` ${lines[0]}\n-${lines[1]}` : ` ${last}\n+${line}`;
      return {
        tool: 'apply_patch',
        args: { input: `*** Begin Patch\n*** Update File: ${path}\n@@\n${body}\n*** End Patch` },
        ...(shrink ? takeOut(lines) : add(lines, line)),
      };
    }
    case 'grep':
      return { tool: 'grep', args: { pattern: `^s${session.index} \\d+$`, path, output_mode: 'count' } };
    case 'find':
      return { tool: 'find', args: { pattern: `s${session.index}.txt`, path: 'load' } };
    default:
      return { tool: 'read', args: { file_path: path } };
  }
}

/** One call of `kind` in `session`, timed and checked. */
async function step(session, kind) {
  if (kind === 'undo' && session.undo.length === 0) {
    return step(session, 'read');
  }
  const client = Math.random() < ELSEWHERE ? session.far : session.near;
  const { tool, args, apply, undo } =
    kind === 'undo' ? { tool: 'undo', args: { file_path: session.path } } : plan(session, kind);
  const started = performance.now();
  let result;
  try {
    result = await client.callTool({ name: tool, arguments: { ...args, session: session.handle } });
  } catch (err) {
    const cause = err.cause ? ` (${err.cause.code ?? err.cause.message ?? err.cause})` : '';
    failed(`${tool} in session ${session.index}: ${err.message}${cause}`);
    return;
  }
  const ended = performance.now();
  latencies.get(kind).push(ended - started);
  const window = Math.min(WINDOWS - 1, Math.floor(((ended - runStarted) / (seconds * 1000)) * WINDOWS));
  perWindow[window] += 1;
  const text = result.content.map((block) => block.text ?? '').join('\n');
  if (result.isError || text.includes('was not saved')) {
    failed(`${tool} in session ${session.index}: ${text.slice(0, 300)}`);
    return;
  }
  if (kind === 'read') {
    const shown = shownLines(text);
    // The note that the file is as the session last saw it shows nothing to check.
    const same = shown === undefined || shown.join('\n') === session.lines.join('\n');
    if (!same) {
      diverged += 1;
      failed(`read in session ${session.index} showed what no answered change left:\n${text.slice(0, 300)}`);
      session.lines.splice(0, session.lines.length, ...shown);
      session.undo.length = 0;
    }
  } else if (kind === 'undo') {
    session.undo.pop()();
  } else if (apply) {
    apply();
    session.next += 1;
    session.undo.push(undo);
    if (session.undo.length > UNDO_DEPTH) {
      session.undo.shift();
    }
  }
}

function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

const all = [];
for (let at = 0; at < sessions; at += CONNECTING) {
  const batch = [];
  for (let index = at; index < Math.min(sessions, at + CONNECTING); index += 1) {
    batch.push(open(index));
  }
  all.push(...(await Promise.all(batch)));
}

const started = performance.now();
runStarted = started;
const deadline = started + seconds * 1000;
await Promise.all(
  all.map(async (session) => {
    while (performance.now() < deadline) {
      await step(session, pick());
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;

// What each file holds now against what its answered changes left.
let lost = 0;
let extra = 0;
for (const session of all) {
  const held = fs.readFileSync(join(values.root, session.path), 'utf8').split('\n').slice(0, -1);
  const heldSet = new Set(held);
  const wantedSet = new Set(session.lines);
  lost += session.lines.filter((line) => !heldSet.has(line)).length;
  extra += held.filter((line) => !wantedSet.has(line)).length;
}
await Promise.all(all.flatMap((session) => [session.near.close(), session.far.close()]));

const every = [...latencies.values()].flat().sort((a, b) => a - b);
const kinds = Object.fromEntries(
  [...latencies].map(([kind, times]) => {
    times.sort((a, b) => a - b);
    return [kind, { calls: times.length, p50_ms: percentile(times, 50), p99_ms: percentile(times, 99) }];
  }),
);
console.log(
  JSON.stringify({
    sessions,
    replicas: urls.length,
    seconds: elapsed,
    calls: every.length,
    calls_per_second: every.length / elapsed,
    calls_per_second_by_tenth: perWindow.map((calls) => calls / (seconds / WINDOWS)),
    p50_ms: percentile(every, 50),
    p99_ms: percentile(every, 99),
    kinds,
    errors: errors.count,
    error_samples: errors.samples,
    reads_diverged: diverged,
    changes_lost: lost,
    lines_unexplained: extra,
  }),
);
process.exit(0);
