// The files the playground starts with, each showing what a read does with
// its kind: a large source file (an outline), a minified JSON file (one
// long line, cut with the offsets that continue it), an image (scaled and
// shown), a notebook (cells, not JSON) and a CRLF file (edits keep CRLF).

const source = Array.from(
  { length: 1200 },
  (_, i) => `export function handler${i}(request) {\n  const path = request.path;\n  return path.length + ${i};\n}\n`,
).join('\n');

const minified = JSON.stringify({
  name: 'demo',
  items: Array.from({ length: 2000 }, (_, i) => ({
    id: i,
    label: `item ${i}`,
    tags: ['a', 'b'],
    score: (i * 37) % 101,
  })),
});

const notebook = `${JSON.stringify(
  {
    cells: [
      {
        cell_type: 'markdown',
        id: 'intro',
        metadata: {},
        source: ['# Playground notebook\n', 'Read it, then edit a cell with notebook_edit.'],
      },
      {
        cell_type: 'code',
        execution_count: 1,
        id: 'sum',
        metadata: {},
        outputs: [{ name: 'stdout', output_type: 'stream', text: ['6\n'] }],
        source: ['print(1 + 2 + 3)'],
      },
    ],
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } },
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
)}\n`;

const crlf = 'first line\r\nsecond line\r\nthird line\r\n';

/** A 320 by 200 PNG drawn in the page. */
async function picture() {
  const canvas = document.createElement('canvas');
  canvas.width = 320;
  canvas.height = 200;
  const context = canvas.getContext('2d');
  const gradient = context.createLinearGradient(0, 0, 320, 200);
  gradient.addColorStop(0, '#2b6cb0');
  gradient.addColorStop(1, '#38a169');
  context.fillStyle = gradient;
  context.fillRect(0, 0, 320, 200);
  context.fillStyle = '#fff';
  context.font = 'bold 28px sans-serif';
  context.fillText('filetools', 100, 110);
  const blob = await new Promise((done) => canvas.toBlob(done, 'image/png'));
  return new Uint8Array(await blob.arrayBuffer());
}

/** The sample files, by path. */
export async function samples() {
  return {
    'README.md': '# Playground\n\nPick a file on the left, a tool in the middle, and call it.\n',
    'src/handlers.js': source,
    'data/items.min.json': minified,
    'notes/analysis.ipynb': notebook,
    'windows.txt': crlf,
    'images/logo.png': await picture(),
  };
}
