// The intent records of changes of several files (`begin-change`,
// `end-change` and `claim-unfinished` of host-fs), kept on disk where every
// host finds them: `changes/KEY/` in the state directory (statedir.js),
// KEY being the first 32 hex digits of the SHA-256 of the root's real
// path. Names and rules are the Rust host's, so a change cut off in a Node
// process is put back by the next process on that root — Node, Deno or
// the Rust CLI — and the other way round:
//
// - a record is `NANOS-PID-START-TOKEN-N.change` (owner.js), written
//   whole under `.writing`, synced, renamed, and the directory synced,
//   before the guest takes its first step;
// - it is claimed when no live call holds it: one this instance made whose
//   call let it go, or one whose process has ended, which is first renamed
//   to this instance's name (exactly one claimer gets it, and every host
//   then sees it held);
// - a `.writing` record whose process ended was never acted on, and goes.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { FsError } from './fserror.js';
import { gone, isThis, nanosNow, OWNER_PART, parseOwner, running } from './owner.js';

const RECORD_SUFFIX = '.change';
const WRITING_SUFFIX = '.writing';

/** The records this instance's calls hold, by path. */
const held = new Set();
/** Tells apart the names this instance makes. */
let counter = 0;

/** A name of this instance, made at `nanos`, ending in `suffix`. */
function named(nanos, suffix) {
  return `${nanos}-${OWNER_PART}-${counter++}${suffix}`;
}

/**
 * How the record (or record being written) `name` may be claimed:
 * 'in-place', 'adopt' (its process ended), or null while a live call may
 * hold it.
 */
function claimable(name) {
  const body = name.endsWith(RECORD_SUFFIX)
    ? name.slice(0, -RECORD_SUFFIX.length)
    : name.slice(0, -WRITING_SUFFIX.length);
  const parts = body.split('-');
  if (parts.length === 3) {
    // `NANOS-PID-N`, an earlier Rust host's name: its lock, which Node
    // cannot see, went with its process.
    return running(Number(parts[1])) ? null : 'adopt';
  }
  const owner = parseOwner(parts.slice(1, -1).join('-'));
  if (owner === null) {
    return null;
  }
  if (isThis(owner)) {
    return 'in-place';
  }
  return gone(owner) ? 'adopt' : null;
}

/** Syncs the directory `dir`, so a name made or removed there lasts. */
function syncDir(dir) {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The error of a record that could not be kept: the guest then changes nothing. */
function keptError(err) {
  return new FsError(
    'io',
    `the record that makes a change of several files all-or-none could not be kept (${err.message}); no file was changed. Change the files one at a time instead`,
  );
}

/** Records in `changes/key`; `readOnly` refuses to begin a change. */
export function fileJournal(changes, key, { readOnly = false } = {}) {
  const dir = join(changes, key);
  /** The path of the record the current call holds. */
  let current;
  const letGo = () => {
    if (current !== undefined) {
      held.delete(current);
      current = undefined;
    }
  };
  /** Writes `intent` under a fresh `.writing` name; returns its path. */
  const write = (intent, nanos) => {
    // The directory goes with its last record: one that another process
    // removed between its making and the record's is made again.
    for (let attempt = 0; ; attempt += 1) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const writing = join(dir, named(nanos, WRITING_SUFFIX));
      let fd;
      try {
        fd = fs.openSync(writing, 'wx', 0o600);
      } catch (err) {
        if (err.code === 'ENOENT' && attempt === 0) continue;
        throw err;
      }
      try {
        fs.writeSync(fd, intent);
        fs.fsyncSync(fd);
      } catch (err) {
        fs.rmSync(writing, { force: true });
        throw err;
      } finally {
        fs.closeSync(fd);
      }
      return writing;
    }
  };
  return {
    beginChange: (intent) => {
      if (readOnly) {
        throw new FsError('read-only');
      }
      // A record the call claimed and left unsettled goes to a later call.
      letGo();
      // A record's first part: the time, 20 digits.
      const nanos = nanosNow().toString().padStart(20, '0');
      let writing;
      try {
        writing = write(intent, nanos);
        const record = join(dir, named(nanos, RECORD_SUFFIX));
        fs.renameSync(writing, record);
        writing = undefined;
        syncDir(dir);
        current = record;
        held.add(record);
      } catch (err) {
        if (writing !== undefined) {
          fs.rmSync(writing, { force: true });
        }
        throw keptError(err);
      }
    },
    endChange: () => {
      if (current === undefined) {
        return;
      }
      try {
        fs.unlinkSync(current);
      } catch (err) {
        throw new FsError('io', err.message);
      } finally {
        letGo();
      }
      // The root's directory goes with its last record.
      try {
        fs.rmdirSync(dir);
      } catch {
        // Another record is left, or another process made one.
      }
    },
    claimUnfinished: () => {
      if (readOnly || current !== undefined) {
        return undefined;
      }
      let names;
      try {
        names = fs.readdirSync(dir);
      } catch (err) {
        if (err.code === 'ENOENT') return undefined;
        throw new FsError('io', err.message);
      }
      // A record a kill cut off while it was written was never acted on.
      for (const name of names.filter((n) => n.endsWith(WRITING_SUFFIX))) {
        if (claimable(name) === 'adopt') {
          fs.rmSync(join(dir, name), { force: true });
        }
      }
      // Oldest first: names start with the time they were made.
      for (const name of names.filter((n) => n.endsWith(RECORD_SUFFIX)).sort()) {
        let path = join(dir, name);
        const claim = claimable(name);
        if (claim === null || held.has(path)) continue;
        if (claim === 'adopt') {
          const adopted = join(dir, named(name.slice(0, name.indexOf('-')), RECORD_SUFFIX));
          try {
            fs.renameSync(path, adopted);
          } catch {
            // Another process claimed it first.
            continue;
          }
          path = adopted;
        }
        let record;
        try {
          record = fs.readFileSync(path);
        } catch {
          continue;
        }
        current = path;
        held.add(path);
        return new Uint8Array(record.buffer, record.byteOffset, record.length);
      }
      return undefined;
    },
    /** The call is over: what it still holds may be claimed by the next. */
    callEnded: letGo,
  };
}
