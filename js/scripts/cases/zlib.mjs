// A zlib stream written exactly as the Rust layout writes it
// (tests/layout/src/zlib.rs): one deflate block with the fixed Huffman
// codes, whose only matches repeat the bytes three back.

const DISTANCE = 3;
const MAX_MATCH = 258;
const MIN_MATCH = 3;
const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const END_OF_BLOCK = 256;

/** `data` (a Uint8Array) as a zlib stream. */
export function compress(data) {
  const bits = new Bits();
  bits.out.push(0x78, 0x01);
  bits.put(1, 1); // the last block
  bits.put(1, 2); // fixed Huffman codes
  let at = 0;
  while (at < data.length) {
    let run = 0;
    if (at >= DISTANCE) {
      while (run < MAX_MATCH && at + run < data.length && data[at + run] === data[at + run - DISTANCE]) {
        run += 1;
      }
    }
    if (run >= MIN_MATCH) {
      let code = LENGTH_BASE.length - 1;
      while (LENGTH_BASE[code] > run) {
        code -= 1;
      }
      bits.symbol(257 + code);
      bits.put(run - LENGTH_BASE[code], LENGTH_EXTRA[code]);
      bits.code(2, 5); // distance code 2: distance 3
      at += run;
    } else {
      bits.symbol(data[at]);
      at += 1;
    }
  }
  bits.symbol(END_OF_BLOCK);
  const out = bits.finish();
  const adler = adler32(data);
  out.push(adler >>> 24, (adler >>> 16) & 0xff, (adler >>> 8) & 0xff, adler & 0xff);
  return Uint8Array.from(out);
}

/** Deflate's bit order: values from their low bit, Huffman codes from their high bit. */
class Bits {
  out = [];
  acc = 0;
  count = 0;

  put(value, count) {
    for (let i = 0; i < count; i += 1) {
      this.acc |= ((value >>> i) & 1) << this.count;
      this.count += 1;
      if (this.count === 8) {
        this.out.push(this.acc);
        this.acc = 0;
        this.count = 0;
      }
    }
  }

  code(code, length) {
    for (let i = length - 1; i >= 0; i -= 1) {
      this.put((code >>> i) & 1, 1);
    }
  }

  symbol(symbol) {
    if (symbol <= 143) {
      this.code(0x30 + symbol, 8);
    } else if (symbol <= 255) {
      this.code(0x190 + symbol - 144, 9);
    } else if (symbol <= 279) {
      this.code(symbol - 256, 7);
    } else {
      this.code(0xc0 + symbol - 280, 8);
    }
  }

  finish() {
    if (this.count > 0) {
      this.out.push(this.acc);
    }
    return this.out;
  }
}

function adler32(data) {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}
