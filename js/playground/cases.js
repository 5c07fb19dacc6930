// Runs the conformance cases (laid out by `cargo run -p filetools-tests
// --bin cases`) and renders their transcripts exactly as the Rust runner
// does, so a JS host can be compared byte for byte with `expected.txt`.
// Pure JS: used by the Node tests and inside the browser page alike.
import { sha256Hex } from '../src/sha256.js';

const encoder = new TextEncoder();

/** The steps of a case from its `steps.jsonl` text. */
export function parseSteps(text) {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/**
 * Runs `steps` with `tools` (from createTools); `external(change)` applies
 * an outside change to the files, and `fresh()` gives a new session over
 * them (a `session: new` step). Returns the transcript.
 */
export async function runSteps(tools, steps, external, fresh) {
  let out = '';
  let n = 0;
  for (const step of steps) {
    if (step.session !== undefined) {
      if (step.session === 'new') {
        tools = await fresh();
      } else if (step.session === 'forget_outputs') {
        tools.forgetOutputs();
      } else {
        throw new Error(`unknown session step ${step.session}`);
      }
      out += `### session: ${step.session}\n\n`;
      continue;
    }
    if (step.external !== undefined) {
      await external(step);
      out += `### outside change: ${step.external} ${step.path} (${encoder.encode(step.text).length} bytes)\n\n`;
      continue;
    }
    n += 1;
    const result = await tools.call(step.call.tool, step.call.arguments);
    out += render(n, step.call.line, result);
  }
  return out;
}

/** One call's part of a transcript. */
export function render(n, line, result) {
  let out = `### call ${n}: ${line}\n`;
  out += `### ${result.isError ? 'error' : 'ok'}; metadata: ${result.metadataJson ?? JSON.stringify(result.structuredContent)}\n`;
  let image = 0;
  for (const block of result.content) {
    if (block.type === 'text') {
      out += `${block.text}\n`;
    } else {
      const raw = result.images[image];
      image += 1;
      out += `<image ${raw.mimeType} ${raw.width}x${raw.height}, ${raw.data.length} bytes, sha256 ${sha256Hex(raw.data).slice(0, 16)}>\n`;
    }
  }
  return `${out}\n`;
}

/** Applies an outside change to a memoryFs, as the Rust in-memory host does. */
export function externalInMemory(fs, change) {
  switch (change.external) {
    case 'write':
      fs.addFile(change.path, change.text);
      break;
    case 'touch':
      fs.touch(change.path);
      break;
    case 'same_size_same_mtime':
      fs.replaceKeepingMtime(change.path, change.text);
      break;
    default:
      throw new Error(`unknown outside change ${change.external}`);
  }
}

/** Where two texts first differ, for a failure message. */
export function firstDifference(expected, actual) {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) {
      return `line ${i + 1}:\n  expected: ${JSON.stringify(a[i])}\n  actual:   ${JSON.stringify(b[i])}`;
    }
  }
  return 'no difference';
}

/** Whether two file maps (path → bytes) hold the same files. */
export function sameFiles(expected, actual) {
  if (expected.size !== actual.size) {
    return false;
  }
  for (const [path, data] of expected) {
    const other = actual.get(path);
    if (!other || other.length !== data.length || other.some((byte, i) => byte !== data[i])) {
      return false;
    }
  }
  return true;
}
