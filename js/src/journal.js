// The intent records of changes of several files (`begin-change`,
// `end-change` and `claim-unfinished` of host-fs), kept in memory: a record
// outlives a call that trapped — the next call finds the change and puts
// its files back, or keeps it when it landed whole — but not the process.
import { FsError } from './fserror.js';

/** Records for one file system; `readOnly` refuses to begin a change. */
export function memoryJournal({ readOnly = false } = {}) {
  /** { intent: Uint8Array, held: boolean }, oldest first. */
  const records = [];
  /** The record the current call holds. */
  let current;
  return {
    beginChange: (intent) => {
      if (readOnly) {
        throw new FsError('read-only');
      }
      // A record the call claimed and left unsettled goes to a later call.
      if (current !== undefined) {
        current.held = false;
      }
      current = { intent: new Uint8Array(intent), held: true };
      records.push(current);
    },
    endChange: () => {
      const at = records.indexOf(current);
      if (at !== -1) {
        records.splice(at, 1);
      }
      current = undefined;
    },
    claimUnfinished: () => {
      const found = readOnly || current !== undefined ? undefined : records.find((r) => !r.held);
      if (found === undefined) {
        return undefined;
      }
      found.held = true;
      current = found;
      return found.intent;
    },
    /** The call is over: what it still holds may be claimed by the next. */
    callEnded: () => {
      for (const record of records) {
        record.held = false;
      }
      current = undefined;
    },
  };
}
