// `npm run build`: builds the component from guest/ (or takes the one in
// FILETOOLS_COMPONENT) and transpiles it with jco into generated/, where the
// package loads it from: an ES module to instantiate and its core wasm files.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const js = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workspace = resolve(js, '..');
const targetDir = join(workspace, 'target', 'guest');

/** The component's path, built with the same profile the Rust host embeds. */
export function component() {
  if (process.env.FILETOOLS_COMPONENT) {
    return resolve(process.env.FILETOOLS_COMPONENT);
  }
  execFileSync(
    'cargo',
    ['build', '--profile', 'guest', '--package', 'agent-filetools-core', '--target', 'wasm32-wasip2', '--target-dir', targetDir],
    { cwd: workspace, stdio: 'inherit' },
  );
  return join(targetDir, 'wasm32-wasip2', 'guest', 'filetools_core.wasm');
}

/** Transpiles `wasm` into `out` with the package's jco options. */
export function transpile(wasm, out) {
  rmSync(out, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [
      join(js, 'node_modules', '@bytecodealliance', 'jco', 'dist', 'jco.js'),
      'transpile', wasm, '--out-dir', out, '--name', 'filetools',
      '--instantiation', 'async', '--no-wasi-shim', '--no-nodejs-compat', '--quiet',
    ],
    { stdio: 'inherit' },
  );
  quietGlue(join(out, 'filetools.js'));
}

/**
 * The glue's debug switch reads the environment (`process.env.JCO_DEBUG`),
 * which under Deno's least privilege is a refused permission, on every
 * call; the package never logs through it, so the switch is turned off.
 * Fails loudly when a new jco spells it differently.
 */
function quietGlue(glue) {
  const reads = 'if (!globalThis?.process?.env?.JCO_DEBUG) { return; }';
  const text = readFileSync(glue, 'utf8');
  if (!text.includes(reads)) {
    throw new Error(`${glue}: the glue's debug switch changed; check that it reads no environment`);
  }
  writeFileSync(glue, text.split(reads).join('return;'));
  if (/process\??\.env/.test(readFileSync(glue, 'utf8'))) {
    throw new Error(`${glue}: the glue still reads the environment`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wasm = component();
  if (!existsSync(wasm)) {
    throw new Error(`the component ${wasm} was not built`);
  }
  transpile(wasm, join(js, 'generated'));
  console.log(`transpiled ${wasm} into js/generated/`);
}
