// A baseline JPEG written exactly as the Rust layout writes it
// (tests/layout/src/jpeg.rs): three full-resolution components, every 8×8
// block coded by its mean alone.

const QUANT = 8;
const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_SYMBOLS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_BITS = [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const AC_SYMBOLS = [0x00, 0x01];
const BLOCK = 8;
// A TIFF header (little-endian), one IFD of one entry: Orientation.
const EXIF_ORIENTATION = new TextEncoder().encode('Exif\0\0II*\0\x08\0\0\0\x01\0\x12\x01\x03\0\x01\0\0\0');

/** The JPEG of `rgb` (`width * height * 3` bytes), with an EXIF orientation when given. */
export function encodeJpeg(width, height, rgb, orientation) {
  if (width > 0xffff || height > 0xffff) {
    throw new Error('a JPEG is at most 65535 pixels on a side');
  }
  const out = [0xff, 0xd8];
  if (orientation != null) {
    segment(out, 0xe1, [...EXIF_ORIENTATION, orientation & 0xff, orientation >>> 8, 0, 0, 0, 0, 0, 0]);
  }
  segment(out, 0xdb, [0, ...new Array(64).fill(QUANT)]);
  const frame = [8, height >>> 8, height & 0xff, width >>> 8, width & 0xff, 3];
  for (let id = 1; id <= 3; id += 1) {
    frame.push(id, 0x11, 0);
  }
  segment(out, 0xc0, frame);
  segment(out, 0xc4, [0x00, ...DC_BITS, ...DC_SYMBOLS, 0x10, ...AC_BITS, ...AC_SYMBOLS]);
  segment(out, 0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]);
  const dcCodes = codes(DC_BITS);
  const endOfBlock = codes(AC_BITS)[0];
  const bits = new Bits();
  const previous = [0, 0, 0];
  for (let top = 0; top < height; top += BLOCK) {
    for (let left = 0; left < width; left += BLOCK) {
      for (let component = 0; component < 3; component += 1) {
        let sum = 0;
        for (let y = top; y < top + BLOCK; y += 1) {
          for (let x = left; x < left + BLOCK; x += 1) {
            const at = (Math.min(y, height - 1) * width + Math.min(x, width - 1)) * 3;
            sum += sample(rgb, at, component) - 128;
          }
        }
        const dc = (sum + 32) >> 6;
        const diff = dc - previous[component];
        previous[component] = dc;
        const size = 32 - Math.clz32(Math.abs(diff));
        bits.put(dcCodes[size]);
        bits.put([diff < 0 ? diff + (1 << size) - 1 : diff, size]);
        bits.put(endOfBlock);
      }
    }
  }
  const entropy = bits.finish();
  const file = new Uint8Array(out.length + entropy.length + 2);
  file.set(out);
  file.set(entropy, out.length);
  file.set([0xff, 0xd9], out.length + entropy.length);
  return file;
}

function sample(rgb, at, component) {
  const [r, g, b] = [rgb[at], rgb[at + 1], rgb[at + 2]];
  let value;
  if (component === 0) {
    value = (77 * r + 150 * g + 29 * b + 128) >> 8;
  } else if (component === 1) {
    value = ((-43 * r - 85 * g + 128 * b + 128) >> 8) + 128;
  } else {
    value = ((128 * r - 107 * g - 21 * b + 128) >> 8) + 128;
  }
  return Math.min(255, Math.max(0, value));
}

function segment(out, marker, data) {
  const length = data.length + 2;
  out.push(0xff, marker, length >>> 8, length & 0xff, ...data);
}

function codes(lengths) {
  const result = [];
  let code = 0;
  lengths.forEach((count, index) => {
    for (let i = 0; i < count; i += 1) {
      result.push([code, index + 1]);
      code += 1;
    }
    code <<= 1;
  });
  return result;
}

/** JPEG's bit order, from the high bit, with a zero byte after each 0xFF. */
class Bits {
  out = [];
  acc = 0;
  count = 0;

  put([value, length]) {
    for (let i = length - 1; i >= 0; i -= 1) {
      this.acc = (this.acc << 1) | ((value >>> i) & 1);
      this.count += 1;
      if (this.count === 8) {
        this.out.push(this.acc);
        if (this.acc === 0xff) {
          this.out.push(0);
        }
        this.acc = 0;
        this.count = 0;
      }
    }
  }

  finish() {
    while (this.count > 0) {
      this.put([1, 1]);
    }
    return this.out;
  }
}
