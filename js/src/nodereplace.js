// How nodeFs changes a file: only over the version the session saw, never
// over anything else, and never leaving debris.
//
// - Every look at a target is bounded: it is examined without following a
//   symlink; only a regular file is opened (non-blocking, checked again on
//   the handle), and it is hashed up to its claimed size plus one byte.
// - The new version goes to a temporary file in the target's directory that
//   has the target's mode (and, where the process may, its owner) before
//   its first byte; it is synced, then renamed into place.
// - Node's file system has no atomic exchange, so the target is checked on
//   its handle and then, just before the rename, looked at once more: the
//   same inode, unwritten. A change landing between that last look and the
//   rename (a few microseconds) is overwritten; that window is the residue,
//   which the Rust host on Linux does not have. The check and the rename
//   run in the directory's turn (turns.js), which every host honours, so
//   the residue is left to writers that are not filetools. A new file is
//   created with a hard link, which fails when anything took the name
//   meanwhile. A move is one rename, so a kill never leaves both names.
// - Temporary names are `.NAME.filetools-PID-TOKEN-N.tmp`, as the Rust host
//   writes them; the first change to a directory removes those whose writer
//   is no longer running.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { DESCRIBE, FsError, holds } from './fserror.js';
import { running, TOKEN } from './owner.js';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;

/** Bytes of a target's name kept in a temporary name. */
const NAME_HINT_BYTES = 100;
/** Bytes hashed per read when a target is checked. */
const HASH_PIECE_BYTES = 64 * 1024;
/** Mode of a new file before the umask. */
const NEW_FILE_MODE = 0o666;

let counter = 0;

export function kindOf(stats) {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isBlockDevice()) return 'block-device';
  if (stats.isCharacterDevice()) return 'char-device';
  return 'other';
}

/**
 * What Deno throws, with no `code`, for a permission the process was not
 * given (`--allow-read`, `--allow-write`): retrying cannot help, so it is a
 * refusal, never an I/O error.
 */
const DENO_REFUSALS = new Set(['NotCapable', 'PermissionDenied']);

