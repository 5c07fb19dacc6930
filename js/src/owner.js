// Who made a record of a change under way, or holds a turn in a directory:
// a part of a file's name that every host writes and reads the same way,
// `PID-START-TOKEN`. START is when the process started, in clock ticks
// since boot (field 22 of /proc/PID/stat; 0 where there is no /proc), so a
// later process that got the same id is not taken for the one that ended;
// TOKEN is random for this instance of the package (one per thread), and
// tells its names from those of another thread of the same process, which
// counts as running.
import { randomInt } from 'node:crypto';
import * as fs from 'node:fs';

/** This instance's random number, as 8 hex digits. */
export const TOKEN = randomInt(0, 2 ** 32)
  .toString(16)
  .padStart(8, '0');

/** When `pid` started, as a decimal string; null when unknown. */
function startOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) may hold spaces and parentheses: the
    // fields after it start past its last `)`; the start time is the 20th.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** This process and instance. */
export const OWNER = { pid: process.pid, start: startOf(process.pid) ?? '0', token: TOKEN };

/** The name part that says this instance made a name. */
export const OWNER_PART = `${OWNER.pid}-${OWNER.start}-${OWNER.token}`;

/** The owner a name part `PID-START-TOKEN` names, or null. */
export function parseOwner(part) {
  const match = /^(\d+)-(\d+)-([0-9a-f]{8})$/.exec(part);
  return match ? { pid: Number(match[1]), start: match[2], token: match[3] } : null;
}

/** Whether this instance made the name `owner` was read from. */
export function isThis(owner) {
  return owner.pid === OWNER.pid && owner.start === OWNER.start && owner.token === OWNER.token;
}

/** Whether the process `pid` is running (or may be). */
export function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // ESRCH: no such process. Anything else — EPERM, or a runtime that
    // may not ask (Deno without --allow-run) — counts as alive, so a
    // writer's file is never taken from under it.
    return err.code !== 'ESRCH';
  }
}

/** Whether the process that made a name has ended: none with its id and
 * start time runs (another thread of this process runs). */
export function gone(owner) {
  if (owner.pid === OWNER.pid) {
    return owner.start !== OWNER.start;
  }
  if (!running(owner.pid)) {
    return true;
  }
  const now = startOf(owner.pid);
  return owner.start !== '0' && now !== null && now !== owner.start;
}

/** The wall-clock time in nanoseconds (sub-millisecond part from the
 * monotonic clock): what orders records and turns' tickets. */
export function nanosNow() {
  return BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
}
