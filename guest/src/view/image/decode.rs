//! Decoding an image to RGBA pixels, by format: PNG, JPEG (turned upright by
//! its EXIF orientation), GIF (the first frame) and WebP (SPEC R12). Every
//! decoder runs without SIMD shortcuts, so all hosts see the same pixels.
//!
//! The size an image claims is checked against a pixel budget before a
//! single pixel buffer exists — a 35-byte GIF may claim 10,000×10,000 — and
//! the large buffers are allocated fallibly, so an image that does not fit
//! the session's memory is described, never a reason to stop. A PNG is
//! decoded row by row straight into its RGBA buffer.

use std::io::Cursor;

use zune_jpeg::JpegDecoder;
use zune_jpeg::zune_core::colorspace::ColorSpace;
use zune_jpeg::zune_core::options::DecoderOptions;

use crate::view::image::exif::{self, Orientation};
use crate::view::image::fit::try_vec;

/// Pixels in RGBA order, rows top to bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pixels {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// `width * height * 4` bytes.
    pub rgba: Vec<u8>,
}

/// An image as decoded.
#[derive(Debug, Clone)]
pub(crate) struct Decoded {
    /// Upright pixels.
    pub pixels: Pixels,
    /// The EXIF orientation that was applied (JPEG only).
    pub orientation: Orientation,
}

/// Why an image was not decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Undecoded {
    /// It claims more pixels than the budget allows.
    TooLarge {
        /// Claimed width.
        width: usize,
        /// Claimed height.
        height: usize,
        /// The budget, in pixels.
        max: usize,
    },
    /// It is damaged, or not what it claims, or did not fit in memory.
    Broken(String),
}

impl From<String> for Undecoded {
    fn from(reason: String) -> Self {
        Undecoded::Broken(reason)
    }
}

impl From<&str> for Undecoded {
    fn from(reason: &str) -> Self {
        Undecoded::Broken(reason.to_owned())
    }
}

/// Decoding that needs a second buffer of the image's size — a progressive
/// JPEG (which keeps every coefficient), a JPEG turned upright, an
/// interlaced PNG, a GIF frame placed on its screen, a WebP without alpha
/// widened to RGBA — gets this share of the pixel budget.
const TWO_BUFFER_SHARE: usize = 2;

/// Decodes `data` of MIME type `mime`, refusing images of more than
/// `max_pixels`.
pub(crate) fn decode(data: &[u8], mime: &str, max_pixels: usize) -> Result<Decoded, Undecoded> {
    let (pixels, orientation) = match mime {
        "image/png" => (png(data, max_pixels)?, Orientation::UPRIGHT),
        "image/jpeg" => jpeg(data, max_pixels)?,
        "image/gif" => (gif(data, max_pixels)?, Orientation::UPRIGHT),
        "image/webp" => (webp(data, max_pixels)?, Orientation::UPRIGHT),
        other => {
            return Err(Undecoded::Broken(format!(
                "{other} is not an image format that can be shown"
            )));
        }
    };
    Ok(Decoded {
        pixels,
        orientation,
    })
}

fn checked(width: usize, height: usize, max: usize) -> Result<(), Undecoded> {
    if width == 0 || height == 0 {
        return Err(Undecoded::Broken(format!(
            "{width}x{height} pixels is empty"
        )));
    }
    if width.saturating_mul(height) > max {
        return Err(Undecoded::TooLarge { width, height, max });
    }
    Ok(())
}

fn png(data: &[u8], max: usize) -> Result<Pixels, Undecoded> {
    let mut decoder = png::Decoder::new(Cursor::new(data));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let (width, height, interlaced) = {
        let info = reader.info();
        (info.width as usize, info.height as usize, info.interlaced)
    };
    checked(
        width,
        height,
        if interlaced {
            max / TWO_BUFFER_SHARE
        } else {
            max
        },
    )?;
    let color = reader.output_color_type().0;
    let mut rgba = try_vec(width * height * 4)?;
    if interlaced {
        // Adam7 rows arrive pass by pass: decode the frame, then expand.
        let size = reader.output_buffer_size().ok_or("the PNG is too large")?;
        let mut buf = try_vec(size)?;
        let frame = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
        let line = frame.line_size;
        for (y, row) in buf.chunks(line).take(height).enumerate() {
            expand(color, row, &mut rgba[y * width * 4..(y + 1) * width * 4])?;
        }
    } else {
        for y in 0..height {
            let row = reader
                .next_row()
                .map_err(|e| e.to_string())?
                .ok_or("the PNG has fewer rows than it claims")?;
            expand(
                color,
                row.data(),
                &mut rgba[y * width * 4..(y + 1) * width * 4],
            )?;
        }
    }
    Ok(Pixels {
        width,
        height,
        rgba,
    })
}

