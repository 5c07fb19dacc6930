// A grep's files scanned, and a find's directories walked, on the Node
// host's own threads (scanpool.js): the same answers, byte for byte, as the
// component scanning each file and walking each directory itself, in every
// mode, with binary files, a file that is not UTF-8, ignored and hidden
// directories, nested ignore files and a file that is not there any more.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { createTools, nodeFs } from '../src/node.js';
import { packedOutcomes, unpackedOutcomes } from '../src/scanpool.js';

/** 40 directories of 30 files: matches in most, binary and legacy-encoded ones among them. */
function tree() {
  const root = join(tmpdir(), 'filetools-js-scanpool', String(process.pid));
  fs.rmSync(root, { recursive: true, force: true });
  const ignored = [];
  for (let d = 0; d < 40; d += 1) {
    const dir = join(root, `d${String(d).padStart(2, '0')}`);
    fs.mkdirSync(dir, { recursive: true });
    ignored.push(`d${String(d).padStart(2, '0')}-skip/`);
    fs.mkdirSync(`${dir}-skip`);
    fs.writeFileSync(join(`${dir}-skip`, 'x.txt'), 'needle\n');
    for (let f = 0; f < 30; f += 1) {
      const body =
        [
          Buffer.from('\x00\x01binary needle'),
          Buffer.from('nothing here\n'),
          Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x0a]),
        ][f % 7] ?? Buffer.from(`a needle ${d} ${f}\nmore\nneedle again fn x_with(\n`);
      fs.writeFileSync(join(dir, `f${String(f).padStart(2, '0')}.txt`), body);
    }
  }
  fs.writeFileSync(join(root, '.gitignore'), `${ignored.join('\n')}\n`);
  return root;
}

/** The hostFs of `nodeFs(root)`, counting the batches its threads took. */
function counted(root) {
  const inner = nodeFs(root);
  const taken = { batches: 0 };
  const scanStart = inner.hostFs.scanStart;
  inner.hostFs.scanStart = (files, request) => {
    const ticket = scanStart(files, request);
    if (ticket !== undefined) {
      taken.batches += 1;
    }
    return ticket;
  };
  return { fs: inner, taken };
}

test("a grep scanned on the host's threads answers as one scanned file by file", async () => {
  const root = tree();
  const { fs: threaded, taken } = counted(root);
  const withThreads = await createTools({ fs: threaded, config: { max_output_tokens: 1_000_000 } });
  const alone = await createTools({
    fs: { ...nodeFs(root), hostFs: { ...nodeFs(root).hostFs, scanStart: undefined, scanResults: undefined } },
    config: { max_output_tokens: 1_000_000 },
  });
  // The first request starts the threads; they answer once they are ready.
  await withThreads.call('grep', { pattern: 'needle', output_mode: 'count' });
  for (let waited = 0; taken.batches === 0 && waited < 100; waited += 1) {
    await new Promise((done) => setTimeout(done, 100));
    await withThreads.call('grep', { pattern: 'needle', output_mode: 'count' });
  }
  assert.ok(taken.batches > 0, "the host's threads never took a batch");
  const before = taken.batches;
  for (const args of [
    { pattern: 'needle', output_mode: 'count' },
    { pattern: 'needle', output_mode: 'files_with_matches' },
    { pattern: 'fn \\w+_with\\(', output_mode: 'files_with_matches' },
    { pattern: 'needle', output_mode: 'content', head_limit: 50 },
    { pattern: 'NEEDLE', '-i': true, output_mode: 'count', offset: 7 },
  ]) {
    const [one, many] = [await alone.call('grep', args), await withThreads.call('grep', args)];
    assert.equal(many.content[0].text, one.content[0].text, JSON.stringify(args));
    assert.deepEqual(many.structuredContent, one.structuredContent, JSON.stringify(args));
  }
  assert.ok(taken.batches > before, 'the comparisons were not scanned on the threads');
  // A file removed since the last call: the same answer again.
  fs.rmSync(join(root, 'd05', 'f03.txt'));
  const gone = await withThreads.call('grep', { pattern: 'needle', output_mode: 'count' });
  assert.equal(
    gone.content[0].text,
    (await alone.call('grep', { pattern: 'needle', output_mode: 'count' })).content[0].text,
  );
  fs.rmSync(root, { recursive: true, force: true });
});

