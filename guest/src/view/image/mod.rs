//! Images (SPEC R12): a PNG, JPEG, GIF or WebP — recognised by its magic
//! bytes — comes back as an image block the model can see. One within the
//! limits is sent as it is; a larger one (or a JPEG stored sideways) is
//! turned upright, downscaled to the long-edge and pixel limits, and
//! re-encoded as JPEG, quality falling step by step until the byte budget
//! holds. The text beside it gives the original and shown sizes and the
//! factor to multiply coordinates by.
//!
//! ```
//! use filetools_core::view::image::ShownImage;
//! let shown = ShownImage { format: "PNG", width: 4000, height: 3000, bytes: 2_400_000,
//!     shown_width: 1238, shown_height: 928, shown_bytes: 310_000, quality: Some(85), upright_turned: false };
//! assert_eq!(shown.to_string(), "[image: PNG 4000x3000, 2.2 MiB; shown at 1238x928 as JPEG (quality 85, 302 KiB); multiply coordinates in it by 3.23 for the original]");
//! ```

mod decode;
mod exif;
mod fit;
#[cfg(test)]
#[expect(clippy::cast_possible_truncation, reason = "test pixel patterns")]
pub(crate) mod tests;

use std::fmt;

use serde_json::json;

use crate::answers::error::ToolError;
use crate::answers::notice::Size;
use crate::answers::result::{Block, ToolResult};
use crate::config::Config;
use crate::fs::host::{HostFs, Metadata};
use decode::Undecoded;

/// What the model is told about an image it is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownImage {
    /// The file's format, e.g. `PNG`.
    pub format: &'static str,
    /// Upright width of the original.
    pub width: usize,
    /// Upright height of the original.
    pub height: usize,
    /// Bytes of the file.
    pub bytes: u64,
    /// Width as shown.
    pub shown_width: usize,
    /// Height as shown.
    pub shown_height: usize,
    /// Bytes as shown.
    pub shown_bytes: u64,
    /// JPEG quality, when re-encoded.
    pub quality: Option<u8>,
    /// Whether the EXIF orientation turned it.
    pub upright_turned: bool,
}

impl fmt::Display for ShownImage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[image: {} {}x{}, {}",
            self.format,
            self.width,
            self.height,
            Size(self.bytes)
        )?;
        if self.upright_turned {
            f.write_str(", turned upright by its EXIF orientation")?;
        }
        match self.quality {
            None => f.write_str("; shown as it is]"),
            Some(quality) => {
                write!(
                    f,
                    "; shown at {}x{} as JPEG (quality {quality}, {})",
                    self.shown_width,
                    self.shown_height,
                    Size(self.shown_bytes)
                )?;
                if self.shown_width == self.width {
                    f.write_str("]")
                } else {
                    // In hundredths, rounded, by integers: the same on every host.
                    let factor =
                        (self.width * 100 + self.shown_width / 2) / self.shown_width.max(1);
                    write!(
                        f,
                        "; multiply coordinates in it by {}.{:02} for the original]",
                        factor / 100,
                        factor % 100
                    )
                }
            }
        }
    }
}

/// A pixel count as megapixels, one decimal: `49.0 MP`.
struct Megapixels(usize);

impl fmt::Display for Megapixels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = (self.0 + 50_000) / 100_000;
        write!(f, "{}.{} MP", tenths / 10, tenths % 10)
    }
}

fn format_name(mime: &str) -> &'static str {
    match mime {
        "image/png" => "PNG",
        "image/jpeg" => "JPEG",
        "image/gif" => "GIF",
        "image/webp" => "WebP",
        _ => "image",
    }
}

/// An image made ready for the model.
#[derive(Debug, Clone)]
pub(crate) enum Fitted {
    /// Shown: what to tell, and the block to send.
    Shown {
        /// The sentence beside it.
        shown: ShownImage,
        /// The image block.
        block: Block,
    },
    /// Not shown, and why (one sentence).
    NotShown(String),
}

