// The conformance cases on disk for the Node runners: laid out once per
// process (generated inputs included) into target/js-cases by the package's
// own layout, which the layout test holds equal to the Rust side's.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layOutCases } from '../scripts/cases/layout.mjs';

export const js = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const workspace = resolve(js, '..');
export const casesDir = join(workspace, 'target', 'js-cases');

/**
 * The path of one of the workspace's debug binaries. `cargo xtask test` has
 * built them all with the Rust tests and says where (FILETOOLS_BIN_DIR), so
 * they are used as they are; otherwise (`npm test` alone) cargo builds the one
 * asked for.
 */
export function workspaceBinary(pkg, name) {
  const built = process.env.FILETOOLS_BIN_DIR;
  if (built && fs.existsSync(join(built, name))) {
    return join(built, name);
  }
  execFileSync('cargo', ['build', '--quiet', '--package', pkg, '--bin', name], { cwd: workspace, stdio: 'inherit' });
  return join(workspace, 'target', 'debug', name);
}

let laidOut = false;

/** Lays the cases out (once per process) and returns their names. */
export function caseNames() {
  if (!laidOut) {
    layOutCases(casesDir);
    laidOut = true;
  }
  return JSON.parse(fs.readFileSync(join(casesDir, 'index.json'), 'utf8'));
}

/** The paths of every file under `dir` (none when it does not exist). */
export function filesUnder(dir) {
  if (!fs.existsSync(dir)) {
    return [];
  }
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every file under `dir`, by `/`-separated relative path. */
export function readTree(dir) {
  const files = filesUnder(dir).map((path) => [
    relative(dir, path).split(sep).join('/'),
    new Uint8Array(fs.readFileSync(path)),
  ]);
  return new Map(files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Copies a case's starting files into a fresh directory, mtimes on whole seconds. */
export function layOut(name, target) {
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  const tree = join(casesDir, name, 'tree');
  if (fs.existsSync(tree)) {
    fs.cpSync(tree, target, { recursive: true });
  }
  const second = Math.floor(Date.now() / 1000) - 100;
  for (const path of readTree(target).keys()) {
    fs.utimesSync(join(target, path), second, second);
  }
}

/** Applies an outside change on disk, as the Rust on-disk hosts do. */
export function externalOnDisk(root, change) {
  const path = join(root, change.path);
  const before = fs.statSync(path).mtimeMs / 1000;
  switch (change.external) {
    case 'write':
      fs.writeFileSync(path, change.text);
      fs.utimesSync(path, before + 2, before + 2);
      break;
    case 'touch':
      fs.utimesSync(path, before + 2, before + 2);
      break;
    case 'same_size_same_mtime':
      fs.writeFileSync(path, change.text);
      fs.utimesSync(path, before, before);
      break;
    default:
      throw new Error(`unknown outside change ${change.external}`);
  }
}

/** A loopback port nothing listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