test("a find walked on the host's threads answers as one walked directory by directory", async () => {
  const root = tree();
  // Ignore files below the root, hidden and ignored directories inside
  // the directories handed off, and a deeper level handed off too.
  fs.writeFileSync(join(root, 'd03', '.gitignore'), '*.txt\n!f01.txt\n');
  for (let d = 0; d < 40; d += 4) {
    fs.mkdirSync(join(root, `d${String(d).padStart(2, '0')}`, '.cache', 'deep'), { recursive: true });
    fs.writeFileSync(join(root, `d${String(d).padStart(2, '0')}`, '.cache', 'deep', 'c.txt'), 'c\n');
  }
  for (let q = 0; q < 10; q += 1) {
    fs.mkdirSync(join(root, 'd07', 'deep', `q${q}`), { recursive: true });
    fs.writeFileSync(join(root, 'd07', 'deep', `q${q}`, 'g.rs'), 'g\n');
  }
  const inner = nodeFs(root);
  const walked = { batches: 0 };
  const walkStart = inner.hostFs.walkStart;
  inner.hostFs.walkStart = (dirs, request) => {
    const ticket = walkStart(dirs, request);
    walked.batches += ticket === undefined ? 0 : 1;
    return ticket;
  };
  const withThreads = await createTools({ fs: inner, config: { max_output_tokens: 1_000_000 } });
  const alone = await createTools({
    fs: { ...nodeFs(root), hostFs: { ...nodeFs(root).hostFs, walkStart: undefined, walkResults: undefined } },
    config: { max_output_tokens: 1_000_000 },
  });
  const every = { pattern: '*', head_limit: 100_000 };
  for (let waited = 0; walked.batches === 0 && waited < 100; waited += 1) {
    await withThreads.call('find', every);
    await new Promise((done) => setTimeout(done, 100));
  }
  assert.ok(walked.batches > 0, "the host's threads never took a walk");
  const before = walked.batches;
  for (const args of [
    every,
    { pattern: '**/*.rs' },
    { pattern: '*', hidden: true, head_limit: 100_000 },
    { pattern: '*', no_ignore: true, head_limit: 100_000, offset: 40 },
    { pattern: '*', path: 'd07/deep' },
  ]) {
    const [one, many] = [await alone.call('find', args), await withThreads.call('find', args)];
    assert.equal(many.content[0].text, one.content[0].text, JSON.stringify(args));
    assert.deepEqual(many.structuredContent, one.structuredContent, JSON.stringify(args));
  }
  assert.ok(walked.batches > before, 'the comparisons were not walked on the threads');
  fs.rmSync(root, { recursive: true, force: true });
});

test('a back end that filters the listings of nodeFs is walked and scanned through its filter, never on the threads', async () => {
  const root = tree();
  const inner = nodeFs(root);
  // Inside every directory a find would hand off, and the root's d05.
  const hidden = (entries) => entries.filter((entry) => entry.name !== 'f00.txt' && entry.name !== 'd05');
  const filtered = {
    ...inner,
    hostFs: {
      ...inner.hostFs,
      listDir: (path) => hidden(inner.hostFs.listDir(path)),
      listNames: (path) => hidden(inner.hostFs.listNames(path)),
    },
  };
  const tools = await createTools({ fs: filtered, config: { max_output_tokens: 1_000_000 } });
  // Long enough for the threads to have started, were they used.
  for (let n = 0; n < 5; n += 1) {
    await tools.call('find', { pattern: '*', head_limit: 100_000 });
    await tools.call('grep', { pattern: 'needle', output_mode: 'files_with_matches' });
    await new Promise((done) => setTimeout(done, 100));
  }
  const found = (await tools.call('find', { pattern: '*', head_limit: 100_000 })).content[0].text;
  const matched = (await tools.call('grep', { pattern: 'needle', output_mode: 'files_with_matches' })).content[0].text;
  assert.ok(
    found.includes('d04/f01.txt') && !found.includes('f00.txt') && !found.includes('d05/'),
    found.slice(0, 300),
  );
  assert.ok(matched.includes('d04/') && !matched.includes('d05/'), matched.slice(0, 300));
  fs.rmSync(root, { recursive: true, force: true });
});

test("a batch's outcomes cross between threads packed, and come back as they were", () => {
  const outcomes = [
    { tag: 'ok', val: { tag: 'matches', val: 0n } },
    { tag: 'ok', val: { tag: 'binary' } },
    { tag: 'ok', val: { tag: 'too-large' } },
    { tag: 'ok', val: { tag: 'matches', val: 2n ** 40n } },
  ];
  const packed = packedOutcomes(outcomes);
  assert.ok(packed.kinds instanceof Uint8Array && packed.counts instanceof BigUint64Array);
  assert.deepEqual(unpackedOutcomes(structuredClone(packed)), outcomes);
  // An error among them: the list goes as it is.
  assert.equal(packedOutcomes([...outcomes, { tag: 'err', val: { tag: 'not-found' } }]), undefined);
  // So does one of a kind the packing does not know.
  assert.equal(packedOutcomes([...outcomes, { tag: 'ok', val: { tag: 'skipped' } }]), undefined);
});
