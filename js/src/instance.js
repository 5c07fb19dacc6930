// One instance of the component that every session of a `loadTools` lives
// in: a session is a resource of it, so an extra session costs its own
// state, not another copy of the component's memory. A trap poisons the
// instance for all of them; it is then replaced once, and each session
// comes back in the new one from its own checkpoints when it is next used.
import { instantiate } from '../generated/filetools.js';
import { instantiate as instantiateGrammars } from '../generated/code/filetools-code.js';
import { wasiImports } from './wasi.js';
import { memoryJournal } from './journal.js';

/**
 * The instance over `fs`, built by `ready()`. `generation` counts the
 * instances built; a session opened in an earlier one must come back
 * before its next call.
 */
export function sharedInstance({ fs, getCoreModule, getCodeModule, codeAhead, sha256 = noDigest }) {
  // A back end written before host-fs kept the records of changes under
  // way gets them in memory, for as long as these tools live: a record
  // outlives the instance a call trapped in.
  const journal = fs.hostFs.claimUnfinished ? undefined : memoryJournal();
  const hostFs = journal
    ? {
        ...fs.hostFs,
        beginChange: journal.beginChange,
        endChange: journal.endChange,
        claimUnfinished: journal.claimUnfinished,
      }
    : fs.hostFs;
  // The back end's own methods, looked up at each call, and the hash. A
  // back end written before listings carried times gives 0 ("not known"),
  // and one without a batch scan or walk answers none (the guest scans
  // each file, and walks each directory, itself).
  const timed = (entries) => entries.map((entry) => (entry.mtimeNs === undefined ? { ...entry, mtimeNs: 0n } : entry));
  // The host's SHA-256 goes to the component alone: JavaScript has no
  // XXH3-128, so the component leaves it out of preconditions here.
  const hostSha256 = hostFs.sha256 ?? sha256;
  const withDigest = Object.assign(Object.create(hostFs), {
    digests: (data) => {
      const digest = hostSha256(data);
      return digest == null ? undefined : { sha256: digest, xxh3: undefined };
    },
    scanStart: (ownThreads(hostFs) && hostFs.scanStart) || noScan,
    scanResults: hostFs.scanResults ?? (() => []),
    walkStart: (ownThreads(hostFs) && hostFs.walkStart) || noScan,
    walkResults: hostFs.walkResults ?? (() => []),
    // One without a batch of writes lands each write when it is made.
    batchBegin: hostFs.batchBegin ?? (() => false),
    batchEnd: hostFs.batchEnd ?? (() => undefined),
    listDir: (path) => timed(hostFs.listDir(path)),
    // A back end written before names-only listings lists in full.
    listNames: (path) => timed((hostFs.listNames ?? hostFs.listDir)(path)),
  });
  // The grammars' instance, made synchronously inside the first call that
  // parses code (from a module `getCodeModule` has compiled by then) and
  // dropped with the tools' instance when that traps.
  let grammars;
  const code = () => {
    if (grammars === undefined) {
      grammars = instantiateGrammars(getCodeModule, wasiImports()).code;
      shared.grammarsLoaded = true;
    }
    return grammars;
  };
  // `ready` assigns `grammars` ahead where `codeAhead` is given.
  let grammarsAhead;
  const imports = {
    'filetools:core/host-fs': withDigest,
    'filetools:core/code': {
      outline: (grammar, text) => code().outline(grammar, text),
      syntaxErrors: (grammar, text, max) => code().syntaxErrors(grammar, text, max),
    },
    ...wasiImports(),
  };

  let building;
  let failed;
  const shared = {
    /** The exports of the live instance; none before the first build. */
    exports: undefined,
    generation: 0,
    /** True from a trap until the instance replacing it is built. */
    replacing: false,
    /** Whether a call parsed code, so the grammars were instantiated. */
    grammarsLoaded: false,
    /** The live instance, built (again) when there is none or it trapped. */
    ready: async () => {
      if (building === undefined && (shared.exports === undefined || shared.replacing)) {
        build();
      }
      await building;
      // Where the grammars can only be instantiated ahead (browsers).
      if (codeAhead !== undefined && grammars === undefined && failed === undefined) {
        try {
          grammarsAhead ??= codeAhead(wasiImports()).finally(() => {
            grammarsAhead = undefined;
          });
          grammars = await grammarsAhead;
          shared.grammarsLoaded = true;
        } catch (err) {
          throw new Error(`filetools could not load its grammars: ${err?.message ?? err}`);
        }
      }
      if (failed !== undefined) {
        throw failed;
      }
      return shared.exports;
    },
    /**
     * Replaces the instance of `generation` after it trapped: once,
     * however many of its sessions saw the trap.
     */
    replace: (generation) => {
      if (generation === shared.generation && !shared.replacing) {
        shared.replacing = true;
        if (building === undefined) {
          build();
        }
      }
      return shared.ready();
    },
    /** After every call, whatever it did: the back ends' per-call state. */
    callEnded: () => {
      fs.callEnded?.();
      journal?.callEnded();
    },
  };
  const build = () => {
    failed = undefined;
    building = instantiate(getCoreModule, imports)
      .then(
        (exports) => {
          grammars = undefined;
          shared.exports = exports;
          shared.generation += 1;
          shared.replacing = false;
        },
        (err) => {
          failed = err;
        },
      )
      .finally(() => {
        building = undefined;
      });
  };
  return shared;
}

/**
 * Whether `hostFs` may scan and walk on threads: they read and list
 * through a back end of their own (nodeFs's), so only a back end whose
 * reads and listings are still that one's may hand work to them. A back
 * end that wraps nodeFs's functions with its own (a filter of listings,
 * say) scans and walks by itself, through them.
 */
function ownThreads(hostFs) {
  const threads = hostFs.threads;
  return (
    threads !== undefined &&
    hostFs.read === threads.read &&
    hostFs.stat === threads.stat &&
    hostFs.listDir === threads.listDir &&
    hostFs.listNames === threads.listNames
  );
}

/** No batch scan or walk: the component scans each file, and walks each directory, by itself. */
function noScan() {
  return undefined;
}

/** No faster SHA-256 than the component's own: it hashes by itself. */
function noDigest() {
  return undefined;
}
