// The package's types build on the declarations jco generates for the
// component's interfaces, kept in types/generated/. This check fails when
// they no longer match a fresh transpile (after `npm run build`); run it
// with --update to take the new ones, then review index.d.ts.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const js = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fresh = join(js, 'generated', 'interfaces');
const kept = join(js, 'types', 'generated');
const update = process.argv.includes('--update');

const names = fs.readdirSync(fresh).filter((n) => n.startsWith('filetools-core-')).sort();
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
  console.error(`types/generated/ is stale (${stale.join(', ')}): the WIT changed. Run \`node scripts/check-types.mjs --update\` in js/ and review types/index.d.ts.`);
  process.exit(1);
}
// The hand-written declarations must compile against them.
execFileSync(
  process.execPath,
  [join(js, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', join(js, 'types', 'index.d.ts')],
  { stdio: 'inherit' },
);
// What the adapters give must go into each SDK's request types without a
// cast (the SDKs' own declarations are theirs to check).
execFileSync(
  process.execPath,
  [join(js, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--skipLibCheck', join(js, 'test', 'types', 'adapters.ts')],
  { stdio: 'inherit' },
);
console.log(update ? `updated ${stale.length} declaration files` : `types/generated/ matches the component (${names.length} files)`);
