// A PNG of 8-bit RGB written exactly as the Rust layout writes it
// (tests/layout/src/png.rs): rows filtered by `Sub`, one zlib stream.
import { compress } from './zlib.mjs';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const FILTER_SUB = 1;
const PIXEL = 3;

/** The PNG of `rgb` (`width * height * 3` bytes, rows top down). */
export function encodePng(width, height, rgb) {
  const stride = width * PIXEL;
  const raw = new Uint8Array((stride + 1) * height);
  let at = 0;
  for (let row = 0; row < height; row += 1) {
    raw[at++] = FILTER_SUB;
    const start = row * stride;
    for (let i = 0; i < stride; i += 1) {
      raw[at++] = (rgb[start + i] - (i >= PIXEL ? rgb[start + i - PIXEL] : 0)) & 0xff;
    }
  }
  const header = [...be32(width), ...be32(height), 8, 2, 0, 0, 0];
  const out = [...SIGNATURE];
  chunk(out, 'IHDR', header);
  chunk(out, 'IDAT', compress(raw));
  chunk(out, 'IEND', []);
  return Uint8Array.from(out);
}

function chunk(out, kind, data) {
  out.push(...be32(data.length));
  const typed = [...kind].map((c) => c.charCodeAt(0));
  const body = new Uint8Array(4 + data.length);
  body.set(typed);
  body.set(data, 4);
  for (const byte of body) {
    out.push(byte);
  }
  out.push(...be32(crc32(body)));
}

function be32(value) {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function crc32(data) {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) {
      crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
    }
  }
  return (crc ^ 0xffffffff) >>> 0;
}
