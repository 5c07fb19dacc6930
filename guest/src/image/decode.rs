//! Decoding an image to RGBA pixels, by format: PNG, JPEG (turned upright by
//! its EXIF orientation), GIF (the first frame) and WebP (SPEC R12). Every
//! decoder runs without SIMD shortcuts, so all hosts see the same pixels.

use std::io::Cursor;

use zune_jpeg::JpegDecoder;
use zune_jpeg::zune_core::colorspace::ColorSpace;
use zune_jpeg::zune_core::options::DecoderOptions;

use crate::image::exif::{self, Orientation};

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

/// Pixels of an image larger than this are not decoded.
pub const MAX_PIXELS: usize = 100_000_000;

/// Decodes `data` of MIME type `mime`.
pub(crate) fn decode(data: &[u8], mime: &str) -> Result<Decoded, String> {
    let (pixels, orientation) = match mime {
        "image/png" => (png(data)?, Orientation::UPRIGHT),
        "image/jpeg" => jpeg(data)?,
        "image/gif" => (gif(data)?, Orientation::UPRIGHT),
        "image/webp" => (webp(data)?, Orientation::UPRIGHT),
        other => return Err(format!("{other} is not an image format that can be shown")),
    };
    Ok(Decoded {
        pixels,
        orientation,
    })
}

fn checked(width: usize, height: usize) -> Result<(), String> {
    if width == 0 || height == 0 || width.saturating_mul(height) > MAX_PIXELS {
        return Err(format!(
            "{width}x{height} pixels is outside what can be decoded"
        ));
    }
    Ok(())
}

fn png(data: &[u8]) -> Result<Pixels, String> {
    let mut decoder = png::Decoder::new(Cursor::new(data));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let (width, height) = {
        let info = reader.info();
        (info.width as usize, info.height as usize)
    };
    checked(width, height)?;
    let size = reader.output_buffer_size().ok_or("the PNG is too large")?;
    let mut buf = vec![0; size];
    let frame = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    buf.truncate(frame.buffer_size());
    let rgba = match frame.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::GrayscaleAlpha => buf
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Indexed => return Err("an indexed PNG was not expanded".to_owned()),
    };
    Ok(Pixels {
        width,
        height,
        rgba,
    })
}

fn jpeg(data: &[u8]) -> Result<(Pixels, Orientation), String> {
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::RGBA)
        .set_max_width(1 << 16)
        .set_max_height(1 << 16);
    let mut decoder = JpegDecoder::new_with_options(Cursor::new(data), options);
    decoder.decode_headers().map_err(|e| e.to_string())?;
    let (width, height) = decoder.dimensions().ok_or("the JPEG has no size")?;
    checked(width, height)?;
    let orientation = decoder
        .exif()
        .map_or(Orientation::UPRIGHT, |e| exif::orientation(e));
    let rgba = decoder.decode().map_err(|e| e.to_string())?;
    let (rgba, width, height) = exif::apply(orientation, &rgba, width, height);
    Ok((
        Pixels {
            width,
            height,
            rgba,
        },
        orientation,
    ))
}

fn gif(data: &[u8]) -> Result<Pixels, String> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(Cursor::new(data))
        .map_err(|e| e.to_string())?;
    let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
    checked(width, height)?;
    let mut rgba = vec![0u8; width * height * 4];
    let frame = decoder
        .read_next_frame()
        .map_err(|e| e.to_string())?
        .ok_or("the GIF has no frame")?;
    let (left, top) = (usize::from(frame.left), usize::from(frame.top));
    let frame_width = usize::from(frame.width);
    for (row, line) in frame.buffer.chunks_exact(frame_width * 4).enumerate() {
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

fn webp(data: &[u8]) -> Result<Pixels, String> {
    let mut decoder = image_webp::WebPDecoder::new(Cursor::new(data)).map_err(|e| e.to_string())?;
    let (width, height) = decoder.dimensions();
    let (width, height) = (width as usize, height as usize);
    checked(width, height)?;
    let size = decoder
        .output_buffer_size()
        .ok_or("the WebP is too large")?;
    let mut buf = vec![0; size];
    decoder.read_image(&mut buf).map_err(|e| e.to_string())?;
    let rgba = if decoder.has_alpha() {
        buf
    } else {
        buf.chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect()
    };
    Ok(Pixels {
        width,
        height,
        rgba,
    })
}
