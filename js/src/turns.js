// The turn in a directory that every host honours: a change's check on the
// file it replaces, and the replacement, run while no process of any host
// (Node has no flock) changes a file in the same directory. The protocol
// is the Rust host's, Lamport's bakery kept as empty files in `turns/` of
// the state directory, each named for the workspace directory (`DEV-INO`
// in hex) and for the process that made it (owner.js):
//
// 1. `KEY.c.OWNER-N` says a number is being chosen;
// 2. the number is one more than the directory's highest ticket, or the
//    time in nanoseconds when that is higher, and the ticket
//    `KEY.t.NUMBER.OWNER-N` is made; then the first file goes;
// 3. the turn is ours once no other process is choosing and no ticket sorts
//    before ours. Files of a process that ended are removed by whoever
//    finds them (each name is made once, so no live file goes).
//
// Where turns cannot be kept (no private state directory, a file system
// that refuses), a change goes on without one: the check just before the
// rename still guards it.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { FsError } from './fserror.js';
import { gone, nanosNow, OWNER_PART, parseOwner } from './owner.js';

/** How long a change waits for the turn, as in the Rust host. */
export const MAX_TURN_WAIT_MS = 10_000;
/** Time between two looks at the other tickets, in milliseconds. */
const RETRY_MS = 0.2;
const CHOOSING = 'c.';
const TICKET = 't.';

/** Tells apart the files this instance makes. */
let counter = 0;
/** Sleeps the thread: the calls of host-fs are synchronous. */
const pause = new Int32Array(new SharedArrayBuffer(4));

/** The names in `turns` that start with `key`, without it; and the other names. */
function list(turns, key) {
  const [mine, elsewhere] = [[], []];
  for (const name of fs.readdirSync(turns)) {
    if (name.startsWith(key)) mine.push(name.slice(key.length));
    else elsewhere.push(name);
  }
  return [mine, elsewhere];
}

/** Who made a file, from what follows its key: `c.OWNER-N` or `t.NUMBER.OWNER-N`. */
function ownerAfterKey(rest) {
  let madeBy;
  if (rest.startsWith(CHOOSING)) {
    madeBy = rest.slice(CHOOSING.length);
  } else if (rest.startsWith(TICKET)) {
    const ticket = rest.slice(TICKET.length);
    if (!ticket.includes('.')) return null;
    madeBy = ticket.slice(ticket.indexOf('.') + 1);
  } else {
    return null;
  }
  return parseOwner(madeBy.slice(0, madeBy.lastIndexOf('-')));
}

/** Whether `other` holds off the ticket `mine`; a file of an ended process is removed instead. */
function blocks(turns, key, other, mine) {
  const ticket = other.startsWith(TICKET) ? other.slice(TICKET.length) : null;
  if (ticket === mine) return false;
  const owner = ownerAfterKey(other);
  if (owner === null) return false;
  if (gone(owner)) {
    fs.rmSync(join(turns, key + other), { force: true });
    return false;
  }
  return ticket === null || ticket < mine;
}

/**
 * Takes turns in the private directory `turns` (or none, when null):
 * `take(dir)` waits for the turn in `dir` and returns the function that
 * ends it, or null when turns cannot be kept.
 */
export function turnsIn(turns) {
  const take = (dir) => {
    if (turns === null) return null;
    let key;
    try {
      const stats = fs.statSync(dir, { bigint: true });
      key = `${stats.dev.toString(16)}-${stats.ino.toString(16)}.`;
    } catch {
      return null;
    }
    const me = `${OWNER_PART}-${counter++}`;
    const choosing = join(turns, `${key}${CHOOSING}${me}`);
    let mine;
    try {
      fs.writeFileSync(choosing, '', { flag: 'wx', mode: 0o600 });
    } catch {
      return null;
    }
    try {
      const [others, elsewhere] = list(turns, key);
      // Files other directories' turns left when their process ended go
      // too, so the directory holds only what live processes made.
      for (const name of elsewhere) {
        const owner = ownerAfterKey(name.slice(name.indexOf('.') + 1));
        if (owner !== null && gone(owner)) fs.rmSync(join(turns, name), { force: true });
      }
      let highest = 0n;
      for (const other of others) {
        if (!other.startsWith(TICKET)) continue;
        const number = other.slice(TICKET.length, other.indexOf('.', TICKET.length));
        if (/^\d+$/.test(number) && BigInt(number) > highest) highest = BigInt(number);
      }
      const now = nanosNow();
      const number = highest + 1n > now ? highest + 1n : now;
      mine = `${number.toString().padStart(20, '0')}.${me}`;
      fs.writeFileSync(join(turns, `${key}${TICKET}${mine}`), '', { flag: 'wx', mode: 0o600 });
    } catch {
      return null;
    } finally {
      fs.rmSync(choosing, { force: true });
    }
    const ticket = join(turns, `${key}${TICKET}${mine}`);
    const end = () => fs.rmSync(ticket, { force: true });
    const started = Date.now();
    try {
      while (list(turns, key)[0].some((other) => blocks(turns, key, other, mine))) {
        if (Date.now() - started >= MAX_TURN_WAIT_MS) {
          throw new FsError(
            'io',
            `another change in the same directory held it for over ${MAX_TURN_WAIT_MS / 1000} s; nothing was changed. Try the change again once the other is done`,
          );
        }
        Atomics.wait(pause, 0, 0, RETRY_MS);
      }
    } catch (err) {
      end();
      throw err instanceof FsError ? err : new FsError('io', err.message);
    }
    return end;
  };
  return { take };
}
