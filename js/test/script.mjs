// The MCP session script (tests/mcp/script.json), laid out on disk, and the
// answers `filetools session` gives to its calls: what every client of
// `filetools mcp` and every SDK adapter is checked against.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { encodePng } from '../scripts/cases/png.mjs';
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
  return encodePng(
    width,
    height,
    Uint8Array.from({ length: width * height * 3 }, (_, i) => rgb[i % 3]),
  );
}
