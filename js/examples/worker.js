// A Worker that serves the tools over HTTP, as a Worker importing the
// package would (`import ... from 'agent-filetools'` resolves its `workerd`
// export). POST a call `{ "tool": "read", "args": { ... } }`:
//
// - to /memory: a session over memoryFs, kept by the isolate between
//   requests (a sample file and a large one to outline come with it);
// - to /storage: a session inside a Durable Object whose files live in its
//   synchronous key-value storage (`ctx.storage.kv`), so they outlast the
//   session; POST /storage/seed with `{ "files": { path: text } }` first.
//
// test/workerd.test.mjs runs it on workerd and drives it over HTTP.
import { DurableObject } from 'cloudflare:workers';
import { loadTools, memoryFs } from 'agent-filetools';

const big = Array.from(
  { length: 3000 },
  (_, i) => `export function handler${i}(request) {\n  return request.path + ${i};\n}\n`,
).join('\n');

let memorySession;

/** The isolate's session over memoryFs, opened at the first request. */
function memory() {
  memorySession ??= loadTools({ fs: memoryFs({ 'a.txt': 'alpha\nbeta\n', 'big.js': big }) }).then((tools) =>
    tools.session(),
  );
  return memorySession;
}

/** A Durable Object storage's key-value API as the Map memoryFs keeps its nodes in. */
function kvStore(kv) {
  return {
    get: (key) => kv.get(key),
    set: (key, value) => kv.put(key, value),
    has: (key) => kv.get(key) !== undefined,
    delete: (key) => kv.delete(key),
    keys: () => [...kv.list()].map(([key]) => key),
    entries: () => [...kv.list()],
  };
}

/** Files in a Durable Object's storage, with one session over them. */
export class Files extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.fs = memoryFs({}, { store: kvStore(ctx.storage.kv) });
  }

  async fetch(request) {
    const body = await request.json();
    if (new URL(request.url).pathname.endsWith('/seed')) {
      for (const [path, text] of Object.entries(body.files)) {
        this.fs.addFile(path, text);
      }
      return Response.json({ files: [...this.fs.files().keys()] });
    }
    this.session ??= await (await loadTools({ fs: this.fs })).session();
    return Response.json(await this.session.call(body.tool, body.args));
  }
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (request.method !== 'POST') {
      return new Response('POST a call to /memory or /storage\n', { status: 405 });
    }
    if (pathname.startsWith('/storage')) {
      return env.FILES.get(env.FILES.idFromName('workspace')).fetch(request);
    }
    const body = await request.json();
    return Response.json(await (await memory()).call(body.tool, body.args));
  },
};
