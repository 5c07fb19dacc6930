//! Images drawn at test time for the cases (never committed): a gradient
//! as a [PNG](crate::png), or as a [JPEG](crate::jpeg) with an EXIF orientation.

use anyhow::{Result, bail};
use serde::Deserialize;

/// An image to draw: `{"format": "png" | "jpeg", "width": .., "height": .., "orientation": ..}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageSpec {
    /// `png` or `jpeg`.
    pub format: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// EXIF orientation of a JPEG (1 = upright).
    #[serde(default)]
    pub orientation: Option<u16>,
}

impl ImageSpec {
    /// The encoded file.
    pub fn draw(&self) -> Result<Vec<u8>> {
        let rgb: Vec<u8> = (0..self.height)
            .flat_map(|y| {
                (0..self.width).flat_map(move |x| {
                    [
                        (x % 251) as u8,
                        (y % 241) as u8,
                        ((x * 3 + y * 7) % 239) as u8,
                    ]
                })
            })
            .collect();
        match self.format.as_str() {
            "png" => Ok(crate::png::encode(self.width, self.height, &rgb)),
            "jpeg" => crate::jpeg::encode(self.width, self.height, &rgb, self.orientation),
            other => bail!("unknown image format {other:?}"),
        }
    }
}
