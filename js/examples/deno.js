// The package under Deno, as a project that depends on it uses it:
// `import ... from 'agent-filetools'` resolves the package's "deno" export.
// test/deno.test.mjs runs it with the least privilege each back end needs.
// Prints one JSON line of what it saw; with a root argument it works over
// nodeFs(root), else over memoryFs.
import { createTools, loadTools, memoryFs, nodeFs } from 'agent-filetools';

const root = Deno.args[0];
const big = Array.from(
  { length: 3000 },
  (_, i) => `export function handler${i}(request) {\n  return request.path + ${i};\n}\n`,
).join('\n');
const fs = root ? nodeFs(root) : memoryFs({ 'a.txt': 'alpha\nbeta\n', 'big.js': big });
const started = performance.now();
const tools = await (await loadTools({ fs })).session();
const ready = performance.now() - started;
const text = async (tool, args) => {
  const result = await tools.call(tool, args);
  return { error: result.isError, text: result.content.map((b) => b.text ?? '').join('\n') };
};
const read = await text('read', { file_path: 'a.txt' });
const edit = await text('edit', { file_path: 'a.txt', old_string: 'beta', new_string: 'BETA' });
const reread = await text('read', { file_path: 'a.txt' });
const outline = root ? null : await text('read', { file_path: 'big.js' });
const other = await createTools({ fs });
console.log(
  JSON.stringify({
    read,
    edit,
    reread,
    outline,
    ready,
    second: (await other.call('read', { file_path: 'a.txt' })).isError,
    // Why changes under way are kept in memory, not on disk (nodeFs).
    stateRefusal: fs.stateRefusal ?? null,
  }),
);
