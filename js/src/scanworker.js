// A thread of the Node host that scans the files of a `grep`, and walks
// the directories of a `find`, for the component running on the main
// thread (see scanpool.js): its own instance of the component, over its
// own read-only nodeFs of the same root, runs the guest's export `scanner`
// on each batch it is sent, so every rule of a scan or a walk is the
// guest's. The grammars are never needed: neither parses code.
import { readFile } from 'node:fs/promises';
import { workerData } from 'node:worker_threads';
import { instantiate } from '../generated/filetools.js';
import { nodeFs } from './nodefs.js';
import { packedOutcomes, unpacked } from './scanpool.js';
import { wasiImports } from './wasi.js';

const { root, kernelFiles, signal, port } = workerData;
const landed = new Int32Array(signal);
const fs = nodeFs(root, { readOnly: true, kernelFiles });
const noCode = () => {
  throw new Error('a scan parses no code');
};
const exports = await instantiate(
  async (name) => WebAssembly.compile(await readFile(new URL(`../generated/${name}`, import.meta.url))),
  {
    'filetools:core/host-fs': {
      ...fs.hostFs,
      digests: () => undefined,
      scanStart: () => undefined,
      scanResults: () => [],
      walkStart: () => undefined,
      walkResults: () => [],
      batchBegin: () => false,
      batchEnd: () => undefined,
    },
    'filetools:core/code': { outline: noCode, syntaxErrors: noCode },
    ...wasiImports(),
  },
);

/** Posts `message` and wakes the main thread if it waits for it. */
const answer = (message) => {
  port.postMessage(message);
  Atomics.add(landed, 0, 1);
  Atomics.notify(landed, 0);
};

// The request last sent: a batch of the same request comes without it.
let request;
port.on('message', (message) => {
  const { ticket, part } = message;
  request = message.request ?? request;
  try {
    if (message.dirs !== undefined) {
      answer({ ticket, part, results: exports.scanner.walk(message.dirs, message.walk) });
      return;
    }
    const results = exports.scanner.scan(unpacked(message), request);
    const outcomes = packedOutcomes(results);
    answer(outcomes ? { ticket, part, outcomes } : { ticket, part, results });
  } catch (err) {
    answer({ ticket, part, failed: String(err?.message ?? err) });
  } finally {
    fs.callEnded();
  }
});
answer({ ready: true });