/** Maps a Node (or Deno) error onto the `fs-error` it means. */
export function fsError(err) {
  if (err instanceof FsError) {
    return err;
  }
  if (DENO_REFUSALS.has(err?.name)) {
    return new FsError('permission-denied');
  }
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

/** Whether two stats are of the same node, unwritten since. */
const same = (a, b) =>
  a !== null &&
  b !== null &&
  a.ino === b.ino &&
  a.dev === b.dev &&
  a.size === b.size &&
  a.mtimeNs === b.mtimeNs &&
  a.ctimeNs === b.ctimeNs;

/**
 * What `full` is, without following a symlink or blocking: `null` when
 * nothing is there, `{ kind }` for what is not a regular file, and for a
 * regular file `{ kind: 'file', fd, stats }` (the caller closes `fd`).
 */
function look(full) {
  let seen;
  try {
    seen = fs.lstatSync(full, { bigint: true });
  } catch (err) {
    if (err.code === 'ENOENT') {
      return null;
    }
    throw fsError(err);
  }
  if (!seen.isFile()) {
    return { kind: kindOf(seen) };
  }
  let fd;
  try {
    fd = fs.openSync(full, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    if (err.code === 'ELOOP') return { kind: 'symlink' };
    throw fsError(err);
  }
  const stats = fs.fstatSync(fd, { bigint: true });
  if (!stats.isFile()) {
    fs.closeSync(fd);
    return { kind: kindOf(stats) };
  }
  return { kind: 'file', fd, stats };
}

/** The SHA-256 of the open file, reading at most `size` + 1 bytes. */
function sha256Upto(fd, size) {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(HASH_PIECE_BYTES);
  const limit = size + 1n;
  let offset = 0n;
  while (offset < limit) {
    const want = Number(limit - offset < BigInt(buffer.length) ? limit - offset : BigInt(buffer.length));
    const n = fs.readSync(fd, buffer, 0, want, offset);
    if (n === 0) {
      break;
    }
    hash.update(buffer.subarray(0, n));
    offset += BigInt(n);
  }
  return hash.digest('hex');
}

/**
 * Checks `full` against `precondition` on its handle, and that it was not
 * written meanwhile; returns its identity, `null` when it is missing.
 * Throws `conflict` when it changed, `is-a-directory` or an I/O refusal
 * when `any` meets something that is not a regular file.
 */
export function verify(full, precondition) {
  const node = look(full);
  if (node === null) {
    if (!holds(precondition, null, () => '')) {
      throw new FsError('conflict');
    }
    return null;
  }
  if (node.kind !== 'file') {
    if (precondition.tag === 'any') {
      throw node.kind === 'directory'
        ? new FsError('is-a-directory')
        : new FsError('io', `refusing to change ${DESCRIBE[node.kind]}`);
    }
    throw new FsError('conflict');
  }
  try {
    const stamp = { size: node.stats.size, mtimeNs: node.stats.mtimeNs };
    const ok = holds(precondition, stamp, () => sha256Upto(node.fd, node.stats.size));
    const after = fs.fstatSync(node.fd, { bigint: true });
    if (!ok || !same(after, node.stats)) {
      throw new FsError('conflict');
    }
    return { stats: after };
  } finally {
    fs.closeSync(node.fd);
  }
}

/** The stats of what `full` is now, symlinks not followed. */
function statsAt(full) {
  try {
    return fs.lstatSync(full, { bigint: true });
  } catch {
    return null;
  }
}

/** A fresh temporary name for a change of `name`. */
export function freshName(name) {
  const bytes = Buffer.from(name);
  let hint = bytes.subarray(0, NAME_HINT_BYTES).toString();
  if (hint.endsWith('\ufffd')) {
    hint = hint.slice(0, -1);
  }
  return `.${hint}.filetools-${process.pid}-${TOKEN}-${counter++}.tmp`;
}

/**
 * Writes `data` to a new temporary file in `parent` with the mode (and
 * owner) of `like`, or a new file's, before its first byte; syncs it.
 * Returns its path and its stats.
 */
function writeTemp(parent, name, data, like) {
  const mode = like ? Number(like.mode & 0o7777n) : NEW_FILE_MODE;
  for (let attempt = 0; attempt < 16; attempt += 1) {
    // A parent whose name is not UTF-8 comes as a Buffer.
    const temp = Buffer.isBuffer(parent)
      ? Buffer.concat([parent, Buffer.from(`/${freshName(name)}`)])
      : join(parent, freshName(name));
    let fd;
    try {
      fd = fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
    } catch (err) {
      if (err.code === 'EEXIST') continue;
      throw fsError(err);
    }
    try {
      if (like) {
        takeOwnerAndMode(fd, like);
      }
      fs.writeSync(fd, data);
      fs.fsyncSync(fd);
      return { temp, stats: fs.fstatSync(fd, { bigint: true }) };
    } catch (err) {
      fs.rmSync(temp, { force: true });
      throw fsError(err);
    } finally {
      fs.closeSync(fd);
    }
  }
  throw new FsError('io', 'no free temporary name');
}

/** The target's owner where the process may set it, and its exact mode;
 * where the group cannot be kept, the group gets what others get. */
function takeOwnerAndMode(fd, like) {
  let mode = Number(like.mode & 0o7777n);
  const mine = fs.fstatSync(fd);
  if (mine.uid !== Number(like.uid) || mine.gid !== Number(like.gid)) {
    try {
      fs.fchownSync(fd, Number(like.uid), Number(like.gid));
    } catch {
      try {
        fs.fchownSync(fd, mine.uid, Number(like.gid));
      } catch {
        // Neither: the group stays the process's own.
      }
    }
    if (fs.fstatSync(fd).gid !== Number(like.gid)) {
      mode = (mode & ~0o070) | ((mode & 0o007) << 3);
    }
  }
  fs.fchmodSync(fd, mode);
}

/**
 * Replaces (or creates) `full` in `parent` with `data` while
 * `precondition` holds; returns the new file's stats, or throws an FsError.
 */
export function replace(parent, name, full, data, precondition, turns = NO_TURNS) {
  const before = verifyQuickly(full, precondition);
  const { temp, stats } = writeTemp(parent, name, data, before?.stats);
  const endTurn = takeTurn(turns, parent, temp);
  try {
    const checked = verify(full, precondition);
    if (checked === null) {
      // Missing, and that is allowed: create it only if the name is free.
      try {
        fs.linkSync(temp, full);
      } catch (err) {
        throw err.code === 'EEXIST' ? new FsError('conflict') : fsError(err);
      }
      return stats;
    }
    // The last look, right before the rename: the window left is between them.
    if (!same(statsAt(full), checked.stats)) {
      throw new FsError('conflict');
    }
    fs.renameSync(temp, full);
    return stats;
  } catch (err) {
    throw fsError(err);
  } finally {
    endTurn?.();
    fs.rmSync(temp, { force: true });
  }
}

/** Turns taken nowhere (see turns.js). */
const NO_TURNS = { take: () => null };

/** The turn in `dir`, or null; a refusal removes `temp` first. */
function takeTurn(turns, dir, temp) {
  try {
    return turns.take(dir);
  } catch (err) {
    if (temp !== undefined) fs.rmSync(temp, { force: true });
    throw err;
  }
}

/** Removes `full`, in the directory `parent`, while `precondition` holds. */
export function remove(parent, full, precondition, turns = NO_TURNS) {
  const endTurn = takeTurn(turns, parent);
  try {
    const checked = verify(full, precondition);
    if (checked === null) {
      throw new FsError('not-found');
    }
    if (!same(statsAt(full), checked.stats)) {
      throw new FsError('conflict');
    }
    try {
      fs.unlinkSync(full);
    } catch (err) {
      throw fsError(err);
    }
  } finally {
    endTurn?.();
  }
}

/**
 * Moves `full` (in the directory `parent`) to the free name `destination`
 * while `precondition` holds on what moves, in one rename, as the Rust host
 * does where it cannot refuse to replace: a regular file is checked, then
 * looked at once more with the name still free just before the rename; a
 * directory moves with `any` only, after a look that the name is free.
 * Returns the stats of what now stands at `destination`.
 */
export function move(parent, full, destination, precondition, turns = NO_TURNS) {
  const endTurn = takeTurn(turns, parent);
  try {
    return moveChecked(full, destination, precondition);
  } finally {
    endTurn?.();
  }
}

function moveChecked(full, destination, precondition) {
  const seen = statsAt(full);
  if (seen === null) {
    throw new FsError('not-found');
  }
  if (statsAt(destination) !== null) {
    throw new FsError('conflict');
  }
  if (!seen.isFile()) {
    if (!seen.isDirectory() || precondition.tag !== 'any') {
      throw new FsError('conflict');
    }
    try {
      fs.renameSync(full, destination);
    } catch (err) {
      throw fsError(err);
    }
    return statsAt(destination);
  }
  // Checked, then looked at once more, with the name still free, just
  // before one rename: a kill leaves the file under one name or the other,
  // never both (Node has no rename that refuses to replace; a name taken
  // in the microseconds between the last look and the rename is the
  // residue, as for a replacement).
  const checked = verify(full, precondition);
  if (checked === null) {
    throw new FsError('not-found');
  }
  if (!same(statsAt(full), checked.stats) || statsAt(destination) !== null) {
    throw new FsError('conflict');
  }
  try {
    fs.renameSync(full, destination);
  } catch (err) {
    throw fsError(err);
  }
  return statsAt(destination);
}

/**
 * A first look, before anything is written: the kind, and the size the
 * precondition names; the content is compared just before the rename.
 * Returns the regular file's stats, or null when it is missing.
 */
function verifyQuickly(full, precondition) {
  const node = look(full);
  if (node === null) {
    if (precondition.tag === 'matches') {
      throw new FsError('conflict');
    }
    return null;
  }
  if (node.kind !== 'file') {
    return verify(full, precondition);
  }
  fs.closeSync(node.fd);
  const sizeDiffers = precondition.tag === 'matches' && precondition.val.size !== node.stats.size;
  if (precondition.tag === 'absent' || sizeDiffers) {
    throw new FsError('conflict');
  }
  return { stats: node.stats };
}

/** Who made a temporary name: `{ pid, token }` (`token` null for the
 * names of earlier versions), or null when it is not one. */
export function maker(name) {
  const match = /^\..*\.filetools-(\d+)-(?:([0-9a-f]{8})-)?(\d+)\.tmp$/.exec(name);
  return match ? { pid: Number(match[1]), token: match[2] ?? null } : null;
}

/** Removes from `dir` the temporary files whose writer is gone. */
export function sweep(dir) {
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const made = maker(name);
    if (made === null) continue;
    const ours = made.pid === process.pid;
    const gone = ours ? made.token !== null && made.token !== TOKEN : !running(made.pid);
    if (!gone) continue;
    try {
      if (fs.lstatSync(join(dir, name)).isFile()) {
        fs.unlinkSync(join(dir, name));
      }
    } catch {
      // Already gone, or not ours to remove.
    }
  }
}
