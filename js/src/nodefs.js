// The file system under one root directory, for Node agents: a sandbox with
// the same rules as the Rust host's. Paths are relative and may not climb
// out; real paths are resolved and must stay under the root, so a symlink
// leading out is refused (one leading elsewhere inside is followed, for
// reads and changes alike), and files of the kernel's /proc and /sys are
// refused unless `kernelFiles` is set. Changes go through nodereplace.js:
// checked on the file they replace, atomic, private temporary files, no
// debris.
import * as fs from 'node:fs';
import { dirname, isAbsolute, join, resolve as resolvePath, sep } from 'node:path';
import { DESCRIBE, FsError, byCodePoint } from './fserror.js';
import { createHash } from 'node:crypto';
import { memoryJournal } from './journal.js';
import { fileJournal } from './records.js';
import { stateDir as findStateDir } from './statedir.js';
import { scanPool } from './scanpool.js';
import { turnsIn } from './turns.js';
import { joined, named, shown, utf8Text } from './nodenames.js';
import { fsError, kindOf, move, remove, replace, sweep } from './nodereplace.js';

/** Largest read served at once, as in the Rust host. */
export const MAX_READ_BYTES = 16 * 1024 * 1024;

/**
 * Largest read served from the buffer kept between reads (a larger one has
 * its own), and that buffer's first size.
 */
const MAX_REUSED_READ_BYTES = 1024 * 1024;
const FIRST_REUSED_READ_BYTES = 64 * 1024;

/** Symlinks followed at a change's target before it is refused as a loop. */
const MAX_LINKS = 40;

/** The directory part of `path` (a string, or a Buffer for a name that is not UTF-8). */
function parentOf(path) {
  return Buffer.isBuffer(path) ? path.subarray(0, Math.max(path.lastIndexOf(0x2f), 1)) : dirname(path);
}

/** The last part of `path` (a string or a Buffer). */
function nameOf(path) {
  return Buffer.isBuffer(path) ? path.subarray(path.lastIndexOf(0x2f) + 1) : path.slice(dirname(path).length + 1);
}

/** Trees of kernel files, refused unless `kernelFiles` is set. */
const KERNEL_TREES = ['/proc', '/sys'];

/** Whether the kernel says which path a descriptor has (Linux), asked once. */
let procFd;
function kernelNamesDescriptors() {
  if (procFd === undefined) {
    try {
      procFd = process.platform === 'linux' && fs.existsSync('/proc/self/fd');
    } catch {
      // Not permitted to look (Deno without read access to /proc).
      procFd = false;
    }
  }
  return procFd;
}

/** Directories remembered as inside the root, at most (then forgotten at once). */
const MAX_PARENTS_KNOWN = 4096;

/** How a directory is opened to be listed: a directory or nothing. */
const DIR_FLAGS = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY;

/** What the kernel adds to the path of a descriptor whose file was removed. */
const DELETED = Buffer.from(' (deleted)');

/** How Node shows a byte of a name that is not UTF-8 (or the character itself). */
const REPLACEMENT = '\uFFFD';

/** How a file is opened to be read: never blocking on a FIFO, never becoming a terminal's. */
const READ_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY;

/** Hex digits of the root's digest in its records' directory name, as in the Rust host. */
const ROOT_KEY_HEX_DIGITS = 32;

/**
 * The directory `entries` as `listing` gives them, sorted by name: each
 * named by `nameOf`, a file's size and time looked at (`lstat`) through
 * `pathOf` unless `namesOnly`; a directory's or a link's from the
 * listing's own type.
 */
function described(entries, nameOf, pathOf, namesOnly) {
  return entries
    .map((entry) => {
      const name = nameOf(entry.name);
      if (entry.isDirectory() || entry.isSymbolicLink()) {
        return { name, kind: entry.isDirectory() ? 'directory' : 'symlink', size: 0n, mtimeNs: 0n };
      }
      if (namesOnly && entry.isFile()) {
        return { name, kind: 'file', size: 0n, mtimeNs: 0n };
      }
      const stats = fs.lstatSync(pathOf(entry.name), { bigint: true });
      const kind = kindOf(stats);
      return { name, kind, size: kind === 'file' ? stats.size : 0n, mtimeNs: stats.mtimeNs };
    })
    .sort((a, b) => byCodePoint(a.name, b.name));
}

