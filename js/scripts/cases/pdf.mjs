// PDFs written exactly as the Rust layout writes them
// (tests/layout/src/pdfs.rs): one page per text, in Helvetica.

const utf8 = new TextEncoder();

/** The PDF of a spec `{pages: [..], count, text}` (`{n}` in `text` is the page number). */
export function writePdf(spec) {
  const pages = [...(spec.pages ?? [])];
  for (let n = 1; n <= (spec.count ?? 0); n += 1) {
    pages.push((spec.text ?? '').replaceAll('{n}', String(n)));
  }
  const font = 3 + 2 * pages.length;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${3 + 2 * i} 0 R`).join(' ')}] /Count ${pages.length} >>`,
  ];
  pages.forEach((text, i) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${4 + 2 * i} 0 R >>`,
    );
    let content = '';
    text.split('\n').forEach((words, line) => {
      if (words !== '') {
        const escaped = words.replaceAll('\\', '\\\\').replaceAll('(', '\\(').replaceAll(')', '\\)');
        content += `BT /F1 12 Tf 72 ${720 - 16 * line} Td (${escaped}) Tj ET\n`;
      }
    });
    objects.push(`<< /Length ${utf8.encode(content).length} >>\nstream\n${content}endstream`);
  });
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  return pdfDocument(objects.map((body) => utf8.encode(body)));
}

/** A PDF file of `objects` (bodies numbered from 1), with its cross-reference table. */
function pdfDocument(objects) {
  const parts = [utf8.encode('%PDF-1.4\n')];
  let length = parts[0].length;
  const offsets = [];
  const push = (bytes) => {
    parts.push(bytes);
    length += bytes.length;
  };
  objects.forEach((body, n) => {
    offsets.push(length);
    push(utf8.encode(`${n + 1} 0 obj\n`));
    push(body);
    push(utf8.encode('\nendobj\n'));
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) {
    tail += `${String(offset).padStart(10, '0')} 00000 n \n`;
  }
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  push(utf8.encode(tail));
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
