//! Images drawn at test time for the cases (never committed): a gradient
//! PNG, or a JPEG with an EXIF orientation.

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
            "png" => {
                let mut data = Vec::new();
                let mut encoder = png::Encoder::new(&mut data, self.width, self.height);
                encoder.set_color(png::ColorType::Rgb);
                encoder.set_depth(png::BitDepth::Eight);
                let mut writer = encoder.write_header()?;
                writer.write_image_data(&rgb)?;
                writer.finish()?;
                Ok(data)
            }
            "jpeg" => {
                let mut data = Vec::new();
                let mut encoder = jpeg_encoder::Encoder::new(&mut data, 90);
                if let Some(orientation) = self.orientation {
                    let mut exif =
                        b"Exif\0\0II*\0\x08\0\0\0\x01\0\x12\x01\x03\0\x01\0\0\0".to_vec();
                    exif.extend_from_slice(&orientation.to_le_bytes());
                    exif.extend_from_slice(&[0; 6]);
                    encoder.add_app_segment(1, &exif)?;
                }
                encoder.encode(
                    &rgb,
                    u16::try_from(self.width)?,
                    u16::try_from(self.height)?,
                    jpeg_encoder::ColorType::Rgb,
                )?;
                Ok(data)
            }
            other => bail!("unknown image format {other:?}"),
        }
    }
}