/// `data` (an image of type `mime`) fitted to the config's limits.
pub(crate) fn fit(config: &Config, data: Vec<u8>, mime: &str) -> Result<Fitted, String> {
    let format = format_name(mime);
    let size = data.len() as u64;
    let budget = usize::try_from(config.max_decode_pixels).unwrap_or(usize::MAX);
    let decoded = match decode::decode(&data, mime, budget) {
        Ok(decoded) => decoded,
        Err(Undecoded::TooLarge { width, height, max }) => {
            return Ok(Fitted::NotShown(format!(
                "[image: {format} {width}x{height}, {}; {} is more than the {} decoded here, so it is not shown; a smaller copy of it can be]",
                Size(size),
                Megapixels(width * height),
                Megapixels(max)
            )));
        }
        Err(Undecoded::Broken(reason)) => {
            return Ok(Fitted::NotShown(format!(
                "[image: {format}, {}; it cannot be decoded ({reason}), so it is not shown]",
                Size(size)
            )));
        }
    };
    let (width, height) = (decoded.pixels.width, decoded.pixels.height);
    let turned = decoded.orientation != exif::Orientation::UPRIGHT;
    let edge = usize::try_from(config.max_image_edge).unwrap_or(usize::MAX);
    let pixels = usize::try_from(config.max_image_pixels).unwrap_or(usize::MAX);
    let fits = width <= edge && height <= edge && width * height <= pixels;
    let mut shown = ShownImage {
        format,
        width,
        height,
        bytes: size,
        shown_width: width,
        shown_height: height,
        shown_bytes: size,
        quality: None,
        upright_turned: turned,
    };
    let (out_mime, out_data) = if fits && !turned && size <= config.max_image_bytes {
        (mime.to_owned(), data)
    } else {
        let (mut w, mut h) = fit::target_size(width, height, edge, pixels);
        let mut encoded = None;
        'sizes: for _ in 0..=fit::MAX_SHRINKS {
            let scaled = fit::downscale(&decoded.pixels, w, h)?;
            for quality in fit::QUALITIES {
                let jpeg = fit::jpeg(&scaled, quality)?;
                if jpeg.len() as u64 <= config.max_image_bytes {
                    encoded = Some((jpeg, quality, w, h));
                    break 'sizes;
                }
            }
            (w, h) = ((w / 2).max(1), (h / 2).max(1));
        }
        let Some((jpeg, quality, w, h)) = encoded else {
            return Ok(Fitted::NotShown(format!(
                "[image: {format} {width}x{height}, {}; it does not fit the {} image budget even small, so it is not shown]",
                Size(size),
                Size(config.max_image_bytes)
            )));
        };
        shown.shown_width = w;
        shown.shown_height = h;
        shown.shown_bytes = jpeg.len() as u64;
        shown.quality = Some(quality);
        ("image/jpeg".to_owned(), jpeg)
    };
    let block = Block::Image {
        mime_type: out_mime,
        data: out_data,
        width: u32::try_from(shown.shown_width).unwrap_or(u32::MAX),
        height: u32::try_from(shown.shown_height).unwrap_or(u32::MAX),
    };
    Ok(Fitted::Shown { shown, block })
}

/// Estimated tokens of an image of `width`×`height` pixels.
pub(crate) fn image_tokens(width: usize, height: usize) -> u64 {
    (width * height).div_ceil(750) as u64
}

/// Reads the image `rel` (of MIME type `mime`) and returns it for the model.
pub(crate) fn show<F: HostFs + ?Sized>(
    config: &Config,
    fs: &F,
    path: &str,
    rel: &str,
    mime: &'static str,
    meta: Metadata,
) -> Result<ToolResult, ToolError> {
    let format = format_name(mime);
    if meta.size > config.max_image_file_bytes {
        let text = format!(
            "[image: {format}, {}; over the {} that can be decoded, so it is not shown]",
            Size(meta.size),
            Size(config.max_image_file_bytes)
        );
        return Ok(facts(config, text, rel, mime));
    }
    let data = read_all(fs, rel, path, config.chunk_bytes)?;
    let fitted = fit(config, data, mime).map_err(|reason| ToolError::Fs {
        path: path.to_owned(),
        error: crate::fs::host::FsError::Io(reason),
    })?;
    let (shown, block) = match fitted {
        Fitted::Shown { shown, block } => (shown, block),
        Fitted::NotShown(text) => return Ok(facts(config, text, rel, mime)),
    };
    let text = shown.to_string();
    let mime_type = match &block {
        Block::Image { mime_type, .. } => mime_type.clone(),
        Block::Text(_) => String::new(),
    };
    let metadata = json!({
        "kind": "image",
        "path": rel,
        "mime_type": mime_type,
        "width": shown.width,
        "height": shown.height,
        "shown_width": shown.shown_width,
        "shown_height": shown.shown_height,
        "shown_bytes": shown.shown_bytes,
        "estimated_tokens": config.estimate_tokens(text.len() as u64)
            + image_tokens(shown.shown_width, shown.shown_height),
    });
    Ok(ToolResult {
        content: vec![Block::Text(text), block],
        is_error: false,
        metadata,
    })
}

fn facts(config: &Config, text: String, rel: &str, mime: &str) -> ToolResult {
    let metadata = json!({ "kind": "image", "path": rel, "mime_type": mime, "shown": false });
    crate::view::read::fact(config, text, metadata)
}

/// Every byte of `rel`, fetched in `chunk`-byte pieces.
pub(crate) fn read_all<F: HostFs + ?Sized>(
    fs: &F,
    rel: &str,
    path: &str,
    chunk: u32,
) -> Result<Vec<u8>, ToolError> {
    let mut data = Vec::new();
    loop {
        let piece = fs
            .read(rel, data.len() as u64, chunk)
            .map_err(|err| ToolError::from_fs(path, err))?;
        let last = piece.len() < chunk as usize;
        data.extend_from_slice(&piece);
        if last {
            return Ok(data);
        }
    }
}
