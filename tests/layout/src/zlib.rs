//! A zlib stream simple enough to write the same way in every language the
//! cases are laid out in: one deflate block with the fixed Huffman codes,
//! whose only matches repeat the bytes three back (one RGB pixel, which is
//! what a PNG row filtered by `Sub` repeats).

/// The distance of every match: one pixel of 8-bit RGB.
const DISTANCE: usize = 3;
/// The longest match deflate can say.
const MAX_MATCH: usize = 258;
/// The shortest match deflate can say.
const MIN_MATCH: usize = 3;
/// The first length of each length code, 257 to 285.
const LENGTH_BASE: [usize; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
/// The extra bits of each length code.
const LENGTH_EXTRA: [u32; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// The symbol that ends a block.
const END_OF_BLOCK: u32 = 256;

/// `data` as a zlib stream.
pub fn compress(data: &[u8]) -> Vec<u8> {
    let mut bits = Bits::default();
    bits.out.extend_from_slice(&[0x78, 0x01]);
    bits.put(1, 1); // the last block
    bits.put(1, 2); // fixed Huffman codes
    let mut at = 0;
    while at < data.len() {
        let mut run = 0;
        if at >= DISTANCE {
            while run < MAX_MATCH
                && at + run < data.len()
                && data[at + run] == data[at + run - DISTANCE]
            {
                run += 1;
            }
        }
        if run >= MIN_MATCH {
            let code = LENGTH_BASE
                .iter()
                .rposition(|&base| base <= run)
                .unwrap_or(0);
            bits.symbol(257 + code as u32);
            bits.put((run - LENGTH_BASE[code]) as u32, LENGTH_EXTRA[code]);
            // Distance code 2 (distance 3): five bits, no extra.
            bits.code(2, 5);
            at += run;
        } else {
            bits.symbol(u32::from(data[at]));
            at += 1;
        }
    }
    bits.symbol(END_OF_BLOCK);
    let mut out = bits.finish();
    out.extend_from_slice(&adler32(data).to_be_bytes());
    out
}

/// Deflate's bit order: values from their low bit, Huffman codes from their high bit.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u32,
    count: u32,
}

impl Bits {
    fn put(&mut self, value: u32, count: u32) {
        for i in 0..count {
            self.acc |= ((value >> i) & 1) << self.count;
            self.count += 1;
            if self.count == 8 {
                self.out.push(self.acc as u8);
                self.acc = 0;
                self.count = 0;
            }
        }
    }

    fn code(&mut self, code: u32, length: u32) {
        for i in (0..length).rev() {
            self.put((code >> i) & 1, 1);
        }
    }

    /// A literal/length symbol in the fixed code.
    fn symbol(&mut self, symbol: u32) {
        match symbol {
            0..=143 => self.code(0x30 + symbol, 8),
            144..=255 => self.code(0x190 + symbol - 144, 9),
            256..=279 => self.code(symbol - 256, 7),
            _ => self.code(0xC0 + symbol - 280, 8),
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.count > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// The Adler-32 checksum zlib ends with.
fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in data {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    (b << 16) | a
}
