// The file system under one root directory, for Node agents: a sandbox with
// the same rules as the Rust host's. Paths are relative and may not climb
// out; real paths are resolved and must stay under the root, so a symlink
// leading out is refused; writes go to a temporary file that is renamed over
// the target, keep its permissions, and happen only while the write's
// precondition (size and mtime, or SHA-256) still holds.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { join, sep } from 'node:path';
import { DESCRIBE, FsError, byCodePoint, holds } from './fserror.js';

/** Largest read served at once, as in the Rust host. */
export const MAX_READ_BYTES = 16 * 1024 * 1024;

let tempCounter = 0;

function fsError(err) {
  switch (err.code) {
    case 'ENOENT':
      return new FsError('not-found');
    case 'EACCES':
    case 'EPERM':
      return new FsError('permission-denied');
    case 'EISDIR':
      return new FsError('is-a-directory');
    case 'ENOTDIR':
      return new FsError('not-a-directory');
    case 'EROFS':
      return new FsError('read-only');
    case 'ELOOP':
      return new FsError('outside-sandbox');
    default:
      return new FsError('io', err.message);
  }
}

function kindOf(stats) {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isBlockDevice()) return 'block-device';
  if (stats.isCharacterDevice()) return 'char-device';
  return 'other';
}

/** The files under `root`; `readOnly` refuses every change. */
export function nodeFs(root, { readOnly = false } = {}) {
  const base = fs.realpathSync.native(root);
  const inside = (real) => real === base || real.startsWith(base.endsWith(sep) ? base : base + sep);

  /** `path` on disk, refusing what leads outside the root. */
  const resolve = (path) => {
    if (path === '' || path.includes('\0') || path.startsWith('/')) {
      throw new FsError('outside-sandbox');
    }
    const parts = path.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.includes('..')) {
      throw new FsError('outside-sandbox');
    }
    const full = join(base, ...parts);
    // The deepest part that exists must really be inside the root.
    let probe = full;
    for (;;) {
      let real;
      try {
        real = fs.realpathSync.native(probe);
      } catch (err) {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR') {
          if (probe === base) {
            throw fsError(err);
          }
          probe = probe.slice(0, probe.lastIndexOf(sep)) || sep;
          continue;
        }
        if (err.code === 'ELOOP') {
          throw new FsError('outside-sandbox');
        }
        throw fsError(err);
      }
      if (!inside(real)) {
        throw new FsError('outside-sandbox');
      }
      return { full, parts };
    }
  };

  const metadataOf = (stats) => {
    const kind = kindOf(stats);
    return {
      kind,
      size: kind === 'file' ? stats.size : 0n,
      mtimeNs: stats.mtimeNs,
      readonly: readOnly || (stats.mode & 0o222n) === 0n,
    };
  };

  const sha256Of = (full) => createHash('sha256').update(fs.readFileSync(full)).digest('hex');

  /** The current target of a change, if any, once the precondition holds. */
  const checkTarget = (full, precondition) => {
    let current = null;
    try {
      current = fs.lstatSync(full, { bigint: true });
    } catch (err) {
      if (err.code !== 'ENOENT') {
        throw fsError(err);
      }
    }
    if (current?.isSymbolicLink()) {
      throw new FsError('outside-sandbox');
    }
    if (current?.isDirectory()) {
      throw new FsError('is-a-directory');
    }
    const stamp = current && { size: current.size, mtimeNs: current.mtimeNs };
    if (!holds(precondition, stamp, () => sha256Of(full))) {
      throw new FsError('conflict');
    }
    return current;
  };

  const stat = (path) => {
    const { full } = resolve(path);
    try {
      return metadataOf(fs.statSync(full, { bigint: true }));
    } catch (err) {
      throw fsError(err);
    }
  };

  const hostFs = {
    stat,
    read: (path, offset, len) => {
      const { full } = resolve(path);
      let fd;
      try {
        fd = fs.openSync(full, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      } catch (err) {
        throw fsError(err);
      }
      try {
        const kind = kindOf(fs.fstatSync(fd));
        if (kind === 'directory') {
          throw new FsError('is-a-directory');
        }
        if (kind !== 'file') {
          throw new FsError('io', `refusing to read ${DESCRIBE[kind]}`);
        }
        const buffer = Buffer.allocUnsafe(Math.min(len, MAX_READ_BYTES));
        let filled = 0;
        while (filled < buffer.length) {
          const n = fs.readSync(fd, buffer, filled, buffer.length - filled, offset + BigInt(filled));
          if (n === 0) {
            break;
          }
          filled += n;
        }
        return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
      } catch (err) {
        throw err instanceof FsError ? err : fsError(err);
      } finally {
        fs.closeSync(fd);
      }
    },
    listDir: (path) => {
      const { full } = resolve(path);
      try {
        return fs
          .readdirSync(full)
          .map((name) => {
            const meta = metadataOf(fs.lstatSync(join(full, name), { bigint: true }));
            return { name, kind: meta.kind, size: meta.size };
          })
          .sort((a, b) => byCodePoint(a.name, b.name));
      } catch (err) {
        throw err instanceof FsError ? err : fsError(err);
      }
    },
    writeFile: (path, data, precondition) => {
      if (readOnly) {
        throw new FsError('read-only');
      }
      const { full, parts } = resolve(path);
      if (parts.length === 0) {
        throw new FsError('is-a-directory');
      }
      const current = checkTarget(full, precondition);
      const name = parts[parts.length - 1];
      const parent = join(base, ...parts.slice(0, -1));
      const temp = join(parent, `.${name}.filetools-${process.pid}-${tempCounter++}.tmp`);
      try {
        fs.mkdirSync(parent, { recursive: true });
        // The parents made just now must still resolve inside the root: a
        // directory swapped for a symlink meanwhile is caught here.
        resolve(parts.slice(0, -1).join('/') || '.');
        const fd = fs.openSync(temp, 'wx');
        try {
          fs.writeSync(fd, data);
          if (current) {
            fs.fchmodSync(fd, Number(current.mode & 0o7777n));
          }
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
        fs.renameSync(temp, full);
      } catch (err) {
        fs.rmSync(temp, { force: true });
        throw err instanceof FsError ? err : fsError(err);
      }
      return stat(path);
    },
    removeFile: (path, precondition) => {
      if (readOnly) {
        throw new FsError('read-only');
      }
      const { full } = resolve(path);
      if (checkTarget(full, precondition) === null) {
        throw new FsError('not-found');
      }
      try {
        fs.unlinkSync(full);
      } catch (err) {
        throw fsError(err);
      }
    },
  };

  return { hostFs, root: base };
}
