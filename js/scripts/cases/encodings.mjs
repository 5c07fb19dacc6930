// Text in a legacy encoding, for the cases that test them. There is no
// TextEncoder for them, so each encoding's table is read back from its
// TextDecoder: every single byte, then every two-byte sequence, the first
// sequence that decodes to a character being the one written.

const tables = new Map();

/** `text` in the encoding a WHATWG `label` names; throws on text it cannot hold. */
export function encodeIn(label, text) {
  const table = tableOf(label);
  const out = [];
  for (const char of text) {
    const bytes = table.get(char);
    if (bytes === undefined) {
      throw new Error(`text not representable in ${label}: ${JSON.stringify(char)}`);
    }
    out.push(...bytes);
  }
  return Uint8Array.from(out);
}

function tableOf(label) {
  let table = tables.get(label);
  if (table === undefined) {
    table = new Map();
    const decoder = new TextDecoder(label, { fatal: true });
    const learn = (bytes) => {
      let text;
      try {
        text = decoder.decode(Uint8Array.from(bytes));
      } catch {
        return;
      }
      if ([...text].length === 1 && !table.has(text)) {
        table.set(text, bytes);
      }
    };
    for (let byte = 0; byte < 0x100; byte += 1) {
      learn([byte]);
    }
    for (let lead = 0x81; lead < 0xff; lead += 1) {
      for (let trail = 0x40; trail < 0xff; trail += 1) {
        learn([lead, trail]);
      }
    }
    tables.set(label, table);
  }
  return table;
}
