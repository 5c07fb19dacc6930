//! The EXIF orientation of a JPEG (tag 0x0112), so a photo taken sideways
//! is shown upright (SPEC R12). Reads only IFD0 of the TIFF structure in
//! the APP1 segment; anything malformed means "as stored".

/// How the stored pixels must be turned to be upright (EXIF values 1–8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Orientation(pub u16);

impl Orientation {
    /// As stored.
    pub const UPRIGHT: Orientation = Orientation(1);

    /// Whether width and height swap.
    pub fn swaps(self) -> bool {
        matches!(self.0, 5..=8)
    }
}

/// The orientation in EXIF data (with or without its `Exif\0\0` header).
pub(crate) fn orientation(exif: &[u8]) -> Orientation {
    let tiff = exif.strip_prefix(b"Exif\0\0").unwrap_or(exif);
    parse(tiff)
        .filter(|o| (1..=8).contains(&o.0))
        .unwrap_or(Orientation::UPRIGHT)
}

fn parse(tiff: &[u8]) -> Option<Orientation> {
    let big = match tiff.get(..2)? {
        b"II" => false,
        b"MM" => true,
        _ => return None,
    };
    let u16_at = |at: usize| -> Option<u16> {
        let bytes: [u8; 2] = tiff.get(at..at + 2)?.try_into().ok()?;
        Some(if big {
            u16::from_be_bytes(bytes)
        } else {
            u16::from_le_bytes(bytes)
        })
    };
    let u32_at = |at: usize| -> Option<u32> {
        let bytes: [u8; 4] = tiff.get(at..at + 4)?.try_into().ok()?;
        Some(if big {
            u32::from_be_bytes(bytes)
        } else {
            u32::from_le_bytes(bytes)
        })
    };
    let ifd = usize::try_from(u32_at(4)?).ok()?;
    let count = usize::from(u16_at(ifd)?);
    (0..count).find_map(|n| {
        let entry = ifd + 2 + n * 12;
        (u16_at(entry)? == 0x0112).then(|| u16_at(entry + 8).map(Orientation))?
    })
}

/// `pixels` (RGBA, `width`×`height`) turned upright; returns the new size.
pub(crate) fn apply(
    orientation: Orientation,
    pixels: Vec<u8>,
    width: usize,
    height: usize,
) -> Result<(Vec<u8>, usize, usize), String> {
    if orientation == Orientation::UPRIGHT {
        return Ok((pixels, width, height));
    }
    let (out_w, out_h) = if orientation.swaps() {
        (height, width)
    } else {
        (width, height)
    };
    let mut out = crate::view::image::fit::try_vec(pixels.len())?;
    for y in 0..height {
        for x in 0..width {
            let (nx, ny) = match orientation.0 {
                2 => (width - 1 - x, y),
                3 => (width - 1 - x, height - 1 - y),
                4 => (x, height - 1 - y),
                5 => (y, x),
                6 => (height - 1 - y, x),
                7 => (height - 1 - y, width - 1 - x),
                8 => (y, width - 1 - x),
                _ => (x, y),
            };
            let from = (y * width + x) * 4;
            let to = (ny * out_w + nx) * 4;
            out[to..to + 4].copy_from_slice(&pixels[from..from + 4]);
        }
    }
    Ok((out, out_w, out_h))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exif_with(orientation: u16, big: bool) -> Vec<u8> {
        let mut tiff = Vec::new();
        let put16 = |v: u16, out: &mut Vec<u8>| {
            out.extend_from_slice(&if big {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            });
        };
        let put32 = |v: u32, out: &mut Vec<u8>| {
            out.extend_from_slice(&if big {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            });
        };
        tiff.extend_from_slice(if big { b"MM" } else { b"II" });
        put16(42, &mut tiff);
        put32(8, &mut tiff);
        put16(1, &mut tiff);
        put16(0x0112, &mut tiff);
        put16(3, &mut tiff);
        put32(1, &mut tiff);
        put16(orientation, &mut tiff);
        put16(0, &mut tiff);
        [b"Exif\0\0".as_slice(), &tiff].concat()
    }

    #[test]
    fn orientation_is_read_in_both_byte_orders() {
        assert_eq!(orientation(&exif_with(6, false)), Orientation(6));
        assert_eq!(orientation(&exif_with(8, true)), Orientation(8));
        assert_eq!(orientation(b"garbage"), Orientation::UPRIGHT);
        assert_eq!(orientation(&exif_with(9, false)), Orientation::UPRIGHT);
    }

    #[test]
    fn a_quarter_turn_swaps_the_sides() {
        // 2x1: red, blue. Orientation 6 (rotate 90° clockwise) gives 1x2: red over blue.
        let pixels = [255, 0, 0, 255, 0, 0, 255, 255];
        let (out, w, h) = apply(Orientation(6), pixels.to_vec(), 2, 1).unwrap();
        assert_eq!((w, h), (1, 2));
        assert_eq!(out, vec![255, 0, 0, 255, 0, 0, 255, 255]);
        let (out, _, _) = apply(Orientation(3), pixels.to_vec(), 2, 1).unwrap();
        assert_eq!(out, vec![0, 0, 255, 255, 255, 0, 0, 255]);
    }
}
