// The MCP session script (tests/mcp/script.json), laid out on disk, and the
// answers `filetools session` gives to its calls: what every client of
// `filetools mcp` and every SDK adapter is checked against.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

import { workspace, workspaceBinary } from './cases.mjs';

export const script = JSON.parse(fs.readFileSync(join(workspace, 'tests', 'mcp', 'script.json'), 'utf8'));

/**
 * tests/mcp/every_answer.json: for every tool set, calls that succeed, are
 * refused and fault, which every MCP client must get as tool results.
 */
export const everyAnswer = JSON.parse(fs.readFileSync(join(workspace, 'tests', 'mcp', 'every_answer.json'), 'utf8'));

/** A fresh directory holding `files` (path -> text) under `label`. */
export function layOutFiles(label, files) {
  const dir = join(tmpdir(), 'filetools-every-answer', label);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [path, text] of Object.entries(files)) {
    fs.mkdirSync(join(dir, path, '..'), { recursive: true });
    fs.writeFileSync(join(dir, path), text);
  }
  return fs.realpathSync(dir);
}

/**
 * Checks one answer of every_answer.json's `call` as a client got it:
 * text for the model, an error exactly when it is not a success, and,
 * when the tool's output schema names an `error`, the code of a refusal or
 * fault. Returns why not, or null.
 */
export function answerProblem(call, result, outputSchema) {
  const texts = result.content.filter((c) => c.type === 'text').map((c) => c.text);
  if (call.tool !== 'read_media_file' && (texts.length === 0 || texts.some((t) => t === ''))) {
    return `no text for the model: ${JSON.stringify(result)}`;
  }
  if ((result.isError ?? false) !== (call.answer !== 'success')) {
    return `isError ${result.isError}: ${texts.join(' ')}`;
  }
  if (
    call.answer !== 'success' &&
    outputSchema?.properties?.error &&
    typeof result.structuredContent?.error !== 'string'
  ) {
    return `no error code: ${JSON.stringify(result.structuredContent)}`;
  }
  return null;
}

/** The CLI, as the Rust tests built it. */
export const filetools = () => workspaceBinary('agent-filetools', 'filetools');

/** The script's files as path -> bytes, generated ones included. */
export function scriptFiles() {
  const files = new Map(Object.entries(script.files).map(([path, text]) => [path, Buffer.from(text)]));
  for (const [path, spec] of Object.entries(script.generated)) {
    if (spec.repeat) {
      const { text, count } = spec.repeat;
      files.set(path, Buffer.from(Array.from({ length: count }, (_, i) => text.replaceAll('{i}', String(i))).join('')));
    } else if (spec.png) {
      files.set(path, solidPng(spec.png));
    }
  }
  return files;
}

/** A fresh directory holding the script's files; the same path every time. */
export function layOut(label) {
  const dir = join(tmpdir(), 'filetools-mcp-script', label);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [path, data] of scriptFiles()) {
    fs.mkdirSync(join(dir, path, '..'), { recursive: true });
    fs.writeFileSync(join(dir, path), data);
  }
  return fs.realpathSync(dir);
}

/** What `filetools session --root dir` answers to the script's calls. */
export function sessionAnswers(dir) {
  const input = `${script.calls.map(({ tool, args }) => JSON.stringify({ tool, args })).join('\n')}\n`;
  const run = spawnSync(filetools(), ['session', '--root', dir], { input, encoding: 'utf8' });
  if (run.status !== 0) {
    throw new Error(`filetools session failed: ${run.stderr}`);
  }
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** A PNG of one colour, RGB, 8 bits a channel. */
function solidPng({ width, height, rgb }) {
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
    }
  }
  return (crc ^ 0xffffffff) >>> 0;
}
