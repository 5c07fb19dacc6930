// The playground: files in memory, any tool called with JSON arguments, the
// exact answer (text and images) with its estimated tokens, and the
// conformance cases, loadable one by one or run all at once in the page.
import { createTools, memoryFs } from '../src/browser.js';
import { externalInMemory, firstDifference, parseSteps, runSteps, sameFiles } from './cases.js';

const $ = (id) => document.getElementById(id);
/** Where `cargo run -p filetools-tests --bin cases` lays the cases out. */
const CASES = new URL('../../target/js-cases/', import.meta.url);

let fs = memoryFs({ 'hello.txt': 'Hello from filetools.\nEdit me with the edit tool.\n' });
let tools;
let config = '{}';

async function newSession() {
  tools = await createTools({ fs, config });
  $('status').textContent = 'ready';
  renderFiles();
}

function renderFiles() {
  const list = $('files');
  list.replaceChildren();
  for (const [path, data] of fs.files()) {
    const item = document.createElement('li');
    const name = document.createElement('code');
    name.textContent = `${path} (${data.length} bytes)`;
    name.title = 'read it';
    name.addEventListener('click', () => {
      $('tool').value = 'read';
      $('args').value = JSON.stringify({ file_path: path });
    });
    const drop = document.createElement('button');
    drop.textContent = 'drop';
    drop.setAttribute('aria-label', `drop ${path}`);
    drop.addEventListener('click', () => {
      fs.remove(path);
      renderFiles();
    });
    item.append(name, drop);
    list.append(item);
  }
}

function show(result) {
  $('output').textContent = result.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
  $('output').classList.toggle('error', result.isError);
  $('images').replaceChildren(
    ...result.content
      .filter((b) => b.type === 'image')
      .map((b) => {
        const img = document.createElement('img');
        img.src = `data:${b.mimeType};base64,${b.data}`;
        img.alt = 'image returned by read';
        return img;
      }),
  );
  const tokens = result.structuredContent?.estimated_tokens;
  $('tokens').textContent = tokens === undefined ? '' : `(about ${tokens} tokens)`;
  $('metadata').textContent = JSON.stringify(result.structuredContent, null, 2);
  renderFiles();
}

$('call-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  let args;
  try {
    args = JSON.parse($('args').value || '{}');
  } catch (err) {
    show({ content: [{ type: 'text', text: `the arguments are not JSON: ${err.message}` }], isError: true, structuredContent: {} });
    return;
  }
  show(await tools.call($('tool').value, args));
});

$('reset').addEventListener('click', newSession);

$('add-form').addEventListener('submit', (event) => {
  event.preventDefault();
  fs.addFile($('new-path').value.trim(), $('new-content').value);
  $('new-path').value = '';
  $('new-content').value = '';
  renderFiles();
});

async function addFiles(list) {
  for (const file of list) {
    fs.addFile(file.name, new Uint8Array(await file.arrayBuffer()));
  }
  renderFiles();
}
$('upload').addEventListener('change', (event) => addFiles(event.target.files));
$('drop').addEventListener('dragover', (event) => {
  event.preventDefault();
  $('drop').classList.add('over');
});
$('drop').addEventListener('dragleave', () => $('drop').classList.remove('over'));
$('drop').addEventListener('drop', (event) => {
  event.preventDefault();
  $('drop').classList.remove('over');
  addFiles(event.dataTransfer.files);
});

async function fetchText(path) {
  const response = await fetch(new URL(path, CASES));
  if (!response.ok) {
    throw new Error(`${path}: ${response.status}`);
  }
  return response.text();
}

async function fetchTree(name, part) {
  const listing = JSON.parse(await fetchText(`${name}/${part}.json`));
  const files = new Map();
  for (const path of listing) {
    const response = await fetch(new URL(`${name}/${part}/${path.split('/').map(encodeURIComponent).join('/')}`, CASES));
    files.set(path, new Uint8Array(await response.arrayBuffer()));
  }
  return files;
}

async function loadCase(name) {
  const [tree, after, configText, steps, expected] = await Promise.all([
    fetchTree(name, 'tree'),
    fetchTree(name, 'after'),
    fetchText(`${name}/config.json`),
    fetchText(`${name}/steps.jsonl`).then(parseSteps),
    fetchText(`${name}/expected.txt`),
  ]);
  return { tree, after, config: configText, steps, expected };
}

/** Runs every case in the page; the report says how many passed. */
async function runAll(names) {
  const failures = [];
  for (const name of names) {
    const c = await loadCase(name);
    const caseFs = memoryFs(Object.fromEntries(c.tree));
    const caseTools = await createTools({ fs: caseFs, config: c.config });
    const transcript = await runSteps(caseTools, c.steps, (change) => externalInMemory(caseFs, change));
    if (transcript !== c.expected) {
      failures.push(`${name}: ${firstDifference(c.expected, transcript)}`);
    } else if (!sameFiles(c.after, caseFs.files())) {
      failures.push(`${name}: the files left differ`);
    }
  }
  return { passed: names.length - failures.length, failed: failures.length, failures };
}

let names = [];
$('load-cases').addEventListener('click', async () => {
  try {
    names = JSON.parse(await fetchText('index.json'));
  } catch (err) {
    $('cases-report').textContent = `no cases found (${err.message}); lay them out with: cargo run -p filetools-tests --bin cases -- target/js-cases`;
    return;
  }
  $('case').replaceChildren(...names.map((n) => new Option(n, n)));
  for (const id of ['case', 'open-case', 'run-cases']) {
    $(id).disabled = false;
  }
  $('cases-report').textContent = `${names.length} cases loaded`;
});

$('open-case').addEventListener('click', async () => {
  const name = $('case').value;
  const c = await loadCase(name);
  fs = memoryFs(Object.fromEntries(c.tree));
  config = c.config;
  await newSession();
  const first = c.steps.find((s) => s.call);
  if (first) {
    $('tool').value = first.call.tool;
    $('args').value = JSON.stringify(JSON.parse(first.call.arguments), null, 1);
  }
  $('cases-report').textContent = `${name}: config ${c.config}\n${c.steps.map((s) => (s.call ? s.call.line : `(outside change: ${s.external} ${s.path})`)).join('\n')}`;
});

$('run-cases').addEventListener('click', async () => {
  $('cases-report').textContent = `running ${names.length} cases…`;
  const report = await runAll(names);
  window.casesReport = report;
  $('cases-report').textContent = `${report.passed} passed, ${report.failed} failed\n${report.failures.join('\n')}`;
});

window.filetools = { runAll, loadCase };
newSession().catch((err) => {
  $('status').textContent = `failed: ${err.message}`;
});