/// One row of 8-bit `color` pixels written as RGBA into `out`.
fn expand(color: png::ColorType, row: &[u8], out: &mut [u8]) -> Result<(), String> {
    match color {
        png::ColorType::Rgba => out.copy_from_slice(&row[..out.len()]),
        png::ColorType::Rgb => {
            for (p, o) in row.chunks_exact(3).zip(out.chunks_exact_mut(4)) {
                o.copy_from_slice(&[p[0], p[1], p[2], 255]);
            }
        }
        png::ColorType::Grayscale => {
            for (&g, o) in row.iter().zip(out.chunks_exact_mut(4)) {
                o.copy_from_slice(&[g, g, g, 255]);
            }
        }
        png::ColorType::GrayscaleAlpha => {
            for (p, o) in row.chunks_exact(2).zip(out.chunks_exact_mut(4)) {
                o.copy_from_slice(&[p[0], p[0], p[0], p[1]]);
            }
        }
        png::ColorType::Indexed => return Err("an indexed PNG was not expanded".to_owned()),
    }
    Ok(())
}

fn jpeg(data: &[u8], max: usize) -> Result<(Pixels, Orientation), Undecoded> {
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::RGBA)
        .set_max_width(1 << 16)
        .set_max_height(1 << 16);
    let mut decoder = JpegDecoder::new_with_options(Cursor::new(data), options);
    decoder.decode_headers().map_err(|e| e.to_string())?;
    let (width, height) = decoder.dimensions().ok_or("the JPEG has no size")?;
    let progressive = decoder
        .info()
        .is_some_and(|info| !info.sof.is_sequential_dct());
    let orientation = decoder
        .exif()
        .map_or(Orientation::UPRIGHT, |e| exif::orientation(e));
    let two_buffers = progressive || orientation != Orientation::UPRIGHT;
    checked(
        width,
        height,
        if two_buffers {
            max / TWO_BUFFER_SHARE
        } else {
            max
        },
    )?;
    let size = decoder
        .output_buffer_size()
        .ok_or("the JPEG is too large")?;
    let mut rgba = try_vec(size)?;
    decoder.decode_into(&mut rgba).map_err(|e| e.to_string())?;
    let (rgba, width, height) = exif::apply(orientation, rgba, width, height)?;
    Ok((
        Pixels {
            width,
            height,
            rgba,
        },
        orientation,
    ))
}

fn gif(data: &[u8], max: usize) -> Result<Pixels, Undecoded> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(Cursor::new(data))
        .map_err(|e| e.to_string())?;
    let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
    checked(width, height, max / TWO_BUFFER_SHARE)?;
    let Some(info) = decoder.next_frame_info().map_err(|e| e.to_string())? else {
        return Err(Undecoded::Broken("the GIF has no frame".to_owned()));
    };
    // The frame's own size is claimed separately, and decoded as a whole.
    let (left, top) = (usize::from(info.left), usize::from(info.top));
    let (frame_width, frame_height) = (usize::from(info.width), usize::from(info.height));
    checked(frame_width, frame_height, max / TWO_BUFFER_SHARE)?;
    let mut frame = try_vec(decoder.buffer_size())?;
    decoder
        .read_into_buffer(&mut frame)
        .map_err(|e| e.to_string())?;
    if (left, top, frame_width, frame_height) == (0, 0, width, height) {
        return Ok(Pixels {
            width,
            height,
            rgba: frame,
        });
    }
    let mut rgba = try_vec(width * height * 4)?;
    for (row, line) in frame.chunks_exact(frame_width * 4).enumerate() {
        let y = top + row;
        if y >= height || left >= width {
            continue;
        }
        let span = frame_width.min(width - left);
        let at = (y * width + left) * 4;
        rgba[at..at + span * 4].copy_from_slice(&line[..span * 4]);
    }
    Ok(Pixels {
        width,
        height,
        rgba,
    })
}

fn webp(data: &[u8], max: usize) -> Result<Pixels, Undecoded> {
    let mut decoder = image_webp::WebPDecoder::new(Cursor::new(data)).map_err(|e| e.to_string())?;
    let (width, height) = decoder.dimensions();
    let (width, height) = (width as usize, height as usize);
    checked(
        width,
        height,
        if decoder.has_alpha() {
            max
        } else {
            max / TWO_BUFFER_SHARE
        },
    )?;
    let size = decoder
        .output_buffer_size()
        .ok_or("the WebP is too large")?;
    let mut buf = try_vec(size)?;
    decoder.read_image(&mut buf).map_err(|e| e.to_string())?;
    let rgba = if decoder.has_alpha() {
        buf
    } else {
        let mut rgba = try_vec(width * height * 4)?;
        for (p, o) in buf.chunks_exact(3).zip(rgba.chunks_exact_mut(4)) {
            o.copy_from_slice(&[p[0], p[1], p[2], 255]);
        }
        rgba
    };
    Ok(Pixels {
        width,
        height,
        rgba,
    })
}
