//! A baseline JPEG simple enough to write the same way in every language the
//! cases are laid out in: three components at full resolution, every 8×8
//! block coded by its mean alone (its DC coefficient), so the picture
//! decodes as flat blocks of the source's colours.

use anyhow::{Context as _, Result};

/// The quantizer of every coefficient; only the DC one is ever nonzero.
const QUANT: u8 = 8;
/// Code lengths of the DC table (the standard luminance one): how many codes
/// of 1 to 16 bits.
const DC_BITS: [u8; 16] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
/// The DC table's symbols: the size categories 0 to 11.
const DC_SYMBOLS: [u8; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
/// Code lengths of the AC table: two codes of two bits.
const AC_BITS: [u8; 16] = [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// The AC table's symbols: end of block (the only one used), and one more
/// so that no code is all ones.
const AC_SYMBOLS: [u8; 2] = [0x00, 0x01];
/// Side of a block.
const BLOCK: usize = 8;

/// The JPEG of `rgb` (`width * height * 3` bytes, rows top down), with an
/// EXIF orientation when one is given.
pub fn encode(width: u32, height: u32, rgb: &[u8], orientation: Option<u16>) -> Result<Vec<u8>> {
    let w16 = u16::try_from(width).context("a JPEG is at most 65535 pixels wide")?;
    let h16 = u16::try_from(height).context("a JPEG is at most 65535 pixels high")?;
    let mut out = vec![0xFF, 0xD8];
    if let Some(orientation) = orientation {
        // A TIFF header (little-endian), one IFD of one entry: Orientation.
        let mut exif = b"Exif\0\0II*\0\x08\0\0\0\x01\0\x12\x01\x03\0\x01\0\0\0".to_vec();
        exif.extend_from_slice(&orientation.to_le_bytes());
        exif.extend_from_slice(&[0; 6]);
        segment(&mut out, 0xE1, &exif);
    }
    let mut quant = vec![0];
    quant.extend_from_slice(&[QUANT; 64]);
    segment(&mut out, 0xDB, &quant);
    let mut frame = vec![8];
    frame.extend_from_slice(&h16.to_be_bytes());
    frame.extend_from_slice(&w16.to_be_bytes());
    frame.push(3);
    for id in 1..=3 {
        frame.extend_from_slice(&[id, 0x11, 0]);
    }
    segment(&mut out, 0xC0, &frame);
    let mut tables = vec![0x00];
    tables.extend_from_slice(&DC_BITS);
    tables.extend_from_slice(&DC_SYMBOLS);
    tables.push(0x10);
    tables.extend_from_slice(&AC_BITS);
    tables.extend_from_slice(&AC_SYMBOLS);
    segment(&mut out, 0xC4, &tables);
    segment(&mut out, 0xDA, &[3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]);
    let dc_codes = codes(&DC_BITS);
    let end_of_block = codes(&AC_BITS)[0];
    let (width, height) = (width as usize, height as usize);
    let mut bits = Bits::default();
    let mut previous = [0i32; 3];
    for top in (0..height).step_by(BLOCK) {
        for left in (0..width).step_by(BLOCK) {
            for (component, last) in previous.iter_mut().enumerate() {
                let mut sum = 0i32;
                for y in top..top + BLOCK {
                    for x in left..left + BLOCK {
                        // Past the edge, the edge's pixel.
                        let at = (y.min(height - 1) * width + x.min(width - 1)) * 3;
                        sum += sample(&rgb[at..at + 3], component) - 128;
                    }
                }
                let dc = (sum + 32) >> 6;
                let diff = dc - *last;
                *last = dc;
                let size = 32 - diff.unsigned_abs().leading_zeros();
                bits.put(dc_codes[size as usize]);
                let value = if diff < 0 {
                    diff + (1 << size) - 1
                } else {
                    diff
                };
                bits.put((value.cast_unsigned(), size));
                bits.put(end_of_block);
            }
        }
    }
    out.extend(bits.finish());
    out.extend_from_slice(&[0xFF, 0xD9]);
    Ok(out)
}

/// Y, Cb or Cr of one RGB pixel, in integers.
fn sample(pixel: &[u8], component: usize) -> i32 {
    let [r, g, b] = [0, 1, 2].map(|i| i32::from(pixel[i]));
    let value = match component {
        0 => (77 * r + 150 * g + 29 * b + 128) >> 8,
        1 => ((-43 * r - 85 * g + 128 * b + 128) >> 8) + 128,
        _ => ((128 * r - 107 * g - 21 * b + 128) >> 8) + 128,
    };
    value.clamp(0, 255)
}

fn segment(out: &mut Vec<u8>, marker: u8, data: &[u8]) {
    out.extend_from_slice(&[0xFF, marker]);
    out.extend_from_slice(&(data.len() as u16 + 2).to_be_bytes());
    out.extend_from_slice(data);
}

/// The canonical Huffman codes `(code, length)` of a table's lengths, in
/// the order of its symbols.
fn codes(lengths: &[u8; 16]) -> Vec<(u32, u32)> {
    let mut codes = Vec::new();
    let mut code = 0u32;
    for (length, &count) in (1u32..).zip(lengths) {
        for _ in 0..count {
            codes.push((code, length));
            code += 1;
        }
        code <<= 1;
    }
    codes
}

/// JPEG's bit order, from the high bit, with a zero byte after each 0xFF.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u32,
    count: u32,
}

impl Bits {
    fn put(&mut self, (value, length): (u32, u32)) {
        for i in (0..length).rev() {
            self.acc = (self.acc << 1) | ((value >> i) & 1);
            self.count += 1;
            if self.count == 8 {
                self.byte();
            }
        }
    }

    fn byte(&mut self) {
        let byte = self.acc as u8;
        self.out.push(byte);
        if byte == 0xFF {
            self.out.push(0);
        }
        self.acc = 0;
        self.count = 0;
    }

    /// The bytes, the last one filled with ones.
    fn finish(mut self) -> Vec<u8> {
        while self.count > 0 {
            self.put((1, 1));
        }
        self.out
    }
}
