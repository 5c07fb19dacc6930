// The Node host's answer to `host-fs.scan-start` and `host-fs.walk-start`:
// the files of a `grep` scanned on threads of its own while the
// component's walk goes on, as the Rust host scans them natively, and the
// subdirectories of a `find` walked there at once. Each thread
// (scanworker.js) holds its own instance of the component and runs the
// guest's export `scanner`, so the answers are the guest's own, file for
// file and directory for directory. A batch is split between the threads
// in order and put back together in order.
//
// The guest asks synchronously: `scanResults` waits on a shared counter the
// threads raise with each answer, and takes the answers off their ports
// without the event loop. Threads start at the first request and take a
// moment to compile the component: until every one is ready, a request is
// answered "no" and the guest scans the files itself, as it does on a host
// without threads. A thread that fails a batch makes its answer empty,
// which the guest also takes as "scan them yourself".
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';

/** Threads scanning, at most (fewer on a machine of fewer cores). */
export const MAX_SCAN_THREADS = 4;

/** How long one wait for an answer lasts before the threads' state is looked at again. */
const WAIT_STEP_MS = 1000;

/** Slices a walk's directories go in, for each thread. */
const WALK_SLICES_PER_THREAD = 4;

/** How long a batch may take before it is given up and scanning here stops for good. */
const MAX_BATCH_MS = 120_000;

/**
 * `files` as a thread is sent them: their paths in one string (a path
 * never holds a NUL) and their sizes in one array, which cost a fraction of
 * what a list of objects costs to copy between threads.
 */
function packed(files) {
  const sizes = new BigUint64Array(files.length);
  files.forEach((file, at) => {
    sizes[at] = file.size;
  });
  return { paths: files.map((file) => file.path).join('\0'), sizes };
}

/** The files `packed` packed. */
export function unpacked({ paths, sizes }) {
  return paths.split('\0').map((path, at) => ({ path, size: sizes[at] }));
}

/** How `packedOutcomes` writes each outcome's kind. */
const BINARY = 0;
const TOO_LARGE = 1;
const MATCHES = 2;

/**
 * A scan's outcomes as a thread sends them back: their kinds and counts in
 * two typed arrays, which cost a fraction of what the list of objects
 * costs to copy between threads (a 256-file batch's took 0.1 ms each way);
 * `undefined` when one is an error (or of a kind not known here), sent as
 * it is.
 */
export function packedOutcomes(outcomes) {
  const kinds = new Uint8Array(outcomes.length);
  const counts = new BigUint64Array(outcomes.length);
  for (let at = 0; at < outcomes.length; at += 1) {
    const { tag, val } = outcomes[at];
    if (tag !== 'ok') {
      return undefined;
    }
    if (val.tag === 'matches') {
      kinds[at] = MATCHES;
      counts[at] = val.val;
    } else if (val.tag === 'binary' || val.tag === 'too-large') {
      kinds[at] = val.tag === 'binary' ? BINARY : TOO_LARGE;
    } else {
      // A kind this packing does not know goes as it is.
      return undefined;
    }
  }
  return { kinds, counts };
}

/** The outcomes `packedOutcomes` packed. */
export function unpackedOutcomes({ kinds, counts }) {
  return Array.from(kinds, (kind, at) => ({
    tag: 'ok',
    val: kind === MATCHES ? { tag: 'matches', val: counts[at] } : { tag: kind === BINARY ? 'binary' : 'too-large' },
  }));
}

