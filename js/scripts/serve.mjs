// `npm run playground`: serves the workspace over HTTP on localhost so the
// playground (js/playground/) can load the package and the component (built
// by `npm run build`), and the conformance cases, which it lays out into
// target/js-cases/ at each start (scripts/cases/layout.mjs). A directory
// serves its index.html.
import { createServer } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layOutCases } from './cases/layout.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** Serves the files under `root` on `port` (0: any free one); resolves to the server. */
export function serve(root, port = 0) {
  const base = resolve(root);
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      response.writeHead(403).end();
      return;
    }
    let stats;
    try {
      stats = statSync(file);
    } catch {
      response.writeHead(404).end();
      return;
    }
    if (stats.isDirectory()) {
      if (!path.endsWith('/')) {
        response.writeHead(301, { location: `${path}/` }).end();
        return;
      }
      file = join(file, 'index.html');
      try {
        stats = statSync(file);
      } catch {
        response.writeHead(404).end();
        return;
      }
    }
    if (!stats.isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': stats.size,
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((done) => server.listen(port, '127.0.0.1', () => done(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const workspace = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
  if (!existsSync(join(workspace, 'js', 'generated', 'filetools.js'))) {
    console.error('the component is not built: run `npm run build` first');
    process.exit(1);
  }
  // The conformance cases for the page's case panel, laid out afresh at
  // each start (two seconds), their generated inputs drawn in JavaScript:
  // nothing more is built.
  const cases = layOutCases(join(workspace, 'target', 'js-cases'));
  console.log(`${cases.length} conformance cases laid out in target/js-cases`);
  const server = await serve(workspace, Number(process.env.PORT ?? 8080));
  console.log(`playground: http://127.0.0.1:${server.address().port}/js/playground/`);
}
