// The playground in headless Chromium (Debian's, at /usr/bin/chromium), at
// the URL `npm run playground` prints (started as a user starts it, with
// no cargo on its PATH: it lays the cases out itself): the sample files, a read with its
// token meter, an edit with its diff and the history, each tool set with
// its descriptions and fresh arguments per tool; files added, uploaded and
// dropped; a call whose arguments are not JSON, which clears the diff the
// call before left; the layout at two widths, checked on screenshots the
// test keeps in target/playground/; and every conformance case run inside
// the page over memoryFs with the wasmtime host's transcript.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';

import { casesDir, js, workspace } from './cases.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
let server;
let emptyPath;
let browser;
let page;

/** Runs `npm run playground`'s script on a free port; resolves to the URL it prints. */
function startPlayground() {
  emptyPath = fs.mkdtempSync(join(tmpdir(), 'no-tools-'));
  server = spawn(process.execPath, [join(js, 'scripts', 'serve.mjs')], {
    cwd: js,
    env: { PATH: emptyPath, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let printed = '';
    server.stdout.on('data', (chunk) => {
      printed += chunk;
      const url = /playground: (http:\S+)/.exec(printed);
      if (url) {
        resolve(url[1]);
      }
    });
    server.on('exit', (code) => reject(new Error(`the playground exited (${code}): ${printed}`)));
  });
}

before(async () => {
  const url = await startPlayground();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = await browser.newPage();
  page.on('pageerror', (err) => console.error('page error:', err));
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'ready', null, {
    timeout: 60_000,
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
  if (emptyPath) {
    fs.rmSync(emptyPath, { recursive: true, force: true });
  }
});

async function call(tool, args) {
  await page.selectOption('#tool', tool);
  await page.fill('#args', JSON.stringify(args));
  await page.click('#call');
  await page.waitForFunction(() => document.getElementById('metadata').textContent !== '');
  const output = await page.textContent('#output');
  await page.evaluate(() => {
    document.getElementById('metadata').textContent = '';
  });
  return output;
}

test('the sample files are read and edited, with the token meter, the diff and the history', async () => {
  const files = await page.textContent('#files');
  for (const sample of [
    'README.md',
    'src/handlers.js',
    'data/items.min.json',
    'notes/analysis.ipynb',
    'windows.txt',
    'images/logo.png',
  ]) {
    assert.ok(files.includes(sample), `${sample} is a sample`);
  }
  assert.match(await call('read', { file_path: 'README.md' }), /^1\t# Playground\n/);
  assert.match(await page.textContent('#tokens'), /about \d+ tokens/);
  assert.match(
    await call('edit', { file_path: 'README.md', old_string: 'Pick a file', new_string: 'Choose a file' }),
    /^Edited README\.md/,
  );
  assert.match(await page.textContent('#diff'), /-Pick a file[^\n]*\n\+Choose a file/);
  assert.match(await call('read', { file_path: 'src/handlers.js' }), /javascript outline follows/);
  const meter = await page.textContent('#meter');
  assert.match(meter, /this answer.*tokens.*the whole file.*tokens/s);
  assert.match(meter, /\d+% fewer tokens than the whole file/);
  assert.match(await call('read', { file_path: 'images/logo.png' }), /^\[image: PNG/);
  assert.equal(await page.locator('#images img').count(), 1);
  const history = await page.locator('#history li').allTextContents();
  assert.deepEqual(
    history.slice(0, 4).map((h) => h.split(' ')[0]),
    ['read', 'read', 'edit', 'read'],
  );
  await page.locator('#history li button').nth(2).click();
  assert.match(await page.textContent('#output'), /^Edited README\.md/);
  assert.match(await page.textContent('#diff'), /\+Choose a file/);
});

test('arguments that are not JSON are refused in the page, and the diff of the call before goes', async () => {
  await call('read', { file_path: 'windows.txt' });
  assert.match(
    await call('edit', { file_path: 'windows.txt', old_string: 'first line', new_string: 'line one' }),
    /^Edited windows\.txt/,
  );
  assert.match(await page.textContent('#diff'), /-first line[^\n]*\n\+line one/);
  await page.fill('#args', '{"file_path": "windows.txt",');
  await page.click('#call');
  await page.waitForFunction(() =>
    document.getElementById('output').textContent.startsWith('the arguments are not JSON'),
  );
  assert.equal(await page.getAttribute('#output', 'class'), 'error');
  assert.equal(await page.textContent('#diff'), '');
  await page.evaluate(() => {
    document.getElementById('metadata').textContent = '';
  });
  assert.match(await call('undo', { file_path: 'windows.txt' }), /windows\.txt/);
  assert.match(await page.textContent('#diff'), /-line one[^\n]*\n\+first line/);
});

test('the search box finds lines, which an edit then changes with no read', async () => {
  await page.fill('#search-pattern', 'second line');
  await page.click('#search');
  await page.waitForFunction(() => document.getElementById('metadata').textContent !== '');
  const found = await page.textContent('#output');
  await page.evaluate(() => {
    document.getElementById('metadata').textContent = '';
  });
  assert.match(found, /^windows\.txt \[version [0-9a-f]+-\d+\]\n1-first line\n2:second line\n3-third line\n/);
  assert.match(found, /\[lines 1-3 of 3: 1 matching line in 1 file; \d+ files searched\]/);
  assert.match(
    await call('edit', { file_path: 'windows.txt', old_string: 'second line', new_string: 'line two' }),
    /^Edited windows\.txt/,
  );
  assert.match(await page.textContent('#diff'), /-second line[^\n]*\n\+line two/);
});

test('each tool set lists its tools with descriptions and schemas, and arguments start over per tool', async () => {
  await page.selectOption('#toolset', 'text-editor');
  await page.waitForFunction(() => document.getElementById('tool').value === 'str_replace_based_edit_tool');
  assert.match(await page.textContent('#tool-description'), /View, create and edit text files/);
  assert.match(await page.textContent('#tool-schema'), /"view_range"/);
  assert.deepEqual(JSON.parse(await page.inputValue('#args')), { command: 'view', path: 'README.md' });
  await page.click('#call');
  await page.waitForFunction(() => document.getElementById('output').textContent.startsWith('1\t# Playground'));

  await page.selectOption('#toolset', 'mcp-filesystem');
  await page.waitForFunction(() => document.getElementById('tool').options.length === 13);
  await page.selectOption('#tool', 'edit_file');
  const edit = JSON.parse(await page.inputValue('#args'));
  assert.deepEqual(Object.keys(edit).sort(), ['edits', 'path']);
  await page.selectOption('#tool', 'list_directory');
  assert.deepEqual(JSON.parse(await page.inputValue('#args')), { path: 'README.md' });

  await page.selectOption('#toolset', 'filetools');
  await page.waitForFunction(() => document.getElementById('tool').options.length === 7);
});

/** The width of a PNG, from its header. */
function pngWidth(file) {
  return fs.readFileSync(file).readUInt32BE(16);
}

test('the page fits a wide screen and a 400 px one, on screenshots kept in target/playground', async () => {
  const dir = join(workspace, 'target', 'playground');
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, width] of [
    ['wide', 1280],
    ['narrow', 400],
  ]) {
    await page.setViewportSize({ width, height: 900 });
    await call('read', { file_path: 'data/items.min.json' });
    const layout = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      sections: [...document.querySelectorAll('section')].map((s) => {
        const box = s.getBoundingClientRect();
        return { left: box.left, right: box.right, top: box.top };
      }),
    }));
    assert.ok(
      layout.scrollWidth <= layout.innerWidth,
      `${name}: the page is ${layout.scrollWidth} px wide in ${layout.innerWidth}`,
    );
    for (const box of layout.sections) {
      assert.ok(
        box.left >= 0 && box.right <= layout.innerWidth,
        `${name}: a section runs out of the screen: ${JSON.stringify(box)}`,
      );
    }
    const tops = layout.sections.map((s) => Math.round(s.top));
    if (width < 900) {
      assert.ok(tops[0] < tops[1] && tops[1] < tops[2], `${name}: the sections stack: ${tops}`);
    } else {
      assert.equal(new Set(tops).size, 1, `${name}: the sections stand side by side: ${tops}`);
    }
    const file = join(dir, `${name}.png`);
    await page.screenshot({ path: file });
    assert.equal(pngWidth(file), width, `${name}: the screenshot is ${width} px wide`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('files are added, uploaded and dropped; a large one reads as an outline', async () => {
  const source = Array.from(
    { length: 800 },
    (_, i) => `def handler_${i}(request):\n    return request.path + "${'y'.repeat(30)}"\n`,
  ).join('\n');
  await page.fill('#new-path', 'src/app.py');
  await page.fill('#new-content', source);
  await page.click('#add');
  assert.match(await call('read', { file_path: 'src/app.py' }), /python outline follows[\s\S]*def handler_0 \[1:2\]/);
  await page.selectOption('#tool', 'read');

  const png = fs.readdirSync(join(casesDir, 'image', 'small-png-as-is', 'tree'))[0];
  await page.setInputFiles('#upload', join(casesDir, 'image', 'small-png-as-is', 'tree', png));
  await page.waitForFunction((name) => document.getElementById('files').textContent.includes(name), png);
  assert.match(await call('read', { file_path: png }), /^\[image: PNG/);
  assert.equal(await page.locator('#images img').count(), 1);

  await page.click(`button[aria-label="drop ${png}"]`);
  assert.ok(!(await page.textContent('#files')).includes(png));
  assert.match(await call('read', { file_path: png }), /not found|does not exist|no such/i);
});

test('every conformance case passes inside the page', async () => {
  const names = JSON.parse(fs.readFileSync(join(casesDir, 'index.json'), 'utf8'));
  await page.click('#cases-panel summary');
  await page.click('#load-cases');
  await page.waitForFunction(() => document.getElementById('cases-report').textContent.endsWith('cases loaded'));
  await page.click('#run-cases');
  await page.waitForFunction(() => window.casesReport !== undefined, null, { timeout: 600_000 });
  const report = await page.evaluate(() => window.casesReport);
  assert.deepEqual(report.failures, []);
  assert.equal(report.passed, names.length);
});
