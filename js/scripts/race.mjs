// `node scripts/race.mjs [TRIALS]`: nodeFs writes raced by another writer.
//
// Each trial gives a file a fresh version A, then writes B over it with
// A's stamp (what a session that read A sends) while a worker thread,
// after a delay spread over the call, replaces the file with C — by a
// rename, or in place. Every version has the same length, so only the
// content tells them apart. A write that answers success while the file
// holds B has overwritten C unseen: a silent loss. (An in-place writer
// whose open returned a file already replaced writes to the replaced
// version whatever any tool does; it sees that, and the trial counts as a
// stale open.) Node has no atomic
// exchange, so nodeFs checks the target once more just before renaming; a
// change landing in between is the residue these figures measure.
import * as fs from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import { nodeFs } from '../src/node.js';

/** Bytes of every version of the raced file. */
const VERSION_BYTES = 1024;
const CALIBRATION_CALLS = 10;

const version = (trial, tag) => {
  let text = `trial ${trial}\nvalue = ${tag}\n`;
  while (text.length < VERSION_BYTES - 1) text += 'pad ';
  return Buffer.from(`${text.slice(0, VERSION_BYTES - 1)}\n`);
};

// The other writer: waits for `go`, spins `delay` µs, writes, counts `done`.
const WORKER = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const slots = new Int32Array(workerData.shared);
for (let seen = 0; ; ) {
  Atomics.wait(slots, 0, seen);
  seen = Atomics.load(slots, 0);
  if (slots[4] === 1) break;
  const until = performance.now() + slots[2] / 1000;
  while (performance.now() < until);
  if (slots[3] === 0) {
    fs.renameSync(workerData.staged, workerData.path);
    slots[5] = 1;
  } else {
    const data = fs.readFileSync(workerData.content);
    const fd = fs.openSync(workerData.path, 'w');
    let atPath = false;
    try {
      atPath = fs.fstatSync(fd).ino === fs.lstatSync(workerData.path).ino;
    } catch {}
    fs.writeSync(fd, data);
    fs.closeSync(fd);
    slots[5] = atPath ? 1 : 0;
  }
  Atomics.add(slots, 1, 1);
  Atomics.notify(slots, 1);
}
`;

/**
 * Races `trials` nodeFs writes against `writer` ('rename' or 'in-place');
 * returns `{ tried, silentLosses, conflicts, overwrittenAfter, staleOpens,
 * anomalies }`.
 */
export async function raceNodeFs({ trials, writer, dir = join(tmpdir(), `filetools-race-${process.pid}`) }) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const path = join(dir, 'raced.txt');
  const staged = join(dir, '.other-writer');
  const content = join(dir, '..other-content');
  const host = nodeFs(dir).hostFs;
  const ours = Buffer.from('B\n'.repeat(VERSION_BYTES / 2));
  const stamp = (bytes) => {
    const seen = host.stat('raced.txt');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return { tag: 'matches', val: { size: seen.size, mtimeNs: seen.mtimeNs, sha256 } };
  };
  const times = [];
  for (let i = 0; i < CALIBRATION_CALLS; i += 1) {
    const before = version(i, 'A');
    fs.writeFileSync(path, before);
    const precondition = stamp(before);
    const start = process.hrtime.bigint();
    host.writeFile('raced.txt', ours, precondition);
    times.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  times.sort((a, b) => a - b);
  const window = Math.max(1, Math.round(times[times.length >> 1] * 1.5));
  const shared = new SharedArrayBuffer(24);
  const slots = new Int32Array(shared);
  const worker = new Worker(WORKER, { eval: true, workerData: { shared, path, staged, content } });
  const report = { tried: 0, silentLosses: 0, conflicts: 0, overwrittenAfter: 0, staleOpens: 0, anomalies: [] };
  try {
    for (let trial = 0; trial < trials; trial += 1) {
      const before = version(trial, 'A');
      fs.writeFileSync(path, before);
      const precondition = stamp(before);
      const theirs = version(trial, 'C (the other writer)');
      fs.writeFileSync(writer === 'rename' ? staged : content, theirs);
      const slice = window / trials;
      slots[2] = Math.round(trial * slice + Math.random() * slice);
      slots[3] = writer === 'rename' ? 0 : 1;
      const done = Atomics.load(slots, 1);
      Atomics.add(slots, 0, 1);
      Atomics.notify(slots, 0);
      let outcome = 'done';
      try {
        host.writeFile('raced.txt', ours, precondition);
      } catch (err) {
        outcome = err.payload?.tag ?? String(err);
      }
      while (Atomics.load(slots, 1) === done) {
        Atomics.wait(slots, 1, done, 10_000);
      }
      const end = fs.readFileSync(path);
      report.tried += 1;
      if (slots[5] === 0) report.staleOpens += 1;
      else if (outcome === 'done' && end.equals(theirs)) report.overwrittenAfter += 1;
      else if (outcome === 'done' && end.equals(ours)) report.silentLosses += 1;
      else if (outcome === 'conflict' && end.equals(theirs)) report.conflicts += 1;
      else
        report.anomalies.push(
          `${outcome}, and the file holds ${end.equals(ours) ? 'the write' : `${end.length} other bytes`}`,
        );
    }
  } finally {
    slots[4] = 1;
    Atomics.add(slots, 0, 1);
    Atomics.notify(slots, 0);
    await worker.terminate();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return report;
}

export function describe(report) {
  return `${report.tried} tried, ${report.silentLosses} silent losses, ${report.conflicts} conflicts, ${report.overwrittenAfter} overwritten after, ${report.staleOpens} stale opens, ${report.anomalies.length} anomalies`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const trials = Number(process.argv[2] ?? 5000);
  for (const writer of ['rename', 'in-place']) {
    const report = await raceNodeFs({ trials, writer });
    console.log(`racing nodeFs writes (re-check before rename), other writer ${writer}: ${describe(report)}`);
  }
}
