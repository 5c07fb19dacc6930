// `node scripts/session.mjs --root DIR [--tools SETS] [--config JSON]`: a
// session of the npm package over nodeFs(DIR) that speaks the line protocol
// of `filetools session` — one `{"tool": ..., "args": {...}}` per input line,
// one result (JSON) per output line, in order — so that the reliability
// suite drives a Node agent exactly as it drives the CLI (kills included).
// `--memory-mib N` is taken and ignored: the Node host sets no memory cap.
import { createInterface } from 'node:readline';

import { createTools, nodeFs } from '../src/node.js';

const options = { root: undefined, tools: undefined, config: {} };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 2) {
  const [flag, value] = [args[i], args[i + 1]];
  if (value === undefined) {
    throw new Error(`${flag} needs a value`);
  }
  if (flag === '--root') options.root = value;
  else if (flag === '--tools') options.tools = value.split(',');
  else if (flag === '--config') options.config = JSON.parse(value);
  else if (flag !== '--memory-mib') throw new Error(`unknown argument ${flag}`);
}
if (options.root === undefined) {
  throw new Error('--root DIR is needed');
}
const config = options.tools ? { ...options.config, tools: options.tools } : options.config;
const fs = nodeFs(options.root);
if (fs.stateRefusal) {
  console.error(`filetools: ${fs.stateRefusal}`);
}
const session = await createTools({ fs, config });

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  let answer;
  try {
    const { tool, args: toolArgs = {} } = JSON.parse(line);
    answer = await session.call(tool, toolArgs);
  } catch (err) {
    answer = { content: [{ type: 'text', text: `Error: ${err.message}` }], isError: true };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
