// The playground: sample files in memory, every tool set with each tool's
// description and schema, arguments that start over for each tool, a call
// history, the answer with a meter of what it cost against the whole file,
// and what a change did to the files as a diff. The conformance cases can be
// loaded one by one or all run in the page.
import { createTools, memoryFs } from '../src/browser.js';
import { externalInMemory, firstDifference, parseSteps, runSteps, sameFiles } from './cases.js';
import { changes } from './diff.js';
import { samples } from './samples.js';

const $ = (id) => document.getElementById(id);
/** Where `npm run playground` (scripts/cases/layout.mjs) lays the cases out. */
const CASES = new URL('../../target/js-cases/', import.meta.url);
/** Bytes per token of the default config, for the whole file's estimate. */
const BYTES_PER_TOKEN = 4;
/** Arguments that name the file a call is about, by tool shape. */
const PATH_KEYS = ['file_path', 'path', 'notebook_path'];

let fs;
let tools;
let config = {};
let definitions = [];
let selected = 'README.md';
const history = [];

/** The session config for the tool set chosen. */
function toolsConfig(set) {
  const with_core = set === 'apply-patch' || set === 'notebook' ? [set, 'filetools'] : [set];
  return { tools: with_core };
}

async function newSession() {
  tools = await createTools({ fs, config });
  definitions = tools.schema('mcp');
  $('tool').replaceChildren(...definitions.map((d) => new Option(d.name, d.name)));
  showTool();
  $('status').textContent = 'ready';
  renderFiles();
}

/** A first set of arguments for `definition`: its required ones, the path the selected file. */
function template(definition) {
  const schema = definition.inputSchema;
  const args = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const required = (property.description ?? '').includes('Required.') || (schema.required ?? []).includes(name);
    if (PATH_KEYS.includes(name)) {
      args[name] = selected;
    } else if (property.enum) {
      args[name] = property.enum[0];
    } else if (required) {
      const type = Array.isArray(property.type) ? property.type[0] : property.type;
      args[name] = type === 'array' ? [] : type === 'integer' ? 1 : type === 'boolean' ? false : '';
    }
  }
  if (definition.name === 'apply_patch') {
    args.input = `*** Begin Patch\n*** Update File: ${selected}\n@@\n-old line\n+new line\n*** End Patch`;
  }
  return args;
}

/** Shows the chosen tool's description and schema, and starts its arguments over. */
function showTool() {
  const definition = definitions.find((d) => d.name === $('tool').value) ?? definitions[0];
  if (!definition) {
    return;
  }
  $('tool-description').textContent = definition.description;
  $('tool-schema').textContent = JSON.stringify(definition.inputSchema, null, 2);
  $('args').value = JSON.stringify(template(definition), null, 1);
}

function renderFiles() {
  const list = $('files');
  list.replaceChildren();
  for (const [path, data] of fs.files()) {
    const item = document.createElement('li');
    item.classList.toggle('selected', path === selected);
    const name = document.createElement('button');
    name.className = 'file';
    name.textContent = path;
    name.title = `use ${path} in the arguments`;
    name.addEventListener('click', () => {
      selected = path;
      const args = safeArgs();
      for (const key of PATH_KEYS) {
        if (key in args) {
          args[key] = path;
        }
      }
      $('args').value = JSON.stringify(args, null, 1);
      renderFiles();
    });
    const size = document.createElement('span');
    size.className = 'size';
    size.textContent = `${data.length.toLocaleString()} B`;
    const drop = document.createElement('button');
    drop.textContent = '×';
    drop.setAttribute('aria-label', `drop ${path}`);
    drop.addEventListener('click', () => {
      fs.remove(path);
      renderFiles();
    });
    item.append(name, size, drop);
    list.append(item);
  }
}

function safeArgs() {
  try {
    return JSON.parse($('args').value || '{}');
  } catch {
    return {};
  }
}

/** A bar of `tokens` against `most`. */
function bar(label, tokens, most, kind) {
  const row = document.createElement('div');
  row.className = `bar ${kind}`;
  const name = document.createElement('span');
  name.textContent = label;
  const track = document.createElement('span');
  track.className = 'track';
  const fill = document.createElement('span');
  fill.className = 'fill';
  fill.style.width = `${Math.max(1, Math.round((100 * tokens) / Math.max(most, 1)))}%`;
  track.append(fill);
  const value = document.createElement('span');
  value.textContent = `${tokens.toLocaleString()} tokens`;
  row.append(name, track, value);
  return row;
}

