// `npm run build`: builds the components from guest/ and guest/code/ (or
// takes the ones in FILETOOLS_COMPONENT and FILETOOLS_CODE_COMPONENT) and
// transpiles them with jco into generated/ and generated/code/, where the
// package loads them from: ES modules to instantiate and their core wasm
// files.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const js = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workspace = resolve(js, '..');
const targetDir = join(workspace, 'target', 'guest');

/**
 * The components' paths — the tools, and the grammars the tools import as
 * `code` — built with the same profile the Rust host embeds.
 */
export function components() {
  if (process.env.FILETOOLS_COMPONENT || process.env.FILETOOLS_CODE_COMPONENT) {
    if (!process.env.FILETOOLS_COMPONENT || !process.env.FILETOOLS_CODE_COMPONENT) {
      throw new Error('set both FILETOOLS_COMPONENT and FILETOOLS_CODE_COMPONENT, or neither');
    }
    return { tools: resolve(process.env.FILETOOLS_COMPONENT), code: resolve(process.env.FILETOOLS_CODE_COMPONENT) };
  }
  execFileSync(
    'cargo',
    [
      'build',
      '--profile',
      'guest',
      '--package',
      'agent-filetools-core',
      '--package',
      'agent-filetools-code',
      '--target',
      'wasm32-wasip2',
      '--target-dir',
      targetDir,
    ],
    { cwd: workspace, stdio: 'inherit' },
  );
  const built = join(targetDir, 'wasm32-wasip2', 'guest');
  return { tools: join(built, 'filetools_core.wasm'), code: join(built, 'filetools_code.wasm') };
}

/**
 * Transpiles the tools' component into `out` and the grammars' into
 * `out/code/` with the package's jco options. The tools are instantiated
 * asynchronously; the grammars synchronously, from inside a call that
 * first parses code, over a core module compiled by then.
 */
export function transpile({ tools, code }, out) {
  rmSync(out, { recursive: true, force: true });
  jco(tools, out, 'filetools', 'async');
  jco(code, join(out, 'code'), 'filetools-code', 'sync');
  // Browsers may not instantiate a module this large synchronously: they
  // take the grammars ahead, through asynchronous glue over the same core
  // files (only the glue is kept).
  const ahead = join(out, 'code-ahead');
  jco(code, ahead, 'filetools-code', 'async');
  for (const name of readdirSync(ahead).filter((n) => n.endsWith('.wasm'))) {
    if (!readFileSync(join(ahead, name)).equals(readFileSync(join(out, 'code', name)))) {
      throw new Error(`the grammars' ${name} differs between the two transpiles`);
    }
  }
  renameSync(join(ahead, 'filetools-code.js'), join(out, 'code', 'filetools-code-ahead.js'));
  rmSync(ahead, { recursive: true, force: true });
}

function jco(wasm, out, name, instantiation) {
  execFileSync(
    process.execPath,
    [
      join(js, 'node_modules', '@bytecodealliance', 'jco', 'dist', 'jco.js'),
      'transpile',
      wasm,
      '--out-dir',
      out,
      '--name',
      name,
      '--instantiation',
      instantiation,
      '--no-wasi-shim',
      '--no-nodejs-compat',
      '--quiet',
    ],
    { stdio: 'inherit' },
  );
  quietGlue(join(out, `${name}.js`));
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
  const built = components();
  for (const wasm of Object.values(built)) {
    if (!existsSync(wasm)) {
      throw new Error(`the component ${wasm} was not built`);
    }
  }
  transpile(built, join(js, 'generated'));
  console.log(`transpiled ${built.tools} and ${built.code} into js/generated/`);
}
