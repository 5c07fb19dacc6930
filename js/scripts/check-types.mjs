// The package's types build on the declarations jco generates for the
// component's interfaces, kept in types/generated/. This check fails when
// they no longer match a fresh transpile (after `npm run build`); run it
// with --update to take the new ones, then review index.d.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const js = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fresh = join(js, 'generated', 'interfaces');
const kept = join(js, 'types', 'generated');
const update = process.argv.includes('--update');

const names = fs
  .readdirSync(fresh)
  .filter((n) => n.startsWith('filetools-core-'))
  .sort();
const stale = [];
for (const name of names) {
  const now = fs.readFileSync(join(fresh, name), 'utf8');
  const before = fs.existsSync(join(kept, name)) ? fs.readFileSync(join(kept, name), 'utf8') : null;
  if (now !== before) {
    stale.push(name);
    if (update) {
      fs.writeFileSync(join(kept, name), now);
    }
  }
}
for (const name of fs.readdirSync(kept)) {
  if (!names.includes(name)) {
    stale.push(name);
    if (update) {
      fs.rmSync(join(kept, name));
    }
  }
}
if (stale.length > 0 && !update) {
  console.error(
    `types/generated/ is stale (${stale.join(', ')}): the WIT changed. Run \`node scripts/check-types.mjs --update\` in js/ and review types/index.d.ts.`,
  );
  process.exit(1);
}
const tsc = [
  join(js, 'node_modules', 'typescript', 'bin', 'tsc'),
  '--noEmit',
  '--strict',
  '--module',
  'nodenext',
  '--target',
  'es2022',
];
// The hand-written declarations must compile against them.
execFileSync(process.execPath, [...tsc, join(js, 'types', 'index.d.ts')], { stdio: 'inherit' });
// The adapters' declarations must compile against the SDKs' types. Those
// need @types/node, which the package does not install, so only what tsc
// says about types/ counts (the SDKs' own declarations are theirs to check).
const sdks = ['anthropic', 'openai', 'ai', 'langchain', 'gemini', 'mastra'];
const adapters = sdks.map((name) => join('types', `${name}.d.ts`));
const said = spawnSync(process.execPath, [...tsc, ...adapters], { cwd: js, encoding: 'utf8' }).stdout;
// A diagnostic is its first line and the indented lines after it.
let inOurs = false;
const ours = said
  .split('\n')
  .filter((line) => (inOurs = line.startsWith('types/') || (inOurs && line.startsWith(' '))));
if (ours.length > 0) {
  console.error(ours.join('\n'));
  process.exit(1);
}
// What the adapters give must go into each SDK's request types, and what
// each SDK answers into the adapters, without a cast.
execFileSync(process.execPath, [...tsc, '--skipLibCheck', join(js, 'test', 'types', 'adapters.ts')], {
  stdio: 'inherit',
});
console.log(
  update
    ? `updated ${stale.length} declaration files`
    : `types/generated/ matches the component (${names.length} files)`,
);
