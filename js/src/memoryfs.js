// An in-memory file system for browsers and tests, with the same behaviour
// as the Rust core's MemFs, so that every host gives the same answers:
// parents exist implicitly, each write moves a clock on by one second, a
// path under a file is "not a directory", and listings are sorted by name.
import { DESCRIBE, FsError, byCodePoint, holds } from './fserror.js';
import { memoryJournal } from './journal.js';
import { sha256Hex } from './sha256.js';

const SECOND_NS = 1_000_000_000n;
const encoder = new TextEncoder();

const bytesOf = (data) => (typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data));

/**
 * A file system held in memory. `files` maps `/`-separated relative paths to
 * text or bytes; `readOnly` refuses every change. `store` holds the nodes:
 * a `Map` by default, or anything with a Map's `get`, `set`, `has`,
 * `delete`, `keys` and `entries` — a platform's synchronous key-value
 * storage, say — whose values survive the session.
 */
export function memoryFs(files = {}, { readOnly = false, store = new Map() } = {}) {
  /** path → { kind: 'file', data, mtimeNs } | { kind: 'directory' } | { kind } */
  const nodes = store;
  // The clock goes on from the newest file a store already holds.
  let clock = 0n;
  for (const [, node] of nodes.entries()) {
    if (node.kind === 'file' && node.mtimeNs > clock) {
      clock = node.mtimeNs;
    }
  }
  const tick = () => {
    clock += SECOND_NS;
    return clock;
  };

  const addParents = (path) => {
    let end = path.indexOf('/');
    while (end !== -1) {
      const parent = path.slice(0, end);
      if (!nodes.has(parent)) {
        nodes.set(parent, { kind: 'directory' });
      }
      end = path.indexOf('/', end + 1);
    }
  };

  const addFile = (path, data) => {
    const mtimeNs = tick();
    addParents(path);
    nodes.set(path, { kind: 'file', data: bytesOf(data), mtimeNs });
  };

  const node = (path) => {
    if (path === '.') {
      return { kind: 'directory' };
    }
    const found = nodes.get(path);
    if (found) {
      return found;
    }
    let end = path.indexOf('/');
    while (end !== -1) {
      const above = nodes.get(path.slice(0, end));
      if (above && above.kind !== 'directory') {
        throw new FsError('not-a-directory');
      }
      end = path.indexOf('/', end + 1);
    }
    throw new FsError('not-found');
  };

  // Memory keeps one clock: created and accessed are the mtime, and the
  // mode is 644 for a file, 755 for a directory, less the write bits when
  // read-only (the same as the guest's in-memory file system).
  const metadataOf = (n) => {
    const mtimeNs = n.kind === 'file' ? n.mtimeNs : 0n;
    const mode = n.kind === 'directory' ? 0o755 : 0o644;
    return {
      kind: n.kind,
      size: n.kind === 'file' ? BigInt(n.data.length) : 0n,
      mtimeNs,
      readonly: readOnly,
      createdNs: mtimeNs,
      accessedNs: mtimeNs,
      mode: readOnly ? mode & ~0o222 : mode,
    };
  };

  const check = (path, precondition) => {
    if (readOnly) {
      throw new FsError('read-only');
    }
    let current = null;
    try {
      current = node(path);
    } catch (err) {
      if (err.payload?.tag !== 'not-found') {
        throw err;
      }
    }
    if (current?.kind === 'directory') {
      throw new FsError('is-a-directory');
    }
    const stamp =
      current === null
        ? null
        : current.kind === 'file'
          ? { size: BigInt(current.data.length), mtimeNs: current.mtimeNs }
          : { size: 0n, mtimeNs: 0n };
    const hash = () => (current?.kind === 'file' ? sha256Hex(current.data) : '');
    if (!holds(precondition, stamp, hash)) {
      throw new FsError('conflict');
    }
  };

  for (const [path, data] of Object.entries(files)) {
    addFile(path, data);
  }

  const journal = memoryJournal({ readOnly });
  const hostFs = {
    stat: (path) => metadataOf(node(path)),
    read: (path, offset, len) => {
      const n = nodes.get(path);
      if (n === undefined) {
        node(path);
        return new Uint8Array();
      }
      if (n.kind === 'directory') {
        throw new FsError('is-a-directory');
      }
      if (n.kind !== 'file') {
        throw new FsError('io', `refusing to read ${DESCRIBE[n.kind]}`);
      }
      const start = offset > BigInt(n.data.length) ? n.data.length : Number(offset);
      return n.data.slice(start, Math.min(n.data.length, start + len));
    },
    listDir: (path) => {
      if (node(path).kind !== 'directory') {
        throw new FsError('not-a-directory');
      }
      const prefix = path === '.' ? '' : `${path}/`;
      return [...nodes.keys()]
        .filter(
          (name) => name.startsWith(prefix) && name.length > prefix.length && !name.slice(prefix.length).includes('/'),
        )
        .sort(byCodePoint)
        .map((name) => {
          const meta = metadataOf(nodes.get(name));
          return { name: name.slice(prefix.length), kind: meta.kind, size: meta.size, mtimeNs: meta.mtimeNs };
        });
    },
    writeFile: (path, data, precondition) => {
      check(path, precondition);
      addFile(path, data);
      return metadataOf(node(path));
    },
    removeFile: (path, precondition) => {
      check(path, precondition);
      if (!nodes.delete(path)) {
        throw new FsError('not-found');
      }
    },
    createDir: (path) => {
      if (readOnly) {
        throw new FsError('read-only');
      }
      let found;
      try {
        found = node(path);
      } catch (err) {
        if (err.payload?.tag !== 'not-found') {
          throw err;
        }
        addParents(path);
        nodes.set(path, { kind: 'directory' });
        return;
      }
      if (found.kind !== 'directory') {
        throw new FsError('not-a-directory');
      }
    },
    rename: (source, destination, precondition) => {
      if (readOnly) {
        throw new FsError('read-only');
      }
      let taken = true;
      try {
        node(destination);
      } catch (err) {
        if (err.payload?.tag !== 'not-found') {
          throw err;
        }
        taken = false;
      }
      if (taken) {
        throw new FsError('conflict');
      }
      const moved = node(source);
      if (moved.kind === 'directory') {
        if (precondition.tag !== 'any') {
          throw new FsError('conflict');
        }
        if (source === '.' || destination.startsWith(`${source}/`)) {
          throw new FsError('io', 'cannot move a directory into itself');
        }
      } else {
        check(source, precondition);
      }
      addParents(destination);
      const inner = `${source}/`;
      for (const name of [...nodes.keys()].filter((name) => name.startsWith(inner))) {
        nodes.set(`${destination}/${name.slice(inner.length)}`, nodes.get(name));
        nodes.delete(name);
      }
      nodes.delete(source);
      nodes.set(destination, moved);
      return metadataOf(moved);
    },
    beginChange: journal.beginChange,
    endChange: journal.endChange,
    claimUnfinished: journal.claimUnfinished,
  };

  return {
    hostFs,
    readOnly,
    callEnded: journal.callEnded,
    /** Every file with its bytes, by path, in name order. */
    files: () =>
      new Map(
        [...nodes.entries()]
          .filter(([, n]) => n.kind === 'file')
          .sort(([a], [b]) => byCodePoint(a, b))
          .map(([path, n]) => [path, n.data.slice()]),
      ),
    /** Adds or replaces a file (text or bytes), moving the clock on. */
    addFile,
    /** Adds an empty directory. */
    addDir: (path) => {
      addParents(path);
      nodes.set(path, { kind: 'directory' });
    },
    /** Removes a file or an empty directory; says whether it existed. */
    remove: (path) => nodes.delete(path),
    /** Moves a file's mtime on without changing its content. */
    touch: (path) => {
      const n = nodes.get(path);
      const next = tick();
      if (n?.kind === 'file') {
        nodes.set(path, { ...n, mtimeNs: next });
      }
    },
    /** Replaces a file's content keeping its mtime (a change size and mtime cannot see). */
    replaceKeepingMtime: (path, data) => {
      const n = nodes.get(path);
      if (n?.kind === 'file') {
        nodes.set(path, { ...n, data: bytesOf(data) });
      }
    },
  };
}