/** Scans over the root `root`, as `nodeFs(root, { kernelFiles })` reads it. */
export function scanPool({ root, kernelFiles }) {
  const signal = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  const landed = new Int32Array(signal);
  let threads;
  let ready = 0;
  let broken = false;
  let nextTicket = 1n;
  /** The batches asked for and not yet collected, by ticket. */
  const pending = new Map();

  const spawn = () => {
    // One more than the cores: the main thread mostly waits while they scan.
    const count = Math.min(MAX_SCAN_THREADS, availableParallelism() + 1);
    threads = [];
    for (let n = 0; n < count; n += 1) {
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(new URL('./scanworker.js', import.meta.url), {
        workerData: { root, kernelFiles, signal, port: port2 },
        transferList: [port2],
      });
      // A thread that cannot start (or dies) leaves scanning to the guest.
      worker.on('error', () => {
        broken = true;
      });
      worker.unref();
      port1.unref();
      threads.push(port1);
    }
  };

  // The request each thread was sent last: sent again only when it
  // changes (a call's batches share theirs).
  const lastSent = [];
  const sent = (part, request) => {
    const last = lastSent[part];
    if (
      last !== undefined &&
      last.config === request.config &&
      last.pattern === request.pattern &&
      last.caseInsensitive === request.caseInsensitive &&
      last.multiline === request.multiline &&
      last.firstOnly === request.firstOnly
    ) {
      return undefined;
    }
    lastSent[part] = request;
    return request;
  };

  const take = (message) => {
    if (message.ready) {
      ready += 1;
      return;
    }
    const batch = pending.get(message.ticket);
    if (batch === undefined) {
      return;
    }
    if (message.failed !== undefined) {
      batch.failed = true;
    } else {
      batch.parts[message.part] = message.results ?? unpackedOutcomes(message.outcomes);
    }
    batch.left -= 1;
  };

  const drain = () => {
    for (const port of threads) {
      for (let got = receiveMessageOnPort(port); got !== undefined; got = receiveMessageOnPort(port)) {
        take(got.message);
      }
    }
  };

  /**
   * A ticket for `items` split in order into `perThread` slices for each
   * thread, each sent to a thread in turn by `post(thread, message)`; none
   * while the threads are not ready.
   */
  const start = (items, perThread, post) => {
    if (broken || items.length === 0) {
      return undefined;
    }
    if (threads === undefined) {
      spawn();
      return undefined;
    }
    drain();
    if (ready < threads.length) {
      return undefined;
    }
    const ticket = nextTicket;
    nextTicket += 1n;
    // Slices as even as can be, none empty.
    const count = Math.min(threads.length * perThread, items.length);
    const batch = { parts: new Array(count), left: count, failed: false, started: Date.now() };
    for (let part = 0; part < count; part += 1) {
      const slice = items.slice(
        Math.floor((part * items.length) / count),
        Math.floor(((part + 1) * items.length) / count),
      );
      post(part % threads.length, { ticket, part, slice });
    }
    pending.set(ticket, batch);
    return ticket;
  };

  /** The answers to `ticket` in order, once all are in (waiting for them); empty when one failed. */
  const results = (ticket) => {
    const batch = pending.get(ticket);
    if (batch === undefined) {
      return [];
    }
    for (;;) {
      const seen = Atomics.load(landed, 0);
      drain();
      if (batch.left === 0 || broken) {
        break;
      }
      if (Date.now() - batch.started > MAX_BATCH_MS) {
        broken = true;
        break;
      }
      Atomics.wait(landed, 0, seen, WAIT_STEP_MS);
    }
    pending.delete(ticket);
    return batch.left === 0 && !batch.failed ? batch.parts.flat() : [];
  };

  return {
    /** `host-fs.scan-start`: a ticket, or none while the threads are not ready. */
    scanStart: (files, request) =>
      start(files, 1, (thread, { ticket, part, slice }) =>
        threads[thread].postMessage({ ticket, part, ...packed(slice), request: sent(thread, request) }),
      ),
    /** `host-fs.scan-results`: the answers in the files' order, once all are in. */
    scanResults: results,
    /**
     * `host-fs.walk-start`: a ticket, or none while the threads are not
     * ready. The directories go in more slices than there are threads,
     * dealt in turn, so that one large directory does not leave the other
     * threads waiting.
     */
    walkStart: (dirs, request) =>
      start(dirs, WALK_SLICES_PER_THREAD, (thread, { ticket, part, slice }) =>
        threads[thread].postMessage({ ticket, part, dirs: slice, walk: request }),
      ),
    /** `host-fs.walk-results`: each directory's record in order, once all are in. */
    walkResults: results,
    /** The call ended: answers still to come are dropped when they land. */
    callEnded: () => {
      pending.clear();
    },
  };
}
