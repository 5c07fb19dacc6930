// File names that are not UTF-8, in a protocol whose paths are strings, as
// the Rust host treats them: listed with each byte that is not part of a
// UTF-8 character written `\xNN` (and a backslash `\\`), so two such names
// never look alike, nor like their U+FFFD spelling; and named back in that
// form. A component is read back as bytes only when its bytes are not
// UTF-8, an entry bears those bytes and none bears the component
// literally: every UTF-8 name keeps meaning itself, and a new file always
// gets the name as spelled.
import * as fs from 'node:fs';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const SLASH = 0x2f;
const BACKSLASH = 0x5c;

/** `bytes` as text when they are UTF-8 (a leading U+FEFF kept), else `undefined`. */
export function utf8Text(bytes) {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

/** `name` (a Buffer) as listed: itself when it is UTF-8, else escaped. */
export function shown(name) {
  const text = utf8Text(name);
  if (text !== undefined) {
    return text;
  }
  let out = '';
  let at = 0;
  while (at < name.length) {
    const length = charLength(name, at);
    if (length === 0) {
      out += `\\x${name[at].toString(16).padStart(2, '0')}`;
      at += 1;
      continue;
    }
    const char = strict.decode(name.subarray(at, at + length));
    out += char === '\\' ? '\\\\' : char;
    at += length;
  }
  return out;
}

/** The length of the UTF-8 character at `at`, 0 when its bytes are not one. */
function charLength(bytes, at) {
  const first = bytes[at];
  let length = 0;
  if (first < 0x80) {
    length = 1;
  } else if (first >= 0xc2 && first < 0xe0) {
    length = 2;
  } else if (first >= 0xe0 && first < 0xf0) {
    length = 3;
  } else if (first >= 0xf0 && first < 0xf5) {
    length = 4;
  }
  if (length === 0 || at + length > bytes.length) {
    return 0;
  }
  try {
    strict.decode(bytes.subarray(at, at + length));
    return length;
  } catch {
    return 0;
  }
}

/** Whether `byte` is a hexadecimal digit. */
const isHex = (byte) => byte !== undefined && /[0-9a-fA-F]/.test(String.fromCharCode(byte));

/** The bytes an escaped `component` names, when its escapes give bytes that are not UTF-8. */
function unescaped(component) {
  if (!component.includes('\\x')) {
    return undefined;
  }
  const text = Buffer.from(component);
  const bytes = [];
  for (let at = 0; at < text.length; ) {
    if (text[at] !== BACKSLASH) {
      bytes.push(text[at]);
      at += 1;
    } else if (text[at + 1] === BACKSLASH) {
      bytes.push(BACKSLASH);
      at += 2;
    } else if (text[at + 1] === 0x78 && isHex(text[at + 2]) && isHex(text[at + 3])) {
      bytes.push(Number.parseInt(text.subarray(at + 2, at + 4).toString('latin1'), 16));
      at += 4;
    } else {
      return undefined;
    }
  }
  const buffer = Buffer.from(bytes);
  try {
    strict.decode(buffer);
    return undefined;
  } catch {
    return buffer;
  }
}

/** Whether `path` (a string or a Buffer) names anything, not following a final symlink. */
function exists(path) {
  return fs.lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/**
 * `base` joined with `parts`, each escaped part read back as its bytes where
 * an entry bears them and none bears the part literally: a string when
 * every part is itself, else a Buffer.
 */
export function named(base, parts) {
  if (!parts.some((part) => part.includes('\\x'))) {
    return undefined;
  }
  let path = Buffer.from(base);
  let raw = false;
  for (const part of parts) {
    const literal = joined(path, Buffer.from(part));
    const bytes = unescaped(part);
    if (bytes && !exists(literal) && exists(joined(path, bytes))) {
      path = joined(path, bytes);
      raw = true;
    } else {
      path = literal;
    }
  }
  return raw ? path : undefined;
}

/** `dir` and `name` (Buffers) joined by one `/`. */
export function joined(dir, name) {
  const sep = dir.length > 0 && dir[dir.length - 1] === SLASH ? [] : [SLASH];
  return Buffer.concat([dir, Buffer.from(sep), name]);
}
