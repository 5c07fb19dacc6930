// The state directory, found as the Rust host finds it, so that processes
// of every host on one root share its records of changes under way and its
// turns: $FILETOOLS_STATE_DIR alone when set; else $XDG_STATE_HOME/filetools
// (~/.local/state/filetools), $XDG_RUNTIME_DIR/filetools and
// $TMPDIR/filetools-UID, the first that is this user's alone (mode 0700,
// created so) and outside the workspace root, where the model can write.
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';

/** The places to try, in order; `given` alone when set. */
function places(given) {
  const env = (name) => process.env[name] || undefined;
  const explicit = given ?? env('FILETOOLS_STATE_DIR');
  if (explicit !== undefined) {
    return [explicit];
  }
  const found = [];
  const xdg = env('XDG_STATE_HOME');
  const home = env('HOME');
  if (xdg !== undefined) {
    found.push(join(xdg, 'filetools'));
  } else if (home !== undefined) {
    found.push(join(home, '.local', 'state', 'filetools'));
  }
  const runtime = env('XDG_RUNTIME_DIR');
  if (runtime !== undefined) {
    found.push(join(runtime, 'filetools'));
  }
  found.push(join(env('TMPDIR') ?? tmpdir(), `filetools-${process.geteuid()}`));
  return found;
}

/** The real path `path` will have once made: its deepest existing part resolved. */
function realToBe(path) {
  const missing = [];
  let existing = resolve(path);
  for (;;) {
    try {
      return join(fs.realpathSync.native(existing), ...missing.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) {
        return resolve(path);
      }
      missing.push(existing.slice(parent.length).replace(/^\//, ''));
      existing = parent;
    }
  }
}

/** Why `path` may not hold what the host later trusts, or null. */
function refusal(path, root) {
  const inside = (real) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
  if (inside(realToBe(path))) {
    return `it lies inside the workspace root ${root}, where the model can write`;
  }
  try {
    fs.mkdirSync(path, { recursive: true, mode: 0o700 });
  } catch (err) {
    return `it cannot be created (${err.message})`;
  }
  let stats;
  try {
    stats = fs.statSync(fs.realpathSync.native(path));
  } catch (err) {
    return `it cannot be examined (${err.message})`;
  }
  if (inside(fs.realpathSync.native(path))) {
    return `it lies inside the workspace root ${root}, where the model can write`;
  }
  if (stats.uid !== process.geteuid()) {
    return 'it belongs to another user';
  }
  if ((stats.mode & 0o022) !== 0) {
    return `others may write to it (mode ${(stats.mode & 0o777).toString(8)}); make it private with chmod 700`;
  }
  return null;
}

/**
 * `sub` of the state directory (`given`, or the first default place that
 * is private) for the workspace `root` (a real path): `{ path }`, or
 * `{ base, why }` for the first place that was refused.
 */
export function stateDir(sub, root, given) {
  let candidates;
  try {
    candidates = places(given);
  } catch (err) {
    // A runtime that may not read the environment (Deno without --allow-env).
    return { base: 'the state directory', why: `its place cannot be found (${err.message})` };
  }
  let first;
  for (const base of candidates) {
    const path = join(base, sub);
    let why;
    try {
      why = refusal(path, root);
    } catch (err) {
      why = `it cannot be examined (${err.message})`;
    }
    if (why === null) {
      return { path: fs.realpathSync.native(path) };
    }
    first ??= { base, why };
  }
  return first;
}