/**
 * The files under `root`; `readOnly` refuses every change; `kernelFiles`
 * serves /proc and /sys when the root contains them; `stateDir` names the
 * private directory for the records of changes under way and the turns
 * (default: where the Rust host keeps them, see statedir.js).
 */
export function nodeFs(root, { readOnly = false, kernelFiles = false, stateDir } = {}) {
  const base = fs.realpathSync.native(root);
  // The byte forms of the directories real paths are compared with (the
  // root and the kernel's trees), made once.
  const asBytes = new Map();
  const bytesOf = (dir) => {
    let forms = asBytes.get(dir);
    if (!forms) {
      forms = { exact: Buffer.from(dir), prefix: Buffer.from(dir.endsWith(sep) ? dir : dir + sep) };
      asBytes.set(dir, forms);
    }
    return forms;
  };
  const under = (real, dir) => {
    if (Buffer.isBuffer(real)) {
      // A real path as bytes (perhaps not UTF-8), compared byte for byte.
      const { exact, prefix } = bytesOf(dir);
      return real.equals(exact) || real.subarray(0, prefix.length).equals(prefix);
    }
    return real === dir || real.startsWith(dir.endsWith(sep) ? dir : dir + sep);
  };
  const kernel = (real) => !kernelFiles && KERNEL_TREES.some((tree) => under(real, tree));
  const inside = (real) => under(real, base);
  // The spelling the root was given by, when it names the same directory
  // by another path (a symlink to it, say): the guest accepts both.
  const given = resolvePath(root);
  const rootAliases = given !== base ? [given] : [];
  const swept = new Set();

  /** `path` on disk, refusing what leads outside the root. */
  const resolve = (path) => {
    if (path === '' || path.includes('\0') || path.startsWith('/')) {
      throw new FsError('outside-sandbox');
    }
    const parts = path.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.includes('..')) {
      throw new FsError('outside-sandbox');
    }
    // A Buffer when a part names an entry whose name is not UTF-8.
    const raw = named(base, parts);
    const full = raw ?? join(base, ...parts);
    // The deepest part that exists must really be inside the root.
    let probe = full;
    for (;;) {
      let real;
      try {
        real = fs.realpathSync.native(probe, raw ? { encoding: 'buffer' } : undefined);
      } catch (err) {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR') {
          if (raw ? probe.equals(Buffer.from(base)) : probe === base) {
            throw fsError(err);
          }
          probe = probe.slice(0, probe.lastIndexOf(raw ? 0x2f : sep)) || sep;
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
      if (kernel(real)) {
        throw new FsError('permission-denied');
      }
      return { full, parts };
    }
  };

  /**
   * The path a change of `full` acts on: symlinks at the target followed
   * while they stay inside the root, so the link itself is kept.
   */
  const changeTarget = (full) => {
    let target = full;
    for (let hops = 0; hops <= MAX_LINKS; hops += 1) {
      let stats;
      try {
        stats = fs.lstatSync(target);
      } catch (err) {
        if (err.code === 'ENOENT') return target;
        throw fsError(err);
      }
      if (!stats.isSymbolicLink()) {
        return target;
      }
      if (Buffer.isBuffer(target)) {
        throw new FsError(
          'io',
          'a symlink on a path that is not UTF-8 is not followed by the Node host; change the file it points to',
        );
      }
      let link;
      let parent;
      try {
        link = fs.readlinkSync(target);
        parent = fs.realpathSync.native(dirname(target));
      } catch (err) {
        throw fsError(err);
      }
      target = isAbsolute(link) ? resolvePath(link) : resolvePath(parent, link);
      let real;
      try {
        real = fs.realpathSync.native(dirname(target));
      } catch (err) {
        throw fsError(err);
      }
      if (!inside(real) || kernel(real)) {
        throw new FsError('outside-sandbox');
      }
      target = join(real, target.slice(dirname(target).length + 1));
    }
    throw new FsError('outside-sandbox');
  };

  const metadataOf = (stats) => {
    const kind = kindOf(stats);
    return {
      kind,
      size: kind === 'file' ? stats.size : 0n,
      mtimeNs: stats.mtimeNs,
      readonly: readOnly || (stats.mode & 0o222n) === 0n,
      // A file system without birth times reports 0: the mtime stands in.
      createdNs: stats.birthtimeNs > 0n ? stats.birthtimeNs : stats.mtimeNs,
      accessedNs: stats.atimeNs,
      mode: Number(stats.mode & 0o7777n),
    };
  };

  const stat = (path) => {
    const { full } = resolve(path);
    try {
      return metadataOf(fs.statSync(full, { bigint: true }));
    } catch (err) {
      throw fsError(err);
    }
  };

  // The file the current call read last, kept open for its next read of
  // the same path: a page fetched chunk by chunk resolves, opens and checks
  // the file once, and every chunk comes from that one file even if the
  // path is replaced meanwhile. Closed by any change and when the call ends
  // (`callEnded`), so a read never sees an older file than the call's own
  // writes left.
  let kept;
  const forget = () => {
    if (kept) {
      const { fd } = kept;
      kept = undefined;
      fs.closeSync(fd);
    }
  };
  /** A descriptor of the regular file at `path`, kept for the call, and its size when opened. */
  const openToRead = (path) => {
    if (kept?.path === path) {
      return kept;
    }
    forget();
    const fd = kernelNamesDescriptors() ? openChecked(path) : openResolved(path);
    let size;
    try {
      const stats = fs.fstatSync(fd);
      size = stats.size;
      const kind = kindOf(stats);
      if (kind === 'directory') {
        throw new FsError('is-a-directory');
      }
      if (kind !== 'file') {
        throw new FsError('io', `refusing to read ${DESCRIBE[kind]}`);
      }
    } catch (err) {
      fs.closeSync(fd);
      throw err instanceof FsError ? err : fsError(err);
    }
    kept = { path, fd, size };
    return kept;
  };
  /** `path` opened once its whole path was resolved inside the root. */
  const openResolved = (path) => {
    const { full } = resolve(path);
    try {
      return fs.openSync(full, READ_FLAGS);
    } catch (err) {
      throw fsError(err);
    }
  };
  // Directories a file was opened in once its whole path was resolved
  // inside the root: a file in one is opened without resolving its path
  // again, then checked by what was really opened (which also catches a
  // directory swapped for a link meanwhile). Forgotten at every change
  // made here.
  const parentsInside = new Set();
  /**
   * The parts of `path` when it can be joined to the root as it is:
   * relative, never climbing, every name UTF-8 as spelled; `undefined`
   * when it must be resolved (and perhaps refused) part by part.
   */
  const plainParts = (path) => {
    const parts = path.split('/').filter((p) => p !== '' && p !== '.');
    const plain = !path.startsWith('/') && !path.includes('\0') && !parts.includes('..') && !named(base, parts);
    return plain ? parts : undefined;
  };
  /**
   * `path` opened directly in a directory known to be inside the root,
   * not following a link at its last part, then checked by the path the
   * kernel gives the descriptor (Linux's /proc/self/fd): one call instead
   * of resolving every part of the path.
   */
  const openChecked = (path) => {
    const cut = path.lastIndexOf('/');
    const parent = cut < 0 ? '.' : path.slice(0, cut);
    const parts = plainParts(path);
    const plain = parts !== undefined;
    if (!plain || !parentsInside.has(parent)) {
      const fd = openResolved(path);
      if (plain) {
        if (parentsInside.size >= MAX_PARENTS_KNOWN) {
          parentsInside.clear();
        }
        parentsInside.add(parent);
      }
      return fd;
    }
    let fd;
    try {
      fd = fs.openSync(join(base, ...parts), READ_FLAGS | fs.constants.O_NOFOLLOW);
    } catch {
      // A link at the last part, or no such file: resolved as any path
      // is, for the same answer.
      return openResolved(path);
    }
    let real;
    try {
      real = fs.readlinkSync(`/proc/self/fd/${fd}`).replace(/ \(deleted\)$/, '');
    } catch {
      fs.closeSync(fd);
      return openResolved(path);
    }
    if (!inside(real) || kernel(real)) {
      fs.closeSync(fd);
      parentsInside.delete(parent);
      return openResolved(path);
    }
    return fd;
  };
  /**
   * The directory `path` opened and checked by the path the kernel gives
   * the descriptor (links followed, as for any path): listed through that
   * descriptor, it is the directory checked whatever is renamed or swapped
   * meanwhile, for one call instead of resolving every part of the path. Refused as `resolve` refuses it
   * when it leads out of the root or into the kernel's files; `undefined`
   * where it must be resolved as any path is (the root's empty name, a
   * name that is not UTF-8, no such directory, one removed since), for
   * the same answer.
   */
  const openDirChecked = (path) => {
    const parts = path === '' ? undefined : plainParts(path);
    if (parts === undefined) {
      return undefined;
    }
    let fd;
    try {
      fd = fs.openSync(join(base, ...parts), DIR_FLAGS);
    } catch {
      return undefined;
    }
    const at = `/proc/self/fd/${fd}`;
    let real;
    try {
      real = fs.readlinkSync(at, { encoding: 'buffer' });
    } catch {
      fs.closeSync(fd);
      return undefined;
    }
    const refusal = real.subarray(-DELETED.length).equals(DELETED)
      ? undefined
      : !inside(real)
        ? 'outside-sandbox'
        : kernel(real)
          ? 'permission-denied'
          : null;
    if (refusal !== null) {
      fs.closeSync(fd);
      if (refusal) {
        throw new FsError(refusal);
      }
      return undefined;
    }
    return { fd, at, real };
  };
  /** `change` on the file system, with the kept file closed first. */
  const changing =
    (change) =>
    (...args) => {
      forget();
      parentsInside.clear();
      return change(...args);
    };

  /**
   * The entries of the directory `path`, sorted by name. A directory or a
   * link is known by the listing's own type: it has no size to give, and
   * its time is not asked for (0); with `namesOnly`, neither is anything
   * else the listing gives a type for.
   */
  const listing = (path, namesOnly) => {
    const opened = kernelNamesDescriptors() ? openDirChecked(path) : undefined;
    const full = opened?.at ?? resolve(path).full;
    // Entries are looked at by the directory's real path: through the
    // descriptor's /proc entry, each lookup would cost a walk of /proc.
    const real = opened?.real ?? full;
    try {
      const fast = listedAsText(full, real, namesOnly);
      if (fast) {
        return fast;
      }
      const dir = Buffer.isBuffer(real) ? real : Buffer.from(real);
      const entries = fs.readdirSync(full, { encoding: 'buffer', withFileTypes: true });
      return described(entries, shown, (name) => joined(dir, name), namesOnly);
    } catch (err) {
      throw err instanceof FsError ? err : fsError(err);
    } finally {
      if (opened) {
        fs.closeSync(opened.fd);
      }
    }
  };

  /**
   * `listing`'s entries when every name (and the directory's real path)
   * is UTF-8, read as text by Node itself; `undefined` when one may not be
   * (Node shows such a byte as U+FFFD), to be listed as bytes instead.
   */
  const listedAsText = (full, real, namesOnly) => {
    const dir = Buffer.isBuffer(real) ? utf8Text(real) : real;
    if (dir === undefined || dir.includes(REPLACEMENT)) {
      return undefined;
    }
    const entries = fs.readdirSync(full, { withFileTypes: true });
    if (entries.some((entry) => entry.name.includes(REPLACEMENT))) {
      return undefined;
    }
    const prefix = dir.endsWith(sep) ? dir : dir + sep;
    return described(
      entries,
      (name) => name,
      (name) => prefix + name,
      namesOnly,
    );
  };

  // Records and turns on disk, shared with every host's processes on this
  // root; in memory (and no turns) where no private directory can be had.
  const changes = readOnly ? null : findStateDir('changes', base, stateDir);
  const journal = changes?.path
    ? fileJournal(changes.path, createHash('sha256').update(base).digest('hex').slice(0, ROOT_KEY_HEX_DIGITS))
    : memoryJournal({ readOnly });
  const stateRefusal = changes?.why
    ? `the records of changes under way are kept in memory, not in ${changes.base}: ${changes.why}; a change of several files cut off by a kill is then not put back by the next process. Set FILETOOLS_STATE_DIR to a private directory outside the workspace`
    : null;
  const turns = turnsIn(readOnly ? null : (findStateDir('turns', base, stateDir).path ?? null));
  // The memory reads land in, kept from one read to the next: what a read
  // returns is copied into the component before the next one, and a search
  // reading thousands of files would otherwise make as many buffers.
  let reused;
  const readBuffer = (bytes) => {
    if (bytes > MAX_REUSED_READ_BYTES) {
      return Buffer.allocUnsafe(bytes);
    }
    if (reused === undefined || reused.length < bytes) {
      reused = Buffer.allocUnsafeSlow(Math.max(bytes, FIRST_REUSED_READ_BYTES));
    }
    return reused.subarray(0, bytes);
  };
  const hostFs = {
    stat,
    read: (path, offset, len) => {
      const { fd, size } = openToRead(path);
      try {
        const want = Math.min(len, MAX_READ_BYTES);
        // Sized to what the file held when opened, and a byte more to see
        // it grow: a search asks a chunk of every small file, and room for
        // the whole chunk each time would cost more than reading it.
        const held = Math.max(0, size - Number(offset)) + 1;
        let buffer = readBuffer(Math.min(want, held));
        let filled = 0;
        while (filled < want) {
          if (filled === buffer.length) {
            // The file grew since: read on up to what was asked.
            const larger = Buffer.allocUnsafe(want);
            buffer.copy(larger, 0, 0, filled);
            buffer = larger;
          }
          const asked = buffer.length - filled;
          const n = fs.readSync(fd, buffer, filled, asked, offset + BigInt(filled));
          filled += n;
          // A file read short of the byte past its size, ending exactly
          // at that size, has not grown: no read again to learn it.
          if (n === 0 || (n < asked && Number(offset) + filled === size)) {
            break;
          }
        }
        return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
      } catch (err) {
        forget();
        throw fsError(err);
      }
    },
    listDir: (path) => listing(path, false),
    listNames: (path) => listing(path, true),
    writeFile: changing((path, data, precondition) => {
      if (readOnly) {
        throw new FsError('read-only');
      }
      const { full, parts } = resolve(path);
      if (parts.length === 0) {
        throw new FsError('is-a-directory');
      }
      try {
        fs.mkdirSync(parentOf(full), { recursive: true });
      } catch (err) {
        throw fsError(err);
      }
      // The parents made just now must still resolve inside the root: a
      // directory swapped for a symlink meanwhile is caught here.
      resolve(parts.slice(0, -1).join('/') || '.');
      const target = changeTarget(full);
      const parent = parentOf(target);
      // Leftovers are swept where names are UTF-8 (a directory whose name
      // is not keeps them until a process of the Rust host passes).
      if (!Buffer.isBuffer(parent) && !swept.has(parent)) {
        swept.add(parent);
        sweep(parent);
      }
      return metadataOf(replace(parent, nameOf(target), target, data, precondition, turns));
    }),
    removeFile: changing((path, precondition) => {
      if (readOnly) {
        throw new FsError('read-only');
      }
      const { full } = resolve(path);
      const target = changeTarget(full);
      remove(parentOf(target), target, precondition, turns);
    }),
    createDir: changing((path) => {
      if (readOnly) {
        throw new FsError('read-only');
      }
      const { full, parts } = resolve(path);
      try {
        fs.mkdirSync(full, { recursive: true });
      } catch (err) {
        throw err.code === 'EEXIST' ? new FsError('not-a-directory') : fsError(err);
      }
      // What was made must still lie inside the root.
      resolve(parts.join('/') || '.');
    }),
    rename: changing((source, destination, precondition) => {
      if (readOnly) {
        throw new FsError('read-only');
      }
      const from = changeTarget(resolve(source).full);
      const { full, parts } = resolve(destination);
      if (parts.length === 0) {
        throw new FsError('conflict');
      }
      try {
        fs.mkdirSync(parentOf(full), { recursive: true });
      } catch (err) {
        throw fsError(err);
      }
      resolve(parts.slice(0, -1).join('/') || '.');
      return metadataOf(move(parentOf(from), from, changeTarget(full), precondition, turns));
    }),
    beginChange: journal.beginChange,
    endChange: journal.endChange,
    claimUnfinished: journal.claimUnfinished,
  };
  // A grep's files scanned, and a find's directories walked, on threads
  // of this host's own, where threads can block for each other (Node;
  // Deno's worker threads cannot).
  const scans = typeof Deno === 'undefined' ? scanPool({ root: base, kernelFiles }) : undefined;
  if (scans) {
    hostFs.scanStart = scans.scanStart;
    hostFs.scanResults = scans.scanResults;
    hostFs.walkStart = scans.walkStart;
    hostFs.walkResults = scans.walkResults;
    // What the threads read and list by: these functions, in their own
    // nodeFs of the same root. A back end that replaces one of them keeps
    // its work on the main thread (see instance.js).
    hostFs.threads = { read: hostFs.read, stat: hostFs.stat, listDir: hostFs.listDir, listNames: hostFs.listNames };
  }
  const callEnded = () => {
    forget();
    scans?.callEnded();
    journal.callEnded();
  };

  return { hostFs, root: base, rootAliases, kernelFiles, readOnly, callEnded, stateRefusal };
}
