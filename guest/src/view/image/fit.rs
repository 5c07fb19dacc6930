//! Fitting an image to what a model may be sent (SPEC R12): downscaled by
//! area averaging — exact integer arithmetic, so every host computes the
//! same pixels — to the long-edge and pixel limits, flattened onto white,
//! and encoded as JPEG at falling quality until the byte budget holds.

use crate::view::image::decode::Pixels;

/// JPEG qualities tried in turn.
pub const QUALITIES: [u8; 6] = [85, 75, 65, 55, 45, 35];
/// Further halvings of the size tried when even the lowest quality is over
/// the byte budget.
pub const MAX_SHRINKS: u32 = 4;

/// The size `width`×`height` fits in: at most `max_edge` on the long side and
/// `max_pixels` in all, aspect kept, never enlarged.
pub(crate) fn target_size(
    width: usize,
    height: usize,
    max_edge: usize,
    max_pixels: usize,
) -> (usize, usize) {
    let long = width.max(height);
    let (mut w, mut h) = if long > max_edge {
        (width * max_edge / long, height * max_edge / long)
    } else {
        (width, height)
    };
    if w * h > max_pixels {
        // The widest size whose proportional height keeps under the pixel
        // limit, found by integers so every host agrees.
        let (long_w, long_h) = (w, h);
        let (mut low, mut high) = (1, long_w);
        while low < high {
            let mid = (low + high).div_ceil(2);
            if mid * (long_h * mid / long_w) <= max_pixels {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        (w, h) = (low, long_h * low / long_w);
    }
    (w.max(1), h.max(1))
}

/// `pixels` scaled down to `width`×`height` by averaging the source area
/// each target pixel covers (weights in 1/256ths of a source pixel). Rows
/// are averaged across as they are needed, so besides the result only two
/// rows of sums are held, whatever the source's size.
pub(crate) fn downscale(pixels: &Pixels, width: usize, height: usize) -> Result<Pixels, String> {
    if (width, height) == (pixels.width, pixels.height) {
        return Ok(pixels.clone());
    }
    let columns = spans(pixels.width, width);
    let rows = spans(pixels.height, height);
    let across = |sy: usize, into: &mut Vec<u32>| {
        into.clear();
        let line = &pixels.rgba[sy * pixels.width * 4..(sy + 1) * pixels.width * 4];
        for weights in &columns {
            let mut sum = [0u32; 4];
            let mut total = 0u32;
            for &(sx, w) in weights {
                for c in 0..4 {
                    sum[c] += u32::from(line[sx * 4 + c]) * w;
                }
                total += w;
            }
            into.extend(sum.iter().map(|&s| (s + total / 2) / total));
        }
    };
    let mut rgba = try_vec(width * height * 4)?;
    // The two most recent source rows averaged across: a target row's
    // source rows overlap the previous one's by at most one.
    let mut cache: [(Option<usize>, Vec<u32>); 2] = [(None, Vec::new()), (None, Vec::new())];
    let mut sums = vec![0u64; width * 4];
    for (y, weights) in rows.iter().enumerate() {
        sums.fill(0);
        let mut total = 0u64;
        for &(sy, w) in weights {
            let slot = cache
                .iter()
                .position(|(row, _)| *row == Some(sy))
                .unwrap_or_else(|| {
                    let slot = usize::from(cache[0].0 > cache[1].0);
                    across(sy, &mut cache[slot].1);
                    cache[slot].0 = Some(sy);
                    slot
                });
            for (sum, &value) in sums.iter_mut().zip(&cache[slot].1) {
                *sum += u64::from(value) * u64::from(w);
            }
            total += u64::from(w);
        }
        for (out, &sum) in rgba[y * width * 4..(y + 1) * width * 4]
            .iter_mut()
            .zip(&sums)
        {
            *out = u8::try_from((sum + total / 2) / total).unwrap_or(255);
        }
    }
    Ok(Pixels {
        width,
        height,
        rgba,
    })
}

/// A zeroed buffer of `len` bytes, or an error when the memory is not there
/// (instead of the abort an ordinary allocation would be).
pub(crate) fn try_vec(len: usize) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    buf.try_reserve_exact(len).map_err(|_| {
        format!(
            "{} of memory is not available to decode it",
            crate::answers::notice::Size(len as u64)
        )
    })?;
    buf.resize(len, 0);
    Ok(buf)
}

/// For each target index, the source indices it covers and their weights.
fn spans(source: usize, target: usize) -> Vec<Vec<(usize, u32)>> {
    // Work in units of 1/(target*256) of the source so boundaries are exact.
    let unit = 256u64;
    let (source, target) = (source as u64, target as u64);
    (0..target)
        .map(|t| {
            let start = t * source * unit / target;
            let end = (t + 1) * source * unit / target;
            let mut out = Vec::new();
            let mut s = start / unit;
            while s * unit < end {
                let from = start.max(s * unit);
                let to = end.min((s + 1) * unit);
                if to > from {
                    out.push((s as usize, u32::try_from(to - from).unwrap_or(u32::MAX)));
                }
                s += 1;
            }
            out
        })
        .collect()
}

/// RGB bytes of `pixels` flattened onto white.
pub(crate) fn rgb_on_white(pixels: &Pixels) -> Vec<u8> {
    let mut out = Vec::with_capacity(pixels.width * pixels.height * 3);
    for p in pixels.rgba.chunks_exact(4) {
        let alpha = u32::from(p[3]);
        for &c in &p[..3] {
            let blended = (u32::from(c) * alpha + 255 * (255 - alpha) + 127) / 255;
            out.push(u8::try_from(blended).unwrap_or(255));
        }
    }
    out
}

/// `pixels` as JPEG at `quality`.
pub(crate) fn jpeg(pixels: &Pixels, quality: u8) -> Result<Vec<u8>, String> {
    let width = u16::try_from(pixels.width).map_err(|_| "too wide for JPEG".to_owned())?;
    let height = u16::try_from(pixels.height).map_err(|_| "too tall for JPEG".to_owned())?;
    let mut out = Vec::new();
    jpeg_encoder::Encoder::new(&mut out, quality)
        .encode(
            &rgb_on_white(pixels),
            width,
            height,
            jpeg_encoder::ColorType::Rgb,
        )
        .map_err(|e| e.to_string())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_fit_both_limits_and_keep_the_aspect() {
        assert_eq!(target_size(4000, 3000, 1568, 1_150_000), (1238, 928));
        assert_eq!(target_size(1568, 400, 1568, 1_150_000), (1568, 400));
        assert_eq!(target_size(3000, 100, 1568, 1_150_000), (1568, 52));
        assert_eq!(target_size(800, 600, 1568, 1_150_000), (800, 600));
    }

    #[test]
    fn averaging_keeps_flat_colours_and_mixes_edges() {
        let flat = Pixels {
            width: 4,
            height: 4,
            rgba: [10, 20, 30, 255].repeat(16),
        };
        assert_eq!(
            downscale(&flat, 3, 2).unwrap().rgba,
            [10, 20, 30, 255].repeat(6)
        );
        let stripes = Pixels {
            width: 2,
            height: 1,
            rgba: vec![0, 0, 0, 255, 255, 255, 255, 255],
        };
        assert_eq!(
            downscale(&stripes, 1, 1).unwrap().rgba,
            vec![128, 128, 128, 255]
        );
    }

    #[test]
    fn transparency_is_flattened_onto_white() {
        let clear = Pixels {
            width: 1,
            height: 1,
            rgba: vec![0, 0, 0, 0],
        };
        assert_eq!(rgb_on_white(&clear), vec![255, 255, 255]);
    }
}