/** What the answer cost against the whole file the call named. */
function meter(result, args) {
  const tokens = result.structuredContent?.estimated_tokens;
  const path = PATH_KEYS.map((k) => args[k]).find((p) => typeof p === 'string');
  const file = path === undefined ? undefined : fs.files().get(path.replace(/^\.\//, ''));
  if (tokens === undefined || file === undefined) {
    $('meter').replaceChildren();
    return;
  }
  const whole = Math.ceil(file.length / BYTES_PER_TOKEN);
  const most = Math.max(tokens, whole);
  const rows = [bar('this answer', tokens, most, 'answer'), bar('the whole file', whole, most, 'whole')];
  if (whole > tokens) {
    const note = document.createElement('p');
    note.textContent = `${Math.round(100 - (100 * tokens) / whole)}% fewer tokens than the whole file.`;
    rows.push(note);
  }
  $('meter').replaceChildren(...rows);
}

/** The diff of what a call changed, as lines. */
function showDiff(before, after) {
  const found = changes(before, after);
  $('diff').replaceChildren(
    ...found.map(({ path, lines }) => {
      const block = document.createElement('pre');
      block.className = 'diff';
      block.append(
        ...[`--- ${path}`, ...lines].map((line) => {
          const span = document.createElement('span');
          span.className = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx';
          span.textContent = `${line}\n`;
          return span;
        }),
      );
      return block;
    }),
  );
}

function show(result, args = {}) {
  $('output').textContent = result.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
  $('output').classList.toggle('error', result.isError);
  $('images').replaceChildren(
    ...result.content
      .filter((b) => b.type === 'image')
      .map((b) => {
        const img = document.createElement('img');
        img.src = `data:${b.mimeType};base64,${b.data}`;
        img.alt = 'image returned by the tool';
        return img;
      }),
  );
  const tokens = result.structuredContent?.estimated_tokens;
  $('tokens').textContent = tokens === undefined ? '' : `(about ${tokens} tokens)`;
  $('metadata').textContent = JSON.stringify(result.structuredContent, null, 2);
  meter(result, args);
  renderFiles();
}

function renderHistory() {
  $('history').replaceChildren(
    ...history.map((entry, n) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      const path = PATH_KEYS.map((k) => entry.args[k]).find((p) => typeof p === 'string') ?? '';
      const tokens = entry.result.structuredContent?.estimated_tokens;
      button.textContent = `${entry.tool} ${path} — ${entry.result.isError ? 'error' : 'ok'}${tokens === undefined ? '' : `, ${tokens} tokens`}`;
      button.className = entry.result.isError ? 'error' : '';
      button.addEventListener('click', () => {
        $('tool').value = entry.tool;
        $('args').value = JSON.stringify(entry.args, null, 1);
        show(entry.result, entry.args);
        showDiff(entry.before, entry.after);
      });
      item.value = n + 1;
      item.append(button);
      return item;
    }),
  );
}

$('call-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  let args;
  try {
    args = JSON.parse($('args').value || '{}');
  } catch (err) {
    show({
      content: [{ type: 'text', text: `the arguments are not JSON: ${err.message}` }],
      isError: true,
      structuredContent: {},
    });
    // Nothing was called: a diff left from the call before would read as this one's.
    $('diff').replaceChildren();
    return;
  }
  await run($('tool').value, args);
});

/** Calls `tool`, shows its answer and what it changed, and keeps it in the history. */
async function run(tool, args) {
  const before = fs.files();
  const result = await tools.call(tool, args);
  const after = fs.files();
  history.unshift({ tool, args, result, before, after });
  show(result, args);
  showDiff(before, after);
  renderHistory();
}

// The search box: `grep` over the files, the lines it shows counting as read.
$('search-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  await run('grep', { pattern: $('search-pattern').value, output_mode: 'content', '-C': 1 });
});

$('tool').addEventListener('change', showTool);
$('toolset').addEventListener('change', async () => {
  config = toolsConfig($('toolset').value);
  await newSession();
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
    const response = await fetch(
      new URL(`${name}/${part}/${path.split('/').map(encodeURIComponent).join('/')}`, CASES),
    );
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
    const fresh = () => createTools({ fs: caseFs, config: c.config });
    const caseTools = await fresh();
    const transcript = await runSteps(caseTools, c.steps, (change) => externalInMemory(caseFs, change), fresh);
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
    $('cases-report').textContent =
      `no cases found (${err.message}); start the page with npm run playground, which lays them out, or run in js/: node scripts/cases/layout.mjs ../target/js-cases`;
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
  $('cases-report').textContent =
    `${name}: config ${c.config}\n${c.steps.map((s) => (s.call ? s.call.line : `(outside change: ${s.external} ${s.path})`)).join('\n')}`;
});

$('run-cases').addEventListener('click', async () => {
  $('cases-report').textContent = `running ${names.length} cases…`;
  const report = await runAll(names);
  window.casesReport = report;
  $('cases-report').textContent = `${report.passed} passed, ${report.failed} failed\n${report.failures.join('\n')}`;
});

window.filetools = { runAll, loadCase };
samples()
  .then((files) => {
    fs = memoryFs(files);
    return newSession();
  })
  .catch((err) => {
    $('status').textContent = `failed: ${err.message}`;
  });
