// `node scripts/cases/layout.mjs OUT`: lays every conformance case out under
// OUT/<area>/<name>/ in the form the Rust `cases` binary writes
// (tests/layout/src/bin/cases.rs): tree/ and tree.json, after/ and
// after.json, config.json, steps.jsonl, expected.txt, and OUT/index.json.
// Generated inputs are drawn here, byte for byte as the Rust side draws
// them, so the playground needs no Rust build for its cases.
import * as fs from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeIn } from './encodings.mjs';
import { drawImage } from './image.mjs';
import { writePdf } from './pdf.mjs';

const SESSION_STEPS = ['new', 'forget_outputs'];
const GENERATED_FIELDS = ['path', 'hex_prefix', 'image', 'pdf', 'prefix', 'repeat', 'times', 'suffix', 'encoding'];
const EXTERNAL_FIELDS = ['external', 'path', 'text'];

/** The folder of the cases in the repository. */
export const casesSource = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'tests', 'cases');

/**
 * Lays every case under `source` out under `out`, made afresh beside it and
 * then put in its place, so that a reader never sees a half-made layout;
 * returns the case names.
 */
export function layOutCases(out, source = casesSource) {
  const fresh = `${out}.${process.pid}`;
  fs.rmSync(fresh, { recursive: true, force: true });
  const names = [];
  try {
    for (const area of sortedDirs(source)) {
      for (const name of sortedDirs(join(source, area))) {
        const caseName = `${area}/${name}`;
        layOutCase(join(source, area, name), join(fresh, area, name), caseName);
        names.push(caseName);
      }
    }
  } catch (err) {
    fs.rmSync(fresh, { recursive: true, force: true });
    throw err;
  }
  fs.mkdirSync(fresh, { recursive: true });
  fs.writeFileSync(join(fresh, 'index.json'), JSON.stringify(names, null, 2));
  const old = `${fresh}.old`;
  if (fs.existsSync(out)) {
    fs.renameSync(out, old);
  }
  fs.renameSync(fresh, out);
  fs.rmSync(old, { recursive: true, force: true });
  return names;
}

function layOutCase(dir, out, name) {
  const steps = readSteps(dir, name);
  const tree = join(out, 'tree');
  fs.mkdirSync(tree, { recursive: true });
  if (fs.existsSync(join(dir, 'fs'))) {
    fs.cpSync(join(dir, 'fs'), tree, { recursive: true });
  }
  for (const generated of readJson(join(dir, 'generate.json'), name) ?? []) {
    const path = join(tree, generated.path);
    fs.mkdirSync(dirname(path), { recursive: true });
    fs.writeFileSync(path, draw(generated, name));
  }
  const initial = listFiles(tree);
  fs.writeFileSync(join(out, 'tree.json'), JSON.stringify(initial));
  const afterSource = fs.existsSync(join(dir, 'fs.after')) ? join(dir, 'fs.after') : tree;
  const after = listFiles(afterSource);
  for (const file of after) {
    const target = join(out, 'after', file);
    fs.mkdirSync(dirname(target), { recursive: true });
    fs.copyFileSync(join(afterSource, file), target);
  }
  fs.writeFileSync(join(out, 'after.json'), JSON.stringify(after));
  const config = join(dir, 'config.json');
  fs.writeFileSync(join(out, 'config.json'), fs.existsSync(config) ? fs.readFileSync(config) : '{}');
  fs.writeFileSync(join(out, 'steps.jsonl'), steps.map((step) => `${JSON.stringify(step)}\n`).join(''));
  fs.copyFileSync(join(dir, 'expected.txt'), join(out, 'expected.txt'));
}

/** The case's calls and outside changes, one object per line of `calls.jsonl`. */
function readSteps(dir, name) {
  const text = fs.readFileSync(join(dir, 'calls.jsonl'), 'utf8');
  return text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const value = JSON.parse(line);
      if ('session' in value) {
        if (!SESSION_STEPS.includes(value.session)) {
          throw new Error(`${name}: unknown session step ${line}`);
        }
        return { session: value.session };
      }
      if ('external' in value) {
        known(value, EXTERNAL_FIELDS, `${name}: bad external step ${line}`);
        return { external: value.external, path: value.path, text: value.text ?? '' };
      }
      if (typeof value.tool !== 'string') {
        throw new Error(`${name}: call without a tool: ${line}`);
      }
      return { call: { arguments: JSON.stringify(value.args ?? {}), line, tool: value.tool } };
    });
}

/** The bytes of a generated input. */
function draw(generated, name) {
  known(generated, GENERATED_FIELDS, `${name}: bad generate.json`);
  if (generated.image) {
    return drawImage(generated.image);
  }
  if (generated.pdf) {
    return writePdf(generated.pdf);
  }
  const hex = generated.hex_prefix ?? '';
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) {
    throw new Error(`${name}: bad hex_prefix`);
  }
  let text = generated.prefix ?? '';
  for (let n = 0; n < (generated.times ?? 0); n += 1) {
    text += (generated.repeat ?? '').replaceAll('{n}', String(n));
  }
  text += generated.suffix ?? '';
  const body = generated.encoding ? encodeIn(generated.encoding, text) : new TextEncoder().encode(text);
  return Buffer.concat([Buffer.from(hex, 'hex'), body]);
}

function known(object, fields, message) {
  const unknown = Object.keys(object).filter((key) => !fields.includes(key));
  if (unknown.length > 0) {
    throw new Error(`${message}: unknown field ${unknown[0]}`);
  }
}

function readJson(path, name) {
  if (!fs.existsSync(path)) {
    return undefined;
  }
  try {
    return JSON.parse(fs.readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${name}: bad ${relative(dirname(dirname(path)), path)}: ${err.message}`);
  }
}

/** The subdirectories of `dir`, in byte order. */
function sortedDirs(dir) {
  return byBytes(
    fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name),
  );
}

/** Every file under `dir` by `/`-separated relative path, in byte order. */
function listFiles(dir) {
  const walk = (at) =>
    fs.readdirSync(at, { withFileTypes: true }).flatMap((entry) => {
      const path = join(at, entry.name);
      return entry.isDirectory() ? walk(path) : [relative(dir, path).split(sep).join('/')];
    });
  return byBytes(walk(dir));
}

function byBytes(names) {
  return names.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node scripts/cases/layout.mjs OUT');
    process.exit(2);
  }
  const names = layOutCases(resolve(out));
  console.log(`${names.length} cases laid out in ${out}`);
}
