// The playground in headless Chromium (Debian's, at /usr/bin/chromium):
// a file is read, added, uploaded and dropped through the page, an image
// answer is shown as an image, and every conformance case runs inside the
// page over memoryFs with the wasmtime host's transcript.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';

import { serve } from '../scripts/serve.mjs';
import { caseNames, casesDir, workspace } from './cases.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
let server;
let browser;
let page;

before(async () => {
  caseNames();
  server = await serve(workspace);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage();
  page.on('pageerror', (err) => console.error('page error:', err));
  await page.goto(`http://127.0.0.1:${server.address().port}/js/playground/index.html`);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'ready', null, { timeout: 60_000 });
});

after(async () => {
  await browser?.close();
  server?.close();
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

test('a file is read, edited and shown with its token estimate', async () => {
  assert.match(await call('read', { file_path: 'hello.txt' }), /^1\tHello from filetools\.\n2\tEdit me/);
  assert.match(await page.textContent('#tokens'), /about \d+ tokens/);
  assert.match(await call('edit', { file_path: 'hello.txt', old_string: 'Edit me', new_string: 'Edited' }), /^Edited hello\.txt/);
});

test('files are added, uploaded and dropped; a large one reads as an outline', async () => {
  const source = Array.from({ length: 800 }, (_, i) => `def handler_${i}(request):\n    return request.path + "${'y'.repeat(30)}"\n`).join('\n');
  await page.fill('#new-path', 'src/app.py');
  await page.fill('#new-content', source);
  await page.click('#add');
  assert.match(await call('read', { file_path: 'src/app.py' }), /python outline follows[\s\S]*def handler_0 \[1:2\]/);

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
  const names = caseNames();
  await page.click('#load-cases');
  await page.waitForFunction(() => document.getElementById('cases-report').textContent.endsWith('cases loaded'));
  await page.click('#run-cases');
  await page.waitForFunction(() => window.casesReport !== undefined, null, { timeout: 600_000 });
  const report = await page.evaluate(() => window.casesReport);
  assert.deepEqual(report.failures, []);
  assert.equal(report.passed, names.length);
});
